"""The server of ``bench/stream_bench.py``: ``StreamableHTTPTransport(server)`` with every default.

``MCP_STREAM_HOLD`` (seconds, or ``none``) sets ``stream_hold`` instead, for the gevent case's held streams.
"""

import os

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

_hold = os.environ.get("MCP_STREAM_HOLD")
_limits = None if _hold is None else StreamableHTTPTransport.Limits(stream_hold=None if _hold == "none" else float(_hold))
app = StreamableHTTPTransport(Server(name="stream-bench", version="1.0.0"), limits=_limits)
