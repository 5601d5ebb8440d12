"""StreamableHTTPTransport on a live werkzeug server: sessions, answers, streams, every HTTP status."""

from __future__ import annotations

import time
import typing as t

import pytest
import requests

from mcp_sdk.server.transports.streamable_http.sessions.deployment import ENDED, ISSUED_ELSEWHERE
from spec.support.http_client import (
    LATEST,
    TIMEOUT,
    Event,
    initialize_message,
    read_events,
    request,
    text_result,
    tool_call,
)
from spec.support.http_fixtures import Served
from spec.support.wire_schema import assert_valid, assert_valid_notification, assert_valid_response

SSE_HEADERS_BASE = {"Cache-Control": "no-cache", "X-Accel-Buffering": "no", "Content-Type": "text/event-stream"}
SSE_HEADERS = {**SSE_HEADERS_BASE, "Transfer-Encoding": "chunked"}


def wire_headers(response: requests.Response) -> dict[str, str]:
    """The response headers the transport chose (not the server's Date, Server, Connection)."""
    return {name: value for name, value in response.headers.items() if name not in ("Date", "Server", "Connection")}


def error_body(message: str, code: int = -32600, id: t.Any = None) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": id, "error": {"code": code, "message": message}}


def summary(events: t.Iterable[Event]) -> list[tuple[str | None, t.Any, int | None]]:
    """(id, message or the raw data, retry) of each event."""
    return [(event.id, event.message if event.data else event.data, event.retry) for event in events]


def progress(token: t.Any, step: int, total: int, message: str | None = None) -> dict[str, t.Any]:
    params: dict[str, t.Any] = {"progressToken": token, "progress": step, "total": total}
    if message is not None:
        params["message"] = message
    return {"jsonrpc": "2.0", "method": "notifications/progress", "params": params}


def log(data: str) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": data}}


CAPABILITIES = {"tools": {"listChanged": True}, "logging": {}}


# -- sessions ------------------------------------------------------------------


