"""A recording client transport: what the client sends, exactly, and scripted answers.

    transport = RecordingTransport({"tools/list": {"tools": []}})
    client = Client(transport=transport)
    client.list_tools()
    assert transport.sent == [{"jsonrpc": "2.0", "id": 1, "method": "tools/list"}]
"""

from __future__ import annotations

import typing as t

from mcp_sdk.cancellation import Cancellation
from mcp_sdk.client.transport import Message, Transport, Waiter

Answer = t.Union[Message, t.Callable[[Message], Message]]

INITIALIZE_RESULT = {
    "protocolVersion": "2025-11-25",
    "capabilities": {"tools": {"listChanged": True}, "logging": {}},
    "serverInfo": {"name": "fake", "version": "9.9.9"},
    "instructions": "Be nice.",
}


class RecordingTransport(Transport):
    """Records every message; answers a request from ``results``.

    :param results: ``{method: result}``: a result dict (wrapped into a
        response), a list of them (one per call, in turn), or a callable
        ``(request) -> full response``.
    """

    def __init__(self, results: dict[str, t.Any] | None = None) -> None:
        self.results: dict[str, t.Any] = {"initialize": INITIALIZE_RESULT, **(results or {})}
        self.sent: list[Message] = []
        self.timeouts: list[float | None] = []
        self.closed = False

    def send_request(
        self, request: Message, *, timeout: float | None = None, cancellation: Cancellation | None = None
    ) -> Message:
        self.sent.append(request)
        self.timeouts.append(timeout)
        answer = self.results.get(request["method"], {})
        if callable(answer):
            return t.cast(Message, answer(request))
        if isinstance(answer, list):
            answer = answer.pop(0)
        return {"jsonrpc": "2.0", "id": request["id"], "result": answer}

    def send_notification(self, notification: Message) -> None:
        self.sent.append(notification)

    def close(self) -> None:
        self.closed = True

    def deliver(self, message: Message) -> Message | None:
        """Hand ``message`` to the client as if the server sent it; returns the client's answer."""
        assert self._message_handler is not None
        return self._message_handler(message)

    def requests(self) -> list[Message]:
        """The requests sent (notifications left out)."""
        return [message for message in self.sent if "id" in message]

    def notifications(self) -> list[Message]:
        return [message for message in self.sent if "id" not in message]


def hang_until_cancelled(request: Message, timeout: float | None, cancellation: Cancellation | None) -> Message:
    """A send_request body that never gets an answer: ends by timeout or cancellation."""
    return Waiter(request["id"], request["method"]).wait(timeout, cancellation)


class HangingTransport(RecordingTransport):
    """Never answers ``tools/call``; other methods as :class:`RecordingTransport`."""

    def send_request(
        self, request: Message, *, timeout: float | None = None, cancellation: Cancellation | None = None
    ) -> Message:
        if request["method"] != "tools/call":
            return super().send_request(request, timeout=timeout, cancellation=cancellation)
        self.sent.append(request)
        self.timeouts.append(timeout)
        return hang_until_cancelled(request, timeout, cancellation)
