"""Caps on open SSE connections, so that no client can hold every WSGI thread.

Each open SSE connection (a GET stream, a resumption, a request answered with
SSE) holds one thread of the WSGI server for as long as it is open. The caps
keep some threads free for everyone else: past the session's share the client
gets ``429``, past the total ``503``, both at once and with ``Retry-After``.
"""

from __future__ import annotations

import functools
import threading
import typing as t

from ..wire.http_io import HTTPRequestError

#: Seconds a refused client is told to wait before trying again.
RETRY_AFTER = 1


def streams_for_threads(wsgi_threads: int) -> int:
    """The default cap on open SSE connections for a WSGI server with ``wsgi_threads`` threads.

    Leaves a quarter of the threads, and at least two, for JSON requests and the
    POSTs that answer server-to-client requests: 4 threads -> 2, 8 -> 6, 32 -> 24.
    """
    return max(1, wsgi_threads - max(2, wsgi_threads // 4))


class StreamLimits:
    """Counts open SSE connections in total and per owner (a session id).

    :param total: the most open at once.
    :param per_owner: the most open at once for one owner.
    """

    def __init__(self, total: int, per_owner: int) -> None:
        if total < 1 or per_owner < 1:
            raise ValueError("stream caps must be positive")
        self.total = total
        self.per_owner = per_owner
        self._lock = threading.Lock()
        self._open = 0
        self._by_owner: dict[t.Hashable, int] = {}

    def resize(self, total: int, per_owner: int) -> None:
        """Change the caps (the WSGI server told its thread count); places already taken stay."""
        if total < 1 or per_owner < 1:
            raise ValueError("stream caps must be positive")
        with self._lock:
            self.total, self.per_owner = total, per_owner

    @property
    def open_count(self) -> int:
        """Connections open now."""
        with self._lock:
            return self._open

    def acquire(self, owner: t.Hashable, request_id: t.Any = None) -> t.Callable[[], None]:
        """Take a place for one connection of ``owner``.

        :return: gives the place back (calling it again does nothing).
        :raises HTTPRequestError: 429 past the owner's share, 503 past the total.
        """
        with self._lock:
            held = self._by_owner.get(owner, 0)
            if held >= self.per_owner:
                refusal = HTTPRequestError(
                    429,
                    f"Too Many Requests: this session has {held} SSE streams open (the most is {self.per_owner})",
                    headers={"Retry-After": str(RETRY_AFTER)},
                    request_id=request_id,
                )
            elif self._open >= self.total:
                refusal = HTTPRequestError(
                    503,
                    "Service Unavailable: too many SSE streams are open; try again shortly",
                    headers={"Retry-After": str(RETRY_AFTER)},
                    request_id=request_id,
                )
            else:
                self._by_owner[owner] = held + 1
                self._open += 1
                return functools.partial(self._give_back, owner, [None])  # C: no Python object to make, nor frame to call
        raise refusal

    def _give_back(self, owner: t.Hashable, once: list[None]) -> None:
        try:
            once.pop()  # atomic: only the first call finds the item
        except IndexError:  # given back already
            return
        with self._lock:
            self._open -= 1
            held = self._by_owner.get(owner, 0) - 1
            if held > 0:
                self._by_owner[owner] = held
            else:
                self._by_owner.pop(owner, None)


__all__ = ["RETRY_AFTER", "StreamLimits", "streams_for_threads"]
