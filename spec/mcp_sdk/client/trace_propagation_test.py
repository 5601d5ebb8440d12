"""The client carries the caller's current OpenTelemetry span in each request's ``_meta``
(``traceparent``, ``tracestate``, ``baggage``: SEP-414), through the configured propagators;
the caller's own entries win, and nothing is added without a current span."""

from __future__ import annotations

import typing as t

from opentelemetry import baggage, context, trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.trace import NonRecordingSpan, SpanContext, TraceFlags, TraceState

from mcp_sdk import Client, Server
from mcp_sdk.client import InMemory
from mcp_sdk.client.trace_propagation import current_trace_meta, with_trace_meta

TRACER = TracerProvider().get_tracer("spec")
REMOTE = SpanContext(
    trace_id=0x4BF92F3577B34DA6A3CE929D0E0E4736,
    span_id=0x00F067AA0BA902B7,
    is_remote=True,
    trace_flags=TraceFlags(1),
    trace_state=TraceState([("rojo", "00f067aa0ba902b7")]),
)


def test_without_a_current_span_nothing_is_added() -> None:
    meta = {"progressToken": 1}
    assert current_trace_meta() is None
    assert with_trace_meta({"name": "echo"}, meta) is meta
    assert with_trace_meta(None, None) is None


def test_the_current_span_with_its_state_and_baggage() -> None:
    token = context.attach(baggage.set_baggage("user", "alice", trace.set_span_in_context(NonRecordingSpan(REMOTE))))
    try:
        assert current_trace_meta() == {
            "traceparent": "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
            "tracestate": "rojo=00f067aa0ba902b7",
            "baggage": "user=alice",
        }
    finally:
        context.detach(token)


def test_the_callers_own_entries_win() -> None:
    with TRACER.start_as_current_span("agent") as span:
        mine = "00-11111111111111111111111111111111-2222222222222222-01"
        assert with_trace_meta(None, {"traceparent": mine}) == {"traceparent": mine}
        assert with_trace_meta({"_meta": {"traceparent": mine}}, None) is None
        ids = span.get_span_context()
        assert with_trace_meta({"name": "echo"}, {"k": 1}) == {
            "k": 1,
            "traceparent": f"00-{ids.trace_id:032x}-{ids.span_id:016x}-{int(ids.trace_flags):02x}",
        }


def test_a_request_carries_it_to_the_server() -> None:
    server = Server(name="seen")
    seen: list[t.Any] = []

    @server.tool
    def echo(message: str, server_context: t.Any) -> str:
        """Keeps the _meta it got."""
        seen.append(server_context.meta)
        return message

    client = Client(transport=InMemory(server))
    client.connect(mode="legacy")
    client.call_tool(name="echo", arguments={"message": "plain"})
    with TRACER.start_as_current_span("agent") as span:
        client.call_tool(name="echo", arguments={"message": "traced"}, meta={"progressToken": "p"})
    ids = span.get_span_context()
    assert seen == [None, {"progressToken": "p", "traceparent": f"00-{ids.trace_id:032x}-{ids.span_id:016x}-{int(ids.trace_flags):02x}"}]
