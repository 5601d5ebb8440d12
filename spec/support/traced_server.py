"""A stdio server traced by ``Tracing``, its spans kept by the OpenTelemetry SDK's in-memory
exporter and reported by its ``recorded_spans`` tool (the spans of the calls finished so far)."""

from __future__ import annotations

import json
import os
import sys
import typing as t

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".."))

from opentelemetry.sdk.trace import ReadableSpan, TracerProvider  # noqa: E402
from opentelemetry.sdk.trace.export import SimpleSpanProcessor  # noqa: E402
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter  # noqa: E402

from mcp_sdk import Server  # noqa: E402
from mcp_sdk.server.middleware import Tracing  # noqa: E402
from mcp_sdk.server.transports import StdioTransport  # noqa: E402


def describe(span: ReadableSpan) -> dict[str, t.Any]:
    """What a spec compares of one span."""
    context = span.get_span_context()
    assert context is not None
    return {
        "name": span.name,
        "kind": span.kind.name,
        "trace_id": format(context.trace_id, "032x"),
        "parent_span_id": format(span.parent.span_id, "016x") if span.parent is not None else None,
        "attributes": dict(span.attributes or {}),
        "status": [span.status.status_code.name, span.status.description],
    }


def build() -> Server:
    exporter = InMemorySpanExporter()
    provider = TracerProvider()
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    server = Server(name="traced", version="1.0.0")
    server.add_middleware(Tracing(tracer_provider=provider))

    @server.tool
    def echo(message: str) -> str:
        """Say it back."""
        return message

    @server.tool
    def recorded_spans() -> str:
        """The spans recorded so far, as JSON."""
        return json.dumps([describe(span) for span in exporter.get_finished_spans()])

    return server


if __name__ == "__main__":
    StdioTransport(build()).open()
