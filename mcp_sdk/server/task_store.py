"""Where the tasks extension keeps its tasks: :class:`TaskStore`, and the in-memory default.

A store holds :class:`TaskRecord` objects by task id. Every change is one
read-modify-write (:meth:`TaskStore.update`), so two requests racing on the same
task (``tasks/update`` and ``tasks/cancel``, say) never lose each other's
change. A store shared between processes (Redis, say) implements the same four
methods; :meth:`TaskStore.wait` may then poll.

Both stores bound what callers can make them keep (:class:`TaskLimits`): one
task's size, each principal's tasks and bytes, and the whole store's. A caller
past its share first loses its own oldest finished tasks; when that is not
enough the store refuses with :class:`TaskLimitError`, and never forgets
another caller's task to make room. Sizes are those of the record as JSON.
"""

from __future__ import annotations

import copy
import json
import threading
import time
import typing as t

import attrs

from ..errors import InternalError

#: The statuses after which a task never changes again.
TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})
STATUSES = frozenset({"working", "input_required"}) | TERMINAL_STATUSES


#: Default :attr:`TaskLimits.max_tasks`.
DEFAULT_MAX_TASKS = 10_000
#: Default :attr:`TaskLimits.max_tasks_per_principal`.
DEFAULT_MAX_TASKS_PER_PRINCIPAL = 1_000
#: Default :attr:`TaskLimits.max_bytes` (256 MiB).
DEFAULT_MAX_BYTES = 256 * 1024 * 1024
#: Default :attr:`TaskLimits.max_bytes_per_principal` (32 MiB).
DEFAULT_MAX_BYTES_PER_PRINCIPAL = 32 * 1024 * 1024
#: Default :attr:`TaskLimits.max_task_bytes` (4 MiB).
DEFAULT_MAX_TASK_BYTES = 4 * 1024 * 1024


def _positive(instance: t.Any, attribute: t.Any, value: int) -> None:
    if type(value) is not int or value < 1:
        raise ValueError(f"{attribute.name} must be a positive int, not {value!r}")


@attrs.frozen
class TaskLimits:
    """What a task store keeps at most (every store takes these as keywords).

    :param max_tasks: tasks kept in all (finished ones count until their ``ttlMs`` ends).
    :param max_tasks_per_principal: tasks kept for one principal (issuer, subject, client;
        every unauthenticated caller is one principal).
    :param max_bytes: bytes kept in all (tasks as JSON: results, input requests, answers).
    :param max_bytes_per_principal: bytes kept for one principal.
    :param max_task_bytes: bytes of one task; a task whose result is larger ends ``failed``,
        an answer that would make it larger is refused.
    """

    max_tasks: int = attrs.field(default=DEFAULT_MAX_TASKS, validator=_positive)
    max_tasks_per_principal: int = attrs.field(default=DEFAULT_MAX_TASKS_PER_PRINCIPAL, validator=_positive)
    max_bytes: int = attrs.field(default=DEFAULT_MAX_BYTES, validator=_positive)
    max_bytes_per_principal: int = attrs.field(default=DEFAULT_MAX_BYTES_PER_PRINCIPAL, validator=_positive)
    max_task_bytes: int = attrs.field(default=DEFAULT_MAX_TASK_BYTES, validator=_positive)

    @classmethod
    def consistent(
        cls,
        max_tasks: int,
        max_tasks_per_principal: int,
        max_bytes: int,
        max_bytes_per_principal: int,
        max_task_bytes: int,
    ) -> TaskLimits:
        """The limits given, each share cut to what the totals allow (a store's keywords)."""
        return cls(
            max_tasks=max_tasks,
            max_tasks_per_principal=min(max_tasks_per_principal, max_tasks),
            max_bytes=max_bytes,
            max_bytes_per_principal=min(max_bytes_per_principal, max_bytes),
            max_task_bytes=min(max_task_bytes, max_bytes_per_principal, max_bytes),
        )

    def error(self, limit: str) -> TaskLimitError:
        """The refusal for ``limit`` (one of this class's field names)."""
        return TaskLimitError(limit, getattr(self, limit))


