"""A werkzeug app implementing a few operations of the OpenAPI fixtures (``spec/fixtures/openapi/``):
the Swagger Petstore 3.0 under ``/api/v3``, Redocly's Museum API 3.1 under ``/museum`` and
Discord's HTTP API 3.1 under ``/discord/api/v10``. Every request is recorded (method, raw path, query, a few headers, body)
so specs can check what a tool call sent.
"""

from __future__ import annotations

import contextlib
import json
import threading
import typing as t

from werkzeug.serving import WSGIRequestHandler, make_server
from werkzeug.wrappers import Request, Response

#: A 1x1 PNG, the Museum API's ticket QR code.
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d49484452000000010000000108060000001f15c4890000000d49444154789c63f8cfc0f01f"
    "00050001ff89993d1d0000000049454e44ae426082"
)


#: What the Discord operations answer: every property the document requires of a user and a message.
DISCORD_USER = {
    "id": "80351110224678912", "username": "Nelly", "avatar": None, "discriminator": "1337",
    "public_flags": 0, "flags": 0, "global_name": None,
}
DISCORD_MESSAGE = {
    "type": 0, "mentions": [], "mention_roles": [], "attachments": [], "embeds": [], "timestamp": "2026-11-25T17:00:00+00:00",
    "edited_timestamp": None, "flags": 0, "components": [], "author": {**DISCORD_USER, "primary_guild": None}, "pinned": False,
    "mention_everyone": False, "tts": False,
}


class Recorded(t.NamedTuple):
    method: str
    path: str  #: as sent, still percent-encoded
    query: str
    headers: dict[str, str]
    body: t.Any


