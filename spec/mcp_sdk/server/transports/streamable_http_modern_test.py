"""Streamable HTTP serving 2026-07-28 requests beside 2025 sessions, on a real HTTP server:
envelope and header checks with their statuses, MRTR, per-request logging, subscriptions/listen,
GET/DELETE without a session, stateless mode, and both eras at once."""

from __future__ import annotations

import concurrent.futures
import http.client
import json
import urllib.parse
import time
import typing as t

import pytest
import requests

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_client import Client, messages_of, read_events
from spec.support.http_server import LiveServer
from spec.support.waiting import wait_until
from spec.support.modern import MODERN, asking_server, modern_request, retry, text_of, tool_call
from spec.support.wire_schema import assert_valid_modern, assert_valid_response

TIMEOUT = 10.0
TAG = "io.modelcontextprotocol/subscriptionId"
SAMPLED = {"role": "assistant", "content": {"type": "text", "text": "Paris"}, "model": "test-model", "stopReason": "endTurn"}


def standard_headers(message: dict[str, t.Any]) -> dict[str, str]:
    """The headers a 2026-07-28 client sends for ``message``."""
    headers = {
        "Content-Type": "application/json",
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": message["params"].get("_meta", {}).get("io.modelcontextprotocol/protocolVersion", MODERN),
        "Mcp-Method": message["method"],
    }
    params = message["params"]
    if message["method"] in ("tools/call", "prompts/get"):
        headers["Mcp-Name"] = params["name"]
    elif message["method"] == "resources/read":
        headers["Mcp-Name"] = params["uri"]
    return headers


def raw_post(url: str, message: dict[str, t.Any], headers: dict[str, str]) -> dict[str, t.Any]:
    """POST with http.client, which sends header values as given (``requests`` refuses leading spaces)."""
    parts = urllib.parse.urlsplit(url)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=TIMEOUT)
    try:
        connection.request("POST", parts.path, body=json.dumps(message), headers=headers)
        response = connection.getresponse()
        assert response.status == 200, response.read()
        return t.cast("dict[str, t.Any]", json.loads(response.read()))
    finally:
        connection.close()


