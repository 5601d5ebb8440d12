"""``Tracing``: one SERVER span per request, as the MCP semantic conventions name it, collected
with the OpenTelemetry SDK's in-memory exporter; its parent the ``traceparent`` of ``_meta``.
In both eras in process (every response checked against the schemas), over real HTTP through
the official Python client and ours (both eras), and over real stdio (a subprocess reporting
its own spans) through both clients; nothing done without an SDK, nothing imported unasked.
Over HTTP an anonymous caller's ``traceparent`` is only a link (it picks neither the trace nor
whether the operator's sampler records it) and spans never carry the raw session id."""

from __future__ import annotations

import contextlib
import hashlib
import hmac
import json
import subprocess
import sys
import typing as t

import anyio
import pytest
from mcp import Client as OfficialClient
from mcp.client.stdio import StdioServerParameters
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client
from opentelemetry import trace
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.sampling import ALWAYS_ON, DEFAULT_OFF, Sampler
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from mcp_sdk import Client, MissingExtraError, Prompt, Resource, Server
from mcp_sdk.client import HTTP, Stdio
from mcp_sdk.server.auth import Principal
from mcp_sdk.server.middleware import Tracing
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support import http_client
from spec.support.http_server import ROOT, LiveServer
from spec.support.modern import modern_request, serve
from spec.support.modern_http import ModernHTTP
from spec.support.wire_schema import assert_valid_response

LEGACY = "2025-11-25"
MODERN = "2026-07-28"
TRACE_ID = "4bf92f3577b34da6a3ce929d0e0e4736"
PARENT_ID = "00f067aa0ba902b7"
TRACEPARENT = f"00-{TRACE_ID}-{PARENT_ID}-01"
TRACED_SERVER = ROOT / "spec" / "support" / "traced_server.py"
TIMEOUT = 30.0
#: The key of the session id's digest in the spans of :func:`build`'s servers.
SESSION_ID_KEY = b"spec-session-id-key-0123456789ab"


def digest(session_id: str) -> str:
    """What a span of :func:`build`'s servers says for ``session_id``."""
    return hmac.new(SESSION_ID_KEY, session_id.encode(), hashlib.sha256).hexdigest()[:32]


class Recorded:
    """A tracer provider whose finished spans stay in memory (sampling as ``sampler`` says:
    OpenTelemetry's default, a parent-based always-on sampler)."""

    def __init__(self, sampler: Sampler | None = None) -> None:
        self.exporter = InMemorySpanExporter()
        self.provider = TracerProvider(sampler=sampler) if sampler is not None else TracerProvider()
        self.provider.add_span_processor(SimpleSpanProcessor(self.exporter))

    def spans(self) -> list[ReadableSpan]:
        return list(self.exporter.get_finished_spans())

    def only(self) -> ReadableSpan:
        spans = self.spans()
        assert len(spans) == 1, [span.name for span in spans]
        return spans[0]


