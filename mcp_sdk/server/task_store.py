"""Where the tasks extension keeps its tasks: :class:`TaskStore`, and the in-memory default.

A store holds :class:`TaskRecord` objects by task id. Every change is one
read-modify-write (:meth:`TaskStore.update`), so two requests racing on the same
task (``tasks/update`` and ``tasks/cancel``, say) never lose each other's
change. A store shared between processes (Redis, say) implements the same four
methods; :meth:`TaskStore.wait` may then poll.
"""

from __future__ import annotations

import copy
import datetime
import threading
import time
import typing as t

#: The statuses after which a task never changes again.
TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})
STATUSES = frozenset({"working", "input_required"}) | TERMINAL_STATUSES


def _iso(moment: float) -> str:
    return datetime.datetime.fromtimestamp(moment, datetime.timezone.utc).isoformat(timespec="milliseconds").replace(
        "+00:00", "Z"
    )


class TaskRecord:
    """One task's state: what ``tasks/get`` answers, plus what the server needs to resume it.

    :ivar input_requests: outstanding asks, key -> request (``{"method": ..., "params": ...}``).
    :ivar answers: answers received for asks not yet consumed by the task, key -> response.
    :ivar owner: the principal that created the task (None without authorization); only it may see it.
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
    as they are met, and at most ``max_tasks`` are kept (the oldest finished ones go first).

    :param max_tasks: how many tasks to keep at most.
    """

    def __init__(self, max_tasks: int = 10_000) -> None:
        self.max_tasks = max_tasks
        self._tasks: dict[str, TaskRecord] = {}
        self._changed = threading.Condition(threading.Lock())

    def create(self, record: TaskRecord) -> None:
        with self._changed:
            self._tasks[record.task_id] = record.copy()
            if len(self._tasks) > self.max_tasks:
                self._evict()

    def get(self, task_id: str) -> TaskRecord | None:
        with self._changed:
            record = self._live(task_id)
            return record.copy() if record is not None else None

    def update(self, task_id: str, change: t.Callable[[TaskRecord], bool]) -> TaskRecord | None:
        with self._changed:
            record = self._live(task_id)
            if record is None:
                return None
            if change(record):
                record.touch()
                self._changed.notify_all()
            return record.copy()

    def wait(self, task_id: str, timeout: float) -> None:
        with self._changed:
            self._changed.wait(timeout)

    def __len__(self) -> int:
        with self._changed:
            return len(self._tasks)

    def _live(self, task_id: str) -> TaskRecord | None:
        record = self._tasks.get(task_id)
        if record is not None and record.expired():
            del self._tasks[task_id]
            return None
        return record

    def _evict(self) -> None:
        for task_id in [key for key, record in self._tasks.items() if record.expired()]:
            del self._tasks[task_id]
        finished = sorted((r for r in self._tasks.values() if r.terminal), key=lambda r: r.updated_at)
        while len(self._tasks) > self.max_tasks and finished:
            del self._tasks[finished.pop(0).task_id]


__all__ = ["InMemoryTaskStore", "STATUSES", "TERMINAL_STATUSES", "TaskRecord", "TaskStore"]
