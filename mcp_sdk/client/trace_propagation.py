"""The W3C trace context of the caller's current OpenTelemetry span, for a request's ``_meta`` (SEP-414).

The client never imports OpenTelemetry itself: only once the application has imported
``opentelemetry.trace`` (and so may have a span current) is the context read, through the
configured propagators. Of what they write, the keys SEP-414 reserves un-prefixed
(``traceparent``, ``tracestate``, ``baggage``) are kept.
"""

from __future__ import annotations

import sys
import typing as t

from .._otel import import_otel
from ..trace_context import TraceContext


def current_trace_meta() -> dict[str, str] | None:
    """The ``_meta`` entries carrying the current span's context; None without a current span
    (or when the application does not use OpenTelemetry)."""
    trace = sys.modules.get("opentelemetry.trace")
    if trace is None:
        return None
    if not trace.get_current_span().get_span_context().is_valid:
        return None
    _, propagate = import_otel()
    carrier: dict[str, str] = {}
    propagate.inject(carrier)
    return {key: carrier[key] for key in TraceContext.META_KEYS if type(carrier.get(key)) is str} or None


def with_trace_meta(params: dict[str, t.Any] | None, meta: dict[str, t.Any] | None) -> dict[str, t.Any] | None:
    """``meta`` with the current trace context added, where neither it nor ``params["_meta"]``
    already has those keys (the caller's own context wins)."""
    trace_meta = current_trace_meta()
    if trace_meta is None:
        return meta
    given = params.get("_meta") if params else None
    own = given if isinstance(given, dict) else {}
    added = {key: value for key, value in trace_meta.items() if key not in own and (meta is None or key not in meta)}
    return {**(meta or {}), **added} if added else meta


__all__ = ["current_trace_meta", "with_trace_meta"]
