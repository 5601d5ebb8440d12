"""Client: the exact messages each method sends, and what it makes of the answers."""

from __future__ import annotations

import threading
import typing as t

import pytest

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import ListToolsResult, ServerError, ValidationError
from spec.support import wire_schema
from spec.support.client_fake_transport import INITIALIZE_RESULT, HangingTransport, RecordingTransport


def connected(results: dict[str, t.Any] | None = None, **options: t.Any) -> tuple[Client, RecordingTransport]:
    transport = RecordingTransport(results)
    client = Client(transport=transport, **options)
    client.connect(mode="legacy")
    transport.sent.clear()
    return client, transport


def error_response(request: dict[str, t.Any], code: int, message: str, data: t.Any = None) -> dict[str, t.Any]:
    error: dict[str, t.Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    return {"jsonrpc": "2.0", "id": request["id"], "error": error}


class TestConnect:
    def test_sends_initialize_then_initialized(self) -> None:
        transport = RecordingTransport()
        client = Client(transport=transport)
        result = client.connect(mode="legacy")
        assert transport.sent == [
            {
                "jsonrpc": "2.0",
                "id": 1,
                "method": "initialize",
                "params": {
                    "protocolVersion": "2025-11-25",
                    "capabilities": {},
                    "clientInfo": {"name": "mcp_sdk", "version": mcp_sdk.__version__},
                },
            },
            {"jsonrpc": "2.0", "method": "notifications/initialized"},
        ]
        wire_schema.assert_valid("InitializeRequest", transport.sent[0])
        wire_schema.assert_valid("InitializedNotification", transport.sent[1])
        assert result == INITIALIZE_RESULT

    def test_exposes_what_the_server_said(self) -> None:
        client, _ = connected()
        assert client.connected
        assert client.protocol_version == "2025-11-25"
        assert client.server_info == {"name": "fake", "version": "9.9.9"}
        assert client.server_capabilities == {"tools": {"listChanged": True}, "logging": {}}
        assert client.instructions == "Be nice."
        assert client.initialize_result == INITIALIZE_RESULT

    def test_before_connect_nothing_is_known(self) -> None:
        client = Client(transport=RecordingTransport())
        assert not client.connected
        assert client.server_info is None and client.server_capabilities is None and client.instructions is None
        assert client.protocol_version is None

    def test_client_info_version_and_capabilities(self) -> None:
        transport = RecordingTransport({"initialize": {**INITIALIZE_RESULT, "protocolVersion": "2025-06-18"}})
        client = Client(transport=transport)
        client.connect(
            client_info={"name": "app", "version": "2.0"},
            protocol_version="2025-06-18",
            capabilities={"experimental": {"x": {}}},
        )
        assert transport.sent[0]["params"] == {
            "protocolVersion": "2025-06-18",
            "capabilities": {"experimental": {"x": {}}},
            "clientInfo": {"name": "app", "version": "2.0"},
        }
        assert client.protocol_version == "2025-06-18"

    def test_capabilities_follow_the_handlers(self) -> None:
        transport = RecordingTransport()
        client = Client(transport=transport)
        client.on_sampling(lambda params: {})
        client.on_elicitation(lambda params: {}, url=True)
        client.on_roots(lambda params: [])
        client.connect(mode="legacy", capabilities={"sampling": {"tools": {}}})
        assert transport.sent[0]["params"]["capabilities"] == {
            "sampling": {"tools": {}},  # explicit capabilities win
            "elicitation": {"form": {}, "url": {}},
            "roots": {"listChanged": True},
        }
        wire_schema.assert_valid("InitializeRequest", transport.sent[0])

    def test_form_only_elicitation(self) -> None:
        client = Client(transport=RecordingTransport())

        @client.on_elicitation
        def elicit(params: dict[str, t.Any]) -> dict[str, t.Any]:
            return {"action": "cancel"}

        assert client.capabilities() == {"elicitation": {"form": {}}}

    def test_unsupported_protocol_version_is_refused(self) -> None:
        transport = RecordingTransport({"initialize": {**INITIALIZE_RESULT, "protocolVersion": "1999-01-01"}})
        client = Client(transport=transport)
        with pytest.raises(ValidationError, match="1999-01-01"):
            client.connect(mode="legacy")
        assert not client.connected
        assert [m["method"] for m in transport.sent] == ["initialize"]  # no initialized notification

    def test_server_error_on_initialize(self) -> None:
        transport = RecordingTransport({"initialize": lambda r: error_response(r, -32602, "Unsupported protocol version")})
        with pytest.raises(ServerError) as raised:
            Client(transport=transport).connect(mode="legacy")
        assert raised.value.code == -32602

    def test_close_closes_the_transport(self) -> None:
        transport = RecordingTransport()
        with Client(transport=transport):
            pass
        assert transport.closed


class TestRequests:
    def test_ping(self) -> None:
        client, transport = connected()
        assert client.ping() == {}
        assert transport.sent == [{"jsonrpc": "2.0", "id": 2, "method": "ping"}]
        wire_schema.assert_valid("PingRequest", transport.sent[0])

    def test_ids_are_unique_across_threads(self) -> None:
        client, transport = connected()
        threads = [threading.Thread(target=lambda: [client.ping() for _ in range(50)]) for _ in range(4)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(10)
        ids = [message["id"] for message in transport.sent]
        assert len(ids) == 200 and len(set(ids)) == 200

    def test_list_tools_one_page(self) -> None:
        tool = {
            "name": "echo",
            "title": "Echo",
            "description": "Echoes",
            "inputSchema": {"type": "object", "properties": {"m": {"type": "string"}}},
            "outputSchema": {"type": "object"},
            "annotations": {"readOnlyHint": True},
            "_meta": {"v": 1},
        }
        client, transport = connected({"tools/list": {"tools": [tool], "nextCursor": "c2"}})
        page = client.list_tools()
        assert transport.sent == [{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}]
        assert isinstance(page, ListToolsResult)
        assert page.next_cursor == "c2"
        (listed,) = page.tools
        assert isinstance(listed, Client.Tool)
        assert (listed.name, listed.title, listed.description) == ("echo", "Echo", "Echoes")
        assert listed.input_schema == tool["inputSchema"]
        assert listed.output_schema == {"type": "object"}
        assert listed.annotations == {"readOnlyHint": True}
        assert listed.meta == {"v": 1}
        assert listed.to_dict() == tool

    def test_list_with_cursor_and_meta(self) -> None:
        client, transport = connected({"prompts/list": {"prompts": [{"name": "p"}]}})
        page = client.list_prompts(cursor="abc", meta={"traceparent": "00-1-2-01"})
        assert transport.sent == [
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "prompts/list",
                "params": {"cursor": "abc", "_meta": {"traceparent": "00-1-2-01"}},
            }
        ]
        wire_schema.assert_valid("ListPromptsRequest", transport.sent[0])
        assert page.prompts == [{"name": "p"}] and page.next_cursor is None

    def test_list_resources_and_templates(self) -> None:
        client, transport = connected(
            {
                "resources/list": {"resources": [{"uri": "a://1", "name": "one"}], "nextCursor": "n"},
                "resources/templates/list": {"resourceTemplates": [{"uriTemplate": "a://{x}", "name": "t"}]},
            }
        )
        assert client.list_resources().resources == [{"uri": "a://1", "name": "one"}]
        assert client.list_resource_templates().resource_templates == [{"uriTemplate": "a://{x}", "name": "t"}]
        assert [m["method"] for m in transport.sent] == ["resources/list", "resources/templates/list"]

    def test_all_pages(self) -> None:
        pages = [
            {"tools": [{"name": "a"}], "nextCursor": "1"},
            {"tools": [{"name": "b"}], "nextCursor": "2"},
            {"tools": [{"name": "c"}]},
        ]
        client, transport = connected({"tools/list": pages})
        assert [tool.name for tool in client.tools()] == ["a", "b", "c"]
        assert [m.get("params") for m in transport.sent] == [None, {"cursor": "1"}, {"cursor": "2"}]

    def test_all_pages_stops_on_a_repeated_cursor(self) -> None:
        pages = [
            {"prompts": [{"name": "a"}], "nextCursor": "x"},
            {"prompts": [{"name": "b"}], "nextCursor": "y"},
            {"prompts": [{"name": "c"}], "nextCursor": "x"},
        ]
        client, transport = connected({"prompts/list": pages})
        assert client.prompts() == [{"name": "a"}, {"name": "b"}, {"name": "c"}]
        assert len(transport.sent) == 3

    def test_all_pages_stops_after_max_pages(self) -> None:
        counter = iter(range(1000))

        def endless(request: dict[str, t.Any]) -> dict[str, t.Any]:
            number = next(counter)
            return {"jsonrpc": "2.0", "id": request["id"], "result": {"resources": [{"n": number}], "nextCursor": str(number)}}

        client, transport = connected({"resources/list": endless}, max_pages=5)
        assert client.resources() == [{"n": n} for n in range(5)]
        assert len(transport.sent) == 5

    def test_resource_templates_all_pages(self) -> None:
        client, _ = connected({"resources/templates/list": {"resourceTemplates": [{"uriTemplate": "x://{y}", "name": "y"}]}})
        assert client.resource_templates() == [{"uriTemplate": "x://{y}", "name": "y"}]

    def test_call_tool_by_name(self) -> None:
        content = {"content": [{"type": "text", "text": "hi"}], "isError": False}
        client, transport = connected({"tools/call": content})
        response = client.call_tool(name="echo", arguments={"message": "hi"})
        assert response == {"jsonrpc": "2.0", "id": 2, "result": content}
        assert transport.sent == [
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "echo", "arguments": {"message": "hi"}}}
        ]
        wire_schema.assert_valid("CallToolRequest", transport.sent[0])

    def test_call_tool_by_tool_with_progress_token_and_meta(self) -> None:
        client, transport = connected({"tools/call": {"content": []}})
        tool = Client.Tool(name="count")
        client.call_tool(
            tool=tool,
            progress_token="tok",
            meta={"progressToken": "ignored", "traceparent": "00-a-b-01", "tracestate": "k=v", "baggage": "u=1"},
        )
        assert transport.sent == [
            {
                "jsonrpc": "2.0",
                "id": 2,
                "method": "tools/call",
                "params": {
                    "name": "count",
                    "_meta": {"progressToken": "tok", "traceparent": "00-a-b-01", "tracestate": "k=v", "baggage": "u=1"},
                },
            }
        ]
        wire_schema.assert_valid("CallToolRequest", transport.sent[0])

    def test_call_tool_needs_a_name(self) -> None:
        client, transport = connected()
        with pytest.raises(TypeError, match="name= or tool="):
            client.call_tool(arguments={})
        assert transport.sent == []

    def test_read_resource(self) -> None:
        contents = [{"uri": "a://1", "text": "x"}]
        client, transport = connected({"resources/read": {"contents": contents}})
        assert client.read_resource(uri="a://1", meta={"traceparent": "t"}) == contents
        assert transport.sent == [
            {"jsonrpc": "2.0", "id": 2, "method": "resources/read", "params": {"uri": "a://1", "_meta": {"traceparent": "t"}}}
        ]
        wire_schema.assert_valid("ReadResourceRequest", transport.sent[0])

    def test_get_prompt(self) -> None:
        result = {"messages": [{"role": "user", "content": {"type": "text", "text": "Hi Ann"}}]}
        client, transport = connected({"prompts/get": result})
        assert client.get_prompt(name="greet", arguments={"name": "Ann"}) == result
        assert transport.sent[0]["params"] == {"name": "greet", "arguments": {"name": "Ann"}}
        client.get_prompt("plain")
        assert transport.sent[1]["params"] == {"name": "plain"}
        wire_schema.assert_valid("GetPromptRequest", transport.sent[0])

    def test_complete(self) -> None:
        client, transport = connected({"completion/complete": {"completion": {"values": ["py", "pyx"], "hasMore": False}}})
        completion = client.complete(
            ref={"type": "ref/prompt", "name": "code"},
            argument={"name": "lang", "value": "py"},
            context={"arguments": {"style": "short"}},
        )
        assert completion == {"values": ["py", "pyx"], "hasMore": False}
        assert transport.sent[0]["params"] == {
            "ref": {"type": "ref/prompt", "name": "code"},
            "argument": {"name": "lang", "value": "py"},
            "context": {"arguments": {"style": "short"}},
        }
        wire_schema.assert_valid("CompleteRequest", transport.sent[0])

    def test_meta_on_every_request(self) -> None:
        client, transport = connected(
            {
                "tools/list": {"tools": []},
                "resources/list": {"resources": []},
                "resources/templates/list": {"resourceTemplates": []},
                "prompts/list": {"prompts": []},
                "resources/read": {"contents": []},
                "prompts/get": {"messages": []},
                "completion/complete": {"completion": {"values": []}},
            }
        )
        meta = {"traceparent": "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01"}
        client.ping(meta=meta)
        client.list_tools(meta=meta)
        client.list_resources(meta=meta)
        client.list_resource_templates(meta=meta)
        client.list_prompts(meta=meta)
        client.call_tool(name="x", meta=meta)
        client.read_resource("a://b", meta=meta)
        client.get_prompt("p", meta=meta)
        client.complete({"type": "ref/prompt", "name": "p"}, {"name": "a", "value": ""}, meta=meta)
        client.request("custom/method", {"a": 1}, meta=meta)
        assert all(message["params"]["_meta"] == meta for message in transport.sent)
        assert transport.sent[-1]["params"] == {"a": 1, "_meta": meta}

    def test_logging_and_subscriptions(self) -> None:
        client, transport = connected()
        client.set_logging_level("debug")
        client.subscribe_resource("a://1")
        client.unsubscribe_resource("a://1")
        assert [(m["method"], m["params"]) for m in transport.sent] == [
            ("logging/setLevel", {"level": "debug"}),
            ("resources/subscribe", {"uri": "a://1"}),
            ("resources/unsubscribe", {"uri": "a://1"}),
        ]
        wire_schema.assert_valid("SetLevelRequest", transport.sent[0])

    def test_notifications_the_client_sends(self) -> None:
        client, transport = connected()
        client.notify_roots_list_changed()
        client.cancel(7, reason="no longer needed")
        client.cancel("abc")
        assert transport.sent == [
            {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 7, "reason": "no longer needed"}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": "abc"}},
        ]
        wire_schema.assert_valid("CancelledNotification", transport.sent[1])
        wire_schema.assert_valid("RootsListChangedNotification", transport.sent[0])

    def test_timeouts_reach_the_transport(self) -> None:
        client, transport = connected(timeout=7.0)
        client.ping()
        client.ping(timeout=1.5)
        assert transport.timeouts[-2:] == [7.0, 1.5]


