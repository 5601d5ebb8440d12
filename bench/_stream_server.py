"""The server of ``bench/stream_bench.py``: ``StreamableHTTPTransport(server)`` with every default."""

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

app = StreamableHTTPTransport(Server(name="stream-bench", version="1.0.0"))
