"""A server with every transport default, for the many-sessions specs: a module-level WSGI ``app``.

Tool ``chatter``: ``steps`` progress notifications and log messages tagged with ``tag``, ``delay``
seconds apart, then ``"<tag> done"``: long enough that its SSE answer is closed and polled.

    python -m spec.support.polling_app PORT    # waitress with its default threads (4)
"""

from __future__ import annotations

import sys
import time
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="polling-spec", version="1.0.0")


@server.define_tool(
    name="chatter",
    input_schema={"properties": {"steps": {"type": "integer"}, "delay": {"type": "number"}, "tag": {"type": "string"}}},
)
def chatter(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    steps, delay, tag = int(args.get("steps", 3)), float(args.get("delay", 0.1)), str(args.get("tag", ""))
    for step in range(1, steps + 1):
        server_context.report_progress(step, total=steps, message=f"{tag}:{step}")
        server_context.notify_log_message(data=f"{tag}:{step}", level="info", logger="chatter")
        time.sleep(delay)
    return f"{tag} done"


transport = StreamableHTTPTransport(server)  # the defaults, nothing sized by hand
app = transport

if __name__ == "__main__":
    import waitress

    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), _quiet=True)