class APIApp:
    """The WSGI app; :attr:`requests` lists what it received, :meth:`release` (setting :attr:`released`) ends the slow endpoint's wait."""

    HEADERS = ("Authorization", "X-Trace", "Content-Type")

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.pets: dict[int, dict[str, t.Any]] = {1: {"id": 1, "name": "Rex", "photoUrls": [], "status": "available"}}
        self.events: dict[str, dict[str, t.Any]] = {}
        self.messages: dict[str, dict[str, t.Any]] = {}
        self.released = threading.Event()
        self._lock = threading.Lock()

    def release(self) -> None:
        self.released.set()

    def __call__(self, environ: dict[str, t.Any], start_response: t.Any) -> t.Any:
        request = Request(environ)
        raw = request.get_data(as_text=True)
        body: t.Any = json.loads(raw) if raw and request.mimetype == "application/json" else (raw or None)
        if request.mimetype == "application/x-www-form-urlencoded":
            body = dict(request.form)
        raw_path = environ.get("RAW_URI", environ.get("REQUEST_URI", request.path)).split("?", 1)[0]
        headers = {name: request.headers[name] for name in self.HEADERS if name in request.headers}
        if "HTTP_API_KEY" in environ:
            headers["api_key"] = environ["HTTP_API_KEY"]
        with self._lock:
            self.requests.append(Recorded(request.method, raw_path, request.query_string.decode(), headers, body))
        return self.route(request, body)(environ, start_response)

    def route(self, request: Request, body: t.Any) -> Response:
        method, path = request.method, request.path
        if path == "/api/v3/pet" and method == "POST":
            pet = {**body, "id": body.get("id", len(self.pets) + 1)}
            self.pets[pet["id"]] = pet
            return _json(pet)
        if path == "/api/v3/pet/findByStatus" and method == "GET":
            status = request.args.get("status", "available")
            return _json([pet for pet in self.pets.values() if pet.get("status") == status])
        if path.startswith("/api/v3/pet/") and method in ("GET", "DELETE"):
            pet_id = path.rsplit("/", 1)[1]
            if not pet_id.isdigit() or int(pet_id) not in self.pets:
                return Response("Pet not found" + " (no such pet)" * 100, status=404, mimetype="text/plain")
            if method == "DELETE":
                if request.environ.get("HTTP_API_KEY") != "special-key":
                    return Response("Invalid pet value", status=400)
                del self.pets[int(pet_id)]
                return Response("Pet deleted", mimetype="text/plain")
            return _json(self.pets[int(pet_id)])
        if path == "/api/v3/store/inventory":
            counts: dict[str, int] = {}
            for pet in self.pets.values():
                counts[pet["status"]] = counts.get(pet["status"], 0) + 1
            return _json(counts)
        if path == "/api/v3/user/login":
            return _json(f"logged in user session:{request.args.get('username')}")
        if path.startswith("/api/v3/store/order/"):
            self.released.wait(30)  # the timeout spec's slow answer: held until the spec releases it
            return _json({"id": 1})
        if path == "/museum/museum-hours":
            return _json([{"date": request.args.get("startDate", "2023-09-11"), "timeOpen": "09:00", "timeClose": "18:00"}])
        if path == "/museum/special-events" and method == "POST":
            event = {**body, "eventId": f"ev-{len(self.events) + 1}"}
            self.events[event["eventId"]] = event
            return _json(event, 201)
        if path.startswith("/museum/special-events/"):
            event_id = request.path.rsplit("/", 1)[1]
            if event_id not in self.events:
                return _json({"type": "object", "title": "Not Found"}, 404, "application/problem+json")
            if method == "PATCH":
                self.events[event_id].update(body)
            if method == "DELETE":
                del self.events[event_id]
                return Response(status=204)
            return _json(self.events[event_id])
        if path.startswith("/museum/tickets/") and path.endswith("/qr"):
            return Response(PNG, mimetype="image/png")
        if path.endswith("/download"):  # spec/mcp_sdk/openapi/operation_test.py's own document
            return Response(b"\x00\x01binary", mimetype="application/octet-stream")
        if path.startswith("/discord/api/v10/"):
            return self.discord(request, body, path[len("/discord/api/v10"):])
        return Response("no such operation here", status=501, mimetype="text/plain")

    def discord(self, request: Request, body: t.Any, path: str) -> Response:
        if path == "/users/@me":
            return _json({**DISCORD_USER, "mfa_enabled": False, "locale": "en-US"})
        parts = path.strip("/").split("/")
        if parts[:1] == ["channels"] and parts[2:3] == ["messages"]:
            if len(parts) == 3 and request.method == "POST":
                message = {
                    **DISCORD_MESSAGE, "id": str(1000 + len(self.messages)), "channel_id": parts[1], "content": body.get("content"),
                }
                self.messages[message["id"]] = message
                return _json(message)
            if len(parts) == 3:
                limit = int(request.args.get("limit", 50))
                return _json([m for m in self.messages.values() if m["channel_id"] == parts[1]][:limit])
            if parts[3] not in self.messages:
                return _json({"message": "Unknown Message", "code": 10008}, 404)
            if request.method == "DELETE":
                del self.messages[parts[3]]
                return Response(status=204)
            return _json(self.messages[parts[3]])
        return _json({"message": "404: Not Found", "code": 0}, 404)


def _json(value: t.Any, status: int = 200, mimetype: str = "application/json") -> Response:
    return Response(json.dumps(value), status=status, mimetype=mimetype)


class _KeepUnderscoredHeaders(WSGIRequestHandler):
    """werkzeug's server drops headers with ``_`` in their name; the Petstore's ``api_key`` has one."""

    def make_environ(self) -> dict[str, t.Any]:
        environ = super().make_environ()
        for key, value in self.headers.items():
            if "_" in key:
                environ["HTTP_" + key.upper().replace("-", "_")] = value
        return environ


@contextlib.contextmanager
def serving(app: APIApp) -> t.Iterator[str]:
    """Serve ``app`` on 127.0.0.1 (werkzeug, threaded); yields its base URL, stops it after."""
    httpd = make_server("127.0.0.1", 0, app, threaded=True, request_handler=_KeepUnderscoredHeaders)
    thread = threading.Thread(target=httpd.serve_forever, kwargs={"poll_interval": 0.05}, name="openapi-api", daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_port}"
    finally:
        app.release()
        httpd.shutdown()
        httpd.server_close()
        thread.join(10)
