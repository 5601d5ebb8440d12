"""A server whose ``tools/call`` is rate limited, for the ``RateLimit`` specs under real gunicorn:
a module-level WSGI ``app``. ``/mcp`` is the MCP endpoint, ``/worker`` says which worker answered
(:class:`spec.support.scale_out.Lanes` aims requests with it).

    MCP_RATE_REDIS_URL=redis://127.0.0.1:PORT/0 \\
        gunicorn -k gthread -w 2 -b 127.0.0.1:PORT spec.support.rate_limited_app:app

``MCP_RATE_REDIS_URL`` unset: each worker keeps its own buckets. The limit is three calls, then
one per 1,000 seconds: a spec sees exactly three pass, however long it runs.
"""

from __future__ import annotations

import os
import typing as t

from werkzeug.wrappers import Response

from mcp_sdk import Server
from mcp_sdk.server.middleware import RateLimit
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="rate-limited", version="1.0.0")


@server.define_tool(name="whoami", input_schema={"properties": {}})
def whoami(args: dict[str, t.Any]) -> str:
    return str(os.getpid())


server.add_middleware(RateLimit(rate=0.001, burst=3, redis_url=os.environ.get("MCP_RATE_REDIS_URL")), methods="tools/call")
transport = StreamableHTTPTransport(server)


def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
    if environ.get("PATH_INFO") == "/worker":
        return Response(str(os.getpid()))(environ, start_response)
    return transport(environ, start_response)
