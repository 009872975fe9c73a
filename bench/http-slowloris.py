#!/usr/bin/env python3
"""Slowloris against a server on 127.0.0.1 while GET /healthz is probed from another address.

    bench/http-slowloris.py PORT [CONNECTIONS] [ADDRESSES] [SECONDS]

Holds CONNECTIONS (2000) connections from ADDRESSES (20) loopback addresses 127.0.0.2...,
each sending a request line and then one header byte every 5 s, reopening whatever the
server closes. Meanwhile, for SECONDS (10), a second thread sends GET /healthz on a fresh
connection from 127.0.0.1 one after another. Prints one line:

    probes_per_second p99_ms held_min failures closed_by_server
"""
import resource
import selectors
import socket
import sys
import threading
import time

port = int(sys.argv[1])
connections = int(sys.argv[2]) if len(sys.argv) > 2 else 2000
address_count = int(sys.argv[3]) if len(sys.argv) > 3 else 20
seconds = float(sys.argv[4]) if len(sys.argv) > 4 else 10.0
addresses = [f"127.0.0.{2 + i}" for i in range(address_count)]

soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
wanted = connections + 256
if soft < wanted:
    resource.setrlimit(resource.RLIMIT_NOFILE, (min(wanted, hard), hard))


def open_slow(index):
    s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    s.bind((addresses[index % len(addresses)], 0))
    s.settimeout(2)
    s.connect(("127.0.0.1", port))
    s.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nX-Slow: ")
    s.setblocking(False)
    return s


def is_open(s):
    try:
        return s.recv(4096) != b""
    except BlockingIOError:
        return True
    except OSError:
        return False


slow = [None] * connections
for i in range(connections):
    try:
        slow[i] = open_slow(i)
    except OSError:
        pass

stop = threading.Event()
held = []
closed_by_server = 0
watch = selectors.DefaultSelector()
for i, s in enumerate(slow):
    if s is not None:
        watch.register(s, selectors.EVENT_READ, i)


def reopen(i):
    global closed_by_server
    s = slow[i]
    if s is not None:
        closed_by_server += 1
        watch.unregister(s)
        s.close()
    try:
        slow[i] = open_slow(i)
        watch.register(slow[i], selectors.EVENT_READ, i)
    except OSError:
        slow[i] = None


def trickle():
    # One byte per connection every 5 s (a fiftieth of them every 100 ms); whatever the
    # server closes is reopened at once, as an attacker would.
    round_ = 0
    next_round = time.monotonic()
    while not stop.is_set():
        for key, _ in watch.select(timeout=max(0, next_round - time.monotonic())):
            if not is_open(key.fileobj):
                reopen(key.data)
        if time.monotonic() < next_round:
            continue
        for i in range(round_ % 50, connections, 50):
            s = slow[i]
            try:
                if s is None:
                    raise OSError
                s.send(b"x")
            except OSError:
                reopen(i)
        if round_ % 10 == 0:
            held.append(sum(1 for s in slow if s is not None))
        round_ += 1
        next_round += 0.1


thread = threading.Thread(target=trickle, daemon=True)
thread.start()
time.sleep(1)  # let every slow connection send its first bytes

latencies, failures = [], 0
started = time.monotonic()
while time.monotonic() - started < seconds:
    t = time.monotonic()
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=2) as probe:
            probe.sendall(b"GET /healthz HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
            answer = b""
            while True:
                chunk = probe.recv(4096)
                if not chunk:
                    break
                answer += chunk
            if not answer.startswith(b"HTTP/1.1 200"):
                failures += 1
    except OSError:
        failures += 1
    latencies.append((time.monotonic() - t) * 1000)
elapsed = time.monotonic() - started
stop.set()
thread.join()

latencies.sort()
p99 = latencies[max(0, int(len(latencies) * 0.99 + 0.999999) - 1)] if latencies else float("nan")
print(f"{len(latencies) / elapsed:.0f} {p99:.2f} {min(held) if held else 0} {failures} {closed_by_server}")