def build(recorded: Recorded | None, **options: t.Any) -> Server:
    server = Server(name="traced", version="1.0.0")
    options.setdefault("session_id_key", SESSION_ID_KEY)
    provider = recorded.provider if recorded is not None else None
    server.add_middleware(Tracing(tracer_provider=provider, **options))

    @server.tool
    def echo(message: str) -> str:
        """Say it back."""
        return message

    @server.tool
    def explode() -> str:
        """Fails."""
        raise RuntimeError("boom")

    server.define_prompt(name="greet", description="Hello", handler=lambda args: Prompt.Result(messages=[]))
    server.add_resource(Resource(uri="data://n", name="n", mime_type="text/plain"))

    @server.resources_read_handler
    def read(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
        if params["uri"] == "data://broken":
            raise LookupError("no such row")
        return [{"uri": params["uri"], "mimeType": "text/plain", "text": "n"}]

    return server


def legacy(server: Server, method: str, params: dict[str, t.Any], id: t.Any = 1) -> dict[str, t.Any]:
    session = server.create_session(session_id="s-1")
    init = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "spec", "version": "1"}}
    server.handle_message({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, session)
    response = server.handle_message({"jsonrpc": "2.0", "id": id, "method": method, "params": params}, session)
    assert_valid_response(method, response, LEGACY)
    return t.cast("dict[str, t.Any]", response)


def hex_ids(span: ReadableSpan) -> tuple[str, str | None]:
    context = span.get_span_context()
    assert context is not None
    return format(context.trace_id, "032x"), (format(span.parent.span_id, "016x") if span.parent is not None else None)


def echo_call(**meta: str) -> dict[str, t.Any]:
    params: dict[str, t.Any] = {"name": "echo", "arguments": {"message": "hi"}}
    if meta:
        params["_meta"] = meta
    return params


class TestInProcess:
    def test_a_legacy_tool_call_is_a_server_span_under_the_traceparent_of_meta(self) -> None:
        recorded = Recorded()
        server = build(recorded)
        legacy(server, "tools/call", echo_call(traceparent=TRACEPARENT, tracestate="rojo=00f067aa0ba902b7"), id=7)
        initialize, call = recorded.spans()
        assert (initialize.name, dict(initialize.attributes or {})) == (
            "initialize",
            {
                "mcp.method.name": "initialize",
                "jsonrpc.request.id": "0",
                "mcp.session.id": digest("s-1"),
                "network.transport": "pipe",
                "mcp.protocol.version": LEGACY,
            },
        )
        assert call.name == "tools/call echo"
        assert call.kind is trace.SpanKind.SERVER
        assert dict(call.attributes or {}) == {
            "mcp.method.name": "tools/call",
            "gen_ai.tool.name": "echo",
            "gen_ai.operation.name": "execute_tool",
            "jsonrpc.request.id": "7",
            "mcp.protocol.version": LEGACY,
            "mcp.session.id": digest("s-1"),
            "network.transport": "pipe",
        }
        assert hex_ids(call) == (TRACE_ID, PARENT_ID)
        assert call.parent is not None and call.parent.is_remote
        assert dict(call.get_span_context().trace_state) == {"rojo": "00f067aa0ba902b7"}  # type: ignore[union-attr]
        assert call.status.status_code is trace.StatusCode.UNSET
        assert list(call.links) == []

    def test_a_modern_request_names_its_protocol_version(self) -> None:
        recorded = Recorded()
        server = build(recorded)
        response = serve(server, modern_request("tools/call", echo_call(traceparent=TRACEPARENT), id="r-1"))
        assert response["result"]["content"] == [{"type": "text", "text": "hi"}]
        span = recorded.only()
        assert (span.name, dict(span.attributes or {})) == (
            "tools/call echo",
            {
                "mcp.method.name": "tools/call",
                "gen_ai.tool.name": "echo",
                "gen_ai.operation.name": "execute_tool",
                "jsonrpc.request.id": "r-1",
                "mcp.protocol.version": MODERN,
                "network.transport": "pipe",
            },
        )
        assert hex_ids(span) == (TRACE_ID, PARENT_ID)

    def test_prompts_and_resources_name_their_target(self) -> None:
        recorded = Recorded()
        server = build(recorded)
        legacy(server, "prompts/get", {"name": "greet"})
        legacy(server, "resources/read", {"uri": "data://n"})
        spans = [span for span in recorded.spans() if span.name != "initialize"]
        assert [(span.name, {k: v for k, v in (span.attributes or {}).items() if k.startswith(("gen_ai", "mcp.res"))}) for span in spans] == [
            ("prompts/get greet", {"gen_ai.prompt.name": "greet"}),
            ("resources/read", {"mcp.resource.uri": "data://n"}),
        ]
        # Opting in to the URI in the name:
        named = Recorded()
        server = Server(name="n")
        server.add_middleware(Tracing(tracer_provider=named.provider, resource_uri_in_name=True))
        server.add_resource(Resource(uri="data://n", name="n"))
        server.resources_read_handler(lambda params: [{"uri": params["uri"], "text": "n"}])
        serve(server, modern_request("resources/read", {"uri": "data://n"}))
        assert named.only().name == "resources/read data://n"

    def test_errors_set_error_type_status_and_code(self) -> None:
        recorded = Recorded()
        server = build(recorded)
        missing = legacy(server, "tools/call", {"name": "nope", "arguments": {}})
        failed = legacy(server, "tools/call", {"name": "explode", "arguments": {}})
        broken = legacy(server, "resources/read", {"uri": "data://broken"})
        assert missing["error"] == {"code": -32602, "message": "Tool not found: nope", "data": {"name": "nope"}}
        assert failed["result"]["isError"] is True
        assert broken["error"] == {"code": -32603, "message": "Internal error"}
        nope, explode, read = [span for span in recorded.spans() if span.name != "initialize"]
        assert {k: v for k, v in (nope.attributes or {}).items() if k in ("error.type", "rpc.response.status_code")} == {
            "error.type": "-32602",
            "rpc.response.status_code": "-32602",
        }
        assert (nope.status.status_code, nope.status.description) == (trace.StatusCode.ERROR, "Tool not found: nope")
        assert (explode.attributes or {})["error.type"] == "tool_error"
        assert "rpc.response.status_code" not in (explode.attributes or {})
        assert explode.status.status_code is trace.StatusCode.ERROR
        assert {k: v for k, v in (read.attributes or {}).items() if k in ("error.type", "rpc.response.status_code")} == {
            "error.type": "-32603",
            "rpc.response.status_code": "-32603",
        }
        assert (read.status.status_code, read.status.description) == (trace.StatusCode.ERROR, "Internal error")
        assert [(event.name, (event.attributes or {})["exception.type"]) for event in read.events] == [("exception", "LookupError")]

    def test_a_modern_error_span(self) -> None:
        recorded = Recorded()
        server = build(recorded)
        response = serve(server, modern_request("tools/call", {"name": "nope", "arguments": {}, "_meta": {"traceparent": TRACEPARENT}}))
        assert response["error"]["code"] == -32602
        span = recorded.only()
        assert hex_ids(span) == (TRACE_ID, PARENT_ID)
        assert {k: v for k, v in (span.attributes or {}).items() if k in ("error.type", "rpc.response.status_code", "mcp.protocol.version")} == {
            "error.type": "-32602",
            "rpc.response.status_code": "-32602",
            "mcp.protocol.version": MODERN,
        }
        assert (span.status.status_code, span.status.description) == (trace.StatusCode.ERROR, "Tool not found: nope")

    def test_without_a_traceparent_the_span_is_a_root_or_a_child_of_the_current_one(self) -> None:
        recorded = Recorded()
        server = build(recorded)
        serve(server, modern_request("tools/call", echo_call()))
        serve(server, modern_request("tools/call", echo_call(traceparent="00-garbage-01")))
        ambient_tracer = recorded.provider.get_tracer("spec")
        with ambient_tracer.start_as_current_span("http request") as ambient:
            serve(server, modern_request("tools/call", echo_call()))
            serve(server, modern_request("tools/call", echo_call(traceparent=TRACEPARENT)))
        root, garbage, child, linked, _ = recorded.spans()
        assert root.parent is None and garbage.parent is None
        ambient_context = ambient.get_span_context()
        assert child.parent is not None and child.parent.span_id == ambient_context.span_id
        # The conventions: the _meta context is the parent, the ambient one a link.
        assert hex_ids(linked) == (TRACE_ID, PARENT_ID)
        assert [link.context.span_id for link in linked.links] == [ambient_context.span_id]

    def test_the_handler_runs_inside_the_span(self) -> None:
        recorded = Recorded()
        server = Server(name="nested")
        server.add_middleware(Tracing(tracer_provider=recorded.provider))
        inner = recorded.provider.get_tracer("app")

        @server.tool
        def lookup() -> str:
            """Opens a span of its own."""
            with inner.start_as_current_span("db query"):
                return "ok"

        serve(server, modern_request("tools/call", {"name": "lookup", "arguments": {}, "_meta": {"traceparent": TRACEPARENT}}))
        query, call = recorded.spans()
        assert query.parent is not None and query.parent.span_id == call.get_span_context().span_id  # type: ignore[union-attr]
        assert hex_ids(query)[0] == TRACE_ID

    def test_nothing_is_done_without_an_sdk_configured(self) -> None:
        # This process never sets a global tracer provider: Tracing() finds the API's proxy.
        assert type(trace.get_tracer_provider()) is trace.ProxyTracerProvider
        traced, plain = build(None), Server(name="traced", version="1.0.0")
        plain.define_tool(name="echo", description="Say it back.", handler=lambda args: args["message"])
        message = modern_request("tools/call", echo_call(traceparent=TRACEPARENT))
        assert serve(traced, message) == serve(plain, message)


class TestImports:
    def test_opentelemetry_is_imported_only_when_tracing_is_asked_for(self) -> None:
        code = (
            "import sys, mcp_sdk\n"
            "from mcp_sdk import Client, Server\n"
            "from mcp_sdk.client import InMemory\n"
            "from mcp_sdk.server.middleware import Tracing, Timing\n"
            "from mcp_sdk.server.transports import StdioTransport, StreamableHTTPTransport\n"
            "server = Server(name='x')\n"
            "server.define_tool(name='echo', handler=lambda args: 'hi')\n"
            "client = Client(transport=InMemory(server))\n"
            "client.connect(mode='legacy')\n"
            "client.call_tool(name='echo', arguments={})\n"
            "before = sorted(m for m in sys.modules if m.startswith('opentelemetry'))\n"
            "server.add_middleware(Tracing())\n"
            "after = 'opentelemetry.trace' in sys.modules\n"
            "print(before, after)\n"
        )
        output = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=True)
        assert output.stdout == "[] True\n"

    def test_the_global_tracer_provider_is_used_by_default(self) -> None:
        # In a process of its own: the global provider can be set only once.
        code = (
            "from opentelemetry import trace\n"
            "from opentelemetry.sdk.trace import TracerProvider\n"
            "from opentelemetry.sdk.trace.export import SimpleSpanProcessor\n"
            "from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter\n"
            "from mcp_sdk import Server\n"
            "from mcp_sdk.server.middleware import Tracing\n"
            "exporter = InMemorySpanExporter()\n"
            "provider = TracerProvider()\n"
            "provider.add_span_processor(SimpleSpanProcessor(exporter))\n"
            "trace.set_tracer_provider(provider)\n"
            "server = Server(name='x')\n"
            "server.define_tool(name='echo', handler=lambda args: 'hi')\n"
            "server.add_middleware(Tracing())\n"
            "server.handle({'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call', 'params': {'name': 'echo'}})\n"
            "print([(s.name, s.instrumentation_scope.name) for s in exporter.get_finished_spans()])\n"
        )
        output = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=TIMEOUT, check=True)
        assert output.stdout == "[('tools/call echo', 'mcp_sdk')]\n"

    def test_without_the_extra_tracing_names_it(self, monkeypatch: pytest.MonkeyPatch) -> None:
        monkeypatch.setitem(sys.modules, "opentelemetry", None)
        with pytest.raises(MissingExtraError, match=r"pip install 'mcp_sdk\[otel\]'"):
            Tracing()


