"""A client transport to a :class:`~mcp_sdk.Server` in the same process, for tests.

.. code-block:: python

    with Client(transport=InMemory(server)) as client:
        client.connect()
        client.call_tool(name="get_alerts", arguments={"state": "CA"})

Every message is encoded to JSON and decoded again on its way, as on a real connection,
so what the client sees is what a remote client would; no subprocess, no socket.
"""

from __future__ import annotations

import itertools
import json
import threading
import typing as t

from .. import error_codes, json_rpc
from ..cancellation import Cancellation
from .transport import Message, PendingRequests, Transport, closed_error

if t.TYPE_CHECKING:
    from ..server import Server
    from ..server.session import ServerSession

_threads = itertools.count(1)


class InMemory(Transport):
    """Connect a :class:`~mcp_sdk.Client` to ``server`` in-process: one session, the whole protocol.

    Each request runs on its own thread (named ``mcp-in-memory-N``), as on a real server, so
    cancellation, timeouts and server-to-client requests (sampling, elicitation, roots) work.

    :param server: the server to talk to.
    :param timeout: default seconds to wait for a response (``None``: 30).
    """

    def __init__(self, server: Server, *, timeout: float | None = None) -> None:
        self.server = server
        self.timeout = 30.0 if timeout is None else timeout
        self._pending = PendingRequests()
        self._closed = False
        self.session: ServerSession = server.create_session(self._from_server)

    def replica(self) -> InMemory:
        """A new session with the same server (see :meth:`Transport.replica`)."""
        return InMemory(self.server, timeout=self.timeout)

    def send_request(
        self, request: Message, *, timeout: float | None = None, cancellation: Cancellation | None = None
    ) -> Message:
        """Hand ``request`` to the server and block until its response (see :class:`Transport`).

        :param request: a complete JSON-RPC request object (with ``id``).
        :param timeout: seconds to wait for the response (default: the transport's ``timeout``).
        :param cancellation: when cancelled before the response arrives, stop waiting and raise
            :class:`~mcp_sdk.CancelledError`.
        :returns: the JSON-RPC response object (``result`` or ``error``).
        """
        if self._closed:
            raise closed_error("in-memory transport")
        waiter = self._pending.add(request)
        text = json_rpc.encode(request)
        worker = threading.Thread(target=self._run, args=(text, request.get("id")), name=f"mcp-in-memory-{next(_threads)}", daemon=True)
        worker.start()
        try:
            return waiter.wait(self.timeout if timeout is None else timeout, cancellation)
        finally:
            self._pending.remove(waiter)

    def send_notification(self, notification: Message) -> None:
        """Hand a notification (or a response to a server request) to the server.

        :param notification: a JSON-RPC notification, or a response to a server-to-client request.
        """
        if self._closed:
            raise closed_error("in-memory transport")
        self.session.handle_json(json_rpc.encode(notification))

    def close(self) -> None:
        """End the session: running requests are cancelled, waiting callers fail. Idempotent."""
        if self._closed:
            return
        self._closed = True
        self.session.close()
        self._pending.fail_all(closed_error("in-memory transport"))

    def _run(self, text: str, request_id: t.Any) -> None:
        try:
            answer = self.session.handle_json(text)
        except Exception:  # never leave the caller waiting
            answer = json_rpc.encode(json_rpc.error(request_id, error_codes.INTERNAL_ERROR))
        if answer is not None:
            self.route_incoming(json.loads(answer), self._pending, self._reply, "in-memory server")

    def _from_server(self, message: dict[str, t.Any], related_request_id: t.Any) -> None:
        self.route_incoming(json.loads(json_rpc.encode(message)), self._pending, self._reply, "in-memory server")

    def _reply(self, message: Message) -> None:
        if not self._closed:
            self.session.handle_json(json_rpc.encode(message))


__all__ = ["InMemory"]
