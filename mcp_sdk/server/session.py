"""One client connection to a server: its negotiated state and its in-flight traffic.

A transport creates a session per connection (``server.create_session(send)``)
and feeds it every message it reads; the session answers requests through the
server and routes responses back to tool threads waiting on a
server-to-client request. ``send(message, related_request_id)`` is how the
session writes: the transport decides where a message goes (stdout, the
request's SSE stream, the session's GET stream).
"""

from __future__ import annotations

import itertools
import logging
import threading
import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from .channel import Channel, ClientRequest
from ..errors import CancelledError, JSONRPCError, RequestTimeoutError, TransportError

if t.TYPE_CHECKING:
    from .core import ServerCore

Send = t.Callable[[t.Dict[str, t.Any], t.Any], None]

logger = logging.getLogger("mcp_sdk.server")

#: Methods answered on the thread that reads them: quick, and their order matters.
INLINE_METHODS = frozenset(
    {
        methods.INITIALIZE,
        methods.PING,
        methods.LOGGING_SET_LEVEL,
        methods.NOTIFICATIONS_INITIALIZED,
        methods.NOTIFICATIONS_CANCELLED,
    }
)


class _Pending:
    """A server-to-client request waiting for its response."""

    __slots__ = ("event", "response", "error")

    def __init__(self) -> None:
        self.event = threading.Event()
        self.response: dict[str, t.Any] | None = None
        self.error: BaseException | None = None

    def resolve(self, response: dict[str, t.Any]) -> None:
        self.response = response
        self.event.set()

    def fail(self, error: BaseException) -> None:
        if not self.event.is_set():
            self.error = error
            self.event.set()


