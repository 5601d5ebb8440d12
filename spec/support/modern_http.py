"""Raw 2026-07-28 requests over real HTTP, as the conformance suite's stateless client sends them:
one POST per request, the ``_meta`` envelope, ``Mcp-Method``/``Mcp-Name`` headers."""

from __future__ import annotations

import itertools
import json
import typing as t

import requests

from .http_client import ACCEPT_BOTH, TIMEOUT, messages_of, read_events

MODERN = "2026-07-28"
TASKS = "io.modelcontextprotocol/tasks"
#: Client capabilities of a client that takes tasks (and can answer elicitations).
WITH_TASKS: dict[str, t.Any] = {"elicitation": {}, "extensions": {TASKS: {}}}
#: The name-shaped body field each method's ``Mcp-Name`` header mirrors.
NAME_FIELDS = {"tools/call": "name", "prompts/get": "name", "resources/read": "uri"}


class ModernHTTP:
    """Sends 2026-07-28 requests to ``url``, each declaring ``capabilities``."""

    def __init__(self, url: str, capabilities: dict[str, t.Any] | None = None) -> None:
        self.url = url
        self.capabilities = capabilities if capabilities is not None else {}
        self._ids = itertools.count(1)
        self.http = requests.Session()

    def close(self) -> None:
        self.http.close()

    def message(self, method: str, params: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
        params = dict(params or {})
        meta = {
            "io.modelcontextprotocol/protocolVersion": MODERN,
            "io.modelcontextprotocol/clientInfo": {"name": "spec-client", "version": "1.0.0"},
            "io.modelcontextprotocol/clientCapabilities": self.capabilities,
            **params.get("_meta", {}),
        }
        params["_meta"] = meta
        return {"jsonrpc": "2.0", "id": next(self._ids), "method": method, "params": params}

    def headers(self, message: dict[str, t.Any], **extra: str) -> dict[str, str]:
        headers = {
            "Content-Type": "application/json",
            "Accept": ACCEPT_BOTH,
            "MCP-Protocol-Version": MODERN,
            "Mcp-Method": message["method"],
        }
        params = message["params"]
        field = "taskId" if message["method"].startswith("tasks/") else NAME_FIELDS.get(message["method"])
        if field is not None and isinstance(params.get(field), str):
            headers["Mcp-Name"] = params[field]
        headers.update(extra)
        return headers

    def post(self, message: dict[str, t.Any], **headers: str) -> requests.Response:
        return self.http.post(
            self.url, data=json.dumps(message), headers=self.headers(message, **headers), timeout=TIMEOUT
        )

    def response(self, method: str, params: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
        """The JSON-RPC response (result or error) to one request."""
        message = self.message(method, params)
        answer = self.post(message)
        if answer.status_code != 200:
            return t.cast("dict[str, t.Any]", answer.json())
        replies = [m for m in messages_of(answer) if isinstance(m, dict) and m.get("id") == message["id"]]
        assert len(replies) == 1, replies
        return replies[0]

    def result(self, method: str, params: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
        response = self.response(method, params)
        assert "result" in response, response
        return t.cast("dict[str, t.Any]", response["result"])

    def stream(self, method: str, params: dict[str, t.Any] | None = None) -> t.Iterator[dict[str, t.Any]]:
        """The messages of a long-lived request's SSE stream, as they come (closed when the iterator is)."""
        message = self.message(method, params)
        with self.http.post(
            self.url, data=json.dumps(message), headers=self.headers(message), timeout=TIMEOUT, stream=True
        ) as answer:
            assert answer.status_code == 200, answer.text
            for event in read_events(answer):
                if event.data:
                    yield t.cast("dict[str, t.Any]", event.message)

    def __enter__(self) -> ModernHTTP:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()
