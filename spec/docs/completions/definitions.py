'''Completions of the fragments of the topic guides on definitions and their context
(docs/topics/tools.md, prompts.md, resources.md, server-context.md, apps.md, testing.md).

Names start with ``defs-``; names starting with ``_`` are the completions' own.
'''

from __future__ import annotations

from spec.docs.blocks import blocks


def _fragment(document: str, name: str) -> str:
    """The code of the block marked ``<!-- fragment: name -->`` in ``document``."""
    (code,) = [block.code for block in blocks(document) if block.fragment == name]
    return code


# A Flask app (the block's `app`, with `mcp`) served on 127.0.0.1 by werkzeug, on a free port.
_SERVE_APP = """
import threading
from werkzeug.serving import make_server

_listener = make_server("127.0.0.1", 0, app, threaded=True)
threading.Thread(target=_listener.serve_forever, daemon=True).start()
_url = f"http://127.0.0.1:{_listener.server_port}/mcp"
"""
_STOP_APP = """
_listener.shutdown()
mcp.close(app)
"""

# The page's client talks to http://127.0.0.1:5000/mcp, where `flask run` would serve the app:
# played by the app on its free port.
_TO_FREE_PORT = """
import mcp_sdk.client.http as _http
_original_init = _http.HTTP.__init__

def _to_free_port(self, url, *args, **kwargs):
    _original_init(self, url.replace("http://127.0.0.1:5000/mcp", _url), *args, **kwargs)

_http.HTTP.__init__ = _to_free_port
"""

_FLASK_PROGRESS_CHECK = """
import warnings
from mcp_sdk import Client, MCPDeprecationWarning
from mcp_sdk.client import HTTP

warnings.simplefilter("ignore", MCPDeprecationWarning)
for _mode in ("legacy", "modern"):
    _progress, _logs = [], []
    with Client(transport=HTTP(url=_url)) as _client:
        _client.on_progress(_progress.append)
        _client.on_log_message(_logs.append)
        _client.connect(mode=_mode)
        _client.set_logging_level("info")
        _response = _client.call_tool("import_books", {"count": 2}, progress_token="p")
    assert _response["result"]["content"] == [{"type": "text", "text": "imported 2 books"}], _response
    assert _progress == [
        {"progressToken": "p", "progress": 1, "total": 2, "message": "book 1 of 2"},
        {"progressToken": "p", "progress": 2, "total": 2, "message": "book 2 of 2"},
    ], _progress
    assert _logs == [{"level": "info", "logger": "library",
                      "data": "importing 2 books from https://books.example.com/feed for 127.0.0.1"}], _logs
"""

COMPLETIONS: dict[str, tuple[str, str]] = {
    "defs-flask-progress": ("", _SERVE_APP + _FLASK_PROGRESS_CHECK + _STOP_APP),
    "defs-flask-progress-client": (
        _fragment("docs/topics/server-context.md", "defs-flask-progress") + _SERVE_APP + _TO_FREE_PORT
        + "import warnings\nfrom mcp_sdk import MCPDeprecationWarning\nwarnings.simplefilter('ignore', MCPDeprecationWarning)\n",
        "assert response['result']['content'] == [{'type': 'text', 'text': 'imported 3 books'}], response\n" + _STOP_APP,
    ),
}
