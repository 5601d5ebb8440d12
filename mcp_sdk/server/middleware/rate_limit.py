"""Per-caller rate limiting: a token bucket per caller (FastMCP's ``RateLimitingMiddleware``).

Who a request counts against is :func:`~.caller.caller_key` (the principal, else the client's
address); where the buckets live is :mod:`.token_buckets` (this process, a bounded table) or
:mod:`.redis_token_buckets` (shared by every process, ``redis_url=``).
"""

from __future__ import annotations

import math
import time
import typing as t

from ..._redis import import_redis
from ...errors import RequestHandlerError
from .caller import caller_key
from .chain import CallNext, Middleware
from .token_buckets import MAX_BUCKETS, MemoryTokenBuckets, TokenBuckets

if t.TYPE_CHECKING:
    from ..request import Request

#: The JSON-RPC code of a refused request: in the range JSON-RPC leaves to implementations
#: (-32000 to -32099), clear of the codes MCP and the SDKs use (-32000 is the TypeScript
#: and Python SDKs' "connection closed"); 29 recalls HTTP 429.
RATE_LIMITED = -32029
#: What a request is answered while the shared buckets' Redis cannot be reached (-32603).
STORE_UNAVAILABLE_TEXT = "Service unavailable: the rate limit cannot be checked"


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


class RateLimit(Middleware):
    """Refuses a caller's requests beyond ``rate`` per second, with bursts of ``burst``.

    Each caller (see :func:`~.caller.caller_key`: the authenticated principal, else the
    client's address) has a bucket of ``burst`` tokens, refilled at ``rate`` per second; a
    request takes one, and with none left it is answered :class:`RateLimitedError` (-32029,
    ``data.retryAfterMs``) without running. Add it with ``methods=`` to limit only some
    methods (``tools/call``, say).

    The buckets live in this process (at most ``max_buckets`` callers, the one seen least
    recently forgotten first), or, with ``redis_url`` (or ``redis``), in Redis, shared by
    every process of the server (``gunicorn -w N``): there they expire once full again, and
    Redis's clock is used. While that Redis cannot be reached, limited requests are refused
    (-32603, reported to the ``exception_reporter``), never let through unchecked.

    :param rate: tokens added per second (> 0).
    :param burst: the bucket's size (>= 1; default ``rate``, at least 1).
    :param key: ``fn(request)``: the caller a request counts against (with Redis, a JSON value).
    :param max_buckets: callers whose buckets this process keeps at most (without Redis).
    :param redis_url: share the buckets through this Redis.
    :param redis: or through this ``redis.Redis`` client (it stays yours).
    :param redis_prefix: the prefix of the buckets' Redis keys.
    :param clock: seconds, monotonic (for tests; without Redis).
    :raises ValueError: ``rate``, ``burst`` or ``max_buckets`` out of range; both ``redis_url`` and ``redis``.
    :raises MissingExtraError: ``redis_url`` or ``redis`` without redis-py (``pip install 'mcp_sdk[redis]'``).
    """

    def __init__(
        self,
        rate: float,
        burst: float | None = None,
        *,
        key: t.Callable[[Request], t.Hashable] = caller_key,
        max_buckets: int = MAX_BUCKETS,
        redis_url: str | None = None,
        redis: t.Any = None,
        redis_prefix: str | None = None,
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
        self.buckets: TokenBuckets
        if redis_url is not None or redis is not None:
            from .redis_token_buckets import DEFAULT_PREFIX, RedisTokenBuckets

            self.buckets = RedisTokenBuckets(
                self.rate, self.burst, redis_url=redis_url, redis=redis, prefix=redis_prefix or DEFAULT_PREFIX
            )
            self._outage: tuple[type[BaseException], ...] = (import_redis().exceptions.RedisError,)
        else:
            self.buckets = MemoryTokenBuckets(self.rate, self.burst, max_buckets=max_buckets, clock=clock)
            self._outage = ()

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        try:
            wait = self.take(self.key(request))
        except self._outage as error:
            request.data["error"] = "rate_limit_unavailable"
            request.session.server.report_exception(error, {"request": request.message})
            raise RequestHandlerError(STORE_UNAVAILABLE_TEXT) from None
        if wait > 0:
            request.data["error"] = "rate_limited"
            raise RateLimitedError(wait)
        return call_next(request)

    def take(self, key: t.Hashable) -> float:
        """Take a token from ``key``'s bucket: 0 when taken, else the seconds until one is there.

        :param key: the caller's key (see :func:`~.caller.caller_key`).
        """
        return self.buckets.take(key)

    def close(self) -> None:
        """Release the buckets (the Redis connection opened from ``redis_url``)."""
        self.buckets.close()


__all__ = ["MAX_BUCKETS", "RATE_LIMITED", "STORE_UNAVAILABLE_TEXT", "RateLimit", "RateLimitedError", "caller_key"]
