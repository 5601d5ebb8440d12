"""The server the Streamable HTTP tests talk to: tools that stream, ask the client things, wait.

:func:`build_server` returns the server and a :class:`Probe` through which a test
releases waiting tools and sees what they observed.
"""

from __future__ import annotations

import json
import threading
import typing as t

import mcp_sdk
from mcp_sdk import Server

#: Seconds a tool waits for the test before giving up.
WAIT = 5.0


class Probe:
    """Shared state between the tools and the test."""

    def __init__(self) -> None:
        self.release = threading.Event()
        self.started = threading.Event()
        self.outcomes: list[str] = []
        self.lock = threading.Lock()

    def record(self, outcome: str) -> None:
        with self.lock:
            self.outcomes.append(outcome)


def build_server(**options: t.Any) -> tuple[Server, Probe]:
    """A server with the tools below; ``options`` go to :class:`~mcp_sdk.Server`."""
    probe = Probe()
    server = Server(name="http-spec", version="1.0.0", **options)

    @server.define_tool(name="echo", input_schema={"properties": {"text": {"type": "string"}}, "required": ["text"]})
    def echo(args: dict[str, t.Any]) -> str:
        return f"echo: {args['text']}"

    @server.define_tool(name="progress", input_schema={"properties": {"steps": {"type": "integer"}}})
    def progress(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        steps = args.get("steps", 3)
        for step in range(1, steps + 1):
            server_context.report_progress(step, total=steps, message=f"step {step}")
            server_context.notify_log_message(data=f"step {step}", level="info")
        return "done"

    @server.define_tool(name="sample")
    def sample(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        try:
            result = server_context.create_sampling_message(
                messages=[{"role": "user", "content": {"type": "text", "text": "Say hi"}}], max_tokens=10, timeout=WAIT
            )
        except mcp_sdk.CancelledError:
            probe.record("cancelled")
            raise
        except mcp_sdk.MCPError as error:
            probe.record(f"{type(error).__name__}: {error}")
            raise
        return f"sampled: {result['content']['text']}"

    @server.define_tool(name="elicit")
    def elicit(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        result = server_context.create_form_elicitation(
            message="Your name?", requested_schema={"type": "object", "properties": {"name": {"type": "string"}}}
        )
        return json.dumps(result, sort_keys=True)

    @server.define_tool(name="roots")
    def roots(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        return json.dumps(server_context.list_roots(timeout=WAIT), sort_keys=True)

    @server.define_tool(name="notify")
    def notify(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        server_context.notify_resources_updated(uri="test://watched")
        server_context.notify_elicitation_complete(elicitation_id="e-1")
        return "notified"

    @server.define_tool(name="poll")
    def poll(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        server_context.report_progress(1, total=2)
        probe.record(f"closed={server_context.close_sse_stream()}")
        probe.started.set()
        probe.release.wait(WAIT)
        server_context.report_progress(2, total=2)
        return "polled"

    @server.define_tool(name="wait")
    def wait(args: dict[str, t.Any], server_context: t.Any = None) -> str:
        probe.started.set()
        if not probe.release.wait(WAIT):
            probe.record("timed out")
            return "timed out"
        server_context.report_progress(1, total=1)
        probe.record("released")
        return "released"

    return server, probe


__all__ = ["Probe", "WAIT", "build_server"]