def parent_ids(spans: t.Iterable[ReadableSpan], name: str) -> list[tuple[str, str | None]]:
    return [hex_ids(span) for span in spans if span.name == name]


@contextlib.contextmanager
def http_served(recorded: Recorded, authenticate: t.Any = None, **options: t.Any) -> t.Iterator[str]:
    transport = StreamableHTTPTransport(build(recorded, **options), authenticate=authenticate)
    with LiveServer(transport, closeables=[transport]) as live:
        yield live.url


class TestOverHTTP:
    """Clients whose operator trusts them with the trace (``trust_remote_parent=True``)."""

    def test_the_official_client_in_both_eras_parents_the_server_spans(self) -> None:
        recorded, client_side = Recorded(), Recorded()
        tracer = client_side.provider.get_tracer("spec")
        with http_served(recorded, trust_remote_parent=True) as url:

            async def main() -> list[str]:
                span_ids = []
                for mode in (MODERN, "legacy"):
                    http = create_mcp_http_client()
                    async with http, OfficialClient(streamable_http_client(url, http_client=http), mode=mode, read_timeout_seconds=TIMEOUT) as official:
                        with tracer.start_as_current_span(f"agent {mode}") as agent:
                            assert (await official.call_tool("echo", {"message": "hi"})).content[0].text == "hi"  # type: ignore[union-attr]
                            span_ids.append(format(agent.get_span_context().span_id, "016x"))
                            trace_id = format(agent.get_span_context().trace_id, "032x")
                            span_ids.append(trace_id)
                return span_ids

            modern_span, modern_trace, legacy_span, legacy_trace = anyio.run(main)
        calls = [span for span in recorded.spans() if span.name == "tools/call echo"]
        assert [hex_ids(span) for span in calls] == [(modern_trace, modern_span), (legacy_trace, legacy_span)]
        modern_call, legacy_call = calls
        assert dict(modern_call.attributes or {}) == {
            "mcp.method.name": "tools/call",
            "gen_ai.tool.name": "echo",
            "gen_ai.operation.name": "execute_tool",
            "jsonrpc.request.id": str((modern_call.attributes or {})["jsonrpc.request.id"]),
            "mcp.protocol.version": MODERN,
            "network.transport": "tcp",
            "network.protocol.name": "http",
        }
        legacy_attributes = dict(legacy_call.attributes or {})
        session_digest = legacy_attributes.pop("mcp.session.id")
        assert type(session_digest) is str and len(session_digest) == 32
        assert legacy_attributes == {
            "mcp.method.name": "tools/call",
            "gen_ai.tool.name": "echo",
            "gen_ai.operation.name": "execute_tool",
            "jsonrpc.request.id": str(legacy_attributes["jsonrpc.request.id"]),
            "mcp.protocol.version": LEGACY,
            "network.transport": "tcp",
            "network.protocol.name": "http",
        }

    @pytest.mark.parametrize("mode", ["legacy", MODERN])
    def test_our_client_injects_its_current_context(self, mode: str) -> None:
        recorded, client_side = Recorded(), Recorded()
        tracer = client_side.provider.get_tracer("spec")
        with http_served(recorded, trust_remote_parent=True) as url:
            client = Client(transport=HTTP(url=url, timeout=TIMEOUT))
            try:
                client.connect(mode="modern" if mode == MODERN else mode)
                client.call_tool(name="echo", arguments={"message": "untraced"})
                with tracer.start_as_current_span("agent") as agent:
                    client.call_tool(name="echo", arguments={"message": "traced"})
            finally:
                client.close()
        context = agent.get_span_context()
        untraced, traced = [span for span in recorded.spans() if span.name == "tools/call echo"]
        assert untraced.parent is None
        assert hex_ids(traced) == (format(context.trace_id, "032x"), format(context.span_id, "016x"))
        assert (traced.attributes or {})["mcp.protocol.version"] == (LEGACY if mode == "legacy" else MODERN)


