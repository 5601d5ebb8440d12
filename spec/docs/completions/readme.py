'''Completions of the README's and examples/README.md's fragments (see spec/docs/blocks.py).

Names starting with ``_`` are the completions' own; ``after`` may exercise what the block built.
'''

from __future__ import annotations

TOOLS = """
from mcp_sdk import Tool

class SomeTool(Tool):
    @classmethod
    def call(cls):
        return "some"

class AnotherTool(Tool):
    @classmethod
    def call(cls):
        return "another"
"""

FLASK_APP = (
    TOOLS
    + """
from types import SimpleNamespace
from flask import Flask, request
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from mcp_sdk import Server
from mcp_sdk.server.auth import Principal
from mcp_sdk.server.transports import StreamableHTTPTransport

app = Flask(__name__)
server = Server(name="my_server", tools=[SomeTool])
current_user = SimpleNamespace(id="42", is_authenticated=True, scopes=["mcp"])
"""
)

# https://api.example.com/mcp, played by a server on 127.0.0.1 with a `count` tool.
API_EXAMPLE_COM = """
import threading
from werkzeug.serving import make_server
import mcp_sdk.client.http as _http
from mcp_sdk import Client, Server
from mcp_sdk.server.transports import StreamableHTTPTransport

_api = Server(name="api")

@_api.tool
def count(to: int, server_context=None) -> str:
    for step in range(to):
        server_context.report_progress(step + 1, total=to)
    return f"counted to {to}"

_transport = StreamableHTTPTransport(_api)
_listener = make_server("127.0.0.1", 0, _transport, threaded=True)
threading.Thread(target=_listener.serve_forever, name="api.example.com", daemon=True).start()
_original_init = _http.HTTP.__init__

def _to_loopback(self, url, *args, **kwargs):
    _original_init(self, url.replace("https://api.example.com", f"http://127.0.0.1:{_listener.server_port}"), *args, **kwargs)

_http.HTTP.__init__ = _to_loopback
"""
API_EXAMPLE_COM_END = """
_listener.shutdown()
_transport.close()
"""

# The README's Django project is examples/django_library/ (spec/mcp_sdk/contrib/django_test.py
# checks each block is its file and serves it); a block runs with that project set up, a module of
# the library app as the module it is in the project.
DJANGO_LIBRARY = """
import os, sys, tempfile, warnings
sys.path.insert(0, "examples/django_library")
os.environ["DJANGO_SETTINGS_MODULE"] = "settings"
os.environ["LIBRARY_DB"] = os.path.join(tempfile.mkdtemp(), "db.sqlite3")
import django
django.setup()
warnings.filterwarnings("ignore", "Model 'library.book' was already registered")
"""


def _in_library(module: str) -> str:
    return DJANGO_LIBRARY + f"__name__, __package__ = 'library.{module}', 'library'\n"


COMPLETIONS: dict[str, tuple[str, str]] = {
    "django-settings": (DJANGO_LIBRARY, "assert MCP_SDK['SERVER'] == 'library.mcp.server'\n"),
    "django-urls": (DJANGO_LIBRARY, "assert [str(p.pattern) for p in urlpatterns] == ['login', 'mcp/']\n"),
    "django-models": (_in_library("models"), "assert Book._meta.label == 'library.Book'\n"),
    "django-mcp": (_in_library("mcp"), "assert list(server.tools) == ['my_books']\n"),
    "django-rest": (
        _in_library("rest"),
        """
assert list(server.tools) == ['my_books', 'book_list', 'book_retrieve', 'book_create']
assert server.tools['book_create'].to_dict()['inputSchema'] == {
    'type': 'object', 'properties': {'title': {'type': 'string', 'minLength': 1, 'maxLength': 200}}, 'required': ['title']
}
_call = {'jsonrpc': '2.0', 'id': 1, 'method': 'tools/call', 'params': {'name': 'book_create', 'arguments': {'title': 'Emma'}}}
_answer = server.handle(_call)['result']  # stdio: no request, no principal, so anonymous
assert _answer['structuredContent'] == {'status': 403, 'detail': 'You do not have permission to perform this action.'}, _answer
""",
    ),
    "flask-mount": (
        TOOLS,
        """
from werkzeug.test import Client as _Client
_answer = _Client(app).post("/mcp", json={"jsonrpc": "2.0", "id": 1, "method": "ping"},
                            headers={"Accept": "application/json, text/event-stream"})
assert _answer.status_code == 400, _answer.status_code  # reached the transport: a session is required
""",
    ),
    "flask-view": (
        FLASK_APP,
        """
_init = {"jsonrpc": "2.0", "id": 1, "method": "initialize",
         "params": {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}}
_answer = app.test_client().post("/mcp", json=_init, headers={"Accept": "application/json, text/event-stream"})
assert _answer.status_code == 200, _answer.get_data()
""",
    ),
    "flask-extension": (
        "",
        """
import threading
import requests
from werkzeug.serving import make_server
from mcp_sdk import Client
from mcp_sdk.client import HTTP

_listener = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=_listener.serve_forever, daemon=True).start()
_base = f"http://127.0.0.1:{_listener.server_port}"
_browser = requests.Session()
assert _browser.post(_base + "/mcp", json={}).status_code == 401
assert _browser.post(_base + "/login", data={"username": "ada", "password": "lovelace"}).text == "signed in"
_cookie = "; ".join(f"{name}={value}" for name, value in _browser.cookies.items())
with Client(transport=HTTP(url=_base + "/mcp", headers={"Cookie": _cookie})) as _client:
    _client.connect()
    _books = _client.call_tool("my_books")["result"]["content"]
assert [_book["text"] for _book in _books] == ["Notes", "Sketch of the Analytical Engine"], _books
_listener.shutdown()
mcp.close(app)
""",
    ),
    "waitress-serve": (
        """
import waitress
from examples.http_server import app

def _serve_once(app, **options):  # check the options waitress takes, then stop instead of serving
    waitress.create_server(app, **{**options, "host": "127.0.0.1", "port": 0}).close()

waitress.serve = _serve_once
""",
        "",
    ),
}
