"""The ``mcp-sdk`` command line, run as a real subprocess against examples/weather.py (issue 12)."""

from __future__ import annotations

import json
import os
import queue
import shlex
import signal
import subprocess
import sys
import time
import typing as t
from pathlib import Path

import pytest
import requests

from mcp_sdk.cli import parse_arguments
from spec.support.http_server import free_port
from spec.support.sigint import python_command

ROOT = Path(__file__).resolve().parents[3]
WEATHER = str(ROOT / "examples" / "weather.py")
TIMEOUT = 60


SCRIPT = str(Path(sys.executable).parent / "mcp-sdk")


def mcp_sdk(
    *args: str, env: dict[str, str] | None = None, console_script: bool = False, cwd: Path = ROOT
) -> subprocess.CompletedProcess[str]:
    """Run the CLI (``python -m mcp_sdk``, or the installed ``mcp-sdk`` script) to completion."""
    command = [SCRIPT] if console_script else [sys.executable, "-m", "mcp_sdk"]
    return subprocess.run([*command, *args], capture_output=True, text=True, timeout=TIMEOUT, env=env, cwd=cwd)


class TestTalkingToAServerFile:
    def test_tools_are_listed_readably_and_as_json(self):
        listed = mcp_sdk("tools", WEATHER, console_script=True)
        assert (listed.returncode, listed.stderr) == (0, "")
        assert listed.stdout == (
            "get_alerts: Get weather alerts for a US state (two-letter code, e.g. CA).\n"
            "    state (string, required)\n"
            "get_forecast: Get the weather forecast for a location.\n"
            "    latitude (number, required)\n"
            "    longitude (number, required)\n"
        )
        as_json = json.loads(mcp_sdk("tools", WEATHER, "--json").stdout)
        assert [tool["name"] for tool in as_json] == ["get_alerts", "get_forecast"]
        assert as_json[1]["inputSchema"]["required"] == ["latitude", "longitude"]

    def test_call_passes_typed_key_value_arguments(self):
        called = mcp_sdk("call", WEATHER, "get_forecast", "latitude=47.6", "longitude=-122.3")
        assert (called.returncode, called.stdout, called.stderr) == (0, "Forecast for 47.6, -122.3: sunny, 22°C, light wind\n", "")
        result = json.loads(mcp_sdk("call", WEATHER, "get_alerts", "state=ca", "--json").stdout)
        assert (result["content"], result["isError"]) == ([{"type": "text", "text": "Heat advisory until 8 PM"}], False)

    def test_a_tool_error_exits_non_zero(self):
        failed = mcp_sdk("call", WEATHER, "get_forecast", "latitude=north", "longitude=1")
        assert failed.returncode == 1
        assert failed.stdout.startswith("Invalid arguments: latitude must be number")

    def test_a_result_the_sdk_cannot_send_is_shown_in_the_sdks_words(self, tmp_path: Path):
        (tmp_path / "server.py").write_text(
            "from mcp_sdk import Server\n"
            "server = Server(name='results')\n"
            "@server.tool\n"
            "def numbers() -> set:\n"
            "    return {1, 2}\n"
        )
        failed = mcp_sdk("call", str(tmp_path / "server.py"), "numbers")
        assert failed.returncode == 1
        assert failed.stdout == (
            "Tool numbers returned a set, which has no MCP form: return a string, content blocks "
            "(Content.Text(...) or wire dicts), a list of them, a dict, dataclass, attrs instance or "
            "Pydantic model (structured content), a number, a boolean or a list of JSON values (structured content "
            'as {"result": value}), a Tool.Response, or None\n'
        )

    def test_prompts_and_resources_of_a_server_without_any(self):
        assert mcp_sdk("prompts", WEATHER).stdout == "(no prompts)\n"
        assert json.loads(mcp_sdk("resources", WEATHER, "--json").stdout) == {"resources": [], "resourceTemplates": []}


@pytest.mark.parametrize(
    "args, message",
    [
        (("tools", "no_such_server.py"), "mcp-sdk: error: no such file: no_such_server.py\n"),
        (("call", WEATHER, "get_weather"), "mcp-sdk: error: no tool 'get_weather'; the server has: get_alerts, get_forecast\n"),
        (("call", WEATHER, "get_alerts", "CA"), "mcp-sdk: error: arguments are key=value, not 'CA'\n"),
        (("run", f"{WEATHER}:nothing"), f"mcp-sdk: error: {WEATHER} has no Server named 'nothing'\n"),
        (("run", "{broken}"), "mcp-sdk: error: importing {broken} failed: RuntimeError: no database\n"),
        (("run", "{empty}"), "mcp-sdk: error: {empty} defines no mcp_sdk.Server at module level (e.g. server = Server(name=...))\n"),
    ],
)
def test_errors_are_one_line_and_a_non_zero_exit(args: tuple[str, ...], message: str | None, tmp_path: Path):
    (tmp_path / "broken.py").write_text("raise RuntimeError('no database')\n")
    (tmp_path / "empty.py").write_text("x = 1\n")
    files = {"broken": str(tmp_path / "broken.py"), "empty": str(tmp_path / "empty.py")}
    args = tuple(arg.format(**files) for arg in args)
    message = message.format(**files) if message is not None else None
    failed = mcp_sdk(*args)
    assert failed.returncode == 1
    assert failed.stderr.count("\n") == 1 and failed.stderr.startswith("mcp-sdk: error: ")
    if message is not None:
        assert failed.stderr == message


