"""The client transport interface, and the plumbing the bundled transports share.

A transport moves JSON-RPC messages between a :class:`~mcp_sdk.Client` and one
server. Subclass :class:`Transport` to add your own (WebSocket, an in-process
pipe...), as you would subclass requests' ``BaseAdapter``: implement
:meth:`~Transport.send_request`, :meth:`~Transport.send_notification` and
:meth:`~Transport.close`, and hand every message the server sends on its own
initiative to :meth:`~Transport.dispatch`. A transport that carries requests
over HTTP sets :attr:`~Transport.carries_headers` to receive each 2026-07-28
request's headers as ``send_request(..., headers=...)``.
"""

from __future__ import annotations

import logging
import threading
import typing as t

from .. import error_codes, json_rpc
from ..cancellation import Cancellation
from ..errors import CancelledError, RequestTimeoutError, TransportError

logger = logging.getLogger("mcp_sdk.client")

Message = t.Dict[str, t.Any]
#: Receives a server-to-client request or notification. For a request it
#: returns the JSON-RPC response to send back (it may block: a user answering a
#: form); for a notification it returns None.
MessageHandler = t.Callable[[Message], t.Optional[Message]]
#: Sends one JSON-RPC message (a response to a server request) to the server.
Reply = t.Callable[[Message], None]


#: Guards the one-time creation of each transport's server-request slots.
_SLOTS_LOCK = threading.Lock()


class Transport:
    """Base class of client transports. Methods a subclass must provide raise :class:`NotImplementedError`.

    The :class:`~mcp_sdk.Client` calls :meth:`set_message_handler` once, when
    it is created, and from then on any number of threads may call
    :meth:`send_request` at the same time.
    """

    _message_handler: MessageHandler | None = None
    #: Server-to-client requests handled at once (each on its own thread); past it
    #: the server gets an error answer at once rather than another thread.
    max_server_requests: int = 32
    _server_request_slots: threading.BoundedSemaphore | None = None
    #: Whether a cancelled 2026-07-28 request is cancelled by closing its stream
    #: (Streamable HTTP) rather than with ``notifications/cancelled``.
    cancels_by_closing_stream = False
    #: Whether :meth:`send_request` takes ``headers=``: the HTTP headers of a 2026-07-28
    #: request (``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name``, ``Mcp-Param-*``,
    #: SEP-2243). Only a transport that carries requests over HTTP wants them; the client
    #: passes them to one that sets this to True, and to no other.
    carries_headers: t.ClassVar[bool] = False

    def era_key(self) -> str | None:
        """A name for the server this transport reaches, under which the client remembers
        its protocol era for the process (None: never remembered)."""
        return None

    def send_request(
        self,
        request: Message,
        *,
        timeout: float | None = None,
        cancellation: Cancellation | None = None,
    ) -> Message:
        """Send a JSON-RPC request and block until its response.

        :param request: a complete JSON-RPC request object (with ``id``).
        :param timeout: seconds to wait for the response; ``None`` means the
            transport's own default.
        :param cancellation: when cancelled before the response arrives, stop
            waiting and raise :class:`~mcp_sdk.CancelledError` (the client then
            sends ``notifications/cancelled``).
        :return: the JSON-RPC response object (``result`` or ``error``), as a dict.
        :raises mcp_sdk.TransportError: the server cannot be reached or died.
        :raises mcp_sdk.RequestTimeoutError: no response within ``timeout``.
        :raises mcp_sdk.CancelledError: ``cancellation`` was cancelled.
        """
        raise NotImplementedError

    def send_notification(self, notification: Message) -> None:
        """Send a JSON-RPC notification (or a response to a server request); nothing comes back.

        :raises mcp_sdk.TransportError: the server cannot be reached.
        :param notification: a JSON-RPC notification, or a response to a server-to-client request.
        """
        raise NotImplementedError

    def close(self) -> None:
        """Release everything: stop threads, end the server process or session. Idempotent."""
        raise NotImplementedError

    def replica(self) -> Transport:
        """A new transport to the same server with the same settings, sharing no session state with this
        one (no session, process or cookie): :meth:`Server.proxy <mcp_sdk.Server.proxy>` opens its callers'
        sessions with the remote on replicas.

        :raises NotImplementedError: a transport that cannot make one (the base class's answer).
        """
        raise NotImplementedError(f"{type(self).__name__} cannot make a replica of itself")

    def set_message_handler(self, handler: MessageHandler | None) -> None:
        """Set the callable that receives server-to-client requests and notifications.

        The client installs its own; a transport passes messages to it through
        :meth:`dispatch`.

        :param handler: ``handler(message)``, returning the response to a request (None for a notification).
        """
        self._message_handler = handler

    def dispatch(self, message: Message, reply: Reply) -> None:
        """Deliver a request or notification the server sent on its own initiative.

        Notifications run the handler at once, on the calling (reader) thread,
        so they keep their order. Requests run it on a new named thread, so the
        reader keeps reading while a handler waits (for a user, or on a request
        of its own); its response goes back through ``reply``. A request with no
        handler is answered ``-32601``; past :attr:`max_server_requests` running
        at once, ``-32603`` (the client is busy).

        :param message: the server's request or notification.
        :param reply: sends the response to a request back to the server.
        """
        handler = self._message_handler
        if "id" not in message:
            if handler is not None:
                try:
                    handler(message)
                except Exception:
                    logger.exception("notification handler failed for %s", message.get("method"))
            return
        if handler is None:
            _send_reply(
                reply,
                json_rpc.error(message["id"], error_codes.METHOD_NOT_FOUND, f"Method not found: {message.get('method')}"),
            )
            return
        slots = self._server_request_slots
        if slots is None:  # set on first use: subclasses need not call an __init__
            with _SLOTS_LOCK:  # several reader threads may dispatch the first request at once
                slots = self._server_request_slots
                if slots is None:
                    slots = self._server_request_slots = threading.BoundedSemaphore(self.max_server_requests)
        if not slots.acquire(blocking=False):
            _send_reply(
                reply,
                json_rpc.error(
                    message["id"],
                    error_codes.INTERNAL_ERROR,
                    f"Client busy: {self.max_server_requests} server requests are already being handled",
                ),
            )
            return
        thread = threading.Thread(
            target=_answer,
            args=(handler, message, reply, slots),
            name=f"mcp-client-request-{str(message.get('method'))[:100]}-{str(message['id'])[:100]}",
            daemon=True,
        )
        try:
            thread.start()
        except RuntimeError:  # no thread to be had
            slots.release()
            _send_reply(reply, json_rpc.error(message["id"], error_codes.INTERNAL_ERROR, "Client busy: no thread available"))

    def route_incoming(self, message: t.Any, pending: PendingRequests, reply: Reply, source: str) -> None:
        """Route what the server sent: responses to their waiting callers, requests and notifications to :meth:`dispatch`.

        ``message`` may be a batch; ``source`` names the server in log lines.

        :param message: what the server sent: a message or a batch.
        :param pending: the requests waiting for their responses.
        :param reply: sends the response to a server request back.
        :param source: names the server in log lines.
        """
        for item in message if type(message) is list else (message,):
            if is_response(item):
                if not pending.resolve(item):
                    logger.debug("response to unknown request id %r dropped", item.get("id"))
            elif type(item) is dict and isinstance(item.get("method"), str):
                self.dispatch(item, reply)
            else:
                logger.warning("%s sent an invalid message: %.200r", source, item)

    def __enter__(self) -> Transport:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()


