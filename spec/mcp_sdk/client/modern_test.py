"""The client's MCP 2026-07-28 wire: negotiation, the ``_meta`` envelope, resultType, MRTR, the cache.

A recording transport answers from a script; what the client writes is checked
exactly and against the official 2026-07-28 schema.
"""

from __future__ import annotations

import itertools
import logging
import typing as t

import pytest

from mcp_sdk import Client
from mcp_sdk.client import wire_2026
from mcp_sdk.client.transport import Message
from spec.support import wire_schema
from spec.support.client_fake_transport import INITIALIZE_RESULT, RecordingTransport

V = "2026-07-28"
DISCOVER = {
    "resultType": "complete",
    "supportedVersions": [V],
    "capabilities": {"tools": {"listChanged": True}},
    "serverInfo": {"name": "modern", "version": "1"},
}
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": V,
    "io.modelcontextprotocol/clientCapabilities": {},
    "io.modelcontextprotocol/clientInfo": {"name": "app", "version": "1"},
}
_keys = itertools.count()


class KeyedTransport(RecordingTransport):
    """A recording transport with a server name of its own, so era memory can be watched."""

    def __init__(self, results: dict[str, t.Any] | None = None, key: str | None = None) -> None:
        super().__init__(results)
        self.key = key or f"test:{next(_keys)}"

    def era_key(self) -> str:
        return self.key


def error(request: Message, code: int, message: str, data: t.Any = None) -> Message:
    body: dict[str, t.Any] = {"code": code, "message": message}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request["id"], "error": body}


def modern_client(results: dict[str, t.Any], **options: t.Any) -> tuple[Client, KeyedTransport]:
    transport = KeyedTransport({"server/discover": DISCOVER, **results})
    client = Client(transport=transport, **options)
    client.connect(client_info={"name": "app", "version": "1"})
    return client, transport


class TestNegotiation:
    def test_auto_against_a_modern_server_sends_discover_with_the_envelope_only(self) -> None:
        client, transport = modern_client({})
        assert transport.sent == [
            {"jsonrpc": "2.0", "id": 1, "method": "server/discover", "params": {"_meta": ENVELOPE}}
        ]
        wire_schema.assert_valid("DiscoverRequest", transport.sent[0], V)
        assert (client.era, client.protocol_version, client.connected) == ("modern", V, True)
        assert client.server_info == {"name": "modern", "version": "1"}
        assert client.server_capabilities == {"tools": {"listChanged": True}}

    def test_auto_falls_back_to_initialize_once_then_remembers(self) -> None:
        refuse = {"server/discover": lambda r: error(r, -32601, "Method not found")}
        transport = KeyedTransport(refuse)
        Client(transport=transport).connect()
        assert [m["method"] for m in transport.sent] == ["server/discover", "initialize", "notifications/initialized"]
        # A second connection to the same server: no probe.
        again = KeyedTransport(refuse, key=transport.key)
        client = Client(transport=again)
        client.connect()
        assert [m["method"] for m in again.sent] == ["initialize", "notifications/initialized"]
        assert (client.era, client.protocol_version) == ("legacy", "2025-11-25")

    @pytest.mark.parametrize("code", [-32601, -32602, -32600, -32000])
    def test_any_non_modern_error_means_legacy(self, code: int) -> None:
        transport = KeyedTransport({"server/discover": lambda r: error(r, code, "no")})
        assert Client(transport=transport).connect() == INITIALIZE_RESULT

    def test_unsupported_version_is_retried_with_a_supported_one_not_initialize(self) -> None:
        answers = iter([
            lambda r: error(r, -32022, "Unsupported protocol version", {"supported": [V], "requested": "x"}),
            lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": DISCOVER},
        ])
        transport = KeyedTransport({"server/discover": lambda r: next(answers)(r)})
        client = Client(transport=transport)
        client.connect()
        assert [m["method"] for m in transport.sent] == ["server/discover", "server/discover"]
        assert transport.sent[0]["id"] != transport.sent[1]["id"]
        assert client.era == "modern"

    def test_a_header_mismatch_on_discover_is_a_modern_error_not_a_fallback(self) -> None:
        transport = KeyedTransport({"server/discover": lambda r: error(r, -32020, "Header mismatch")})
        with pytest.raises(Client.ServerError, match="Header mismatch"):
            Client(transport=transport).connect()
        assert [m["method"] for m in transport.sent] == ["server/discover"]

    def test_modern_mode_never_sends_initialize(self) -> None:
        transport = KeyedTransport({"server/discover": lambda r: error(r, -32601, "Method not found")})
        with pytest.raises(Client.ServerError):
            Client(transport=transport).connect(mode="modern")
        assert [m["method"] for m in transport.sent] == ["server/discover"]

    def test_legacy_mode_never_probes(self) -> None:
        transport = KeyedTransport()
        Client(transport=transport).connect(mode="legacy")
        assert [m["method"] for m in transport.sent] == ["initialize", "notifications/initialized"]

    def test_unknown_mode_is_refused(self) -> None:
        with pytest.raises(ValueError, match="mode"):
            Client(transport=KeyedTransport()).connect(mode="sometimes")


