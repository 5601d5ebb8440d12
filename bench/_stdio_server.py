"""The SDK's stdio server with the benchmark tool set (``echo`` plus filler tools)."""

from __future__ import annotations

import os
import sys
import typing as t

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))

from _tools import tool_entries  # noqa: E402

from mcp_sdk import Server, Tool  # noqa: E402
from mcp_sdk.server.transports import StdioTransport  # noqa: E402


def passthrough(request: t.Any, call_next: t.Callable[[t.Any], t.Any]) -> t.Any:
    """A middleware that does nothing (bench/middleware_bench.py measures what the chain costs)."""
    return call_next(request)


def build_server(middleware: int = 0, tracing: bool = False) -> Server:
    server = Server(name="bench", version="1.0.0")
    if tracing:  # OpenTelemetry's API with no SDK configured: what Tracing costs when tracing is off
        from mcp_sdk.server.middleware import Tracing

        server.add_middleware(Tracing())
    for _ in range(middleware):
        server.add_middleware(passthrough)
    for entry in tool_entries():
        if entry["name"] == "echo":

            def handler(args: dict[str, t.Any]) -> t.Any:
                return Tool.Response([{"type": "text", "text": f"echo: {args['message']}"}])

        else:

            def handler(args: dict[str, t.Any]) -> t.Any:
                return Tool.Response([{"type": "text", "text": "ok"}])

        server.define_tool(
            name=entry["name"], description=entry["description"], input_schema=entry["inputSchema"], handler=handler
        )
    return server


if __name__ == "__main__":
    # ``_stdio_server.py --middleware N``: N no-op middlewares around every request;
    # ``--tracing``: the Tracing middleware, no OpenTelemetry SDK configured.
    count = int(sys.argv[2]) if len(sys.argv) > 2 and sys.argv[1] == "--middleware" else 0
    StdioTransport(build_server(count, tracing="--tracing" in sys.argv[1:])).open()