def _answer(handler: MessageHandler, message: Message, reply: Reply, slots: threading.BoundedSemaphore) -> None:
    try:
        _answer_once(handler, message, reply)
    finally:
        slots.release()


def _answer_once(handler: MessageHandler, message: Message, reply: Reply) -> None:
    try:
        response = handler(message)
    except Exception:
        logger.exception("request handler failed for %s", message.get("method"))
        response = json_rpc.error(message["id"], error_codes.INTERNAL_ERROR)
    if response is None:
        return
    try:
        reply(response)
    except TransportError as error:  # the connection is gone; nobody is left to tell
        logger.debug("could not send the response to server request %r: %s", message["id"], error)
    except Exception:
        # Most likely a result JSON cannot encode: the server still gets an answer.
        logger.exception("could not send the response to server request %r", message["id"])
        _send_reply(reply, json_rpc.error(message["id"], error_codes.INTERNAL_ERROR))


def _send_reply(reply: Reply, response: Message) -> None:
    try:
        reply(response)
    except TransportError as error:  # the connection is gone; nobody is left to tell
        logger.debug("could not send the response to server request %r: %s", response.get("id"), error)
    except Exception as error:
        logger.warning("could not send the response to server request %r: %s", response.get("id"), error)


class Waiter:
    """One caller waiting for the response to its request.

    Two plain locks instead of an Event: one settles the waiter exactly once
    (resolve, fail, timeout and cancellation may race), the other wakes the
    caller. Far cheaper to create than an Event, and one is made per request.
    """

    __slots__ = ("request_id", "method", "_settle", "_signal", "response", "error")

    def __init__(self, request_id: t.Any, method: str) -> None:
        self.request_id = request_id
        self.method = method
        self._settle = threading.Lock()
        self._signal = threading.Lock()
        self._signal.acquire()
        self.response: Message | None = None
        self.error: BaseException | None = None

    def done(self) -> bool:
        return self._settle.locked()

    def resolve(self, response: Message) -> None:
        if self._settle.acquire(False):
            self.response = response
            self._signal.release()

    def fail(self, error: BaseException) -> None:
        if self._settle.acquire(False):
            self.error = error
            self._signal.release()

    def wait(self, timeout: float | None, cancellation: Cancellation | None = None) -> Message:
        """Block until the response, the timeout, or cancellation.

        :raises RequestTimeoutError, CancelledError, TransportError: as the wait ended.
        """
        unregister = None
        if cancellation is not None:
            unregister = cancellation.add_callback(lambda token: self.fail(CancelledError(reason=token.reason)))
        try:
            if not self._signal.acquire(True, -1 if timeout is None else max(timeout, 0)):
                self.fail(RequestTimeoutError(f"{self.method} got no response within {timeout:g} seconds"))
                self._signal.acquire()  # released by whichever settled it
        finally:
            if unregister is not None:
                unregister()
        self._signal.release()  # a second wait() returns at once
        if self.error is not None:
            raise self.error
        return t.cast(Message, self.response)


