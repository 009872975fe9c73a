"""A webhook receiver on loopback for Belay's tests, checking every request with the
Standard Webhooks reference library.

    webhook-receiver.py --secret-file FILE [--fail-first N] [--hold-first TYPE --hold-seconds S] [--delay-ms MS]

Prints `listening PORT` once it listens on 127.0.0.1 (a free port), then one JSON line per
request received: id, timestamp, type, the attempt number for that id, whether the
signature verified (with the secret read from FILE at that moment), the answer given, and
the body. Behaviour: the first N attempts of every message are answered 503; the first
message of TYPE is held without an answer for S seconds on its first attempt (a line
`holding ID` is printed first); every answer waits MS milliseconds.
"""
import argparse
import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from standardwebhooks.webhooks import Webhook

parser = argparse.ArgumentParser()
parser.add_argument("--secret-file", required=True)
parser.add_argument("--fail-first", type=int, default=0)
parser.add_argument("--hold-first", default="")
parser.add_argument("--hold-seconds", type=float, default=60)
parser.add_argument("--delay-ms", type=int, default=0)
options = parser.parse_args()

lock = threading.Lock()
attempts = {}
held = set()


def emit(line):
    with lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


class Handler(BaseHTTPRequestHandler):
    # Keeps connections open between requests, as a real receiver does.
    protocol_version = "HTTP/1.1"

    def log_message(self, *args):
        pass

    def do_POST(self):
        length = int(self.headers.get("Content-Length", "0"))
        body = self.rfile.read(length)
        headers = {name.lower(): value for name, value in self.headers.items()}
        message_id = headers.get("webhook-id", "")
        try:
            with open(options.secret_file) as file:
                secret = file.read().strip()
            payload = Webhook(secret).verify(body, headers)
            verified, error, kind = True, None, payload.get("type")
        except Exception as failure:
            verified, error = False, str(failure)
            try:
                kind = json.loads(body).get("type")
            except Exception:
                kind = None
        with lock:
            attempts[message_id] = attempts.get(message_id, 0) + 1
            number = attempts[message_id]
            hold = kind == options.hold_first and not held and number == 1
            if hold:
                held.add(message_id)
        if hold:
            emit("holding " + message_id)
            time.sleep(options.hold_seconds)
        status = 503 if number <= options.fail_first else (200 if verified else 400)
        if options.delay_ms:
            time.sleep(options.delay_ms / 1000)
        emit(json.dumps({"id": message_id, "timestamp": headers.get("webhook-timestamp"), "type": kind,
                         "attempt": number, "verified": verified, "error": error, "answer": status,
                         "signature": headers.get("webhook-signature"), "body": body.decode("utf-8", "replace"),
                         "peer_port": self.client_address[1]}))
        try:
            self.send_response(status)
            self.send_header("Content-Length", "0")
            self.end_headers()
        except OSError:
            pass


server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
server.daemon_threads = True
emit(f"listening {server.server_address[1]}")
server.serve_forever()