class TestErrors:
    def test_server_error(self) -> None:
        client, _ = connected(
            {"tools/call": lambda r: error_response(r, -32602, "Unknown tool: nope", {"name": "nope"})}
        )
        with pytest.raises(Client.ServerError) as raised:
            client.call_tool(name="nope")
        error = raised.value
        assert (error.message, error.code, error.data) == ("Unknown tool: nope", -32602, {"name": "nope"})
        assert isinstance(error, mcp_sdk.JSONRPCError) and isinstance(error, mcp_sdk.MCPError)
        assert "Unknown tool: nope" in str(error)

    @pytest.mark.parametrize(
        "response",
        [
            {"jsonrpc": "2.0", "id": 2},  # neither result nor error
            {"jsonrpc": "2.0", "id": 2, "result": []},
            {"jsonrpc": "2.0", "id": 2, "result": None},
            {"jsonrpc": "2.0", "id": 2, "error": "boom"},
            {"jsonrpc": "2.0", "id": 99, "result": {}},  # someone else's response
            "not a dict",
        ],
    )
    def test_malformed_responses(self, response: t.Any) -> None:
        client, _ = connected({"ping": lambda r: response})
        with pytest.raises(Client.ValidationError) as raised:
            client.ping()
        assert isinstance(raised.value, mcp_sdk.ValidationError)

    @pytest.mark.parametrize(
        ("method", "result"),
        [
            ("tools/list", {"tools": "nope"}),
            ("tools/list", {"tools": [{"title": "nameless"}]}),
            ("tools/list", {"tools": [], "nextCursor": 5}),
            ("resources/read", {"contents": {}}),
            ("completion/complete", {}),
        ],
    )
    def test_malformed_results_never_raise_key_error(self, method: str, result: dict[str, t.Any]) -> None:
        client, _ = connected({method: result})
        call = {
            "tools/list": client.list_tools,
            "resources/read": lambda: client.read_resource("a://b"),
            "completion/complete": lambda: client.complete({"type": "ref/prompt", "name": "p"}, {"name": "a", "value": ""}),
        }[method]
        with pytest.raises(Client.ValidationError):
            call()

    def test_missing_keys_default_to_empty(self) -> None:
        client, _ = connected({"tools/list": {}, "resources/read": {}})
        assert client.list_tools().tools == []
        assert client.read_resource("a://b") == []


