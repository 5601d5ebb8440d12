"""Helpers shared by the benchmarks: child processes speaking JSON lines, CPU time, tables."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import typing as t

_TICKS = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds a process has used so far (Linux /proc), or None elsewhere."""
    try:
        with open(f"/proc/{pid}/stat", "rb") as stat:
            fields = stat.read().rsplit(b")", 1)[1].split()
    except OSError:
        return None
    # After the command name: state is field 3, utime 14, stime 15 (proc(5)).
    return (int(fields[11]) + int(fields[12])) / _TICKS


class LineProcess:
    """A child process that reads and writes one JSON message per line."""

    def __init__(self, args: list[str], env: dict[str, str] | None = None) -> None:
        self.process = subprocess.Popen(
            [sys.executable, *args],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=env,
        )
        self._stdin = t.cast(t.IO[bytes], self.process.stdin)
        self.readline = t.cast(t.IO[bytes], self.process.stdout).readline

    @property
    def pid(self) -> int:
        return self.process.pid

    def write(self, data: bytes) -> None:
        """Write without flushing (call :meth:`flush`)."""
        self._stdin.write(data)

    def flush(self) -> None:
        self._stdin.flush()

    def request(self, message: dict[str, t.Any]) -> t.Any:
        """Send one message and return the next line, parsed."""
        self.write(json.dumps(message).encode() + b"\n")
        self.flush()
        line = self.readline()
        if not line:
            raise RuntimeError(f"{self.process.args!r} closed its stdout")
        return json.loads(line)

    def notify(self, message: dict[str, t.Any]) -> None:
        self.write(json.dumps(message).encode() + b"\n")
        self.flush()

    def close(self, timeout: float = 10.0) -> int:
        """EOF, then wait (kill after ``timeout``); returns the exit code."""
        try:
            self._stdin.close()
        except BrokenPipeError:
            pass
        try:
            code = self.process.wait(timeout)
        except subprocess.TimeoutExpired:
            self.process.kill()
            code = self.process.wait(timeout)
        t.cast(t.IO[bytes], self.process.stdout).close()
        return code


class Result:
    """Throughput and CPU cost of one measured run."""

    def __init__(self, calls: int, wall: float, cpu: float | None) -> None:
        self.calls = calls
        self.wall = wall
        self.cpu = cpu

    @property
    def per_second(self) -> float:
        return self.calls / self.wall

    @property
    def cpu_us_per_call(self) -> float | None:
        return None if self.cpu is None else self.cpu / self.calls * 1e6


def run_for(duration: float, pid: int, body: t.Callable[[float], int]) -> Result:
    """Run ``body(deadline)`` (returns calls made) and measure wall and the child's CPU time."""
    cpu_before = cpu_seconds(pid)
    started = time.perf_counter()
    calls = body(started + duration)
    wall = time.perf_counter() - started
    cpu_after = cpu_seconds(pid)
    cpu = None if cpu_before is None or cpu_after is None else cpu_after - cpu_before
    return Result(calls, wall, cpu)


def best_result(results: list[Result]) -> Result:
    """The fastest run, with the lowest CPU per call seen in any run.

    Other load on the machine only ever slows a run down, so the best of a
    few runs estimates the code's own speed better than their mean.
    """
    fastest = max(results, key=lambda r: r.per_second)
    cpus = [r.cpu_us_per_call for r in results if r.cpu_us_per_call is not None]
    result = Result(fastest.calls, fastest.wall, None)
    if cpus:
        result.cpu = min(cpus) * fastest.calls / 1e6
    return result


def table(header: list[str], rows: list[list[str]]) -> str:
    """A plain-text table, columns right-aligned except the first."""
    widths = [max(len(str(row[i])) for row in [header, *rows]) for i in range(len(header))]

    def line(cells: list[str]) -> str:
        return "  ".join(
            str(cell).ljust(widths[i]) if i == 0 else str(cell).rjust(widths[i]) for i, cell in enumerate(cells)
        )

    rule = "  ".join("-" * width for width in widths)
    return "\n".join([line(header), rule, *(line(row) for row in rows)])
