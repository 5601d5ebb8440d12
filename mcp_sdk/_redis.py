"""The lazy import of redis-py, the ``mcp_sdk[redis]`` extra."""

from __future__ import annotations

import types
import typing as t

from .errors import MissingExtraError

#: Seconds one Redis command may take before the request needing it gets 503.
SOCKET_TIMEOUT = 2.0
#: What a script's error says when Redis refused one of its writes at ``maxmemory``.
_OOM = "OOM command not allowed"


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


def outage_errors() -> tuple[type[BaseException], ...]:
    """What Redis raises when it cannot serve: unreachable, too slow, or full (``maxmemory`` with
    ``noeviction``, :func:`register_script`'s scripts included). A request needing it gets 503."""
    exceptions = import_redis().exceptions
    return (exceptions.ConnectionError, exceptions.TimeoutError, exceptions.OutOfMemoryError)


def is_full(error: BaseException) -> bool:
    """Whether ``error`` is Redis refusing a write because it is full."""
    exceptions = import_redis().exceptions
    return isinstance(error, exceptions.OutOfMemoryError) or (
        isinstance(error, exceptions.ResponseError) and _OOM in str(error)
    )


def register_script(client: t.Any, source: str) -> t.Callable[..., t.Any]:
    """``client.register_script(source)``, whose refusal at ``maxmemory`` raises ``OutOfMemoryError``.

    Redis reports a write refused inside a script as the script's failure (a plain
    ``ResponseError``): without this, a full Redis looks like a bug (500) instead of an outage (503).
    """
    script = client.register_script(source)
    exceptions = import_redis().exceptions

    def run(keys: t.Sequence[t.Any] = (), args: t.Sequence[t.Any] = ()) -> t.Any:
        try:
            return script(keys=list(keys), args=list(args))
        except exceptions.ResponseError as error:
            if is_full(error) and not isinstance(error, exceptions.OutOfMemoryError):
                raise exceptions.OutOfMemoryError(str(error)) from None
            raise

    return run


__all__ = ["SOCKET_TIMEOUT", "connect", "import_redis", "is_full", "outage_errors", "register_script"]