class TestCancellation:
    def test_cancellation_from_another_thread(self) -> None:
        transport = HangingTransport()
        client = Client(transport=transport)
        client.connect(mode="legacy")
        cancellation = mcp_sdk.Cancellation()
        timer = threading.Timer(0.1, cancellation.cancel, kwargs={"reason": "user pressed stop"})
        timer.start()
        with pytest.raises(mcp_sdk.CancelledError) as raised:
            client.call_tool(name="slow", cancellation=cancellation, timeout=10)
        timer.join()
        assert raised.value.reason == "user pressed stop"
        assert transport.sent[-2:] == [
            {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "slow"}},
            {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 2, "reason": "user pressed stop"}},
        ]

    def test_already_cancelled_sends_nothing(self) -> None:
        client, transport = connected()
        cancellation = mcp_sdk.Cancellation()
        cancellation.cancel()
        with pytest.raises(mcp_sdk.CancelledError):
            client.ping(cancellation=cancellation)
        assert transport.sent == []

    def test_timeout_cancels_the_request(self) -> None:
        transport = HangingTransport()
        client = Client(transport=transport)
        client.connect(mode="legacy")
        with pytest.raises(mcp_sdk.RequestTimeoutError, match="tools/call got no response within 0.05 seconds"):
            client.call_tool(name="slow", timeout=0.05)
        assert transport.sent[-1] == {
            "jsonrpc": "2.0",
            "method": "notifications/cancelled",
            "params": {"requestId": 2, "reason": "Request timed out"},
        }


