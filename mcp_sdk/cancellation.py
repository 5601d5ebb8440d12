"""Cooperative cancellation tokens.

https://modelcontextprotocol.io/specification/2025-11-25/basic/utilities/cancellation
"""

from __future__ import annotations

import logging
import threading
import typing as t

from .errors import CancelledError

logger = logging.getLogger("mcp_sdk.cancellation")

Callback = t.Callable[["Cancellation"], None]

#: Guards every token's state changes: they are rare (a cancel, a first wait, a callback added
#: or removed) and never held across a callback, so one lock serves them all and a token,
#: made for every request, costs no lock of its own.
_lock = threading.Lock()


class Cancellation:
    """A thread-safe, one-way cancellation flag with callbacks.

    The server hands one to every in-flight request (through ``server_context``);
    a client call accepts one to cancel it from another thread.
    """

    # Defaults kept on the class, shadowed on a token as its state changes (under _lock): every
    # request gets a token, so making one runs no Python; few are ever cancelled or waited on.
    _cancelled: bool = False
    _event: threading.Event | None = None  # made on the first wait()
    _callbacks: list[Callback] | None = None  # made by the first add_callback(), as the event
    #: The reason given to :meth:`cancel`, if any.
    reason: str | None = None

    def cancel(self, reason: str | None = None) -> bool:
        """Cancel, run the callbacks once, and return True; False if already cancelled.

        :param reason: why, kept as :attr:`reason` (``notifications/cancelled`` sends it).
        """
        with _lock:
            if self._cancelled:
                return False
            self.reason = reason
            self._cancelled = True
            event = self._event
            callbacks, self._callbacks = self._callbacks or (), None
        if event is not None:
            event.set()
        for callback in callbacks:
            try:
                callback(self)
            except Exception:  # one broken callback must not keep the others (or the canceller) from running
                logger.exception("cancellation callback %r failed", callback)
        return True

    def cancelled(self) -> bool:
        """Whether :meth:`cancel` has been called."""
        return self._cancelled

    def raise_if_cancelled(self) -> None:
        """Raise :class:`~mcp_sdk.CancelledError` if cancelled."""
        if self._cancelled:
            raise CancelledError(reason=self.reason)

    def wait(self, timeout: float | None = None) -> bool:
        """Block until cancelled or ``timeout`` seconds pass; return :meth:`cancelled`.

        :param timeout: seconds to wait at most (None: until cancelled).
        """
        if self._cancelled:
            return True
        with _lock:
            if self._cancelled:
                return True
            event = self._event
            if event is None:
                event = self._event = threading.Event()
        return event.wait(timeout) or self._cancelled

    def add_callback(self, callback: Callback) -> t.Callable[[], None]:
        """Call ``callback(self)`` on cancellation (at once if already cancelled).

        :return: a function that unregisters the callback.
        :param callback: called with this token, once.
        """
        with _lock:
            if not self._cancelled:
                if self._callbacks is None:
                    self._callbacks = []
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback(self)
        return lambda: None

    def _remove(self, callback: Callback) -> None:
        with _lock:
            try:
                if self._callbacks is not None:
                    self._callbacks.remove(callback)
            except ValueError:
                pass

    def __repr__(self) -> str:
        state = f"cancelled reason={self.reason!r}" if self.cancelled() else "active"
        return f"<Cancellation {state}>"