def test_run_serves_http_for_any_client():
    port = free_port()
    process = subprocess.Popen(
        python_command("-m", "mcp_sdk", "run", WEATHER, "--http", str(port)),
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:  # bounded: until the server listens
            try:
                requests.get(url, timeout=5)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        called = mcp_sdk("call", url, "get_alerts", "state=TX")
        assert (called.returncode, called.stdout) == (0, "Flood watch\n")
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=TIMEOUT)
    assert f"Serving weather on {url}" in stderr
    assert process.returncode in (0, 130)


class TestInstallClaudeDesktop:
    def test_dry_run_prints_the_entry_with_this_interpreter(self):
        shown = mcp_sdk("install", "claude-desktop", WEATHER, "--dry-run")
        assert json.loads(shown.stdout) == {
            "mcpServers": {"weather": {"command": sys.executable, "args": ["-m", "mcp_sdk", "run", WEATHER]}}
        }

    def test_the_entry_is_merged_into_an_existing_configuration(self, tmp_path: Path):
        config = tmp_path / "claude_desktop_config.json"
        config.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}, "theme": "dark"}))
        done = mcp_sdk("install", "claude-desktop", WEATHER, "--name", "forecasts", "--config", str(config))
        assert (done.returncode, done.stdout, done.stderr) == (
            0,
            f"Added 'forecasts' to {config}; restart Claude Desktop to load it\n",
            "",
        )
        assert json.loads(config.read_text()) == {
            "mcpServers": {
                "other": {"command": "x"},
                "forecasts": {"command": sys.executable, "args": ["-m", "mcp_sdk", "run", WEATHER]},
            },
            "theme": "dark",
        }

    def test_a_configuration_that_is_not_one_is_left_alone(self, tmp_path: Path):
        config = tmp_path / "claude_desktop_config.json"
        config.write_text("[1, 2]")
        failed = mcp_sdk("install", "claude-desktop", WEATHER, "--config", str(config))
        assert failed.returncode == 1 and "is not a Claude Desktop configuration" in failed.stderr
        assert config.read_text() == "[1, 2]"


