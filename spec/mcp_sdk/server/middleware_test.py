"""The middleware chain (``server.add_middleware``) and its built-ins, on the wire of both eras:
order, short-circuits, ``around_request`` around it, a rate-limited principal, a cached
``resources/read`` and its ``ttlMs``, error mapping; every response checked against the schemas.
Then the same principals from a real HTTP transport, through the official Python client."""

from __future__ import annotations

import logging
import typing as t

import anyio
import pytest
from mcp import Client as OfficialClient
from mcp.client.caching import CacheConfig
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from mcp.shared.exceptions import MCPError as OfficialError

from mcp_sdk import Configuration, Resource, Server
from mcp_sdk.errors import InvalidParamsError
from mcp_sdk.server.auth import Principal
from mcp_sdk.server.middleware import ErrorMapping, RateLimit, ResponseCache, Timing
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.session import ServerSession
from spec.support.http_server import LiveServer
from spec.support.modern import modern_request, serve
from spec.support.wire_schema import assert_valid_response

LEGACY = "2025-11-25"
ALICE = Principal(subject="alice", client_id="app", issuer="https://issuer")
BOB = Principal(subject="bob", client_id="app", issuer="https://issuer")


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def build(*middleware: t.Any, configuration: Configuration | None = None) -> Server:
    server = Server(name="mw", version="1.0.0", configuration=configuration)

    @server.tool
    def echo(message: str) -> str:
        """Say it back."""
        return message

    server.add_resource(Resource(uri="data://n", name="n", mime_type="text/plain"))
    reads = [0]

    @server.resources_read_handler
    def read(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
        if params["uri"] == "data://broken":
            raise LookupError("no such row")
        reads[0] += 1
        return [{"uri": params["uri"], "mimeType": "text/plain", "text": f"read {reads[0]}"}]

    for item in middleware:
        server.add_middleware(item)
    return server


def legacy_session(server: Server, principal: Principal | None = None) -> ServerSession:
    session = server.create_session()
    session.auth = principal
    init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}}
    server.handle_message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, session)
    return session


def legacy(server: Server, session: ServerSession, method: str, params: dict[str, t.Any], id: int = 1) -> dict[str, t.Any]:
    response = server.handle_message({"jsonrpc": "2.0", "id": id, "method": method, "params": params}, session)
    assert_valid_response(method, response, LEGACY)
    return t.cast("dict[str, t.Any]", response)


def modern(server: Server, method: str, params: dict[str, t.Any], principal: Principal | None = None) -> dict[str, t.Any]:
    session = ServerSession(server)
    session.auth = principal
    return serve(server, modern_request(method, params), session)


def call(message: str) -> dict[str, t.Any]:
    return {"name": "echo", "arguments": {"message": message}}


