"""W3C Trace Context keys reserved in ``_meta`` (SEP-414).

The SDK passes these keys through a request's ``_meta`` untouched. With OpenTelemetry
(``mcp_sdk[otel]``), :class:`~mcp_sdk.server.middleware.Tracing` parents each request's span on
them, and the :class:`~mcp_sdk.Client` writes them from the caller's current span.
"""

from __future__ import annotations


class TraceContext:
    """Names of the reserved, un-prefixed trace keys of ``_meta``."""

    TRACEPARENT_META_KEY = "traceparent"
    TRACESTATE_META_KEY = "tracestate"
    BAGGAGE_META_KEY = "baggage"
    META_KEYS: tuple[str, ...] = (TRACEPARENT_META_KEY, TRACESTATE_META_KEY, BAGGAGE_META_KEY)