class TestEnvelope:
    def test_every_request_carries_version_capabilities_client_info_and_log_level(self) -> None:
        client, transport = modern_client({"tools/call": {"resultType": "complete", "content": []}})
        client.on_elicitation(lambda params: {"action": "decline"})
        client.on_roots(lambda params: [])
        client.log_level = "info"
        client.call_tool(name="echo", arguments={"m": 1}, meta={"traceparent": "00-abc"})
        request = transport.sent[-1]
        assert request == {
            "jsonrpc": "2.0", "id": 2, "method": "tools/call",
            "params": {"name": "echo", "arguments": {"m": 1}, "_meta": {
                "traceparent": "00-abc",
                **ENVELOPE,
                "io.modelcontextprotocol/clientCapabilities": {
                    "elicitation": {"form": {}}, "roots": {"listChanged": True},
                    "extensions": {"io.modelcontextprotocol/tasks": {}},  # tools/call may become a task
                },
                "io.modelcontextprotocol/logLevel": "info",
            }},
        }
        wire_schema.assert_valid("CallToolRequest", request, V)

    def test_ping_and_set_logging_level_map_to_the_2026_methods(self) -> None:
        client, transport = modern_client({})
        assert client.ping() == {}
        assert client.set_logging_level("debug") == {}
        assert [m["method"] for m in transport.sent] == ["server/discover", "server/discover"]
        assert client.log_level == "debug"
        with pytest.raises(ValueError):
            client.log_level = "loud"


class TestResultType:
    def test_absent_means_complete(self) -> None:
        client, _ = modern_client({"tools/call": {"content": [{"type": "text", "text": "ok"}]}})
        assert client.call_tool(name="x")["result"]["content"][0]["text"] == "ok"

    def test_an_unknown_value_is_a_validation_error(self) -> None:
        client, _ = modern_client({"tools/call": {"resultType": "partial", "content": []}})
        with pytest.raises(Client.ValidationError, match="unknown resultType 'partial'"):
            client.call_tool(name="x")

    def test_input_required_on_a_list_is_a_validation_error(self) -> None:
        client, _ = modern_client({"tools/list": {"resultType": "input_required", "requestState": "s"}})
        with pytest.raises(Client.ValidationError, match="input_required"):
            client.list_tools()


ELICIT = {"method": "elicitation/create", "params": {
    "mode": "form", "message": "Name?",
    "requestedSchema": {"type": "object", "properties": {"name": {"type": "string", "default": "Ada"}}},
}}