class TestChain:
    def test_middleware_runs_in_order_inside_around_request_and_sees_the_result(self) -> None:
        seen: list[str] = []

        def around(data: dict[str, t.Any], request_handler: t.Callable[[], t.Any]) -> None:
            seen.append("around in")
            request_handler()
            seen.append("around out")

        def first(request: t.Any, call_next: t.Any) -> t.Any:
            seen.append(f"first {request.method} {request.params['name']} {request.principal is None}")
            result = call_next(request)
            seen.append(f"first saw {result['content'][0]['text']}")
            return result

        def second(request: t.Any, call_next: t.Any) -> t.Any:
            seen.append("second")
            return call_next(request)

        server = build(configuration=Configuration(around_request=around))
        session = legacy_session(server)
        server.add_middleware(first)
        server.add_middleware(second)
        seen.clear()
        response = legacy(server, session, "tools/call", call("hi"))
        assert response["result"]["content"] == [{"type": "text", "text": "hi"}]
        assert seen == ["around in", "first tools/call echo True", "second", "first saw hi", "around out"]

    def test_the_configurations_hooks_are_the_outermost_layers_instrumentation_first(self) -> None:
        seen: list[str] = []

        def around(data: dict[str, t.Any], request_handler: t.Callable[[], t.Any]) -> None:
            seen.append("around in")
            response = request_handler()
            seen.append(f"around out {response['result']['content'][0]['text']} {'duration' in data}")

        def inner(request: t.Any, call_next: t.Any) -> t.Any:
            seen.append("middleware")
            return call_next(request)

        config = Configuration(around_request=around, instrumentation_callback=lambda data: seen.append(f"instrumentation {data['tool_name']}"))
        server = build(inner, configuration=config)
        session = legacy_session(server)
        seen.clear()
        legacy(server, session, "tools/call", call("hi"))
        assert seen == ["around in", "middleware", "around out hi False", "instrumentation echo"]
        assert [type(hook).__name__ for hook in server.middleware.hooks()] == ["Instrumentation", "AroundRequest"]
        assert len(server.middleware) == 1  # the hooks are not middleware added

    def test_a_server_without_hooks_has_no_adapter_and_gets_one_when_a_hook_is_set(self) -> None:
        server = build()
        session = legacy_session(server)
        assert server.middleware.hooks() == ()
        seen: list[str] = []
        server.configuration.around_request = lambda data, request_handler: seen.append(data["method"]) or request_handler()
        assert legacy(server, session, "tools/call", call("hi"))["result"]["content"] == [{"type": "text", "text": "hi"}]
        assert seen == ["tools/call"]
        assert server.middleware.hooks() is server.middleware.hooks()  # adapted once, while the hook stays
        server.configuration.around_request = None
        assert server.middleware.hooks() == ()

    def test_a_middleware_short_circuits_with_a_result_or_an_error_in_both_eras(self) -> None:
        def gate(request: t.Any, call_next: t.Any) -> t.Any:
            if request.params["arguments"]["message"] == "stop":
                raise InvalidParamsError("Stopped by policy", data={"why": "policy"})
            if request.params["arguments"]["message"] == "canned":
                return {"content": [{"type": "text", "text": "from middleware"}], "isError": False}
            return call_next(request)

        server = build()
        server.add_middleware(gate, methods=["tools/call"])
        session = legacy_session(server)
        assert legacy(server, session, "tools/call", call("stop"), id=2) == {
            "jsonrpc": "2.0", "id": 2, "error": {"code": -32602, "message": "Stopped by policy", "data": {"why": "policy"}},
        }
        assert legacy(server, session, "tools/call", call("canned"), id=3)["result"] == {
            "content": [{"type": "text", "text": "from middleware"}], "isError": False,
        }
        assert modern(server, "tools/call", call("stop"))["error"] == {
            "code": -32602, "message": "Stopped by policy", "data": {"why": "policy"},
        }
        assert modern(server, "tools/call", call("canned"))["result"]["content"] == [{"type": "text", "text": "from middleware"}]
        assert legacy(server, session, "tools/list", {}, id=4)["result"]["tools"][0]["name"] == "echo"  # not its method

    def test_error_mapping_answers_a_mapped_exception_with_its_code(self) -> None:
        server = build(ErrorMapping({LookupError: (-32002, "Resource not found")}))
        session = legacy_session(server)
        assert legacy(server, session, "resources/read", {"uri": "data://broken"}, id=5) == {
            "jsonrpc": "2.0", "id": 5, "error": {"code": -32002, "message": "Resource not found"},
        }
        assert modern(server, "resources/read", {"uri": "data://broken"})["error"] == {"code": -32002, "message": "Resource not found"}

    def test_timing_logs_one_line_per_request(self, caplog: pytest.LogCaptureFixture) -> None:
        recorded: list[tuple[str, str | None]] = []
        server = build()
        session = legacy_session(server, ALICE)
        server.add_middleware(Timing(record=lambda request, seconds, error: recorded.append((request.method, error and type(error).__name__))))
        with caplog.at_level(logging.INFO, logger="mcp_sdk.server.requests"):
            legacy(server, session, "tools/call", call("hi"))
            legacy(server, session, "tools/call", {"name": "nope"}, id=2)
        assert recorded == [("tools/call", None), ("tools/call", "InvalidParamsError")]
        assert [r.getMessage().rsplit(" in ", 1)[0] for r in caplog.records] == [
            "tools/call echo by alice: ok", "tools/call nope by alice: InvalidParamsError",
        ]


