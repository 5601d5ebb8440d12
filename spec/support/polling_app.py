"""The server of :mod:`spec.support.polling_server` on ``StreamableHTTPTransport(server)`` with
every default, as a module-level WSGI ``app`` (``/mcp``, and ``/worker``: this process's pid).
Every answer names the process that gave it in ``X-Worker``. With ``MCP_REDIS_URL`` set, the
transport shares its sessions and event store through that Redis (``redis_url=``, nothing else).

    python -m spec.support.polling_app PORT [THREADS]    # waitress (default: its own 4 threads)
"""

from __future__ import annotations

import os
import sys
import typing as t

from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.polling_server import server

_redis_url = os.environ.get("MCP_REDIS_URL")
# The defaults, nothing sized by hand.
transport = StreamableHTTPTransport(server, redis_url=_redis_url) if _redis_url else StreamableHTTPTransport(server)
_WORKER = ("X-Worker", str(os.getpid()))


def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
    if environ.get("PATH_INFO") == "/worker":
        start_response("200 OK", [("Content-Type", "text/plain"), _WORKER])
        return [_WORKER[1].encode()]

    def named(status: str, headers: list[tuple[str, str]], *exc_info: t.Any) -> t.Any:
        return start_response(status, [*headers, _WORKER], *exc_info)

    return transport(environ, named)


if __name__ == "__main__":
    import waitress

    options: dict[str, t.Any] = {"threads": int(sys.argv[2])} if len(sys.argv) > 2 else {}
    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), _quiet=True, **options)