#: A caller's context asking to be sampled, in a trace of its choosing.
FORCED = f"00-{TRACE_ID}-{PARENT_ID}-01"


def signed_in(environ: dict[str, t.Any]) -> Principal | None:
    """The host's login: an ``X-User`` header names the caller (the spec's stand-in for a session cookie)."""
    user = environ.get("HTTP_X_USER")
    return Principal(subject=user) if user else None


def anonymous_calls(url: str, traceparent: str, **headers: str) -> list[dict[str, t.Any]]:
    """A ``tools/call echo`` carrying ``traceparent`` in each era over real HTTP; the two responses."""
    responses = []
    with http_client.Client(url) as legacy_client:
        with legacy_client.post(http_client.initialize_message(LEGACY), headers=legacy_client.headers(**headers), stream=False) as answer:
            assert answer.status_code == 200, answer.text
            legacy_client.session_id = answer.headers["Mcp-Session-Id"]
            legacy_client.protocol_version = LEGACY
        message = http_client.tool_call("echo", {"message": "hi"}, id=2)
        message["params"]["_meta"] = {"traceparent": traceparent}
        responses += legacy_client.call_with(message, legacy_client.headers(**headers))
    with ModernHTTP(url) as modern_client:
        message = modern_client.message("tools/call", echo_call(traceparent=traceparent))
        with modern_client.post(message, **headers) as answer:
            assert answer.status_code == 200, answer.text
            responses.append(answer.json())
    return responses


