"""The sessions of one server: those its transports opened, and a default one for direct calls.

:class:`SessionSet` is an object the server holds. :class:`~.notifications.Broadcast` tells each open
session of list changes and log messages; :meth:`mcp_sdk.Server.handle` answers on the default
session, which has no transport (what it would send is dropped) and is never broadcast to.
"""

from __future__ import annotations

import threading
import typing as t

from .session import Send, ServerSession

if t.TYPE_CHECKING:
    from .core import ServerCore


class SessionSet:
    """The open sessions of a server, and its default session.

    :param server: the server the sessions answer for.
    """

    def __init__(self, server: ServerCore) -> None:
        self.server = server
        self._lock = threading.Lock()
        self._open: set[ServerSession] = set()
        self._default: ServerSession | None = None

    def create(self, send: Send | None, session_id: str | None) -> ServerSession:
        """A new open session.

        :param send: ``send(message, related_request_id)`` writes to the client (None: messages are dropped).
        :param session_id: the transport's id of the session.
        """
        session = ServerSession(self.server, send, session_id)
        with self._lock:
            self._open.add(session)
        return session

    def discard(self, session: ServerSession) -> None:
        """Forget a session that closed.

        :param session: the session.
        """
        with self._lock:
            self._open.discard(session)

    def snapshot(self) -> list[ServerSession]:
        """The open sessions."""
        with self._lock:
            return list(self._open)

    def default(self) -> ServerSession:
        """The default session (made on first use, then kept)."""
        session = self._default
        if session is None:
            with self._lock:
                if self._default is None:
                    self._default = ServerSession(self.server)
                session = self._default
        return session


__all__ = ["SessionSet"]
