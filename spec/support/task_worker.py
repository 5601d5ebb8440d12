"""A worker process for the shared-task-store specs: ``python -m spec.support.task_worker PORT REDIS_URL``.

Serves a server with the :mod:`spec.support.task_tools` tools over Streamable HTTP on
127.0.0.1, with its tasks (and sessions) on Redis, until it is killed.
"""

from __future__ import annotations

import sys

from werkzeug.serving import make_server

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.task_tools import AskName, Gated


def main(port: int, redis_url: str) -> None:
    transport = StreamableHTTPTransport(Server(name="worker", tools=[Gated, AskName]), redis_url=redis_url, wsgi_threads=16)
    make_server("127.0.0.1", port, transport, threaded=True).serve_forever()


if __name__ == "__main__":
    main(int(sys.argv[1]), sys.argv[2])
