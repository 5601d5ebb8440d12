"""Which servers of a :class:`~mcp_sdk.client.multi.MultiServerClient` sit out after a listing ran out of time.

A server that stays silent would otherwise cost every listing of every server its full deadline,
every time. Once one of its listings runs out of time it sits out: left out of listings, and calls
to it fail at once, until its wait is over; then the next listing tries it again. Each time it fails
again the wait doubles, up to a ceiling; one answer in time ends it.
"""

from __future__ import annotations

import threading
import time
import typing as t


class _Sitting(t.NamedTuple):
    error: Exception  # the timeout that put it out
    delay: float  # seconds of this wait
    until: float  # time.monotonic() when it may be tried again


class Backoff:
    """The servers sitting out, and until when. Thread-safe: one lock, held for no I/O.

    :param initial: seconds a server sits out after its first listing that ran out of time.
    :param maximum: the longest wait, however often it fails.
    """

    def __init__(self, initial: float = 5.0, maximum: float = 300.0) -> None:
        if initial < 0 or maximum < initial:
            raise ValueError(f"backoff needs 0 <= initial <= maximum, not {initial} and {maximum}")
        self.initial = initial
        self.maximum = maximum
        self._lock = threading.Lock()
        self._sitting: dict[str, _Sitting] = {}

    def due(self, server: str) -> bool:
        """Whether ``server`` may be tried: it is not sitting out, or its wait is over."""
        with self._lock:
            sitting = self._sitting.get(server)
        return sitting is None or time.monotonic() >= sitting.until

    def sitting_out(self, server: str) -> Exception | None:
        """The timeout that keeps ``server`` out now (None: it may be tried)."""
        with self._lock:
            sitting = self._sitting.get(server)
        return sitting.error if sitting is not None and time.monotonic() < sitting.until else None

    def timed_out(self, server: str, error: Exception) -> float:
        """``server`` ran out of time: it sits out ``initial`` seconds the first time, twice as long
        as before each time after (at most ``maximum``). A server already sitting out (another
        listing found it silent meanwhile) keeps its wait.

        :return: the seconds it now sits out.
        """
        now = time.monotonic()
        with self._lock:
            sitting = self._sitting.get(server)
            if sitting is not None and now < sitting.until:
                return sitting.until - now
            delay = self.initial if sitting is None else min(self.maximum, max(sitting.delay * 2, self.initial))
            self._sitting[server] = _Sitting(error, delay, now + delay)
        return delay

    def answered(self, server: str) -> None:
        """``server`` answered in time: it sits out no more, and a later timeout starts from ``initial``."""
        with self._lock:
            self._sitting.pop(server, None)

    def sitting(self) -> dict[str, tuple[Exception, float]]:
        """Server -> (the timeout, seconds left), for each server sitting out now."""
        now = time.monotonic()
        with self._lock:
            return {server: (sitting.error, sitting.until - now) for server, sitting in self._sitting.items() if now < sitting.until}
