"""Token buckets shared by every process through Redis: :class:`RedisTokenBuckets`.

Under ``gunicorn -w N`` each worker process has its own memory: buckets kept there let a
caller through N times its rate. These live in Redis, one hash per caller, and a Lua script
takes a token atomically (read, refill, take, write in one step, whichever worker runs
it), on Redis's clock (``TIME``), so that workers whose clocks differ agree. A bucket
expires once it would have refilled: an idle caller leaves nothing behind.
"""

from __future__ import annotations

import hashlib
import json
import math
import typing as t

from ..._redis import connect, register_script

#: The keys' prefix by default.
DEFAULT_PREFIX = "mcp:ratelimit:"

# KEYS[1]: the bucket. ARGV: rate (tokens per second), burst, milliseconds until it expires.
# Returns the seconds until a token is there, as a string (0: taken).
_TAKE = """
local clock = redis.call('TIME')
local now = tonumber(clock[1]) + tonumber(clock[2]) / 1000000
local rate = tonumber(ARGV[1])
local burst = tonumber(ARGV[2])
local state = redis.call('HMGET', KEYS[1], 'tokens', 'at')
local tokens = tonumber(state[1])
local at = tonumber(state[2])
if tokens == nil or at == nil then
  tokens = burst
  at = now
end
local elapsed = now - at
if elapsed < 0 then elapsed = 0 end
tokens = math.min(burst, tokens + elapsed * rate)
local wait = 0
if tokens >= 1 then
  tokens = tokens - 1
else
  wait = (1 - tokens) / rate
end
redis.call('HSET', KEYS[1], 'tokens', string.format('%.17g', tokens), 'at', string.format('%.17g', now))
redis.call('PEXPIRE', KEYS[1], ARGV[3])
return string.format('%.17g', wait)
"""


class RedisTokenBuckets:
    """Buckets of ``burst`` tokens refilled at ``rate`` per second, in Redis.

    :param rate: tokens added per second (> 0).
    :param burst: a bucket's size (>= 1).
    :param redis_url: the Redis to connect to (or give ``redis``).
    :param redis: a ``redis.Redis`` client to use (it stays yours: :meth:`close` leaves it open).
    :param prefix: the prefix of the buckets' keys.
    :raises MissingExtraError: redis-py is not installed (``pip install 'mcp_sdk[redis]'``).
    :raises ValueError: both or neither of ``redis_url`` and ``redis``.
    """

    def __init__(
        self, rate: float, burst: float, *, redis_url: str | None = None, redis: t.Any = None, prefix: str = DEFAULT_PREFIX
    ) -> None:
        if (redis_url is None) == (redis is None):
            raise ValueError("pass redis_url or redis, not both")
        self.rate = rate
        self.burst = burst
        self.prefix = prefix
        self._owns_client = redis is None
        self.redis = connect(t.cast(str, redis_url)) if redis is None else redis
        self._take = register_script(self.redis, _TAKE)
        # A bucket left alone this long is full again: the same as no bucket.
        self._expire_ms = math.ceil(burst / rate * 1000) + 1000

    def key(self, caller: t.Hashable) -> str:
        """The Redis key of ``caller``'s bucket: a digest, so its size does not depend on the caller.

        :param caller: the caller's key (a tuple of strings, as :func:`~.caller.caller_key` gives).
        """
        text = json.dumps(caller, sort_keys=True, separators=(",", ":"), default=repr)
        return self.prefix + hashlib.sha256(text.encode()).hexdigest()

    def take(self, key: t.Hashable) -> float:
        """Take a token from ``key``'s bucket: 0 when taken, else the seconds until one is there.

        :param key: the caller's key.
        :raises redis.exceptions.RedisError: Redis could not be reached, or refused.
        """
        answer = self._take(keys=[self.key(key)], args=[repr(self.rate), repr(self.burst), self._expire_ms])
        return float(answer)

    def close(self) -> None:
        """Close the connection to Redis, when it was opened from ``redis_url``."""
        if self._owns_client:
            self.redis.close()


__all__ = ["DEFAULT_PREFIX", "RedisTokenBuckets"]