#: What each limit is, for the error message.
_LIMIT_TEXT = {
    "max_tasks": "the server keeps {max} tasks at most",
    "max_tasks_per_principal": "this caller has {max} unfinished tasks, the most one caller may keep",
    "max_bytes": "the server keeps {max} bytes of tasks at most",
    "max_bytes_per_principal": "this caller's tasks would exceed {max} bytes, the most one caller may keep",
    "max_task_bytes": "the task would exceed {max} bytes, the most one task may hold",
    "max_running": "{max} tasks are running, the most the server runs at once",
    "max_running_per_principal": "this caller runs {max} tasks, the most one caller may run at once",
}


class TaskLimitError(InternalError):
    """A task limit refused a change (-32603; ``data``: ``{"limit": name, "max": value}``).

    :param limit: the limit's keyword (``max_tasks_per_principal``...).
    :param maximum: its value.
    """

    def __init__(self, limit: str, maximum: int) -> None:
        text = _LIMIT_TEXT.get(limit, "limit {max} reached").format(max=maximum)
        super().__init__(f"Internal error: task limit {limit} reached: {text}", data={"limit": limit, "max": maximum})
        self.limit = limit
        self.maximum = maximum


def _iso(moment: float) -> str:
    import datetime  # on first use: most servers never store a task

    return datetime.datetime.fromtimestamp(moment, datetime.timezone.utc).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z"
    )


class TaskRecord:
    """One task's state: what ``tasks/get`` answers, plus what the server needs to resume it.

    :ivar input_requests: outstanding asks, key -> request (``{"method": ..., "params": ...}``).
    :ivar answers: answers received for asks not yet consumed by the task, key -> response.
    :ivar owner: the principal that created the task (its issuer, subject and client as a JSON
        list; None without authorization); only it may see it.
    :ivar heartbeat_at: when the worker running it last said it lives (a shared store tells dead ones by it).
    """

    __slots__ = (
        "task_id",
        "status",
        "status_message",
        "created_at",
        "updated_at",
        "ttl_ms",
        "poll_interval_ms",
        "result",
        "error",
        "input_requests",
        "answers",
        "owner",
        "heartbeat_at",
    )

    def __init__(
        self,
        task_id: str,
        *,
        ttl_ms: int | None,
        poll_interval_ms: int | None,
        owner: str | None = None,
        created_at: float | None = None,
    ) -> None:
        now = time.time() if created_at is None else created_at
        self.task_id = task_id
        self.status = "working"
        self.status_message: str | None = None
        self.created_at = now
        self.updated_at = now
        self.ttl_ms = ttl_ms
        self.poll_interval_ms = poll_interval_ms
        self.result: dict[str, t.Any] | None = None
        self.error: dict[str, t.Any] | None = None
        self.input_requests: dict[str, dict[str, t.Any]] = {}
        self.answers: dict[str, t.Any] = {}
        self.owner = owner
        #: When the process running the task last said it lives (epoch seconds).
        self.heartbeat_at = now

    @property
    def terminal(self) -> bool:
        return self.status in TERMINAL_STATUSES

    def expired(self, now: float | None = None) -> bool:
        """Whether the task outlived its ``ttlMs`` (counted from creation)."""
        if self.ttl_ms is None:
            return False
        return (time.time() if now is None else now) > self.created_at + self.ttl_ms / 1000

    def touch(self) -> None:
        self.updated_at = max(time.time(), self.updated_at)

    def task(self) -> dict[str, t.Any]:
        """The wire ``Task`` (what ``CreateTaskResult`` carries)."""
        task: dict[str, t.Any] = {"taskId": self.task_id, "status": self.status}
        if self.status_message is not None:
            task["statusMessage"] = self.status_message
        task["createdAt"] = _iso(self.created_at)
        task["lastUpdatedAt"] = _iso(self.updated_at)
        task["ttlMs"] = self.ttl_ms
        if self.poll_interval_ms is not None:
            task["pollIntervalMs"] = self.poll_interval_ms
        return task

    def detailed(self) -> dict[str, t.Any]:
        """The wire ``DetailedTask`` (``tasks/get`` and ``notifications/tasks``): the task with its
        ``inputRequests``, ``result`` or ``error`` inlined by status."""
        task = self.task()
        if self.status == "input_required":
            task["inputRequests"] = copy.deepcopy(self.input_requests)
        elif self.status == "completed":
            task["result"] = copy.deepcopy(self.result) if self.result is not None else {"content": []}
        elif self.status == "failed":
            task["error"] = copy.deepcopy(self.error) if self.error is not None else {"code": -32603, "message": "Internal error"}
        return task

    def copy(self) -> TaskRecord:
        return copy.deepcopy(self)

    def to_json(self) -> str:
        """The record as compact JSON (what a shared store keeps; its length is the task's size).

        :raises TypeError: it holds something JSON cannot carry.
        """
        return json.dumps({name: getattr(self, name) for name in self.__slots__}, separators=(",", ":"))

    @classmethod
    def from_json(cls, raw: bytes | str) -> TaskRecord | None:
        """The record :meth:`to_json` wrote, or None for anything else."""
        try:
            data = json.loads(raw)
        except ValueError:
            return None
        if type(data) is not dict or type(data.get("task_id")) is not str:
            return None
        record = cls(data["task_id"], ttl_ms=data.get("ttl_ms"), poll_interval_ms=data.get("poll_interval_ms"))
        for name in cls.__slots__:
            if name in data:
                setattr(record, name, data[name])
        return record

    @property
    def size(self) -> int:
        """Bytes of the record as JSON (what the stores' byte limits count)."""
        return len(json.dumps({name: getattr(self, name) for name in self.__slots__}, separators=(",", ":"), default=repr))

    def __repr__(self) -> str:
        return f"<TaskRecord {self.status}>"  # the id is a bearer secret: never in a repr


