"""A server whose tool asks the user (a 2026-07-28 multi round-trip request), for ``gunicorn -w 2``.

``MCP_REDIS_URL`` set: the workers share sessions and ``requestState`` keys on that Redis;
unset: each worker keeps its own. ``GET /worker`` says which worker answered
(:class:`spec.support.scale_out.Lanes` aims requests with it).
"""

from __future__ import annotations

import os
import typing as t

from werkzeug.wrappers import Response

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}

server = Server(name="mrtr")


@server.define_tool(name="greet", description="Asks the user for their name (form elicitation)")
def greet(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    answer = server_context.create_form_elicitation("What is your name?", NAME_SCHEMA)
    return f"Hello, {answer['content']['name']}!"


transport = StreamableHTTPTransport(server, redis_url=os.environ.get("MCP_REDIS_URL") or None, wsgi_threads=16)


def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
    """``/mcp``: the MCP endpoint; ``/worker``: this worker's pid."""
    if environ.get("PATH_INFO") == "/worker":
        return Response(str(os.getpid()))(environ, start_response)
    return transport(environ, start_response)
