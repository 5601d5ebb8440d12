"""One session of a proxy with the remote server, owned by one caller of the proxy (see :mod:`.remote_sessions`).

What the remote sends on a :class:`RemoteSession` (progress, log messages, ``sampling/createMessage``,
``elicitation/create``, ``roots/list``) reaches only the session's owner:

- a request goes to the owner's call in flight on the thread that receives it (a 2026-07-28 remote
  asks on the calling thread), else to the owner's only call in flight; with several in flight, none,
  or after a call of the session was abandoned (its caller cancelled it or it timed out, and the
  remote, for which cancellation is advisory, may still be working on it) it cannot be tied to a
  call: it is refused (the remote gets an error) and logged on ``mcp_sdk.server``;
- progress goes to the call whose progress token it carries;
- a log message goes to the call it is tied to as a request is, else to the owning downstream
  session outside any call; on a session for one request, with no call to tie it to, it is dropped
  and logged.
"""

from __future__ import annotations

import itertools
import logging
import threading
import typing as t
import warnings

from .. import error_codes, methods
from ..cancellation import Cancellation
from ..errors import JSONRPCError, MCPDeprecationWarning
from .input_required import InputRequired, required_capability

if t.TYPE_CHECKING:
    from .channel import Channel
    from .context import ServerContext

logger = logging.getLogger("mcp_sdk.server")


