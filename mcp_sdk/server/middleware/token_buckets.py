"""Token buckets of one process, for :class:`~.rate_limit.RateLimit`: :class:`MemoryTokenBuckets`.

A bounded table: at most ``max_buckets`` callers are kept, the one seen least recently
forgotten first, and each request does constant work (no scan of the table). A forgotten
caller starts again with a full bucket; it was idle while ``max_buckets`` others were
seen, so its bucket had mostly refilled already.
"""

from __future__ import annotations

import collections
import threading
import time
import typing as t

#: Callers whose buckets are kept at most by default.
MAX_BUCKETS = 10_000


class TokenBuckets(t.Protocol):
    """Where a :class:`~.rate_limit.RateLimit` keeps its buckets."""

    def take(self, key: t.Hashable) -> float:
        """Take a token from ``key``'s bucket: 0 when taken, else the seconds until one is there."""

    def close(self) -> None:
        """Release what the buckets hold (a connection)."""


class MemoryTokenBuckets:
    """Buckets of ``burst`` tokens refilled at ``rate`` per second, in this process's memory.

    :param rate: tokens added per second (> 0).
    :param burst: a bucket's size (>= 1).
    :param max_buckets: callers kept at most (>= 1).
    :param clock: seconds, monotonic.
    """

    def __init__(
        self, rate: float, burst: float, *, max_buckets: int = MAX_BUCKETS, clock: t.Callable[[], float] = time.monotonic
    ) -> None:
        if not (type(max_buckets) is int and max_buckets >= 1):
            raise ValueError(f"max_buckets must be a positive integer, not {max_buckets!r}")
        self.rate = rate
        self.burst = burst
        self.max_buckets = max_buckets
        self._clock = clock
        self._lock = threading.Lock()
        # key -> (tokens, at), least recently seen first.
        self._buckets: collections.OrderedDict[t.Hashable, tuple[float, float]] = collections.OrderedDict()

    def take(self, key: t.Hashable) -> float:
        """Take a token from ``key``'s bucket: 0 when taken, else the seconds until one is there.

        :param key: the caller's key.
        """
        now = self._clock()
        with self._lock:
            tokens, at = self._buckets.pop(key, (self.burst, now))
            tokens = min(self.burst, tokens + max(0.0, now - at) * self.rate)
            wait = 0.0
            if tokens >= 1:
                tokens -= 1
            else:
                wait = (1 - tokens) / self.rate
            self._buckets[key] = (tokens, now)
            if len(self._buckets) > self.max_buckets:
                self._buckets.popitem(last=False)
            return wait

    def __len__(self) -> int:
        return len(self._buckets)

    def close(self) -> None:
        """Forget every bucket."""
        with self._lock:
            self._buckets.clear()


__all__ = ["MAX_BUCKETS", "MemoryTokenBuckets", "TokenBuckets"]
