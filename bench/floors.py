"""Issue 24's five workloads, each against its floor, in one run: ``python bench/floors.py``.

A floor is the cheapest program that gives the same answers: a bare ``json.loads``/``json.dumps``
loop over stdio (``_bare_stdio.py``), a bare WSGI app over HTTP (``http_bench.bare_app``).

- **stdio 2025**: sequential ``tools/call`` (``echo``) in a 2025 session, one at a time.
- **stdio 2026-07-28**: the same call carrying the per-request ``_meta`` envelope (the SDK reads it
  and stamps the result; the floor sends the stamped bytes canned). Also shown against the 2025 call.
- **stdio pipelined**: 5,000 ``tools/call`` written at once (a 2025 session), until the last answer.
- **HTTP SSE, gunicorn**: ``gunicorn -k gthread --threads 8 -w 1``, 8 clients, each in its own session,
  calling ``echo`` in a loop; the SDK answers each call with an SSE stream (the tool takes
  ``server_context``), the floor with canned JSON.
- **cold start**: spawn the stdio server (``_stdio_server.py``: 101 tools), send ``initialize``, until
  its answer is read; the CPU column is the child's CPU time until then.

Floor and SDK take turns, round by round (``--rounds``); each figure is the median of the rounds,
and the spread (lowest-highest) of the SDK's CPU figure is shown so that noise can be judged.

``--pin split`` runs the bench (the clients) on the first CPU and every server it starts on the
second, as the issue measured: each side has a CPU of its own, so a server's CPU per call is its
own work and its wake-ups, not a share of the client's.

    python bench/floors.py [--rounds 5] [--duration 1.0] [--only stdio http cold] [--pin split]
"""

from __future__ import annotations

import argparse
import os
import statistics
import subprocess
import sys
import threading
import time
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import LineProcess, Result, cpu_seconds, run_for, table  # noqa: E402
from _tools import CALL_PARAMS  # noqa: E402
from modern_bench import call_message  # noqa: E402
from stdio_bench import encode, sequential, start  # noqa: E402

BARE = os.path.join(HERE, "_bare_stdio.py")
SDK = os.path.join(HERE, "_stdio_server.py")
PIPELINED_CALLS = 5000
SSE_THREADS = 8
SSE_CLIENTS = 8
MODERN = "2026-07-28"
CLIENT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
INITIALIZE = encode(0, "initialize", CLIENT)
T = t.TypeVar("T")


class Pinning:
    """Where the bench and its servers run: ``none`` (anywhere) or ``split`` (a CPU each)."""

    def __init__(self, mode: str) -> None:
        self.mode = mode
        cpus = sorted(os.sched_getaffinity(0))
        if mode == "split" and len(cpus) < 2:
            raise SystemExit("--pin split needs two CPUs")
        self.client_cpu, self.server_cpu = (cpus[0], cpus[1]) if mode == "split" else (None, None)
        if self.client_cpu is not None:
            os.sched_setaffinity(0, {self.client_cpu})

    def spawn(self, factory: t.Callable[[], T]) -> T:
        """Call ``factory`` (which starts a server) so that the server runs on the server's CPU."""
        if self.server_cpu is None:
            return factory()
        os.sched_setaffinity(0, {self.server_cpu})  # a child inherits its parent thread's CPUs
        try:
            return factory()
        finally:
            os.sched_setaffinity(0, {t.cast(int, self.client_cpu)})


PIN = Pinning("none")


class Figures:
    """Per target (floor, sdk): ops per second and CPU microseconds per op, one entry per round."""

    def __init__(self, name: str, goal: str, unit: str = "ops/s") -> None:
        self.name = name
        self.goal = goal
        self.unit = unit
        self.rates: dict[str, list[float]] = {"floor": [], "sdk": []}
        self.cpus: dict[str, list[float]] = {"floor": [], "sdk": []}

    def add(self, target: str, rate: float, cpu_us: float | None) -> None:
        self.rates[target].append(rate)
        if cpu_us is not None:
            self.cpus[target].append(cpu_us)

    def add_result(self, target: str, result: Result) -> None:
        self.add(target, result.per_second, result.cpu_us_per_call)

    def rate(self, target: str) -> float:
        return statistics.median(self.rates[target])

    def cpu(self, target: str) -> float | None:
        return statistics.median(self.cpus[target]) if self.cpus[target] else None


# -- stdio -------------------------------------------------------------------------------


