"""The server the hostile-load tests attack, as a module-level WSGI ``app`` for waitress and gunicorn.

``MCP_TRANSPORT_OPTIONS`` (JSON) gives the :class:`StreamableHTTPTransport` options.
Tools: ``echo`` (JSON), ``hold`` (``server_context``: waits ``seconds`` or until
cancelled) and ``stats`` (JSON: what the transport holds now, for the tests to
read from outside the process).

    python -m spec.support.hostile_app PORT THREADS    # waitress
"""

from __future__ import annotations

import json
import os
import sys
import threading
import time
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

_lock = threading.Lock()
_counts = {"holding": 0, "cancelled": 0}


def _count(name: str, change: int) -> None:
    with _lock:
        _counts[name] += change


server = Server(name="hostile-spec", version="1.0.0")


@server.define_tool(name="echo", input_schema={"properties": {"text": {"type": "string"}}})
def echo(args: dict[str, t.Any]) -> str:
    return f"echo: {args.get('text', '')}"


@server.define_tool(name="hold", input_schema={"properties": {"seconds": {"type": "number"}}})
def hold(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    _count("holding", 1)
    try:
        deadline = time.monotonic() + float(args.get("seconds", 30))
        while time.monotonic() < deadline:
            if server_context.cancelled():
                _count("cancelled", 1)
                return "cancelled"
            time.sleep(0.05)
        return "held"
    finally:
        _count("holding", -1)


@server.define_tool(name="stats")
def stats(args: dict[str, t.Any]) -> str:
    with _lock:
        counts = dict(_counts)
    counts["streams"] = transport._stream_limits.open_count
    counts["sessions"] = len(transport.session_ids)
    return json.dumps(counts, sort_keys=True)


transport = StreamableHTTPTransport(server, **json.loads(os.environ.get("MCP_TRANSPORT_OPTIONS", "{}")))
app = transport


if __name__ == "__main__":
    import waitress

    port, threads = int(sys.argv[1]), int(sys.argv[2])
    try:
        waitress.serve(app, host="127.0.0.1", port=port, threads=threads, channel_timeout=60, max_request_body_size=4 * 1024 * 1024)
    finally:
        transport.close()
