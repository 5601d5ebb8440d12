"""Helpers for driving a :class:`mcp_sdk.Server` the way a transport and a client would.

- :func:`request` / :func:`notification` build JSON-RPC messages.
- :func:`initialize` runs the handshake on a session (or on ``server.handle``).
- :class:`Capture` is a ``send`` callable for ``server.create_session(send=...)``: it
  records what the server writes and can answer server-to-client requests from
  another thread, as a real client would.
- :func:`connect` makes an initialized session wired to a :class:`Capture`.
- :func:`in_background` runs a blocking call (a ``tools/call`` that waits on the
  client, say) on a thread so the test can talk to the session meanwhile.
- :class:`Recorder` collects what ``exception_reporter`` / ``instrumentation_callback`` receive.

Every wait has a timeout (:data:`TIMEOUT`), so a broken server fails a test instead
of hanging the suite.
"""

from __future__ import annotations

import concurrent.futures
import itertools
import threading
import typing as t

import mcp_sdk
from mcp_sdk import methods
from spec.support import wire_schema

#: Seconds any helper waits before failing the test.
TIMEOUT = 5.0

#: What a client typically sends as ``clientInfo``.
CLIENT_INFO = {"name": "test_client", "version": "1.2.3"}

#: Every protocol version the SDK negotiates.
VERSIONS = mcp_sdk.SUPPORTED_PROTOCOL_VERSIONS

_ids = itertools.count(1000)


