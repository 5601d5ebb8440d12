"""TraceContext: the W3C trace keys reserved in _meta (SEP-414)."""

from __future__ import annotations

from mcp_sdk import TraceContext


def test_the_key_names():
    assert TraceContext.TRACEPARENT_META_KEY == "traceparent"
    assert TraceContext.TRACESTATE_META_KEY == "tracestate"
    assert TraceContext.BAGGAGE_META_KEY == "baggage"
    assert TraceContext.META_KEYS == ("traceparent", "tracestate", "baggage")