@pytest.mark.skipif(os.name != "posix", reason="symlinks and file modes as POSIX has them")
class TestInstallWritesTheRealConfiguration:
    """Issue 19, item 12: the configuration Claude Desktop reads, in a temporary HOME."""

    ENTRY = {"command": sys.executable, "args": ["-m", "mcp_sdk", "run", WEATHER]}

    @pytest.fixture()
    def home(self, tmp_path: Path) -> tuple[dict[str, str], Path]:
        """An environment whose HOME is a temporary folder, and where Claude Desktop looks in it."""
        env = {**os.environ, "HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": str(tmp_path / "home" / ".config")}
        if sys.platform == "darwin":
            config = tmp_path / "home" / "Library" / "Application Support" / "Claude" / "claude_desktop_config.json"
        else:
            config = tmp_path / "home" / ".config" / "Claude" / "claude_desktop_config.json"
        return env, config

    def test_a_symlinked_configuration_is_updated_through_the_link(self, home: tuple[dict[str, str], Path], tmp_path: Path):
        env, link = home
        real = tmp_path / "dotfiles" / "claude.json"
        real.parent.mkdir()
        real.write_text(json.dumps({"mcpServers": {"other": {"command": "x"}}}))
        real.chmod(0o644)
        link.parent.mkdir(parents=True)
        link.symlink_to(real)

        done = mcp_sdk("install", "claude-desktop", WEATHER, env=env)

        assert (done.returncode, done.stdout, done.stderr) == (0, f"Added 'weather' to {link}; restart Claude Desktop to load it\n", "")
        assert link.is_symlink() and os.readlink(link) == str(real)
        assert json.loads(real.read_text()) == {"mcpServers": {"other": {"command": "x"}, "weather": self.ENTRY}}
        assert oct(real.stat().st_mode & 0o777) == oct(0o644)
        assert sorted(p.name for p in real.parent.iterdir()) == ["claude.json"]  # no temporary file left
        assert sorted(p.name for p in link.parent.iterdir()) == ["claude_desktop_config.json"]

    def test_the_mode_of_an_existing_file_is_kept(self, home: tuple[dict[str, str], Path]):
        env, config = home
        config.parent.mkdir(parents=True)
        config.write_text("{}")
        config.chmod(0o640)
        done = mcp_sdk("install", "claude-desktop", WEATHER, env=env)
        assert done.returncode == 0
        assert json.loads(config.read_text()) == {"mcpServers": {"weather": self.ENTRY}}
        assert oct(config.stat().st_mode & 0o777) == oct(0o640)

    def test_a_new_file_is_its_owners_alone(self, home: tuple[dict[str, str], Path]):
        env, config = home
        done = mcp_sdk("install", "claude-desktop", WEATHER, env=env)
        assert (done.returncode, done.stdout, done.stderr) == (0, f"Added 'weather' to {config}; restart Claude Desktop to load it\n", "")
        assert json.loads(config.read_text()) == {"mcpServers": {"weather": self.ENTRY}}
        assert oct(config.stat().st_mode & 0o777) == oct(0o600)

    def test_an_entry_of_the_same_name_is_replaced_only_with_force(self, home: tuple[dict[str, str], Path]):
        env, config = home
        config.parent.mkdir(parents=True)
        before = json.dumps({"mcpServers": {"weather": {"command": "node", "args": ["weather.js"]}, "other": {"command": "x"}}})
        config.write_text(before)

        refused = mcp_sdk("install", "claude-desktop", WEATHER, env=env)
        assert (refused.returncode, refused.stdout, refused.stderr) == (
            1,
            "",
            f"mcp-sdk: error: {config} already has a server named 'weather'; pass --force to replace it, or --name to add another\n",
        )
        assert config.read_text() == before

        forced = mcp_sdk("install", "claude-desktop", WEATHER, "--force", env=env)
        assert (forced.returncode, forced.stdout, forced.stderr) == (0, f"Replaced 'weather' in {config}; restart Claude Desktop to load it\n", "")
        assert json.loads(config.read_text()) == {"mcpServers": {"weather": self.ENTRY, "other": {"command": "x"}}}

    def test_the_same_entry_again_changes_nothing(self, home: tuple[dict[str, str], Path]):
        env, config = home
        assert mcp_sdk("install", "claude-desktop", WEATHER, env=env).returncode == 0
        written = config.read_text()
        again = mcp_sdk("install", "claude-desktop", WEATHER, env=env)
        assert (again.returncode, again.stdout, again.stderr) == (0, f"'weather' is already in {config}; nothing changed\n", "")
        assert config.read_text() == written


SHADOWING_SERVER = """\
import helpers
from mcp_sdk import Server

server = Server(name="greeter")


@server.tool
def greet(name: str) -> str:
    \"\"\"Greet someone.\"\"\"
    return helpers.greeting(name)
"""


class TestAServersFolderDoesNotShadowTheStandardLibrary:
    """Issue 19, item 13: a ``queue.py`` or ``secrets.py`` beside the server file (or in the current
    directory) is the server's own business; the SDK keeps the standard library's."""

    @pytest.fixture()
    def folder(self, tmp_path: Path) -> Path:
        folder = tmp_path / "greeter"
        folder.mkdir()
        (folder / "server.py").write_text(SHADOWING_SERVER)
        (folder / "helpers.py").write_text("def greeting(name):\n    return f'Hello, {name}'\n")
        (folder / "queue.py").write_text('"""This server\'s job queue."""\nJOBS = []\n')
        (folder / "secrets.py").write_text('API_KEY = "not the standard library"\n')
        return folder

    @pytest.mark.parametrize(
        "target, cwd",
        [
            ("server.py", "folder"),  # the README's way: mcp-sdk call FILE runs `mcp-sdk run FILE` from here
            ("{folder}/server.py", "root"),
            ("{script} run server.py", "folder"),
            ("{script} run {folder}/server.py", "root"),
            ("{python} -m mcp_sdk run {folder}/server.py", "root"),  # the Claude Desktop entry
            ("{script} run server:server", "folder"),  # module:attribute, the module in the current directory
        ],
    )
    def test_the_server_answers_over_stdio_and_imports_its_own_modules(self, folder: Path, target: str, cwd: str):
        target = target.format(folder=folder, script=shlex.quote(SCRIPT), python=shlex.quote(sys.executable))
        called = mcp_sdk("call", target, "greet", "name=Ada", console_script=True, cwd=folder if cwd == "folder" else ROOT)
        assert (called.returncode, called.stdout, called.stderr) == (0, "Hello, Ada\n", "")

    def test_a_module_attribute_target_under_python_m(self, folder: Path):
        (folder / "queue.py").unlink()  # `python -m` itself puts the current directory first: not ours to undo
        (folder / "secrets.py").unlink()
        target = f"{shlex.quote(sys.executable)} -m mcp_sdk run server:server"
        called = mcp_sdk("call", target, "greet", "name=Ada", console_script=True, cwd=folder)
        assert (called.returncode, called.stdout, called.stderr) == (0, "Hello, Ada\n", "")

    def test_a_server_file_named_like_a_standard_module(self, folder: Path):
        (folder / "queue.py").unlink()
        (folder / "server.py").rename(folder / "queue.py")
        called = mcp_sdk("call", "queue.py", "greet", "name=Ada", console_script=True, cwd=folder)
        assert (called.returncode, called.stdout, called.stderr) == (0, "Hello, Ada\n", "")

    def test_a_server_that_meant_its_own_queue_py_is_told_what_shadows_what(self, folder: Path):
        (folder / "server.py").write_text("from queue import JOBS\n" + SHADOWING_SERVER)
        failed = mcp_sdk("run", "server.py", console_script=True, cwd=folder)
        assert (failed.returncode, failed.stdout, failed.stderr) == (
            1,
            "",
            f"mcp-sdk: error: importing server.py failed: ImportError: cannot import name 'JOBS' from 'queue' ({queue.__file__}); "
            "queue.py next to it is not imported, the standard library's queue comes first: rename it\n",
        )


