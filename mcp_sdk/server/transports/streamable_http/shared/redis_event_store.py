"""An :class:`~.EventStore` in Redis, so ``GET`` + ``Last-Event-ID`` resumes on any process.

Keys, under the session's prefix: ``ev:<stream>`` a list of ``"<n>|<json>"`` (the
last ``max_events_per_stream``), ``evs`` the set of the session's streams, ``evn``
the counter of the standalone stream. Each expires ``ttl`` seconds after its last
write; the session's end deletes them all (:meth:`RedisEventStore.drop`).

A request's stream is written by the one process running the request: it numbers
the events itself and hands the writes to the backplane's writer thread, so a
tool never waits on Redis to send progress (the writes keep their order). The
standalone GET stream, which any process may write to, is numbered in Redis.
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
import typing as t

from ..... import json_rpc
from ....._redis import register_script
from ..streams.event_store import DEFAULT_MAX_AGE, EventStore, ReplaySend
from .redis_backplane import WORKER_ID, RedisBackplane, text

logger = logging.getLogger("mcp_sdk.server")

#: The stream any process writes to (the standalone GET stream), numbered in Redis.
SHARED_STREAM = "0"

#: The streams' ids: the shared stream, or a request's ``<worker id>.<n>`` (``SharedHTTPSession.stream_prefix``).
STREAM_ID = re.compile(rf"0|{WORKER_ID.pattern}\.[1-9][0-9]{{0,19}}")

#: Seconds at most a tool's message waits to be stored before it goes out (Redis slow: it goes anyway).
STORE_WAIT = 2.0
#: A request stream's expiry is renewed at every this many events.
EXPIRE_EVERY = 32

_STORE_NEXT = """
local n = redis.call('INCR', KEYS[1])
redis.call('RPUSH', KEYS[2], n .. '|' .. ARGV[1])
redis.call('LTRIM', KEYS[2], -tonumber(ARGV[2]), -1)
redis.call('SADD', KEYS[3], ARGV[4])
for i = 1, 3 do redis.call('EXPIRE', KEYS[i], tonumber(ARGV[3])) end
return n
"""

_APPEND_AFTER_LAST = """
local last = redis.call('LINDEX', KEYS[1], -1)
local n = 1
if last then n = tonumber(string.match(last, '^(%d+)')) + 1 end
redis.call('RPUSH', KEYS[1], n .. '|' .. ARGV[1])
redis.call('EXPIRE', KEYS[1], tonumber(ARGV[2]))
return n
"""


class RedisEventStore(EventStore):
    """The events of one session in Redis, bounded per stream and expiring.

    Event ids are ``"<stream id>-<n>"``.

    :param backplane: the link to Redis (its writer thread stores request streams' events).
    :param key: the session's key prefix (``"mcp:s:<session id>"``).
    :param max_events_per_stream: events kept per stream; older ones are dropped first.
    :param ttl: seconds the events outlive their last write.
    """

    def __init__(
        self, backplane: RedisBackplane, key: str, *, max_events_per_stream: int = 100, ttl: float = DEFAULT_MAX_AGE
    ) -> None:
        if max_events_per_stream < 1 or ttl <= 0:
            raise ValueError("max_events_per_stream and ttl must be positive")
        self.backplane = backplane
        self.redis = backplane.redis
        self.key = key
        self.max_events_per_stream = max_events_per_stream
        self.ttl = max(1, int(ttl))
        self._store_next = register_script(self.redis, _STORE_NEXT)
        self._append = register_script(self.redis, _APPEND_AFTER_LAST)
        self._lock = threading.Lock()
        self._numbers: dict[str, t.Iterator[int]] = {}
        self._last_shared = 0  # the last number Redis gave on the shared stream

    def _list(self, stream_id: str) -> str:
        return f"{self.key}:ev:{stream_id}"

    def store_event(self, stream_id: str, message: dict[str, t.Any] | None) -> str:
        return self._store(stream_id, message, "" if message is None else json_rpc.encode(message))

    def store_encoded(self, stream_id: str, message: dict[str, t.Any], text: str) -> str:
        if type(self).store_event is not RedisEventStore.store_event:  # a subclass's store_event still sees every event
            return self.store_event(stream_id, message)
        return self._store(stream_id, message, text)

    def _store(self, stream_id: str, message: dict[str, t.Any] | None, data: str) -> str:
        if stream_id == SHARED_STREAM:
            return self._store_shared(data)
        with self._lock:
            numbers = self._numbers.get(stream_id)
            if numbers is None:
                numbers = self._numbers[stream_id] = itertools.count(1)
            number = next(numbers)
        entry, events, streams = f"{number}|{data}", self._list(stream_id), f"{self.key}:evs"
        keep, ttl = self.max_events_per_stream, self.ttl

        def write(pipe: t.Any) -> None:
            pipe.rpush(events, entry)
            if number > keep:
                pipe.ltrim(events, -keep, -1)
            if number % EXPIRE_EVERY == 1:  # a stream's events expire from its first write on, renewed now and then
                pipe.expire(events, ttl)
            if number == 1:
                pipe.sadd(streams, stream_id)
                pipe.expire(streams, ttl)

        # What a tool sends on its way (progress, logs, its requests to the client) is stored before it
        # goes out, so a client resuming after this process died misses nothing it saw; the priming
        # event and the response follow without waiting (the writes keep their order).
        in_flight = message is not None and "method" in message
        self.backplane.write_behind(write, wait=STORE_WAIT if in_flight else None)
        return f"{stream_id}-{number}"

    def _store_shared(self, data: str) -> str:
        keys = [f"{self.key}:evn", self._list(SHARED_STREAM), f"{self.key}:evs"]
        try:
            number = int(self._store_next(keys=keys, args=[data, self.max_events_per_stream, self.ttl, SHARED_STREAM]))
        except self.backplane.errors:
            # Redis is unreachable or full: the event still goes out live, but cannot be replayed. Its id
            # repeats the last one, so a client resuming from it misses nothing that was stored.
            logger.warning("MCP event store: Redis unreachable or full, an event of the GET stream was not stored")
            return f"{SHARED_STREAM}-{self._last_shared}"
        self._last_shared = max(self._last_shared, number)
        return f"{SHARED_STREAM}-{number}"

    def append_after_last(self, stream_id: str, message: dict[str, t.Any]) -> str:
        """Store ``message`` after whatever ``stream_id`` holds (for a stream another process wrote).

        :param stream_id: the stream.
        :param message: the JSON-RPC message.
        :returns: the new event's id.
        """
        number = int(self._append(keys=[self._list(stream_id)], args=[json_rpc.encode(message), self.ttl]))
        return f"{stream_id}-{number}"

    def replay_events_after(self, last_event_id: str, send: ReplaySend) -> str | None:
        stream_id, separator, number_text = last_event_id.rpartition("-")
        if not separator or len(number_text) > 20 or not (number_text.isascii() and number_text.isdigit()):
            return None
        if STREAM_ID.fullmatch(stream_id) is None:  # not a stream this store names: unknown, and no key
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
        events, streams = self._list(stream_id), f"{self.key}:evs"
        with self._lock:
            self._numbers.pop(stream_id, None)

        def write(pipe: t.Any) -> None:
            pipe.delete(events)
            pipe.srem(streams, stream_id)

        self.backplane.write_behind(write)

    def close(self) -> None:
        """One process's copy of the session ended: the events stay for the others (see :meth:`drop`)."""

    def drop(self) -> None:
        """The session ended everywhere: delete its events."""
        streams = self.redis.smembers(f"{self.key}:evs")
        self.redis.delete(f"{self.key}:evn", f"{self.key}:evs", *(self._list(text(stream)) for stream in streams))

    def __repr__(self) -> str:
        return f"<RedisEventStore {self.key}>"


__all__ = ["RedisEventStore", "SHARED_STREAM"]
