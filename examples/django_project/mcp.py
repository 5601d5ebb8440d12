"""The MCP server; ``MCP_SDK["SERVER"]`` in settings.py names it, and mcp_sdk.contrib.django serves it."""

from __future__ import annotations

import typing as t

from mcp_sdk import Server

server = Server(name="django_example", version="1.0.0")


@server.define_tool(
    name="add",
    description="Adds two numbers, reporting progress",
    input_schema={"properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
)
def add(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    server_context.report_progress(1, total=1, message="adding")
    return str(args["a"] + args["b"])
