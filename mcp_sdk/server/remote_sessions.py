"""A proxy's sessions with the remote server, one per caller, so nothing crosses from one caller to another.

A :class:`~.proxy.Proxy` lists the remote's items on one shared *catalog* session (the client it was
given), which carries no caller's state. Each call it forwards goes on a :class:`~.remote_session.RemoteSession`
of the caller's own, made by the proxy's client factory:

- a 2025 caller with a session of its own (stdio, in memory, a Streamable HTTP session): one remote
  session for its whole downstream session, so the remote keeps that caller's state between its
  calls, and only its;
- a 2026-07-28 request, or a stateless 2025 POST: one remote session for the request, closed when
  the request ends.

A remote session on which a call was abandoned (cancelled, timed out: the remote may still be
working on it) takes no more calls; the owner's next call opens a new one, and the old one closes
once its last call ends, so nothing late from it is ever given to a later call.

:class:`RemoteSessions` bounds them, since one caller can make the proxy open them (and a stdio
remote runs a process per session): at most ``max_sessions`` are open at once. A call that needs a
new one when that many are open first closes the one left idle longest (a downstream session's
remote session with no call on it), so that sessions one client opened and left do not lock every
other client out until they expire; the evicted caller's next call opens a new one, its remote
state gone. Only when every open session carries a call does a call fail at once, with
:class:`TooManyRemoteSessionsError`. A downstream session's remote session also closes once the
downstream session has closed, or after ``idle_timeout`` seconds without a call. One named thread,
``mcp_sdk-proxy-remote-sessions``, closes them (no caller waits for a remote to exit); it runs while
any is open and checks every ``sweep_interval`` seconds.
"""

from __future__ import annotations

import logging
import threading
import time
import typing as t

from ..errors import RequestHandlerError
from .remote_session import RemoteClient, RemoteSession

if t.TYPE_CHECKING:
    from .channel import Channel

logger = logging.getLogger("mcp_sdk.server")

#: Default most remote sessions a proxy has open at once.
MAX_REMOTE_SESSIONS = 32
#: Default seconds a downstream session's remote session stays open without a call.
REMOTE_SESSION_IDLE_TIMEOUT = 300.0
#: Seconds a call waits for another call of the same owner that is opening their remote session.
OPEN_TIMEOUT = 60.0


class Claimed(t.NamedTuple):
    """A remote session a call was counted on, and whether the call must open it."""

    session: RemoteSession
    created: bool


class TooManyRemoteSessionsError(RequestHandlerError):
    """The proxy has as many remote sessions open as it may (``max_remote_sessions``), each carrying a
    call: the call is refused."""


