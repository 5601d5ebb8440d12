"""The tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663): tool calls that answer at once
with a task handle and run on a worker thread.

https://github.com/modelcontextprotocol/ext-tasks (``tasks.md``)

A tool opts in with ``task = True`` (or ``"optional"``) or ``task = "required"``.
When a 2026-07-28 ``tools/call`` declares the extension in its client
capabilities, the server stores a task, answers ``CreateTaskResult``
(``resultType: "task"``) and runs the tool on a worker thread; the client
follows it with ``tasks/get``, answers its questions with ``tasks/update`` and
may stop it with ``tasks/cancel``. Without the extension the call runs as
always, or fails with -32021 when the tool requires a task.

Inside a task, ``server_context.create_form_elicitation(...)`` and the other
asks do not end the tool (as MRTR does): the worker waits, the task shows
``input_required`` with the ask in ``inputRequests``, and the call returns the
answer once ``tasks/update`` brings it. A tool that returns an
:class:`~.input_required.InputRequiredResult` waits the same way for all its
keys, then runs again with ``server_context.input_responses``.

A tool may also ask first and go async after: returning :class:`RunAsTask`
from an ordinary call (typically after its MRTR asks were answered) continues
the call as a task when the client allows it.

A task belongs to the principal that created it: the same issuer, subject and
client as a session or a ``requestState`` is bound to (:attr:`Principal.key`),
so a token without a subject owns only what it created through its client. One
principal may run ``max_running_per_principal`` tasks of the ``max_running``
the server runs at once, and the store bounds what each principal keeps
(:class:`~.task_store.TaskLimits`); past either, that caller gets a
:class:`~.task_store.TaskLimitError` naming the limit, and nobody else notices.
"""

from __future__ import annotations

import json
import threading
import time
import typing as t

from ..cancellation import Cancellation
from ..errors import (
    CancelledError,
    InternalError,
    InvalidParamsError,
    MissingClientCapabilityError,
    RequestHandlerError,
)
from .context import ServerContext
from .handler_contexts import entered
from .input_required import InputRequiredResult, RoundTripInputs
from .exchange_2026 import ModernExchange
from .task_exchange import TaskExchange, TaskRunner
from .task_store import InMemoryTaskStore, TaskLimitError, TaskRecord, TaskStore

if t.TYPE_CHECKING:
    from .channel import Channel
    from .core import ServerCore
    from .request import Request

#: The extension's identifier.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
#: The dotted capability a client declares to accept tasks (for ``client_supports``).
TASKS_CAPABILITY = f"extensions.{TASKS_EXTENSION}"
#: Default ``ttlMs`` of a task: an hour from its creation.
DEFAULT_TASK_TTL_MS = 3_600_000
#: Default ``pollIntervalMs``.
DEFAULT_POLL_INTERVAL_MS = 500
#: Default limit of tasks running at once in one process.
DEFAULT_MAX_RUNNING = 64
#: Default limit of tasks one principal runs at once in one process (a quarter of the pool).
DEFAULT_MAX_RUNNING_PER_PRINCIPAL = 16
#: The most times one task may ask for input through ``InputRequiredResult``.
MAX_INPUT_ROUNDS = 32
#: Seconds without a heartbeat after which a running task's worker counts as dead.
DEFAULT_WORKER_TIMEOUT = 30.0
#: Seconds between checks of a waiting task's record (a shared store may not wake waiters).
WAIT_SLICE = 1.0

Work = t.Callable[[ServerContext], t.Any]


def required_extension() -> dict[str, t.Any]:
    """The ``requiredCapabilities`` of a -32021 refusal for want of the extension."""
    return {"extensions": {TASKS_EXTENSION: {}}}


def _missing(what: str) -> MissingClientCapabilityError:
    return MissingClientCapabilityError(
        required_extension(), f"Missing required client capability: extension {TASKS_EXTENSION} (needed for {what})"
    )


