"""An MCP server on stdin/stdout: run ``python examples/stdio_server.py`` and type requests.

    {"jsonrpc":"2.0","id":"1","method":"ping"}
    {"jsonrpc":"2.0","id":"2","method":"tools/list"}
    {"jsonrpc":"2.0","id":"3","method":"tools/call","params":{"name":"example_tool","arguments":{"message":"Hello"}}}
    {"jsonrpc":"2.0","id":"4","method":"logging/setLevel","params":{"level":"info"}}
    {"jsonrpc":"2.0","id":"5","method":"tools/call","params":{"name":"count","arguments":{"to":3},"_meta":{"progressToken":"p1"}}}
    {"jsonrpc":"2.0","id":"6","method":"resources/read","params":{"uri":"example://readme"}}

stdout carries only JSON-RPC; logs go to stderr.
"""

from __future__ import annotations

import logging
import sys
import time
import typing as t

from mcp_sdk import Content, Prompt, Resource, Server, Tool
from mcp_sdk.server.transports import StdioTransport


class ExampleTool(Tool):
    description = "A simple example tool that echoes back its arguments"
    input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

    @classmethod
    def call(cls, message: str, server_context: t.Any = None) -> Tool.Response:
        return Tool.Response([{"type": "text", "text": f"Hello from example tool! Message: {message}"}])


class CountTool(Tool):
    tool_name = "count"
    description = "Counts to a number, reporting progress (send _meta.progressToken to see it)"
    input_schema = {"properties": {"to": {"type": "integer", "minimum": 1, "maximum": 100}}, "required": ["to"]}

    @classmethod
    def call(cls, to: int, server_context: t.Any = None) -> Tool.Response:
        for number in range(1, to + 1):
            server_context.raise_if_cancelled()
            server_context.report_progress(number, total=to, message=f"Counted to {number}")
            time.sleep(0.05)
        return Tool.Response([{"type": "text", "text": f"Counted to {to}"}])


class ShoutTool(Tool):
    description = "Logs its message to the client (after logging/setLevel) and shouts it back"
    input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

    @classmethod
    def call(cls, message: str, server_context: t.Any = None) -> Tool.Response:
        server_context.notify_log_message(data={"message": message}, level="info", logger="shout_tool")
        return Tool.Response([{"type": "text", "text": message.upper()}])


class GreetingPrompt(Prompt):
    prompt_name = "greeting"
    description = "Greets someone by name"
    arguments = [Prompt.Argument(name="name", description="Who to greet", required=True)]

    @classmethod
    def template(cls, args: dict[str, t.Any], server_context: t.Any = None) -> Prompt.Result:
        return Prompt.Result(
            description="A greeting",
            messages=[Prompt.Message(role="user", content=Content.Text(f"Please greet {args['name']} warmly."))],
        )


README = Resource(
    uri="example://readme",
    name="readme",
    description="What this server does",
    mime_type="text/plain",
)

server = Server(
    name="example_server",
    version="1.0.0",
    tools=[ExampleTool, CountTool, ShoutTool],
    prompts=[GreetingPrompt],
    resources=[README],
)


@server.resources_read_handler
def read_resource(params: dict[str, t.Any]) -> list[dict[str, t.Any]]:
    if params["uri"] != README.uri:
        raise Server.ResourceNotFoundError(params["uri"], params)
    return [{"uri": README.uri, "mimeType": "text/plain", "text": "An example MCP server on stdio."}]


if __name__ == "__main__":
    logging.basicConfig(stream=sys.stderr, level=logging.INFO)
    try:
        StdioTransport(server).open()
    except KeyboardInterrupt:
        sys.exit(130)
