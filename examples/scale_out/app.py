"""An MCP server shared by several gunicorn workers through Redis.

    redis-server --port 6379 &
    MCP_REDIS_URL=redis://127.0.0.1:6379/0 \
        gunicorn -k gthread --threads 16 -w 4 --keep-alive 30 -b 127.0.0.1:8000 examples.scale_out.app:app

(``python -m examples.scale_out`` does both.) Any worker serves any request of any
session: no sticky routing. ``GET /worker`` says which worker answered (the
tests use it to aim requests at different workers).
"""

from __future__ import annotations

import os
import time
import typing as t

from werkzeug.wrappers import Response

from mcp_sdk import Server, Tool
from mcp_sdk.server.transports import StreamableHTTPTransport


class Whoami(Tool):
    description = "Says which worker process ran the call"
    input_schema = {"properties": {}}

    @classmethod
    def call(cls) -> Tool.Response:
        return Tool.Response([{"type": "text", "text": str(os.getpid())}])


class Countdown(Tool):
    description = "Counts down, reporting progress each step (cancellable)"
    input_schema = {"properties": {"start": {"type": "integer", "minimum": 1}, "delay": {"type": "number"}}}

    @classmethod
    def call(cls, start: int = 3, delay: float = 0.1, server_context: t.Any = None) -> Tool.Response:
        for step in range(start, 0, -1):
            server_context.raise_if_cancelled()
            server_context.report_progress(start - step + 1, total=start, message=f"{step}...")
            server_context.notify_log_message(data=f"{step}...", level="info", logger="countdown")
            time.sleep(delay)
        return Tool.Response([{"type": "text", "text": f"Liftoff from {os.getpid()}"}])


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


class Touch(Tool):
    description = "Says a resource changed (resources/updated on the session's GET stream)"
    input_schema = {"properties": {"uri": {"type": "string"}}, "required": ["uri"]}

    @classmethod
    def call(cls, uri: str, server_context: t.Any = None) -> Tool.Response:
        server_context.notify_resources_updated(uri)
        return Tool.Response([{"type": "text", "text": str(os.getpid())}])


class Reload(Tool):
    description = "Says the tool list changed (to every client, on every worker)"
    input_schema = {"properties": {}}

    @classmethod
    def call(cls) -> Tool.Response:
        server.notify_tools_list_changed()
        return Tool.Response([{"type": "text", "text": str(os.getpid())}])


server = Server(name="scale_out_example", version="1.0.0", tools=[Whoami, Countdown, AskLLM, Touch, Reload])
transport = StreamableHTTPTransport(
    server,
    redis_url=os.environ.get("MCP_REDIS_URL", "redis://127.0.0.1:6379/0"),
    wsgi_threads=int(os.environ.get("MCP_WSGI_THREADS", "16")),
    session_idle_timeout=float(os.environ.get("MCP_IDLE_TIMEOUT", "1800")),
)


def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
    """``/mcp``: the MCP endpoint; ``/worker``: this worker's pid."""
    path = environ.get("PATH_INFO", "")
    if path == "/mcp":
        return transport(environ, start_response)
    if path == "/worker":
        return Response(str(os.getpid()))(environ, start_response)
    return Response("Not Found", status=404)(environ, start_response)