class RunAsTask:
    """Returned by a tool: "continue this call as a task, running ``function``".

    When the request's client declared the extension, the server answers
    ``CreateTaskResult`` and runs ``function(server_context)`` on a worker thread;
    otherwise it runs it at once (or refuses with -32021 when ``required``). Its
    return value is the tool's result, as a tool's would be.

    :param function: the rest of the call; takes the task's ``server_context``.
    :param required: refuse clients without the extension instead of running inline.
    """

    __slots__ = ("function", "required")

    def __init__(self, function: Work, *, required: bool = False) -> None:
        if not callable(function):
            raise TypeError("RunAsTask needs a callable taking server_context")
        self.function = function
        self.required = required

    def __repr__(self) -> str:
        return f"RunAsTask({self.function!r}, required={self.required!r})"


class TaskManager:
    """The tasks of one server: creates, runs, reports, updates and cancels them.

    :param server: the server.
    :param store: where tasks live (default: an :class:`~.task_store.InMemoryTaskStore`).
    :param ttl_ms: ``ttlMs`` of new tasks (None: unlimited).
    :param poll_interval_ms: ``pollIntervalMs`` of new tasks.
    :param max_running: how many tasks may run at once (each holds a worker thread, also while it
        waits for input); a call beyond it gets -32603 (:class:`~.task_store.TaskLimitError`).
    :param max_running_per_principal: how many of those one principal may run at once (every
        unauthenticated caller counts as one principal); a call beyond it gets -32603 too.
    :param worker_timeout: seconds without a heartbeat after which an unfinished task counts as
        lost with its process (a shared store) and ends ``failed``.
    """

    def __init__(
        self,
        server: ServerCore,
        store: TaskStore | None = None,
        *,
        ttl_ms: int | None = DEFAULT_TASK_TTL_MS,
        poll_interval_ms: int | None = DEFAULT_POLL_INTERVAL_MS,
        max_running: int = DEFAULT_MAX_RUNNING,
        max_running_per_principal: int = DEFAULT_MAX_RUNNING_PER_PRINCIPAL,
        worker_timeout: float = DEFAULT_WORKER_TIMEOUT,
    ) -> None:
        self.server = server
        self.store: TaskStore = store if store is not None else InMemoryTaskStore()
        #: Whether ``store`` was chosen by the user (a transport sharing state elsewhere leaves it).
        self.store_given = store is not None
        self.ttl_ms = ttl_ms
        self.poll_interval_ms = poll_interval_ms
        self.max_running = max_running
        self.max_running_per_principal = max_running_per_principal
        self.worker_timeout = worker_timeout
        self._lock = threading.Lock()
        self._running: dict[str, Cancellation] = {}
        self._owners: dict[str, str | None] = {}  # task id -> owner, while it runs here
        self._held: dict[str | None, int] = {}  # owner -> tasks it runs here
        self._deadlines: dict[str, float] = {}  # task id -> monotonic time its ttlMs ends
        self._watcher: threading.Thread | None = None

    # -- negotiation ---------------------------------------------------------

    @staticmethod
    def accepts(session: Channel) -> bool:
        """Whether a task may answer a request on ``session``: a 2026-07-28 request (not itself
        running in a task) whose client declared the extension."""
        return (
            isinstance(session, ModernExchange)
            and not isinstance(session, TaskExchange)
            and session.client_supports(TASKS_CAPABILITY)
        )

    def should_run(self, session: Channel, required: bool) -> bool:
        """Whether a call that supports tasks runs as one.

        :raises MissingClientCapabilityError: it requires a task and the client cannot take one (-32021).
        """
        if self.accepts(session):
            return True
        if required and not isinstance(session, TaskExchange):
            raise _missing("a tool that runs only as a task")
        return False

    # -- running -------------------------------------------------------------

    def start(self, request: Request, work: Work) -> dict[str, t.Any]:
        """Store a task for ``request``, run ``work`` on a worker thread, and return the ``CreateTaskResult``.

        :raises TaskLimitError: the server or this caller runs too many tasks, or the store keeps
            too much of this caller's (-32603, the limit named in ``data``).
        """
        origin = request.session
        assert isinstance(origin, ModernExchange)
        cancellation = Cancellation()
        import secrets  # on first use: most servers never start a task

        task_id = secrets.token_urlsafe(24)
        owner = owner_of(origin)
        with self._lock:
            held = self._held.get(owner, 0)
            if held >= self.max_running_per_principal:
                raise TaskLimitError("max_running_per_principal", self.max_running_per_principal)
            if len(self._running) >= self.max_running:
                raise TaskLimitError("max_running", self.max_running)
            self._running[task_id] = cancellation  # the slot; the watcher sees the task only once it is stored
            self._owners[task_id] = owner
            self._held[owner] = held + 1
        record = TaskRecord(task_id, ttl_ms=self.ttl_ms, poll_interval_ms=self.poll_interval_ms, owner=owner)
        try:
            self.store.create(record)
            with self._lock:
                # Watched from now on: a heartbeat before the record exists would find no task and cancel it.
                self._deadlines[task_id] = time.monotonic() + self.ttl_ms / 1000 if self.ttl_ms is not None else float("inf")
                if self._watcher is None:
                    self._watcher = threading.Thread(target=self._watch, name="mcp-task-watch", daemon=True)
                    self._watcher.start()
            runner = TaskRunner(task_id, cancellation)
            thread = threading.Thread(
                target=self._run,
                args=(runner, origin, request, work),
                name=f"mcp-task-{task_id[:8]}",
                daemon=True,
            )
            thread.start()
        except BaseException:
            self._release(task_id)
            raise
        return {"resultType": "task", **record.task()}

    def _run(self, runner: TaskRunner, origin: ModernExchange, request: Request, work: Work) -> None:
        server = self.server
        inputs: RoundTripInputs | None = None
        rounds = 0
        try:
            while True:
                exchange = TaskExchange(self, origin, runner)
                context = ServerContext(
                    server.server_context,
                    session=exchange,
                    cancellation=runner.cancellation,
                    meta=request.meta,
                    inputs=inputs,
                    http_request=request.http_request,
                )
                with entered(server.handler_contexts, context):
                    outcome = work(context)
                runner.cancellation.raise_if_cancelled()
                if not isinstance(outcome, InputRequiredResult):
                    self._finish(runner.task_id, "completed", result=outcome)
                    return
                rounds += 1
                if rounds > MAX_INPUT_ROUNDS:
                    raise InternalError(f"Internal error: the task asked for input more than {MAX_INPUT_ROUNDS} times")
                wire = {runner.wire_key(key): request for key, request in outcome.input_requests.items()}
                answers = self.ask(runner, wire) if wire else {}
                own = dict(zip(outcome.input_requests, answers.values()))
                inputs = RoundTripInputs(own, outcome.request_state)
        except CancelledError:
            self._finish_quietly(runner.task_id, "cancelled")
        except RequestHandlerError as error:
            failure: dict[str, t.Any] = {"code": error.code, "message": error.message}
            if error.data is not None:
                failure["data"] = error.data
            self._finish_quietly(runner.task_id, "failed", error=failure, message=error.message)
        except Exception as error:  # a fault of the work itself: reported, the client told nothing internal
            server.report_exception(error, {"task": "tools/call"})
            self._finish_quietly(
                runner.task_id, "failed", error={"code": -32603, "message": "Internal error"}, message="Internal error"
            )
        finally:
            self._release(runner.task_id)

    def _release(self, task_id: str) -> None:
        """Free the task's worker slot (and its owner's share of them)."""
        with self._lock:
            self._running.pop(task_id, None)
            self._deadlines.pop(task_id, None)
            if task_id in self._owners:
                owner = self._owners.pop(task_id)
                held = self._held.get(owner, 1) - 1
                if held > 0:
                    self._held[owner] = held
                else:
                    self._held.pop(owner, None)

    def _watch(self) -> None:
        """While tasks run here: record that their worker lives (``TaskRecord.heartbeat_at``, so that a
        shared store can tell a task whose process died); cancel the work of tasks past their
        ``ttlMs`` (the store forgets them then), so a tool that never ends cannot hold a slot
        forever, and of tasks the store shows cancelled (by another process sharing it)."""
        while True:
            with self._lock:
                if not self._deadlines:
                    self._watcher = None
                    return
                now = time.monotonic()
                expired = [self._running[key] for key, end in self._deadlines.items() if end <= now and key in self._running]
                beating = {key: self._running[key] for key in self._deadlines if key in self._running}
            for token in expired:
                token.cancel("the task expired (ttlMs)")
            for task_id, token in beating.items():
                try:
                    record = self.store.update(task_id, _beat)
                except Exception as error:  # a store down now (Redis, say): reported; beat again later
                    self.server.report_exception(error, {"task": "heartbeat"})
                    continue
                if record is None or record.status == "cancelled":  # e.g. tasks/cancel served by another process
                    token.cancel("the task was cancelled or is gone")
            time.sleep(WAIT_SLICE)

    def _runs(self, task_id: str) -> bool:
        with self._lock:
            return task_id in self._running

    @property
    def running(self) -> int:
        """How many tasks are running in this process now."""
        with self._lock:
            return len(self._running)

    def ask(self, runner: TaskRunner, requests: dict[str, dict[str, t.Any]]) -> dict[str, t.Any]:
        """Park the task as ``input_required`` with ``requests``; return their answers, by key, once all came.

        :raises CancelledError: the task was cancelled or has expired.
        """
        task_id = runner.task_id

        def park(record: TaskRecord) -> bool:
            if record.terminal:
                return False
            record.input_requests.update(requests)
            record.status = "input_required"
            return True

        self._change(task_id, park)
        while True:
            runner.cancellation.raise_if_cancelled()
            record = self.store.get(task_id)
            if record is None or record.status == "cancelled":
                raise CancelledError(reason="the task was cancelled or expired")
            if all(key in record.answers for key in requests):
                break
            self.store.wait(task_id, WAIT_SLICE)
        answers: dict[str, t.Any] = {}

        def take(record: TaskRecord) -> bool:
            for key in requests:
                answers[key] = record.answers.pop(key)
            if record.status == "input_required" and not record.input_requests:
                record.status = "working"
            return True

        self._change(task_id, take)
        return {key: answers[key] for key in requests}

    def _finish_quietly(self, task_id: str, status: str, **outcome: t.Any) -> None:
        """:meth:`_finish` on the task's own thread: a store that fails now (Redis down, say) is
        reported, never an exception that kills the thread; the task then ends by its heartbeat.
        An outcome too large for the store's limits fails the task with that limit's error."""
        try:
            try:
                self._finish(task_id, status, **outcome)
            except TaskLimitError as refused:
                failure = {"code": refused.code, "message": refused.message, "data": refused.data}
                self._finish(task_id, "failed", error=failure, message=refused.message)
        except Exception as error:
            self.server.report_exception(error, {"task": "store"})

    def _finish(
        self,
        task_id: str,
        status: str,
        *,
        result: t.Any = None,
        error: dict[str, t.Any] | None = None,
        message: str | None = None,
    ) -> None:
        def end(record: TaskRecord) -> bool:
            if record.terminal:
                return False  # cancelled meanwhile: the first terminal status stands
            record.status = status
            record.input_requests.clear()
            record.answers.clear()
            record.result = result if status == "completed" else None
            record.error = error
            if message is not None:
                record.status_message = message
            return True

        self._change(task_id, end)

    def _change(self, task_id: str, change: t.Callable[[TaskRecord], bool]) -> TaskRecord | None:
        changed = [False]

        def apply(record: TaskRecord) -> bool:
            changed[0] = change(record)
            return changed[0]

        record = self.store.update(task_id, apply)
        if record is not None and changed[0]:
            self.server.subscriptions.publish("task", task_id)
        return record

    def close(self) -> None:
        """Cancel every task running in this process (cooperatively: their tools see the token)."""
        with self._lock:
            tokens = list(self._running.values())
        for token in tokens:
            token.cancel("the server is shutting down")

    # -- tasks/get, tasks/update, tasks/cancel -------------------------------

    def _lookup(self, request: Request) -> tuple[str, TaskRecord]:
        if not self.accepts(request.session):
            raise _missing(request.method)
        params = request.params if type(request.params) is dict else {}
        task_id = params.get("taskId")
        if type(task_id) is not str:
            raise InvalidParamsError("Invalid params: 'taskId' must be a string")
        record = self.store.get(task_id)
        if record is None or record.owner != owner_of(request.session):
            raise InvalidParamsError("Invalid params: task not found (unknown or expired taskId)")
        if not record.terminal and time.time() - record.heartbeat_at > self.worker_timeout and not self._runs(task_id):
            self._change(task_id, _worker_lost)
            record = self.store.get(task_id) or record
        return task_id, record

    def get(self, request: Request) -> dict[str, t.Any]:
        """``tasks/get``: the task with its result, error or input requests inlined."""
        _, record = self._lookup(request)
        return record.detailed()

    def update(self, request: Request) -> dict[str, t.Any]:
        """``tasks/update``: deliver answers to outstanding input requests (others are ignored)."""
        task_id, _ = self._lookup(request)
        responses = request.params.get("inputResponses")
        if type(responses) is not dict:
            raise InvalidParamsError("Invalid params: 'inputResponses' must be an object")

        def deliver(record: TaskRecord) -> bool:
            delivered = False
            for key, answer in responses.items():
                if key in record.input_requests and type(answer) is dict:
                    del record.input_requests[key]
                    record.answers[key] = answer
                    delivered = True
            return delivered

        self._change(task_id, deliver)
        return {}

    def cancel(self, request: Request) -> dict[str, t.Any]:
        """``tasks/cancel``: mark the task cancelled and signal its tool's cancellation token."""
        task_id, _ = self._lookup(request)

        def cancel(record: TaskRecord) -> bool:
            if record.terminal:
                return False
            record.status = "cancelled"
            record.status_message = "Cancelled by the client"
            record.input_requests.clear()
            record.answers.clear()
            return True

        self._change(task_id, cancel)
        with self._lock:
            token = self._running.get(task_id)
        if token is not None:
            token.cancel("tasks/cancel")
        return {}

    # -- notifications -------------------------------------------------------

    def notification_params(self, task_id: str, session: Channel) -> dict[str, t.Any] | None:
        """``notifications/tasks`` params for a listener on ``session``: the detailed task, or None
        (gone, or not the listener's)."""
        record = self.store.get(task_id)
        if record is None or record.owner != owner_of(session):
            return None
        return record.detailed()


