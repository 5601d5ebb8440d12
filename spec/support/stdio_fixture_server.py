"""An MCP server on stdio for the transport tests: ``python stdio_fixture_server.py '{"max_workers": 2}'``.

The optional JSON argument holds StdioTransport keyword arguments. Tools write
markers to stderr (``started <id>``, ``cancelled <id>``) so tests can see what
happened inside the process without touching stdout.
"""

from __future__ import annotations

import json
import sys
import threading
import time
import typing as t

import mcp_sdk
from mcp_sdk import Server, Tool
from mcp_sdk.server.transports import StdioTransport

#: Request ids of tool calls that observed their cancellation, in order.
observed: list[t.Any] = []
_observed_lock = threading.Lock()


def marker(text: str) -> None:
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def record_cancel(server_context: t.Any) -> None:
    with _observed_lock:
        observed.append(server_context.request_id)
    marker(f"cancelled {server_context.request_id}")


server = Server(name="stdio_fixture", version="1.0.0")


@server.define_tool(name="echo", input_schema={"properties": {"message": {"type": "string"}}, "required": ["message"]})
def echo(args: dict[str, t.Any]) -> t.Any:
    return Tool.Response([{"type": "text", "text": f"echo: {args['message']}"}])


@server.define_tool(name="slow", input_schema={"properties": {"seconds": {"type": "number"}}})
def slow(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    """Waits (cooperatively) until cancelled or ``seconds`` pass; reports progress 0 when it starts."""
    marker(f"started {server_context.request_id}")
    server_context.report_progress(0)
    if server_context.cancellation.wait(args.get("seconds", 30)):
        record_cancel(server_context)
        server_context.raise_if_cancelled()
    return "slept"


@server.define_tool(name="stubborn", input_schema={"properties": {"seconds": {"type": "number"}}})
def stubborn(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    """Sleeps, ignoring cancellation."""
    marker(f"started {server_context.request_id}")
    server_context.report_progress(0)
    time.sleep(args.get("seconds", 30))
    return "done"


@server.define_tool(name="observed_cancellations")
def observed_cancellations(args: dict[str, t.Any]) -> t.Any:
    with _observed_lock:
        return {"ids": list(observed)}


@server.define_tool(name="roots")
def roots(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    found = server_context.list_roots(timeout=10)
    return [{"type": "text", "text": root["uri"]} for root in found["roots"]]


@server.define_tool(name="sample", input_schema={"properties": {"prompt": {"type": "string"}}})
def sample(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    try:
        result = server_context.create_sampling_message(
            messages=[{"role": "user", "content": {"type": "text", "text": args.get("prompt", "hi")}}],
            max_tokens=50,
            timeout=10,
        )
    except mcp_sdk.CancelledError:
        record_cancel(server_context)
        raise
    return f"model said: {result['content']['text']}"


@server.define_tool(name="progress", input_schema={"properties": {"steps": {"type": "integer"}}})
def progress(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    steps = args.get("steps", 2)
    for step in range(1, steps + 1):
        server_context.report_progress(step, total=steps, message=f"step {step}")
    return "finished"


@server.define_tool(name="log")
def log(args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
    server_context.notify_log_message(data={"said": "debug detail"}, level="debug", logger="fixture")
    server_context.notify_log_message(data={"said": "hello"}, level="info", logger="fixture")
    return "logged"


@server.define_tool(name="chatty")
def chatty(args: dict[str, t.Any]) -> t.Any:
    print("debugging output from a tool")  # must reach stderr, never the protocol
    sys.stdout.write("written to sys.stdout\n")
    return "said it"


@server.define_tool(name="unserializable")
def unserializable(args: dict[str, t.Any]) -> t.Any:
    return Tool.Response([{"type": "text", "text": "ok"}], structured_content={"value": object()})


@server.define_tool(name="surrogate")
def surrogate(args: dict[str, t.Any]) -> t.Any:
    return "lone \ud800 surrogate"


if __name__ == "__main__":
    options = json.loads(sys.argv[1]) if len(sys.argv) > 1 else {}
    StdioTransport(server, **options).open()
    marker("exited")
