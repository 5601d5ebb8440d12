"""tools/call per second over Streamable HTTP, against a bare WSGI app: ``python bench/http_bench.py``.

For each WSGI server (waitress; gunicorn with gthread workers) it measures, with
1 and 8 concurrent clients on kept-alive connections:

- ``bare``: a WSGI app that reads the body and returns a canned JSON-RPC answer;
- ``json``: ``StreamableHTTPTransport(enable_json_response=True)``, one session per client;
- ``sse``: the default transport, so each tools/call is answered with an SSE stream
  (priming event + response) written by the server's thread while a worker runs the tool;

then the memory an idle session costs (RSS growth of the server process over
1,000 initialized sessions). See bench/README.md for the targets and figures.

``--scale-out`` measures instead the transport with ``redis_url`` (a redis-server it
starts on a free port) under gunicorn ``-w 1`` and ``-w 4`` against the in-memory
transport under ``-w 1``, 8 clients, and the Redis memory an idle session costs.

    python bench/http_bench.py [--duration 1.5] [--rounds 3] [--servers waitress gunicorn]
    python bench/http_bench.py --scale-out
    python bench/http_bench.py --serve json --port 8000     # just run one server (waitress)
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import queue
import socket
import subprocess
import sys
import threading
import time
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)

from _common import cpu_seconds, table  # noqa: E402

MODES = ("bare", "json", "sse")
CLIENTS = (1, 8)
#: Minimum share of the bare app's throughput, and the most memory per idle session.
TARGETS = {"json": 0.60, "sse": 0.50}
MAX_BYTES_PER_SESSION = 15 * 1024
SESSIONS_FOR_MEMORY = 1000
THREADS = 16
ACCEPT = "application/json, text/event-stream"
CALL = {"name": "echo", "arguments": {"message": "hi"}}
CANNED = b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"type":"text","text":"Hello hi"}],"isError":false}}'


# -- the servers ---------------------------------------------------------------


def bare_app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> list[bytes]:
    """The baseline: read the request, answer a canned tools/call result."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    environ["wsgi.input"].read(length)
    start_response("200 OK", [("Content-Type", "application/json"), ("Content-Length", str(len(CANNED)))])
    return [CANNED]


#: The transport's SSE answer to the bench's call (priming event, then the answer), headers included.
CANNED_SSE = b"id: 1-0\nretry: 1000\ndata: \n\nid: 1-1\ndata: " + CANNED + b"\n\n"
SSE_HEADERS = [("Cache-Control", "no-cache"), ("X-Accel-Buffering", "no"), ("Content-Type", "text/event-stream")]


def bare_sse_app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> list[bytes]:
    """A floor for SSE answers: the bare app, answering with the transport's SSE bytes and headers."""
    length = int(environ.get("CONTENT_LENGTH") or 0)
    environ["wsgi.input"].read(length)
    start_response("200 OK", [*SSE_HEADERS, ("Content-Length", str(len(CANNED_SSE)))])
    return [CANNED_SSE]