def _beat(record: TaskRecord) -> bool:
    if not record.terminal:
        record.heartbeat_at = time.time()
    return False  # saved, but nothing a client sees changed


def _worker_lost(record: TaskRecord) -> bool:
    if record.terminal:
        return False
    record.status = "failed"
    record.status_message = "The server process running the task stopped"
    record.error = {"code": -32603, "message": "Internal error: the task's worker stopped"}
    record.input_requests.clear()
    record.answers.clear()
    return True


def owner_of(session: Channel) -> str | None:
    """Whose a task made on ``session`` is: the caller's issuer, subject and client as a JSON list
    (:attr:`Principal.key`, what sessions and ``requestState`` are bound to); None without
    authentication."""
    auth = session.auth
    if auth is None:
        return None
    return json.dumps(list(auth.key), separators=(",", ":"))


__all__ = [
    "DEFAULT_MAX_RUNNING",
    "DEFAULT_MAX_RUNNING_PER_PRINCIPAL",
    "DEFAULT_POLL_INTERVAL_MS",
    "DEFAULT_TASK_TTL_MS",
    "RunAsTask",
    "TASKS_CAPABILITY",
    "TASKS_EXTENSION",
    "TaskExchange",
    "TaskManager",
    "owner_of",
    "required_extension",
]