class TestUntrustedCallers:
    """Finding 17: over HTTP an anonymous caller's ``_meta`` context is a link, never the parent, by default."""

    def test_an_anonymous_caller_cannot_force_sampling_when_the_operator_samples_nothing(self) -> None:
        recorded = Recorded(DEFAULT_OFF)  # parent-based, 0 % of new traces
        with http_served(recorded) as url:
            responses = anonymous_calls(url, FORCED)
        assert [response["result"]["content"] for response in responses] == [[{"type": "text", "text": "hi"}]] * 2
        assert [span.name for span in recorded.spans()] == []  # before: both calls recorded in the caller's trace

    def test_its_context_is_a_link_and_the_trace_is_the_servers(self) -> None:
        recorded = Recorded()  # parent-based, always on: every span recorded, so its links can be read
        with http_served(recorded) as url:
            anonymous_calls(url, FORCED)
        calls = [span for span in recorded.spans() if span.name == "tools/call echo"]
        assert len(calls) == 2
        for call in calls:
            assert call.parent is None
            assert hex_ids(call)[0] != TRACE_ID
            [link] = call.links
            assert (format(link.context.trace_id, "032x"), format(link.context.span_id, "016x")) == (TRACE_ID, PARENT_ID)
            assert link.context.is_remote

    def test_an_authenticated_callers_context_is_the_parent_and_decides_sampling(self) -> None:
        recorded = Recorded(DEFAULT_OFF)
        with http_served(recorded, authenticate=signed_in) as url:
            anonymous_calls(url, FORCED, **{"X-User": "alice"})  # (authenticate= refuses anonymous callers: 401)
        calls = [span for span in recorded.spans() if span.name == "tools/call echo"]
        assert [hex_ids(call) for call in calls] == [(TRACE_ID, PARENT_ID)] * 2
        assert [list(call.links) for call in calls] == [[], []]

    @pytest.mark.parametrize("trusted", [True, False])
    def test_the_operator_decides_for_every_caller(self, trusted: bool) -> None:
        recorded = Recorded(ALWAYS_ON)
        server = build(recorded, trust_remote_parent=trusted)
        legacy(server, "tools/call", echo_call(traceparent=FORCED))  # in process: trusted by default
        serve(server, modern_request("tools/call", echo_call(traceparent=FORCED)))
        calls = [span for span in recorded.spans() if span.name == "tools/call echo"]
        assert [hex_ids(call)[0] == TRACE_ID for call in calls] == [trusted, trusted]
        assert [len(call.links) for call in calls] == [0, 0] if trusted else [1, 1]

    def test_a_policy_sees_the_request(self) -> None:
        recorded = Recorded(ALWAYS_ON)
        seen: list[str] = []

        def only_echo(request: t.Any) -> bool:
            seen.append(request.method)
            return request.params.get("name") == "echo"

        server = build(recorded, trust_remote_parent=only_echo)
        serve(server, modern_request("tools/call", echo_call(traceparent=FORCED)))
        serve(server, modern_request("tools/call", {"name": "explode", "arguments": {}, "_meta": {"traceparent": FORCED}}))
        echo, explode = recorded.spans()
        assert (hex_ids(echo)[0] == TRACE_ID, hex_ids(explode)[0] == TRACE_ID) == (True, False)
        assert seen == ["tools/call", "tools/call"]

    def test_bad_options_are_refused(self) -> None:
        with pytest.raises(TypeError, match="trust_remote_parent must be a bool or fn"):
            Tracing(trust_remote_parent="yes")  # type: ignore[arg-type]
        with pytest.raises(TypeError, match="session_id_key must be bytes, not str"):
            Tracing(session_id_key="secret")  # type: ignore[arg-type]
        with pytest.raises(ValueError, match="session_id_key must have at least 16 bytes"):
            Tracing(session_id_key=b"short")


