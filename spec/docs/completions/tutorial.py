'''Completions of the fragments of the tutorial, the home page and the Flask and Django topic
guides (see spec/docs/blocks.py); ``after`` exercises what the block built.

Names starting with ``_`` are the completions' own.
'''

from __future__ import annotations

#: An ``initialize`` request, and the headers a Streamable HTTP POST needs.
_INITIALIZE = """
_INIT = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
_ACCEPT = {"Accept": "application/json, text/event-stream"}
"""

#: Serve ``app`` on 127.0.0.1 (werkzeug, threaded) for the duration of the block's ``after``.
_SERVE_APP = """
import threading
from werkzeug.serving import make_server
_listener = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=_listener.serve_forever, daemon=True).start()
_base = f"http://127.0.0.1:{_listener.server_port}"
"""

COMPLETIONS: dict[str, tuple[str, str]] = {
    "tut-flask-factory": (
        "",
        _INITIALIZE
        + """
_one, _two = create_app(), create_app({"TESTING": True})
assert mcp.transport(_one) is not mcp.transport(_two)  # an app, a transport
assert [(rule.rule, rule.endpoint) for rule in _one.url_map.iter_rules() if rule.rule.startswith("/api")] == [("/api/mcp", "mcp_sdk.endpoint")]
_far = _one.test_client().post("/api/mcp", json=_INIT, headers=_ACCEPT, environ_base={"REMOTE_ADDR": "10.0.0.1"})
assert (_far.status_code, _far.get_json()) == (403, {"error": "not from here"})
_near = _one.test_client().post("/api/mcp", json=_INIT, headers=_ACCEPT)
assert _near.status_code == 200 and "Mcp-Session-Id" in _near.headers, _near.get_data()
mcp.close(_one)
mcp.close(_two)
""",
    ),
    "tut-flask-login": (
        "",
        _SERVE_APP
        + """
import requests
from mcp_sdk import Client
from mcp_sdk.client import HTTP

assert requests.post(_base + "/mcp", json={}, headers={"Accept": "application/json, text/event-stream"}).status_code == 401
_seen = {}
for _user in ("ada", "bob"):
    with requests.Session() as _browser:
        assert _browser.post(_base + "/login", data={"username": _user}).text == "signed in"
        _cookie = "; ".join(f"{name}={value}" for name, value in _browser.cookies.items())
    with Client(transport=HTTP(url=_base + "/mcp", headers={"Cookie": _cookie})) as _client:
        _client.connect()
        _names = [tool.name for tool in _client.tools()]
        _who = _client.call_tool("whoami", {})["result"]["content"][0]["text"]
        _saved = _client.call_tool("save_note", {"text": "hi"})["result"]["content"][0]["text"] if "save_note" in _names else None
    _seen[_user] = (_names, _who, _saved)
assert _seen == {"ada": (["save_note", "whoami"], "ada", "ada saved 'hi'"), "bob": (["whoami"], "bob", None)}, _seen
_listener.shutdown()
mcp.close(app)
""",
    ),
    "tut-flask-worker-exit": (
        """
import sys, types
from flask import Flask
from mcp_sdk import Server
from mcp_sdk.contrib.flask import MCP
_module = types.ModuleType("app")  # the reader's app.py
_module.app = Flask("app")
_module.mcp = MCP(_module.app, server=Server(name="weather"))
sys.modules["app"] = _module
""",
        _INITIALIZE
        + """
assert app.test_client().post("/mcp", json=_INIT, headers=_ACCEPT).status_code == 200
worker_exit(None, None)  # as gunicorn calls it
assert app.test_client().post("/mcp", json=_INIT, headers=_ACCEPT).status_code == 503
""",
    ),
}