class Modern:
    """Posts 2026-07-28 requests to one server and checks every message that comes back."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.http = requests.Session()

    def post(self, message: dict[str, t.Any], *, drop: t.Sequence[str] = (), stream: bool = False, **extra: str) -> requests.Response:
        headers = standard_headers(message)
        for name in drop:
            headers.pop(name)
        headers.update({name.replace("_", "-"): value for name, value in extra.items()})
        return self.http.post(self.url, data=json.dumps(message), headers=headers, timeout=TIMEOUT, stream=stream)

    def call(self, message: dict[str, t.Any], **options: t.Any) -> list[dict[str, t.Any]]:
        """Every message of a 200 answer, each validated; the last is the response."""
        with self.post(message, stream=True, **options) as response:
            found = messages_of(response)
        for item in found:
            assert_valid_modern(message["method"], item)
        assert found[-1].get("id") == message["id"]
        return found

    def refused(self, message: dict[str, t.Any], status: int, **options: t.Any) -> dict[str, t.Any]:
        """The JSON error answer of a refused request, with its status checked."""
        with self.post(message, **options) as response:
            assert response.status_code == status, (response.status_code, response.text)
            assert response.headers["Content-Type"] == "application/json"
            body = response.json()
        assert_valid_modern(message["method"], body)
        assert body["id"] == message["id"]
        return t.cast("dict[str, t.Any]", body)

    def close(self) -> None:
        self.http.close()


@pytest.fixture
def started() -> t.Iterator[t.Callable[..., tuple[Server, StreamableHTTPTransport, LiveServer, Modern]]]:
    stops: list[t.Callable[[], None]] = []

    def start(**options: t.Any) -> tuple[Server, StreamableHTTPTransport, LiveServer, Modern]:
        server = asking_server()
        transport = StreamableHTTPTransport(server, **{"wsgi_threads": 32, **options})
        live = LiveServer(transport, closeables=[transport])
        client = Modern(live.url)
        stops.append(live.stop)
        stops.append(client.close)
        return server, transport, live, client

    yield start
    for stop in reversed(stops):
        stop()


@pytest.fixture
def modern(started: t.Any) -> Modern:
    return t.cast(Modern, started()[3])


class TestPlainRequests:
    def test_a_request_gets_one_json_answer(self, started: t.Any) -> None:
        _, _, live, client = started()
        with client.post(modern_request("tools/list")) as response:
            assert response.status_code == 200
            assert response.headers["Content-Type"] == "application/json"
            assert "Mcp-Session-Id" not in response.headers
            body = response.json()
        assert_valid_modern("tools/list", body)
        assert (body["result"]["ttlMs"], body["result"]["cacheScope"]) == (60000, "public")

    def test_server_discover(self, modern: Modern) -> None:
        [response] = modern.call(modern_request("server/discover"))
        assert response["result"]["supportedVersions"] == [MODERN]

    def test_session_id_and_last_event_id_are_ignored(self, modern: Modern) -> None:
        [response] = modern.call(tool_call("echo", {"message": "hi"}), Mcp_Session_Id="no-such-session", Last_Event_ID="0/5")
        assert text_of(response) == "echo: hi"

    @pytest.mark.parametrize("http_method", ["GET", "DELETE"])
    def test_get_and_delete_without_a_session_are_405(self, modern: Modern, http_method: str) -> None:
        with modern.http.request(http_method, modern.url, headers={"Accept": "text/event-stream"}, timeout=TIMEOUT) as response:
            assert response.status_code == 405
            assert response.headers["Allow"] == "POST"

    def test_stateless_mode_serves_modern_requests(self, started: t.Any) -> None:
        _, _, _, client = started(stateless=True)
        [listing] = client.call(modern_request("tools/list"))
        assert listing["result"]["resultType"] == "complete"
        first = client.call(tool_call("greet"))[-1]
        done = client.call(retry(tool_call("greet"), first, {"elicitation-1": {"action": "accept", "content": {"name": "Ann"}}}))[-1]
        assert text_of(done) == "Hello, Ann!"

    def test_json_response_mode_serves_modern_requests(self, started: t.Any) -> None:
        _, _, _, client = started(enable_json_response=True)
        [response] = client.call(tool_call("shout", {"message": "hi"}, log_level="info"))
        assert text_of(response) == "HI"


class TestEnvelopeAndVersion:
    def test_a_missing_envelope_field_is_400_minus_32602(self, modern: Modern) -> None:
        message = modern_request("tools/list", id=3)
        del message["params"]["_meta"]["io.modelcontextprotocol/clientCapabilities"]
        assert modern.refused(message, 400) == {
            "jsonrpc": "2.0",
            "id": 3,
            "error": {"code": -32602, "message": "Invalid params: params._meta is missing 'io.modelcontextprotocol/clientCapabilities'"},
        }

    def test_a_request_of_neither_era_says_both_ways_in(self, modern: Modern) -> None:
        message = modern_request("tools/list", id=5)
        del message["params"]["_meta"]
        assert modern.refused(message, 400) == {
            "jsonrpc": "2.0",
            "id": 5,
            "error": {
                "code": -32602,
                "message": "Invalid params: no Mcp-Session-Id header (send initialize first, MCP 2025) and no params._meta "
                "carrying 'io.modelcontextprotocol/protocolVersion' and 'io.modelcontextprotocol/clientCapabilities' (MCP 2026-07-28)",
            },
        }

    def test_an_unsupported_version_is_400_minus_32022(self, modern: Modern) -> None:
        body = modern.refused(modern_request("server/discover", version="2030-01-01", id=4), 400)
        assert body["error"]["code"] == -32022
        assert body["error"]["data"] == {"supported": [MODERN], "requested": "2030-01-01"}

    @pytest.mark.parametrize("method", ["ping", "logging/setLevel", "resources/subscribe", "initialize"])
    def test_removed_methods_are_404_minus_32601(self, modern: Modern, method: str) -> None:
        params = {"uri": "example://readme"} if method == "resources/subscribe" else {"level": "info"} if method == "logging/setLevel" else {}
        assert modern.refused(modern_request(method, params), 404)["error"]["code"] == -32601

    def test_an_unknown_method_is_404_minus_32601(self, modern: Modern) -> None:
        assert modern.refused(modern_request("tools/frobnicate"), 404)["error"]["code"] == -32601

    def test_a_missing_capability_is_400_minus_32021_even_from_a_tool_that_could_stream(self, modern: Modern) -> None:
        body = modern.refused(tool_call("ask_llm", {"question": "q"}, capabilities={}, id=6), 400)
        assert body["error"]["code"] == -32021
        assert body["error"]["data"] == {"requiredCapabilities": {"sampling": {}}}


class TestHeaders:
    def refused(self, modern: Modern, message: dict[str, t.Any], **options: t.Any) -> str:
        body = modern.refused(message, 400, **options)
        assert body["error"]["code"] == -32020
        return t.cast(str, body["error"]["message"])

    def test_the_version_header_must_match(self, modern: Modern) -> None:
        message = modern_request("tools/list")
        assert self.refused(modern, message, MCP_Protocol_Version="2025-11-25") == (
            "Header mismatch: MCP-Protocol-Version header '2025-11-25' does not match the body's '2026-07-28'"
        )
        assert self.refused(modern, message, drop=["MCP-Protocol-Version"]) == "Header mismatch: the MCP-Protocol-Version header is required"

    def test_mcp_method_is_required_and_exact(self, modern: Modern) -> None:
        message = modern_request("tools/list")
        self.refused(modern, message, drop=["Mcp-Method"])
        self.refused(modern, message, Mcp_Method="prompts/list")
        self.refused(modern, message, Mcp_Method="TOOLS/LIST")

    def test_header_names_are_case_insensitive(self, modern: Modern) -> None:
        message = modern_request("tools/list")
        for name in ("mcp-method", "MCP-METHOD"):
            headers = {**standard_headers(message)}
            del headers["Mcp-Method"]
            headers[name] = "tools/list"
            with modern.http.post(modern.url, data=json.dumps(message), headers=headers, timeout=TIMEOUT) as response:
                assert response.status_code == 200 and "error" not in response.json()

    def test_mcp_name_is_required_matches_and_may_be_base64(self, modern: Modern) -> None:
        message = tool_call("echo", {"message": "x"})
        self.refused(modern, message, drop=["Mcp-Name"])
        self.refused(modern, message, Mcp_Name="weather")
        self.refused(modern, message, Mcp_Name="=?base64?ZWNobw?=")  # bad padding
        assert text_of(raw_post(modern.url, message, {**standard_headers(message), "Mcp-Name": "  echo  "})) == "echo: x"
        assert text_of(modern.call(message, Mcp_Name="=?base64?ZWNobw==?=")[-1]) == "echo: x"

    def test_mcp_name_of_a_read_is_the_uri(self, modern: Modern) -> None:
        message = modern_request("resources/read", {"uri": "example://readme"})
        self.refused(modern, message, Mcp_Name="example://clock")
        assert modern.call(message)[-1]["result"]["contents"][0]["text"] == "contents of example://readme"

    @pytest.mark.parametrize(
        "body, header",
        [("Hello", "Hello"), ("Hello", "=?base64?SGVsbG8=?="), ("SGVsbG8=", "SGVsbG8="), ("=?base64?SGVsbG8=", "=?base64?SGVsbG8="), ("Zürich", "=?base64?WsO8cmljaA==?=")],
    )
    def test_mcp_param_headers_that_match_are_accepted(self, modern: Modern, body: str, header: str) -> None:
        response = modern.call(tool_call("weather", {"region": body}), Mcp_Param_Region=header)[-1]
        assert text_of(response) == f"sunny in {body}"

    @pytest.mark.parametrize("header", [None, "Bonjour", "=?base64?SGVsbG8?=", "=?base64?SGVs!!!bG8=?="])
    def test_mcp_param_headers_missing_malformed_or_different_are_refused(self, modern: Modern, header: str | None) -> None:
        options: dict[str, t.Any] = {} if header is None else {"Mcp_Param_Region": header}
        message = self.refused(modern, tool_call("weather", {"region": "Hello"}), **options)
        assert "Mcp-Param-Region" in message


class TestInputRequired:
    def test_elicitation_round_trip_over_two_posts(self, modern: Modern) -> None:
        request = tool_call("greet")
        [first] = modern.call(request)
        assert first["result"]["resultType"] == "input_required"
        [done] = modern.call(retry(request, first, {"elicitation-1": {"action": "accept", "content": {"name": "Alice"}}}, id=2))
        assert text_of(done) == "Hello, Alice!"

    def test_a_tampered_state_is_400_minus_32602(self, modern: Modern) -> None:
        request = tool_call("greet")
        [first] = modern.call(request)
        first["result"]["requestState"] = first["result"]["requestState"][:-4] + "AAAA"
        body = modern.refused(retry(request, first, {"elicitation-1": {"action": "accept", "content": {"name": "x"}}}), 400)
        assert body["error"]["code"] == -32602

    def test_never_a_server_to_client_request_on_the_stream(self, modern: Modern) -> None:
        for message in modern.call(tool_call("plan", log_level="debug")):
            assert not ("method" in message and "id" in message)


class TestLogging:
    def test_no_log_messages_without_a_log_level(self, modern: Modern) -> None:
        assert [m.get("method") for m in modern.call(tool_call("shout", {"message": "hi"}))] == [None]

    def test_log_messages_stream_before_the_answer_with_sse_headers(self, modern: Modern) -> None:
        with modern.post(tool_call("shout", {"message": "hi"}, log_level="info"), stream=True) as response:
            assert response.headers["Content-Type"] == "text/event-stream"
            assert response.headers["X-Accel-Buffering"] == "no"
            events = [event for event in read_events(response) if event.data]
        messages = [event.message for event in events]
        assert messages[0] == {"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": {"said": "hi"}, "logger": "shout"}}
        assert text_of(messages[1]) == "HI" and len(messages) == 2
        assert all(event.id is None for event in events)  # not resumable


def listen_request(notifications: dict[str, t.Any], id: t.Any) -> dict[str, t.Any]:
    return modern_request("subscriptions/listen", {"notifications": notifications}, id=id)


class TestListen:
    def test_ack_tagged_changes_from_another_post_and_a_graceful_close(self, started: t.Any) -> None:
        server, transport, _, client = started()
        with client.post(listen_request({"toolsListChanged": True}, "L1"), stream=True) as response:
            assert response.status_code == 200 and response.headers["Content-Type"] == "text/event-stream"
            events = read_events(response)
            ack = next(events).message
            assert ack == {"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {"_meta": {TAG: "L1"}, "notifications": {"toolsListChanged": True}}}
            client.call(tool_call("touch", id=2))
            changed = next(event for event in events if event.data).message
            assert changed == {"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {"_meta": {TAG: "L1"}}}
            server.close_subscriptions()
            rest = [event.message for event in events if event.data]
        for message in [ack, changed, *rest]:
            assert_valid_modern("subscriptions/listen", message)
        assert rest == [{"jsonrpc": "2.0", "id": "L1", "result": {"_meta": {TAG: "L1", "io.modelcontextprotocol/serverInfo": {"name": "asking_example", "version": "1.0.0"}}, "resultType": "complete"}}]

    def test_closing_the_transport_ends_listen_streams_with_their_result(self, started: t.Any) -> None:
        _, transport, _, client = started()
        with client.post(listen_request({"resourcesListChanged": True}, 5), stream=True) as response:
            events = read_events(response)
            next(events)
            transport.close()
            rest = [event.message for event in events if event.data]
        assert [message.get("id") for message in rest] == [5]
        assert rest[0]["result"]["resultType"] == "complete"

    def test_the_client_closing_the_stream_cancels_the_listen_request(self, started: t.Any) -> None:
        server, _, _, client = started()
        bus = server.subscriptions
        with client.post(listen_request({"toolsListChanged": True}, 7), stream=True) as response:
            next(read_events(response))
            assert bus.listener_count == 1
        client.http.close()  # drop the pooled connection too
        # The server notices the closed connection when it next writes (a change) or keeps alive.
        deadline = time.monotonic() + TIMEOUT
        while bus.listener_count and time.monotonic() < deadline:
            server.notify_tools_list_changed()
            time.sleep(0.05)
        assert bus.listener_count == 0

    def test_listen_streams_even_in_json_response_mode(self, started: t.Any) -> None:
        server, _, _, client = started(enable_json_response=True)
        with client.post(listen_request({"toolsListChanged": True}, "J"), stream=True) as response:
            assert response.headers["Content-Type"] == "text/event-stream"
            events = read_events(response)
            assert next(events).message["method"] == "notifications/subscriptions/acknowledged"
            server.notify_tools_list_changed()
            assert next(event for event in events if event.data).message["method"] == "notifications/tools/list_changed"
            server.close_subscriptions()
            assert [event.message["id"] for event in events if event.data] == ["J"]

    def test_the_filter_over_http(self, started: t.Any) -> None:
        server, _, _, client = started()
        with client.post(listen_request({"promptsListChanged": True}, "P"), stream=True) as response:
            events = read_events(response)
            next(events)
            client.call(tool_call("touch", id=2))
            first = next(event for event in events if event.data).message
            server.close_subscriptions()
            rest = [event.message for event in events if event.data]
        assert first["method"] == "notifications/prompts/list_changed"
        assert [m.get("method") for m in rest] == [None]


class TestBothEras:
    def test_a_2025_session_answers_real_requests_while_modern_requests_use_mrtr(self, started: t.Any) -> None:
        _, _, live, modern = started()
        legacy = Client(live.url)
        try:
            legacy.initialize(capabilities={"sampling": {}, "elicitation": {}})
            with concurrent.futures.ThreadPoolExecutor(2) as pool:
                with legacy.post(legacy_call("ask_llm", {"question": "Capital?"}, 10)) as response:
                    events = read_events(response)
                    ask = next(event for event in events if event.data).message
                    assert ask["method"] == "sampling/createMessage" and "id" in ask
                    # While the 2025 tool waits, 2026 requests are served on the same endpoint.
                    request = tool_call("ask_llm", {"question": "Capital?"}, id=20)
                    first = pool.submit(modern.call, request).result(TIMEOUT)[-1]
                    assert first["result"]["inputRequests"]["sampling-1"]["method"] == "sampling/createMessage"
                    done = pool.submit(modern.call, retry(request, first, {"sampling-1": SAMPLED}, id=21)).result(TIMEOUT)[-1]
                    assert text_of(done) == "model said: Paris"
                    with legacy.post({"jsonrpc": "2.0", "id": ask["id"], "result": SAMPLED}) as answered:
                        assert answered.status_code == 202
                    final = next(event for event in events if event.data).message
            assert_valid_response("tools/call", final)
            assert final["result"]["content"] == [{"type": "text", "text": "model said: Paris"}]
            assert "resultType" not in final["result"]
        finally:
            legacy.close()

    def test_an_explicit_input_required_result_on_a_2025_session_becomes_a_real_request(self, started: t.Any) -> None:
        _, _, live, _ = started()
        legacy = Client(live.url)
        try:
            legacy.initialize(capabilities={"elicitation": {}})
            with legacy.post(legacy_call("confirm", {}, 11)) as response:
                events = read_events(response)
                ask = next(event for event in events if event.data).message
                assert ask["method"] == "elicitation/create"
                assert ask["params"]["message"] == "Proceed?"
                with legacy.post({"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"ok": True}}}) as answered:
                    assert answered.status_code == 202
                final = next(event for event in events if event.data).message
            assert final == {"jsonrpc": "2.0", "id": 11, "result": {"content": [{"type": "text", "text": "state step-1: confirmed"}], "isError": False}}
        finally:
            legacy.close()


def legacy_call(name: str, arguments: dict[str, t.Any], id: t.Any) -> dict[str, t.Any]:
    return {"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {"name": name, "arguments": arguments}}


@pytest.mark.parametrize(
    "raw, decoded",
    [
        ("echo", "echo"),
        ("a\tb", "a\tb"),
        ("", ""),
        ("caf\u00e9", None),  # non-ASCII must travel as Base64
        ("a\x01b", None),
        ("=?base64?Y2Fmw6k=?=", "caf\u00e9"),
        ("=?base64?Y2Fmw6k?=", None),
        ("=?base64?/w==?=", None),  # not UTF-8
        ("=?base64?abc", "=?base64?abc"),
    ],
)
def test_header_values_decode(raw: str, decoded: str | None) -> None:
    from mcp_sdk.server.transports.streamable_http.wire.request_headers import decode_value

    assert decode_value(raw) == decoded


class TestStreamsAndShapes:
    """On spec/support/http_app's server (the `serve` fixture): progress, cancellation by closing
    the stream, and bodies a 2026-07-28 POST cannot carry."""

    def test_progress_streams_before_the_answer(self, serve: t.Any) -> None:
        served = serve()
        client = Modern(served.url)
        try:
            message = tool_call("progress", {"steps": 2})
            message["params"]["_meta"]["progressToken"] = "tok"
            found = client.call(message)
        finally:
            client.close()
        assert [m.get("method") for m in found] == ["notifications/progress", "notifications/progress", None]
        assert found[0]["params"] == {"progressToken": "tok", "progress": 1, "total": 2, "message": "step 1"}
        assert text_of(found[-1]) == "done"

    def test_closing_the_answer_stream_cancels_the_request(self, serve: t.Any) -> None:
        served = serve()
        probe = served.probe

        @served.server.define_tool(name="block")
        def block(args: dict[str, t.Any], server_context: t.Any = None) -> str:
            server_context.report_progress(0)  # the answer becomes a stream
            if server_context.cancellation.wait(TIMEOUT):
                probe.record("cancelled")
                server_context.raise_if_cancelled()
            probe.record("ran out")
            return "ran out"

        client = Modern(served.url)
        try:
            message = tool_call("block", id="b1")
            message["params"]["_meta"]["progressToken"] = 1
            with client.post(message, stream=True) as response:
                assert response.headers["Content-Type"] == "text/event-stream"
                assert next(read_events(response)).message["method"] == "notifications/progress"
            client.http.close()
            assert wait_until(lambda: probe.outcomes == ["cancelled"], TIMEOUT), "never: the tool saw its cancellation"
        finally:
            client.close()

    def test_bodies_a_modern_post_cannot_carry(self, serve: t.Any) -> None:
        served = serve()
        client = Modern(served.url)
        try:
            message = modern_request("tools/list")
            headers = standard_headers(message)
            with client.http.post(served.url, data=json.dumps([message]), headers=headers, timeout=TIMEOUT) as response:
                assert response.status_code == 400
            answer = {"jsonrpc": "2.0", "id": 5, "result": {}, "params": message["params"]}
            with client.http.post(served.url, data=json.dumps(answer), headers=headers, timeout=TIMEOUT) as response:
                assert response.status_code == 400
            notification = {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 1, "_meta": message["params"]["_meta"]}}
            with client.http.post(served.url, data=json.dumps(notification), headers={**headers, "Mcp-Method": "notifications/cancelled"}, timeout=TIMEOUT) as response:
                assert response.status_code == 202 and response.content == b""
        finally:
            client.close()
