"""The real Flask app of spec/mcp_sdk/contrib/flask_app.py (Flask-SQLAlchemy on a SQLite file,
Flask-Login) under real gunicorn (``-k gthread``) on 127.0.0.1, driven by our Client and by the
official Python client in both eras: tools that query the ORM, read the config, see the signed-in
user and the request headers, report progress and log (issue 18's proof; flask_test.py runs the
same app under werkzeug's server)."""

from __future__ import annotations

import os
import subprocess
import sys
import typing as t
import warnings
from pathlib import Path

import anyio
import pytest
import requests

from mcp_sdk import Client
from mcp_sdk.client import HTTP
from spec.support.http_server import ROOT, ServerProcess

TIMEOUT = 30.0
GUNICORN = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "16", "-w", "1", "--graceful-timeout", "1"]

#: What ``whoami`` sees of a call from ada's signed-in session carrying ``X-Agent``.
WHOAMI = {
    "user": "ada",
    "agent": "spec-agent",
    "remote": "127.0.0.1",
    "path": "/mcp",
    "endpoint": "mcp_sdk.endpoint",
    "view_g": None,
    "g_calls": 1,
    "carrier": "flask.wrappers.Request",
    "carrier_agent": "spec-agent",
}
#: What ``count`` with ``{"to": 2}`` sends before its answer, progress and logs interleaved.
PROGRESS_AND_LOGS = [
    ("progress", 1.0, 2.0),
    ("log", "info", "library", "step 1 for ada"),
    ("progress", 2.0, 2.0),
    ("log", "info", "library", "step 2 for ada"),
]


class Served(t.NamedTuple):
    url: str
    cookie: str  # ada's Flask session cookie, signed in through the app's /login route


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> t.Iterator[Served]:
    database = tmp_path_factory.mktemp("flask") / "library.sqlite3"
    app = f"spec.mcp_sdk.contrib.flask_app:create_app('sqlite:///{database}')"
    with ServerProcess([*GUNICORN, "-b", "127.0.0.1:{port}", app]) as process:
        with requests.Session() as browser:
            signed_in = browser.post(process.base + "/login", data={"username": "ada"}, timeout=TIMEOUT)
            assert (signed_in.status_code, signed_in.text) == (200, "signed in")
            cookie = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
        yield Served(process.url, cookie)


