"""The transport's stream capacity for how the process runs requests: on threads, or on gevent's greenlets.

Decided once, when the transport is built: gevent patches a process before it loads the
application (``gunicorn -k gevent`` patches each worker before importing the app), so a transport
built under gevent sees it. See :mod:`.thread_capacity` (threads) and :mod:`.greenlet_capacity` (greenlets).
"""

from __future__ import annotations

import typing as t

import attrs

from ....._gevent import green_threads
from .thread_capacity import ThreadCapacity
from .greenlet_capacity import DEFAULT_CONNECTIONS, GreenletCapacity, greenlet_stream_caps
from .workers import WorkerPool

if t.TYPE_CHECKING:
    from ..options import Limits


@attrs.frozen
class StreamCapacity:
    """What an open stream costs here, and the caps that follow.

    :param capacity: counts requests in flight and says how long a resumable stream is held.
    :param sizes: ``sizes(count)`` gives the stream caps ``(total, per_session)`` for a server running
        ``count`` requests at once (threads, or connections under gevent).
    :param workers: ``workers(count)`` gives the size of the pool running requests answered over SSE.
    :param green: whether requests run on gevent's greenlets.
    """

    capacity: ThreadCapacity
    sizes: t.Callable[[int], tuple[int, int]]
    workers: t.Callable[[int], int]
    green: bool

    @property
    def caps(self) -> tuple[int, int]:
        """The stream caps ``(total, per_session)`` until the server tells its own count."""
        return self.sizes(self.capacity.threads)

    @property
    def pool_size(self) -> int:
        """The worker pool's size until the server tells its own count."""
        return self.workers(self.capacity.threads)

    def sizing(self, pool: WorkerPool) -> t.Callable[[int], tuple[int, int]]:
        """:attr:`sizes`, growing ``pool`` to :attr:`workers` as well: for when the server tells its count."""

        def sized(count: int) -> tuple[int, int]:
            pool.grow(self.workers(count))
            return self.sizes(count)

        return sized


def stream_capacity(limits: Limits, green: bool | None = None) -> StreamCapacity:
    """The capacity a transport with ``limits`` has in this process.

    Under gevent the worker pool has at least one worker per connection: its workers are greenlets,
    and a ``subscriptions/listen`` keeps one for as long as it is open; ``stream_hold``, which bounds
    how long a stream keeps a *thread*, does not apply (a stream is held while it lasts).

    :param green: whether requests run on greenlets (default: whether gevent patched ``threading``).
    """
    if green_threads() if green is None else green:
        connections = limits.wsgi_threads if limits.wsgi_threads is not None else DEFAULT_CONNECTIONS
        capacity: ThreadCapacity = GreenletCapacity(connections, detect=limits.wsgi_threads is None)
        return StreamCapacity(
            capacity, lambda count: greenlet_stream_caps(limits, count), lambda count: max(limits.max_workers, count), True
        )
    capacity = ThreadCapacity(
        limits.threads, detect=limits.wsgi_threads is None, max_hold=limits.stream_hold, listen_hold=limits.listen_hold
    )
    return StreamCapacity(
        capacity,
        lambda count: (limits.total_streams_for(count), limits.streams_per_session_for(count)),
        lambda count: limits.max_workers,
        False,
    )


__all__ = ["StreamCapacity", "stream_capacity"]
