"""Real servers for the client specs: this project's server over stdio (a subprocess)
and over Streamable HTTP (a threaded WSGI server on 127.0.0.1).
"""

from __future__ import annotations

import contextlib
import io
import json
import pathlib
import sys
import threading
import typing as t

from mcp_sdk.client import Stdio

ROOT = pathlib.Path(__file__).resolve().parents[2]
#: Seconds a spec waits for anything before failing.
TIMEOUT = 10.0


def fixture_stdio(**options: t.Any) -> Stdio:
    """A stdio transport that runs ``spec/support/client_fixture_server.py``."""
    options.setdefault("read_timeout", TIMEOUT)
    return Stdio(command=sys.executable, args=["-m", "spec.support.client_fixture_server"], cwd=str(ROOT), **options)


def script_stdio(script: str, *args: str, **options: t.Any) -> Stdio:
    """A stdio transport that runs a script of ``spec/support/``."""
    options.setdefault("read_timeout", TIMEOUT)
    return Stdio(command=sys.executable, args=[str(ROOT / "spec" / "support" / script), *args], **options)


@contextlib.contextmanager
def wsgi_server(app: t.Any) -> t.Iterator[str]:
    """Serve ``app`` with werkzeug's threaded server on a free port; yields the ``/mcp`` URL."""
    from werkzeug.serving import WSGIRequestHandler, make_server

    class QuietHandler(WSGIRequestHandler):
        def log(self, type: str, message: str, *args: t.Any) -> None:
            pass

    server = make_server("127.0.0.1", 0, app, threaded=True, request_handler=QuietHandler)
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, name="spec-wsgi-server", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_port}/mcp"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(TIMEOUT)


class Received(t.NamedTuple):
    """A request the WSGI app received."""

    method: str
    headers: dict[str, str]  # lower-case names
    body: t.Any  # decoded JSON, or None


class Recorder:
    """WSGI middleware that records every request before passing it on."""

    def __init__(self, app: t.Any) -> None:
        self.app = app
        self.received: list[Received] = []

    def __call__(self, environ: dict[str, t.Any], start_response: t.Any) -> t.Any:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(raw)
        headers = {key[5:].replace("_", "-").lower(): value for key, value in environ.items() if key.startswith("HTTP_")}
        if "CONTENT_TYPE" in environ:
            headers["content-type"] = environ["CONTENT_TYPE"]
        self.received.append(Received(environ["REQUEST_METHOD"], headers, json.loads(raw) if raw else None))
        return self.app(environ, start_response)

    def bodies(self, method: str) -> list[t.Any]:
        """Bodies of the POSTs of JSON-RPC ``method``."""
        return [r.body for r in self.received if isinstance(r.body, dict) and r.body.get("method") == method]


@contextlib.contextmanager
def fixture_http(**transport_options: t.Any) -> t.Iterator[tuple[str, Recorder]]:
    """The fixture server in :class:`StreamableHTTPTransport`, served on 127.0.0.1;
    yields its URL and the :class:`Recorder` of what it received."""
    from mcp_sdk.server.transports import StreamableHTTPTransport
    from spec.support.client_fixture_server import build_server

    # werkzeug's threaded server has a thread per connection: size the stream caps for plenty.
    recorder = Recorder(StreamableHTTPTransport(build_server(), **{"wsgi_threads": 32, **transport_options}))
    with wsgi_server(recorder) as url:
        yield url, recorder
