"""mcp_sdk.contrib.flask in a real Flask app (Flask-SQLAlchemy on SQLite, Flask-Login) served over
real HTTP on 127.0.0.1, driven by our Client in both eras and by the official Python SDK; the
``flask mcp`` commands as subprocesses (issue 18)."""

from __future__ import annotations

import subprocess
import sys
import threading
import typing as t
from pathlib import Path

import anyio
import pytest
import requests
from flask import Flask, current_app
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from mcp_sdk import Client, Configuration, Server
from mcp_sdk.client import HTTP, Stdio
from mcp_sdk.contrib.flask import MCP
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.mcp_sdk.contrib import flask_app
from spec.mcp_sdk.contrib.flask_app import create_app, mcp
from spec.support.client_servers import wsgi_server

ROOT = Path(__file__).resolve().parents[3]
APP = "spec.mcp_sdk.contrib.flask_app:create_app()"
TIMEOUT = 30.0


class Served(t.NamedTuple):
    app: Flask
    url: str
    cookie: str  # ada's Flask session, signed in through the app's /login route


@pytest.fixture
def served() -> t.Iterator[Served]:
    app = create_app()
    try:
        with wsgi_server(app) as url:
            with requests.Session() as browser:
                signed_in = browser.post(url.removesuffix("/mcp") + "/login", data={"username": "ada"}, timeout=TIMEOUT)
                assert (signed_in.status_code, signed_in.text) == (200, "signed in")
                cookie = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
            yield Served(app, url, cookie)
    finally:
        mcp.close(app)


def client(served: Served, **headers: str) -> Client:
    return Client(transport=HTTP(url=served.url, headers={"Cookie": served.cookie, **headers}, timeout=TIMEOUT))


def texts(*values: str) -> list[dict[str, str]]:
    return [{"type": "text", "text": value} for value in values]


WHOAMI = {
    "user": "ada",
    "agent": "spec-agent",
    "remote": "127.0.0.1",
    "path": "/mcp",
    "endpoint": "mcp_sdk.endpoint",
    "view_g": None,  # the view's g stays the view's: the handler has its own
    "g_calls": 1,  # fresh for each call
    "carrier": "flask.wrappers.Request",
    "carrier_agent": "spec-agent",
}


