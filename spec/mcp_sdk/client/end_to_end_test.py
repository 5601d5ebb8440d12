"""The client against this project's own server, over both real transports:
stdio (a subprocess running StdioTransport) and Streamable HTTP (StreamableHTTPTransport
behind werkzeug's threaded server on 127.0.0.1)."""

from __future__ import annotations

import contextlib
import json
import threading
import time
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import HTTP, Stdio
from spec.support import wire_schema
from spec.support.client_servers import TIMEOUT, Recorder, fixture_http, fixture_stdio


class Connection(t.NamedTuple):
    client: Client
    recorder: Recorder | None  # what the HTTP server received (None over stdio)


@contextlib.contextmanager
def connected(kind: str, mode: str) -> t.Iterator[Connection]:
    """Our client, with sampling, elicitation and roots handlers, connected over ``kind`` in ``mode``."""
    with contextlib.ExitStack() as stack:
        recorder = None
        if kind == "stdio":
            transport: t.Any = fixture_stdio()
        else:
            url, recorder = stack.enter_context(fixture_http())
            transport = HTTP(url=url, timeout=TIMEOUT)
        client = Client(transport=transport)
        stack.callback(client.close)
        client.on_sampling(lambda p: {"role": "assistant", "content": {"type": "text", "text": "42"}, "model": "m"})
        client.on_elicitation(lambda p: {"action": "accept", "content": {"nickname": "jd"}})
        client.on_roots(lambda p: [{"uri": "file:///a", "name": "a"}])
        client.connect(client_info={"name": "e2e", "version": "1.0"}, mode=mode)
        yield Connection(client, recorder)


@pytest.fixture(params=["stdio", "http"])
def connection(request: pytest.FixtureRequest) -> t.Iterator[Connection]:
    # These specs pin the 2025 session semantics (ping, initialize); the 2026-07-28 path
    # of the same server is in test_modern_round_trips below.
    with connected(request.param, "legacy") as established:
        yield established


def text(client: Client, name: str, **arguments: t.Any) -> str:
    return str(client.call_tool(name=name, arguments=arguments)["result"]["content"][0]["text"])


def test_handshake(connection: Connection) -> None:
    client, recorder = connection
    assert client.server_info == {"name": "client_fixture", "title": "Client Fixture", "version": "1.0.0"}
    assert client.instructions == "Use the echo tool."
    assert client.server_capabilities is not None and "completions" in client.server_capabilities
    if recorder is not None:
        (initialize,) = recorder.bodies("initialize")
        wire_schema.assert_valid("InitializeRequest", initialize)
        assert initialize["params"]["capabilities"] == {
            "sampling": {}, "elicitation": {"form": {}}, "roots": {"listChanged": True},
        }
        assert recorder.bodies("server/discover") == []  # mode="legacy": no probe
        later = [r for r in recorder.received if r.body is None or r.body.get("method") not in ("initialize", "server/discover")]
        assert later and all(r.headers["mcp-protocol-version"] == "2025-11-25" for r in later)
        assert all(r.headers.get("mcp-session-id") for r in later)


def test_pagination(connection: Connection) -> None:
    client, _ = connection
    first = client.list_tools()
    assert [tool.name for tool in first.tools] == ["echo", "sample"] and first.next_cursor is not None
    second = client.list_tools(cursor=first.next_cursor)
    assert [tool.name for tool in second.tools] == ["elicit", "roots"]
    assert len(client.tools()) == 12
    assert [r["uri"] for r in client.resources()] == ["fixture://a", "fixture://b", "fixture://c"]
    assert client.resource_templates() == [{"uriTemplate": "fixture://items/{id}", "name": "item"}]
    assert [p["name"] for p in client.prompts()] == ["greet"]


def test_reading(connection: Connection) -> None:
    client, _ = connection
    assert client.read_resource("fixture://b") == [{"uri": "fixture://b", "mimeType": "text/plain", "text": "content of fixture://b"}]
    assert client.get_prompt("greet", {"name": "Ann"})["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Hello Ann"}}
    ]
    assert client.complete({"type": "ref/prompt", "name": "greet"}, {"name": "name", "value": "A"})["values"] == ["A1", "A2"]


def test_server_to_client_requests(connection: Connection) -> None:
    client, _ = connection
    assert text(client, "sample", prompt="6*7") == "model said: 42"
    assert json.loads(text(client, "elicit")) == {
        "action": "accept",
        "content": {"name": "John Doe", "age": 30, "score": 95.5, "status": "active", "verified": True, "nickname": "jd"},
    }
    assert text(client, "roots") == "file:///a"
    assert text(client, "ping_client") == "{}"


