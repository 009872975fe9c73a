#!/usr/bin/env python3
"""A loopback webhook receiver for bench/http: answers every POST with 204 at once and records,
for each event, how long after its timestamp it arrived (the event's `timestamp` is written in
the transaction of the check-in that caused it).

    bench/webhook-receiver.py PORT_FILE

Listens on a free port on 127.0.0.1 and writes the port to PORT_FILE. GET /stats answers
{"received": N, "p50_ms": …, "p99_ms": …, "max_ms": …, "first": …, "last": …} (times since the
epoch in seconds), for the events received so far.
"""
import asyncio
import json
import sys
import time
from datetime import datetime

lags = []
arrivals = []


def timestamp_seconds(text):
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, fraction):
    if not values:
        return None
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def stats():
    return {
        "received": len(lags),
        "p50_ms": percentile(lags, 0.50),
        "p99_ms": percentile(lags, 0.99),
        "max_ms": max(lags) if lags else None,
        "first": min(arrivals) if arrivals else None,
        "last": max(arrivals) if arrivals else None,
    }


async def serve(reader, writer):
    try:
        while True:
            head = await reader.readuntil(b"\r\n\r\n")
            now = time.time()
            lines = head.decode("latin-1").split("\r\n")
            method, path = lines[0].split(" ")[:2]
            length = 0
            for line in lines[1:]:
                name, _, value = line.partition(":")
                if name.strip().lower() == "content-length":
                    length = int(value.strip())
            body = await reader.readexactly(length) if length else b""
            if method == "GET" and path == "/stats":
                answer = json.dumps(stats()).encode()
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n" % len(answer) + answer)
            else:
                event = json.loads(body)
                lags.append((now - timestamp_seconds(event["timestamp"])) * 1000)
                arrivals.append(now)
                writer.write(b"HTTP/1.1 204 No Content\r\n\r\n")
            await writer.drain()
    except (asyncio.IncompleteReadError, ConnectionResetError):
        pass
    finally:
        writer.close()


async def main(port_file):
    server = await asyncio.start_server(serve, "127.0.0.1", 0, backlog=1024)
    with open(port_file, "w") as out:
        out.write(str(server.sockets[0].getsockname()[1]))
    async with server:
        await server.serve_forever()


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1]))
