#!/usr/bin/env python3
"""A loopback webhook receiver for bench/http: answers every POST with 204 at once and records,
for each event, how long after its timestamp it arrived (the event's `timestamp` is written in
the transaction of the check-in that caused it).

    bench/webhook-receiver.py PORT_FILE

Listens on a free port on 127.0.0.1 and writes the port to PORT_FILE. GET /stats answers
{"received": N, "duplicates": D, "p50_ms": …, "p99_ms": …, "max_ms": …, "first": …, "last": …}
(times since the epoch in seconds) for the events received so far: N counts distinct
`webhook-id`s (delivery is at least once; a repeat is counted in D, and its lag is the first
arrival's).

Kept cheap because it shares the machine with the server it measures: one thread per
connection reading blocking sockets (Belay's worker keeps one connection open), no asyncio.
"""
import json
import socket
import sys
import threading
import time
from datetime import datetime

lock = threading.Lock()
lags = []
arrivals = []
seen = set()
duplicates = 0


def timestamp_seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def stats():
    with lock:
        return {
            "received": len(lags),
            "duplicates": duplicates,
            "p50_ms": percentile(lags, 0.50),
            "p99_ms": percentile(lags, 0.99),
            "max_ms": max(lags) if lags else None,
            "first": min(arrivals) if arrivals else None,
            "last": max(arrivals) if arrivals else None,
        }


def record(message_id, body, now):
    global duplicates
    event = json.loads(body)
    lag = (now - timestamp_seconds(event["timestamp"])) * 1000
    with lock:
        if message_id is not None:
            if message_id in seen:
                duplicates += 1
                return
            seen.add(message_id)
        lags.append(lag)
        arrivals.append(now)


def serve(connection):
    reader = connection.makefile("rb")
    try:
        while True:
            request_line = reader.readline()
            if not request_line:
                return
            now = time.time()
            method, path = request_line.split(b" ")[:2]
            length = 0
            message_id = None
            while True:
                line = reader.readline()
                if line in (b"\r\n", b"\n", b""):
                    break
                name, _, value = line.partition(b":")
                name = name.strip().lower()
                if name == b"content-length":
                    length = int(value)
                elif name == b"webhook-id":
                    message_id = value.strip()
            body = reader.read(length) if length else b""
            if method == b"GET" and path == b"/stats":
                answer = json.dumps(stats()).encode()
                connection.sendall(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(answer) + answer)
            else:
                record(message_id, body, now)
                connection.sendall(b"HTTP/1.1 204 No Content\r\n\r\n")
    except (ConnectionError, ValueError):
        pass
    finally:
        reader.close()
        connection.close()


def main(port_file):
    listener = socket.socket()
    listener.bind(("127.0.0.1", 0))
    listener.listen(1024)
    with open(port_file, "w") as out:
        out.write(str(listener.getsockname()[1]))
    while True:
        connection, _ = listener.accept()
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        threading.Thread(target=serve, args=(connection,), daemon=True).start()


if __name__ == "__main__":
    main(sys.argv[1])
