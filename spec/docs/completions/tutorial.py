'''Completions of the fragments of the tutorial, the home page and the Flask and Django topic
guides (see spec/docs/blocks.py); ``after`` exercises what the block built.

Names starting with ``_`` are the completions' own.
'''

from __future__ import annotations

from spec.docs.completions.readme import DJANGO_LIBRARY

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

#: examples/django_library migrated, with ada (who may add books) and bob (who may not), served on
#: 127.0.0.1; ``_signed_in(user, password)`` gives the headers of an MCP client signed in as the user.
_DJANGO_LIBRARY_SERVED = """
from django.core.management import call_command
from django.contrib.auth.models import Permission, User
from django.core.wsgi import get_wsgi_application
import requests
call_command("migrate", run_syncdb=True, verbosity=0)
_ada = User.objects.create_user("ada", password="lovelace")
_ada.user_permissions.add(Permission.objects.get(codename="add_book"))
User.objects.create_user("bob", password="babbage")
app = get_wsgi_application()
""" + _SERVE_APP + """

def _signed_in(user, password):
    with requests.Session() as browser:
        assert browser.post(_base + "/login", data={"username": user, "password": password}).text == "signed in"
        cookies = dict(browser.cookies.items())
    return {"Cookie": "; ".join(f"{k}={v}" for k, v in cookies.items()), "X-CSRFToken": cookies["csrftoken"]}
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
    "tut-django-oauth": (
        DJANGO_LIBRARY + "import sys\nsys.modules['tut_oauth_urls'] = sys.modules['__main__']\n",
        """
import json
from django.test import Client as _Browser, override_settings
with override_settings(ROOT_URLCONF="tut_oauth_urls"):
    _browser = _Browser(HTTP_HOST="127.0.0.1")
    _metadata = _browser.get("/.well-known/oauth-protected-resource/mcp")
    assert _metadata.status_code == 200, _metadata.content
    assert json.loads(_metadata.content)["resource"] == "https://api.example.com/mcp"
    _refused = _browser.post("/mcp", data="{}", content_type="application/json", HTTP_ACCEPT="application/json, text/event-stream")
    assert _refused.status_code == 401 and _refused["WWW-Authenticate"].startswith("Bearer "), (_refused.status_code, _refused.content)
""",
    ),
    "tut-django-scopes": (
        DJANGO_LIBRARY + "__name__, __package__ = 'library.tools', 'library'\n",
        _DJANGO_LIBRARY_SERVED
        + """
from mcp_sdk import Client
from mcp_sdk.client import HTTP
from library.models import Book
_seen = {}
for _user, _password in (("ada", "lovelace"), ("bob", "babbage")):
    with Client(transport=HTTP(url=_base + "/mcp/", headers=_signed_in(_user, _password))) as _client:
        _client.connect()
        _names = [tool.name for tool in _client.tools()]
        try:
            _answer = _client.call_tool("add_book", {"title": "Emma"})["result"]["content"][0]["text"]
        except Client.ServerError as error:  # 403 insufficient_scope
            _answer = str(error)
    _seen[_user] = ("add_book" in _names, _answer)
assert _seen == {"ada": (True, "added Emma"), "bob": (False, "Forbidden: insufficient scope (requires library.add_book) (code -32600)")}, _seen
assert list(Book.objects.values_list("title", "owner__username")) == [("Emma", "ada")]
_listener.shutdown()
""",
    ),
    "tut-django-principal": (
        "",
        """
from types import SimpleNamespace
_staff = SimpleNamespace(is_authenticated=True, is_active=True, is_staff=True, get_username=lambda: "ada")
_principal = staff_principal(_staff)
assert (_principal.subject, set(_principal.scopes)) == ("ada", {"mcp"})
assert staff_principal(SimpleNamespace(is_authenticated=True, is_active=True, is_staff=False)) is None
assert staff_principal(SimpleNamespace(is_authenticated=False, is_active=True, is_staff=True)) is None
""",
    ),
}
