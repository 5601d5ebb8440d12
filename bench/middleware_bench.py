"""What a chain of three no-op middlewares costs per ``tools/call``, in server CPU: ``python bench/middleware_bench.py``.

With ``--tracing``: what the ``Tracing`` middleware costs while OpenTelemetry is off (its API
installed, no SDK configured) instead.

Two stdio servers (bench/_stdio_server.py, one with ``--middleware 3`` or ``--tracing``) are fed pipelined
``tools/call`` in alternating rounds; each round measures the server process's CPU per call
(``/proc/<pid>/stat``, Linux). Shown: the median of each target over the rounds, the overhead of
the medians, and the noise (the spread of the per-round overheads). See bench/README.md.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import LineProcess, run_for, table  # noqa: E402
from _tools import CALL_PARAMS  # noqa: E402
from stdio_bench import pipelined, start  # noqa: E402

SERVER = os.path.join(HERE, "_stdio_server.py")
#: The most a chain of three no-op middlewares (or Tracing with OpenTelemetry off) may add to a tools/call's server CPU.
TARGET = 0.03


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=1.0, help="seconds per measured run (default 1)")
    parser.add_argument("--rounds", type=int, default=15, help="alternating rounds (default 15)")
    parser.add_argument("--tracing", action="store_true", help="measure Tracing() with no OpenTelemetry SDK configured")
    options = parser.parse_args()

    measured = "Tracing, OTel off" if options.tracing else "3 no-op middlewares"
    extra = ["--tracing"] if options.tracing else ["--middleware", "3"]
    targets = {"no middleware": [SERVER], measured: [SERVER, *extra]}
    children: dict[str, LineProcess] = {}
    for name, args in targets.items():
        children[name] = start(args[0]) if len(args) == 1 else _start(args)
    cpu: dict[str, list[float]] = {name: [] for name in targets}
    try:
        for child in children.values():
            run_for(0.5, child.pid, pipelined(child, "tools/call", CALL_PARAMS))  # warm up
        for round_number in range(options.rounds):
            order = list(children.items()) if round_number % 2 == 0 else list(reversed(children.items()))
            for name, child in order:
                result = run_for(options.duration, child.pid, pipelined(child, "tools/call", CALL_PARAMS))
                if result.cpu_us_per_call is None:
                    raise SystemExit("needs /proc (Linux) to read the server's CPU time")
                cpu[name].append(result.cpu_us_per_call)
    finally:
        codes = {name: child.close() for name, child in children.items()}
    if any(codes.values()):
        raise SystemExit(f"a target exited with an error: {codes}")

    plain, chained = cpu["no middleware"], cpu[measured]
    overhead = statistics.median(chained) / statistics.median(plain) - 1
    per_round = sorted(b / a - 1 for a, b in zip(plain, chained))
    quartiles = statistics.quantiles(per_round, n=4) if len(per_round) > 1 else [per_round[0]] * 3
    rows = [
        [name, f"{statistics.median(values):.2f} us", f"{min(values):.2f} us", f"{max(values):.2f} us"]
        for name, values in cpu.items()
    ]
    print(f"server CPU per pipelined tools/call, Python {sys.version.split()[0]}, {options.rounds} alternating rounds x {options.duration:g} s")
    print(table(["target", "median", "min", "max"], rows))
    print(
        f"overhead of the medians: {overhead:+.1%} (target <= {TARGET:.0%}); per-round overheads: "
        f"median {statistics.median(per_round):+.1%}, quartiles {quartiles[0]:+.1%} .. {quartiles[2]:+.1%}, "
        f"range {per_round[0]:+.1%} .. {per_round[-1]:+.1%}"
    )


def _start(args: list[str]) -> LineProcess:
    child = LineProcess(args)
    init = child.request(
        {
            "jsonrpc": "2.0",
            "id": "init",
            "method": "initialize",
            "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}},
        }
    )
    assert "result" in init, init
    child.notify({"jsonrpc": "2.0", "method": "notifications/initialized"})
    return child


if __name__ == "__main__":
    main()
