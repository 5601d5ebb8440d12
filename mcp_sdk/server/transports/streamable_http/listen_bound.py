"""How many 2026-07-28 ``subscriptions/listen`` streams may hold a WSGI thread, and for how long.

A listen stream cannot be resumed (the 2026-07-28 transport has no ``Last-Event-ID``), so on a
threaded WSGI server it holds its thread for as long as it is open. :class:`ThreadListens` bounds
them in count (a share of the threads, beyond the reserve kept for JSON requests) and in time
(``Limits.listen_hold``). When the server needs a thread back (a newcomer past the count, a
request that leaves no thread free, a listen past its time) the oldest listen is ended
*gracefully*: it answers its ``subscriptions/listen`` result, and the client listens again.
https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions#graceful-closure

Only abuse is refused: one principal past its share gets 429 with ``Retry-After``. A newcomer
finding every place taken by listens opened less than :data:`MIN_LISTEN_AGE` ago (a burst, or a
reconnect storm) is not refused but ended at once, after its acknowledgement, with its result:
the client backs off and listens again.
Where an open stream costs a greenlet, not a thread (gevent), :class:`UnboundedListens` takes
the place of :class:`ThreadListens` in :class:`~.capacity.ThreadCapacity`.
"""

from __future__ import annotations

import threading
import time
import typing as t

from ....graceful_end import GracefulEnd
from .http_io import HTTPRequestError
from .limits import RETRY_AFTER

#: Seconds a listen stays open at least before a newcomer (or a request wanting its thread) may
#: end it: when every listen is younger, the newcomer is the one ended at once.
MIN_LISTEN_AGE = 1.0


class ListenBound(t.Protocol):
    """What bounds the open ``subscriptions/listen`` streams of one transport."""

    def admit(self, owner: t.Hashable | None, request_id: t.Any = None) -> tuple[GracefulEnd, t.Callable[[], None]]:
        """Take a place for one listen of ``owner`` (None: an anonymous client).

        :return: what ends the listen gracefully (set on its connection), and what gives the
            place back when its stream ends (calling it again does nothing).
        :raises HTTPRequestError: 429 with ``Retry-After``, for abuse only.
        """

    def reclaim(self) -> bool:
        """The server needs a thread back: end the oldest listen gracefully; returns whether one was."""


class UnboundedListens:
    """A :class:`ListenBound` that bounds nothing: where an open stream costs a greenlet, not a thread."""

    def admit(self, owner: t.Hashable | None, request_id: t.Any = None) -> tuple[GracefulEnd, t.Callable[[], None]]:
        return GracefulEnd(), _nothing

    def reclaim(self) -> bool:
        return False


def _nothing() -> None:
    return None


class _Listen:
    __slots__ = ("owner", "opened", "end")

    def __init__(self, owner: t.Hashable | None, opened: float, end: GracefulEnd) -> None:
        self.owner = owner
        self.opened = opened
        self.end = end


class ThreadListens:
    """A :class:`ListenBound` for a threaded WSGI server: a count and a time.

    One lock guards the open listens (oldest first); listens are ended outside it.

    :param share: ``share()`` gives the most listens open at once (the WSGI threads beyond the
        reserve, which may change once the server tells its thread count).
    :param hold: seconds a listen stays open at most (None: as long as the client keeps it).
    """

    def __init__(self, share: t.Callable[[], int], hold: float | None) -> None:
        self.hold = hold
        self._share = share
        self._lock = threading.Lock()
        self._open: dict[object, _Listen] = {}  # insertion order is opening order

    @property
    def open_count(self) -> int:
        """Listens open now."""
        with self._lock:
            return len(self._open)

    @property
    def limit(self) -> int:
        """The most listens open at once now (0 on a server with one thread: each is ended at once)."""
        return max(0, self._share())

    def per_owner(self) -> int:
        """The most listens one principal may hold: half of :attr:`limit`, at least one."""
        return max(1, self.limit // 2)

    def admit(self, owner: t.Hashable | None, request_id: t.Any = None) -> tuple[GracefulEnd, t.Callable[[], None]]:
        now = time.monotonic()
        limit, per_owner = self.limit, self.per_owner()
        ended: list[GracefulEnd] = []
        key = object()
        end = GracefulEnd(None if self.hold is None else now + self.hold)
        with self._lock:
            ended.extend(self._take_expired(now))
            if owner is not None:
                held = sum(1 for listen in self._open.values() if listen.owner == owner)
                if held >= per_owner:
                    raise HTTPRequestError(
                        429,
                        f"Too Many Requests: this client has {held} subscriptions/listen streams open (the most is {per_owner})",
                        headers={"Retry-After": str(RETRY_AFTER)},
                        request_id=request_id,
                    )
            while self._open and len(self._open) >= limit:
                oldest_key = next(iter(self._open))
                if now - self._open[oldest_key].opened < MIN_LISTEN_AGE:
                    break
                ended.append(self._open.pop(oldest_key).end)
            crowded = len(self._open) >= limit
            if not crowded:
                self._open[key] = _Listen(owner, now, end)
        for older in ended:
            older.end()
        if crowded:  # every place taken within the second: this one ends at once, with its result
            end.end()
            return end, _nothing
        return end, _Release(self._forget, key)

    def reclaim(self) -> bool:
        """End the listens past their time, else the oldest one if it is :data:`MIN_LISTEN_AGE` old."""
        now = time.monotonic()
        with self._lock:
            ended = self._take_expired(now)
            if not ended and self._open:
                oldest_key = next(iter(self._open))
                if now - self._open[oldest_key].opened >= MIN_LISTEN_AGE:
                    ended.append(self._open.pop(oldest_key).end)
        for listen in ended:
            listen.end()
        return bool(ended)

    def _take_expired(self, now: float) -> list[GracefulEnd]:
        """Under the lock: remove the listens past their time (their own wait ends them too)."""
        expired = [key for key, listen in self._open.items() if listen.end.deadline is not None and listen.end.deadline <= now]
        return [self._open.pop(key).end for key in expired]

    def _forget(self, key: object) -> None:
        with self._lock:
            self._open.pop(key, None)


class _Release:
    """Gives one listen's place back, once."""

    __slots__ = ("_forget", "_key", "_lock")

    def __init__(self, forget: t.Callable[[object], None], key: object) -> None:
        self._forget: t.Callable[[object], None] | None = forget
        self._key = key
        self._lock = threading.Lock()

    def __call__(self) -> None:
        with self._lock:
            forget, self._forget = self._forget, None
        if forget is not None:
            forget(self._key)


__all__ = ["MIN_LISTEN_AGE", "ListenBound", "ThreadListens", "UnboundedListens"]
