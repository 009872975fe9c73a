"""A loopback APNs for bench/push that costs as little as it can, so the bench measures Belay:
HTTP/2 over TLS (python-h2 on asyncio, no framework), every POST to /3/device/{token} answered
200 at once and counted by the notice's kind. It checks nothing (the tests' push-services.py
does); it records, for each reward, when its first "sticker ready" notice arrived.

    bench/apns-receiver.py DIR

Makes DIR/ca.pem and a certificate for 127.0.0.1, writes DIR/apns-key.p8 (an EC P-256 key
Belay signs its provider tokens with), prints `listening CONTROL_PORT` and `tls TLS_PORT`.
The plain-HTTP control port answers GET /counts ({kind: n}) and GET /ready-times
({reward id: seconds since 1970}).
"""
import asyncio
import json
import os
import ssl
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import h2.config
import h2.connection
import h2.events

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "scripts", "testing"))
push_services = __import__("push-services")

counts = {}
ready = {}
lock = threading.Lock()


def record(body):
    try:
        payload = json.loads(body)
    except ValueError:
        return
    kind = payload.get("kind", "")
    with lock:
        counts[kind] = counts.get(kind, 0) + 1
        if kind == "reward_ready" and payload.get("reward_id") not in ready:
            ready[payload.get("reward_id")] = time.time()


class Connection(asyncio.Protocol):
    def connection_made(self, transport):
        self.transport = transport
        self.h2 = h2.connection.H2Connection(config=h2.config.H2Configuration(client_side=False))
        self.h2.initiate_connection()
        self.h2.update_settings({h2.settings.SettingCodes.MAX_CONCURRENT_STREAMS: 1000})
        self.bodies = {}
        transport.write(self.h2.data_to_send())

    def data_received(self, data):
        try:
            events = self.h2.receive_data(data)
        except Exception:
            self.transport.close()
            return
        for event in events:
            if isinstance(event, h2.events.RequestReceived):
                self.bodies[event.stream_id] = b""
            elif isinstance(event, h2.events.DataReceived):
                self.bodies[event.stream_id] = self.bodies.get(event.stream_id, b"") + event.data
                self.h2.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
            elif isinstance(event, h2.events.StreamEnded):
                record(self.bodies.pop(event.stream_id, b""))
                self.h2.send_headers(event.stream_id, [(":status", "200"), ("apns-id", "0")], end_stream=True)
        self.transport.write(self.h2.data_to_send())


class Control(BaseHTTPRequestHandler):
    def log_message(self, *_):
        pass

    def do_GET(self):
        with lock:
            data = json.dumps(counts if self.path.startswith("/counts") else ready).encode()
        self.send_response(200)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


def main():
    directory = sys.argv[1]
    push_services.make_pki(directory)
    from cryptography.hazmat.primitives.asymmetric import ec
    with open(os.path.join(directory, "apns-key.p8"), "wb") as f:
        f.write(push_services.private_pem(ec.generate_private_key(ec.SECP256R1())))
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    context.load_cert_chain(os.path.join(directory, "server.pem"), os.path.join(directory, "server-key.pem"))
    context.set_alpn_protocols(["h2"])
    control = ThreadingHTTPServer(("127.0.0.1", 0), Control)
    threading.Thread(target=control.serve_forever, daemon=True).start()

    async def serve():
        server = await asyncio.get_running_loop().create_server(Connection, "127.0.0.1", 0, ssl=context)
        print(f"listening {control.server_address[1]}", flush=True)
        print(f"tls {server.sockets[0].getsockname()[1]}", flush=True)
        await server.serve_forever()

    asyncio.run(serve())


if __name__ == "__main__":
    main()