def test_initialize_opens_a_session_answered_with_json(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    with client.post(initialize_message(), stream=False) as response:
        session_id = response.headers["Mcp-Session-Id"]
        assert response.status_code == 200
        assert wire_headers(response) == {
            "Mcp-Session-Id": session_id,
            "Content-Type": "application/json",
            "Content-Length": str(len(response.content)),
        }
        body = response.json()
    assert body == {
        "jsonrpc": "2.0",
        "id": 0,
        "result": {
            "protocolVersion": LATEST,
            "capabilities": CAPABILITIES,
            "serverInfo": {"name": "http-spec", "version": "1.0.0"},
        },
    }
    assert_valid_response("initialize", body)
    assert all(0x21 <= ord(char) <= 0x7E for char in session_id) and len(session_id) >= 32
    assert served.transport.session_ids == [session_id]
    client.session_id, client.protocol_version = session_id, LATEST
    with client.post({"jsonrpc": "2.0", "method": "notifications/initialized"}) as response:
        assert (response.status_code, wire_headers(response), response.content) == (202, {"Content-Length": "0"}, b"")


def test_each_initialize_gets_its_own_session(serve: t.Callable[..., Served]) -> None:
    served = serve()
    first, second = served.client(), served.client()
    first.initialize()
    second.initialize()
    assert first.session_id != second.session_id
    assert sorted(served.transport.session_ids) == sorted([first.session_id, second.session_id])


def test_initialize_on_an_open_session_is_refused(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    with client.post(initialize_message(id=7)) as response:
        assert (response.status_code, response.json()) == (
            400,
            error_body("Invalid Request: this session is already initialized", id=7),
        )
    with client.post(initialize_message(), headers=client.headers(**{"Mcp-Session-Id": "gone"})) as response:
        assert (response.status_code, response.json()) == (404, error_body(ISSUED_ELSEWHERE))


def test_a_failed_initialize_leaves_no_session(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    with client.post({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {}}) as response:
        assert response.status_code == 200
        assert "Mcp-Session-Id" not in response.headers
        assert response.json() == error_body("Invalid params: missing string 'protocolVersion'", -32602, id=0)
    assert served.transport.session_ids == []


def test_max_sessions_refuses_more_with_503(serve: t.Callable[..., Served]) -> None:
    served = serve(max_sessions=1)
    served.client().initialize()
    with served.client().post(initialize_message()) as response:
        assert (response.status_code, response.json()) == (503, error_body("Service Unavailable: 1 sessions are open"))


def test_delete_ends_the_session_and_its_streams(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    with client.get() as stream:
        events = read_events(stream)
        assert next(events) == Event(id="0-0", data="", retry=1000)
        deleted = client.delete()
        assert (deleted.status_code, wire_headers(deleted), deleted.content) == (204, {}, b"")
        assert list(events) == []  # the GET stream ended
    with client.post(request("ping")) as response:
        assert (response.status_code, response.json()) == (404, error_body(ENDED))
    assert client.delete().status_code == 404
    assert served.transport.session_ids == []


def test_idle_sessions_expire(serve: t.Callable[..., Served]) -> None:
    served = serve(session_idle_timeout=0.6)
    idle, busy = served.client(), served.client()
    idle.initialize()
    busy.initialize()
    deadline = time.monotonic() + 1.5
    while time.monotonic() < deadline:  # busy keeps asking; idle says nothing
        assert busy.call(request("ping", id=1)) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]
        time.sleep(0.05)
    assert served.transport.session_ids == [busy.session_id]  # the reaper removed the idle one
    with idle.post(request("ping")) as response:
        assert (response.status_code, response.json()) == (404, error_body(ENDED))


def test_an_open_get_stream_keeps_a_session_alive(serve: t.Callable[..., Served]) -> None:
    served = serve(session_idle_timeout=0.2, keepalive_interval=0.05)
    client = served.client()
    client.initialize()
    with client.get() as stream:
        events = read_events(stream)
        next(events)
        time.sleep(0.5)
        assert served.transport.session_ids == [client.session_id]


# -- answers -------------------------------------------------------------------


def test_requests_that_cannot_send_anything_first_are_answered_with_json(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    with client.post(request("ping", id="p")) as response:
        assert (response.status_code, wire_headers(response)) == (
            200,
            {"Content-Type": "application/json", "Content-Length": str(len(response.content))},
        )
        assert response.json() == {"jsonrpc": "2.0", "id": "p", "result": {}}
    with client.post(request("logging/setLevel", {"level": "debug"}, id=2)) as response:
        assert response.json() == {"jsonrpc": "2.0", "id": 2, "result": {}}
    with client.post(request("tools/list", id=3)) as response:
        assert response.headers["Content-Type"] == "application/json"
        assert_valid_response("tools/list", response.json())
    with client.post(tool_call("echo", {"text": "hi"}, id=4)) as response:  # its tool takes no server_context
        assert (response.headers["Content-Type"], response.json()) == ("application/json", text_result("echo: hi", id=4))


def test_a_tool_call_streams_progress_and_logs_before_its_response(serve: t.Callable[..., Served]) -> None:
    served = serve()
    served.transport.first_event_wait = TIMEOUT  # however busy the machine, the tool ends before the headers go
    client = served.client()
    client.initialize()
    client.call(request("logging/setLevel", {"level": "info"}, id=1))
    with client.post(tool_call("progress", {"steps": 2}, id=2, progress_token="tok")) as response:
        # Over before its headers had to go: written whole, with a length, rather than chunked.
        assert (response.status_code, wire_headers(response)) == (
            200,
            {**SSE_HEADERS_BASE, "Content-Length": str(len(response.content))},
        )
        events = list(read_events(response))
    assert summary(events) == [
        ("1-0", "", 1000),  # the priming event: an id to resume from, and no data
        ("1-1", progress("tok", 1, 2, "step 1"), None),
        ("1-2", log("step 1"), None),
        ("1-3", progress("tok", 2, 2, "step 2"), None),
        ("1-4", log("step 2"), None),
        ("1-5", text_result("done", id=2), None),
    ]
    assert_valid_notification(events[1].message, "ProgressNotification")
    assert_valid_notification(events[2].message, "LoggingMessageNotification")
    assert_valid_response("tools/call", events[-1].message)


def test_a_longer_request_streams_its_events_as_they_come(serve: t.Callable[..., Served]) -> None:
    served = serve()
    client = served.client()
    client.initialize()
    with client.post(tool_call("wait", id=3, progress_token="w")) as response:
        assert (response.status_code, wire_headers(response)) == (200, SSE_HEADERS)
        events = read_events(response)
        assert next(events) == Event(id="1-0", data="", retry=1000)  # sent while the tool still runs
        served.probe.release.set()
        assert summary(events) == [("1-1", progress("w", 1, 1), None), ("1-2", text_result("released", id=3), None)]


def test_sse_events_are_written_in_the_wire_format(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    with client.post(tool_call("progress", {"steps": 0}, id=9)) as response:
        raw = b"".join(response.iter_content(chunk_size=None))
    assert raw == (
        b"id: 1-0\nretry: 1000\ndata: \n\n"
        b'id: 1-1\ndata: {"jsonrpc":"2.0","id":9,"result":{"content":[{"type":"text","text":"done"}],"isError":false}}\n\n'
    )


def test_every_request_stream_gets_its_own_ids(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    first_call, second_call = tool_call("progress", {"steps": 0}, id=1), tool_call("progress", {"steps": 0}, id=2)
    with client.post(first_call) as first, client.post(second_call) as second:
        first_events, second_events = list(read_events(first)), list(read_events(second))
    assert [event.id for event in first_events] == ["1-0", "1-1"]
    assert [event.id for event in second_events] == ["2-2", "2-3"]


def test_older_clients_get_no_priming_event(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize(version="2025-06-18")
    with client.post(tool_call("progress", {"steps": 0})) as response:
        assert summary(read_events(response)) == [("1-0", text_result("done"), None)]


def test_a_2025_03_26_session_takes_batches(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize(version="2025-03-26")
    notification = {"jsonrpc": "2.0", "method": "notifications/foo"}
    batch = [request("ping", id=1), notification, tool_call("progress", {"steps": 0}, id=2)]
    with client.post(batch) as response:
        events = list(read_events(response))
    assert summary(events) == [("1-0", [{"jsonrpc": "2.0", "id": 1, "result": {}}, text_result("done", id=2)], None)]
    with client.post([request("ping", id=3), tool_call("echo", {"text": "b"}, id=4)]) as response:
        assert response.json() == [{"jsonrpc": "2.0", "id": 3, "result": {}}, text_result("echo: b", id=4)]
    with client.post([notification]) as response:
        assert response.status_code == 202


def test_json_response_mode_answers_json_and_drops_request_scoped_messages(serve: t.Callable[..., Served]) -> None:
    client = serve(enable_json_response=True).client()
    client.initialize()
    client.call(request("logging/setLevel", {"level": "info"}, id=1))
    headers = client.headers(Accept="application/json")
    with client.post(tool_call("progress", {"steps": 2}, id=2, progress_token="tok"), headers=headers) as response:
        assert (response.status_code, wire_headers(response)) == (
            200,
            {"Content-Type": "application/json", "Content-Length": str(len(response.content))},
        )
        assert response.json() == text_result("done", id=2)


def test_json_response_mode_still_streams_session_scoped_messages_on_get(serve: t.Callable[..., Served]) -> None:
    served = serve(enable_json_response=True)
    client = served.client()
    client.initialize()
    with client.get() as stream:
        events = read_events(stream)
        assert next(events) == Event(id="0-0", data="", retry=1000)
        assert client.call(tool_call("notify", id=2)) == [text_result("notified", id=2)]
        assert summary([next(events), next(events)]) == [
            ("0-1", {"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "test://watched"}}, None),
            ("0-2", {"jsonrpc": "2.0", "method": "notifications/elicitation/complete", "params": {"elicitationId": "e-1"}}, None),
        ]


def test_the_get_stream_carries_session_scoped_messages_and_broadcasts(serve: t.Callable[..., Served]) -> None:
    served = serve()
    alice, bob, carol = served.client(), served.client(), served.client()
    for client in (alice, bob, carol):
        client.initialize()
    with alice.get() as alice_stream, bob.get() as bob_stream:
        alice_events, bob_events = read_events(alice_stream), read_events(bob_stream)
        assert next(alice_events).data == next(bob_events).data == ""
        alice_answer = alice.call(tool_call("notify", id=5))  # resources/updated goes to alice's GET stream only
        assert alice_answer == [text_result("notified", id=5)]
        served.server.notify_tools_list_changed()  # everyone's; carol has no GET stream: dropped
        assert_valid_notification(next(alice_events).message, "ResourceUpdatedNotification")
        assert next(alice_events).message["method"] == "notifications/elicitation/complete"
        changed = {"jsonrpc": "2.0", "method": "notifications/tools/list_changed"}
        assert summary([next(alice_events)]) == [("0-5", changed, None)]  # 1-1 and 1-4 went to the POST stream
        assert summary([next(bob_events)]) == [("0-1", changed, None)]
    assert carol.call(request("ping", id=1)) == [{"jsonrpc": "2.0", "id": 1, "result": {}}]


def test_a_tool_error_is_a_result_and_an_unknown_tool_an_error(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    [missing] = client.call(tool_call("nope", id=3))
    assert missing == {"jsonrpc": "2.0", "id": 3, "error": {"code": -32602, "message": "Tool not found: nope", "data": {"name": "nope"}}}
    assert_valid_response("tools/call", missing)


# -- stateless -----------------------------------------------------------------


def test_stateless_mode_answers_every_post_on_its_own(serve: t.Callable[..., Served]) -> None:
    served = serve(stateless=True)
    client = served.client()
    with client.post(initialize_message()) as response:
        assert response.status_code == 200 and "Mcp-Session-Id" not in response.headers
        assert response.json()["result"]["protocolVersion"] == LATEST
    client.protocol_version = LATEST
    with client.post(tool_call("progress", {"steps": 1}, id=4, progress_token=1)) as response:
        assert summary(read_events(response)) == [  # no ids: there is no session to resume
            (None, progress(1, 1, 1, "step 1"), None),
            (None, text_result("done", id=4), None),
        ]
    with client.get() as response:
        assert (response.status_code, response.headers["Allow"], response.json()) == (
            405,
            "POST",
            error_body("Method Not Allowed: use POST"),
        )
    assert client.delete().status_code == 405
    [answer] = client.call(tool_call("sample", id=5))
    assert answer["result"]["isError"] is True
    # Whatever the client declared (no session remembers it), the transport cannot carry the ask and says so.
    assert served.probe.outcomes == [
        "ClientRequestsUnavailableError: Cannot send sampling/createMessage: this transport is stateless "
        "(StreamableHTTPTransport(stateless=True)): the client's answer would arrive in another request; "
        "use sessions or MCP 2026-07-28 input requests"
    ]
    assert served.transport.session_ids == [] and served.server.sessions == []


def test_stateless_mode_takes_the_protocol_version_from_the_header(serve: t.Callable[..., Served]) -> None:
    client = serve(stateless=True, enable_json_response=True).client()
    structured = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    client.protocol_version = "2025-11-25"
    [latest] = client.call(structured)
    client.protocol_version = None  # absent: 2025-03-26, whose tools have no outputSchema/title
    [oldest] = client.call(structured)
    assert_valid("ListToolsResult", latest["result"], "2025-11-25")
    assert_valid("ListToolsResult", oldest["result"], "2025-03-26")
    client.protocol_version = "1999-01-01"
    with client.post(structured) as response:
        assert response.status_code == 400


# -- refusals ------------------------------------------------------------------

SUPPORTED = "2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25"


@pytest.mark.parametrize(
    ("change", "status", "message"),
    [
        ({"Mcp-Session-Id": None}, 400, "Bad Request: the Mcp-Session-Id header is required"),
        ({"Mcp-Session-Id": "no-such-session"}, 404, ISSUED_ELSEWHERE),
        ({"Accept": "application/json"}, 406, "Not Acceptable: the Accept header must allow application/json and text/event-stream"),
        ({"Accept": "text/event-stream"}, 406, "Not Acceptable: the Accept header must allow application/json and text/event-stream"),
        ({"Accept": "text/html, application/json;q=0"}, 406, "Not Acceptable: the Accept header must allow application/json and text/event-stream"),
        ({"Content-Type": "text/plain"}, 415, "Unsupported Media Type: Content-Type must be application/json"),
        ({"MCP-Protocol-Version": "1999-01-01"}, 400, f"Bad Request: unsupported MCP-Protocol-Version '1999-01-01' (supported: {SUPPORTED})"),
        ({"Host": "evil.example.com"}, 403, "Forbidden: Host 'evil.example.com' is not allowed; name it in StreamableHTTPTransport(allowed_hosts=[...])"),
        ({"Origin": "http://evil.example.com"}, 403, "Forbidden: Origin 'http://evil.example.com' is not allowed; name it in StreamableHTTPTransport(allowed_origins=[...])"),
        ({"Origin": "null"}, 403, "Forbidden: Origin 'null' is not allowed; name it in StreamableHTTPTransport(allowed_origins=[...])"),
    ],
)
def test_post_refusals(serve: t.Callable[..., Served], change: dict[str, str | None], status: int, message: str) -> None:
    client = serve().client()
    client.initialize()
    headers = {name: value for name, value in {**client.headers(), **change}.items() if value is not None}
    with client.post(request("tools/list"), headers=headers) as response:
        assert (response.status_code, wire_headers(response), response.json()) == (
            status,
            {"Content-Type": "application/json", "Content-Length": str(len(response.content))},
            error_body(message),
        )


@pytest.mark.parametrize(
    "change",
    [
        {"Accept": "*/*"},
        {"Accept": "application/*, text/*"},
        {"Accept": None},  # no Accept header: anything goes
        {"MCP-Protocol-Version": None},  # absent: 2025-03-26 assumed
        {"MCP-Protocol-Version": "2025-03-26"},  # any supported version passes
        {"Origin": "http://localhost:6274"},  # a local web client on another port
        {"Origin": None, "Host": "localhost"},
        {"Content-Type": "application/json; charset=utf-8"},
    ],
)
def test_post_leniency(serve: t.Callable[..., Served], change: dict[str, str | None]) -> None:
    client = serve().client()
    client.initialize()
    headers = {**client.headers(), **change}  # requests leaves out headers set to None
    with client.http.post(client.url, json=request("ping"), headers=headers, timeout=TIMEOUT) as response:
        assert (response.status_code, response.json()) == (200, {"jsonrpc": "2.0", "id": 1, "result": {}})


def test_malformed_json_is_a_parse_error(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    for body, detail in [
        (b"{bad", "Expecting property name enclosed in double quotes: line 1 column 2 (char 1)"),
        (b"", "Expecting value: line 1 column 1 (char 0)"),
        (b"\xff", "'utf-8' codec can't decode byte 0xff in position 0: invalid start byte"),
    ]:
        with client.http.post(client.url, data=body, headers=client.headers(), timeout=TIMEOUT) as response:
            assert (response.status_code, response.json()) == (400, error_body(f"Parse error: {detail}", -32700))


def test_an_invalid_message_is_a_400_with_its_json_rpc_error(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    with client.post({"jsonrpc": "2.0"}) as response:
        assert (response.status_code, response.json()) == (400, error_body("Invalid Request"))
    with client.post({"jsonrpc": "2.0", "id": None, "method": "ping"}) as response:
        assert (response.status_code, response.json()) == (
            400,
            error_body("Invalid Request: id must be a string or an integer"),
        )


def test_bodies_over_the_limit_get_413(serve: t.Callable[..., Served]) -> None:
    client = serve(max_body_bytes=200).client()
    client.initialize()
    too_large = error_body("Payload Too Large: the body exceeds 200 bytes")
    with client.post(tool_call("echo", {"text": "x" * 300})) as response:  # Content-Length says so
        assert (response.status_code, response.json()) == (413, too_large)
    chunked = (piece for piece in [b'{"jsonrpc":"2.0","id":1,', b'"method":"ping","params":{"x":"' + b"y" * 250 + b'"}}'])
    with client.http.post(client.url, data=chunked, headers=client.headers(), timeout=TIMEOUT) as response:
        assert (response.status_code, response.json()) == (413, too_large)
    with client.post(request("ping", id=1)) as response:
        assert response.status_code == 200


def test_other_methods_get_405_with_allow(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    for method in ("PUT", "PATCH", "HEAD", "OPTIONS"):
        with client.http.request(method, client.url, timeout=TIMEOUT) as response:
            assert (response.status_code, response.headers["Allow"]) == (405, "GET, POST, DELETE")
            if method != "HEAD":
                assert response.json() == error_body("Method Not Allowed: use GET, POST, DELETE")


def test_get_refusals(serve: t.Callable[..., Served]) -> None:
    client = serve().client()
    client.initialize()
    with client.get(client.headers(Accept="application/json")) as response:
        assert (response.status_code, response.json()) == (406, error_body("Not Acceptable: the Accept header must allow text/event-stream"))
    with client.get({"Accept": "text/event-stream"}) as response:  # no session: 2026-07-28 has no GET
        assert (response.status_code, response.headers["Allow"], response.json()) == (
            405,
            "POST",
            error_body("Method Not Allowed: GET needs an Mcp-Session-Id (protocol 2026-07-28 uses POST only)"),
        )
    with client.get() as stream:
        next(read_events(stream))
        with client.get() as second:
            assert (second.status_code, second.json()) == (409, error_body("Conflict: this session already has a GET stream open"))


def test_dns_rebinding_protection_is_configurable(serve: t.Callable[..., Served]) -> None:
    listed = serve(allowed_hosts=["mcp.example.com"], allowed_origins=["https://app.example.com"]).client()
    for host, origin, status in [
        ("mcp.example.com", "https://app.example.com", 200),
        ("mcp.example.com:8443", "https://mcp.example.com:8443", 200),  # same origin
        ("mcp.example.com", "https://other.example.com", 403),
        ("other.example.com", None, 403),
    ]:
        headers = {**listed.headers(), "Host": host, **({"Origin": origin} if origin else {})}
        with listed.post(initialize_message(), headers=headers) as response:
            assert response.status_code == status, (host, origin)
    unprotected = serve(dns_rebinding_protection=False).client()
    with unprotected.post(initialize_message(), headers={**unprotected.headers(), "Host": "evil.example.com"}) as response:
        assert response.status_code == 200
