"""The per-request view pattern (README "Per request, in a view"): a real Flask app whose view
builds ``StreamableHTTPTransport(server, stateless=True)`` for every request, on 127.0.0.1,
driven by our :class:`mcp_sdk.Client` and by the official Python client (``mcp``), both in
2025 (legacy) mode: what logging, server-to-client requests and cancellation do there."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import threading
import typing as t
import warnings
from pathlib import Path

import anyio
import flask
import mcp_types as types
import pytest
import requests
from mcp import Client as OfficialClient
from mcp.shared.exceptions import MCPDeprecationWarning as OfficialDeprecationWarning
from mcp.shared.exceptions import MCPError as OfficialError

from mcp_sdk import Cancellation, CancelledError, Client, Configuration, Server
from mcp_sdk.client.http import HTTP
from mcp_sdk.server.handlers import STATELESS_SET_LEVEL_TEXT
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http.sessions.request_channel import STATELESS_REFUSAL
from spec.support.client_interop import CACHE, NODE
from spec.support.http_server import LiveServer

TIMEOUT = 30.0
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
#: What ``initialize`` advertises from a stateless view: tools, and no ``logging``.
CAPABILITIES = {"tools": {"listChanged": True}}
ASKS = {
    "ask_llm": f"Cannot send sampling/createMessage: {STATELESS_REFUSAL}",
    "show_roots": f"Cannot send roots/list: {STATELESS_REFUSAL}",
    "ask_user": f"Cannot send elicitation/create: {STATELESS_REFUSAL}",
}


@dataclasses.dataclass
class View:
    server: Server
    live: LiveServer
    reported: list[str]
    outcomes: list[str]
    started: threading.Event
    finished: threading.Event

    @property
    def url(self) -> str:
        return self.live.url


def build_server(reported: list[str], outcomes: list[str], started: threading.Event, finished: threading.Event) -> Server:
    server = Server(
        name="view_server", version="1.0.0",
        configuration=Configuration(exception_reporter=lambda error, context: reported.append(str(error))),
    )

    @server.tool
    def noisy(server_context: t.Any = None) -> str:
        """Log at three levels."""
        for level in ("debug", "info", "warning"):
            server_context.notify_log_message(f"at {level}", level)
        return "done"

    @server.tool
    def ask_llm(server_context: t.Any = None) -> str:
        """Sample the client's LLM."""
        result = server_context.create_sampling_message([{"role": "user", "content": {"type": "text", "text": "hi"}}], 5)
        return str(result["content"]["text"])

    @server.tool
    def show_roots(server_context: t.Any = None) -> str:
        """List the client's roots."""
        return str(server_context.list_roots())

    @server.tool
    def ask_user(server_context: t.Any = None) -> str:
        """Elicit a name."""
        schema = {"type": "object", "properties": {"name": {"type": "string"}}}
        return str(server_context.create_form_elicitation("Name?", schema)["content"])

    @server.tool
    def slow(server_context: t.Any = None) -> str:
        """Work until cancelled (at most TIMEOUT seconds)."""
        started.set()
        cancelled = server_context.cancellation.wait(TIMEOUT)
        outcomes.append(f"cancelled: {server_context.cancellation.reason}" if cancelled else "finished")
        finished.set()
        return "finished"

    return server


@pytest.fixture
def view() -> t.Iterator[View]:
    reported: list[str] = []
    outcomes: list[str] = []
    started, finished = threading.Event(), threading.Event()
    server = build_server(reported, outcomes, started, finished)
    app = flask.Flask(__name__)

    @app.route("/mcp", methods=["GET", "POST", "DELETE"])
    def mcp() -> flask.Response:  # as README "Per request, in a view" shows it
        transport = StreamableHTTPTransport(server, stateless=True)
        response = transport.handle_request(flask.request)
        response.call_on_close(transport.close)
        return response  # type: ignore[return-value]

    with LiveServer(app) as live:
        yield View(server, live, reported, outcomes, started, finished)


def connected(view: View) -> Client:
    client = Client(HTTP(view.url, timeout=TIMEOUT))
    client.on_sampling(lambda params: {"role": "assistant", "content": {"type": "text", "text": "hi"}, "model": "m"})
    client.on_roots(lambda params: [{"uri": "file:///work"}])
    client.on_elicitation(lambda params: {"action": "accept", "content": {"name": "Alice"}})
    client.connect(mode="legacy")
    return client


HEADERS = {"Accept": "application/json, text/event-stream", "MCP-Protocol-Version": "2025-11-25"}


def post(view: View, message: dict[str, t.Any]) -> requests.Response:
    return requests.post(view.url, json=message, headers=HEADERS, timeout=TIMEOUT)


# -- logging ---------------------------------------------------------------------