def measure_stdio(rounds: int, duration: float) -> list[Figures]:
    legacy = Figures("stdio tools/call, 2025", "CPU <= 1.5x floor")
    modern = Figures("stdio tools/call, 2026-07-28", "CPU <= 1.5x floor, <= 1.2x 2025")
    children = {"floor": PIN.spawn(lambda: start(BARE)), "sdk": PIN.spawn(lambda: start(SDK))}
    try:
        for message in (call_message("2025", CALL_PARAMS), call_message(MODERN, CALL_PARAMS)):
            answers = [child.request(message) for child in children.values()]
            if answers[0] != answers[1]:
                raise SystemExit(f"floor and SDK answer differently: {answers}")
        for _ in range(rounds):
            for figures, params in ((legacy, CALL_PARAMS), (modern, call_message(MODERN, CALL_PARAMS)["params"])):
                for target, child in children.items():
                    run_for(0.1, child.pid, sequential(child, "tools/call", params))  # warm up
                    figures.add_result(target, run_for(duration, child.pid, sequential(child, "tools/call", params)))
    finally:
        codes = [child.close() for child in children.values()]
    if any(codes):
        raise SystemExit(f"a stdio server exited with an error: {codes}")
    return [legacy, modern]


def pipelined_round(child: LineProcess, calls: int) -> tuple[float, float | None]:
    """Write ``calls`` requests at once (from another thread) and read every answer: (calls/s, CPU us/call)."""
    payload = b"".join(encode(number, "tools/call", CALL_PARAMS) for number in range(calls))

    def send() -> None:
        child.write(payload)
        child.flush()

    writer = threading.Thread(target=send, name="bench-pipelined-writer")
    cpu_before = cpu_seconds(child.pid)
    started = time.perf_counter()
    writer.start()
    for _ in range(calls):
        if not child.readline():
            raise RuntimeError("the server closed its stdout")
    wall = time.perf_counter() - started
    cpu_after = cpu_seconds(child.pid)
    writer.join()
    cpu = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / calls * 1e6
    return calls / wall, cpu


def measure_pipelined(rounds: int) -> Figures:
    figures = Figures(f"stdio pipelined ({PIPELINED_CALLS:,} at once), 2025", ">= 0.75x floor ops/s, CPU <= 2x")
    children = {"floor": PIN.spawn(lambda: start(BARE)), "sdk": PIN.spawn(lambda: start(SDK))}
    try:
        for child in children.values():
            pipelined_round(child, 500)  # warm up
        for _ in range(rounds):
            for target, child in children.items():
                figures.add(target, *pipelined_round(child, PIPELINED_CALLS))
    finally:
        codes = [child.close() for child in children.values()]
    if any(codes):
        raise SystemExit(f"a stdio server exited with an error: {codes}")
    return figures


# -- HTTP SSE under gunicorn ---------------------------------------------------------------


def measure_sse(rounds: int, duration: float) -> Figures:
    from http_bench import ServerProcess, run_clients

    figures = Figures(f"HTTP SSE, gunicorn gthread {SSE_THREADS}, {SSE_CLIENTS} clients", ">= 0.8x floor ops/s")
    servers = {
        "floor": PIN.spawn(lambda: ServerProcess("gunicorn", "bare", threads=SSE_THREADS)),
        "sdk": PIN.spawn(lambda: ServerProcess("gunicorn", "sse", threads=SSE_THREADS)),
    }
    try:
        time.sleep(0.5)  # let the workers boot
        for _ in range(rounds):
            for target, server in servers.items():
                pid = server.worker_pid
                cpu_before = cpu_seconds(pid)
                started = time.perf_counter()
                per_second = run_clients(server.port, "bare" if target == "floor" else "sse", SSE_CLIENTS, duration)
                calls = per_second * (time.perf_counter() - started)
                cpu_after = cpu_seconds(pid)
                cpu = None if cpu_before is None or cpu_after is None else (cpu_after - cpu_before) / calls * 1e6
                figures.add(target, per_second, cpu)
    finally:
        for server in servers.values():
            server.stop()
    return figures


# -- cold start ----------------------------------------------------------------------------