class RemoteSessions:
    """The open remote sessions of one proxy, by owner.

    :param factory: ``factory()`` returns a new, unconnected client of the remote server.
    :param mode: how each client connects (``"legacy"`` or ``"modern"``: the catalog's era).
    :param max_sessions: most remote sessions open at once.
    :param idle_timeout: seconds a downstream session's remote session stays open without a call.
    :param sweep_interval: seconds between checks for closed downstream sessions and idle remote ones.
    :raises ValueError: a bound that is not positive.
    """

    def __init__(
        self,
        factory: t.Callable[[], RemoteClient],
        mode: str,
        *,
        max_sessions: int = MAX_REMOTE_SESSIONS,
        idle_timeout: float = REMOTE_SESSION_IDLE_TIMEOUT,
        sweep_interval: float = 1.0,
    ) -> None:
        if type(max_sessions) is not int or max_sessions < 1:
            raise ValueError(f"max_remote_sessions must be a positive int, not {max_sessions!r}")
        if not idle_timeout > 0 or not sweep_interval > 0:
            raise ValueError(f"remote_session_idle_timeout must be positive, not {idle_timeout!r}")
        self.factory = factory
        self.mode = mode
        self.max_sessions = max_sessions
        self.idle_timeout = idle_timeout
        self.sweep_interval = min(sweep_interval, idle_timeout)
        self._lock = threading.Lock()
        self._by_owner: dict[t.Any, RemoteSession] = {}  # downstream session -> the remote session its calls take
        self._open: set[RemoteSession] = set()  # every one not closed yet: what max_sessions counts
        self._closing: list[RemoteSession] = []  # retired, with no call left: for the thread to close
        self._wake = threading.Event()
        self._thread: threading.Thread | None = None
        self._stopped = False

    @property
    def open_count(self) -> int:
        """How many remote sessions are open (or opening, or waiting to be closed)."""
        with self._lock:
            return len(self._open)

    def acquire(self, owner: Channel | None) -> RemoteSession:
        """The remote session a call of ``owner`` goes on (None: a session for this call alone), with the call counted.

        Give it back with :meth:`release` when the call ends.

        :raises TooManyRemoteSessionsError: a new one is needed and ``max_sessions`` are open, each
            carrying a call (an idle one is closed to make room).
        :raises RequestHandlerError: the proxy was closed, or the owner's session failed to open.
        :raises MCPError: the new session could not connect to the remote.
        """
        while True:
            with self._lock:
                claim = self._claim(owner)
            if isinstance(claim, Claimed):
                break
            # At the bound, the session left idle longest makes room: closed before another opens,
            # so the bound on open sessions (and a stdio remote's processes) holds.
            logger.info("proxy: closing the remote session idle longest to make room (max_remote_sessions)")
            claim.close()
            with self._lock:
                self._open.discard(claim)
        session, created = claim
        if created:
            try:
                session.open(self.factory(), self.mode)
            except BaseException:
                self.release(session, abandoned=True)
                raise
        elif not session.opened.wait(OPEN_TIMEOUT) or session.failure is not None:
            self.release(session, abandoned=True)
            raise RequestHandlerError("The proxy's session with the remote server could not be opened")
        return session

    def release(self, session: RemoteSession, abandoned: bool) -> None:
        """A call on ``session`` ended (``abandoned``: with no answer from the remote, which may still work on it)."""
        with self._lock:
            session.users -= 1
            session.idle_since = time.monotonic()
            if abandoned or session.owner is None:
                self._retire(session)
            if session.retired and session.users == 0:
                self._closing.append(session)
                self._wake.set()

    def close(self) -> None:
        """Close every remote session (calls on them fail) and take no more calls."""
        with self._lock:
            self._stopped = True
            for session in self._open:
                if not session.retired:
                    self._retire(session)
                    self._closing.append(session)
            self._wake.set()

    # -- under the lock ---------------------------------------------------------

    def _claim(self, owner: Channel | None) -> Claimed | RemoteSession:
        """The session a call of ``owner`` goes on, its call counted; or, at the bound, a session to
        close first (retired, no longer the owner's), whose room the caller then takes.

        :raises TooManyRemoteSessionsError: the bound is reached and every open session carries a call.
        """
        if self._stopped:
            raise RequestHandlerError("The proxy is closed")
        session = self._by_owner.get(owner) if owner is not None else None
        created = session is None
        if session is None:
            if len(self._open) >= self.max_sessions:
                idle = [open_session for open_session in self._by_owner.values() if open_session.users == 0]
                if not idle:
                    raise TooManyRemoteSessionsError(
                        f"The proxy has {self.max_sessions} sessions with the remote server open, each "
                        "carrying a call (max_remote_sessions); try again later"
                    )
                evicted = min(idle, key=lambda open_session: open_session.idle_since)
                self._retire(evicted)
                return evicted
            self._start_thread()  # first: a thread that cannot start leaves nothing counted
            session = RemoteSession(owner)
            self._open.add(session)
            if owner is not None:
                self._by_owner[owner] = session
        session.users += 1
        return Claimed(session, created)

    def _retire(self, session: RemoteSession) -> None:
        session.retired = True
        if session.owner is not None and self._by_owner.get(session.owner) is session:
            del self._by_owner[session.owner]

    def _start_thread(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._run, name="mcp_sdk-proxy-remote-sessions", daemon=True)
            self._thread.start()

    def _due(self) -> list[RemoteSession] | None:
        """Retire the sessions of closed owners and the idle ones; what to close now (None: nothing is open, stop)."""
        now = time.monotonic()
        for owner, session in list(self._by_owner.items()):
            if owner.closed or (session.users == 0 and now - session.idle_since >= self.idle_timeout):
                self._retire(session)
                if session.users == 0:
                    self._closing.append(session)
        due, self._closing = self._closing, []
        if not due and not self._open:
            self._thread = None
            return None
        return due

    # -- the thread -------------------------------------------------------------

    def _run(self) -> None:
        while True:
            self._wake.wait(self.sweep_interval)
            self._wake.clear()
            with self._lock:
                due = self._due()
            if due is None:
                return
            for session in due:
                session.close()  # not under the lock: a remote may take its close_timeout to exit
            with self._lock:
                self._open.difference_update(due)


__all__ = ["MAX_REMOTE_SESSIONS", "REMOTE_SESSION_IDLE_TIMEOUT", "RemoteSessions", "TooManyRemoteSessionsError"]