class PendingRequests:
    """Requests in flight, by id: the reader resolves them, callers wait on them. Thread-safe."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._waiters: dict[t.Any, Waiter] = {}
        self._closed_error: BaseException | None = None

    def add(self, request: Message) -> Waiter:
        """Register ``request`` before it is sent, so a fast response is never missed.

        :raises TransportError: the transport has failed or closed.
        """
        request_id = request.get("id")
        waiter = Waiter(request_id, str(request.get("method")))
        with self._lock:
            if self._closed_error is not None:
                raise self._closed_error
            if request_id in self._waiters:
                raise ValueError(f"request id {request_id!r} is already in flight")
            self._waiters[request_id] = waiter
        return waiter

    def remove(self, waiter: Waiter) -> None:
        with self._lock:
            if self._waiters.get(waiter.request_id) is waiter:
                del self._waiters[waiter.request_id]

    def resolve(self, response: Message) -> bool:
        """Hand ``response`` to its waiter; False when nobody waits for that id."""
        request_id = response.get("id")
        if not json_rpc.is_valid_id(request_id):
            return False  # true, 1.0, null, a list: equal to 1 (or unhashable) in Python, never our id
        with self._lock:
            waiter = self._waiters.pop(request_id, None)
        if waiter is None:
            return False
        waiter.resolve(response)
        return True

    def fail_all(self, error: BaseException, *, final: bool = True) -> None:
        """Fail every waiter with ``error``; with ``final``, also every later :meth:`add`
        (with the first final error: it says best what went wrong)."""
        with self._lock:
            waiters = list(self._waiters.values())
            self._waiters.clear()
            if final and self._closed_error is None:
                self._closed_error = error
        for waiter in waiters:
            waiter.fail(error)


def is_response(message: t.Any) -> bool:
    """Whether ``message`` is a JSON-RPC response (no ``method``; ``result`` or ``error``)."""
    return type(message) is dict and "method" not in message and ("result" in message or "error" in message)


def closed_error(what: str) -> TransportError:
    return TransportError(f"{what} is closed")


def send_through(
    transport: t.Any,
    request: Message,
    *,
    timeout: float | None,
    cancellation: Cancellation | None,
    headers: t.Mapping[str, str] | None = None,
) -> t.Any:
    """Send ``request`` through ``transport`` as its interface takes it; return what it answers.

    A :class:`Transport` gets ``timeout`` and ``cancellation``, and ``headers`` when it
    declares :attr:`~Transport.carries_headers`. Any other object is taken to follow the
    Ruby gem's interface, ``send_request(request:)``, and gets only the request.
    """
    if not isinstance(transport, Transport):
        return transport.send_request(request=request)
    if headers is not None and transport.carries_headers:
        carrier: t.Any = transport  # it takes headers= by declaring carries_headers, not by the base signature
        return carrier.send_request(request, timeout=timeout, cancellation=cancellation, headers=headers)
    return transport.send_request(request, timeout=timeout, cancellation=cancellation)


def check_transport(transport: t.Any) -> None:
    """:raises TypeError: ``transport`` has no ``send_request`` method."""
    if not callable(getattr(transport, "send_request", None)):
        raise TypeError(f"transport must have a send_request method, not {type(transport).__name__}")
