"""The tasks extension's store on Redis: any process answers ``tasks/get`` for a task running on another.

A :class:`RedisTaskStore` keeps each :class:`~.task_store.TaskRecord` as one JSON
value under ``<prefix>task:<id>``, expiring with the task's ``ttlMs``. Every change
is a read-modify-write: the new value is written by a script only if the task is
still what was read (else it is read again), so racing ``tasks/update`` and
``tasks/cancel`` never lose each other's change. :meth:`RedisTaskStore.wait`
polls: the record says when it changed. A task whose process died stops beating
its heartbeat, and the :class:`~.tasks.TaskManager` of any other process ends it
``failed``.

The limits of :class:`~.task_store.TaskLimits` hold across every process sharing
the store: the same scripts keep an index of the tasks (when each expires, its
size, its owner; per owner, its finished tasks) and check it in the same step as
they write, so no two processes can both take the last room.

redis-py is the ``mcp_sdk[redis]`` extra, imported only here.
"""

from __future__ import annotations

import hashlib
import logging
import re
import threading
import typing as t

from .._redis import connect, import_redis, is_full, outage_errors, register_script
from ..errors import InternalError, StoreFullError, TransportError
from .task_store import (
    DEFAULT_MAX_BYTES,
    DEFAULT_MAX_BYTES_PER_PRINCIPAL,
    DEFAULT_MAX_TASK_BYTES,
    DEFAULT_MAX_TASKS,
    DEFAULT_MAX_TASKS_PER_PRINCIPAL,
    TaskLimits,
    TaskRecord,
)

logger = logging.getLogger("mcp_sdk.server")

#: A task id looked up: printable ASCII, short (the manager's are 32 characters of URL-safe base64);
#: anything else was never stored, and never becomes part of a key.
_TASK_ID = re.compile(r"[\x21-\x7e]{1,256}")

#: Seconds between reads of a task someone waits on.
POLL_INTERVAL = 0.05
#: Times a change is retried when other processes keep changing the same task.
MAX_RETRIES = 50
#: How long a finished or ttl-less task is kept, in seconds.
DEFAULT_RETENTION = 3600

# The index, beside each task's record (P is the prefix): P"tasks:exp" (id -> expiry, ms),
# P"tasks:size" (id -> bytes), P"tasks:owner" (id -> owner digest), P"tasks:bytes" (total);
# per owner digest D: P"owner:"D":exp" (its ids -> expiry), ":bytes" (its total), ":done"
# (its finished ids -> when they finished). Expired entries are swept by every write.
_COMMON = """
local P = ARGV[1]
local clock = redis.call('TIME')
local now = tonumber(clock[1]) * 1000 + math.floor(tonumber(clock[2]) / 1000)
local lim = {tasks = tonumber(ARGV[2]), tasks_owner = tonumber(ARGV[3]), bytes = tonumber(ARGV[4]),
             bytes_owner = tonumber(ARGV[5]), task_bytes = tonumber(ARGV[6])}
local function owner_keys(d)
  local base = P .. 'owner:' .. d
  return base .. ':exp', base .. ':bytes', base .. ':done'
end
local function forget(id)
  local d = redis.call('HGET', P .. 'tasks:owner', id)
  local size = tonumber(redis.call('HGET', P .. 'tasks:size', id) or '0')
  redis.call('ZREM', P .. 'tasks:exp', id)
  redis.call('HDEL', P .. 'tasks:size', id)
  redis.call('HDEL', P .. 'tasks:owner', id)
  redis.call('DECRBY', P .. 'tasks:bytes', size)
  if d then
    local exp, bytes, done = owner_keys(d)
    redis.call('ZREM', exp, id)
    redis.call('ZREM', done, id)
    if redis.call('ZCARD', exp) == 0 then
      redis.call('DEL', exp, bytes, done)
    else
      redis.call('DECRBY', bytes, size)
    end
  end
  redis.call('DEL', P .. 'task:' .. id)
end
local function sweep()
  local gone = redis.call('ZRANGEBYSCORE', P .. 'tasks:exp', '-inf', now, 'LIMIT', 0, 512)
  for _, id in ipairs(gone) do forget(id) end
end
local function over(d, tasks, grown)
  local exp, bytes = owner_keys(d)
  if tasks > 0 and redis.call('ZCARD', exp) + tasks > lim.tasks_owner then return 'max_tasks_per_principal' end
  if tonumber(redis.call('GET', bytes) or '0') + grown > lim.bytes_owner then return 'max_bytes_per_principal' end
  if tasks > 0 and redis.call('ZCARD', P .. 'tasks:exp') + tasks > lim.tasks then return 'max_tasks' end
  if tonumber(redis.call('GET', P .. 'tasks:bytes') or '0') + grown > lim.bytes then return 'max_bytes' end
  return false
end
-- Room for owner d to add tasks and grown bytes: its own finished tasks go, oldest first (never keep).
local function make_room(d, tasks, grown, keep)
  local _, _, done = owner_keys(d)
  while true do
    local limit = over(d, tasks, grown)
    if not limit then return false end
    local oldest = redis.call('ZRANGE', done, 0, 1)
    local victim = oldest[1]
    if victim == keep then victim = oldest[2] end
    if not victim then return limit end
    forget(victim)
  end
end
local function index(id, d, size, expiry, terminal)
  local old = tonumber(redis.call('HGET', P .. 'tasks:size', id) or '0')
  local exp, bytes, done = owner_keys(d)
  redis.call('ZADD', P .. 'tasks:exp', expiry, id)
  redis.call('HSET', P .. 'tasks:size', id, size)
  redis.call('HSET', P .. 'tasks:owner', id, d)
  redis.call('INCRBY', P .. 'tasks:bytes', size - old)
  redis.call('ZADD', exp, expiry, id)
  redis.call('INCRBY', bytes, size - old)
  if terminal then redis.call('ZADD', done, now, id) end
end
sweep()
"""

