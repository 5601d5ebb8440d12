"""The ``requestState`` keys of a server shared by every process through Redis.

A 2026-07-28 multi round-trip request may be retried on any process, so every
process must verify what another sealed. Unless the configuration sets
``request_state_keys``, the first process to need them creates a random 256-bit
key under ``<prefix>request-state-keys`` (``SET NX``: exactly one wins) and every
process reads it from there.

Rotation: the value is hex keys separated by spaces, the first signing and every
one verifying. Write ``"<new> <old>"`` to the key; each process reads it again at
its next heartbeat (within :data:`~.redis_backplane.HEARTBEAT_INTERVAL` seconds),
and drop ``<old>`` once ``request_state_ttl`` has passed.
"""

from __future__ import annotations

import logging
import secrets
import threading
import typing as t

from .....configuration import MIN_REQUEST_STATE_KEY_BYTES
from .redis_backplane import RedisBackplane, text

logger = logging.getLogger("mcp_sdk.server")

#: The Redis key, under the transport's prefix.
KEY_NAME = "request-state-keys"


def parse_keys(value: str) -> tuple[bytes, ...]:
    """The keys of a stored value: hex, separated by spaces.

    :raises ValueError: no key, one that is not hex, or one shorter than 32 bytes.
    """
    keys = tuple(bytes.fromhex(part) for part in value.split())
    if not keys or any(len(key) < MIN_REQUEST_STATE_KEY_BYTES for key in keys):
        raise ValueError(f"{KEY_NAME} must hold hex keys of at least {MIN_REQUEST_STATE_KEY_BYTES} bytes, separated by spaces")
    return keys


class RedisRequestStateKeys:
    """Called, the shared keys (read from Redis once, then again at each heartbeat).

    :param backplane: the link to Redis.
    """

    def __init__(self, backplane: RedisBackplane) -> None:
        self.backplane = backplane
        #: The key in Redis.
        self.redis_key = backplane.key(KEY_NAME)
        self._lock = threading.Lock()
        self._keys: tuple[bytes, ...] | None = None
        backplane.every_beat(self._refresh)

    def __call__(self) -> tuple[bytes, ...]:
        """The keys, the first signing.

        :raises ValueError: the value in Redis is not keys (see :func:`parse_keys`).
        :raises redis.exceptions.ConnectionError: Redis cannot be read yet (the request gets 503).
        """
        with self._lock:
            keys = self._keys
        return keys if keys is not None else self._load()

    def _load(self) -> tuple[bytes, ...]:
        redis = self.backplane.redis
        stored = redis.get(self.redis_key)
        if stored is None:  # the first process to need keys makes them; the others read its
            redis.set(self.redis_key, secrets.token_hex(32), nx=True)
            stored = redis.get(self.redis_key)
        keys = parse_keys(text(stored))
        with self._lock:
            self._keys = keys
        return keys

    def _refresh(self) -> None:
        """At each heartbeat, once the keys were needed: take a rotation written to Redis."""
        with self._lock:
            loaded = self._keys is not None
        if not loaded:
            return
        try:
            self._load()
        except ValueError as error:  # keep signing with the keys we have
            logger.error("MCP requestState keys in Redis (%s) ignored: %s", self.redis_key, error)


__all__ = ["KEY_NAME", "RedisRequestStateKeys", "parse_keys"]