class TestMultiRoundTrip:
    def test_handlers_answer_and_the_retry_echoes_request_state_exactly(self) -> None:
        state = " opaque \u00e9 {\"not\": \"parsed\"} "
        rounds = [
            {"resultType": "input_required", "inputRequests": {"who": ELICIT}, "requestState": state},
            {"resultType": "input_required", "requestState": "second"},
            {"resultType": "complete", "content": [{"type": "text", "text": "done"}]},
        ]
        client, transport = modern_client({"tools/call": rounds})
        client.on_elicitation(lambda params: {"action": "accept", "content": {}})
        response = client.call_tool(name="book", arguments={"day": "mon"})
        assert response["result"]["content"][0]["text"] == "done"
        calls = [m for m in transport.sent if m["method"] == "tools/call"]
        assert [c["id"] for c in calls] == [2, 3, 4]
        assert "inputResponses" not in calls[0]["params"] and "requestState" not in calls[0]["params"]
        # Defaults filled in (SEP-1034), the state byte for byte.
        assert calls[1]["params"]["inputResponses"] == {"who": {"action": "accept", "content": {"name": "Ada"}}}
        assert calls[1]["params"]["requestState"] == state
        assert calls[2]["params"]["requestState"] == "second" and "inputResponses" not in calls[2]["params"]
        for call in calls:
            assert call["params"]["name"] == "book" and call["params"]["arguments"] == {"day": "mon"}
            wire_schema.assert_valid("CallToolRequest", call, V)

    def test_no_request_state_when_the_server_sent_none(self) -> None:
        rounds = [{"resultType": "input_required", "inputRequests": {"r": {"method": "roots/list"}}},
                  {"resultType": "complete", "messages": []}]
        client, transport = modern_client({"prompts/get": rounds})
        client.on_roots(lambda params: [{"uri": "file:///a"}])
        client.get_prompt("p")
        retry = transport.sent[-1]["params"]
        assert retry["inputResponses"] == {"r": {"roots": [{"uri": "file:///a"}]}} and "requestState" not in retry

    def test_rounds_are_bounded(self) -> None:
        forever = lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": {"resultType": "input_required", "requestState": "again"}}  # noqa: E731
        client, transport = modern_client({"tools/call": forever}, max_input_rounds=3)
        with pytest.raises(Client.InputRequiredError, match="after 3 rounds"):
            client.call_tool(name="x")
        assert len([m for m in transport.sent if m["method"] == "tools/call"]) == 4

    def test_a_request_no_handler_answers_names_what_was_asked(self) -> None:
        client, transport = modern_client({"resources/read": {"resultType": "input_required", "inputRequests": {
            "llm": {"method": "sampling/createMessage", "params": {"messages": [], "maxTokens": 5}}}}})
        with pytest.raises(Client.InputRequiredError, match=r"sampling/createMessage \(input 'llm'\).*on_sampling") as info:
            client.read_resource("file:///x")
        assert info.value.method == "sampling/createMessage"
        assert len([m for m in transport.sent if m["method"] == "resources/read"]) == 1