def request(method: str, params: t.Any = None, id: t.Any = 1) -> dict[str, t.Any]:
    """A JSON-RPC request (``params`` left out when None)."""
    message: dict[str, t.Any] = {"jsonrpc": "2.0", "id": id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: t.Any = None) -> dict[str, t.Any]:
    """A JSON-RPC notification (``params`` left out when None)."""
    message: dict[str, t.Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def initialize_params(
    version: str = mcp_sdk.LATEST_PROTOCOL_VERSION,
    capabilities: dict[str, t.Any] | None = None,
    client_info: dict[str, t.Any] | None = None,
) -> dict[str, t.Any]:
    """The params of a client's ``initialize`` request."""
    return {
        "protocolVersion": version,
        "capabilities": capabilities if capabilities is not None else {},
        "clientInfo": client_info if client_info is not None else CLIENT_INFO,
    }


class _Handles(t.Protocol):
    def handle(self, message: t.Any) -> t.Any: ...


def initialize(
    target: _Handles,
    version: str = mcp_sdk.LATEST_PROTOCOL_VERSION,
    capabilities: dict[str, t.Any] | None = None,
    client_info: dict[str, t.Any] | None = None,
) -> dict[str, t.Any]:
    """Run ``initialize`` + ``notifications/initialized`` on a session or server; return the result."""
    response = target.handle(request("initialize", initialize_params(version, capabilities, client_info), id="init"))
    assert "result" in response, response
    assert target.handle(notification("notifications/initialized")) is None
    return t.cast("dict[str, t.Any]", response["result"])


class Capture:
    """A transport's ``send(message, related_request_id)``: records what the server writes.

    :param answer: ``fn(request) -> dict``: the JSON-RPC response (a whole message,
        or just a ``result`` value wrapped by :meth:`result_for`) to give each
        server-to-client request, from a separate thread; None leaves requests
        unanswered so a test can answer them itself.
    """

    def __init__(self, answer: t.Callable[[dict[str, t.Any]], dict[str, t.Any] | None] | None = None) -> None:
        self.session: mcp_sdk.ServerSession | None = None
        self.answer = answer
        #: ``(message, related_request_id)`` in the order written.
        self.sent: list[tuple[dict[str, t.Any], t.Any]] = []
        self._condition = threading.Condition()
        self._threads: list[threading.Thread] = []

    def __call__(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        with self._condition:
            self.sent.append((message, related_request_id))
            self._condition.notify_all()
        if self.answer is not None and "method" in message and "id" in message:
            thread = threading.Thread(target=self._answer, args=(message,), daemon=True)
            self._threads.append(thread)
            thread.start()

    def _answer(self, message: dict[str, t.Any]) -> None:
        assert self.answer is not None and self.session is not None
        response = self.answer(message)
        if response is not None:
            self.session.handle(response)

    # -- reading -------------------------------------------------------------

    @property
    def messages(self) -> list[dict[str, t.Any]]:
        """Everything written, in order."""
        with self._condition:
            return [message for message, _ in self.sent]

    def notifications(self, method: str | None = None) -> list[dict[str, t.Any]]:
        """The notifications written (only those of ``method`` when given)."""
        return [m for m in self.messages if "id" not in m and (method is None or m["method"] == method)]

    def requests(self, method: str | None = None) -> list[dict[str, t.Any]]:
        """The server-to-client requests written (only those of ``method`` when given)."""
        return [m for m in self.messages if "id" in m and "method" in m and (method is None or m["method"] == method)]

    def related_ids(self, method: str) -> list[t.Any]:
        """The ``related_request_id`` each message of ``method`` was written with."""
        with self._condition:
            return [related for message, related in self.sent if message.get("method") == method]

    def wait_for(self, method: str, count: int = 1, timeout: float = TIMEOUT) -> list[dict[str, t.Any]]:
        """Block until ``count`` messages of ``method`` were written; return them."""

        def found() -> list[dict[str, t.Any]]:
            return [m for m, _ in self.sent if m.get("method") == method]

        with self._condition:
            if not self._condition.wait_for(lambda: len(found()) >= count, timeout):
                raise AssertionError(f"timed out waiting for {count} x {method}; sent: {self.sent!r}")
            return found()

    def join(self, timeout: float = TIMEOUT) -> None:
        """Wait for the answering threads to finish."""
        for thread in self._threads:
            thread.join(timeout)

    @staticmethod
    def result_for(server_request: dict[str, t.Any], result: t.Any) -> dict[str, t.Any]:
        """The success response a client would send to ``server_request``."""
        return {"jsonrpc": "2.0", "id": server_request["id"], "result": result}

    @staticmethod
    def error_for(
        server_request: dict[str, t.Any], code: int, message: str, data: t.Any = None
    ) -> dict[str, t.Any]:
        """The error response a client would send to ``server_request``."""
        error: dict[str, t.Any] = {"code": code, "message": message}
        if data is not None:
            error["data"] = data
        return {"jsonrpc": "2.0", "id": server_request["id"], "error": error}


def connect(
    server: mcp_sdk.Server,
    version: str = mcp_sdk.LATEST_PROTOCOL_VERSION,
    capabilities: dict[str, t.Any] | None = None,
    answer: t.Callable[[dict[str, t.Any]], dict[str, t.Any] | None] | None = None,
    initialized: bool = True,
) -> tuple[mcp_sdk.ServerSession, Capture]:
    """A session of ``server`` whose writes go to a :class:`Capture`, initialized at ``version``."""
    capture = Capture(answer)
    session = server.create_session(send=capture)
    capture.session = session
    if initialized:
        initialize(session, version, capabilities)
    return session, capture


def in_background(function: t.Callable[[], t.Any]) -> concurrent.futures.Future[t.Any]:
    """Run ``function()`` on a daemon thread; ``.result(TIMEOUT)`` gets its outcome."""
    future: concurrent.futures.Future[t.Any] = concurrent.futures.Future()

    def run() -> None:
        try:
            future.set_result(function())
        except BaseException as error:  # handed to the test through the future
            future.set_exception(error)

    threading.Thread(target=run, daemon=True).start()
    return future


def call_tool(name: str, arguments: dict[str, t.Any] | None = None, id: t.Any = 1, **params: t.Any) -> dict[str, t.Any]:
    """A ``tools/call`` request (extra ``params`` such as ``_meta`` merged in)."""
    body: dict[str, t.Any] = {"name": name}
    if arguments is not None:
        body["arguments"] = arguments
    body.update(params)
    return request(methods.TOOLS_CALL, body, id=id)


def next_id() -> int:
    """A request id no other helper call returned."""
    return next(_ids)


def assert_valid_message(message: dict[str, t.Any], definition: str, version: str) -> None:
    """Check a notification or request the server wrote against ``version``'s schema.

    The envelope is checked as ``JSONRPCNotification``/``JSONRPCRequest``; the body as
    ``definition`` (e.g. ``ProgressNotification``), without the envelope keys that
    versions before 2025-11-25 leave out of their method definitions.
    """
    envelope = "JSONRPCRequest" if "id" in message else "JSONRPCNotification"
    wire_schema.assert_valid(envelope, message, version)
    defined = wire_schema._schema(version).get("$defs", {}) or wire_schema._schema(version)["definitions"]
    known = set(defined[definition].get("properties", {}))
    wire_schema.assert_valid(definition, {k: v for k, v in message.items() if k in known}, version)


class Recorder:
    """Collects calls: use as ``exception_reporter`` (``fn(error, context)``) or
    ``instrumentation_callback`` (``fn(data)``)."""

    def __init__(self) -> None:
        self.calls: list[tuple[t.Any, ...]] = []
        self._lock = threading.Lock()

    def __call__(self, *args: t.Any) -> None:
        with self._lock:
            self.calls.append(tuple(dict(a) if isinstance(a, dict) else a for a in args))

    @property
    def errors(self) -> list[BaseException]:
        """The exceptions reported (first argument of each call)."""
        return [call[0] for call in self.calls]

    @property
    def contexts(self) -> list[t.Any]:
        """The contexts reported (second argument of each call)."""
        return [call[1] for call in self.calls]


__all__ = [
    "CLIENT_INFO",
    "Capture",
    "Recorder",
    "assert_valid_message",
    "TIMEOUT",
    "VERSIONS",
    "call_tool",
    "connect",
    "in_background",
    "initialize",
    "initialize_params",
    "next_id",
    "notification",
    "request",
]


def nested_past_the_recursion_limit(depth: int = 50_000) -> list[t.Any]:
    """``[[[...]]]``, ``depth`` lists deep: more than ``json`` or ``repr`` can recurse through."""
    nested: list[t.Any] = []
    node = nested
    for _ in range(depth):
        node.append([])
        node = node[0]
    return nested
