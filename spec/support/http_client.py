"""A small Streamable HTTP client for the tests: ``requests`` plus an SSE reader that keeps every field.

:func:`read_events` parses a streamed response into :class:`Event` objects,
priming events (id, empty data) and retry-only events included, so tests can
assert exactly what went over the wire. :class:`Client` keeps the session id and
protocol version headers. Every network wait has a timeout (:data:`TIMEOUT`).
"""

from __future__ import annotations

import dataclasses
import json
import typing as t

import requests

#: Seconds any read waits before the test fails.
TIMEOUT = 5.0
ACCEPT_BOTH = "application/json, text/event-stream"
LATEST = "2025-11-25"
CLIENT_INFO = {"name": "spec-client", "version": "1.0.0"}


@dataclasses.dataclass
class Event:
    """One SSE event as sent: ``data`` None when the event had no data field."""

    id: str | None = None
    data: str | None = None
    retry: int | None = None

    @property
    def message(self) -> t.Any:
        """The JSON-RPC message the event carries."""
        assert self.data, f"event {self} carries no message"
        return json.loads(self.data)


def parse_event(block: str) -> Event | None:
    """One event from the text between blank lines; None for a comment-only block."""
    event = Event()
    seen = False
    for line in block.split("\n"):
        if not line or line.startswith(":"):
            continue
        field, _, value = line.partition(":")
        value = value[1:] if value.startswith(" ") else value
        seen = True
        if field == "id":
            event.id = value
        elif field == "data":
            event.data = value if event.data is None else event.data + "\n" + value
        elif field == "retry":
            event.retry = int(value)
    return event if seen else None


def read_events(response: requests.Response) -> t.Iterator[Event]:
    """The events of a streamed SSE response, as they arrive, until the server ends it."""
    buffer = ""
    for chunk in response.iter_content(chunk_size=None):
        buffer += chunk.decode("utf-8")
        while "\n\n" in buffer:
            block, buffer = buffer.split("\n\n", 1)
            event = parse_event(block)
            if event is not None:
                yield event


def initialize_message(version: str = LATEST, capabilities: dict[str, t.Any] | None = None, id: t.Any = 0) -> dict[str, t.Any]:
    return {
        "jsonrpc": "2.0",
        "id": id,
        "method": "initialize",
        "params": {"protocolVersion": version, "capabilities": capabilities or {}, "clientInfo": CLIENT_INFO},
    }


class Client:
    """One MCP client session over HTTP (not the SDK's client: the tests' own, to see the wire)."""

    def __init__(self, url: str, http: requests.Session | None = None) -> None:
        self.url = url
        self.http = http or requests.Session()
        self.session_id: str | None = None
        self.protocol_version: str | None = None

    def headers(self, **extra: str) -> dict[str, str]:
        headers = {"Accept": ACCEPT_BOTH, "Content-Type": "application/json"}
        if self.session_id is not None:
            headers["Mcp-Session-Id"] = self.session_id
        if self.protocol_version is not None:
            headers["MCP-Protocol-Version"] = self.protocol_version
        headers.update(extra)
        return headers

    def post(self, message: t.Any, headers: dict[str, str] | None = None, stream: bool = True) -> requests.Response:
        """POST a message; the caller closes the response (``with``)."""
        return self.http.post(self.url, json=message, headers=headers or self.headers(), stream=stream, timeout=TIMEOUT)

    def get(self, headers: dict[str, str] | None = None) -> requests.Response:
        """Open the GET stream; the caller closes it."""
        return self.http.get(self.url, headers=headers or self.headers(Accept="text/event-stream"), stream=True, timeout=TIMEOUT)

    def delete(self) -> requests.Response:
        with self.http.delete(self.url, headers=self.headers(), timeout=TIMEOUT) as response:
            return response

    def initialize(self, version: str = LATEST, capabilities: dict[str, t.Any] | None = None) -> dict[str, t.Any]:
        """Run the handshake (initialize + notifications/initialized); returns the initialize response."""
        with self.post(initialize_message(version, capabilities), stream=False) as response:
            assert response.status_code == 200, response.text
            self.session_id = response.headers.get("Mcp-Session-Id")
            body = response.json()
        self.protocol_version = body["result"]["protocolVersion"]
        with self.post({"jsonrpc": "2.0", "method": "notifications/initialized"}) as response:
            assert response.status_code == 202, response.text
        return t.cast("dict[str, t.Any]", body)

    def call(self, message: dict[str, t.Any]) -> list[t.Any]:
        """POST a request and return every message of its answer (one for JSON, all SSE events with data)."""
        with self.post(message) as response:
            return messages_of(response)

    def call_with(self, message: dict[str, t.Any], headers: dict[str, str]) -> list[t.Any]:
        """POST a request with exactly ``headers`` and return every message of its answer."""
        with self.post(message, headers=headers) as response:
            return messages_of(response)

    def close(self) -> None:
        self.http.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()


def messages_of(response: requests.Response) -> list[t.Any]:
    """The JSON-RPC messages of a response, JSON or SSE."""
    assert response.status_code == 200, (response.status_code, response.text)
    if response.headers["Content-Type"] == "application/json":
        return [response.json()]
    return [event.message for event in read_events(response) if event.data]


def request(method: str, params: t.Any = None, id: t.Any = 1) -> dict[str, t.Any]:
    message: dict[str, t.Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def tool_call(name: str, arguments: dict[str, t.Any] | None = None, id: t.Any = 1, progress_token: t.Any = None) -> dict[str, t.Any]:
    params: dict[str, t.Any] = {"name": name, "arguments": arguments or {}}
    if progress_token is not None:
        params["_meta"] = {"progressToken": progress_token}
    return request("tools/call", params, id)


def text_result(text: str, id: t.Any = 1) -> dict[str, t.Any]:
    """The JSON-RPC response of a tool that returned ``text``."""
    return {"jsonrpc": "2.0", "id": id, "result": {"content": [{"type": "text", "text": text}], "isError": False}}


__all__ = [
    "ACCEPT_BOTH",
    "Client",
    "Event",
    "LATEST",
    "TIMEOUT",
    "initialize_message",
    "messages_of",
    "parse_event",
    "read_events",
    "request",
    "text_result",
    "tool_call",
]
