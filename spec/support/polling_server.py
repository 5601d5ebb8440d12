"""The server of the many-sessions specs (:mod:`spec.support.polling_app`, the Flask and Django
rows): one tool, no transport (each deployment builds its own, with every default).

Tool ``chatter``: tells the session that ``polling://<tag>`` changed (``resources/updated``, which
travels on the session's GET stream), then sends ``steps`` progress notifications and log messages
tagged with ``tag``, ``delay`` seconds apart, and answers ``"<tag> done"``: long enough that its
SSE answer is closed and polled.

Tool ``hold``: waits ``seconds`` or until cancelled (an abusive client's long call).
"""

from __future__ import annotations

import time
import typing as t

from mcp_sdk import Server

server = Server(name="polling-spec", version="1.0.0")


@server.define_tool(
    name="chatter",
    input_schema={"properties": {"steps": {"type": "integer"}, "delay": {"type": "number"}, "tag": {"type": "string"}}},
)
def chatter(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    steps, delay, tag = int(args.get("steps", 3)), float(args.get("delay", 0.1)), str(args.get("tag", ""))
    server_context.notify_resources_updated(f"polling://{tag}")
    for step in range(1, steps + 1):
        server_context.report_progress(step, total=steps, message=f"{tag}:{step}")
        server_context.notify_log_message(data=f"{tag}:{step}", level="info", logger="chatter")
        time.sleep(delay)
    return f"{tag} done"


@server.define_tool(name="hold", input_schema={"properties": {"seconds": {"type": "number"}}})
def hold(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    deadline = time.monotonic() + float(args.get("seconds", 30))
    while time.monotonic() < deadline and not server_context.cancelled():
        time.sleep(0.05)
    return "held"


__all__ = ["server"]
