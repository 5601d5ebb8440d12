"""SSE answers under gunicorn from several checkouts side by side: ``python bench/http_side_by_side.py ../main .``

``floors.py`` runs minutes apart compare the machine's load of those minutes as much as the code.
This starts one ``gunicorn -k gthread --threads 8 -w 1`` per checkout (``http_bench.create_app("sse")``
of that checkout) and one with the bare app, then lets them take turns round by round, 8 clients
each, and prints per target the median calls/s (and its share of the bare app's), the worker's CPU
per call, and its threads' voluntary and involuntary context switches per call (Linux: read from
``/proc/<pid>/task/*/status``), so that a change in thread wake-ups shows apart from the noise.

With ``--pin split`` (as ``floors.py``) the clients run on one CPU and every gunicorn on another.
``--floors`` adds two more floors beside the bare app: ``bare-sse`` (the transport's SSE bytes and
headers, canned) and ``bare-hop`` (the same, made on another thread woken as the transport wakes
its pool's, by an eventfd: what handing a request to a pool costs with no SDK at all), and, as a yardstick,
``bare-flask`` (a Flask route parsing the body and answering the canned JSON: the framework alone).
``--json`` adds each checkout in JSON response mode.

    python bench/http_side_by_side.py [--rounds 8] [--duration 1.5] [--pin split] [--floors] [--json] CHECKOUT [CHECKOUT ...]
"""

from __future__ import annotations

import argparse
import glob
import os
import statistics
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import http_bench  # noqa: E402
from floors import Pinning  # noqa: E402
from _common import cpu_seconds, table  # noqa: E402

THREADS = 8
CLIENTS = 8


def context_switches(pid: int) -> tuple[int, int]:
    """Voluntary and involuntary context switches of all of ``pid``'s threads so far."""
    voluntary = involuntary = 0
    for status in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            with open(status) as lines:
                for line in lines:
                    if line.startswith("voluntary_ctxt_switches"):
                        voluntary += int(line.split()[1])
                    elif line.startswith("nonvoluntary_ctxt_switches"):
                        involuntary += int(line.split()[1])
        except OSError:  # a thread that just ended
            pass
    return voluntary, involuntary


def start(checkout: str | None, mode: str = "sse") -> http_bench.ServerProcess:
    """gunicorn serving ``checkout``'s transport in ``mode`` (None: a floor of this checkout's bench)."""
    if checkout is None:
        return http_bench.ServerProcess("gunicorn", mode, threads=THREADS)
    http_bench.ROOT, http_bench.HERE = checkout, os.path.join(checkout, "bench")  # PYTHONPATH and --chdir
    try:
        return http_bench.ServerProcess("gunicorn", mode, threads=THREADS)
    finally:
        http_bench.ROOT, http_bench.HERE = os.path.dirname(HERE), HERE


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("checkouts", nargs="+", help="repository roots to compare")
    parser.add_argument("--rounds", type=int, default=8)
    parser.add_argument("--duration", type=float, default=1.5, help="seconds per round and target")
    parser.add_argument("--pin", choices=("none", "split"), default="none", help="split: clients on one CPU, servers on another")
    parser.add_argument("--floors", action="store_true", help="add the bare-sse and bare-hop floors")
    parser.add_argument("--json", action="store_true", help="add each checkout in JSON response mode")
    args = parser.parse_args(argv)
    pinning = Pinning(args.pin)
    targets: dict[str, tuple[http_bench.ServerProcess, str]] = {}
    try:
        for checkout in args.checkouts:
            root = os.path.abspath(checkout)
            targets[root] = (pinning.spawn(lambda: start(root)), "sse")
            if args.json:
                targets[f"{root} (json)"] = (pinning.spawn(lambda: start(root, "json")), "json")
        targets["bare app"] = (pinning.spawn(lambda: start(None, "bare")), "bare")
        for floor in ("bare-sse", "bare-hop", "bare-flask") if args.floors else ():
            targets[floor] = (pinning.spawn(lambda: start(None, floor)), floor)
        time.sleep(0.5)  # let the workers boot
        figures: dict[str, list[tuple[float, float, float, float]]] = {name: [] for name in targets}
        for server, mode in targets.values():
            http_bench.run_clients(server.port, mode, CLIENTS, 0.3)  # warm up
        for _ in range(args.rounds):
            for name, (server, mode) in targets.items():
                pid = server.worker_pid
                cpu_before, (voluntary, involuntary) = cpu_seconds(pid) or 0.0, context_switches(pid)
                started = time.perf_counter()
                per_second = http_bench.run_clients(server.port, mode, CLIENTS, args.duration)
                calls = per_second * (time.perf_counter() - started)
                cpu = ((cpu_seconds(pid) or 0.0) - cpu_before) / calls * 1e6
                voluntary_after, involuntary_after = context_switches(pid)
                figures[name].append((per_second, cpu, (voluntary_after - voluntary) / calls, (involuntary_after - involuntary) / calls))
    finally:
        for server, _ in targets.values():
            server.stop()
    bare = statistics.median(row[0] for row in figures["bare app"])
    rows = []
    for name, runs in figures.items():
        rate, cpu, voluntary_per_call, involuntary_per_call = (statistics.median(run[k] for run in runs) for k in range(4))
        rows.append([name, f"{rate:,.0f}/s", f"{rate / bare:.2f}x", f"{cpu:,.0f} us", f"{voluntary_per_call:.1f}", f"{involuntary_per_call:.1f}"])
    print(f"load average {os.getloadavg()[0]:.1f}; pinning {args.pin}; medians of {args.rounds} rounds of {args.duration} s, {CLIENTS} clients")
    print(table(["target", "calls/s", "vs bare", "worker CPU/call", "voluntary cs/call", "involuntary cs/call"], rows))
    return 0  # a benchmark reports; it does not fail on speed


if __name__ == "__main__":
    sys.exit(main())