def test_initialize_does_not_advertise_logging_and_set_level_says_why(view: View) -> None:
    client = connected(view)
    try:
        assert client.server_capabilities == CAPABILITIES
        with pytest.raises(Client.ServerError) as refused:
            client.set_logging_level("info")
        assert (refused.value.code, refused.value.message) == (-32601, STATELESS_SET_LEVEL_TEXT)
    finally:
        client.close()
    response = post(view, {"jsonrpc": "2.0", "id": 7, "method": "logging/setLevel", "params": {"level": "info"}})
    assert (response.status_code, response.json()) == (
        200,
        {"jsonrpc": "2.0", "id": 7, "error": {"code": -32601, "message": STATELESS_SET_LEVEL_TEXT}},
    )


def test_a_level_in_the_requests_meta_brings_its_logs(view: View) -> None:
    client = connected(view)
    logs: list[t.Any] = []
    client.on_log_message(logs.append)
    try:
        assert client.call_tool("noisy")["result"]["content"] == [{"type": "text", "text": "done"}]
        assert logs == []  # no level: none (a setLevel in another POST could never reach this one)
        assert client.call_tool("noisy", meta={LOG_LEVEL_KEY: "info"})["result"]["content"] == [{"type": "text", "text": "done"}]
    finally:
        client.close()
    assert logs == [{"level": "info", "data": "at info"}, {"level": "warning", "data": "at warning"}]


@pytest.mark.parametrize("when", ["before connect", "after connect"])
def test_our_clients_log_level_travels_in_each_request_to_a_server_without_logging(view: View, when: str) -> None:
    """The server advertises no ``logging``, so the client never sends ``logging/setLevel``
    (which would be refused) and carries :attr:`Client.log_level` in every request's ``_meta``."""
    client = Client(HTTP(view.url, timeout=TIMEOUT))
    logs: list[t.Any] = []
    client.on_log_message(logs.append)
    try:
        if when == "before connect":
            client.log_level = "info"
        client.connect(mode="legacy")
        if when == "after connect":
            client.log_level = "info"
        assert client.call_tool("noisy")["result"]["content"] == [{"type": "text", "text": "done"}]
        client.log_level = "warning"
        assert client.call_tool("noisy")["result"]["content"] == [{"type": "text", "text": "done"}]
    finally:
        client.close()
    assert logs == [
        {"level": "info", "data": "at info"},
        {"level": "warning", "data": "at warning"},
        {"level": "warning", "data": "at warning"},
    ]