class BareHopApp:
    """A floor for SSE answers run off the WSGI thread: :func:`bare_sse_app`, but its answer is made
    by a worker thread, handed over as the transport hands a request to its pool at the least: the
    worker sleeps in ``poll`` on an eventfd of its own (Linux) and is woken by a write to it, the
    answer comes back on a ``SimpleQueue``. Twice ``threads`` workers, so one is always idle."""

    def __init__(self, threads: int) -> None:
        self.lock = threading.Lock()
        self.idle: list[tuple[int, list[t.Any]]] = []  # (eventfd, slot for the reply queue)
        for index in range(2 * threads):
            threading.Thread(target=self._work, name=f"bench-hop-{index}", daemon=True).start()

    def _work(self) -> None:
        import select

        wake = os.eventfd(0)
        poller = select.poll()
        poller.register(wake, select.POLLIN)
        slot: list[t.Any] = [None]
        while True:
            with self.lock:
                self.idle.append((wake, slot))
            poller.poll()
            os.eventfd_read(wake)
            slot[0].put(CANNED_SSE)

    def __call__(self, environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> list[bytes]:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        environ["wsgi.input"].read(length)
        reply: queue.SimpleQueue[bytes] = queue.SimpleQueue()
        with self.lock:
            wake, slot = self.idle.pop()
        slot[0] = reply
        os.eventfd_write(wake, 1)
        body = reply.get(timeout=10)
        start_response("200 OK", [*SSE_HEADERS, ("Content-Length", str(len(body)))])
        return [body]


def flask_app() -> t.Any:
    """Not a floor but a yardstick: a Flask route that parses the JSON body and answers the canned
    result (no MCP), for what the web framework alone costs per request against the bare app."""
    from flask import Flask, Response, request

    app = Flask("bench")

    @app.post("/")
    def call() -> Response:
        request.get_json()
        return Response(CANNED, content_type="application/json")

    return app


def create_app(mode: str | None = None) -> t.Any:
    """The WSGI app of ``mode`` (default: the ``MCP_BENCH_MODE`` environment variable): ``bare``,
    ``bare-sse``, ``bare-hop`` (floors, no SDK), ``bare-flask`` (Flask, no SDK), ``json`` or ``sse``."""
    mode = mode or os.environ.get("MCP_BENCH_MODE", "bare")
    if mode == "bare":
        return bare_app
    if mode == "bare-sse":
        return bare_sse_app
    if mode == "bare-hop":
        return BareHopApp(int(os.environ.get("MCP_BENCH_THREADS") or THREADS))
    if mode == "bare-flask":
        return flask_app()
    sys.path.insert(0, ROOT)
    from mcp_sdk import Server
    from mcp_sdk.server.transports import StreamableHTTPTransport

    server = Server(name="bench", version="1.0.0")

    # It takes server_context (so it could report progress): the transport answers it with SSE unless in JSON mode.
    @server.define_tool(name="echo", input_schema={"properties": {"message": {"type": "string"}}, "required": ["message"]})
    def echo(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        return f"Hello {args['message']}"

    redis_url = os.environ.get("MCP_BENCH_REDIS_URL") or None
    threads = int(os.environ.get("MCP_BENCH_THREADS") or THREADS)
    return StreamableHTTPTransport(
        server, enable_json_response=mode == "json", max_sessions=None, wsgi_threads=threads, redis_url=redis_url
    )


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class ServerProcess:
    """One benchmark server, started as a subprocess on a free port."""

    def __init__(self, server: str, mode: str, workers: int = 1, redis_url: str = "", threads: int = THREADS) -> None:
        self.port = free_port()
        env = {**os.environ, "MCP_BENCH_MODE": mode, "PYTHONPATH": ROOT, "MCP_BENCH_REDIS_URL": redis_url}
        env["MCP_BENCH_THREADS"] = str(threads)
        if server == "waitress":
            command = [sys.executable, __file__, "--serve", mode, "--port", str(self.port)]
        else:
            command = [
                sys.executable, "-m", "gunicorn", "-k", "gthread", "-w", str(workers), "--threads", str(threads),
                "-b", f"127.0.0.1:{self.port}", "--chdir", HERE, "--graceful-timeout", "1", "http_bench:create_app()",
            ]  # fmt: skip
        self.process = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 20
        while True:
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=0.5).close()
                break
            except OSError:
                if time.monotonic() > deadline or self.process.poll() is not None:
                    self.stop()
                    raise RuntimeError(f"{server} ({mode}) did not start") from None
                time.sleep(0.05)

    @property
    def worker_pids(self) -> list[int]:
        """Every process serving requests (gunicorn's workers)."""
        try:
            with open(f"/proc/{self.process.pid}/task/{self.process.pid}/children") as children:
                return [int(pid) for pid in children.read().split()] or [self.process.pid]
        except OSError:
            return [self.process.pid]

    @property
    def worker_pid(self) -> int:
        """The process serving requests (gunicorn's worker, not its arbiter)."""
        try:
            with open(f"/proc/{self.process.pid}/task/{self.process.pid}/children") as children:
                pids = children.read().split()
        except OSError:
            pids = []
        return int(pids[0]) if pids else self.process.pid

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(10)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait(10)


def rss_bytes(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) * 1024
    raise RuntimeError("no VmRSS")


# -- the clients ---------------------------------------------------------------


class Connection:
    """One client on one kept-alive connection (``http.client``: light, so the server is what is measured)."""

    def __init__(self, port: int) -> None:
        self.http = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        self.headers = {"Accept": ACCEPT, "Content-Type": "application/json"}

    def post(self, message: dict[str, t.Any]) -> tuple[int, http.client.HTTPMessage, bytes]:
        self.http.request("POST", "/", json.dumps(message).encode(), self.headers)
        response = self.http.getresponse()
        return response.status, response.headers, response.read()

    def initialize(self) -> None:
        """Open a new session on this connection (replacing any earlier one's headers)."""
        self.headers = {"Accept": ACCEPT, "Content-Type": "application/json"}
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
        status, headers, _ = self.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": params})
        assert status == 200, status
        self.headers["Mcp-Session-Id"] = headers["Mcp-Session-Id"]
        self.headers["MCP-Protocol-Version"] = "2025-11-25"
        status, _, _ = self.post({"jsonrpc": "2.0", "method": "notifications/initialized"})
        assert status == 202, status

    def close(self) -> None:
        self.http.close()


def run_clients(port: int, mode: str, clients: int, duration: float) -> float:
    """tools/call per second, ``clients`` connections calling in a loop for ``duration`` seconds."""
    connections = [Connection(port) for _ in range(clients)]
    if not mode.startswith("bare"):
        for connection in connections:
            connection.initialize()
    counts = [0] * clients
    start = threading.Barrier(clients + 1)
    window: dict[str, float] = {}

    def loop(index: int) -> None:
        connection = connections[index]
        message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": CALL}
        status, _, body = connection.post(message)  # warm up, and check the answer
        assert status == 200 and b'"Hello hi"' in body, (status, body)
        start.wait()
        calls = 0
        deadline = window["end"]
        while time.perf_counter() < deadline:
            message["id"] = calls
            connection.post(message)
            calls += 1
        counts[index] = calls

    threads = [threading.Thread(target=loop, args=(index,), name=f"bench-client-{index}") for index in range(clients)]
    for thread in threads:
        thread.start()
    window["end"] = time.perf_counter() + duration + 0.05
    began = time.perf_counter()
    start.wait()
    for thread in threads:
        thread.join()
    elapsed = time.perf_counter() - began
    for connection in connections:
        connection.close()
    return sum(counts) / elapsed


def measure_memory(sessions: int = SESSIONS_FOR_MEMORY) -> float:
    """Bytes of server RSS per idle session (JSON mode, waitress)."""
    server = ServerProcess("waitress", "json")
    try:
        warm = Connection(server.port)
        for _ in range(50):  # let allocator pools and caches settle first
            warm.initialize()
        before = rss_bytes(server.worker_pid)
        for _ in range(sessions):
            warm.initialize()
        after = rss_bytes(server.worker_pid)
        warm.close()
        return (after - before) / sessions
    finally:
        server.stop()


# -- scale-out on Redis -----------------------------------------------------------

#: Scale-out targets: server CPU per call with Redis at most this times the in-memory one;
#: calls/s with 4 workers at least the in-memory single worker's; Redis bytes per idle session.
SCALE_CPU_RATIO = 1.5
SCALE_MAX_REDIS_BYTES = 2 * 1024


def _total_cpu(pids: list[int]) -> float:
    return sum(cpu_seconds(pid) or 0.0 for pid in pids)


def _redis_memory(port: int) -> int:
    import redis

    client = redis.Redis(port=port)
    try:
        return int(client.info("memory")["used_memory"])
    finally:
        client.close()


def measure_scale_out(duration: float, rounds: int, clients: int = 8) -> int:
    """The in-memory transport (-w 1) against redis_url under -w 1 and -w 4, in SSE and JSON modes."""
    import shutil

    binary = shutil.which("redis-server")
    if binary is None:
        print("redis-server is not installed (apt-get install redis-server)")
        return 1
    redis_port = free_port()
    redis_process = subprocess.Popen(
        [binary, "--port", str(redis_port), "--bind", "127.0.0.1", "--save", "", "--appendonly", "no"],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(0.3)
    url = f"redis://127.0.0.1:{redis_port}/0"
    configs = [("in-memory -w 1", 1, ""), ("redis -w 1", 1, url), ("redis -w 4", 4, url)]
    rows = []
    try:
        for mode in ("sse", "json"):
            servers = {name: ServerProcess("gunicorn", mode, workers, redis) for name, workers, redis in configs}
            time.sleep(1.0)  # let the workers boot
            best: dict[str, tuple[float, float, float]] = {}
            try:
                for _ in range(rounds):
                    for name, server in servers.items():
                        pids = server.worker_pids
                        cpu_before, redis_before = _total_cpu(pids), cpu_seconds(redis_process.pid) or 0.0
                        started = time.perf_counter()
                        per_second = run_clients(server.port, mode, clients, duration)
                        calls = per_second * (time.perf_counter() - started)
                        cpu = (_total_cpu(pids) - cpu_before) / calls * 1e6
                        redis_cpu = ((cpu_seconds(redis_process.pid) or 0.0) - redis_before) / calls * 1e6
                        if per_second > best.get(name, (0.0, 0.0, 0.0))[0]:
                            best[name] = (per_second, cpu, redis_cpu)
            finally:
                for server in servers.values():
                    server.stop()
            base_rate, base_cpu, _ = best["in-memory -w 1"]
            for name, (per_second, cpu, redis_cpu) in best.items():
                verdict = ""
                if name == "redis -w 1":
                    verdict = "ok" if cpu <= SCALE_CPU_RATIO * base_cpu else f"MISSED (CPU <= {SCALE_CPU_RATIO}x)"
                if name == "redis -w 4":
                    verdict = "ok" if per_second >= base_rate else "MISSED (calls/s >= in-memory -w 1)"
                rows.append([mode, name, str(clients), f"{per_second:,.0f}", f"{cpu:,.0f}", f"{redis_cpu:,.0f}",
                             f"{cpu / base_cpu:.2f}x", verdict])  # fmt: skip
        print(table(["mode", "server", "clients", "calls/s", "worker CPU us/call", "redis CPU us/call", "CPU vs in-memory", "target"], rows))
        server = ServerProcess("gunicorn", "json", 1, url)
        try:
            time.sleep(1.0)
            warm = Connection(server.port)
            for _ in range(50):
                warm.initialize()
            before = _redis_memory(redis_port)
            for _ in range(SESSIONS_FOR_MEMORY):
                warm.initialize()
            per_session = (_redis_memory(redis_port) - before) / SESSIONS_FOR_MEMORY
            warm.close()
        finally:
            server.stop()
        verdict = "ok" if per_session <= SCALE_MAX_REDIS_BYTES else "MISSED"
        print(f"\nidle session in Redis: {per_session:,.0f} bytes each ({SESSIONS_FOR_MEMORY} sessions)"
              f"  target <= {SCALE_MAX_REDIS_BYTES} bytes: {verdict}")  # fmt: skip
    finally:
        redis_process.terminate()
        redis_process.wait(10)
    return 0


# -- main ----------------------------------------------------------------------


def serve(mode: str, port: int) -> None:
    import waitress

    waitress.serve(create_app(mode), host="127.0.0.1", port=port, threads=THREADS, _quiet=True)


def measure_server(server_name: str, duration: float, rounds: int) -> dict[tuple[str, int], tuple[float, float | None]]:
    """(calls/s, server CPU us/call) per (mode, clients): the best of ``rounds`` interleaved runs.

    The three servers run side by side and take turns, so a disturbance (another
    process on the machine) hits all modes alike; the best run is the least disturbed.
    """
    servers = {mode: ServerProcess(server_name, mode) for mode in MODES}
    best: dict[tuple[str, int], tuple[float, float | None]] = {}
    try:
        for clients in CLIENTS:
            for _ in range(rounds):
                for mode, server in servers.items():
                    pid = server.worker_pid
                    cpu_before = cpu_seconds(pid)
                    started = time.perf_counter()
                    per_second = run_clients(server.port, mode, clients, duration)
                    cpu_after = cpu_seconds(pid)
                    cpu = None
                    if cpu_before is not None and cpu_after is not None:
                        cpu = (cpu_after - cpu_before) / (per_second * (time.perf_counter() - started)) * 1e6
                    if per_second > best.get((mode, clients), (0.0, None))[0]:
                        best[mode, clients] = (per_second, cpu)
    finally:
        for server in servers.values():
            server.stop()
    return best


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--duration", type=float, default=1.5, help="seconds per run")
    parser.add_argument("--rounds", type=int, default=3, help="runs per figure (the best counts)")
    parser.add_argument("--servers", nargs="+", default=["waitress", "gunicorn"], choices=["waitress", "gunicorn"])
    parser.add_argument("--serve", choices=MODES, help="only run a waitress server of this mode")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--scale-out", action="store_true", help="redis_url under gunicorn -w 1 and -w 4 vs in-memory -w 1")
    args = parser.parse_args(argv)
    if args.scale_out:
        return measure_scale_out(args.duration, args.rounds)
    if args.serve:
        serve(args.serve, args.port)
        return 0

    rows = []
    missed = []
    for server_name in args.servers:
        figures = measure_server(server_name, args.duration, args.rounds)
        for mode in MODES:
            for clients in CLIENTS:
                per_second, cpu = figures[mode, clients]
                ratio = per_second / figures["bare", clients][0]
                target = TARGETS.get(mode)
                verdict = "" if target is None else ("ok" if ratio >= target else f"MISSED (>= {target:.0%})")
                if verdict.startswith("MISSED"):
                    missed.append(f"{server_name} {mode} x{clients}")
                cpu_text = "?" if cpu is None else f"{cpu:,.0f}"
                rows.append([server_name, mode, str(clients), f"{per_second:,.0f}", cpu_text, f"{ratio:.0%}", verdict])
    print(table(["server", "mode", "clients", "calls/s", "server CPU us/call", "vs bare", "target"], rows))
    per_session = measure_memory()
    memory_ok = per_session <= MAX_BYTES_PER_SESSION
    print(
        f"\nidle session: {per_session / 1024:.1f} KiB of server RSS each ({SESSIONS_FOR_MEMORY} sessions, waitress)"
        f"  target <= {MAX_BYTES_PER_SESSION // 1024} KiB: {'ok' if memory_ok else 'MISSED'}"
    )
    if not memory_ok:
        missed.append("memory per idle session")
    if missed:
        print("missed: " + ", ".join(missed))
    return 0  # a benchmark reports; it does not fail on speed


if __name__ == "__main__":
    sys.exit(main())
