"""The tasks extension's store on Redis: any process answers ``tasks/get`` for a task running on another.

A :class:`RedisTaskStore` keeps each :class:`~.task_store.TaskRecord` as one JSON
value under ``<prefix>task:<id>``, expiring with the task's ``ttlMs``. Every change
is a read-modify-write under ``WATCH``/``MULTI`` (retried when another process
changed the task meanwhile), so racing ``tasks/update`` and ``tasks/cancel`` never
lose each other's change. :meth:`RedisTaskStore.wait` polls: the record says when
it changed. A task whose process died stops beating its heartbeat, and the
:class:`~.tasks.TaskManager` of any other process ends it ``failed``.

redis-py is the ``mcp_sdk[redis]`` extra, imported only here.
"""

from __future__ import annotations

import json
import threading
import typing as t

from .._redis import connect, import_redis
from ..errors import TransportError
from .task_store import TaskRecord

#: Seconds between reads of a task someone waits on.
POLL_INTERVAL = 0.05
#: Times a change is retried when other processes keep changing the same task.
MAX_RETRIES = 50
#: How long a finished or ttl-less task is kept, in seconds.
DEFAULT_RETENTION = 3600

_FIELDS = TaskRecord.__slots__




class RedisTaskStore:
    """A :class:`~.task_store.TaskStore` on Redis, shared by every process that uses the same server.

    :param client: a ``redis.Redis`` client (its own connection pool is used from any thread).
    :param prefix: key prefix, so several MCP servers can share one Redis database.
    :param retention: seconds a task without ``ttlMs`` is kept.
    :raises MissingExtraError: redis-py is not installed.
    """

    def __init__(self, client: t.Any, *, prefix: str = "mcp:", retention: int = DEFAULT_RETENTION) -> None:
        self._redis = import_redis()
        self.client = client
        self.prefix = prefix
        self.retention = retention
        self._sleep = threading.Event()  # never set: an interruptible, bounded sleep

    @classmethod
    def from_url(cls, url: str, **options: t.Any) -> RedisTaskStore:
        """A store on the Redis at ``url`` (``redis://host:6379/0``)."""
        return cls(connect(url), **options)

    def _key(self, task_id: str) -> str:
        return f"{self.prefix}task:{task_id}"

    def _ttl_ms(self, record: TaskRecord) -> int:
        if record.ttl_ms is None:
            return self.retention * 1000
        remaining = int((record.created_at * 1000 + record.ttl_ms) - record.updated_at * 1000)
        return max(remaining, 1) + 60_000  # a minute's grace: the manager, not Redis, decides expiry

    def _errors(self) -> tuple[type[BaseException], ...]:
        return (self._redis.exceptions.ConnectionError, self._redis.exceptions.TimeoutError)

    # -- the TaskStore interface --------------------------------------------

    def create(self, record: TaskRecord) -> None:
        try:
            self.client.set(self._key(record.task_id), _encode(record), px=self._ttl_ms(record))
        except self._errors() as error:
            raise TransportError(f"the task store (Redis) is unreachable: {type(error).__name__}") from None

    def get(self, task_id: str) -> TaskRecord | None:
        try:
            raw = self.client.get(self._key(task_id))
        except self._errors() as error:
            raise TransportError(f"the task store (Redis) is unreachable: {type(error).__name__}") from None
        record = _decode(raw) if raw is not None else None
        if record is not None and record.expired():
            return None
        return record

    def update(self, task_id: str, change: t.Callable[[TaskRecord], bool]) -> TaskRecord | None:
        key = self._key(task_id)
        watch_error = self._redis.exceptions.WatchError
        try:
            for _ in range(MAX_RETRIES):
                with self.client.pipeline() as pipe:
                    try:
                        pipe.watch(key)
                        raw = pipe.get(key)
                        record = _decode(raw) if raw is not None else None
                        if record is None or record.expired():
                            pipe.unwatch()
                            return None
                        if change(record):
                            record.touch()
                        pipe.multi()
                        pipe.set(key, _encode(record), px=self._ttl_ms(record))
                        pipe.execute()
                        return record
                    except watch_error:
                        continue  # another process changed it: read again
        except self._errors() as error:
            raise TransportError(f"the task store (Redis) is unreachable: {type(error).__name__}") from None
        raise TransportError(f"task changed by others {MAX_RETRIES} times in a row; giving up this change")

    def wait(self, task_id: str, timeout: float) -> None:
        self._sleep.wait(min(timeout, POLL_INTERVAL))

    def __repr__(self) -> str:
        return f"<RedisTaskStore prefix={self.prefix!r}>"


def _encode(record: TaskRecord) -> str:
    return json.dumps({name: getattr(record, name) for name in _FIELDS}, separators=(",", ":"))


def _decode(raw: bytes | str) -> TaskRecord | None:
    try:
        data = json.loads(raw)
    except ValueError:
        return None
    if type(data) is not dict or type(data.get("task_id")) is not str:
        return None
    record = TaskRecord(data["task_id"], ttl_ms=data.get("ttl_ms"), poll_interval_ms=data.get("poll_interval_ms"))
    for name in _FIELDS:
        if name in data:
            setattr(record, name, data[name])
    return record


__all__ = ["RedisTaskStore"]
