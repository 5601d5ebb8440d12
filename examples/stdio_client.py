"""An MCP client over stdio: starts ``examples/stdio_server.py`` and talks to it.

    python examples/stdio_client.py

Lists the server's tools, calls one, and calls another with progress reporting.
"""

from __future__ import annotations

import logging
import pathlib
import sys
import typing as t

from mcp_sdk import Client
from mcp_sdk.client import Stdio

SERVER = pathlib.Path(__file__).with_name("stdio_server.py")


def main() -> None:
    # The server's stderr reaches the `mcp_sdk.client.stdio` logger (and transport.stderr_lines).
    logging.basicConfig(level=logging.WARNING, format="%(name)s: %(message)s")
    transport = Stdio(command=sys.executable, args=[str(SERVER)], read_timeout=30)
    client = Client(transport=transport)

    @client.on_progress
    def show_progress(params: dict[str, t.Any]) -> None:
        print(f"  progress {params['progress']}/{params.get('total')}: {params.get('message', '')}")

    try:
        # Perform the MCP initialization handshake before sending any requests.
        client.connect()
        print(f"Connected to {client.server_info['name']} {client.server_info['version']} "
              f"(protocol {client.protocol_version})")

        # List available tools.
        tools = client.tools()
        for tool in tools:
            print(f"Tool: {tool.name} - {tool.description}")

        # Call a specific tool.
        response = client.call_tool(tool=tools[0], arguments={"message": "Hello, world!"})
        print(response["result"]["content"][0]["text"])

        # Call a tool with progress tracking.
        response = client.call_tool(name="count", arguments={"to": 3}, progress_token="count-1")
        print(response["result"]["content"][0]["text"])
    finally:
        # Close the transport when done: the server process ends with it.
        transport.close()


if __name__ == "__main__":
    main()
