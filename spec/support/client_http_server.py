"""A scripted HTTP server on 127.0.0.1 for the HTTP client transport specs.

Each test gives a ``handler(request) -> Reply``; the server records every
request it receives (method, headers, JSON body) so the test can assert on the
exact wire traffic, and streams a reply's body chunk by chunk (chunked
encoding), so SSE timing is real.

    with ScriptedServer(handler) as server:
        transport = HTTP(url=server.url)
        ...
        assert server.requests[0].headers["accept"] == "application/json, text/event-stream"
"""

from __future__ import annotations

import http.server
import json
import threading
import typing as t

#: Seconds any wait in these helpers may take before the test fails.
TIMEOUT = 5.0


class Request(t.NamedTuple):
    """What the server received."""

    method: str
    path: str
    headers: dict[str, str]  # lower-case names
    body: t.Any  # decoded JSON, or None


class Reply(t.NamedTuple):
    """What the server sends: status, headers, and a body (bytes, or chunks to stream)."""

    status: int
    headers: dict[str, str]
    body: bytes | t.Iterable[bytes] = b""


Handler = t.Callable[[Request], Reply]


def json_reply(body: t.Any, status: int = 200, headers: dict[str, str] | None = None) -> Reply:
    """A JSON body."""
    return Reply(status, {"Content-Type": "application/json", **(headers or {})}, json.dumps(body).encode())


def accepted() -> Reply:
    """``202 Accepted``, no body."""
    return Reply(202, {})


def sse_event(data: t.Any = None, id: str | None = None, retry: int | None = None) -> bytes:
    """One SSE event; ``data`` is JSON-encoded unless it is a string."""
    lines = []
    if id is not None:
        lines.append(f"id: {id}")
    if retry is not None:
        lines.append(f"retry: {retry}")
    text = data if isinstance(data, str) else ("" if data is None else json.dumps(data))
    lines.append(f"data: {text}")
    return ("\n".join(lines) + "\n\n").encode()


def sse_reply(chunks: t.Iterable[bytes], headers: dict[str, str] | None = None) -> Reply:
    """An event stream; each chunk is written (and flushed) as the iterable yields it."""
    return Reply(200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache", **(headers or {})}, chunks)


def response_to(request: Request, result: t.Any) -> dict[str, t.Any]:
    """A JSON-RPC success response to the request ``request`` carries."""
    return {"jsonrpc": "2.0", "id": request.body["id"], "result": result}


INITIALIZE_RESULT = {
    "protocolVersion": "2025-11-25",
    "capabilities": {"tools": {}},
    "serverInfo": {"name": "scripted", "version": "1.0.0"},
}


class ScriptedServer:
    """A threaded HTTP/1.1 server driven by ``handler``; use as a context manager."""

    def __init__(self, handler: Handler) -> None:
        self.handler = handler
        self.requests: list[Request] = []
        self.stopping = threading.Event()
        self._received = threading.Condition()
        scripted = self

        class _Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, format: str, *args: t.Any) -> None:
                pass

            def _serve(self) -> None:
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                request = Request(
                    self.command,
                    self.path,
                    {name.lower(): value for name, value in self.headers.items()},
                    json.loads(raw) if raw else None,
                )
                with scripted._received:
                    scripted.requests.append(request)
                    scripted._received.notify_all()
                reply = scripted.handler(request)
                self.send_response(reply.status)
                for name, value in reply.headers.items():
                    self.send_header(name, value)
                if isinstance(reply.body, (bytes, bytearray)):
                    self.send_header("Content-Length", str(len(reply.body)))
                    self.end_headers()
                    self.wfile.write(reply.body)
                    return
                self.send_header("Transfer-Encoding", "chunked")
                self.end_headers()
                try:
                    for chunk in reply.body:
                        if scripted.stopping.is_set():
                            break
                        self.wfile.write(b"%x\r\n%s\r\n" % (len(chunk), chunk))
                        self.wfile.flush()
                    self.wfile.write(b"0\r\n\r\n")
                    self.wfile.flush()
                except OSError:
                    self.close_connection = True

            do_GET = do_POST = do_DELETE = _serve

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        self._server.daemon_threads = True
        self.url = f"http://127.0.0.1:{self._server.server_port}/mcp"
        self._thread = threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.05}, name="scripted-http-server", daemon=True)
        self._thread.start()

    def wait_for(self, predicate: t.Callable[[Request], bool], timeout: float = TIMEOUT) -> Request:
        """The first recorded request matching ``predicate``, waiting for it if need be."""
        with self._received:
            found: list[Request] = []

            def match() -> bool:
                found[:] = [r for r in self.requests if predicate(r)][:1]
                return bool(found)

            if not self._received.wait_for(match, timeout):
                raise AssertionError(f"no matching request within {timeout}s; got {self.methods()}")
            return found[0]

    def methods(self) -> list[str]:
        """``"POST initialize"``, ``"GET"``... for every request so far."""
        return [
            f"{r.method} {r.body.get('method', 'response')}" if isinstance(r.body, dict) else r.method for r in self.requests
        ]

    def close(self) -> None:
        self.stopping.set()
        self._server.shutdown()
        self._server.server_close()
        self._thread.join(TIMEOUT)

    def __enter__(self) -> ScriptedServer:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()


def basic_handler(extra: Handler | None = None, session_id: str | None = "session-1", get_status: int = 405) -> Handler:
    """Answers ``initialize`` (with ``session_id``), notifications and responses (202),
    ``GET`` (``get_status``) and ``DELETE`` (200); everything else goes to ``extra``."""

    def handle(request: Request) -> Reply:
        body = request.body
        if request.method == "GET":
            return Reply(get_status, {})
        if request.method == "DELETE":
            return Reply(200, {})
        if isinstance(body, dict) and body.get("method") == "initialize":
            headers = {"Mcp-Session-Id": session_id} if session_id else {}
            return json_reply(response_to(request, INITIALIZE_RESULT), headers=headers)
        if isinstance(body, dict) and "id" not in body or isinstance(body, dict) and "method" not in body:
            return accepted()
        if extra is not None:
            return extra(request)
        return json_reply(response_to(request, {}))

    return handle
