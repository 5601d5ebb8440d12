"""Ending a long-lived request early, gracefully: with its result, not an error.

A ``subscriptions/listen`` request lasts until the client leaves; a transport that
needs its thread back (or bounds how long one may last) ends it with a
:class:`GracefulEnd`, and the request answers its graceful-close result.
https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions#graceful-closure
"""

from __future__ import annotations

import threading
import time
import typing as t


class GracefulEnd:
    """A one-way "end now, with your result" flag, with a deadline at which it ends by itself.

    :param deadline: the ``time.monotonic()`` at which the request ends (None: only on :meth:`end`).
    """

    def __init__(self, deadline: float | None = None) -> None:
        self.deadline = deadline
        self._lock = threading.Lock()
        self._ended = False
        self._callbacks: list[t.Callable[[], None]] = []

    @property
    def ended(self) -> bool:
        """Whether :meth:`end` was called or the deadline passed."""
        return self._ended or (self.deadline is not None and time.monotonic() >= self.deadline)

    def left(self) -> float | None:
        """Seconds until the deadline (0 once ended; None without a deadline)."""
        if self._ended:
            return 0.0
        return None if self.deadline is None else max(0.0, self.deadline - time.monotonic())

    def end(self) -> bool:
        """End the request now (callbacks run on this thread); returns False if it had already been ended."""
        with self._lock:
            if self._ended:
                return False
            self._ended = True
            callbacks, self._callbacks = self._callbacks, []
        for callback in callbacks:
            callback()
        return True

    def add_callback(self, callback: t.Callable[[], None]) -> t.Callable[[], None]:
        """Call ``callback()`` on :meth:`end` (at once if already ended; not at the deadline).

        :return: a function that unregisters the callback.
        """
        with self._lock:
            if not self._ended:
                self._callbacks.append(callback)
                return lambda: self._remove(callback)
        callback()
        return lambda: None

    def _remove(self, callback: t.Callable[[], None]) -> None:
        with self._lock:
            if callback in self._callbacks:
                self._callbacks.remove(callback)

    def __repr__(self) -> str:
        return f"<GracefulEnd ended={self.ended} left={self.left()!r}>"


__all__ = ["GracefulEnd"]
