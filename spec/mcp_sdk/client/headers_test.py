"""MCP 2026-07-28 request headers (SEP-2243): encoding, x-mcp-header rules, and the HTTP wire."""

from __future__ import annotations

import threading
import typing as t

import pytest

from mcp_sdk import Client
from mcp_sdk.cancellation import Cancellation
from mcp_sdk.errors import CancelledError
from mcp_sdk.client import HTTP
from mcp_sdk.client.headers import annotated_paths, encode_value, param_headers, standard_headers
from spec.support.client_http_server import Reply, Request, ScriptedServer, json_reply, response_to, sse_event, sse_reply

V = "2026-07-28"


@pytest.mark.parametrize("value,encoded", [
    ("us-west1", "us-west1"),
    ("Hello, 世界", "=?base64?SGVsbG8sIOS4lueVjA==?="),
    (" padded ", "=?base64?IHBhZGRlZCA=?="),
    ("line1\nline2", "=?base64?bGluZTEKbGluZTI=?="),
    ("=?base64?literal?=", "=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?="),
    ("us west 1", "us west 1"),
    ("", "=?base64??="),
])
def test_values_follow_the_specification_table(value: str, encoded: str) -> None:
    assert encode_value(value) == encoded


@pytest.mark.parametrize("schema,problem", [
    ({"properties": {"v": {"type": "string", "x-mcp-header": ""}}}, "not a valid header name"),
    ({"properties": {"v": {"type": "string", "x-mcp-header": "Bad Name"}}}, "not a valid header name"),
    ({"properties": {"v": {"type": "object", "x-mcp-header": "V"}}}, "type string, integer or boolean"),
    ({"properties": {"v": {"type": "number", "x-mcp-header": "V"}}}, "type string, integer or boolean"),
    ({"properties": {"a": {"type": "string", "x-mcp-header": "Same"},
                     "b": {"type": "string", "x-mcp-header": "same"}}}, "used twice"),
    ({"properties": {"l": {"type": "array", "items": {"type": "string", "x-mcp-header": "L"}}}}, "not reachable"),
    ({"$defs": {"d": {"type": "string", "x-mcp-header": "D"}}}, "not reachable"),
    ({"anyOf": [{"properties": {"v": {"type": "string", "x-mcp-header": "V"}}}]}, "not reachable"),
])
def test_invalid_annotations_are_refused(schema: dict[str, t.Any], problem: str) -> None:
    with pytest.raises(ValueError, match=problem):
        annotated_paths({"type": "object", **schema})


def test_annotated_values_become_headers_and_null_or_absent_ones_do_not() -> None:
    schema = {"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "n": {"type": "integer", "x-mcp-header": "N"},
        "on": {"type": "boolean", "x-mcp-header": "On"},
        "nested": {"type": "object", "properties": {"deep": {"type": "string", "x-mcp-header": "Deep"}}},
        "gone": {"type": "string", "x-mcp-header": "Gone"},
        "query": {"type": "string"},
    }}
    paths = annotated_paths(schema)
    assert paths["Deep"] == ("nested", "deep")
    arguments = {"region": "eu", "n": -7, "on": False, "nested": {"deep": "é"}, "gone": None, "query": "q"}
    assert param_headers(paths, arguments) == {
        "Mcp-Param-Region": "eu", "Mcp-Param-N": "-7", "Mcp-Param-On": "false", "Mcp-Param-Deep": "=?base64?w6k=?=",
    }
    assert standard_headers("resources/read", {"uri": "file:///a b"}, V) == {
        "MCP-Protocol-Version": V, "Mcp-Method": "resources/read", "Mcp-Name": "file:///a b",
    }


TOOLS = [
    {"name": "sql", "inputSchema": {"type": "object", "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"}, "query": {"type": "string"}}}},
    {"name": "broken", "inputSchema": {"type": "object", "properties": {
        "score": {"type": "number", "x-mcp-header": "Score"}}}},
]


def modern_handler(request: Request) -> Reply:
    method = request.body["method"]
    if method == "server/discover":
        return json_reply(response_to(request, {"supportedVersions": [V], "capabilities": {}}))
    if method == "tools/list":
        return json_reply(response_to(request, {"tools": TOOLS}))
    if method == "tools/call" and request.body["params"]["name"] == "slow":
        # A stream that never answers: only the client closing it ends the wait.
        return sse_reply(iter(lambda: (threading.Event().wait(0.05), b": keep-alive\n\n")[1], None))
    return json_reply(response_to(request, {"content": []}))


def test_the_http_wire_of_a_modern_call(caplog: pytest.LogCaptureFixture) -> None:
    with ScriptedServer(modern_handler) as server, Client(transport=HTTP(url=server.url, timeout=10.0)) as client:
        client.connect(mode="modern")
        assert [tool.name for tool in client.tools()] == ["sql"]
        assert "tool 'broken' left out" in caplog.text
        client.call_tool(name="sql", arguments={"region": "us-west1", "query": "SELECT 1"})
        client.close()
        call = server.requests[-1]
        assert call.method == "POST" and call.body["method"] == "tools/call"
        assert {k: v for k, v in call.headers.items() if k.startswith("mcp")} == {
            "mcp-protocol-version": V, "mcp-method": "tools/call", "mcp-name": "sql", "mcp-param-region": "us-west1",
        }
        assert call.body["params"]["_meta"]["io.modelcontextprotocol/protocolVersion"] == V
        # No session, no standalone GET stream, no DELETE.
        assert [r.method for r in server.requests] == ["POST", "POST", "POST"]


def test_a_cancelled_modern_http_call_closes_its_stream_and_sends_no_notification() -> None:
    with ScriptedServer(modern_handler) as server, Client(transport=HTTP(url=server.url, timeout=10.0)) as client:
        client.connect(mode="modern")
        cancellation = Cancellation()
        threading.Timer(0.3, cancellation.cancel).start()
        with pytest.raises(CancelledError):
            client.call_tool(name="slow", cancellation=cancellation)
        client.close()
        assert [r.body["method"] for r in server.requests] == ["server/discover", "tools/call"]