def test_before_request_hooks_guard_the_endpoint(served: Served) -> None:
    ping = {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    with requests.post(served.url, json=ping, headers={"Accept": "application/json, text/event-stream"}, timeout=TIMEOUT) as refused:
        assert (refused.status_code, refused.headers["Content-Type"], refused.content) == (
            401,
            "application/json",
            b'{"error":"sign in first"}\n',
        )
    with requests.get(served.url.removesuffix("/mcp") + "/elsewhere", timeout=TIMEOUT) as other:
        assert other.status_code == 404  # the app's own 404: the hook guards /mcp only


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_our_client_calls_tools_that_use_the_orm_the_config_the_user_and_the_request(served: Served, mode: str) -> None:
    received: list[dict[str, t.Any]] = []
    with client(served, **{"X-Agent": "spec-agent"}) as ours:
        ours.on_progress(received.append)
        ours.on_log_message(received.append)
        ours.connect(mode=mode)
        ours.log_level = "info"
        assert ours.call_tool("books", {"author": "Austen"})["result"]["content"] == texts("Emma", "Persuasion")
        assert ours.call_tool("setting", {"key": "GREETING"})["result"]["content"] == texts("Hello")
        whoami = ours.call_tool("whoami", {})["result"]
        assert (whoami["isError"], whoami["structuredContent"]) == (False, WHOAMI)
        assert ours.call_tool("whoami", {})["result"]["structuredContent"]["g_calls"] == 1
        context = ours.call_tool("context", {})["result"]["structuredContent"]
        assert context == {"app": "spec.mcp_sdk.contrib.flask_app", "request": True}
        counted = ours.call_tool("count", {"to": 2}, progress_token="count-1")["result"]
    assert counted["content"] == texts("counted to 2")
    assert received == [
        {"progressToken": "count-1", "progress": 1, "total": 2},
        {"level": "info", "logger": "library", "data": "step 1 for ada"},
        {"progressToken": "count-1", "progress": 2, "total": 2},
        {"level": "info", "logger": "library", "data": "step 2 for ada"},
    ]


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_an_sse_answer_streams_through_flask_unbuffered(served: Served, mode: str) -> None:
    served.app.config["WAIT_FOR_RELEASE"] = True
    flask_app.release.clear()
    progressed = threading.Event()
    answers: list[dict[str, t.Any]] = []
    with client(served) as ours:
        ours.on_progress(lambda params: progressed.set() if params["progress"] == 3 else None)
        ours.connect(mode=mode)
        caller = threading.Thread(target=lambda: answers.append(ours.call_tool("count", {"to": 3}, progress_token=7)))
        caller.start()
        try:
            # The tool waits for `release`: its progress can only have arrived through a stream
            # Flask passed on as it was written.
            assert progressed.wait(TIMEOUT)
            assert answers == []
        finally:
            flask_app.release.set()
            caller.join(TIMEOUT)
    assert answers[0]["result"]["content"] == texts("counted to 3")


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
def test_the_official_python_sdk_calls_the_same_tools(served: Served, mode: str) -> None:
    from mcp import Client as OfficialClient
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async def main() -> dict[str, t.Any]:
        http = create_mcp_http_client(headers={"Cookie": served.cookie, "X-Agent": "spec-agent"})
        async with http, OfficialClient(streamable_http_client(served.url, http_client=http), mode=mode) as official:
            listed = await official.list_tools()
            books = await official.call_tool("books", {"author": "Herbert"})
            whoami = await official.call_tool("whoami", {})
            return {
                "tools": [tool.name for tool in listed.tools],
                "books": [block.text for block in books.content],  # type: ignore[union-attr]
                "whoami": whoami.structured_content,
            }

    assert anyio.run(main) == {"tools": ["books", "setting", "whoami", "context", "count"], "books": ["Dune"], "whoami": WHOAMI}


def test_several_apps_each_have_their_own_transport_and_context() -> None:
    first, second = create_app(), create_app()
    second.config["GREETING"] = "Bonjour"
    try:
        assert mcp.transport(first) is not mcp.transport(second)
        greetings = []
        for app in (first, second):
            with wsgi_server(app) as url, requests.Session() as browser:
                browser.post(url.removesuffix("/mcp") + "/login", data={"username": "bob"}, timeout=TIMEOUT)
                cookie = "; ".join(f"{name}={value}" for name, value in browser.cookies.items())
                with Client(transport=HTTP(url=url, headers={"Cookie": cookie}, timeout=TIMEOUT)) as ours:
                    ours.connect()
                    greetings.append(ours.call_tool("setting", {"key": "GREETING"})["result"]["content"])
        assert greetings == [texts("Hello"), texts("Bonjour")]
    finally:
        mcp.close(first)
        mcp.close(second)


def test_an_app_takes_one_extension_and_a_closed_transport_answers_503() -> None:
    app = create_app()
    with pytest.raises(RuntimeError, match=r"already has an MCP extension \(app.extensions\['mcp_sdk'\]\)"):
        MCP(app, server=Server(name="second"))
    with pytest.raises(RuntimeError, match="was not set up with this MCP extension"):
        MCP(server=Server(name="other")).transport(app)
    mcp.close(app)
    with app.test_client() as browser:
        browser.post("/login", data={"username": "ada"})
        closed = browser.post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"})
    assert closed.status_code == 503


def greeting_server(reported: list[BaseException]) -> Server:
    server = Server(name="greeter", configuration=Configuration(exception_reporter=lambda error, context: reported.append(error)))

    @server.tool
    def greeting() -> str:
        """The app's greeting."""
        return str(current_app.config["GREETING"])

    return server


OUTSIDE_THE_APP = (
    "The tool used Flask's application context (current_app, flask.request, db.session, current_user ...), which "
    "tools of this server do not run in: a StreamableHTTPTransport mounted beside the app (DispatcherMiddleware) "
    "runs them on its own threads. Serve the server from the app with mcp_sdk.contrib.flask: MCP(app, server=server)"
)


def test_dispatcher_middleware_leaves_tools_outside_the_app_and_the_error_names_mcp_as_the_fix() -> None:
    app = Flask(__name__)
    app.config["GREETING"] = "Hi"
    reported: list[BaseException] = []
    server = greeting_server(reported)
    transport = StreamableHTTPTransport(server)
    app.wsgi_app = DispatcherMiddleware(app.wsgi_app, {"/mcp": transport})  # type: ignore[method-assign]
    try:
        with wsgi_server(app) as url, Client(transport=HTTP(url=url, timeout=TIMEOUT)) as ours:
            ours.connect()
            outside = ours.call_tool("greeting", {})["result"]
    finally:
        transport.close()
    assert (outside["isError"], outside["content"]) == (True, texts(OUTSIDE_THE_APP))
    assert [(type(error).__name__, str(error), str(error.__cause__).splitlines()[0]) for error in reported] == [
        ("OutsideHostContextError", OUTSIDE_THE_APP, "Working outside of application context.")
    ]

    fixed = Flask(__name__)
    fixed.config["GREETING"] = "Hi"
    extension = MCP(fixed, server=greeting_server(reported))
    try:
        with wsgi_server(fixed) as url, Client(transport=HTTP(url=url, timeout=TIMEOUT)) as ours:
            ours.connect()
            assert ours.call_tool("greeting", {})["result"]["content"] == texts("Hi")
    finally:
        extension.close(fixed)
    assert len(reported) == 1


def flask_command(*args: str) -> list[str]:
    return [sys.executable, "-m", "flask", "--app", APP, "mcp", *args]


def test_flask_mcp_tools_lists_names_and_descriptions() -> None:
    listed = subprocess.run(flask_command("tools"), cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT)
    assert (listed.returncode, listed.stdout, listed.stderr) == (
        0,
        "books\tTitles by an author, from the database.\n"
        "setting\tA value of the app's config.\n"
        "whoami\tWho is asking, as the Flask app sees it.\n"
        "context\tThe Flask contexts the tool runs in.\n"
        "count\tCounts, reporting progress and logging each step.\n",
        "",
    )


@pytest.mark.parametrize("mode", ["legacy", "modern"])
def test_flask_mcp_stdio_serves_the_server_with_the_app_loaded(mode: str) -> None:
    command, *args = flask_command("stdio")
    stdio = Stdio(command=command, args=args, cwd=ROOT, read_timeout=TIMEOUT, close_timeout=2)
    with Client(transport=stdio) as ours:
        ours.connect(mode=mode)
        assert ours.server_info is not None and ours.server_info["name"] == "library"
        assert ours.call_tool("books", {"author": "Austen"})["result"]["content"] == texts("Emma", "Persuasion")
        assert ours.call_tool("setting", {"key": "GREETING"})["result"]["content"] == texts("Hello")
        # An app context, and no request context: stdio carries no request.
        context = ours.call_tool("context", {})["result"]["structuredContent"]
    assert context == {"app": "spec.mcp_sdk.contrib.flask_app", "request": False}


def test_flask_mcp_stdio_as_a_desktop_host_runs_it_under_the_official_client() -> None:
    """As Claude Desktop's ``mcpServers`` entry runs it: ``python -m flask mcp stdio`` with the
    app in ``FLASK_APP`` and the project as working directory, an environment of the host's own
    plus the entry's ``env`` (the official client passes on only HOME, PATH and the like); the
    era the official client picks."""
    from mcp import Client as OfficialClient
    from mcp.client.stdio import StdioServerParameters

    entry = StdioServerParameters(command=sys.executable, args=["-m", "flask", "mcp", "stdio"], env={"FLASK_APP": APP}, cwd=ROOT)

    async def main() -> dict[str, t.Any]:
        async with OfficialClient(entry, read_timeout_seconds=TIMEOUT) as official:
            listed = await official.list_tools()
            books = await official.call_tool("books", {"author": "Austen"})
            greeting = await official.call_tool("setting", {"key": "GREETING"})
            context = await official.call_tool("context", {})
            return {
                "version": official.protocol_version,
                "tools": [tool.name for tool in listed.tools],
                "books": (books.is_error, [block.text for block in books.content], books.structured_content),  # type: ignore[union-attr]
                "setting": (greeting.is_error, [block.text for block in greeting.content]),  # type: ignore[union-attr]
                "context": context.structured_content,
            }

    assert anyio.run(main) == {
        "version": "2026-07-28",
        "tools": ["books", "setting", "whoami", "context", "count"],
        "books": (False, ["Emma", "Persuasion"], None),
        "setting": (False, ["Hello"]),
        "context": {"app": "spec.mcp_sdk.contrib.flask_app", "request": False},
    }


def test_the_flask_guides_app_is_examples_flask_library_py() -> None:
    from spec.docs.blocks import python_blocks

    [code] = [code for _, fragment, code in python_blocks("docs/topics/flask.md") if fragment == "flask-extension"]
    assert code == (ROOT / "examples" / "flask_library.py").read_text(encoding="utf-8")  # spec/docs runs it
