"""Processes run.py starts: the suite's CLI (own process group, logged, time-limited) and
``conformance/server.py``; everything it starts is stopped again. Standard library only."""

from __future__ import annotations

import os
import shlex
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
SERVER_SCRIPT = ROOT / "conformance" / "server.py"
SERVER_START_TIMEOUT = 30
KILL_GRACE = 5


def child_env() -> dict[str, str]:
    """The environment for server.py / client.py / the suite: the repo importable, unbuffered."""
    env = dict(os.environ)
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")]))
    env["PYTHONUNBUFFERED"] = "1"
    return env


def kill_group(process: subprocess.Popen[bytes]) -> None:
    """Stop a process we started as a group leader (``start_new_session``) and everything left
    in its group, even after the leader itself exited: TERM, then KILL."""
    for sig in (signal.SIGTERM, signal.SIGKILL):
        try:
            os.killpg(process.pid, sig)
        except ProcessLookupError:  # the group is empty
            break
        deadline = time.monotonic() + KILL_GRACE
        while time.monotonic() < deadline:
            if process.poll() is not None and not group_members(process.pid):
                break
            time.sleep(0.1)
        else:
            continue
        break
    try:
        process.wait(timeout=KILL_GRACE)
    except subprocess.TimeoutExpired:
        pass


def group_members(pgid: int) -> list[int]:
    """PIDs in process group ``pgid`` (Linux /proc; empty elsewhere)."""
    members: list[int] = []
    try:
        entries = [entry for entry in os.listdir("/proc") if entry.isdigit()]
    except OSError:
        return []
    for entry in entries:
        try:
            with open(f"/proc/{entry}/stat", encoding="ascii", errors="replace") as stat:
                fields = stat.read().rsplit(")", 1)[1].split()
        except (OSError, IndexError):
            continue
        if len(fields) > 2 and fields[2] == str(pgid):
            members.append(int(entry))
    return members


def kill_children(process: subprocess.Popen[bytes]) -> None:
    """Stop the other processes of ``process``'s group (it leads its own), not ``process``: TERM, then KILL.

    Matching the group rather than the parent chain also finds a child whose parent
    (the shell) was already killed.
    """
    for sig in (signal.SIGTERM, signal.SIGKILL):
        pids = [pid for pid in group_members(process.pid) if pid != process.pid]
        if not pids:
            return
        for pid in pids:
            try:
                os.kill(pid, sig)
            except ProcessLookupError:
                pass
        time.sleep(1)


def run_logged(command: list[str], log_path: Path, timeout: float,
               reap_after: float | None = None) -> tuple[int | None, float]:
    """Run ``command`` (own process group), output to ``log_path``; (exit code or None on timeout, seconds).

    ``reap_after``: seconds after which the command's child processes are stopped (not the
    command itself). The suite kills a hung client's shell but then waits for the client
    process, which keeps the output pipe open until it exits by itself; stopping it lets
    the suite finish and write its results.
    """
    start = time.monotonic()
    with log_path.open("wb") as out:
        out.write(("$ " + shlex.join(command) + "\n\n").encode())
        out.flush()
        process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                   env=child_env(), start_new_session=True)
        code: int | None = None
        try:
            if reap_after is not None and reap_after < timeout:
                try:
                    code = process.wait(timeout=reap_after)
                except subprocess.TimeoutExpired:
                    kill_children(process)
            if code is None:
                code = process.wait(timeout=max(1.0, timeout - (time.monotonic() - start)))
        except subprocess.TimeoutExpired:
            code = None
        finally:
            kill_group(process)
    return code, time.monotonic() - start


def free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        return int(sock.getsockname()[1])


class ServerProcess:
    """``python conformance/server.py --port N``, started and stopped by us."""

    def __init__(self, log_path: Path) -> None:
        self.log_path = log_path
        self.process: subprocess.Popen[bytes] | None = None
        self.port = 0
        self.starts = 0

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}/mcp"

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def start(self) -> str | None:
        """Start and wait until it accepts connections; None when ready, else why not."""
        self.stop()
        self.starts += 1
        self.port = free_port()
        command = [sys.executable, str(SERVER_SCRIPT), "--port", str(self.port)]
        out = self.log_path.open("ab")
        out.write((f"\n=== start #{self.starts}: {shlex.join(command)}\n").encode())
        out.flush()
        try:
            self.process = subprocess.Popen(command, stdout=out, stderr=subprocess.STDOUT, cwd=ROOT,
                                            env=child_env(), start_new_session=True)
        finally:
            out.close()
        deadline = time.monotonic() + SERVER_START_TIMEOUT
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                return f"server.py exited with code {self.process.returncode} (see {self.log_path})"
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1):
                    return None
            except OSError:
                time.sleep(0.2)
        self.stop()
        return f"server.py did not accept connections within {SERVER_START_TIMEOUT}s (see {self.log_path})"

    def stop(self) -> None:
        if self.process is not None:
            kill_group(self.process)
            self.process = None
