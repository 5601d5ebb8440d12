"""A stdio MCP server with task tools, for the tasks extension's stdio tests."""

from __future__ import annotations

import os
import sys

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__)))))

from mcp_sdk import Server  # noqa: E402
from mcp_sdk.server.transports import StdioTransport  # noqa: E402
from spec.support.task_tools import AskName  # noqa: E402

if __name__ == "__main__":
    StdioTransport(Server("tasks-stdio", tools=[AskName])).open()
