"""A stdio server that changes what it serves at run time, behind middleware (spec/mcp_sdk/server/runtime_changes_test.py).

Tools ``remove``, ``disable``, ``enable`` and ``only`` change the server from inside a call, as
an admin tool of a real server would; ``read_count`` says how often the resource was read.
"""

from __future__ import annotations

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))

from mcp_sdk import Resource, Server  # noqa: E402
from mcp_sdk.server.middleware import RateLimit, ResponseCache  # noqa: E402
from mcp_sdk.server.transports import StdioTransport  # noqa: E402

server = Server(name="runtime", version="1.0.0", exclude_tags={"internal"})
reads = [0]


@server.tool(tags={"public"})
def echo(message: str) -> str:
    """Say it back."""
    return message


@server.tool(tags={"admin"})
def wipe() -> str:
    """An admin tool."""
    return "wiped"


@server.tool(tags={"internal"})
def debug() -> str:
    """Hidden by exclude_tags."""
    return "debug"


@server.tool
def remove(name: str) -> str:
    """Remove a tool."""
    server.remove_tool(name)
    return f"removed {name}"


@server.tool
def disable(name: str) -> str:
    """Disable a tool."""
    server.disable_tool(name)
    return f"disabled {name}"


@server.tool
def enable(name: str) -> str:
    """Enable a tool."""
    server.enable_tool(name)
    return f"enabled {name}"


@server.tool
def only(tag: str) -> str:
    """Serve only what carries ``tag`` (and the admin tools without tags stay hidden)."""
    server.filter_tags(include_tags=[tag])
    return f"only {tag}"


@server.tool
def read_count() -> int:
    """How many times data://counter was read by its handler."""
    return reads[0]


@server.tool
def touch() -> str:
    """Say data://counter changed."""
    server.notify_resources_updated("data://counter")
    return "touched"


server.add_resource(Resource(uri="data://counter", name="counter", mime_type="text/plain"))


@server.resources_read_handler
def read(params: dict[str, object]) -> list[dict[str, object]]:
    reads[0] += 1
    return [{"uri": params["uri"], "mimeType": "text/plain", "text": f"read {reads[0]}"}]


server.add_middleware(ResponseCache(ttl=600.0))
server.add_middleware(RateLimit(rate=0.001, burst=int(sys.argv[1]) if len(sys.argv) > 1 else 1000), methods="tools/call")

if __name__ == "__main__":
    StdioTransport(server).open()