class TestSessionIdInSpans:
    """Finding 17: a 2025 session id (an unauthenticated server's only credential) never leaves in a span."""

    def test_spans_carry_a_keyed_digest_that_correlates_a_session_without_revealing_it(self) -> None:
        recorded = Recorded()
        with http_served(recorded) as url:
            sessions = []
            for _ in range(2):
                with http_client.Client(url) as client:
                    client.initialize(LEGACY)
                    for id in (2, 3):
                        assert client.call(http_client.tool_call("echo", {"message": "hi"}, id=id))[0]["result"]
                    sessions.append(t.cast(str, client.session_id))
        by_session = {
            session_id: [
                (span.attributes or {})["mcp.session.id"]
                for span in recorded.spans()
                if span.name == "tools/call echo" and (span.attributes or {}).get("mcp.session.id") == digest(session_id)
            ]
            for session_id in sessions
        }
        assert {session_id: len(digests) for session_id, digests in by_session.items()} == {session_id: 2 for session_id in sessions}
        everything = json.dumps([dict(span.attributes or {}) for span in recorded.spans()] + [span.name for span in recorded.spans()])
        assert not any(session_id in everything for session_id in sessions)  # before: the raw id in every span

    def test_without_a_key_each_tracing_has_its_own(self) -> None:
        first, second = Tracing(), Tracing()
        assert first.session_digest("s-1") == first.session_digest("s-1") != second.session_digest("s-1")
        shared = Tracing(session_id_key=SESSION_ID_KEY)
        assert shared.session_digest("s-1") == digest("s-1") and len(digest("s-1")) == 32


