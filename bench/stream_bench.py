"""Stream capacity: connected polling clients one process serves while a ping stays quick.

``python bench/stream_bench.py [--levels 250 500 1000] [--seconds 6] [--server official]``
``python bench/stream_bench.py --listen [--levels 8 32 128 512] [--seconds 4]``
``python bench/stream_bench.py --gevent [--streams 10000] [--kinds get listen] [--hold none]``

Runs ``StreamableHTTPTransport(server)`` with every default under gunicorn ``-k gthread
--threads 8 -w 1``. At each level it connects that many 2025-11-25 sessions, each subscribed to
``bench://clock`` and keeping its GET stream (the transport holds a few and closes the rest after a
``retry``, SEP-1699; each client comes back with ``Last-Event-ID`` after the ``retry``, as the
official clients do), then times ``ping`` from one more client for ``--seconds``. The server tells
every subscriber ``notifications/resources/updated`` every 2 s, stamped with the time it was sent.
It reports, per level, the ping p50/p99, refusals (any 429/503 is a failure), GETs served per
second, and of the updates sent while it timed: how late they arrived (p50, p99, max), how many
came later than ``retry`` + 1 s, and how many never came or came twice (each client must get each
one once). The capacity is the largest level whose ping p99 stays under 250 ms with no refusal, no
update missed, late or repeated. Client threads live in this process (one per session), so the two
cores are shared with the load generator: the figure is a floor. ``--server official``: the same
case against the ``mcp`` package's server under uvicorn (``_official_stream_server.py``).

``--listen``: each client is a 2026-07-28 listener instead (``subscriptions/listen``, which cannot
be resumed and holds a thread while open): the transport keeps a share of the threads for listens
and ends the oldest with its result when a newcomer comes; each client listens again as our
``Client`` does (at once spread over 1 s, doubling on quick ends). Reported per level: the ping
p50/p99 of another client, refusals, listens acknowledged and ended gracefully per second, and the
time between one listener's acknowledgements (p50/p99: how long its view may lag before it
listens again and re-lists; gaps longer than the run cannot show) and how many listeners were
acknowledged while the ping was timed.

``--gevent`` runs gunicorn ``-k gevent`` with one worker instead and holds ``--streams`` idle streams
open at once (2025 GET streams, 2026 ``subscriptions/listen``, or both in turn) from a gevent load
generator in another process (``_stream_clients.py``). It reports ping p50/p99 and the worker's RSS
per open stream, read from ``/proc``.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import resource
import socket
import subprocess
import sys
import threading
import time
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
P99_LIMIT = 0.250
VERSION = "2025-11-25"
HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


#: The MCP endpoint's path (``--server official`` serves it at /mcp).
PATH = "/"


def start(port: int, server: str = "ours") -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "8", "-w", "1", "--backlog", "4096",
               "--graceful-timeout", "1", "-b", f"127.0.0.1:{port}", "_stream_server:app"]
    if server == "official":
        command = [sys.executable, "_official_stream_server.py", str(port)]
    process = subprocess.Popen(command, cwd=HERE, env={**os.environ, "PYTHONPATH": ROOT}, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")


class Session:
    def __init__(self, port: int) -> None:
        self.port = port
        self.connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
        self.id = ""

    def post(self, message: dict[str, t.Any]) -> tuple[int, bytes]:
        headers = dict(HEADERS)
        if self.id:
            headers.update({"Mcp-Session-Id": self.id, "MCP-Protocol-Version": VERSION})
        self.connection.request("POST", PATH, json.dumps(message), headers)
        response = self.connection.getresponse()
        body = response.read()
        self.id = self.id or (response.getheader("Mcp-Session-Id") or "")
        return response.status, body

    def initialize(self) -> None:
        params = {"protocolVersion": VERSION, "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
        self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})


class Stats:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.gets = 0
        self.refused = 0
        self.errors = 0
        self.ended = 0
        self.gaps: list[float] = []  # seconds between one listener's acknowledgements
        self.window_start: float | None = None  # when the ping is timed
        self.acked: set[int] = set()  # listeners acknowledged since window_start
        self.retry = 1.0
        #: Per client, the send time and delay of each update received.
        self.updates: list[list[tuple[float, float]]] = []

    def client(self) -> list[tuple[float, float]]:
        received: list[tuple[float, float]] = []
        with self.lock:
            self.updates.append(received)
        return received

    def add(self, name: str) -> None:
        with self.lock:
            setattr(self, name, getattr(self, name) + 1)


def poll_forever(port: int, stats: Stats, stop: threading.Event, ready: threading.Barrier) -> None:
    """One session keeping its GET stream, SEP-1699 style: reconnect after ``retry`` with ``Last-Event-ID``."""
    session = Session(port)
    received = stats.client()
    try:
        session.initialize()
        session.post({"jsonrpc": "2.0", "id": 1, "method": "resources/subscribe", "params": {"uri": "bench://clock"}})
    finally:
        ready.wait(60)
    last_id, retry = "", 1.0
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    while not stop.is_set():
        headers = {"Accept": "text/event-stream", "Mcp-Session-Id": session.id, "MCP-Protocol-Version": VERSION}
        if last_id:
            headers["Last-Event-ID"] = last_id
        try:
            connection.request("GET", PATH, headers=headers)
            response = connection.getresponse()
            if response.status in (429, 503):
                stats.add("refused")
                response.read()
            else:
                stats.add("gets")
                for raw in response:  # until the server closes this poll
                    line = raw.decode().rstrip("\r\n")
                    if line.startswith("id: "):
                        last_id = line[4:]
                    elif line.startswith("retry: "):
                        retry = stats.retry = int(line[7:]) / 1000
                    elif line.startswith("data: ") and "notifications/resources/updated" in line:
                        sent = float(json.loads(line[6:])["params"]["uri"].rpartition("t=")[2])
                        received.append((sent, time.time() - sent))
                    if stop.is_set():
                        break
                response.close()
        except (OSError, http.client.HTTPException):
            stats.add("errors")
            connection.close()
            connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(client_address(number), 0))
        stop.wait(retry)
    connection.close()
    session.connection.close()


LISTEN = {"jsonrpc": "2.0", "method": "subscriptions/listen", "params": {"notifications": {"toolsListChanged": True}, "_meta": {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28", "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "bench", "version": "1"}}}}
LISTEN_HEADERS = {**HEADERS, "MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "subscriptions/listen"}


def client_address(number: int) -> str:
    """Client ``number``'s own loopback address (``127.0.0.0/8`` is all loopback on Linux): the
    transport gives each client address a share of the listens, so clients of one address would be
    one client past its share."""
    return f"127.1.{number // 250}.{number % 250 + 1}"


def listen_forever(port: int, stats: Stats, stop: threading.Event, ready: threading.Barrier, number: int = 0) -> None:
    """One 2026-07-28 listener, from an address of its own: listen, and after a graceful end listen
    again (backoff on quick ends)."""
    import random

    ready.wait(60)
    quick, request_id = 0, 0
    last_ack: float | None = None
    while not stop.is_set():
        request_id += 1
        # A new connection each time: gunicorn closes one idle past its keep-alive (2 s) while we back off.
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30, source_address=(client_address(number), 0))
        opened = time.monotonic()
        delay = 1.0
        try:
            connection.request("POST", PATH, json.dumps({**LISTEN, "id": request_id}), LISTEN_HEADERS)
            response = connection.getresponse()
            if response.status in (429, 503):
                stats.add("refused")
                response.read()
                delay = float(response.getheader("Retry-After") or 1)
            else:
                for raw in response:  # until the server ends the listen (or the bench stops)
                    if raw.startswith(b"data: ") and b"acknowledged" in raw:
                        stats.add("gets")
                        now = time.monotonic()
                        with stats.lock:
                            if last_ack is not None and not stop.is_set():
                                stats.gaps.append(now - last_ack)
                            if stats.window_start is not None and now >= stats.window_start:
                                stats.acked.add(threading.get_ident())
                        last_ack = now
                    elif raw.startswith(b"data: ") and b'"result"' in raw:
                        stats.add("ended")
                    if stop.is_set():
                        break
                response.close()
                quick = quick + 1 if time.monotonic() - opened < 5.0 else 0
                delay = random.uniform(0, 1.0) if not quick else random.uniform(0.5, 1) * min(30.0, 2.0 ** (quick - 1))
        except (OSError, http.client.HTTPException):
            stats.add("errors")
        finally:
            connection.close()
        stop.wait(delay)


def level(port: int, clients: int, seconds: float, listen: bool = False) -> dict[str, t.Any]:
    stats, stop = Stats(), threading.Event()
    ready = threading.Barrier(clients + 1)
    target = listen_forever if listen else poll_forever
    threads = [threading.Thread(target=target, args=(port, stats, stop, ready, *([n] if listen else [])), name=f"bench-client-{n}", daemon=True)
               for n in range(clients)]
    for thread in threads:
        thread.start()
    ready.wait(120)
    time.sleep(2.0)  # let the polls settle into their cadence
    pinger = Session(port)
    pinger.initialize()
    times: list[float] = []
    before, ended_before = stats.gets, stats.ended
    started = stats.window_start = time.monotonic()
    while time.monotonic() - started < seconds:
        t0 = time.monotonic()
        status, _ = pinger.post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        times.append(time.monotonic() - t0)
        if status != 200:
            stats.add("refused")
        time.sleep(0.02)
    elapsed = time.monotonic() - started
    gets_per_second = (stats.gets - before) / elapsed
    ends_per_second = (stats.ended - ended_before) / elapsed
    window = (time.time() - elapsed, time.time() - stats.retry - 1.0)
    if not listen:
        time.sleep(stats.retry + 1.0)  # what was sent near the end has its retry + 1 s to arrive
    stop.set()
    for thread in threads:
        thread.join(35)
    pinger.connection.close()
    times.sort()
    # The updates sent while timing (each one reached some client), and what each client got of them.
    sent = sorted({at for received in stats.updates for at, _ in received if window[0] <= at <= window[1]})
    delays = sorted(delay for received in stats.updates for at, delay in received if at in sent)
    missed = sum(len(set(sent) - {at for at, _ in received}) for received in stats.updates)
    repeated = sum(len(received) - len({at for at, _ in received}) for received in stats.updates)
    return {
        "clients": clients,
        "ping_p50_ms": round(1000 * times[len(times) // 2], 1),
        "ping_p99_ms": round(1000 * times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "refused": stats.refused,
        "errors": stats.errors,
        **({"listens_per_s": round(gets_per_second, 1), "graceful_ends_per_s": round(ends_per_second, 1),
            "relisten_gap_p50_s": percentile(stats.gaps, 0.5), "relisten_gap_p99_s": percentile(stats.gaps, 0.99),
            "listened_in_window": f"{len(stats.acked)}/{clients}"}
           if listen else {
               "polls_per_s": round(gets_per_second),
               "updates_sent": len(sent),
               "updates_received": len(delays),
               "update_p50_ms": round(1000 * delays[len(delays) // 2]) if delays else None,
               "update_p99_ms": round(1000 * delays[min(len(delays) - 1, int(len(delays) * 0.99))]) if delays else None,
               "update_max_ms": round(1000 * delays[-1]) if delays else None,
               "late": sum(delay > stats.retry + 1.0 for delay in delays),
               "missed": missed,
               "repeated": repeated,
           }),
    }


def percentile(values: list[float], share: float) -> float | None:
    ordered = sorted(values)
    return round(ordered[min(len(ordered) - 1, int(len(ordered) * share))], 2) if ordered else None


# -- gevent: thousands of idle streams on one worker ---------------------------------


def raise_open_files() -> int:
    """Raise this process's (and its children's) open-file limit to the hard limit; returns it."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < hard:
        resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    return hard


