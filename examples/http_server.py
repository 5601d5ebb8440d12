"""An MCP server over Streamable HTTP, served at http://127.0.0.1:8000/mcp.

    python examples/http_server.py                       # werkzeug's threaded server
    python examples/http_server.py --server waitress     # waitress, 32 threads
    python examples/http_server.py --stateless --json-response
    gunicorn -k gthread --threads 32 -w 1 -b 127.0.0.1:8000 examples.http_server:app

Every open SSE stream holds one server thread, so give the WSGI server plenty
and tell the transport how many (``wsgi_threads``: it keeps some free for other
clients; see "Deploying the HTTP transport" in examples/README.md). Sessions live
in this process: run one worker process (``-w 1``), or ``--stateless``, or share
them on Redis with ``redis_url=`` (examples/scale_out/).
Environment variables ``MCP_STATELESS=1`` / ``MCP_JSON_RESPONSE=1`` set the
modes of the module-level ``app`` (for gunicorn), ``MCP_WSGI_THREADS`` its
thread count (32, as the gunicorn line above).
"""

from __future__ import annotations

import argparse
import os
import sys
import time
import typing as t

from werkzeug.exceptions import NotFound
from werkzeug.middleware.dispatcher import DispatcherMiddleware

from mcp_sdk import Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport


class Echo(Tool):
    description = "Echoes its message back"
    input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

    @classmethod
    def call(cls, message: str) -> Tool.Response:
        return Tool.Response([{"type": "text", "text": f"Hello {message}"}])


class Countdown(Tool):
    description = "Counts down, reporting progress and logging each step"
    input_schema = {"properties": {"start": {"type": "integer", "minimum": 1}, "delay": {"type": "number"}}}

    @classmethod
    def call(cls, start: int = 3, delay: float = 0.1, server_context: t.Any = None) -> Tool.Response:
        for step in range(start, 0, -1):
            server_context.raise_if_cancelled()
            server_context.report_progress(start - step + 1, total=start, message=f"{step}...")
            server_context.notify_log_message(data=f"{step}...", level="info", logger="countdown")
            time.sleep(delay)
        return Tool.Response([{"type": "text", "text": "Liftoff!"}])


class AskLLM(Tool):
    tool_name = "ask_llm"
    description = "Asks the client's LLM a question (sampling)"
    input_schema = {"properties": {"question": {"type": "string"}}, "required": ["question"]}

    @classmethod
    def call(cls, question: str, server_context: t.Any = None) -> Tool.Response:
        result = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": question}}], max_tokens=100
        )
        return Tool.Response([{"type": "text", "text": result["content"].get("text", "")}])


def build_server() -> Server:
    return Server(name="http_example", version="1.0.0", tools=[Echo, Countdown, AskLLM])


def build_app(
    *, stateless: bool = False, json_response: bool = False, wsgi_threads: int = 32
) -> tuple[StreamableHTTPTransport, t.Any]:
    """The transport, and a WSGI app serving it at ``/mcp`` (404 elsewhere)."""
    transport = StreamableHTTPTransport(
        build_server(), stateless=stateless, enable_json_response=json_response, wsgi_threads=wsgi_threads
    )
    return transport, DispatcherMiddleware(NotFound(), {"/mcp": transport})


transport, app = build_app(
    stateless=os.environ.get("MCP_STATELESS") == "1",
    json_response=os.environ.get("MCP_JSON_RESPONSE") == "1",
    wsgi_threads=int(os.environ.get("MCP_WSGI_THREADS", "32")),
)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8000)
    parser.add_argument("--server", choices=("werkzeug", "waitress"), default="werkzeug")
    parser.add_argument("--threads", type=int, default=32, help="waitress threads (each open SSE stream holds one)")
    parser.add_argument("--stateless", action="store_true")
    parser.add_argument("--json-response", action="store_true")
    args = parser.parse_args(argv)

    global transport, app
    transport.close()
    threads = args.threads if args.server == "waitress" else 32  # werkzeug: a thread per connection
    transport, app = build_app(stateless=args.stateless, json_response=args.json_response, wsgi_threads=threads)
    print(f"MCP server on http://{args.host}:{args.port}/mcp ({args.server})", file=sys.stderr, flush=True)
    try:
        if args.server == "waitress":
            import waitress

            # channel_timeout: an SSE stream idle longer than this is cut; the transport's
            # keep-alive comments (every 15 s) keep live ones busy. max_request_body_size: waitress
            # reads and spools a whole body before the application can refuse it (its default: 1 GiB).
            waitress.serve(
                app,
                host=args.host,
                port=args.port,
                threads=args.threads,
                channel_timeout=60,
                max_request_body_size=4 * 1024 * 1024,
            )
        else:
            from werkzeug.serving import make_server

            make_server(args.host, args.port, app, threaded=True).serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        transport.close()


if __name__ == "__main__":
    main()
