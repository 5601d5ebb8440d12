"""A server with every transport default, for the gevent specs: a module-level WSGI ``app``.

Tool ``reload`` says the tool list changed, to every ``subscriptions/listen`` stream and GET stream.

    gunicorn -k gevent -w 1 -b 127.0.0.1:PORT spec.support.gevent_app:app
"""

from __future__ import annotations

import typing as t

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="gevent-spec", version="1.0.0")


@server.define_tool(name="reload", input_schema={"properties": {}})
def reload(args: dict[str, t.Any]) -> str:
    server.notify_tools_list_changed()
    return "reloaded"


transport = StreamableHTTPTransport(server)  # the defaults, nothing sized by hand
app = transport
