"""The load generator of ``bench/stream_bench.py --gevent``: thousands of idle streams from one process.

    python bench/_stream_clients.py PORT COUNT {get|listen}

Runs under gevent (a greenlet and a raw socket per client, so 10,000 clients cost little), each
client holding one stream open on ``PORT``:

- ``get``: a 2025-11-25 session (``initialize``, ``notifications/initialized``) and its GET stream;
  when the server ends the stream (SEP-1699 polling) the client comes back after ``retry`` with
  ``Last-Event-ID``, as the official clients do;
- ``listen``: a 2026-07-28 ``subscriptions/listen`` (no session), held until the end, each from
  a loopback address of its own (``127.1.0.0/16``), as distinct clients.

Prints ``{"open": n, ...}`` once every stream is open (or after ``--settle`` seconds without
progress), then keeps them until stdin closes and prints the final counts.
"""

from __future__ import annotations

from gevent import monkey

monkey.patch_all()

import argparse  # noqa: E402
import json  # noqa: E402
import socket  # noqa: E402
import sys  # noqa: E402
import time  # noqa: E402
import typing as t  # noqa: E402

import gevent  # noqa: E402
import gevent.event  # noqa: E402
from gevent.lock import BoundedSemaphore  # noqa: E402

MODERN = "2026-07-28"
LEGACY = "2025-11-25"


class Counts:
    def __init__(self) -> None:
        self.open = 0
        self.opened = 0
        self.polls = 0
        self.refused = 0
        self.errors = 0

    def as_dict(self) -> dict[str, int]:
        return dict(vars(self))


def send(sock: socket.socket, port: int, method: str, headers: dict[str, str], body: bytes = b"") -> None:
    lines = [f"{method} / HTTP/1.1", f"Host: 127.0.0.1:{port}"]
    lines += [f"{name}: {value}" for name, value in headers.items()]
    if body or method == "POST":
        lines.append(f"Content-Length: {len(body)}")
    sock.sendall(("\r\n".join(lines) + "\r\n\r\n").encode() + body)


def head(reader: t.BinaryIO) -> tuple[int, dict[str, str]]:
    status = reader.readline()
    if not status:
        raise ConnectionError("closed before the status line")
    headers = {}
    while True:
        line = reader.readline()
        if line in (b"\r\n", b"\n", b""):
            break
        name, _, value = line.decode("latin-1").partition(":")
        headers[name.strip().lower()] = value.strip()
    return int(status.split()[1]), headers


def body(reader: t.BinaryIO, headers: dict[str, str]) -> t.Iterator[bytes]:
    """The body's bytes as they come (Content-Length, or chunked)."""
    if "content-length" in headers:
        yield reader.read(int(headers["content-length"]))
        return
    while True:
        size = int(reader.readline().split(b";")[0], 16)
        if size == 0:
            reader.readline()
            return
        yield reader.read(size)
        reader.readline()


def post(port: int, message: dict[str, t.Any], headers: dict[str, str]) -> tuple[int, dict[str, str], bytes]:
    with socket.create_connection(("127.0.0.1", port), timeout=120) as sock, sock.makefile("rb") as reader:
        base = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream", "Connection": "close"}
        send(sock, port, "POST", {**base, **headers}, json.dumps(message).encode())
        status, answer = head(reader)
        return status, answer, b"".join(body(reader, answer))


def stream(port: int, method: str, headers: dict[str, str], payload: bytes, counts: Counts, state: dict[str, t.Any]) -> bool:
    """One SSE connection, read until the server ends it; False when refused."""
    with socket.create_connection(("127.0.0.1", port), timeout=None, source_address=state.get("source")) as sock, \
            sock.makefile("rb") as reader:
        send(sock, port, method, headers, payload)
        status, answer = head(reader)
        if status != 200:
            counts.refused += 1
            b"".join(body(reader, answer))
            return False
        counts.open += 1
        if not state.get("counted"):
            state["counted"] = True
            counts.opened += 1
            state["release"]()
        try:
            buffer = b""
            for chunk in body(reader, answer):
                buffer += chunk
                *lines, buffer = buffer.split(b"\n")
                for line in lines:
                    if line.startswith(b"id: "):
                        state["last_id"] = line[4:].decode()
                    elif line.startswith(b"retry: "):
                        state["retry"] = int(line[7:]) / 1000
        finally:
            counts.open -= 1
        return True


def get_client(port: int, counts: Counts, stop: gevent.event.Event, state: dict[str, t.Any]) -> None:
    params = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
    status, headers, _ = post(port, {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params}, {})
    if status != 200:
        counts.refused += 1
        return
    session = {"Mcp-Session-Id": headers["mcp-session-id"], "MCP-Protocol-Version": LEGACY}
    post(port, {"jsonrpc": "2.0", "method": "notifications/initialized"}, session)
    state["retry"] = 1.0
    while not stop.is_set():
        wanted = {"Accept": "text/event-stream", **session}
        if state.get("last_id"):
            wanted["Last-Event-ID"] = state["last_id"]
        stream(port, "GET", wanted, b"", counts, state)
        counts.polls += 1
        stop.wait(state["retry"])


def listen_client(port: int, counts: Counts, stop: gevent.event.Event, number: int, state: dict[str, t.Any]) -> None:
    meta = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
    message = {"jsonrpc": "2.0", "id": number, "method": "subscriptions/listen",
               "params": {"_meta": meta, "notifications": {"toolsListChanged": True}}}
    payload = json.dumps(message).encode()
    headers = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
               "MCP-Protocol-Version": MODERN, "Mcp-Method": "subscriptions/listen"}
    # Each listener from a loopback address of its own: the transport shares listens per client address.
    state["source"] = (f"127.1.{number // 250}.{number % 250 + 1}", 0)
    while not stop.is_set():
        if not stream(port, "POST", headers, payload, counts, state):
            stop.wait(1.0)


def guarded(job: t.Callable[[dict[str, t.Any]], None], counts: Counts, handshakes: BoundedSemaphore) -> None:
    """Run one client; it holds a handshake place until its stream first opens (or it fails)."""
    released: list[bool] = []

    def release() -> None:
        if not released:
            released.append(True)
            handshakes.release()

    try:
        job({"release": release})
    except (OSError, ValueError, KeyError):
        counts.errors += 1
    finally:
        release()


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("port", type=int)
    parser.add_argument("count", type=int)
    parser.add_argument("kind", choices=["get", "listen"])
    parser.add_argument("--settle", type=float, default=30.0)
    parser.add_argument("--concurrency", type=int, default=100)
    args = parser.parse_args()
    counts, stop = Counts(), gevent.event.Event()
    handshakes = BoundedSemaphore(args.concurrency)
    clients = []
    for number in range(args.count):
        if args.kind == "get":
            def job(state: dict[str, t.Any], port: int = args.port) -> None:
                get_client(port, counts, stop, state)
        else:
            def job(state: dict[str, t.Any], port: int = args.port, number: int = number) -> None:
                listen_client(port, counts, stop, number, state)
        handshakes.acquire()
        clients.append(gevent.spawn(guarded, job, counts, handshakes))
    last, still = -1, time.monotonic()
    while counts.opened < args.count and time.monotonic() - still < args.settle:
        if counts.opened != last:
            last, still = counts.opened, time.monotonic()
        gevent.sleep(0.2)
    print(json.dumps(counts.as_dict()), flush=True)
    gevent.get_hub().threadpool.spawn(sys.stdin.read).get()
    stop.set()
    gevent.killall(clients, timeout=5)
    print(json.dumps(counts.as_dict()), flush=True)


if __name__ == "__main__":
    main()
