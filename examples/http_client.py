"""An MCP client over Streamable HTTP.

    python examples/http_server.py &                 # or any MCP server
    python examples/http_client.py http://127.0.0.1:8000/mcp

Connects, lists the tools, and calls the ones ``examples/http_server.py`` has:
``echo``; ``countdown``, showing its progress and log messages; ``ask_llm``,
answering the server's sampling request with a canned reply.
"""

from __future__ import annotations

import sys
import typing as t

import mcp_sdk
from mcp_sdk import Client
from mcp_sdk.client import HTTP


def main(argv: list[str]) -> int:
    url = argv[1] if len(argv) > 1 else "http://127.0.0.1:8000/mcp"
    # headers={"Authorization": "Bearer <token>"} would go on every request.
    transport = HTTP(url=url, timeout=30)
    client = Client(transport=transport)

    @client.on_progress
    def show_progress(params: dict[str, t.Any]) -> None:
        print(f"  progress {params['progress']}/{params.get('total')}: {params.get('message', '')}")

    @client.on_log_message
    def show_log(params: dict[str, t.Any]) -> None:
        print(f"  log [{params['level']}] {params.get('logger', '')}: {params['data']}")

    @client.on_sampling
    def sample(params: dict[str, t.Any]) -> dict[str, t.Any]:
        # A real client would ask its LLM (after the user agrees).
        question = params["messages"][-1]["content"].get("text", "")
        return {"role": "assistant", "content": {"type": "text", "text": f"You asked: {question!r}"}, "model": "canned"}

    try:
        client.connect()
    except mcp_sdk.TransportError as error:
        print(f"Could not connect: {error}", file=sys.stderr)
        transport.close()
        return 1
    try:
        print(f"Connected to {client.server_info['name']} (protocol {client.protocol_version})")
        tools = {tool.name: tool for tool in client.tools()}
        for tool in tools.values():
            print(f"Tool: {tool.name}\n  Description: {tool.description}\n  Input Schema: {tool.input_schema}")

        if "echo" in tools:
            response = client.call_tool(tool=tools["echo"], arguments={"message": "world"})
            print(response["result"]["content"][0]["text"])
        if "countdown" in tools:
            if (client.server_capabilities or {}).get("logging") is not None:
                client.set_logging_level("info")
            response = client.call_tool(name="countdown", arguments={"start": 3, "delay": 0.05}, progress_token="countdown-1")
            print(response["result"]["content"][0]["text"])
        if "ask_llm" in tools:
            response = client.call_tool(name="ask_llm", arguments={"question": "What is MCP?"})
            print(response["result"]["content"][0]["text"])
    finally:
        # Ends the session on the server (DELETE) and stops the background stream.
        transport.close()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
