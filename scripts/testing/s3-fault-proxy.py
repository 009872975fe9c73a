"""A fault proxy between Belay and the loopback S3 server, for the object-store tests.

    s3-fault-proxy.py --upstream PORT

Forwards every request byte for byte (the Host header included, so signatures still match)
unless a fault is planned: `POST /__faults/plan` with {"mode": M, "count": N} makes the next N
requests (every one while N is -1) fail as M:
  slowdown  503 with S3's SlowDown error       error500  500 InternalError
  reset     the connection is reset, nothing answered
  denied    403 AccessDenied                   stall     no answer for 5 s (or "stall_seconds"), then a reset
  mixed     each request at random by "weights" ({"slowdown": 25, "reset": 15, "stall": 5,
            "forward": 55} when not given): the faults of a store under load
`GET /__faults/stats` answers {"forwarded": n, "injected": n, "uploads": {path: [sha256, …]}},
the distinct bodies of the PUTs the store took at each path (an object written twice with
different bytes has two). Prints `listening PORT`."""

import argparse
import hashlib
import http.client
import random
import json
import socket
import struct
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

lock = threading.Lock()
plan = {"mode": None, "count": 0, "weights": None, "stall_seconds": 5}
stats = {"forwarded": 0, "injected": 0}
uploads = {}
MIXED = {"slowdown": 25, "reset": 15, "stall": 5, "forward": 55}
ERRORS = {
    "slowdown": (503, "SlowDown", "Please reduce your request rate."),
    "error500": (500, "InternalError", "We encountered an internal error. Please try again."),
    "denied": (403, "AccessDenied", "Access Denied"),
}


def take_fault():
    with lock:
        if plan["mode"] is None or plan["count"] == 0:
            return None
        if plan["count"] > 0:
            plan["count"] -= 1
        mode = plan["mode"]
        if mode == "mixed":
            weights = plan["weights"] or MIXED
            mode = random.choices(list(weights), weights=list(weights.values()))[0]
            if mode == "forward":
                return None
        stats["injected"] += 1
        return mode


class Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    upstream = 0

    def log_message(self, *arguments):
        pass

    def reset(self):
        self.connection.setsockopt(socket.SOL_SOCKET, socket.SO_LINGER, struct.pack("ii", 1, 0))
        self.connection.close()
        self.close_connection = True

    def answer(self, status, body, kind="application/xml"):
        self.send_response(status)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        if self.path.startswith("/__faults/"):
            if self.path == "/__faults/plan":
                wanted = json.loads(body or b"{}")
                with lock:
                    plan["mode"] = wanted.get("mode")
                    plan["count"] = int(wanted.get("count", 0))
                    plan["weights"] = wanted.get("weights")
                    plan["stall_seconds"] = float(wanted.get("stall_seconds", 5))
                return self.answer(200, b"{}", "application/json")
            with lock:
                text = json.dumps(dict(stats, uploads={path: sorted(hashes) for path, hashes in uploads.items()})).encode()
            return self.answer(200, text, "application/json")
        fault = take_fault()
        if fault == "reset":
            return self.reset()
        if fault == "stall":
            with lock:
                seconds = plan["stall_seconds"]
            time.sleep(seconds)
            return self.reset()
        if fault in ERRORS:
            status, code, message = ERRORS[fault]
            text = f'<?xml version="1.0" encoding="UTF-8"?><Error><Code>{code}</Code><Message>{message}</Message></Error>'
            return self.answer(status, text.encode())
        connection = http.client.HTTPConnection("127.0.0.1", self.upstream, timeout=60)
        connection.putrequest(self.command, self.path, skip_host=True, skip_accept_encoding=True)
        for name, value in self.headers.items():
            connection.putheader(name, value)
        connection.endheaders(body if body or self.command in ("PUT", "POST") else None)
        response = connection.getresponse()
        data = response.read()
        with lock:
            stats["forwarded"] += 1
            if self.command == "PUT" and body and 200 <= response.status < 300:
                uploads.setdefault(self.path.split("?")[0], set()).add(hashlib.sha256(body).hexdigest())
        self.send_response(response.status)
        for name, value in response.getheaders():
            if name.lower() not in ("content-length", "transfer-encoding", "connection", "server", "date"):
                self.send_header(name, value)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        if self.command != "HEAD":
            self.wfile.write(data)
        connection.close()

    do_GET = do_PUT = do_POST = do_DELETE = do_HEAD = handle_any


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--upstream", type=int, required=True)
    arguments = parser.parse_args()
    Handler.upstream = arguments.upstream
    server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    server.daemon_threads = True
    print(f"listening {server.server_address[1]}", flush=True)
    server.serve_forever()


if __name__ == "__main__":
    sys.exit(main())
