"""The lazy import of redis-py, the ``mcp_sdk[redis]`` extra."""

from __future__ import annotations

import types
import typing as t

from .errors import MissingExtraError

#: Seconds one Redis command may take before the request needing it gets 503.
SOCKET_TIMEOUT = 2.0


def import_redis() -> types.ModuleType:
    """The ``redis`` module (redis-py).

    :raises MissingExtraError: naming the extra to install.
    """
    try:
        import redis
    except ImportError:
        raise MissingExtraError(
            "Sharing sessions across processes needs redis-py: pip install 'mcp_sdk[redis]'"
        ) from None
    return redis


def connect(url: str) -> t.Any:
    """A ``redis.Redis`` client for ``url`` whose commands fail within bounded time."""
    redis = import_redis()
    from redis.backoff import NoBackoff
    from redis.retry import Retry

    return redis.Redis.from_url(
        url, socket_timeout=SOCKET_TIMEOUT, socket_connect_timeout=SOCKET_TIMEOUT, retry=Retry(NoBackoff(), 1)
    )


__all__ = ["SOCKET_TIMEOUT", "connect", "import_redis"]