class TestServerRequests:
    def test_sampling(self) -> None:
        client, transport = connected()
        seen: list[dict[str, t.Any]] = []
        answer = {"role": "assistant", "content": {"type": "text", "text": "4"}, "model": "m", "stopReason": "endTurn"}

        @client.on_sampling
        def sample(params: dict[str, t.Any]) -> dict[str, t.Any]:
            seen.append(params)
            return answer

        params = {"messages": [{"role": "user", "content": {"type": "text", "text": "2+2"}}], "maxTokens": 5}
        response = transport.deliver({"jsonrpc": "2.0", "id": 5, "method": "sampling/createMessage", "params": params})
        assert response == {"jsonrpc": "2.0", "id": 5, "result": answer}
        assert seen == [params]
        wire_schema.assert_valid_response("sampling/createMessage", t.cast(dict, response))

    def test_decorators_and_calls_return_the_function(self) -> None:
        client = Client(transport=RecordingTransport())

        def handler(params: dict[str, t.Any]) -> dict[str, t.Any]:
            return {}

        for register in (client.on_sampling, client.on_elicitation, client.on_roots, client.on_progress,
                         client.on_log_message, client.on_notification):
            assert register(handler) is handler
            assert register()(handler) is handler
        assert client.on_elicitation(url=True)(handler) is handler

    def test_elicitation_fills_in_defaults(self) -> None:
        client, transport = connected()
        client.on_elicitation(lambda params: {"action": "accept", "content": {"name": "Jane", "extra": 1}})
        schema = {
            "type": "object",
            "properties": {
                "name": {"type": "string", "default": "John Doe"},
                "age": {"type": "integer", "default": 30},
                "score": {"type": "number", "default": 95.5},
                "status": {"type": "string", "enum": ["active", "inactive"], "default": "active"},
                "verified": {"type": "boolean", "default": True},
                "nickname": {"type": "string"},
            },
        }
        response = transport.deliver(
            {"jsonrpc": "2.0", "id": "e1", "method": "elicitation/create",
             "params": {"mode": "form", "message": "Who?", "requestedSchema": schema}}
        )
        assert response == {
            "jsonrpc": "2.0",
            "id": "e1",
            "result": {
                "action": "accept",
                "content": {"name": "Jane", "extra": 1, "age": 30, "score": 95.5, "status": "active", "verified": True},
            },
        }

    def test_elicitation_defaults_only_on_accept(self) -> None:
        client, transport = connected()
        client.on_elicitation(lambda params: {"action": "decline"})
        schema = {"type": "object", "properties": {"name": {"type": "string", "default": "x"}}}
        response = transport.deliver(
            {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create", "params": {"message": "?", "requestedSchema": schema}}
        )
        assert response == {"jsonrpc": "2.0", "id": 1, "result": {"action": "decline"}}

    def test_url_elicitation_is_passed_through(self) -> None:
        client, transport = connected()
        client.on_elicitation(lambda params: {"action": "accept"}, url=True)
        response = transport.deliver(
            {"jsonrpc": "2.0", "id": 1, "method": "elicitation/create",
             "params": {"mode": "url", "message": "Log in", "url": "https://x.example/login", "elicitationId": "e"}}
        )
        assert response == {"jsonrpc": "2.0", "id": 1, "result": {"action": "accept"}}

    def test_roots(self) -> None:
        client, transport = connected()
        client.on_roots(lambda params: [{"uri": "file:///home/me", "name": "home"}])
        response = transport.deliver({"jsonrpc": "2.0", "id": 3, "method": "roots/list"})
        assert response == {"jsonrpc": "2.0", "id": 3, "result": {"roots": [{"uri": "file:///home/me", "name": "home"}]}}
        wire_schema.assert_valid_response("roots/list", t.cast(dict, response))

    def test_ping_from_the_server(self) -> None:
        client, transport = connected()
        assert transport.deliver({"jsonrpc": "2.0", "id": 9, "method": "ping"}) == {"jsonrpc": "2.0", "id": 9, "result": {}}

    @pytest.mark.parametrize("method", ["sampling/createMessage", "elicitation/create", "roots/list", "something/else"])
    def test_no_handler_is_method_not_found(self, method: str) -> None:
        client, transport = connected()
        assert transport.deliver({"jsonrpc": "2.0", "id": 4, "method": method, "params": {}}) == {
            "jsonrpc": "2.0",
            "id": 4,
            "error": {"code": -32601, "message": f"Method not found: {method}"},
        }

    def test_handler_errors(self) -> None:
        client, transport = connected()

        @client.on_sampling
        def refuse(params: dict[str, t.Any]) -> dict[str, t.Any]:
            raise mcp_sdk.JSONRPCError("User rejected sampling request", -1)

        @client.on_roots
        def broken(params: dict[str, t.Any]) -> t.Any:
            raise RuntimeError("secret detail")

        assert transport.deliver({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {}}) == {
            "jsonrpc": "2.0", "id": 1, "error": {"code": -1, "message": "User rejected sampling request"},
        }
        assert transport.deliver({"jsonrpc": "2.0", "id": 2, "method": "roots/list"}) == {
            "jsonrpc": "2.0", "id": 2, "error": {"code": -32603, "message": "Internal error"},
        }

    def test_handler_returning_a_non_dict_is_an_internal_error(self) -> None:
        client, transport = connected()
        client.on_sampling(lambda params: "text")
        response = transport.deliver({"jsonrpc": "2.0", "id": 1, "method": "sampling/createMessage", "params": {}})
        assert response is not None and response["error"]["code"] == -32603


class TestNotifications:
    def test_progress_log_and_others(self) -> None:
        client, transport = connected()
        progress: list[t.Any] = []
        logs: list[t.Any] = []
        others: list[t.Any] = []
        client.on_progress(progress.append)
        client.on_log_message(logs.append)
        client.on_notification(lambda method, params: others.append((method, params)))
        assert transport.deliver({"jsonrpc": "2.0", "method": "notifications/progress",
                                  "params": {"progressToken": "t", "progress": 1, "total": 2}}) is None
        transport.deliver({"jsonrpc": "2.0", "method": "notifications/message",
                           "params": {"level": "info", "data": "hi", "logger": "x"}})
        transport.deliver({"jsonrpc": "2.0", "method": "notifications/tools/list_changed"})
        assert progress == [{"progressToken": "t", "progress": 1, "total": 2}]
        assert logs == [{"level": "info", "data": "hi", "logger": "x"}]
        assert others == [("notifications/tools/list_changed", {})]

    def test_without_handlers_notifications_are_ignored(self) -> None:
        _, transport = connected()
        assert transport.deliver({"jsonrpc": "2.0", "method": "notifications/progress", "params": {}}) is None


class TestStructuredContentValidation:
    TOOL = {"name": "stats", "inputSchema": {"type": "object"},
            "outputSchema": {"type": "object", "properties": {"count": {"type": "integer"}}, "required": ["count"]}}

    def test_off_by_default(self) -> None:
        client, _ = connected({"tools/list": {"tools": [self.TOOL]}, "tools/call": {"content": [], "structuredContent": {"count": "x"}}})
        client.tools()
        assert client.call_tool(name="stats")["result"]["structuredContent"] == {"count": "x"}

    def test_valid_content_passes(self) -> None:
        client, _ = connected({"tools/list": {"tools": [self.TOOL]}, "tools/call": {"content": [], "structuredContent": {"count": 2}}},
                              validate_structured_content=True)
        client.tools()
        assert client.call_tool(name="stats")["result"]["structuredContent"] == {"count": 2}

    def test_invalid_content_raises(self) -> None:
        client, _ = connected({"tools/call": {"content": [], "structuredContent": {"count": "two"}}}, validate_structured_content=True)
        tool = Client.Tool.from_dict(self.TOOL)
        with pytest.raises(Client.ValidationError, match="Tool stats returned invalid structured content: count must be integer"):
            client.call_tool(tool=tool)

    def test_missing_content_raises_unless_error(self) -> None:
        client, _ = connected({"tools/call": [{"content": []}, {"content": [], "isError": True}]}, validate_structured_content=True)
        tool = Client.Tool.from_dict(self.TOOL)
        with pytest.raises(Client.ValidationError, match="no structuredContent"):
            client.call_tool(tool=tool)
        assert client.call_tool(tool=tool)["result"]["isError"] is True

    def test_schema_compiled_once(self, monkeypatch: pytest.MonkeyPatch) -> None:
        import fastjsonschema

        compiled: list[t.Any] = []
        original = fastjsonschema.compile_to_code
        monkeypatch.setattr(fastjsonschema, "compile_to_code", lambda *a, **k: compiled.append(a) or original(*a, **k))
        tool = Client.Tool.from_dict(self.TOOL)
        for _ in range(3):
            tool.validate_structured_content({"structuredContent": {"count": 1}})
        assert len(compiled) == 1

    def test_uncompilable_schema_is_not_enforced(self) -> None:
        tool = Client.Tool(name="odd", output_schema={"type": "object", "properties": {"x": {"type": "no-such-type"}}})
        tool.validate_structured_content({"structuredContent": {"x": 1}})
