"""The stdio server's CPU between calls: sequential ``tools/call`` at full speed, at paced rates, and idle.

``python bench/stdio_idle_bench.py [--tree PATH]``: starts ``bench/_stdio_server.py`` of the tree
(default: this one, so another checkout can be measured alike), then for each phase prints the
server's CPU time (user + system, /proc, 10 ms ticks) and its threads' context switches (voluntary
and not, /proc/<pid>/task/*/status), in all and per call. What is spent between calls (the
watchdog's wake-ups) shows in the paced and idle phases; the full-speed phase is the per-call cost.
Linux only.
"""

from __future__ import annotations

import argparse
import glob
import os
import sys
import time
import typing as t

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

from _common import LineProcess, cpu_seconds  # noqa: E402
from _tools import CALL_PARAMS  # noqa: E402
from stdio_bench import encode  # noqa: E402

CLIENT = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "bench", "version": "1"}}
RATES = (1000, 200, 20)


def context_switches(pid: int) -> int:
    """Context switches of all of a process's threads so far."""
    total = 0
    for path in glob.glob(f"/proc/{pid}/task/*/status"):
        try:
            with open(path) as status:
                for line in status:
                    if line.startswith(("voluntary_ctxt_switches", "nonvoluntary_ctxt_switches")):
                        total += int(line.split()[1])
        except OSError:  # the thread ended meanwhile
            pass
    return total


class Server:
    def __init__(self, tree: str) -> None:
        self.process = LineProcess([os.path.join(tree, "bench", "_stdio_server.py")])
        self.next_id = 0
        self.send(encode(0, "initialize", CLIENT))
        self.process.readline()
        self.send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def send(self, data: bytes) -> None:
        self.process.write(data)
        self.process.flush()

    def call(self) -> None:
        self.next_id += 1
        self.send(encode(self.next_id, "tools/call", CALL_PARAMS))
        self.process.readline()

    def phase(self, name: str, run: t.Callable[[], int]) -> None:
        pid = self.process.pid
        cpu, switches = cpu_seconds(pid) or 0.0, context_switches(pid)
        calls = run()
        cpu_ms = ((cpu_seconds(pid) or 0.0) - cpu) * 1000
        switches = context_switches(pid) - switches
        per_call = f"  {cpu_ms * 1000 / calls:7.1f} us/call  {switches / calls:6.2f} ctxsw/call" if calls else ""
        print(f"{name:24} {calls:7} calls  {cpu_ms:6.0f} ms CPU  {switches:7} ctxsw{per_call}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tree", default=os.path.dirname(HERE), help="checkout whose _stdio_server.py to run")
    parser.add_argument("--seconds", type=float, default=3.0, help="length of each calling phase")
    options = parser.parse_args()
    server = Server(options.tree)
    server.call()
    time.sleep(1.0)  # past start-up

    def full_speed() -> int:
        calls, end = 0, time.monotonic() + options.seconds
        while time.monotonic() < end:
            server.call()
            calls += 1
        return calls

    def paced(rate: int) -> t.Callable[[], int]:
        def run() -> int:
            due = time.monotonic()
            for _ in range(int(rate * options.seconds)):
                server.call()
                due += 1 / rate
                time.sleep(max(0.0, due - time.monotonic()))
            return int(rate * options.seconds)

        return run

    def idle() -> int:
        time.sleep(2.0)
        return 0

    server.phase(f"full speed, {options.seconds:g} s", full_speed)
    server.phase("idle after, 2 s", idle)
    for rate in RATES:
        server.phase(f"paced {rate}/s, {options.seconds:g} s", paced(rate))
    server.phase("idle after, 2 s", idle)
    server.process.close()


if __name__ == "__main__":
    main()
