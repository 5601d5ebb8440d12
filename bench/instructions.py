"""CPU instructions per stdio ``tools/call``, counted by valgrind: ``python bench/instructions.py``.

CPU times on a shared machine move by 30 % from run to run; instruction counts do not (about 1 %
in-process, 2 % over pipes, where the watchdog's wake-ups follow the wall clock). Each figure is
the difference between two runs of the same server, one with ``--calls`` calls and one with three
times as many, divided by the extra calls, so start-up cancels out. Needs ``valgrind`` on PATH.

- **sequential**: the server runs under valgrind; this script (not under valgrind) sends one
  ``tools/call`` at a time over pipes and reads each answer, in a 2025 session or with the
  2026-07-28 envelope.
- **pipelined**: the server reads every request from a file at once (a 2025 session) and writes
  its answers to ``/dev/null``.

Both for ``_stdio_server.py`` (the SDK) and ``_bare_stdio.py`` (the floor).

    python bench/instructions.py [--tree ../main] [--calls 500] [--only sequential pipelined]
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _tools import CALL_PARAMS  # noqa: E402
from modern_bench import call_message  # noqa: E402
from stdio_bench import encode  # noqa: E402

CLIENT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
INITIALIZE = encode("init", "initialize", CLIENT)
INITIALIZED = b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n'


def valgrind(script: str, log: str) -> list[str]:
    return ["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null", f"--log-file={log}", sys.executable, script]


def collected(log: str) -> int:
    with open(log) as file:
        match = re.search(r"Collected : (\d+)", file.read())
    if match is None:
        raise SystemExit(f"valgrind wrote no instruction count to {log}")
    return int(match.group(1))


def sequential(script: str, era: str, calls: int, log: str) -> int:
    params = call_message(era, CALL_PARAMS)["params"]
    process = subprocess.Popen(valgrind(script, log), stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    stdin, stdout = process.stdin, process.stdout
    assert stdin is not None and stdout is not None
    stdin.write(INITIALIZE)
    stdin.flush()
    stdout.readline()
    stdin.write(INITIALIZED)
    for number in range(calls):
        stdin.write(encode(number, "tools/call", params))
        stdin.flush()
        if not stdout.readline():
            raise SystemExit(f"{script} closed its stdout")
    stdin.close()
    process.wait()
    stdout.close()
    return collected(log)


def pipelined(script: str, calls: int, log: str, scratch: str) -> int:
    requests = os.path.join(scratch, "requests.jsonl")
    with open(requests, "wb") as file:
        file.write(INITIALIZE + INITIALIZED)
        file.write(b"".join(encode(number, "tools/call", CALL_PARAMS) for number in range(calls)))
    with open(requests, "rb") as stdin, open(os.devnull, "wb") as stdout:
        subprocess.run(valgrind(script, log), stdin=stdin, stdout=stdout, check=True)
    return collected(log)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tree", default=os.path.dirname(HERE), help="the checkout whose bench/ servers to count")
    parser.add_argument("--calls", type=int, default=500, help="calls in the shorter run (the longer: three times as many)")
    parser.add_argument("--only", nargs="+", choices=["sequential", "pipelined"], default=["sequential", "pipelined"])
    args = parser.parse_args(argv)
    bench = os.path.join(os.path.abspath(args.tree), "bench")
    short, long = args.calls, 3 * args.calls
    print(f"instructions per tools/call (valgrind), {os.path.abspath(args.tree)}; {long} - {short} calls")
    with tempfile.TemporaryDirectory() as scratch:
        log = os.path.join(scratch, "valgrind.log")
        for name, target in (("floor", "_bare_stdio.py"), ("mcp_sdk", "_stdio_server.py")):
            script = os.path.join(bench, target)
            figures = []
            if "sequential" in args.only:
                for era in ("2025", "2026-07-28"):
                    extra = sequential(script, era, long, log) - sequential(script, era, short, log)
                    figures.append(f"sequential {era}: {extra / (long - short):,.0f}")
            if "pipelined" in args.only:
                extra = pipelined(script, long, log, scratch) - pipelined(script, short, log, scratch)
                figures.append(f"pipelined: {extra / (long - short):,.0f}")
            print(f"{name:8s} " + "; ".join(figures))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
