"""The server of ``bench/stream_bench.py``: ``StreamableHTTPTransport(server)`` with every default.

A client that sends ``resources/subscribe`` for ``bench://clock`` is told
``notifications/resources/updated`` every :data:`PERIOD` seconds, with the time it was sent in the
URI (``bench://clock?t=<time.time()>``), on its GET stream: the bench measures how late it arrives.

``MCP_STREAM_HOLD`` (seconds, or ``none``) sets ``stream_hold`` instead of its default, for the
gevent case's held streams.
"""

from __future__ import annotations

import os
import threading
import time
import typing as t

from mcp_sdk import MCPError, Server
from mcp_sdk.server.transports import StreamableHTTPTransport

#: Seconds between two updates of ``bench://clock``.
PERIOD = float(os.environ.get("BENCH_UPDATE_PERIOD", "2"))

server = Server(name="stream-bench", version="1.0.0")
_lock = threading.Lock()
_subscribers: list[t.Any] = []


@server.resources_subscribe_handler
def subscribe(params: dict[str, t.Any], server_context: t.Any = None) -> None:
    with _lock:
        _subscribers.append(server_context.session)


def _tell_subscribers(stop: threading.Event) -> None:
    while not stop.wait(PERIOD):
        with _lock:
            sessions = list(_subscribers)
        uri = f"bench://clock?t={time.time():.6f}"
        for session in sessions:
            try:
                session.send_notification("notifications/resources/updated", {"uri": uri})
            except MCPError:  # a session that ended
                pass


_stop = threading.Event()
threading.Thread(target=_tell_subscribers, args=(_stop,), name="bench-clock", daemon=True).start()
_hold = os.environ.get("MCP_STREAM_HOLD")
_limits = None if _hold is None else StreamableHTTPTransport.Limits(stream_hold=None if _hold == "none" else float(_hold))
app = StreamableHTTPTransport(server, limits=_limits)