class RemoteClient(t.Protocol):
    """What a proxy uses of a :class:`~mcp_sdk.Client` of the remote server."""

    @property
    def connected(self) -> bool: ...
    @property
    def era(self) -> str | None: ...
    @property
    def server_capabilities(self) -> dict[str, t.Any] | None: ...
    @property
    def log_level(self) -> str | None: ...
    @log_level.setter
    def log_level(self, level: str | None) -> None: ...
    def connect(self, *, mode: str = "auto") -> dict[str, t.Any]: ...
    def close(self) -> None: ...
    def on_sampling(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_elicitation(self, handler: t.Callable[[dict[str, t.Any]], t.Any], *, url: bool = False) -> t.Any: ...
    def on_roots(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_progress(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_log_message(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_notification(self, handler: t.Callable[[str, dict[str, t.Any]], t.Any]) -> t.Any: ...
    def listen(self, *, tools: bool = False, prompts: bool = False, resources: bool = False, wait: float | None = 10.0) -> t.Any: ...
    def tools(self) -> list[t.Any]: ...
    def prompts(self) -> list[dict[str, t.Any]]: ...
    def resources(self) -> list[dict[str, t.Any]]: ...
    def resource_templates(self) -> list[dict[str, t.Any]]: ...
    def call_tool(self, name: str, arguments: dict[str, t.Any] | None = None, *, progress_token: str | int | None = None,
                  cancellation: Cancellation | None = None) -> dict[str, t.Any]: ...
    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None) -> dict[str, t.Any]: ...
    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None,
                      cancellation: Cancellation | None = None) -> list[dict[str, t.Any]]: ...
    def complete(self, ref: dict[str, t.Any], argument: dict[str, t.Any], context: dict[str, t.Any] | None = None, *,
                 cancellation: Cancellation | None = None) -> dict[str, t.Any]: ...


class ForwardedCall:
    """One request of the proxy's client being forwarded to the remote server.

    :param context: the request's ``server_context``.
    :param progress_token: the token the remote reports progress under (None: none asked).
    """

    def __init__(self, context: ServerContext, progress_token: str | None) -> None:
        self.context = context
        self.progress_token = progress_token
        self.thread = threading.get_ident()
        #: Cancels the remote call.
        self.remote = Cancellation()
        #: An ask of the remote's that the proxy's (2026-07-28) client must answer first.
        self.input_required: InputRequired | None = None


class RemoteSession:
    """A session with the remote server that serves one owner: a downstream session, or one request.

    :param owner: the downstream session whose calls it carries (None: it carries one request).
    """

    def __init__(self, owner: Channel | None) -> None:
        self.owner = owner
        #: The client of this session (None until :meth:`open` made it).
        self.client: RemoteClient | None = None
        #: Set once :meth:`open` has ended, with :attr:`failure` set if it failed.
        self.opened = threading.Event()
        self.failure: BaseException | None = None
        # The pool's bookkeeping (see RemoteSessions), read and written under the pool's lock only.
        #: Calls begun on it and not yet ended.
        self.users = 0
        #: When (time.monotonic) its last call ended.
        self.idle_since = 0.0
        #: Whether it takes no more calls (closed once the ones it carries end).
        self.retired = False
        self._lock = threading.Lock()
        self._calls: dict[int, ForwardedCall] = {}  # by order of start; guarded by _lock
        self._order = itertools.count(1)
        self._abandoned = False  # a call ended while the remote may still be working on it

    # -- lifecycle ------------------------------------------------------------

    def open(self, client: RemoteClient, mode: str) -> None:
        """Take ``client``'s requests and notifications for this session and connect it in ``mode``.

        :raises MCPError: the remote cannot be reached or refused (:attr:`failure` is set too).
        """
        self.client = client
        try:
            with warnings.catch_warnings():  # sampling, roots and logging are what the remote may use: forward them
                warnings.simplefilter("ignore", MCPDeprecationWarning)
                client.on_sampling(lambda params: self.ask(methods.SAMPLING_CREATE_MESSAGE, params))
                client.on_elicitation(lambda params: self.ask(methods.ELICITATION_CREATE, params), url=True)
                client.on_roots(lambda params: self.ask(methods.ROOTS_LIST, params))
            client.on_progress(self.progress)
            client.on_log_message(self.log)
            client.connect(mode=mode)
            if "logging" in (client.server_capabilities or {}):
                client.log_level = "debug"  # the proxy's sessions filter at their clients' levels
        except BaseException as error:
            self.failure = error
            raise
        finally:
            self.opened.set()

    def close(self) -> None:
        """Close the client (ends a stdio remote's process, an HTTP session); never raises."""
        if self.client is None:
            return
        try:
            self.client.close()
        except Exception as error:  # the remote is gone either way
            logger.warning("the proxy could not close a session with the remote server: %s", error)

    # -- calls ----------------------------------------------------------------

    def begin(self, call: ForwardedCall) -> int:
        """Carry ``call`` from now on; returns the key :meth:`end` takes."""
        with self._lock:
            key = next(self._order)
            self._calls[key] = call
        return key

    def end(self, key: int, abandoned: bool) -> None:
        """The call ``key`` ended: ``abandoned`` when the remote may still be working on it (no answer came)."""
        with self._lock:
            del self._calls[key]
            if abandoned:
                self._abandoned = True

    def _tied(self) -> tuple[ForwardedCall | None, str]:
        """The call what the remote sends now belongs to (see the module docstring), or None and why not."""
        me = threading.get_ident()
        with self._lock:
            calls = list(self._calls.values())
            abandoned = self._abandoned
        mine = [call for call in calls if call.thread == me]
        if mine:
            return mine[-1], ""
        if len(calls) == 1 and not abandoned:
            return calls[0], ""
        if abandoned:
            return None, "a call of this session was abandoned and nothing tells whether this belongs to it"
        if calls:
            return None, f"{len(calls)} calls of this session are in flight and nothing tells which one this belongs to"
        return None, "no call of this session is in flight"

    # -- what the remote sends ----------------------------------------------------

    def ask(self, method: str, params: dict[str, t.Any]) -> dict[str, t.Any]:
        """The remote's ``method`` request, asked of the proxy's client that made the call it belongs to.

        :raises JSONRPCError: it belongs to no call of this session's owner (-32600), or that
            client lacks the capability (-32601), or answers on its retry (2026-07-28); the client's own error answer.
        """
        call, why = self._tied()
        session = call.context.session if call is not None else None
        if call is None or session is None:
            logger.warning("the remote server's %s refused: %s", method, why or "the call has no session")
            raise JSONRPCError(f"{method}: {why or 'the call has no session'}; refused", error_codes.INVALID_REQUEST)
        capability = required_capability({"method": method, "params": params})
        if not session.client_supports(capability):  # as a client without that handler answers
            raise JSONRPCError(f"Method not found: {method} (the proxy's client lacks {capability})", error_codes.METHOD_NOT_FOUND)
        try:
            answer = session.send_request(method, params or None, related_request_id=call.context.request_id,
                                          cancellation=call.context.cancellation)
        except InputRequired as ask:
            if call.thread == threading.get_ident():
                raise  # a 2026-07-28 remote's ask, answered on the calling thread: it ends the call there
            call.input_required = ask  # the calling thread raises it once the remote call has ended
            call.remote.cancel("the proxy's client answers on its retry")
            raise JSONRPCError("The proxy's client will answer on a later request", error_codes.INTERNAL_ERROR) from None
        return t.cast("dict[str, t.Any]", answer)

    def progress(self, params: dict[str, t.Any]) -> None:
        """The remote's ``notifications/progress``: to the call of this session whose token it carries."""
        token = params.get("progressToken")
        with self._lock:
            call = next((call for call in self._calls.values() if call.progress_token == token), None)
        if call is None:
            logger.debug("remote progress dropped: no call of this session has the token %.100r", token)
        elif type(params.get("progress")) in (int, float):
            call.context.report_progress(params["progress"], params.get("total"), params.get("message"))

    def log(self, params: dict[str, t.Any]) -> None:
        """The remote's ``notifications/message``: to the call it is tied to, else to the owner outside any call."""
        level, data, source = params.get("level"), params.get("data"), params.get("logger")
        if level not in methods.LOG_SEVERITY:
            return
        call, why = self._tied()
        if call is not None and call.context.session is not None:
            call.context.session.notify_log_message(data, level, source, related_request_id=call.context.request_id)
        elif self.owner is not None and not self.owner.closed:
            self.owner.notify_log_message(data, level, source)
        else:
            logger.info("remote log message dropped: %s", why)


__all__ = ["ForwardedCall", "RemoteClient", "RemoteSession"]
