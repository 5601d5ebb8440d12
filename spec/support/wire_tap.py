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

    def __init__(self, app: t.Any, sink: t.Callable[[Exchange], None] | None = None) -> None:
        self.app = app
        self.sink = sink  # also given each exchange (a server in a subprocess writes them to a file)
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
        exchange = Exchange(version, request, answers)
        with self._lock:
            self.exchanges.append(exchange)
        if self.sink is not None:
            self.sink(exchange)

    def assert_valid(self, legacy_version: str = "2025-11-25") -> int:
        """Check every answer to a request against its era's schema; returns how many were checked."""
        return assert_valid_exchanges(list(self.exchanges), legacy_version)

    def answers(self, method: str) -> list[dict[str, t.Any]]:
        """The responses (not notifications) to requests of ``method``."""
        return [
            answer
            for exchange in list(self.exchanges)
            if isinstance(exchange.request, dict) and exchange.request.get("method") == method
            for answer in exchange.answers
            if "id" in answer
        ]


def assert_valid_exchanges(exchanges: t.Iterable[Exchange], legacy_version: str = "2025-11-25") -> int:
    """Check every answer to a request in ``exchanges`` against its era's schema; returns how many."""
    checked = 0
    for exchange in exchanges:
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


def stdio_exchanges(requests: t.Iterable[dict[str, t.Any]], answers: t.Iterable[dict[str, t.Any]]) -> list[Exchange]:
    """The exchanges of a stdio conversation, from the lines each side wrote: each request with
    the response of the same id; 2026-07-28 when its ``_meta`` names that version."""
    by_id = {json.dumps(answer["id"]): answer for answer in answers if "id" in answer and "method" not in answer}
    exchanges = []
    for request in requests:
        if "id" not in request or "method" not in request:
            continue
        meta = (request.get("params") or {}).get("_meta") or {}
        version = meta.get("io.modelcontextprotocol/protocolVersion")
        answer = by_id.get(json.dumps(request["id"]))
        exchanges.append(Exchange(version, request, [answer] if answer is not None else []))
    return exchanges


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
