"""Server-to-client requests over Streamable HTTP: sent on the request's SSE stream, answered by POST."""

from __future__ import annotations

import json
import threading
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_client import Client, Event, read_events, request, text_result, tool_call
from spec.support.http_fixtures import Served
from spec.support.http_server import LiveServer
from spec.support.wire_schema import assert_valid

from .streamable_http_transport_test import error_body, summary, wire_headers

SAMPLING = {"sampling": {}}
SAMPLING_REQUEST = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "sampling/createMessage",
    "params": {"messages": [{"role": "user", "content": {"type": "text", "text": "Say hi"}}], "maxTokens": 10},
}
SAMPLING_RESULT = {"role": "assistant", "content": {"type": "text", "text": "hi!"}, "model": "spec-model"}


def answer(client: Client, message: dict[str, t.Any]) -> None:
    """POST the client's answer to a server-to-client request; it is accepted with 202."""
    with client.post(message) as response:
        assert (response.status_code, wire_headers(response), response.content) == (202, {"Content-Length": "0"}, b"")


def test_sampling_round_trip(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize(capabilities=SAMPLING)
    with client.post(tool_call("sample", id=7)) as response:
        events = read_events(response)
        assert next(events) == Event(id="1-0", data="", retry=1000)
        asked = next(events)
        assert summary([asked]) == [("1-1", SAMPLING_REQUEST, None)]
        assert_valid("CreateMessageRequest", asked.message)
        answer(client, {"jsonrpc": "2.0", "id": asked.message["id"], "result": SAMPLING_RESULT})
        assert summary(events) == [("1-2", text_result("sampled: hi!", id=7), None)]


def test_elicitation_round_trip(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize(capabilities={"elicitation": {}})
    with client.post(tool_call("elicit", id=2)) as response:
        events = read_events(response)
        next(events)  # priming
        asked = next(events).message
        assert asked == {
            "jsonrpc": "2.0",
            "id": 1,
            "method": "elicitation/create",
            "params": {
                "mode": "form",
                "message": "Your name?",
                "requestedSchema": {"type": "object", "properties": {"name": {"type": "string"}}},
            },
        }
        answer(client, {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept", "content": {"name": "Ada"}}})
        assert [event.message for event in events] == [
            text_result(json.dumps({"action": "accept", "content": {"name": "Ada"}}, sort_keys=True), id=2)
        ]


def test_roots_round_trip(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize(capabilities={"roots": {}})
    with client.post(tool_call("roots", id=3)) as response:
        events = read_events(response)
        next(events)
        assert next(events).message == {"jsonrpc": "2.0", "id": 1, "method": "roots/list"}
        roots = {"roots": [{"uri": "file:///work", "name": "work"}]}
        answer(client, {"jsonrpc": "2.0", "id": 1, "result": roots})
        assert [event.message for event in events] == [text_result(json.dumps(roots, sort_keys=True), id=3)]


def test_cancelling_the_parent_request_cancels_the_nested_one(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize(capabilities=SAMPLING)
    with client.post(tool_call("sample", id=7)) as response:
        events = read_events(response)
        next(events)
        assert next(events).message["method"] == "sampling/createMessage"
        answer(client, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "user"}})
        assert summary(events) == [  # no response to a cancelled request: the stream just ends
            ("1-2", {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "reason": "user"}}, None)
        ]
    assert served.probe.outcomes == ["cancelled"]


def test_an_error_answer_fails_the_tool(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize(capabilities=SAMPLING)
    with client.post(tool_call("sample", id=7)) as response:
        events = read_events(response)
        next(events)
        next(events)
        answer(client, error_body("User rejected sampling", -1, id=1))
        [result] = [event.message for event in events]
    assert result == {
        "jsonrpc": "2.0",
        "id": 7,
        "result": {"content": [{"type": "text", "text": "Internal error occurred"}], "isError": True},
    }
    assert served.probe.outcomes == ["JSONRPCError: User rejected sampling"]


def test_answers_from_another_session_reach_nobody(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client, intruder = served.client(), served.client()
    client.initialize(capabilities=SAMPLING)
    intruder.initialize()
    with client.post(tool_call("sample", id=7)) as response:
        events = read_events(response)
        next(events)
        next(events)
        answer(intruder, {"jsonrpc": "2.0", "id": 1, "result": {**SAMPLING_RESULT, "content": {"type": "text", "text": "forged"}}})
        answer(client, {"jsonrpc": "2.0", "id": 1, "result": SAMPLING_RESULT})
        assert [event.message for event in events] == [text_result("sampled: hi!", id=7)]


def test_json_response_mode_refuses_server_to_client_requests(serve: t.Callable[..., Served]) -> None:
    served = serve(enable_json_response=True)
    client = served.client()
    client.initialize(capabilities=SAMPLING)
    [result] = client.call(tool_call("sample", id=3))
    assert result["result"]["isError"] is True
    assert served.probe.outcomes == [
        "TransportError: Cannot send sampling/createMessage: this transport does not carry server-to-client requests"
        " (JSON response mode)"
    ]


def test_url_elicitation_required_is_a_32042_error_on_the_stream() -> None:
    server = Server(name="url")

    @server.define_tool(name="needs_auth")
    def needs_auth(args: dict[str, t.Any]) -> str:
        raise Server.URLElicitationRequiredError(
            [{"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e-9"}]
        )

    transport = StreamableHTTPTransport(server)
    with LiveServer(transport, closeables=[transport]) as live, Client(live.url) as client:
        client.initialize(capabilities={"elicitation": {"url": {}}})
        [error] = client.call(tool_call("needs_auth", id=4))
    assert error == {
        "jsonrpc": "2.0",
        "id": 4,
        "error": {
            "code": -32042,
            "message": "URL elicitation required",
            "data": {
                "elicitations": [
                    {"mode": "url", "message": "Sign in", "url": "https://example.com/login", "elicitationId": "e-9"}
                ]
            },
        },
    }


def test_the_server_can_ping_the_client_on_the_get_stream(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    [session] = served.server.sessions
    with client.get() as stream:
        events = read_events(stream)
        next(events)
        results: list[t.Any] = []
        pinger = threading.Thread(target=lambda: results.append(session.send_request("ping", timeout=5)), name="spec-ping")
        pinger.start()
        assert next(events).message == request("ping", id=1)
        answer(client, {"jsonrpc": "2.0", "id": 1, "result": {}})
        pinger.join(5)
    assert results == [{}]


def test_a_request_cancelled_while_it_waits_for_a_worker_never_runs(serve: t.Callable[..., Served]) -> None:
    served = serve(max_workers=1)
    client = served.client()
    client.initialize()
    with client.post(tool_call("wait", id=1)) as first:
        assert served.probe.started.wait(10)
        with client.post(tool_call("wait", id=2)) as second:  # no worker is free: it waits in the queue
            events = read_events(second)
            assert next(events) == Event(id="2-1", data="", retry=1000)  # stream 2's priming event
            answer(client, {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2}})
            served.probe.release.set()
            assert list(read_events(first))[-1].message == text_result("released", id=1)
            assert list(events) == []  # no response to a cancelled request: the stream just ends
    assert served.probe.outcomes == ["released"]
