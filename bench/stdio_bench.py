"""Round trips per second of the stdio server, against a bare JSON loop: ``python bench/stdio_bench.py``.

See bench/README.md for what the figures mean.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import LineProcess, Result, best_result, run_for, table  # noqa: E402
from _tools import CALL_PARAMS, TOOL_COUNT  # noqa: E402

PIPELINE_DEPTH = 32
#: Minimum share of the bare loop's figure each mode should reach.
TARGETS = {"sequential tools/call": 0.50, "pipelined tools/call": 0.30, f"tools/list ({TOOL_COUNT} tools)": 0.33}

TARGET_SCRIPTS = {
    "bare loop": os.path.join(HERE, "_bare_stdio.py"),
    "mcp_sdk": os.path.join(HERE, "_stdio_server.py"),
}


def encode(request_id: int, method: str, params: t.Any = None) -> bytes:
    message: dict[str, t.Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return json.dumps(message, separators=(",", ":")).encode() + b"\n"


def sequential(child: LineProcess, method: str, params: t.Any) -> t.Callable[[float], int]:
    """One request at a time: send, wait for the answer, repeat."""
    import time

    def body(deadline: float) -> int:
        write, flush, readline, now = child.write, child.flush, child.readline, time.perf_counter
        calls = 0
        while now() < deadline:
            write(encode(calls, method, params))
            flush()
            if not readline():
                raise RuntimeError("the server closed its stdout")
            calls += 1
        return calls

    return body


def pipelined(child: LineProcess, method: str, params: t.Any, depth: int = PIPELINE_DEPTH) -> t.Callable[[float], int]:
    """Keep ``depth`` requests in flight; answers may come back in any order."""
    import time

    def body(deadline: float) -> int:
        write, flush, readline, now = child.write, child.flush, child.readline, time.perf_counter
        sent = done = 0
        while True:
            running = now() < deadline
            if running:
                while sent - done < depth:
                    write(encode(sent, method, params))
                    sent += 1
                flush()
            elif sent == done:
                return done
            if not readline():
                raise RuntimeError("the server closed its stdout")
            done += 1

    return body


def start(script: str) -> LineProcess:
    child = LineProcess([script])
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


def check_same_answers(children: dict[str, LineProcess]) -> None:
    """Both targets must answer with the same results, or the comparison means nothing."""
    for method, params in (("tools/call", CALL_PARAMS), ("tools/list", None)):
        answers = {name: child.request(json.loads(encode(1, method, params)))["result"] for name, child in children.items()}
        first, *others = answers.values()
        for other in others:
            if other != first:
                raise SystemExit(f"targets answer {method} differently:\n{json.dumps(answers, indent=1)[:2000]}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--duration", type=float, default=1.5, help="seconds per measured run (default 1.5)")
    parser.add_argument("--repeat", type=int, default=3, help="runs per figure; the best is shown (default 3)")
    options = parser.parse_args()

    modes: dict[str, t.Callable[[LineProcess], t.Callable[[float], int]]] = {
        "sequential tools/call": lambda child: sequential(child, "tools/call", CALL_PARAMS),
        "pipelined tools/call": lambda child: pipelined(child, "tools/call", CALL_PARAMS),
        f"tools/list ({TOOL_COUNT} tools)": lambda child: sequential(child, "tools/list", None),
    }
    children = {name: start(script) for name, script in TARGET_SCRIPTS.items()}
    try:
        check_same_answers(children)
        runs: dict[tuple[str, str], list[Result]] = {}
        for _ in range(options.repeat):
            for mode, make in modes.items():
                for name, child in children.items():
                    run_for(0.2, child.pid, make(child))  # warm up
                    runs.setdefault((mode, name), []).append(run_for(options.duration, child.pid, make(child)))
    finally:
        codes = {name: child.close() for name, child in children.items()}
    if any(codes.values()):
        raise SystemExit(f"a target exited with an error: {codes}")

    rows = []
    missed = []
    for mode in modes:
        bare = best_result(runs[(mode, "bare loop")])
        sdk = best_result(runs[(mode, "mcp_sdk")])
        wall_ratio = sdk.per_second / bare.per_second
        cpu_ratio = (
            bare.cpu_us_per_call / sdk.cpu_us_per_call
            if bare.cpu_us_per_call and sdk.cpu_us_per_call
            else None
        )
        target = TARGETS[mode]
        if wall_ratio < target:
            missed.append(mode)
        rows.append(
            [
                mode,
                f"{bare.per_second:,.0f}",
                f"{sdk.per_second:,.0f}",
                f"{wall_ratio:.0%}",
                _us(bare.cpu_us_per_call),
                _us(sdk.cpu_us_per_call),
                "n/a" if cpu_ratio is None else f"{cpu_ratio:.0%}",
                f">= {target:.0%}",
            ]
        )
    header = ["mode", "bare/s", "sdk/s", "wall ratio", "bare CPU/call", "sdk CPU/call", "CPU ratio", "target"]
    print(f"stdio round trips, Python {sys.version.split()[0]}, best of {options.repeat} x {options.duration:g} s runs")
    print(table(header, rows))
    print("ratios: sdk as a share of the bare loop (wall: calls per second; CPU: bare CPU per call / sdk CPU per call)")
    if missed:
        print(f"below target (wall): {', '.join(missed)}")


def _us(value: float | None) -> str:
    return "n/a" if value is None else f"{value:.1f} us"


if __name__ == "__main__":
    main()
