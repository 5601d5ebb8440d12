"""An MCP server inside a Flask app, two ways.

- ``/mcp``: one :class:`StreamableHTTPTransport`, built at startup and mounted
  beside the Flask routes with werkzeug's ``DispatcherMiddleware`` (sessions,
  SSE streams, everything).
- ``/stateless-mcp``: a Flask view that builds a server and a stateless
  transport per request and answers with ``transport.handle_request(request)``
  (per-user servers, no shared state; no GET stream, no server-to-client requests,
  no ``logging/setLevel``; cancel by closing the connection: README "Per request, in a view").

    python examples/flask_app.py       # http://127.0.0.1:5000/, /mcp, /stateless-mcp
"""

from __future__ import annotations

import argparse
import typing as t

from flask import Flask, request
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.wrappers import Response

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

flask_app = Flask(__name__)


def build_server(user: str = "anonymous") -> Server:
    server = Server(name="flask_example", version="1.0.0", server_context={"user": user})

    @server.define_tool(name="whoami", description="Says who is asking")
    def whoami(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        return f"You are {server_context['user']}"

    @server.define_tool(
        name="add",
        description="Adds two numbers",
        input_schema={"properties": {"a": {"type": "number"}, "b": {"type": "number"}}, "required": ["a", "b"]},
    )
    def add(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        server_context.report_progress(1, total=1)
        return str(args["a"] + args["b"])

    return server


@flask_app.get("/")
def index() -> str:
    return "An ordinary Flask page; the MCP endpoint is /mcp"


@flask_app.route("/stateless-mcp", methods=["GET", "POST", "DELETE"])
def stateless_mcp() -> Response:
    # A server per request, e.g. with the signed-in user in its context.
    transport = StreamableHTTPTransport(build_server(user=request.headers.get("X-User", "anonymous")), stateless=True)
    response = transport.handle_request(request)
    response.call_on_close(transport.close)  # an SSE answer is still streaming when the view returns
    return response


transport = StreamableHTTPTransport(build_server(), wsgi_threads=32)  # the WSGI server's threads (gunicorn --threads 32)
#: The WSGI application: Flask, with the MCP transport at /mcp.
app = DispatcherMiddleware(flask_app, {"/mcp": transport})


def main(argv: list[str] | None = None) -> None:
    from werkzeug.serving import run_simple

    parser = argparse.ArgumentParser(description="Flask app with an MCP endpoint")
    parser.add_argument("--port", type=int, default=5000)
    args = parser.parse_args(argv)
    try:
        run_simple("127.0.0.1", args.port, app, threaded=True)
    finally:
        transport.close()


if __name__ == "__main__":
    main()
