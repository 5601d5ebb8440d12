"""How many 2026-07-28 ``subscriptions/listen`` streams may be open at once, whose, and for how long.

A listen stream cannot be resumed (the 2026-07-28 transport has no ``Last-Event-ID``), so it holds
what the server has least of for as long as it is open: a WSGI thread on a threaded server, one of
the connections a gevent worker accepts (``--worker-connections``) under gevent.
:class:`ThreadListens` bounds them in both cases, through :class:`~.thread_capacity.ThreadCapacity` and
:class:`~.greenlet_capacity.GreenletCapacity`:

- in count: they share the threads (connections) beyond the reserve kept for every other request;
- per client: one owner (a principal, or an anonymous client's address, see
  :mod:`mcp_sdk.server.transports.streamable_http.wire.client_address`) holds at most half of that share; past it, 429 with ``Retry-After``;
- in time: ``Limits.listen_hold`` (threads only: a greenlet is not a thread to give back).

Listens are ended *gracefully*: the listen answers its ``subscriptions/listen`` result, and the
client listens again.
https://modelcontextprotocol.io/specification/2026-07-28/basic/patterns/subscriptions#graceful-closure

Whose listen ends when the share is full follows one rule: **a listen is kept from other clients'
pressure unless its owner holds more than they do.** A newcomer past the share ends the oldest
listen (open at least :data:`MIN_LISTEN_AGE`) of the owner holding the most, only if that owner
holds at least two more than the newcomer's owner would with it: a burst from one address can end
the listens of a client holding many, never those of a client holding its fair part. Otherwise the
newcomer is acknowledged and ended at once, with its result, and its client listens again later. A
request finding no thread free while the listens fill their share ends the newest listen of the
owner holding the most: established listens are the last to go.
"""

from __future__ import annotations

import threading
import time
import typing as t

from .....graceful_end import GracefulEnd
from ..wire.http_io import HTTPRequestError
from .limits import RETRY_AFTER

#: Seconds a listen stays open at least before a newcomer may end it: when no listen that may
#: be ended is this old, the newcomer is the one ended at once.
MIN_LISTEN_AGE = 1.0


class ListenBound(t.Protocol):
    """What bounds the open ``subscriptions/listen`` streams of one transport."""

    def admit(self, owner: t.Hashable, request_id: t.Any = None) -> tuple[GracefulEnd, t.Callable[[], None]]:
        """Take a place for one listen of ``owner`` (a principal's key, or an anonymous client's address).

        :return: what ends the listen gracefully (set on its connection), and what gives the
            place back when its stream ends (calling it again does nothing).
        :raises HTTPRequestError: 429 with ``Retry-After``, for one owner past its share.
        """

    def reclaim(self) -> bool:
        """The server needs a thread back: end a listen gracefully; returns whether one was."""


def _nothing() -> None:
    return None


class _Listen:
    __slots__ = ("owner", "opened", "end")

    def __init__(self, owner: t.Hashable, opened: float, end: GracefulEnd) -> None:
        self.owner = owner
        self.opened = opened
        self.end = end


