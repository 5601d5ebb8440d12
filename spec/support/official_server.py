"""A server built on the official Python SDK (``mcp`` >= 2.3), which serves MCP 2026-07-28 and 2025-11-25.

``python official_server.py stdio`` serves stdio; ``python official_server.py http PORT``
serves Streamable HTTP on 127.0.0.1:PORT at ``/mcp``. The client specs drive it
as a real subprocess. Its tools exercise MRTR through the client's handlers:
``confirm`` elicits, ``ask_model`` samples, ``count_roots`` lists roots, and
``hand_rolled`` keeps its own ``requestState`` across two rounds.
"""

from __future__ import annotations

import sys
import typing as t

from mcp.server.mcpserver import Context, Elicit, ListRoots, MCPServer, Resolve, Sample
from mcp_types import (
    CreateMessageResult,
    ElicitRequest,
    ElicitRequestFormParams,
    InputRequiredResult,
    ListRootsResult,
    SamplingMessage,
    TextContent,
)
from pydantic import BaseModel

server = MCPServer("official_fixture", version="2.3.0", instructions="An official-SDK server for the client specs.")


class Answer(BaseModel):
    name: str


def ask_name() -> Elicit[Answer]:
    return Elicit("What is your name?", Answer)


def ask_model() -> Sample:
    return Sample([SamplingMessage(role="user", content=TextContent(type="text", text="Say hi"))], max_tokens=10)


def ask_roots() -> ListRoots:
    return ListRoots()


@server.tool()
def echo(message: str) -> str:
    """Echo the message."""
    return message


@server.tool()
def confirm(answer: t.Annotated[Answer, Resolve(ask_name)]) -> str:
    """Elicit a name, then greet it."""
    return f"hello {answer.name}"


@server.tool()
def sample(reply: t.Annotated[CreateMessageResult, Resolve(ask_model)]) -> str:
    """Sample the client's model."""
    content = reply.content
    return f"model said {getattr(content, 'text', '?')}"


@server.tool()
def count_roots(roots: t.Annotated[ListRootsResult, Resolve(ask_roots)]) -> str:
    """Count the client's roots."""
    return f"{len(roots.roots)} roots"


@server.tool()
def hand_rolled(ctx: Context) -> str | InputRequiredResult:
    """Two rounds with a requestState of its own, checked byte for byte."""
    state = ctx.request_state
    if state is None:
        request = ElicitRequest(params=ElicitRequestFormParams(
            message="first", requested_schema={"type": "object", "properties": {"n": {"type": "integer"}}}))
        return InputRequiredResult(input_requests={"q1": request}, request_state="round-1 \u00e9 {\"x\": [1, 2]}")
    if state == "round-1 \u00e9 {\"x\": [1, 2]}":
        return InputRequiredResult(request_state="round-2")
    return f"done after {state}"


@server.tool()
async def touch(ctx: Context) -> str:
    """Tell subscribers that fixture://greeting changed."""
    await ctx.notify_resource_updated("fixture://greeting")
    return "touched"


@server.resource("fixture://greeting", mime_type="text/plain")
def greeting() -> str:
    return "hi there"


@server.prompt()
def greet(name: str) -> str:
    """A greeting prompt."""
    return f"Say hello to {name}"


if __name__ == "__main__":
    if sys.argv[1] == "http":
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]), streamable_http_path="/mcp")
    else:
        server.run("stdio")