def start_gevent(port: int, connections: int, hold: str | None) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "gunicorn", "-k", "gevent", "-w", "1", "--worker-connections", str(connections),
               "--backlog", "4096", "--timeout", "300", "--graceful-timeout", "1", "-b", f"127.0.0.1:{port}",
               "_stream_server:app"]
    env = {**os.environ, "PYTHONPATH": ROOT, **({} if hold is None else {"MCP_STREAM_HOLD": hold})}
    process = subprocess.Popen(command, cwd=HERE, env=env, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return process
        except OSError:
            time.sleep(0.05)
    process.kill()
    raise RuntimeError("the server did not start")


def worker_of(master: int) -> int:
    """The pid of gunicorn's only worker (the master's child)."""
    deadline = time.monotonic() + 20
    while time.monotonic() < deadline:
        with open(f"/proc/{master}/task/{master}/children") as children:
            found = children.read().split()
        if found:
            return int(found[0])
        time.sleep(0.1)
    raise RuntimeError("no gunicorn worker")


def rss_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def time_pings(port: int, seconds: float) -> list[float]:
    pinger = Session(port)
    pinger.initialize()
    times: list[float] = []
    started = time.monotonic()
    while time.monotonic() - started < seconds:
        t0 = time.monotonic()
        status, _ = pinger.post({"jsonrpc": "2.0", "id": 1, "method": "ping"})
        times.append(time.monotonic() - t0)
        if status != 200:
            raise RuntimeError(f"ping answered {status}")
        time.sleep(0.02)
    pinger.connection.close()
    return sorted(times)


def gevent_case(port: int, kind: str, streams: int, seconds: float, settle: float) -> dict[str, t.Any]:
    """``streams`` clients each holding one ``kind`` stream (``get`` or ``listen``), a ping timed meanwhile."""
    worker = worker_of(PROCESS_PID[0])
    warm = Session(port)
    warm.initialize()
    warm.connection.close()
    time.sleep(1.0)
    before = rss_kib(worker)
    clients = subprocess.Popen(
        [sys.executable, os.path.join(HERE, "_stream_clients.py"), str(port), str(streams), kind, "--settle", str(settle)],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, env={**os.environ, "PYTHONPATH": ROOT},
    )
    assert clients.stdin is not None and clients.stdout is not None
    started = time.monotonic()
    opened = json.loads(clients.stdout.readline())
    open_seconds = time.monotonic() - started
    time.sleep(2.0)
    after = rss_kib(worker)
    times = time_pings(port, seconds)
    held = rss_kib(worker)
    clients.stdin.close()
    final = json.loads(clients.stdout.readline())
    clients.wait(30)
    return {
        "kind": kind,
        "streams_open": opened["open"],
        "opened_in_s": round(open_seconds, 1),
        "ping_p50_ms": round(1000 * times[len(times) // 2], 1),
        "ping_p99_ms": round(1000 * times[min(len(times) - 1, int(len(times) * 0.99))], 1),
        "pings": len(times),
        "rss_before_mib": round(before / 1024, 1),
        "rss_after_mib": round(max(after, held) / 1024, 1),
        "rss_per_stream_kib": round((max(after, held) - before) / max(1, opened["open"]), 1),
        "refused": final["refused"],
        "errors": final["errors"],
        "polls": final["polls"],
    }


#: The gunicorn master of the gevent case (its worker's RSS is read from /proc).
PROCESS_PID: list[int] = [0]


def main_gevent(args: argparse.Namespace) -> int:
    hard = raise_open_files()
    connections = args.streams + 2000  # the cap on streams leaves a tenth of them to other requests
    if connections + 100 > hard:
        print(f"the open-file hard limit ({hard}) allows about {hard - 2100} streams; asking for {args.streams}")
    for kind in args.kinds:
        port = free_port()
        process = start_gevent(port, connections, args.hold)
        PROCESS_PID[0] = process.pid
        try:
            row = gevent_case(port, kind, args.streams, args.seconds, args.settle)
        finally:
            process.terminate()
            process.wait(30)
        row["stream_hold"] = args.hold or "default (under gevent: held while open)"
        print(json.dumps(row), flush=True)
    return 0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--levels", nargs="+", type=int, default=[250, 500, 1000])
    parser.add_argument("--seconds", type=float, default=6.0)
    parser.add_argument("--listen", action="store_true", help="2026-07-28 listeners instead of 2025 polling clients")
    parser.add_argument("--server", choices=["ours", "official"], default="ours",
                        help="official: the mcp package's low-level Server and Streamable HTTP app under uvicorn")
    parser.add_argument("--gevent", action="store_true", help="idle streams on gunicorn -k gevent, one worker")
    parser.add_argument("--streams", type=int, default=10_000, help="--gevent: streams held at once")
    parser.add_argument("--kinds", nargs="+", default=["get", "listen"], help="--gevent: get, listen or both")
    parser.add_argument("--hold", default=None, help="--gevent: stream_hold for the server (seconds, or none; ignored under gevent, which holds streams while they last)")
    parser.add_argument("--settle", type=float, default=30.0, help="--gevent: seconds without a new stream before giving up")
    args = parser.parse_args(argv)
    if args.gevent:
        return main_gevent(args)
    global PATH
    PATH = "/mcp" if args.server == "official" else "/"
    port = free_port()
    process = start(port, args.server)
    capacity = 0
    try:
        for clients in args.levels:
            row = level(port, clients, args.seconds, args.listen)
            print(json.dumps(row), flush=True)
            if row["ping_p99_ms"] > 1000 * P99_LIMIT or row["refused"] or any(row.get(name) for name in ("missed", "late", "repeated")):
                break
            capacity = clients
    finally:
        process.terminate()
        process.wait(10)
    kind = "2026 listeners" if args.listen else "polling clients, every update within retry + 1 s,"
    where = "gunicorn gthread, 8 threads" if args.server == "ours" else "the official server under uvicorn"
    print(f"capacity: {capacity} {kind} with ping p99 < {P99_LIMIT * 1000:.0f} ms ({where})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
