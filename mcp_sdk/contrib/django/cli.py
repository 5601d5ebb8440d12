"""What ``manage.py mcp`` does, apart from Django's command plumbing."""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from ...server import Server


def stdio(server: Server) -> None:
    """Serve ``server`` over this process's stdin and stdout until end of input."""
    from ...server.transports import StdioTransport

    transport = StdioTransport(server)
    try:
        transport.open()
    finally:
        transport.close()


def tools(server: Server) -> str:
    """One line per tool: its name, a tab, the first line of its description."""
    lines = []
    for name, tool in server.tools.items():
        description = (tool.description or "").strip().splitlines()
        lines.append(f"{name}\t{description[0] if description else ''}\n")
    return "".join(lines)


def call(server: Server, name: str, pairs: t.Sequence[str]) -> dict[str, t.Any]:
    """Call tool ``name`` of ``server`` in this process with ``key=value`` arguments (JSON values,
    text where the schema says ``string``, as ``mcp-sdk call``); its result.

    :raises mcp_sdk.cli.command_error.CLIError: no such tool, or an argument without ``=``.
    """
    from ...cli import parse_arguments
    from ...cli.command_error import CLIError
    from ...client import Client, InMemory

    with Client(transport=InMemory(server)) as client:
        client.connect(client_info={"name": "manage.py mcp", "version": "1"})
        found = {tool.name: tool for tool in client.tools()}
        tool = found.get(name)
        if tool is None:
            raise CLIError(f"no tool {name!r}; the server has: {', '.join(sorted(found)) or 'none'}")
        response = client.call_tool(tool=tool, arguments=parse_arguments(pairs, tool.input_schema))
    return t.cast("dict[str, t.Any]", response["result"])


__all__ = ["call", "stdio", "tools"]
