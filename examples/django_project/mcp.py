"""The MCP server and its transport: one per process, built at import."""

from __future__ import annotations

import atexit
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="django_example", version="1.0.0")


@server.define_tool(
    name="add",
    description="Adds two numbers, reporting progress",
    input_schema={"properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
)
def add(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    server_context.report_progress(1, total=1, message="adding")
    return str(args["a"] + args["b"])


# wsgi_threads: the thread count of the WSGI server running this (gunicorn -k gthread --threads 32);
# it sizes the caps on open SSE streams, so one client can never hold every thread.
transport = StreamableHTTPTransport(server, wsgi_threads=32)
atexit.register(transport.close)