def test_dev_without_node_says_how_to_get_it(tmp_path: Path):
    env = {**os.environ, "PATH": str(tmp_path)}  # no npx, no node
    failed = mcp_sdk("dev", WEATHER, env=env)
    assert failed.returncode == 1
    assert failed.stderr.startswith("mcp-sdk: error: dev needs Node.js 22+ with npx (https://nodejs.org/en/download); then run: npx")


def test_key_value_arguments_follow_the_schema():
    schema: dict[str, t.Any] = {"properties": {"zip": {"type": "string"}, "days": {"type": "integer"}}}
    assert parse_arguments(["zip=02134", "days=3", "tags=[1,2]", "note=hello"], schema) == {
        "zip": "02134",
        "days": 3,
        "tags": [1, 2],
        "note": "hello",
    }


def call_through_http_server(
    command: t.Callable[[str], list[str]], tool: str, *pairs: str, cwd: Path = ROOT
) -> tuple[subprocess.CompletedProcess[str], str]:
    """Start ``command(port)`` (an ``mcp-sdk`` serving ``--http port``), call ``tool`` through it with
    ``mcp-sdk call``, stop it with SIGINT; returns the call and the server's stderr."""
    port = free_port()
    process = subprocess.Popen(command(str(port)), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd)
    try:
        url = f"http://127.0.0.1:{port}/mcp"
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline and process.poll() is None:  # bounded: until the server listens
            try:
                requests.get(url, timeout=5)
                break
            except requests.ConnectionError:
                time.sleep(0.1)
        called = mcp_sdk("call", url, tool, *pairs)
    finally:
        process.send_signal(signal.SIGINT)
        _, stderr = process.communicate(timeout=TIMEOUT)
    assert process.returncode in (0, 130), stderr
    return called, stderr


def test_run_serves_a_proxy_module_over_http(tmp_path: Path):
    """``mcp-sdk run --http`` of a module whose server is ``Server.proxy`` of a stdio server."""
    module = tmp_path / "front.py"
    remote = ROOT / "spec" / "support" / "proxied_server.py"
    module.write_text(
        "import sys\n"
        "from mcp_sdk import Client, Server\n"
        "from mcp_sdk.client import Stdio\n"
        f"server = Server.proxy(Client(Stdio(command=sys.executable, args=[{str(remote)!r}])), name='front')\n"
    )
    called, stderr = call_through_http_server(
        lambda port: python_command("-m", "mcp_sdk", "run", str(module), "--http", port), "count", "to=2"
    )
    assert (called.returncode, called.stdout) == (0, "counted to 2\n")
    assert "Serving front on http://127.0.0.1:" in stderr


def test_proxy_serves_a_published_stdio_server_over_http():
    """``mcp-sdk proxy --http PORT -- node server-everything stdio``."""
    from spec.support.client_interop import ensure_everything

    node, script = ensure_everything()
    called, stderr = call_through_http_server(
        lambda port: python_command("-m", "mcp_sdk", "proxy", "--http", port, "--name", "everything", "--", node, script, "stdio"),
        "echo", "message=hi",
    )
    assert (called.returncode, called.stdout) == (0, "Echo: hi\n")
    assert "Serving everything on http://127.0.0.1:" in stderr