class TestRateLimit:
    def test_a_principal_past_its_rate_is_refused_with_a_retry_hint_and_others_are_not(self) -> None:
        clock = Clock()
        server = build()
        server.add_middleware(RateLimit(rate=0.5, burst=2, clock=clock), methods="tools/call")
        alice = legacy_session(server, ALICE)
        assert [legacy(server, alice, "tools/call", call(str(n)), id=n)["result"]["content"][0]["text"] for n in (1, 2)] == ["1", "2"]
        assert legacy(server, alice, "tools/call", call("3"), id=3) == {
            "jsonrpc": "2.0", "id": 3, "error": {"code": -32029, "message": "Rate limit exceeded: retry after 2000 ms", "data": {"retryAfterMs": 2000}},
        }
        assert modern(server, "tools/call", call("4"), ALICE)["error"] == {  # the same principal in the other era
            "code": -32029, "message": "Rate limit exceeded: retry after 2000 ms", "data": {"retryAfterMs": 2000},
        }
        assert modern(server, "tools/call", call("bob"), BOB)["result"]["content"] == [{"type": "text", "text": "bob"}]
        clock.now += 1.5
        assert modern(server, "tools/call", call("5"), ALICE)["error"]["data"] == {"retryAfterMs": 500}
        clock.now += 0.5
        assert modern(server, "tools/call", call("6"), ALICE)["result"]["content"] == [{"type": "text", "text": "6"}]


class TestResponseCache:
    def test_a_read_is_cached_per_principal_with_its_time_left_as_ttl_ms(self) -> None:
        clock = Clock()
        server = build(ResponseCache(ttl=30.0, clock=clock))
        first = modern(server, "resources/read", {"uri": "data://n"}, ALICE)["result"]
        clock.now += 10
        again = modern(server, "resources/read", {"uri": "data://n"}, ALICE)["result"]
        other = modern(server, "resources/read", {"uri": "data://n"}, BOB)["result"]
        assert [(r["contents"][0]["text"], r["ttlMs"], r["cacheScope"]) for r in (first, again, other)] == [
            ("read 1", 30_000, "private"), ("read 1", 20_000, "private"), ("read 2", 30_000, "private"),
        ]
        session = legacy_session(server, ALICE)  # a 2025 result: no ttlMs, its own entry (another version)
        assert legacy(server, session, "resources/read", {"uri": "data://n"})["result"] == {
            "contents": [{"uri": "data://n", "mimeType": "text/plain", "text": "read 3"}],
        }
        assert legacy(server, session, "resources/read", {"uri": "data://n"}, id=2)["result"]["contents"][0]["text"] == "read 3"
        clock.now += 21
        assert modern(server, "resources/read", {"uri": "data://n"}, ALICE)["result"]["contents"][0]["text"] == "read 4"

    def test_entries_are_dropped_on_updates_list_changes_and_registry_changes(self) -> None:
        server = build(ResponseCache(ttl=600.0))
        session = legacy_session(server)

        def text() -> str:
            return str(legacy(server, session, "resources/read", {"uri": "data://n"})["result"]["contents"][0]["text"])

        def tools() -> list[str]:
            return [tool["name"] for tool in legacy(server, session, "tools/list", {})["result"]["tools"]]

        assert [text(), text()] == ["read 1", "read 1"]
        server.notify_resources_updated("data://n")
        assert [text(), text()] == ["read 2", "read 2"]
        server.notify_resources_list_changed()
        assert text() == "read 3"
        assert tools() == ["echo"]
        server.disable_tool("echo")
        assert tools() == []
        server.enable_tool("echo")
        assert tools() == ["echo"]
        server.disable_resource("data://n")
        assert legacy(server, session, "resources/read", {"uri": "data://n"})["error"]["message"] == "Resource not found: data://n"


def signed_in(environ: dict[str, t.Any]) -> Principal | None:
    """The host's login: the X-Test-User header names the user (as a Flask-Login would)."""
    user = environ.get("HTTP_X_TEST_USER")
    return Principal(subject=user, client_id="app", issuer="https://issuer") if user else None