def reported(spans_json: str) -> list[dict[str, t.Any]]:
    return [span for span in json.loads(spans_json) if span["name"] == "tools/call echo"]


class TestOverStdio:
    @pytest.mark.parametrize("mode", ["legacy", MODERN])
    def test_our_client_and_a_stdio_server(self, mode: str) -> None:
        client_side = Recorded()
        tracer = client_side.provider.get_tracer("spec")
        client = Client(transport=Stdio(command=sys.executable, args=[str(TRACED_SERVER)]), timeout=TIMEOUT)
        try:
            client.connect(mode="modern" if mode == MODERN else mode)
            with tracer.start_as_current_span("agent") as agent:
                client.call_tool(name="echo", arguments={"message": "hi"})
            spans = reported(client.call_tool(name="recorded_spans", arguments={})["result"]["content"][0]["text"])
        finally:
            client.close()
        context = agent.get_span_context()
        assert spans == [
            {
                "name": "tools/call echo",
                "kind": "SERVER",
                "trace_id": format(context.trace_id, "032x"),
                "parent_span_id": format(context.span_id, "016x"),
                "attributes": {
                    "mcp.method.name": "tools/call",
                    "gen_ai.tool.name": "echo",
                    "gen_ai.operation.name": "execute_tool",
                    "jsonrpc.request.id": spans[0]["attributes"]["jsonrpc.request.id"],
                    "mcp.protocol.version": LEGACY if mode == "legacy" else MODERN,
                    "network.transport": "pipe",
                },
                "status": ["UNSET", None],
            }
        ]

    @pytest.mark.parametrize("mode", ["legacy", MODERN])
    def test_the_official_client_and_a_stdio_server(self, mode: str) -> None:
        client_side = Recorded()
        tracer = client_side.provider.get_tracer("spec")
        parameters = StdioServerParameters(command=sys.executable, args=[str(TRACED_SERVER)], cwd=str(ROOT))

        async def main() -> tuple[str, t.Any]:
            async with OfficialClient(parameters, mode=mode, read_timeout_seconds=TIMEOUT) as official:
                with tracer.start_as_current_span("agent") as agent:
                    await official.call_tool("echo", {"message": "hi"})
                result = await official.call_tool("recorded_spans", {})
                return result.content[0].text, agent.get_span_context()  # type: ignore[union-attr]

        text, context = anyio.run(main)
        [span] = reported(text)
        assert (span["trace_id"], span["parent_span_id"]) == (format(context.trace_id, "032x"), format(context.span_id, "016x"))
        assert span["attributes"]["mcp.protocol.version"] == (LEGACY if mode == "legacy" else MODERN)
        assert span["attributes"]["network.transport"] == "pipe"
