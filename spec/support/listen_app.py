"""A server for the listen-bound specs (issue 17, item 4): a module-level WSGI ``app`` with the
transport's defaults, ``Limits.listen_hold`` from ``$LISTEN_HOLD`` (seconds) when set.

Tool ``touch``: announces ``notifications/resources/updated`` for ``uri`` to its listeners.

    python -m spec.support.listen_app PORT THREADS    # waitress with THREADS threads
"""

from __future__ import annotations

import os
import sys
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="listen-spec", version="1.0.0")


@server.define_tool(name="touch", input_schema={"properties": {"uri": {"type": "string"}}})
def touch(args: dict[str, t.Any], server_context: t.Any = None) -> str:
    server.notify_resources_updated(str(args["uri"]))
    return "touched"


_hold = os.environ.get("LISTEN_HOLD")
limits = StreamableHTTPTransport.Limits() if _hold is None else StreamableHTTPTransport.Limits(listen_hold=float(_hold))
transport = StreamableHTTPTransport(server, limits=limits)
app = transport

if __name__ == "__main__":
    import waitress

    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), threads=int(sys.argv[2]), _quiet=True)