def test_progress_and_logs(connection: Connection) -> None:
    client, _ = connection
    progress: list[t.Any] = []
    logs: list[t.Any] = []
    client.on_progress(progress.append)
    client.on_log_message(logs.append)
    client.set_logging_level("info")
    client.call_tool(name="progress", arguments={"steps": 3}, progress_token=99)
    client.call_tool(name="log")
    assert [(p["progressToken"], p["progress"], p["total"]) for p in progress] == [(99, 1, 3), (99, 2, 3), (99, 3, 3)]
    assert logs == [{"level": "info", "data": {"said": "hello"}, "logger": "fixture"}]


def test_meta_reaches_the_tool(connection: Connection) -> None:
    client, _ = connection
    meta = {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01", "tracestate": "v=1"}
    assert text(client, "echo", message="m") == "echo: m"
    reply = client.call_tool(name="echo", arguments={"message": "m"}, meta=meta)["result"]["content"][0]["text"]
    assert reply == f"echo: m meta={json.dumps(meta, sort_keys=True)}"


def test_errors(connection: Connection) -> None:
    client, _ = connection
    with pytest.raises(Client.ServerError) as raised:
        client.call_tool(name="missing")
    assert raised.value.code == -32602
    assert client.call_tool(name="fail")["result"]["isError"] is True
    with pytest.raises(Client.ServerError) as unknown:
        client.request("no/such/method")
    assert unknown.value.code == -32601


def test_structured_content_validation(connection: Connection) -> None:
    client, _ = connection
    client.validate_structured_content = True
    client.tools()
    assert client.call_tool(name="structured", arguments={"valid": True})["result"]["structuredContent"] == {"count": 3}
    with pytest.raises(Client.ValidationError, match="count must be integer"):
        client.call_tool(name="structured", arguments={"valid": False})


def test_cancellation(connection: Connection) -> None:
    client, recorder = connection
    cancellation = mcp_sdk.Cancellation()
    threading.Timer(0.2, cancellation.cancel, kwargs={"reason": "stop"}).start()
    started = time.monotonic()
    with pytest.raises(mcp_sdk.CancelledError):
        client.call_tool(name="slow", arguments={"seconds": TIMEOUT}, cancellation=cancellation)
    assert time.monotonic() - started < TIMEOUT
    if recorder is not None:
        deadline = time.monotonic() + TIMEOUT
        while not recorder.bodies("notifications/cancelled") and time.monotonic() < deadline:
            time.sleep(0.01)
        (cancelled,) = recorder.bodies("notifications/cancelled")
        assert cancelled["params"]["reason"] == "stop"
        wire_schema.assert_valid("CancelledNotification", cancelled)
    else:
        transport = t.cast(Stdio, client.transport)
        deadline = time.monotonic() + TIMEOUT
        while "cancelled: stop" not in transport.stderr_lines and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "cancelled: stop" in transport.stderr_lines
    assert client.ping() == {}


def test_threads_share_a_client(connection: Connection) -> None:
    client, _ = connection
    failures: list[BaseException] = []

    def work(number: int) -> None:
        try:
            for i in range(10):
                name = "sample" if i == 5 else "echo"
                expected = "model said: 42" if i == 5 else f"echo: {number}.{i}"
                assert text(client, name, message=f"{number}.{i}") == expected
        except BaseException as error:  # reported below
            failures.append(error)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(TIMEOUT * 3)
    assert not failures


@pytest.mark.parametrize("kind", ["stdio", "http"])
def test_modern_round_trips(kind: str) -> None:
    """mode="auto" against this dual-era server speaks 2026-07-28: sampling, elicitation and roots
    travel as MRTR input requests answered by the same handlers, with no initialize."""
    with connected(kind, "auto") as (client, recorder):
        assert (client.protocol_version, client.server_info) == (
            "2026-07-28",
            {"name": "client_fixture", "title": "Client Fixture", "version": "1.0.0"},
        )
        assert text(client, "sample", prompt="6*7") == "model said: 42"
        assert json.loads(text(client, "elicit"))["content"]["nickname"] == "jd"
        assert text(client, "roots") == "file:///a"
        if recorder is not None:
            assert recorder.bodies("initialize") == []
            calls = recorder.bodies("tools/call")
            assert calls and all("requestState" in body["params"] for body in calls[1::2])
            for body in calls:
                if body["params"]["name"] != "elicit":  # its answer carries the fixture's 95.5, a number 2026 ElicitResult lacks
                    wire_schema.assert_valid("CallToolRequest", body, "2026-07-28")
