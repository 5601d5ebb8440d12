"""Per-principal rate limiting: a token bucket per caller (FastMCP's ``RateLimitingMiddleware``)."""

from __future__ import annotations

import math
import threading
import time
import typing as t

from ...errors import RequestHandlerError
from .chain import CallNext, Middleware

if t.TYPE_CHECKING:
    from ..request import Request

#: The JSON-RPC code of a refused request: in the range JSON-RPC leaves to implementations
#: (-32000 to -32099), clear of the codes MCP and the SDKs use (-32000 is the TypeScript
#: and Python SDKs' "connection closed"); 29 recalls HTTP 429.
RATE_LIMITED = -32029
#: Callers whose buckets are kept at most; the fullest (idle longest) are forgotten first.
MAX_BUCKETS = 10_000


class RateLimitedError(RequestHandlerError):
    """The caller sent more requests than its rate allows (-32029).

    ``data`` is ``{"retryAfterMs": n}``: the milliseconds until one request would pass.

    :param retry_after: seconds until one request would pass.
    """

    code = RATE_LIMITED

    def __init__(self, retry_after: float) -> None:
        retry_after_ms = max(1, math.ceil(retry_after * 1000))
        super().__init__(
            f"Rate limit exceeded: retry after {retry_after_ms} ms", data={"retryAfterMs": retry_after_ms}
        )
        #: Seconds until one request would pass.
        self.retry_after = retry_after


def caller_key(request: Request) -> t.Hashable:
    """Who a request counts against: the authenticated principal; else the session (2025, HTTP);
    else one bucket for every anonymous caller of the process (stdio has one client)."""
    principal = request.principal
    if principal is not None:
        return ("principal", *principal.key)
    session_id = request.session.session_id
    if session_id is not None:
        return ("session", session_id)
    return ("anonymous",)


class RateLimit(Middleware):
    """Refuses a caller's requests beyond ``rate`` per second, with bursts of ``burst``.

    Each caller (see :func:`caller_key`) has a bucket of ``burst`` tokens, refilled at
    ``rate`` per second; a request takes one, and with none left it is answered
    :class:`RateLimitedError` (-32029, ``data.retryAfterMs``) without running.
    Add it with ``methods=`` to limit only some methods (``tools/call``, say).

    :param rate: tokens added per second (> 0).
    :param burst: the bucket's size (>= 1; default ``rate``, at least 1).
    :param key: ``fn(request)``: the caller a request counts against.
    :param clock: seconds, monotonic (for tests).
    :raises ValueError: ``rate`` or ``burst`` out of range.
    """

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        *,
        key: t.Callable[[Request], t.Hashable] = caller_key,
        clock: t.Callable[[], float] = time.monotonic,
    ) -> None:
        if not rate > 0:
            raise ValueError(f"rate must be positive, not {rate!r}")
        burst = max(1.0, rate) if burst is None else burst
        if not burst >= 1:
            raise ValueError(f"burst must be at least 1, not {burst!r}")
        self.rate = float(rate)
        self.burst = float(burst)
        self.key = key
        self._clock = clock
        self._lock = threading.Lock()
        self._buckets: dict[t.Hashable, tuple[float, float]] = {}  # key -> (tokens, at)

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        wait = self.take(self.key(request))
        if wait > 0:
            request.data["error"] = "rate_limited"
            raise RateLimitedError(wait)
        return call_next(request)

    def take(self, key: t.Hashable) -> float:
        """Take a token from ``key``'s bucket: 0 when taken, else the seconds until one is there.

        :param key: the caller's key (see :func:`caller_key`).
        """
        now = self._clock()
        with self._lock:
            tokens, at = self._buckets.get(key, (self.burst, now))
            tokens = min(self.burst, tokens + (now - at) * self.rate)
            if tokens >= 1:
                self._buckets[key] = (tokens - 1, now)
                if len(self._buckets) > MAX_BUCKETS:
                    self._forget_full(now)
                return 0.0
            self._buckets[key] = (tokens, now)
            return (1 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        # Lock held. A bucket that has refilled is the same as no bucket: drop those.
        full = [key for key, (tokens, at) in self._buckets.items() if tokens + (now - at) * self.rate >= self.burst]
        for key in full:
            del self._buckets[key]


__all__ = ["MAX_BUCKETS", "RATE_LIMITED", "RateLimit", "RateLimitedError", "caller_key"]