# ARGV: prefix, 5 limits, id, owner digest, record, px.
_CREATE = (
    _COMMON
    + """
local id, d, value, px = ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
if #value > lim.task_bytes then return 'max_task_bytes' end
local refused = make_room(d, 1, #value, nil)
if refused then return refused end
redis.call('SET', P .. 'task:' .. id, value, 'PX', px)
index(id, d, #value, now + px, false)
return 'ok'
"""
)

# ARGV: prefix, 5 limits, id, owner digest, record, px, SHA-1 of the value read, terminal, visible.
_UPDATE = (
    _COMMON
    + """
local id, d, value, px = ARGV[7], ARGV[8], ARGV[9], tonumber(ARGV[10])
local key = P .. 'task:' .. id
local current = redis.call('GET', key)
if not current then return 'gone' end
if redis.sha1hex(current) ~= ARGV[11] then return 'retry' end
if ARGV[13] == '1' then
  local grown = #value - tonumber(redis.call('HGET', P .. 'tasks:size', id) or '0')
  if grown > 0 then
    if #value > lim.task_bytes then return 'max_task_bytes' end
    local refused = make_room(d, 0, grown, id)
    if refused then return refused end
  end
end
redis.call('SET', key, value, 'PX', px)
index(id, d, #value, now + px, ARGV[12] == '1')
return 'ok'
"""
)


class TaskStoreUnavailableError(InternalError, TransportError):
    """Redis cannot keep tasks now: -32603 saying why, ``data``: ``{"reason": "full" | "unreachable"}``.

    A :class:`~mcp_sdk.errors.TransportError` (the store behind the server failed), and a
    :class:`~mcp_sdk.errors.RequestHandlerError`, so the client is told (not "Internal error").

    :param reason: ``"full"`` (``maxmemory`` reached, policy ``noeviction``) or ``"unreachable"``.
    """

    def __init__(self, reason: str) -> None:
        why = "is full (maxmemory)" if reason == "full" else "is unreachable"
        super().__init__(f"Internal error: the task store (Redis) {why}; try again later", data={"reason": reason})
        self.reason = reason


class TaskStoreFullError(TaskStoreUnavailableError, StoreFullError):
    """Redis refused to keep a task for lack of memory (``maxmemory``, policy ``noeviction``):
    ``reason`` ``"full"``; over Streamable HTTP the request gets ``503`` with ``Retry-After``."""

    def __init__(self) -> None:
        super().__init__("full")