def texts(*values: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": value} for value in values]


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_our_client(served: Served, mode: str) -> None:
    received: list[tuple[t.Any, ...]] = []
    headers = {"Cookie": served.cookie, "X-Agent": "spec-agent"}
    with Client(transport=HTTP(url=served.url, headers=headers, timeout=TIMEOUT)) as ours:
        ours.on_progress(lambda params: received.append(("progress", float(params["progress"]), float(params["total"]))))
        ours.on_log_message(lambda params: received.append(("log", params["level"], params["logger"], params["data"])))
        ours.log_level = "info"
        ours.connect(mode=mode)
        assert ours.era == mode
        assert [tool.name for tool in ours.tools()] == ["books", "setting", "whoami", "context", "count"]
        assert ours.call_tool("books", {"author": "Austen"})["result"]["content"] == texts("Emma", "Persuasion")
        assert ours.call_tool("setting", {"key": "GREETING"})["result"]["content"] == texts("Hello")
        whoami = ours.call_tool("whoami", {})["result"]
        assert (whoami["isError"], whoami["structuredContent"]) == (False, WHOAMI)
        assert ours.call_tool("context", {})["result"]["structuredContent"] == {"app": "spec.mcp_sdk.contrib.flask_app", "request": True}
        counted = ours.call_tool("count", {"to": 2}, progress_token="count-1")["result"]
    assert counted["content"] == texts("counted to 2")
    assert received == PROGRESS_AND_LOGS


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_official_python_client(served: Served, mode: str) -> None:
    import mcp_types as types
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client
    from mcp.shared.exceptions import MCPDeprecationWarning as OfficialDeprecationWarning

    received: list[tuple[t.Any, ...]] = []

    async def logged(params: types.LoggingMessageNotificationParams) -> None:
        received.append(("log", params.level, params.logger, params.data))

    async def progressed(progress: float, total: float | None, message: str | None) -> None:
        received.append(("progress", progress, total))

    async def main() -> dict[str, t.Any]:
        http = create_mcp_http_client(headers={"Cookie": served.cookie, "X-Agent": "spec-agent"})
        transport = streamable_http_client(served.url, http_client=http)
        async with http, OfficialClient(transport, mode=mode, logging_callback=logged, log_level="info", read_timeout_seconds=TIMEOUT) as official:
            if mode == "legacy":  # log_level= opts in on 2026-07-28 only; 2025 asks with logging/setLevel
                with warnings.catch_warnings():  # which the official client deprecates (SEP-2577)
                    warnings.simplefilter("ignore", OfficialDeprecationWarning)
                    await official.set_logging_level("info")
            listed = await official.list_tools()
            books = await official.call_tool("books", {"author": "Herbert"})
            setting = await official.call_tool("setting", {"key": "GREETING"})
            whoami = await official.call_tool("whoami", {})
            counted = await official.call_tool("count", {"to": 2}, progress_callback=progressed)
            return {
                "version": official.protocol_version,
                "tools": [tool.name for tool in listed.tools],
                "books": [block.text for block in books.content],  # type: ignore[union-attr]
                "setting": [block.text for block in setting.content],  # type: ignore[union-attr]
                "whoami": whoami.structured_content,
                "count": [block.text for block in counted.content],  # type: ignore[union-attr]
            }

    assert anyio.run(main) == {
        "version": "2025-11-25" if mode == "legacy" else mode,
        "tools": ["books", "setting", "whoami", "context", "count"],
        "books": ["Dune"],
        "setting": ["Hello"],
        "whoami": WHOAMI,
        "count": ["counted to 2"],
    }
    assert received == PROGRESS_AND_LOGS


def test_the_flask_guides_app_runs_as_its_console_block_says() -> None:
    """examples/flask_library.py (the Flask guide's whole-app block, docs/topics/flask.md, word for
    word: flask_test.py checks) with the guide's commands: gunicorn as written, a sign-in at
    /login, MCP with that cookie, and ``flask mcp tools``."""
    from spec.docs.blocks import python_blocks

    guide = (ROOT / "docs" / "topics" / "flask.md").read_text(encoding="utf-8")
    gunicorn = ".venv/bin/gunicorn -k gthread --threads 32 -w 1 'examples.flask_library:app'"
    tools = "FLASK_APP=examples.flask_library .venv/bin/flask mcp tools"
    assert f"\n{gunicorn}\n" in guide and f"\n{tools} " in guide
    assert [fragment for _, fragment, _ in python_blocks("docs/topics/flask.md")].count("flask-extension") == 1
    command = [sys.executable, "-m", "gunicorn", "-k", "gthread", "--threads", "32", "-w", "1", "--graceful-timeout", "1"]
    with ServerProcess([*command, "-b", "127.0.0.1:{port}", "examples.flask_library:app"]) as process:
        with requests.Session() as browser:
            assert browser.post(process.base + "/mcp", json={}, timeout=TIMEOUT).status_code == 401
            signed_in = browser.post(process.base + "/login", data={"username": "ada", "password": "lovelace"}, timeout=TIMEOUT)
            assert (signed_in.status_code, signed_in.text) == (200, "signed in")
            cookie = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
        with Client(transport=HTTP(url=process.url, headers={"Cookie": cookie}, timeout=TIMEOUT)) as ours:
            ours.connect()
            books = ours.call_tool("my_books")["result"]["content"]
    assert books == texts("Notes", "Sketch of the Analytical Engine")
    environment = {**os.environ, "FLASK_APP": "examples.flask_library"}
    listed = subprocess.run([sys.executable, "-m", "flask", "mcp", "tools"], cwd=ROOT, env=environment, capture_output=True, text=True, timeout=TIMEOUT)
    assert (listed.returncode, listed.stdout) == (0, "my_books\tThe titles of the signed-in user's books.\n"), listed.stderr