class ThreadListens:
    """A :class:`ListenBound` of a count, a share per owner and a time (see the module's docstring).

    One lock guards the open listens, kept by owner and by count of listens held; listens are
    ended outside it. Every operation costs a few dictionary steps, whatever the number open.

    :param share: ``share()`` gives the most listens open at once (the threads, or connections,
        beyond the reserve, which may change once the server tells its count).
    :param hold: seconds a listen stays open at most (None: as long as the client keeps it).
    """

    def __init__(self, share: t.Callable[[], int], hold: float | None) -> None:
        self.hold = hold
        self._share = share
        self._lock = threading.Lock()
        self._open: dict[object, _Listen] = {}  # insertion order is opening order (and deadline order)
        self._by_owner: dict[t.Hashable, dict[object, _Listen]] = {}  # each in opening order
        self._owners_holding: dict[int, dict[t.Hashable, None]] = {}  # listens held -> the owners holding that many

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
        """The most listens one owner may hold: half of :attr:`limit`, at least one."""
        return max(1, self.limit // 2)

    def admit(self, owner: t.Hashable, request_id: t.Any = None) -> tuple[GracefulEnd, t.Callable[[], None]]:
        now = time.monotonic()
        limit, per_owner = self.limit, self.per_owner()
        ended: list[GracefulEnd] = []
        key = object()
        end = GracefulEnd(None if self.hold is None else now + self.hold)
        with self._lock:
            ended.extend(self._take_expired(now))
            held = len(self._by_owner.get(owner, ()))
            if held >= per_owner:
                raise HTTPRequestError(
                    429,
                    f"Too Many Requests: this client has {held} subscriptions/listen streams open (the most is {per_owner})",
                    headers={"Retry-After": str(RETRY_AFTER)},
                    request_id=request_id,
                )
            while len(self._open) >= limit:
                unfair = self._oldest_of_an_owner_holding(held + 2, now)
                if unfair is None:
                    break
                ended.append(self._remove(unfair))
            crowded = len(self._open) >= limit
            if not crowded:
                self._add(key, _Listen(owner, now, end))
        for older in ended:
            older.end()
        if crowded:  # nobody holds more than its part: this one ends at once, with its result
            end.end()
            return end, _nothing
        return end, _Release(self._forget, key)

    def reclaim(self) -> bool:
        """End a listen past its time, else, while the listens fill their share, the newest listen
        of the owner holding the most."""
        now = time.monotonic()
        with self._lock:
            ended = self._take_expired(now)
            if not ended and self._open and len(self._open) >= self.limit:
                ended.append(self._remove(self._newest_of_the_largest_holder()))
        for listen in ended:
            listen.end()
        return bool(ended)

    def _oldest_of_an_owner_holding(self, at_least: int, now: float) -> object | None:
        """Under the lock: the key of the oldest listen, open :data:`MIN_LISTEN_AGE` at least, of
        an owner holding ``at_least`` listens or more, the owners holding the most first."""
        for count in sorted((count for count in self._owners_holding if count >= at_least), reverse=True):
            oldest: tuple[float, object] | None = None
            for owner in self._owners_holding[count]:
                first_key, first = next(iter(self._by_owner[owner].items()))
                if now - first.opened >= MIN_LISTEN_AGE and (oldest is None or first.opened < oldest[0]):
                    oldest = (first.opened, first_key)
            if oldest is not None:
                return oldest[1]
        return None

    def _newest_of_the_largest_holder(self) -> object:
        """Under the lock, with a listen open: the key of the newest listen of the owners holding the most."""
        newest: tuple[float, object] | None = None
        for owner in self._owners_holding[max(self._owners_holding)]:
            last_key, last = next(reversed(self._by_owner[owner].items()))
            if newest is None or last.opened > newest[0]:
                newest = (last.opened, last_key)
        assert newest is not None
        return newest[1]

    def _take_expired(self, now: float) -> list[GracefulEnd]:
        """Under the lock: remove the listens past their time (their own wait ends them too).

        Every listen has the same hold, so the expired ones are the oldest: a look at the first.
        """
        expired: list[GracefulEnd] = []
        while self._open:
            first = next(iter(self._open.values()))
            if first.end.deadline is None or first.end.deadline > now:
                break
            expired.append(self._remove(next(iter(self._open))))
        return expired

    def _add(self, key: object, listen: _Listen) -> None:
        """Under the lock."""
        self._open[key] = listen
        mine = self._by_owner.setdefault(listen.owner, {})
        self._regroup(listen.owner, len(mine), len(mine) + 1)
        mine[key] = listen

    def _remove(self, key: object) -> GracefulEnd:
        """Under the lock: forget an open listen; returns what ends it."""
        listen = self._open.pop(key)
        mine = self._by_owner[listen.owner]
        del mine[key]
        self._regroup(listen.owner, len(mine) + 1, len(mine))
        if not mine:
            del self._by_owner[listen.owner]
        return listen.end

    def _regroup(self, owner: t.Hashable, was: int, now: int) -> None:
        """Under the lock: ``owner`` went from holding ``was`` listens to ``now``."""
        if was:
            owners = self._owners_holding[was]
            del owners[owner]
            if not owners:
                del self._owners_holding[was]
        if now:
            self._owners_holding.setdefault(now, {})[owner] = None

    def _forget(self, key: object) -> None:
        with self._lock:
            if key in self._open:
                self._remove(key)


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


__all__ = ["MIN_LISTEN_AGE", "ListenBound", "ThreadListens"]