class RedisTaskStore:
    """A :class:`~.task_store.TaskStore` on Redis, shared by every process that uses the same server.

    :param client: a ``redis.Redis`` client (its own connection pool is used from any thread).
    :param prefix: key prefix, so several MCP servers can share one Redis database.
    :param retention: seconds a task without ``ttlMs`` is kept after its last change.
    :param max_tasks: tasks kept in all (every process together).
    :param max_tasks_per_principal: tasks kept for one principal.
    :param max_bytes: bytes kept in all.
    :param max_bytes_per_principal: bytes kept for one principal.
    :param max_task_bytes: bytes of one task.
    :raises MissingExtraError: redis-py is not installed.
    """

    def __init__(
        self,
        client: t.Any,
        *,
        prefix: str = "mcp:",
        retention: int = DEFAULT_RETENTION,
        max_tasks: int = DEFAULT_MAX_TASKS,
        max_tasks_per_principal: int = DEFAULT_MAX_TASKS_PER_PRINCIPAL,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_bytes_per_principal: int = DEFAULT_MAX_BYTES_PER_PRINCIPAL,
        max_task_bytes: int = DEFAULT_MAX_TASK_BYTES,
    ) -> None:
        self._redis = import_redis()
        self.client = client
        self.prefix = prefix
        self.retention = retention
        self.limits = TaskLimits.consistent(
            max_tasks, max_tasks_per_principal, max_bytes, max_bytes_per_principal, max_task_bytes
        )
        self._create = register_script(client, _CREATE)
        self._update = register_script(client, _UPDATE)
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

    def _arguments(self, record: TaskRecord, value: str) -> list[t.Any]:
        limits = self.limits
        owner = hashlib.sha256((record.owner or "").encode("utf-8")).hexdigest()[:32]
        return [
            self.prefix,
            limits.max_tasks,
            limits.max_tasks_per_principal,
            limits.max_bytes,
            limits.max_bytes_per_principal,
            limits.max_task_bytes,
            record.task_id,
            owner,
            value,
            self._ttl_ms(record),
        ]

    def _errors(self) -> tuple[type[BaseException], ...]:
        return outage_errors()

    def _unreachable(self, error: BaseException) -> TaskStoreUnavailableError:
        if is_full(error):
            logger.warning("MCP task store: Redis is full (maxmemory); tasks cannot be created or changed")
            return TaskStoreFullError()
        return TaskStoreUnavailableError("unreachable")

    # -- the TaskStore interface --------------------------------------------

    def create(self, record: TaskRecord) -> None:
        """:raises TaskLimitError: a limit leaves no room, even after the owner's own finished tasks."""
        value = record.to_json()
        try:
            outcome = _text(self._create(args=self._arguments(record, value)))
        except self._errors() as error:
            raise self._unreachable(error) from None
        if outcome != "ok":
            raise self.limits.error(outcome)

    def get(self, task_id: str) -> TaskRecord | None:
        if type(task_id) is not str or _TASK_ID.fullmatch(task_id) is None:
            return None
        try:
            raw = self.client.get(self._key(task_id))
        except self._errors() as error:
            raise self._unreachable(error) from None
        record = TaskRecord.from_json(raw) if raw is not None else None
        if record is not None and record.expired():
            return None
        return record

    def update(self, task_id: str, change: t.Callable[[TaskRecord], bool]) -> TaskRecord | None:
        """:raises TaskLimitError: the change would make the task, or its owner's tasks, too large
        (it is not kept)."""
        if type(task_id) is not str or _TASK_ID.fullmatch(task_id) is None:
            return None
        key = self._key(task_id)
        try:
            for _ in range(MAX_RETRIES):
                raw = self.client.get(key)
                record = TaskRecord.from_json(raw) if raw is not None else None
                if record is None or record.expired():
                    return None
                visible = change(record)
                if visible:
                    record.touch()
                value = record.to_json()
                read = raw if isinstance(raw, bytes) else str(raw).encode("utf-8")
                if value.encode("utf-8") == read:
                    return record  # nothing changed (tasks/cancel of a finished task, say)
                arguments = self._arguments(record, value)
                # The script writes only over what was read (a digest of it: a record may be megabytes).
                digest = hashlib.sha1(read, usedforsecurity=False).hexdigest()
                arguments += [digest, int(record.terminal), int(visible)]
                outcome = _text(self._update(args=arguments))
                if outcome == "ok":
                    return record
                if outcome == "gone":
                    return None
                if outcome != "retry":  # another process changed it meanwhile: read again
                    raise self.limits.error(outcome)
        except self._errors() as error:
            raise self._unreachable(error) from None
        raise TransportError(f"task changed by others {MAX_RETRIES} times in a row; giving up this change")

    def wait(self, task_id: str, timeout: float) -> None:
        self._sleep.wait(min(timeout, POLL_INTERVAL))

    def __repr__(self) -> str:
        return f"<RedisTaskStore prefix={self.prefix!r}>"


def _text(value: t.Any) -> str:
    return value.decode("ascii") if isinstance(value, bytes) else str(value)


__all__ = ["RedisTaskStore", "TaskStoreFullError", "TaskStoreUnavailableError"]