class ServerSession(Channel):
    """State of one client connection. Created by a transport; thread-safe.

    :param server: the server answering the connection's requests.
    :param send: ``send(message, related_request_id)`` writes to the client (None: a
        session with no transport, whose messages are dropped).
    :param session_id: the transport's id for the connection.
    """

    def __init__(self, server: ServerCore, send: Send | None = None, session_id: str | None = None) -> None:
        super().__init__(
            server, session_id=session_id, can_send_requests=send is not None, no_requests_reason="JSON response mode"
        )
        self._send = send
        self._lock = threading.Lock()
        self._in_flight: dict[t.Any, Cancellation] = {}
        # Requests a transport took but has not started yet (see accept()).
        self._accepted: dict[t.Any, Cancellation] = {}
        self._pending: dict[t.Any, _Pending] = {}
        self._ids = itertools.count(1)
        #: Prepended to the ids of server-to-client requests (as strings), so a transport shared by
        #: several processes can tell from a client's response which process waits for it.
        self.request_id_prefix: str | None = None

    # -- incoming ------------------------------------------------------------

    def handle(self, message: t.Any, cancellation: Cancellation | None = None) -> t.Any:
        """Process one decoded message (or batch) on this session: ``server.handle_message(message, self)``.

        Return the response, or None when there is none.

        :param cancellation: the token :meth:`accept` gave for this request, when
            the transport took it earlier; by default a new one.
        :param message: a decoded JSON-RPC message, or a batch (list).
        """
        return self.server.handle_message(message, self, cancellation)

    def handle_json(self, text: str | bytes) -> str | None:
        """Process one JSON text; return the response's JSON text, or None.

        :param text: the message's JSON text.
        """
        try:
            message = json_rpc.decode(text)
        except ValueError as error:
            return json_rpc.encode(json_rpc.parse_error(str(error)))
        return self.encode(self.handle(message))

    def needs_worker(self, message: t.Any) -> bool:
        """Whether a transport should run ``message`` on a worker thread rather than inline.

        Responses, cancellations and the quick, order-sensitive methods run inline.

        :param message: a decoded JSON-RPC message, or a batch.
        """
        if type(message) is not dict:
            return type(message) is list
        method = message.get("method")
        return method is not None and method not in INLINE_METHODS

    def receive_response(self, message: dict[str, t.Any]) -> None:
        """Hand the client's response to the server-to-client request waiting for it (or drop it).

        :param message: a JSON-RPC response from the client.
        """
        response_id = message["id"]
        if not json_rpc.is_valid_id(response_id):  # null, 1.0, true, [..]: never an id we sent (or hashable)
            logger.debug("response with invalid id %r dropped", response_id)
            return
        with self._lock:
            pending = self._pending.pop(response_id, None)
        if pending is None:
            logger.debug("response to unknown request id %r dropped", message.get("id"))
            return
        pending.resolve(message)

    # -- in-flight requests (cancellation) -----------------------------------

    def accept(self, request_id: t.Any) -> Cancellation | None:
        """Note a request a transport took and will run later (queued for a worker).

        Its cancellation token exists from now on, so a ``notifications/cancelled``
        that arrives before the request starts still reaches it. Pass the token to
        :meth:`handle`, or call :meth:`forget` if the request will not run.

        :return: the token; None when ``request_id`` is already taken or in flight
            (the duplicate is then refused when handled).
        :param request_id: the request's JSON-RPC id.
        """
        with self._lock:
            if request_id in self._in_flight or request_id in self._accepted:
                return None
            cancellation = self._accepted[request_id] = Cancellation()
            closed = self._closed
        if closed:
            cancellation.cancel("Connection closed")
        return cancellation

    def forget(self, request_id: t.Any) -> None:
        """Drop what :meth:`accept` noted, for a request that will not be handled.

        :param request_id: the request's JSON-RPC id.
        """
        with self._lock:
            self._accepted.pop(request_id, None)

    def begin(self, request_id: t.Any, cancellation: Cancellation) -> bool:
        """Track a request; False (and nothing tracked) when ``request_id`` is already in flight.

        :param request_id: the request's JSON-RPC id.
        :param cancellation: the token that cancels it (``notifications/cancelled`` or the session's end).
        """
        if self._accepted.get(request_id) is cancellation:
            # The request accept() took (the transport's common path): it moves to in flight with
            # two single dict operations, no lock. It is in one dict or both at any moment, so
            # close() and cancel_request() always find it; only this request's thread begins it.
            self._in_flight[request_id] = cancellation
            self._accepted.pop(request_id, None)
            if self._closed:
                cancellation.cancel("Connection closed")
            return True
        with self._lock:
            if request_id in self._in_flight or request_id in self._accepted:
                return False
            self._in_flight[request_id] = cancellation
            closed = self._closed
        if closed:  # close() cancelled only the requests it found: this one starts cancelled
            cancellation.cancel("Connection closed")
        return True

    def end(self, request_id: t.Any) -> None:
        """Stop tracking a request that ended (answered, failed or cancelled); unknown ids are ignored.

        :param request_id: the request's JSON-RPC id.
        """
        self._in_flight.pop(request_id, None)  # one dict operation, atomic: no lock needed

    def cancel_request(self, request_id: t.Any, reason: str | None = None) -> bool:
        """Cancel a client request in flight or accepted (as ``notifications/cancelled`` does).

        :param request_id: the request's JSON-RPC id.
        :param reason: the reason, given to its :class:`~mcp_sdk.Cancellation`.
        :returns: whether a request was cancelled (False: unknown, or already cancelled).
        """
        with self._lock:
            cancellation = self._in_flight.get(request_id) or self._accepted.get(request_id)
        if cancellation is None:
            return False
        return cancellation.cancel(reason)

    @property
    def in_flight_count(self) -> int:
        """How many client requests this session is handling now."""
        with self._lock:
            return len(self._in_flight)

    # -- outgoing ------------------------------------------------------------

    def write(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        """Hand a message to the transport (dropped when there is none or the session closed).

        :param message: a JSON-RPC message.
        :param related_request_id: the client request it belongs to (its SSE stream carries it).
        """
        send = self._send
        if send is None or self._closed:
            return
        send(message, related_request_id)

    def ask(self, request: ClientRequest) -> t.Any:
        """Send ``request`` to the client and block until its result (see :meth:`send_request`).

        When its cancellation is cancelled (the parent request was), the client is sent
        ``notifications/cancelled`` for it.

        :param request: the request, its params and how long to wait.
        """
        method, params, related_request_id, cancellation, timeout = request
        self._check_can_ask(method)
        if timeout is None:
            timeout = self.server.configuration.server_request_timeout
        number = next(self._ids)
        request_id: t.Any = number if self.request_id_prefix is None else f"{self.request_id_prefix}{number}"
        pending = _Pending()
        with self._lock:
            if self._closed:  # checked again here: close() fails only the waiters it finds
                raise TransportError(f"Cannot send {method}: the session is closed")
            self._pending[request_id] = pending

        def on_cancel(token: Cancellation) -> None:
            pending.fail(CancelledError(reason=token.reason))

        unregister = cancellation.add_callback(on_cancel) if cancellation is not None else None
        written = False
        try:
            if not pending.event.is_set():
                self.write(json_rpc.request(request_id, method, params), related_request_id)
                written = True
            if not pending.event.wait(timeout):
                pending.fail(RequestTimeoutError(f"{method} got no response within {timeout:g} seconds"))
        finally:
            if unregister is not None:
                unregister()
            with self._lock:
                self._pending.pop(request_id, None)
        if pending.error is not None:
            if written:  # never cancel a request the client did not receive
                self._cancel_at_client(request_id, pending.error, related_request_id)
            raise pending.error
        response = t.cast("dict[str, t.Any]", pending.response)
        if "error" in response:
            error = response["error"] if isinstance(response["error"], dict) else {}
            raise JSONRPCError(
                str(error.get("message", "Error")),
                error.get("code", error_codes.INTERNAL_ERROR) if isinstance(error.get("code"), int) else error_codes.INTERNAL_ERROR,
                error.get("data"),
            )
        return response.get("result")

    def _check_can_ask(self, method: str) -> None:
        """:raises TransportError: this session cannot send a ``method`` request to the client now
            (its transport carries no server-to-client requests, saying why if it says, or it closed)."""
        if self._send is None or not self.can_send_requests:
            raise TransportError(
                f"Cannot send {method}: this transport does not carry server-to-client requests"
                + (f" ({self.no_requests_reason})" if self._send is not None and self.no_requests_reason else "")
            )
        if self._closed:
            raise TransportError(f"Cannot send {method}: the session is closed")

    def _cancel_at_client(self, request_id: t.Any, error: BaseException, related_request_id: t.Any) -> None:
        """Tell the client to stop working on request ``request_id`` when ``error`` (why waiting for
        it ended) is its cancellation or timeout."""
        if not isinstance(error, (CancelledError, RequestTimeoutError)):
            return
        reason = "Request timed out" if isinstance(error, RequestTimeoutError) else error.reason
        params: dict[str, t.Any] = {"requestId": request_id}
        if reason:
            params["reason"] = reason
        self.send_notification(methods.NOTIFICATIONS_CANCELLED, params, related_request_id)

    # -- lifecycle -----------------------------------------------------------

    def close(self, reason: str = "Connection closed") -> None:
        """End the session: cancel in-flight requests, fail waiting server requests, leave the server.

        :param reason: the reason given to the cancelled requests.
        """
        with self._lock:
            if self._closed:
                return
            self._closed = True
            in_flight = [*self._in_flight.values(), *self._accepted.values()]
            pending = list(self._pending.values())
            self._pending.clear()
        for cancellation in in_flight:
            cancellation.cancel(reason)
        for waiter in pending:
            waiter.fail(TransportError(reason))
        self.server.session_closed(self)

    def __repr__(self) -> str:
        return f"<ServerSession id={self.session_id!r} version={self.protocol_version!r}>"
