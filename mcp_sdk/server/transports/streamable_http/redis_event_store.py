"""An :class:`~.EventStore` in Redis, so ``GET`` + ``Last-Event-ID`` resumes on any process.

Keys, under the session's prefix: ``ev:<stream>`` a list of ``"<n>|<json>"`` (the
last ``max_events_per_stream``), ``evn`` the session's event counter, ``evs`` the
set of its streams. Each expires ``ttl`` seconds after its last write; the
session's end deletes them all (:meth:`RedisEventStore.drop`).
"""

from __future__ import annotations

import logging
import typing as t

from .... import json_rpc
from .event_store import DEFAULT_MAX_AGE, EventStore, ReplaySend
from .redis_backplane import import_redis, text

logger = logging.getLogger("mcp_sdk.server")

_STORE = """
local n = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], n .. '|' .. ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('SADD', KEYS[3], ARGV[4])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[3])) end
return n
"""


class RedisEventStore(EventStore):
    """The events of one session in Redis, bounded per stream and expiring.

    Event ids are ``"<stream id>-<n>"``, ``n`` counting up across the session in Redis.

    :param client: a ``redis.Redis`` client.
    :param key: the session's key prefix (``"mcp:s:<session id>"``).
    :param max_events_per_stream: events kept per stream; older ones are dropped first.
    :param ttl: seconds the events outlive their last write.
    """

    def __init__(self, client: t.Any, key: str, *, max_events_per_stream: int = 100, ttl: float = DEFAULT_MAX_AGE) -> None:
        if max_events_per_stream < 1 or ttl <= 0:
            raise ValueError("max_events_per_stream and ttl must be positive")
        self.redis = client
        self.key = key
        self.max_events_per_stream = max_events_per_stream
        self.ttl = max(1, int(ttl))
        self._store = client.register_script(_STORE)
        redis = import_redis()
        self._outage = (redis.exceptions.ConnectionError, redis.exceptions.TimeoutError)
        self._last = 0  # the last event number Redis gave

    def _list(self, stream_id: str) -> str:
        return f"{self.key}:ev:{stream_id}"

    def store_event(self, stream_id: str, message: dict[str, t.Any] | None) -> str:
        data = "" if message is None else json_rpc.encode(message)
        keys = [f"{self.key}:evn", self._list(stream_id), f"{self.key}:evs"]
        try:
            number = int(self._store(keys=keys, args=[data, self.max_events_per_stream, self.ttl, stream_id]))
        except self._outage:
            # Redis is unreachable: the event still goes out live, but cannot be replayed. Its id
            # repeats the last one, so a client resuming from it misses nothing that was stored.
            logger.warning("MCP event store: Redis unreachable, an event of stream %s was not stored", stream_id)
            return f"{stream_id}-{self._last}"
        self._last = max(self._last, number)
        return f"{stream_id}-{number}"

    def replay_events_after(self, last_event_id: str, send: ReplaySend) -> str | None:
        stream_id, separator, number_text = last_event_id.rpartition("-")
        if not separator or len(number_text) > 20 or not (number_text.isascii() and number_text.isdigit()):
            return None
        after = int(number_text)
        entries = self.redis.lrange(self._list(stream_id), 0, -1)
        if not entries:
            return None
        for entry in entries:
            number, _, data = text(entry).partition("|")
            if int(number) > after:
                send(f"{stream_id}-{number}", json_rpc.decode(data) if data else None)
        return stream_id

    def forget_stream(self, stream_id: str) -> None:
        pipe = self.redis.pipeline()
        pipe.delete(self._list(stream_id))
        pipe.srem(f"{self.key}:evs", stream_id)
        pipe.execute()

    def close(self) -> None:
        """One process's copy of the session ended: the events stay for the others (see :meth:`drop`)."""

    def drop(self) -> None:
        """The session ended everywhere: delete its events."""
        streams = self.redis.smembers(f"{self.key}:evs")
        self.redis.delete(f"{self.key}:evn", f"{self.key}:evs", *(self._list(text(stream)) for stream in streams))

    def __repr__(self) -> str:
        return f"<RedisEventStore {self.key}>"


__all__ = ["RedisEventStore"]