class TestCache:
    def test_results_with_ttl_are_served_until_a_list_changed(self) -> None:
        listing = {"resultType": "complete", "tools": [{"name": "a", "inputSchema": {"type": "object"}}],
                   "ttlMs": 60000, "cacheScope": "public"}
        client, transport = modern_client({"tools/list": lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": listing}})
        assert [tool.name for tool in client.tools()] == ["a"]
        assert [tool.name for tool in client.tools()] == ["a"]
        assert [m["method"] for m in transport.sent].count("tools/list") == 1
        transport.deliver({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        client.tools()
        assert [m["method"] for m in transport.sent].count("tools/list") == 2

    def test_zero_ttl_mrtr_retries_and_cache_false_are_never_cached(self) -> None:
        read = {"resultType": "complete", "contents": [], "ttlMs": 0, "cacheScope": "private"}
        client, transport = modern_client({"resources/read": lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": read}})
        client.read_resource("a://1")
        client.read_resource("a://1")
        assert [m["method"] for m in transport.sent].count("resources/read") == 2
        uncached, recording = modern_client({"prompts/list": lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": {
            "prompts": [], "ttlMs": 60000, "cacheScope": "public"}}}, cache=False)
        uncached.prompts()
        uncached.prompts()
        assert [m["method"] for m in recording.sent].count("prompts/list") == 2


class TestToolHeaders:
    def test_tools_with_invalid_annotations_are_dropped_over_http_only(self, caplog: pytest.LogCaptureFixture) -> None:
        from mcp_sdk.client import headers

        bad = {"type": "object", "properties": {"n": {"type": "number", "x-mcp-header": "N"}}}
        with pytest.raises(ValueError, match="type string, integer or boolean"):
            headers.annotated_paths(bad)
        listing = {"tools": [{"name": "bad", "inputSchema": bad}, {"name": "good", "inputSchema": {"type": "object"}}]}
        client, _ = modern_client({"tools/list": listing})
        # A transport without per-request headers (stdio) may ignore the annotations.
        assert [tool.name for tool in client.tools()] == ["bad", "good"]
        assert caplog.records == [] or all(r.levelno < logging.WARNING for r in caplog.records)


def test_modern_constants() -> None:
    assert wire_2026.MODERN_VERSIONS == (V,)


class TestBrokenStreams:
    def test_a_request_lost_with_its_stream_is_sent_again_once_under_a_new_id(self) -> None:
        from mcp_sdk import TransportError

        failures = [TransportError("stream broke")]

        def flaky(request: Message) -> Message:
            if failures:
                raise failures.pop()
            return {"jsonrpc": "2.0", "id": request["id"], "result": {"content": []}}

        client, transport = modern_client({"tools/call": flaky})
        client.call_tool(name="x", meta={"traceparent": "00-1"})
        first, second = [m for m in transport.sent if m["method"] == "tools/call"]
        assert first["id"] != second["id"] and first["params"] == second["params"]
        failures.extend([TransportError("again"), TransportError("and again")])
        with pytest.raises(TransportError, match="and again|again"):
            client.call_tool(name="x")


class TestMoreOfTheModernPath:
    def test_a_header_mismatch_lists_the_tools_again_and_retries_once(self) -> None:
        answers = [lambda r: error(r, -32020, "Header mismatch"),
                   lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": {"content": []}}]
        client, transport = modern_client({"tools/call": lambda r: answers.pop(0)(r), "tools/list": {"tools": []}})
        client.call_tool(name="x")
        assert [m["method"] for m in transport.sent[1:]] == ["tools/call", "tools/list", "tools/call"]

    def test_cancelling_on_a_stream_less_transport_sends_notifications_cancelled(self) -> None:
        import threading

        from mcp_sdk import Cancellation, CancelledError
        from spec.support.client_fake_transport import HangingTransport

        transport = HangingTransport({"server/discover": DISCOVER})
        client = Client(transport=transport)
        client.connect(mode="modern")
        cancellation = Cancellation()
        threading.Timer(0.2, cancellation.cancel, kwargs={"reason": "user"}).start()
        with pytest.raises(CancelledError):
            client.call_tool(name="slow", cancellation=cancellation)
        call = transport.requests()[-1]
        cancelled = transport.notifications()[-1]
        assert cancelled == {"jsonrpc": "2.0", "method": "notifications/cancelled",
                             "params": {"requestId": call["id"], "reason": "user"}}

    def test_private_results_are_cached_per_auth_context(self) -> None:
        class AuthTransport(KeyedTransport):
            token = "a"

            def auth_context(self) -> str:
                return self.token

        read = {"contents": [], "ttlMs": 60000, "cacheScope": "private"}
        transport = AuthTransport({"server/discover": DISCOVER,
                                   "resources/read": lambda r: {"jsonrpc": "2.0", "id": r["id"], "result": read}})
        client = Client(transport=transport)
        client.connect()
        client.read_resource("a://1")
        client.read_resource("a://1")
        transport.token = "b"
        client.read_resource("a://1")
        assert [m["method"] for m in transport.sent].count("resources/read") == 2
        client.read_resource("a://2")
        transport.deliver({"jsonrpc": "2.0", "method": "notifications/resources/updated", "params": {"uri": "a://1"}})
        client.read_resource("a://1")
        assert [m["method"] for m in transport.sent].count("resources/read") == 4

    def test_listen_opens_again_after_a_dropped_stream_and_close_ends_it(self) -> None:
        from mcp_sdk import TransportError
        from spec.support.client_fake_transport import hang_until_cancelled

        transport: KeyedTransport
        attempts: list[Message] = []

        class ListenTransport(KeyedTransport):
            def send_request(self, request: Message, *, timeout: float | None = None,
                             cancellation: t.Any = None) -> Message:
                if request["method"] != "subscriptions/listen":
                    return super().send_request(request, timeout=timeout, cancellation=cancellation)
                attempts.append(request)
                if len(attempts) == 1:
                    raise TransportError("stream dropped")
                self.deliver({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
                    "_meta": {"io.modelcontextprotocol/subscriptionId": request["id"]},
                    "notifications": {"toolsListChanged": True}}})
                self.deliver({"jsonrpc": "2.0", "method": "notifications/tools/list_changed", "params": {
                    "_meta": {"io.modelcontextprotocol/subscriptionId": request["id"]}}})
                return hang_until_cancelled(request, None, cancellation)

        transport = ListenTransport({"server/discover": DISCOVER})
        client = Client(transport=transport)
        seen: list[str] = []
        client.on_notification(lambda method, params: seen.append("handler " + method))
        client.connect()
        subscription = client.listen(tools=True, callback=lambda method, params: seen.append("callback " + method),
                                     wait=30)
        assert subscription.acknowledged == {"toolsListChanged": True}
        assert [a["params"]["notifications"] for a in attempts] == [{"toolsListChanged": True}] * 2
        assert attempts[0]["id"] != attempts[1]["id"] == subscription.request_id
        wire_schema.assert_valid("SubscriptionsListenRequest", attempts[1], V)
        assert seen == ["callback notifications/tools/list_changed", "handler notifications/tools/list_changed"]
        client.close()
        assert not subscription.active
        assert transport.notifications()[-1]["params"]["requestId"] == subscription.request_id


    def test_a_listen_the_server_ends_gracefully_is_opened_again_and_tells_what_may_have_been_missed(self) -> None:
        import threading

        from spec.support.client_fake_transport import hang_until_cancelled

        attempts: list[Message] = []
        TAG = "io.modelcontextprotocol/subscriptionId"

        class EndingTransport(KeyedTransport):
            def send_request(self, request: Message, *, timeout: float | None = None,
                             cancellation: t.Any = None) -> Message:
                if request["method"] != "subscriptions/listen":
                    return super().send_request(request, timeout=timeout, cancellation=cancellation)
                attempts.append(request)
                self.deliver({"jsonrpc": "2.0", "method": "notifications/subscriptions/acknowledged", "params": {
                    "_meta": {TAG: request["id"]}, "notifications": {"toolsListChanged": True, "resourceSubscriptions": ["a://1"]}}})
                if len(attempts) == 1:  # the server ends the first listen with its result (graceful closure)
                    return {"jsonrpc": "2.0", "id": request["id"], "result": {"_meta": {TAG: request["id"]}, "resultType": "complete"}}
                return hang_until_cancelled(request, None, cancellation)

        listed = {"tools": [], "ttlMs": 60000, "cacheScope": "public"}
        transport = EndingTransport({"server/discover": DISCOVER, "tools/list": listed})
        client = Client(transport=transport)
        seen: list[tuple[str, t.Any]] = []
        relistened = threading.Event()

        def handler(method: str, params: dict[str, t.Any]) -> None:
            seen.append((method, params))
            if len(seen) == 2:
                relistened.set()

        client.on_notification(handler)
        client.connect()
        client.list_tools()
        client.list_tools()  # from the cache
        subscription = client.listen(tools=True, resource_uris=["a://1"], wait=30)
        assert relistened.wait(30)
        second = attempts[1]["id"]
        assert seen == [("notifications/tools/list_changed", {"_meta": {TAG: second}}),
                        ("notifications/resources/updated", {"_meta": {TAG: second}, "uri": "a://1"})]
        assert subscription.attempts == 2 and subscription.request_id == second and subscription.active
        client.list_tools()  # the cache was dropped: listed again
        assert [m["method"] for m in transport.sent].count("tools/list") == 2
        client.close()
        assert not subscription.active


def test_a_result_that_took_input_rounds_is_never_cached() -> None:
    rounds = [
        {"resultType": "input_required", "requestState": "s"},
        {"resultType": "complete", "contents": [], "ttlMs": 60000, "cacheScope": "public"},
        {"resultType": "complete", "contents": [], "ttlMs": 60000, "cacheScope": "public"},
    ]
    client, transport = modern_client({"resources/read": rounds})
    client.read_resource("a://1")
    client.read_resource("a://1")  # not from the cache: the first result depended on the retry
    client.read_resource("a://1")  # from the cache: the second came in one round
    assert [m["method"] for m in transport.sent].count("resources/read") == 3
