"""WSGI middleware that keeps every JSON-RPC request a server received with the messages it
answered (a JSON body or an SSE stream), and checks them against the MCP schemas: a 2025 answer
by its method's result definition, a 2026-07-28 one (``MCP-Protocol-Version: 2026-07-28``) by
:func:`~spec.support.wire_schema.assert_valid_modern`."""

from __future__ import annotations

import io
import json
import threading
import typing as t

from spec.support import wire_schema


class Exchange(t.NamedTuple):
    """One HTTP request: the JSON-RPC message it carried and what came back."""

    protocol_version: str | None  # the MCP-Protocol-Version header
    request: t.Any
    answers: list[dict[str, t.Any]]


class WireTap:
    """Wraps a WSGI app; :attr:`exchanges` fill in as responses finish."""

    def __init__(self, app: t.Any) -> None:
        self.app = app
        self.exchanges: list[Exchange] = []
        self._lock = threading.Lock()

    def __call__(self, environ: dict[str, t.Any], start_response: t.Any) -> t.Any:
        length = int(environ.get("CONTENT_LENGTH") or 0)
        raw = environ["wsgi.input"].read(length) if length else b""
        environ["wsgi.input"] = io.BytesIO(raw)
        content_type: list[str] = []

        def start(status: str, headers: list[tuple[str, str]], exc_info: t.Any = None) -> t.Any:
            content_type.extend(value for name, value in headers if name.lower() == "content-type")
            return start_response(status, headers, exc_info)

        body = self.app(environ, start)
        request = json.loads(raw) if raw else None
        return _Tapped(body, lambda data: self._record(environ.get("HTTP_MCP_PROTOCOL_VERSION"), request, content_type, data))

    def _record(self, version: str | None, request: t.Any, content_type: list[str], data: bytes) -> None:
        kind = content_type[0] if content_type else ""
        answers: list[dict[str, t.Any]] = []
        if kind.startswith("application/json") and data.strip():
            answers.append(json.loads(data))
        elif kind.startswith("text/event-stream"):
            for line in data.decode("utf-8").splitlines():
                if line.startswith("data:") and line[5:].strip():
                    answers.append(json.loads(line[5:]))
        with self._lock:
            self.exchanges.append(Exchange(version, request, answers))

    def assert_valid(self, legacy_version: str = "2025-11-25") -> int:
        """Check every answer to a request against its era's schema; returns how many were checked."""
        checked = 0
        for exchange in list(self.exchanges):
            request = exchange.request
            if not isinstance(request, dict) or "id" not in request or "method" not in request:
                continue
            for answer in exchange.answers:
                if exchange.protocol_version == wire_schema.MODERN:
                    wire_schema.assert_valid_modern(request["method"], answer)
                elif answer.get("id") == request["id"]:
                    wire_schema.assert_valid_response(request["method"], answer, legacy_version)
                else:
                    wire_schema.assert_valid("JSONRPCNotification", answer, legacy_version)
                checked += 1
        return checked

    def answers(self, method: str) -> list[dict[str, t.Any]]:
        """The responses (not notifications) to requests of ``method``."""
        return [
            answer
            for exchange in list(self.exchanges)
            if isinstance(exchange.request, dict) and exchange.request.get("method") == method
            for answer in exchange.answers
            if "id" in answer
        ]


class _Tapped:
    """The app's response iterable, copied as it goes; the copy is handed on at close."""

    def __init__(self, body: t.Iterable[bytes], done: t.Callable[[bytes], None]) -> None:
        self._body = body
        self._done = done
        self._chunks: list[bytes] = []

    def __iter__(self) -> t.Iterator[bytes]:
        for chunk in self._body:
            self._chunks.append(chunk)
            yield chunk

    def close(self) -> None:
        close = getattr(self._body, "close", None)
        if close is not None:
            close()
        self._done(b"".join(self._chunks))
