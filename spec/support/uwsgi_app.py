"""The app named in ``MCP_UWSGI_APP`` (``module:attribute``), served under uWSGI with one more path:
``/detected`` answers, in JSON, what the transport reads of the server inside this process.

    uwsgi --http-socket 127.0.0.1:PORT --gevent 1000 --gevent-early-monkey-patch --master \\
        --processes 1 --module spec.support.uwsgi_app:app    # MCP_UWSGI_APP=spec.support.gevent_app:app
"""

from __future__ import annotations

import importlib
import json
import os
import typing as t

from mcp_sdk._gevent import green_threads
from mcp_sdk.server.transports.streamable_http.capacity.thread_capacity import wsgi_threads_of

_module, _name = os.environ["MCP_UWSGI_APP"].split(":")
_served = getattr(importlib.import_module(_module), _name)


def app(environ: dict[str, t.Any], start_response: t.Callable[..., t.Any]) -> t.Iterable[bytes]:
    if environ.get("PATH_INFO") != "/detected":
        return t.cast(t.Iterable[bytes], _served(environ, start_response))
    found = {"connections": wsgi_threads_of(environ), "green": green_threads(), "multithread": environ["wsgi.multithread"]}
    start_response("200 OK", [("Content-Type", "application/json")])
    return [json.dumps(found).encode()]
