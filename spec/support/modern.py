"""Building 2026-07-28 requests, and serving them in-process while recording what the server writes.

:func:`envelope` / :func:`modern_request` make the ``_meta`` envelope every modern request
carries; :class:`Recorder` is a session (a stdio connection, say) whose writes are kept, so a
test sees every notification a request produced; :func:`asking_server` is the example server of
``examples/asking_server.py`` (tools that ask sampling, elicitation and roots).
"""

from __future__ import annotations

import importlib.util
import pathlib
import sys
import threading
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.session import ServerSession
from spec.support.wire_schema import assert_valid_modern

MODERN = "2026-07-28"
ROOT = pathlib.Path(__file__).resolve().parents[2]
ASKING_SERVER = ROOT / "examples" / "asking_server.py"
#: Every capability a client can declare for one request.
ALL_CAPABILITIES: dict[str, t.Any] = {"elicitation": {}, "sampling": {}, "roots": {}}
CLIENT_INFO = {"name": "spec-modern", "version": "1.0.0"}
#: Seconds any wait may take.
TIMEOUT = 10.0


def envelope(
    capabilities: dict[str, t.Any] | None = None, log_level: str | None = None, version: str = MODERN
) -> dict[str, t.Any]:
    """The ``_meta`` of a 2026-07-28 request."""
    meta: dict[str, t.Any] = {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": ALL_CAPABILITIES if capabilities is None else capabilities,
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
    }
    if log_level is not None:
        meta["io.modelcontextprotocol/logLevel"] = log_level
    return meta


def modern_request(
    method: str,
    params: dict[str, t.Any] | None = None,
    id: t.Any = 1,
    *,
    capabilities: dict[str, t.Any] | None = None,
    log_level: str | None = None,
    version: str = MODERN,
) -> dict[str, t.Any]:
    """A 2026-07-28 JSON-RPC request: ``params`` plus the envelope in ``params._meta``."""
    body = dict(params or {})
    body["_meta"] = {**envelope(capabilities, log_level, version), **body.get("_meta", {})}
    return {"jsonrpc": "2.0", "id": id, "method": method, "params": body}


def tool_call(name: str, arguments: dict[str, t.Any] | None = None, id: t.Any = 1, **options: t.Any) -> dict[str, t.Any]:
    """A 2026-07-28 ``tools/call``; ``options`` go to :func:`modern_request` except
    ``request_state`` / ``input_responses``, which go in ``params``."""
    params: dict[str, t.Any] = {"name": name, "arguments": arguments or {}}
    if "request_state" in options:
        params["requestState"] = options.pop("request_state")
    if "input_responses" in options:
        params["inputResponses"] = options.pop("input_responses")
    return modern_request("tools/call", params, id, **options)


def retry(request: dict[str, t.Any], answer: dict[str, t.Any], responses: dict[str, t.Any], id: t.Any = None) -> dict[str, t.Any]:
    """``request`` sent again with ``inputResponses`` and the ``requestState`` of ``answer`` (an input_required response)."""
    params = {key: value for key, value in request["params"].items() if key not in ("inputResponses", "requestState")}
    params["inputResponses"] = responses
    state = answer["result"].get("requestState")
    if state is not None:
        params["requestState"] = state
    return {**request, "id": request["id"] if id is None else id, "params": params}


class Recorder(ServerSession):
    """A connection whose writes are kept in :attr:`written` (message, related request id)."""

    def __init__(self, server: Server) -> None:
        super().__init__(server, self._record)
        self.written: list[tuple[dict[str, t.Any], t.Any]] = []
        self.changed = threading.Condition()

    def _record(self, message: dict[str, t.Any], related: t.Any) -> None:
        with self.changed:
            self.written.append((message, related))
            self.changed.notify_all()

    def messages(self) -> list[dict[str, t.Any]]:
        with self.changed:
            return [message for message, _ in self.written]

    def wait_for(self, count: int, timeout: float = TIMEOUT) -> list[dict[str, t.Any]]:
        """Block until at least ``count`` messages were written; returns them all."""
        with self.changed:
            if not self.changed.wait_for(lambda: len(self.written) >= count, timeout):
                raise AssertionError(f"only {len(self.written)} of {count} messages: {self.written}")
            return [message for message, _ in self.written]


def serve(server: Server, message: dict[str, t.Any], session: ServerSession | None = None) -> dict[str, t.Any]:
    """The response to one modern request, every message written for it checked against the 2026 schema."""
    recorder = session if session is not None else Recorder(server)
    response = server.handle_message(message, recorder)
    assert response is not None
    if isinstance(recorder, Recorder):
        for written in recorder.messages():
            assert_valid_modern(message["method"], written)
    assert_valid_modern(message["method"], response)
    return t.cast("dict[str, t.Any]", response)


def asking_server() -> Server:
    """A new server of ``examples/asking_server.py``."""
    module = sys.modules.get("asking_server_example")
    if module is None:
        spec = importlib.util.spec_from_file_location("asking_server_example", ASKING_SERVER)
        assert spec is not None and spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        sys.modules["asking_server_example"] = module
        spec.loader.exec_module(module)
    return t.cast(Server, module.build_server())


def text_of(response: dict[str, t.Any]) -> str:
    """The text of a complete tool result's single text content."""
    result = response["result"]
    assert result["resultType"] == "complete", response
    return t.cast(str, result["content"][0]["text"])


__all__ = [
    "ALL_CAPABILITIES",
    "ASKING_SERVER",
    "CLIENT_INFO",
    "MODERN",
    "Recorder",
    "asking_server",
    "envelope",
    "modern_request",
    "retry",
    "serve",
    "text_of",
    "tool_call",
]
