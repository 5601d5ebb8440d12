"""Serving 2026-07-28 requests (mcp_sdk/server/requests_2026.py): removed methods, stamping,
cache hints, per-request log level, missing client capabilities."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk import Resource, Server
from spec.support.modern import MODERN, Recorder, asking_server, modern_request, serve, tool_call

INFO = {"io.modelcontextprotocol/serverInfo": {"name": "asking_example", "version": "1.0.0"}}


@pytest.fixture
def server() -> Server:
    return asking_server()


@pytest.mark.parametrize("method", ["initialize", "ping", "logging/setLevel", "resources/subscribe", "resources/unsubscribe"])
def test_removed_methods_are_method_not_found(server: Server, method: str) -> None:
    params = {"uri": "example://readme"} if method.startswith("resources/") else {"level": "info"} if method == "logging/setLevel" else {}
    assert serve(server, modern_request(method, params, id=4)) == {
        "jsonrpc": "2.0",
        "id": 4,
        "error": {"code": -32601, "message": f"Method not found: {method} is not part of protocol {MODERN}"},
    }


def test_server_discover_answers_versions_capabilities_and_cache_hints(server: Server) -> None:
    assert serve(server, modern_request("server/discover")) == {
        "jsonrpc": "2.0",
        "id": 1,
        "result": {
            "supportedVersions": [MODERN],
            "capabilities": {"tools": {"listChanged": True}, "prompts": {"listChanged": True}, "resources": {"listChanged": True}, "logging": {}},
            "_meta": INFO,
            "resultType": "complete",
            "ttlMs": 60000,
            "cacheScope": "public",
        },
    }


@pytest.mark.parametrize(
    "method, params",
    [
        ("tools/list", {}),
        ("prompts/list", {}),
        ("resources/list", {}),
        ("resources/templates/list", {}),
        ("completion/complete", {"ref": {"type": "ref/prompt", "name": "introduce"}, "argument": {"name": "a", "value": "b"}}),
        ("tools/call", {"name": "echo", "arguments": {"message": "hi"}}),
        ("prompts/get", {"name": "introduce"}),
        ("resources/read", {"uri": "example://readme"}),
    ],
)
def test_every_result_carries_result_type_and_server_info(server: Server, method: str, params: dict[str, t.Any]) -> None:
    response = serve(server, modern_request(method, params))
    assert response["result"]["resultType"] in ("complete", "input_required")
    assert response["result"]["_meta"] == INFO


def test_tools_list_order_is_stable(server: Server) -> None:
    first = serve(server, modern_request("tools/list"))["result"]["tools"]
    again = serve(server, modern_request("tools/list", id=2))["result"]["tools"]
    assert [tool["name"] for tool in first] == [tool["name"] for tool in again] == [
        "echo", "greet", "ask_llm", "show_roots", "plan", "confirm", "shout", "weather", "touch"
    ]


class TestCacheHints:
    @pytest.mark.parametrize("method", ["tools/list", "prompts/list", "resources/list", "resources/templates/list"])
    def test_lists_default_to_a_public_minute(self, server: Server, method: str) -> None:
        result = serve(server, modern_request(method))["result"]
        assert (result["ttlMs"], result["cacheScope"]) == (60000, "public")

    def test_a_read_defaults_to_private_and_uncached(self, server: Server) -> None:
        result = serve(server, modern_request("resources/read", {"uri": "example://readme"}))["result"]
        assert (result["ttlMs"], result["cacheScope"]) == (0, "private")

    def test_a_resource_sets_its_own(self, server: Server) -> None:
        result = serve(server, modern_request("resources/read", {"uri": "example://clock"}))["result"]
        assert (result["ttlMs"], result["cacheScope"]) == (1000, "private")

    def test_the_server_sets_them_for_everything_else(self) -> None:
        server = Server(
            name="cached", ttl_ms=5000, cache_scope="private",
            resources=[Resource(uri="a://one", name="one"), Resource(uri="a://two", name="two", ttl_ms=7, cache_scope="public")],
        )
        server.resources_read_handler(lambda params: [{"uri": params["uri"], "text": "x"}])
        for method in ("server/discover", "tools/list", "resources/list"):
            result = serve(server, modern_request(method))["result"]
            assert (result["ttlMs"], result["cacheScope"]) == (5000, "private"), method
        one = serve(server, modern_request("resources/read", {"uri": "a://one"}))["result"]
        two = serve(server, modern_request("resources/read", {"uri": "a://two"}))["result"]
        assert (one["ttlMs"], one["cacheScope"], two["ttlMs"], two["cacheScope"]) == (5000, "private", 7, "public")

    @pytest.mark.parametrize("bad", [{"ttl_ms": -1}, {"ttl_ms": 1.5}, {"ttl_ms": True}, {"cache_scope": "shared"}])
    def test_bad_values_are_refused_up_front(self, bad: dict[str, t.Any]) -> None:
        with pytest.raises(ValueError):
            Server(name="x", **bad)

    def test_results_of_2025_sessions_carry_none(self, server: Server) -> None:
        session = Recorder(server)
        server.handle_message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}}, session)
        result = server.handle_message({"jsonrpc": "2.0", "id": 1, "method": "tools/list"}, session)["result"]
        assert "ttlMs" not in result and "cacheScope" not in result


class TestLogLevel:
    def test_no_log_messages_without_a_log_level(self, server: Server) -> None:
        channel = Recorder(server)
        response = serve(server, tool_call("shout", {"message": "hi"}), channel)
        assert response["result"]["content"] == [{"type": "text", "text": "HI"}]
        assert channel.messages() == []

    def test_messages_at_or_above_the_request_level_relate_to_the_request(self, server: Server) -> None:
        channel = Recorder(server)
        serve(server, tool_call("shout", {"message": "hi"}, id="r1", log_level="info"), channel)
        assert channel.written == [
            ({"jsonrpc": "2.0", "method": "notifications/message", "params": {"level": "info", "data": {"said": "hi"}, "logger": "shout"}}, "r1")
        ]

    def test_debug_gets_both(self, server: Server) -> None:
        channel = Recorder(server)
        serve(server, tool_call("shout", {"message": "hi"}, log_level="debug"), channel)
        assert [message["params"]["level"] for message in channel.messages()] == ["debug", "info"]

    def test_the_level_belongs_to_one_request_only(self, server: Server) -> None:
        channel = Recorder(server)
        serve(server, tool_call("shout", {"message": "a"}, id=1, log_level="debug"), channel)
        serve(server, tool_call("shout", {"message": "b"}, id=2), channel)
        assert [related for _, related in channel.written] == [1, 1]


class TestMissingCapability:
    def test_an_ask_the_request_did_not_declare_is_minus_32021(self, server: Server) -> None:
        response = serve(server, tool_call("ask_llm", {"question": "?"}, id=9, capabilities={"elicitation": {}}))
        assert response == {
            "jsonrpc": "2.0",
            "id": 9,
            "error": {
                "code": -32021,
                "message": "Missing required client capability: sampling (needed for sampling/createMessage)",
                "data": {"requiredCapabilities": {"sampling": {}}},
            },
        }

    def test_roots_and_elicitation_name_theirs(self, server: Server) -> None:
        roots = serve(server, tool_call("show_roots", capabilities={}))
        assert roots["error"]["data"] == {"requiredCapabilities": {"roots": {}}}
        form = serve(server, tool_call("greet", capabilities={"sampling": {}}))
        assert form["error"]["code"] == -32021
        assert form["error"]["data"]["requiredCapabilities"]["elicitation"] is not None

    def test_explicit_input_requests_are_checked_too(self, server: Server) -> None:
        response = serve(server, tool_call("confirm", capabilities={"sampling": {}}))
        assert response["error"]["code"] == -32021
        assert "elicitation" in response["error"]["data"]["requiredCapabilities"]


def test_resource_not_found_is_minus_32602_with_the_uri() -> None:
    server = Server(name="nf", resources=[Resource(uri="a://one", name="one")])
    response = serve(server, modern_request("resources/read", {"uri": "a://missing"}))
    assert response["error"]["code"] == -32602
    assert response["error"]["data"] == {"uri": "a://missing"}


class TestStamping:
    """The stamp is a copy: a handler may return a dict it keeps and serves again. (Custom methods:
    the wire schema, which ``serve`` checks, does not know them.)"""

    def test_a_kept_result_and_its_meta_are_left_as_they_were(self) -> None:
        kept = {"value": 1, "_meta": {"mine": True}}
        server = Server(name="stamp", version="1.0.0")
        server.define_custom_method("x/kept", lambda params: kept)
        first = server.handle(modern_request("x/kept", id=1))
        second = server.handle(modern_request("x/kept", id=2))
        server_info = {"name": "stamp", "version": "1.0.0"}
        assert first["result"] == second["result"] == {
            "value": 1,
            "_meta": {"mine": True, "io.modelcontextprotocol/serverInfo": server_info},
            "resultType": "complete",
        }
        assert list(first["result"]) == ["value", "_meta", "resultType"]  # _meta where the handler put it
        assert kept == {"value": 1, "_meta": {"mine": True}}

    def test_a_result_type_of_the_handler_is_kept_and_a_non_object_result_gets_only_the_stamp(self) -> None:
        server = Server(name="stamp", version="1.0.0")
        server.define_custom_method("x/typed", lambda params: {"resultType": "custom", "_meta": "not an object"})
        server.define_custom_method("x/list", lambda params: [1, 2])
        server_meta = {"io.modelcontextprotocol/serverInfo": {"name": "stamp", "version": "1.0.0"}}
        assert server.handle(modern_request("x/typed"))["result"] == {"resultType": "custom", "_meta": server_meta}
        assert server.handle(modern_request("x/list"))["result"] == {"_meta": server_meta, "resultType": "complete"}


def test_the_exchange_gives_its_envelope_back() -> None:
    seen: list[t.Any] = []
    server = Server(name="env")

    @server.define_tool(name="look")
    def look(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        seen.append(server_context.session.envelope)
        return "ok"

    serve(server, tool_call("look", capabilities={"sampling": {}}, log_level="info"))
    envelope = seen[0]
    assert (envelope.protocol_version, envelope.client_capabilities, envelope.client_info, envelope.log_level) == (
        MODERN,
        {"sampling": {}},
        {"name": "spec-modern", "version": "1.0.0"},
        "info",
    )