def cold_start(script: str) -> tuple[float, float | None]:
    """Spawn ``script``, send ``initialize``, read the answer: (milliseconds, the child's CPU milliseconds)."""
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    started = time.perf_counter()
    process = PIN.spawn(
        lambda: subprocess.Popen([sys.executable, script], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
    )
    stdin, stdout = t.cast(t.IO[bytes], process.stdin), t.cast(t.IO[bytes], process.stdout)
    stdin.write(INITIALIZE)
    stdin.flush()
    answered = stdout.readline()
    elapsed = time.perf_counter() - started
    cpu = cpu_seconds(process.pid)
    stdin.close()
    process.wait(10)
    stdout.close()
    if b'"result"' not in answered:
        raise SystemExit(f"{script} did not answer initialize: {answered!r}")
    return elapsed * 1e3, None if cpu is None else cpu * 1e3


def measure_cold(rounds: int) -> Figures:
    figures = Figures("cold start (spawn -> initialize answered)", "<= 100 ms", unit="ms")
    for script in (BARE, SDK):  # also writes the bytecode caches, as any installed package has them
        cold_start(script)
    for _ in range(rounds * 2):
        for target, script in (("floor", BARE), ("sdk", SDK)):
            figures.add(target, *cold_start(script))
    return figures


# -- main ----------------------------------------------------------------------------------


def rows_of(figures: Figures) -> list[str]:
    floor_cpu, sdk_cpu = figures.cpu("floor"), figures.cpu("sdk")
    cpu_spread = f"{min(figures.cpus['sdk']):,.1f}-{max(figures.cpus['sdk']):,.1f}" if figures.cpus["sdk"] else "n/a"
    if figures.unit == "ms":
        floor_text, sdk_text = f"{figures.rate('floor'):,.1f} ms", f"{figures.rate('sdk'):,.1f} ms"
        rate_ratio = f"{figures.rate('sdk') / figures.rate('floor'):.2f}x time"
        cpu_unit = "ms"
    else:
        floor_text, sdk_text = f"{figures.rate('floor'):,.0f}/s", f"{figures.rate('sdk'):,.0f}/s"
        rate_ratio = f"{figures.rate('sdk') / figures.rate('floor'):.2f}x ops"
        cpu_unit = "us"
    return [
        figures.name,
        floor_text,
        "n/a" if floor_cpu is None else f"{floor_cpu:,.1f} {cpu_unit}",
        sdk_text,
        "n/a" if sdk_cpu is None else f"{sdk_cpu:,.1f} {cpu_unit}",
        f"({cpu_spread})",
        rate_ratio,
        "n/a" if not (floor_cpu and sdk_cpu) else f"{sdk_cpu / floor_cpu:.2f}x",
        figures.goal,
    ]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="alternating rounds per workload (medians shown)")
    parser.add_argument("--duration", type=float, default=1.0, help="seconds per timed run (stdio, HTTP)")
    parser.add_argument("--only", nargs="+", choices=["stdio", "pipelined", "http", "cold"])
    parser.add_argument("--pin", choices=["none", "split"], default="none", help="split: clients on one CPU, servers on another")
    args = parser.parse_args(argv)
    global PIN
    PIN = Pinning(args.pin)
    chosen = set(args.only or ["stdio", "pipelined", "http", "cold"])
    results: list[Figures] = []
    legacy_cpu = None
    if "stdio" in chosen:
        results.extend(measure_stdio(args.rounds, args.duration))
        legacy_cpu = results[0].cpu("sdk")
    if "pipelined" in chosen:
        results.append(measure_pipelined(args.rounds))
    if "http" in chosen:
        results.append(measure_sse(args.rounds, args.duration))
    if "cold" in chosen:
        results.append(measure_cold(args.rounds))
    header = ["workload", "floor", "floor CPU", "mcp_sdk", "sdk CPU", "(sdk CPU range)", "sdk/floor", "CPU ratio"]
    header.append("goal")
    pinned = "" if PIN.server_cpu is None else f", clients on CPU {PIN.client_cpu} and servers on CPU {PIN.server_cpu}"
    print(f"Python {sys.version.split()[0]}, {os.cpu_count()} CPUs, medians of {args.rounds} alternating rounds{pinned}")
    print(table(header, [rows_of(figures) for figures in results]))
    modern_cpu = results[1].cpu("sdk") if "stdio" in chosen else None
    if legacy_cpu and modern_cpu:
        print(f"stdio 2026-07-28 / 2025 (sdk CPU per call): {modern_cpu / legacy_cpu:.2f}x")
    return 0  # a benchmark reports; it does not fail on speed


if __name__ == "__main__":
    sys.exit(main())