class TaskStore(t.Protocol):
    """Keeps tasks by id (see the module docstring)."""

    def create(self, record: TaskRecord) -> None:
        """Store a new task; once this returns, :meth:`get` finds it (durable creation)."""

    def get(self, task_id: str) -> TaskRecord | None:
        """A snapshot of the task, or None (unknown or expired)."""

    def update(self, task_id: str, change: t.Callable[[TaskRecord], bool]) -> TaskRecord | None:
        """Apply ``change`` atomically and keep what it did; it returns whether a client would see the
        change (then ``lastUpdatedAt`` moves and :meth:`wait` wakes). Returns the snapshot after it,
        or None when the task is unknown."""

    def wait(self, task_id: str, timeout: float) -> None:
        """Block until the task may have changed, or ``timeout`` seconds pass."""


class InMemoryTaskStore:
    """A :class:`TaskStore` in this process's memory (the default). Expired tasks are dropped
    as they are met, and every limit of :class:`TaskLimits` holds (the keywords below).

    :param max_tasks: tasks kept in all.
    :param max_tasks_per_principal: tasks kept for one principal.
    :param max_bytes: bytes kept in all.
    :param max_bytes_per_principal: bytes kept for one principal.
    :param max_task_bytes: bytes of one task.
    """

    def __init__(
        self,
        max_tasks: int = DEFAULT_MAX_TASKS,
        *,
        max_tasks_per_principal: int = DEFAULT_MAX_TASKS_PER_PRINCIPAL,
        max_bytes: int = DEFAULT_MAX_BYTES,
        max_bytes_per_principal: int = DEFAULT_MAX_BYTES_PER_PRINCIPAL,
        max_task_bytes: int = DEFAULT_MAX_TASK_BYTES,
    ) -> None:
        self.limits = TaskLimits.consistent(
            max_tasks, max_tasks_per_principal, max_bytes, max_bytes_per_principal, max_task_bytes
        )
        # One lock over all of these; never held across user code but the ``change`` callbacks,
        # which are the manager's own small record edits.
        self._changed = threading.Condition(threading.Lock())
        self._tasks: dict[str, TaskRecord] = {}
        self._sizes: dict[str, int] = {}  # task id -> bytes
        self._usage: dict[str | None, list[int]] = {}  # owner -> [tasks, bytes]
        self._bytes = 0

    @property
    def max_tasks(self) -> int:
        return self.limits.max_tasks

    def create(self, record: TaskRecord) -> None:
        """:raises TaskLimitError: a limit leaves no room, even after the owner's own finished tasks."""
        size = record.size
        with self._changed:
            self._make_room(record.owner, 1, size, keep=None)
            self._tasks[record.task_id] = record.copy()
            self._account(record.task_id, record.owner, size)

    def get(self, task_id: str) -> TaskRecord | None:
        with self._changed:
            record = self._live(task_id)
            return record.copy() if record is not None else None

    def update(self, task_id: str, change: t.Callable[[TaskRecord], bool]) -> TaskRecord | None:
        """:raises TaskLimitError: the change would make the task, or its owner's tasks, too large
        (it is not kept)."""
        with self._changed:
            stored = self._live(task_id)
            if stored is None:
                return None
            record = stored.copy()
            visible = change(record)
            if visible:
                record.touch()
            size = record.size
            grown = size - self._sizes[task_id]
            if visible and grown > 0:  # an unseen change (a heartbeat) is the server's own bookkeeping
                if size > self.limits.max_task_bytes:
                    raise self.limits.error("max_task_bytes")
                self._make_room(record.owner, 0, grown, keep=task_id)
            self._tasks[task_id] = record
            self._account(task_id, record.owner, size)
            if visible:
                self._changed.notify_all()
            return record.copy()

    def wait(self, task_id: str, timeout: float) -> None:
        with self._changed:
            self._changed.wait(timeout)

    def __len__(self) -> int:
        with self._changed:
            return len(self._tasks)

    @property
    def bytes(self) -> int:
        """Bytes of the tasks kept now (as counted against ``max_bytes``)."""
        with self._changed:
            return self._bytes

    # -- under the lock ------------------------------------------------------

    def _live(self, task_id: str) -> TaskRecord | None:
        record = self._tasks.get(task_id)
        if record is not None and record.expired():
            self._drop(task_id)
            return None
        return record

    def _account(self, task_id: str, owner: str | None, size: int) -> None:
        usage = self._usage.setdefault(owner, [0, 0])
        old = self._sizes.get(task_id)
        if old is None:
            usage[0] += 1
            old = 0
        usage[1] += size - old
        self._bytes += size - old
        self._sizes[task_id] = size

    def _drop(self, task_id: str) -> None:
        record = self._tasks.pop(task_id)
        size = self._sizes.pop(task_id)
        usage = self._usage[record.owner]
        usage[0] -= 1
        usage[1] -= size
        self._bytes -= size
        if usage[0] == 0:
            del self._usage[record.owner]

    def _over(self, owner: str | None, tasks: int, grown: int) -> str | None:
        """The first limit ``tasks`` more tasks and ``grown`` more bytes of ``owner`` would break."""
        limits = self.limits
        held, used = self._usage.get(owner, (0, 0))
        if tasks and held + tasks > limits.max_tasks_per_principal:
            return "max_tasks_per_principal"
        if used + grown > limits.max_bytes_per_principal:
            return "max_bytes_per_principal"
        if tasks and len(self._tasks) + tasks > limits.max_tasks:
            return "max_tasks"
        if self._bytes + grown > limits.max_bytes:
            return "max_bytes"
        return None

    def _make_room(self, owner: str | None, tasks: int, grown: int, keep: str | None) -> None:
        """Room for ``owner`` to add ``tasks`` tasks and ``grown`` bytes: expired tasks go, then the
        owner's own finished ones, oldest first (never ``keep``, never another owner's).

        :raises TaskLimitError: there is still no room.
        """
        if self._over(owner, tasks, grown) is None:
            return
        for task_id in [key for key, record in self._tasks.items() if record.expired()]:
            self._drop(task_id)
        own = sorted(
            (r for r in self._tasks.values() if r.owner == owner and r.terminal and r.task_id != keep),
            key=lambda r: r.updated_at,
            reverse=True,
        )
        while True:
            limit = self._over(owner, tasks, grown)
            if limit is None:
                return
            if not own:
                raise self.limits.error(limit)
            self._drop(own.pop().task_id)


__all__ = [
    "InMemoryTaskStore",
    "STATUSES",
    "TERMINAL_STATUSES",
    "TaskLimitError",
    "TaskLimits",
    "TaskRecord",
    "TaskStore",
]
