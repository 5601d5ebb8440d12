"""An API that misbehaves, for the ``from_openapi`` security specs: it redirects where it is told,
answers bodies of any size, drips an answer a byte at a time, and records every request it gets
(raw path, query, the headers named in :attr:`HostileAPI.HEADERS`, body). Served by
:func:`spec.support.openapi_api.serving`; two of them on two ports are two origins.

Its document, :data:`DOCUMENT`, has one operation per trick, and parameters in every location.
"""

from __future__ import annotations

import gzip
import typing as t

from werkzeug.wrappers import Request, Response

from mcp_sdk import Server
from spec.support.openapi_api import APIApp

#: How long the dripping answer waits between bytes, and the most bytes it drips.
DRIP_INTERVAL = 0.25
DRIP_BYTES = 40
#: What the binary operations answer.
BLOB = b"\x00\x01binary"

_TEXT = {"type": "string"}
_JSON_OK = {"200": {"description": "ok", "content": {"application/json": {}}}}

#: The API's document: every operation answers what :class:`HostileAPI` serves for its path.
DOCUMENT: dict[str, t.Any] = {
    "openapi": "3.1.0",
    "info": {"title": "Hostile", "version": "1"},
    "paths": {
        "/projects/{pid}": {
            "parameters": [{"name": "pid", "in": "path", "required": True, "schema": _TEXT}],
            "get": {"operationId": "getProject", "responses": _JSON_OK},
            "delete": {"operationId": "deleteProject", "responses": {"204": {"description": "gone"}}},
        },
        "/projects/{pid}/members/{uid}": {
            "parameters": [
                {"name": "pid", "in": "path", "required": True, "schema": _TEXT},
                {"name": "uid", "in": "path", "required": True, "schema": _TEXT},
            ],
            "get": {"operationId": "getMember", "responses": _JSON_OK},
            "delete": {"operationId": "removeMember", "responses": {"204": {"description": "gone"}}},
        },
        "/files/{stem}{suffix}": {
            "get": {
                "operationId": "getFile",
                "parameters": [
                    {"name": "stem", "in": "path", "required": True, "schema": _TEXT},
                    {"name": "suffix", "in": "path", "required": True, "schema": _TEXT},
                ],
                "responses": _JSON_OK,
            }
        },
        "/echo": {
            "post": {
                "operationId": "echo",
                "parameters": [
                    {"name": "city", "in": "query", "schema": _TEXT},
                    {"name": "tags", "in": "query", "schema": {"type": "array", "items": _TEXT}},
                    {"name": "X-Mode", "in": "header", "schema": _TEXT},
                    {"name": "Authorization", "in": "header", "schema": _TEXT},
                    {"name": "pref", "in": "cookie", "schema": _TEXT},
                    {"name": "langs", "in": "cookie", "schema": {"type": "array", "items": _TEXT}},
                ],
                "requestBody": {"content": {"application/json": {"schema": {
                    "type": "object", "properties": {"note": _TEXT}}}}},
                "responses": _JSON_OK,
            }
        },
        "/download": {
            "get": {
                "operationId": "download",
                "parameters": [{"name": "city", "in": "query", "schema": _TEXT}],
                "responses": {"200": {"description": "bytes", "content": {"application/octet-stream": {}}}},
            }
        },
        "/redirect": {
            "post": {
                "operationId": "redirect",
                "parameters": [
                    {"name": "to", "in": "query", "required": True, "schema": _TEXT},
                    {"name": "status", "in": "query", "schema": {"type": "integer"}},
                ],
                "requestBody": {"content": {"application/json": {"schema": {
                    "type": "object", "properties": {"note": _TEXT}}}}},
                "responses": _JSON_OK,
            }
        },
        "/big": {
            "get": {
                "operationId": "big",
                "parameters": [
                    {"name": "size", "in": "query", "required": True, "schema": {"type": "integer"}},
                    {"name": "declared", "in": "query", "schema": {"type": "boolean"}},
                    {"name": "status", "in": "query", "schema": {"type": "integer"}},
                    {"name": "gzip", "in": "query", "schema": {"type": "boolean"}},
                ],
                "responses": {"200": {"description": "bytes", "content": {"application/octet-stream": {}}}},
            }
        },
        "/drip": {"get": {"operationId": "drip", "responses": _JSON_OK}},
    },
}


class HostileAPI(APIApp):
    """The app; :attr:`requests` lists what it received (see :class:`~spec.support.openapi_api.Recorded`)."""

    HEADERS = ("Authorization", "Content-Type", "Cookie", "X-API-Key", "X-Mode", "X-Evil")

    def route(self, request: Request, body: t.Any) -> Response:
        path = request.path
        if path == "/redirect":
            return Response(status=int(request.args.get("status", "302")), headers={"Location": request.args["to"]})
        if path == "/big" and request.args.get("gzip") == "true":
            packed = gzip.compress(b"x" * int(request.args["size"]))
            return Response(packed, mimetype="application/octet-stream", headers={"Content-Encoding": "gzip"})
        if path == "/big":
            return self.big(int(request.args["size"]), request.args.get("declared") == "true", int(request.args.get("status", "200")))
        if path == "/drip":
            return Response(self.drip(), mimetype="application/json")
        if path == "/download":
            return Response(BLOB, mimetype="application/octet-stream")
        if path == "/echo" and request.method == "POST":
            return Response(b'{"echo": "ok"}', mimetype="application/json")
        return Response(f"{request.method} {path} reached", status=200, mimetype="text/plain")

    def big(self, size: int, declared: bool, status: int) -> Response:
        """``size`` bytes, sent 64 KiB at a time, with a Content-Length when ``declared``."""
        def chunks() -> t.Iterator[bytes]:
            sent = 0
            while sent < size:
                piece = min(65536, size - sent)
                sent += piece
                yield b"x" * piece

        headers = {"Content-Length": str(size)} if declared else {}
        return Response(chunks(), status=status, mimetype="application/octet-stream", headers=headers)

    def drip(self) -> t.Iterator[bytes]:
        """One byte every :data:`DRIP_INTERVAL` seconds, until :meth:`release` or :data:`DRIP_BYTES` bytes."""
        yield b"["
        for _ in range(DRIP_BYTES):
            if self.released.wait(DRIP_INTERVAL):
                return
            yield b" "
        yield b"]"


def call_tool(server: Server, name: str, arguments: dict[str, t.Any]) -> dict[str, t.Any]:
    """The server's JSON-RPC response to a ``tools/call`` of ``name`` with ``arguments``."""
    answer = server.handle({"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": name, "arguments": arguments}})
    assert answer is not None
    return t.cast(t.Dict[str, t.Any], answer)