def test_the_wire_of_a_logged_call(view: View) -> None:
    message = {"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "noisy", "_meta": {LOG_LEVEL_KEY: "warning"}}}
    response = post(view, message)
    assert (response.status_code, response.headers["Content-Type"]) == (200, "text/event-stream")
    assert response.text == (
        'data: {"jsonrpc":"2.0","method":"notifications/message","params":{"level":"warning","data":"at warning"}}\n\n'
        'data: {"jsonrpc":"2.0","id":3,"result":{"content":[{"type":"text","text":"done"}],"isError":false}}\n\n'
    )


# -- server-to-client requests ----------------------------------------------------


def test_server_to_client_requests_are_refused_naming_the_transport(view: View) -> None:
    client = connected(view)
    try:
        answers = {name: client.call_tool(name)["result"] for name in ASKS}
    finally:
        client.close()
    assert answers == {name: {"content": [{"type": "text", "text": text}], "isError": True} for name, text in ASKS.items()}
    assert view.reported == list(ASKS.values())  # the server's owner hears of it too


# -- the official Python client ----------------------------------------------------


def test_the_official_client(view: View) -> None:
    logs: list[t.Any] = []

    async def logging(params: types.LoggingMessageNotificationParams) -> None:
        logs.append((params.level, params.data))

    async def sampling(context: t.Any, params: types.CreateMessageRequestParams) -> types.CreateMessageResult:
        return types.CreateMessageResult(role="assistant", content=types.TextContent(type="text", text="hi"), model="m")

    async def main() -> dict[str, t.Any]:
        async with OfficialClient(
            view.url, mode="legacy", logging_callback=logging, sampling_callback=sampling, read_timeout_seconds=TIMEOUT
        ) as client:
            seen: dict[str, t.Any] = {"capabilities": client.server_capabilities.model_dump(by_alias=True, exclude_none=True)}
            try:
                with warnings.catch_warnings():  # the official client deprecates logging/setLevel (SEP-2577)
                    warnings.simplefilter("ignore", OfficialDeprecationWarning)
                    await client.set_logging_level("info")
            except OfficialError as error:
                seen["set_level"] = (error.error.code, error.error.message)
            await client.call_tool("noisy", {})
            seen["logs_without_level"] = list(logs)
            await client.call_tool("noisy", {}, meta={LOG_LEVEL_KEY: "info"})  # type: ignore[typeddict-unknown-key]
            refused = await client.call_tool("ask_llm", {})
            seen["sampling"] = (refused.is_error, refused.content[0].text)  # type: ignore[union-attr]
            return seen

    seen = anyio.run(main)
    assert seen == {
        "capabilities": CAPABILITIES,
        "set_level": (-32601, STATELESS_SET_LEVEL_TEXT),
        "logs_without_level": [],
        "sampling": (True, ASKS["ask_llm"]),
    }
    assert logs == [("info", "at info"), ("warning", "at warning")]


# -- the TypeScript client ---------------------------------------------------------

TS_CLIENT = Path(__file__).resolve().parents[3] / "support" / "ts_view_client.cjs"
#: The refusals as text, word for word (the constants above are the same strings).
SET_LEVEL_REFUSED = (
    "Method not available: logging/setLevel: this transport is stateless (StreamableHTTPTransport(stateless=True)): "
    "a level set in one request cannot reach the next; send it in each request's params._meta "
    "'io.modelcontextprotocol/logLevel'"
)
REFUSED = (
    "this transport is stateless (StreamableHTTPTransport(stateless=True)): the client's answer would "
    "arrive in another request; use sessions or MCP 2026-07-28 input requests"
)


def test_the_typescript_client(view: View) -> None:
    """@modelcontextprotocol/sdk 1.32.2's Client, which declares sampling, roots and elicitation:
    setLevel refused saying why, logs at the level each request carries, each server-to-client
    request refused naming the transport, and cancellation: its ``notifications/cancelled``
    (the POST left open) changes nothing, closing the client ends the tool."""
    environment = {**os.environ, "NODE_PATH": str(CACHE / "node_modules")}
    process = subprocess.Popen(
        [str(NODE), str(TS_CLIENT), view.url], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True, env=environment
    )
    assert process.stdin is not None and process.stdout is not None

    def phase() -> dict[str, t.Any]:
        return t.cast("dict[str, t.Any]", json.loads(process.stdout.readline()))  # type: ignore[union-attr]

    try:
        called = phase()
        assert called == {
            "phase": "called",
            "seen": {
                "version": "view_server",
                "capabilities": CAPABILITIES,
                "setLevel": [-32601, f"MCP error -32601: {SET_LEVEL_REFUSED}"],
                "plain": [False, ["done"]],
                "logsWithoutLevel": [],
                "leveled": [False, ["done"]],
                "logsAtInfo": [{"level": "info", "data": "at info"}, {"level": "warning", "data": "at warning"}],
                "ask_llm": [True, [f"Cannot send sampling/createMessage: {REFUSED}"]],
                "show_roots": [True, [f"Cannot send roots/list: {REFUSED}"]],
                "ask_user": [True, [f"Cannot send elicitation/create: {REFUSED}"]],
            },
        }
        assert phase() == {"phase": "calling"}
        assert view.started.wait(TIMEOUT)
        process.stdin.write("abort\n")
        process.stdin.flush()
        assert phase() == {"phase": "aborted", "slow": "rejected: McpError: MCP error -32001: changed my mind"}
        assert not view.finished.wait(0.5) and view.outcomes == []  # notifications/cancelled names no client
        process.stdin.write("close\n")
        process.stdin.flush()
        assert phase() == {"phase": "closed"}
        assert process.wait(TIMEOUT) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait(TIMEOUT)
        process.stdin.close()
        process.stdout.close()
    assert view.finished.wait(5.0)
    assert view.outcomes == ["cancelled: The client disconnected"]  # closing the client closed the POST's stream
    assert (SET_LEVEL_REFUSED, REFUSED) == (STATELESS_SET_LEVEL_TEXT, STATELESS_REFUSAL)


# -- cancellation ----------------------------------------------------------------


def test_closing_the_connection_cancels_the_tool(view: View) -> None:
    message = {"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "slow"}}
    response = requests.post(view.url, json=message, headers=HEADERS, timeout=TIMEOUT, stream=True)
    assert (response.status_code, response.headers["Content-Type"]) == (200, "text/event-stream")
    assert view.started.wait(TIMEOUT)
    response.close()  # the client gives up: the only cancellation a stateless request can get
    assert view.finished.wait(5.0)
    assert view.outcomes == ["cancelled: The client disconnected"]


def test_our_client_cancelling_a_call_cancels_the_tool(view: View) -> None:
    client = connected(view)
    cancellation = Cancellation()
    try:
        threading.Timer(0.0, lambda: view.started.wait(TIMEOUT) and cancellation.cancel("changed my mind")).start()
        with pytest.raises(CancelledError):
            client.call_tool("slow", cancellation=cancellation)
        assert view.finished.wait(5.0)
    finally:
        client.close()
    assert view.outcomes == ["cancelled: The client disconnected"]



def test_notifications_cancelled_names_no_client_so_closing_is_the_way(view: View) -> None:
    """Request ids are unique per client only, and a stateless POST names no client: a
    ``notifications/cancelled`` could cancel another client's request with the same id, so it is
    acknowledged and changes nothing (the official client cancels this way, its POST left open)."""
    message = {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "slow"}}
    response = requests.post(view.url, json=message, headers=HEADERS, timeout=TIMEOUT, stream=True)
    assert view.started.wait(TIMEOUT)
    cancel = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "stop"}}
    acknowledged = post(view, cancel)
    assert (acknowledged.status_code, acknowledged.text) == (202, "")
    assert not view.finished.wait(0.5) and view.outcomes == []
    response.close()
    assert view.finished.wait(5.0)
    assert view.outcomes == ["cancelled: The client disconnected"]