class TestOverHTTPWithTheOfficialClient:
    """Principals from a real HTTP transport (``authenticate=``), the official Python client in both eras."""

    @pytest.fixture
    def served(self) -> t.Iterator[tuple[Server, str]]:
        server = build()
        server.add_middleware(RateLimit(rate=0.001, burst=2), methods="tools/call")
        server.add_middleware(ResponseCache(ttl=600.0))
        transport = StreamableHTTPTransport(server, authenticate=signed_in)
        with LiveServer(transport, closeables=[transport]) as live:
            yield server, live.url

    def official(self, url: str, user: str, mode: str) -> t.Any:
        http = create_mcp_http_client(headers={"X-Test-User": user})
        ticks = iter(range(1, 10**6))
        # The client's own cache always expired: every read reaches the server.
        cache = CacheConfig(clock=lambda: next(ticks) * 1e9)
        return http, OfficialClient(streamable_http_client(url, http_client=http), mode=mode, read_timeout_seconds=30.0, cache=cache)

    def test_a_principal_is_limited_in_both_eras_and_another_is_not(self, served: tuple[Server, str]) -> None:
        _, url = served

        async def main() -> None:
            alice_http, alice = self.official(url, "alice", "2026-07-28")
            alice_legacy_http, alice_legacy = self.official(url, "alice", "legacy")
            bob_http, bob = self.official(url, "bob", "2026-07-28")
            async with alice_http, alice, alice_legacy_http, alice_legacy, bob_http, bob:
                assert (await alice.call_tool("echo", {"message": "1"})).content[0].text == "1"  # type: ignore[union-attr]
                assert (await alice_legacy.call_tool("echo", {"message": "2"})).content[0].text == "2"  # type: ignore[union-attr]
                for session in (alice, alice_legacy):
                    with pytest.raises(OfficialError) as limited:
                        await session.call_tool("echo", {"message": "3"})
                    assert limited.value.code == -32029
                    assert limited.value.error.data["retryAfterMs"] > 0
                assert (await bob.call_tool("echo", {"message": "bob"})).content[0].text == "bob"  # type: ignore[union-attr]

        anyio.run(main)

    def test_reads_are_cached_per_principal_with_ttl_ms(self, served: tuple[Server, str]) -> None:

        _, url = served

        async def main() -> None:
            alice_http, alice = self.official(url, "alice", "2026-07-28")
            bob_http, bob = self.official(url, "bob", "2026-07-28")
            async with alice_http, alice, bob_http, bob:
                first = await alice.read_resource("data://n")
                again = await alice.read_resource("data://n")
                other = await bob.read_resource("data://n")
                texts = [r.contents[0].text for r in (first, again, other)]  # type: ignore[union-attr]
                assert texts == ["read 1", "read 1", "read 2"]
                assert first.ttl_ms == 600_000 and 0 < again.ttl_ms <= 600_000
                assert (first.cache_scope, other.cache_scope) == ("private", "private")

        anyio.run(main)


class TestArguments:
    def test_bad_arguments_are_refused_when_the_middleware_is_made(self) -> None:
        with pytest.raises(ValueError, match="rate must be positive"):
            RateLimit(rate=0)
        with pytest.raises(ValueError, match="burst must be at least 1"):
            RateLimit(rate=1, burst=0.5)
        with pytest.raises(ValueError, match=r"only list and read results can be cached, not \['tools/call'\]"):
            ResponseCache(methods=["tools/call"])
        with pytest.raises(TypeError, match="ErrorMapping keys must be exception classes"):
            ErrorMapping({"KeyError": -32602})  # type: ignore[dict-item]
        with pytest.raises(TypeError, match="middleware must be callable"):
            Server().add_middleware(42)  # type: ignore[type-var]
        with pytest.raises(TypeError, match="methods must be method names"):
            Server().add_middleware(lambda request, call_next: call_next(request), methods=[1])  # type: ignore[list-item]

    def test_error_mapping_takes_a_function_and_reports_when_asked(self) -> None:
        reported: list[str] = []
        server = build(configuration=Configuration(exception_reporter=lambda error, context: reported.append(repr(error))))
        server.add_middleware(
            ErrorMapping({LookupError: lambda error: InvalidParamsError(f"Bad row: {error}", data={"row": 7})}, report=True)
        )
        session = legacy_session(server)
        assert legacy(server, session, "resources/read", {"uri": "data://broken"}, id=6)["error"] == {
            "code": -32602, "message": "Bad row: no such row", "data": {"row": 7},
        }
        assert reported == ["LookupError('no such row')"]
