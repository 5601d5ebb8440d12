"""The server of :mod:`spec.support.polling_server` on ``StreamableHTTPTransport(server)`` with
every default, as a module-level WSGI ``app`` (``/mcp``, and ``/worker``: this process's pid).

    python -m spec.support.polling_app PORT [THREADS]    # waitress (default: its own 4 threads)
"""

from __future__ import annotations

import os
import sys
import typing as t

from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.polling_server import server

transport = StreamableHTTPTransport(server)  # the defaults, nothing sized by hand


def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
    if environ.get("PATH_INFO") == "/worker":
        start_response("200 OK", [("Content-Type", "text/plain")])
        return [str(os.getpid()).encode()]
    return transport(environ, start_response)


if __name__ == "__main__":
    import waitress

    options: dict[str, t.Any] = {"threads": int(sys.argv[2])} if len(sys.argv) > 2 else {}
    waitress.serve(app, host="127.0.0.1", port=int(sys.argv[1]), _quiet=True, **options)
