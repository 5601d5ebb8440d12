"""A stdio MCP server with task tools, for the tasks extension's stdio tests."""

from __future__ import annotations

import typing as t

from mcp_sdk import Server, Tool
from mcp_sdk.server.transports import StdioTransport

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


class AskName(Tool):
    tool_name = "ask_name"
    input_schema = {"type": "object", "properties": {}}
    task = True

    @classmethod
    def call(cls, server_context: t.Any) -> str:
        server_context.report_progress(1, 2)  # a task's progress goes nowhere (the extension defines none)
        answer = server_context.create_form_elicitation("Your name?", NAME_SCHEMA)
        return f"Hello, {answer['content']['name']}!"


if __name__ == "__main__":
    StdioTransport(Server("tasks-stdio", tools=[AskName])).open()
