"""The tasks extension (``io.modelcontextprotocol/tasks``, SEP-2663) from the client's side: :class:`TaskHandle`.

A 2026-07-28 ``tools/call`` from this client declares the extension, so a server
may answer ``CreateTaskResult`` (``resultType: "task"``) instead of the result.
:meth:`Client.call_tool` then follows the task to its end and returns the
result as if the call had been synchronous; :meth:`Client.call_tool_task` hands
back a :class:`TaskHandle` instead (``status()``, ``result(timeout=)``,
``cancel()``). Task ids are plain strings: keep one, and
:meth:`Client.task` makes a handle for it again after a reconnect (or in
another process).

Input the task asks for (``input_required`` with ``inputRequests``) is answered
with the client's registered handlers (``on_elicitation``, ``on_sampling``,
``on_roots``) through ``tasks/update``, each key once.
"""

from __future__ import annotations

import threading
import time
import typing as t

from .. import methods
from ..cancellation import Cancellation
from ..errors import CancelledError, RequestTimeoutError
from .exceptions import ServerError, ValidationError
from .mrtr import answer_all

#: The extension's identifier.
TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
#: The requests that declare the extension (per request): tool calls and the task methods.
DECLARING_METHODS = frozenset({methods.TOOLS_CALL, methods.TASKS_GET, methods.TASKS_UPDATE, methods.TASKS_CANCEL})
#: ``resultType`` of a ``CreateTaskResult``.
TASK = "task"
TERMINAL_STATUSES = frozenset({"completed", "failed", "cancelled"})
#: Seconds between polls when the server suggests no ``pollIntervalMs``.
DEFAULT_POLL_INTERVAL = 0.5
#: Bounds on the server's suggested interval (seconds): not busier than this, not lazier than that.
MIN_POLL_INTERVAL = 0.01
MAX_POLL_INTERVAL = 30.0


def declare(capabilities: dict[str, t.Any]) -> dict[str, t.Any]:
    """``capabilities`` plus the extension (a new dict)."""
    extensions = capabilities.get("extensions")
    merged = {**extensions, TASKS_EXTENSION: {}} if isinstance(extensions, dict) else {TASKS_EXTENSION: {}}
    return {**capabilities, "extensions": merged}


class TaskRequests(t.Protocol):
    """What a :class:`TaskHandle` sends through: the client's
    :class:`~mcp_sdk.client.request_sender.RequestSender`."""

    def request(self, method: str, params: dict[str, t.Any] | None, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Send one request; return the full response.

        :raises ServerError: the server answered with an error.
        """
        ...

    def answer_input(self, method: str, params: dict[str, t.Any]) -> t.Any:
        """The client's handlers' answer to one input request the task asks for."""
        ...


def is_task(result: t.Any) -> bool:
    """Whether a result is a ``CreateTaskResult``."""
    return isinstance(result, dict) and result.get("resultType") == TASK


class TaskHandle:
    """A tool call running as a task on the server.

    :meth:`Client.task` and :meth:`Client.call_tool_task` make one.

    :param sender: what the task requests go through (the client's request sender).
    :ivar task_id: the server's id for it (a bearer secret: keep it private).
    :ivar task: the last task state seen (``CreateTaskResult`` or ``tasks/get`` result).
    :param task_id: the server's id for the task.
    :param task: the task's state when known (default ``{"taskId": task_id, "status": "working"}``).
    :raises ValueError: ``task_id`` is not a non-empty string.
    """

    def __init__(self, sender: TaskRequests, task_id: str, task: dict[str, t.Any] | None = None) -> None:
        if not isinstance(task_id, str) or not task_id:
            raise ValueError("task_id must be a non-empty string")
        self.sender = sender
        self.task_id = task_id
        self.task: dict[str, t.Any] = dict(task) if task is not None else {"taskId": task_id, "status": "working"}
        self._answered: set[str] = set()
        self._lock = threading.Lock()

    @classmethod
    def completed(cls, sender: TaskRequests, result: dict[str, t.Any]) -> TaskHandle:
        """A handle for a call the server answered at once (no task): already ``completed``.

        :param sender: what the task requests go through (the client's request sender).
        :param result: the tool's result.
        :returns: a handle whose :meth:`result` returns ``result`` at once.
        """
        handle = cls(sender, "-", {"taskId": None, "status": "completed", "result": result})
        return handle

    @property
    def poll_interval(self) -> float:
        """Seconds between polls: the server's ``pollIntervalMs``, within sane bounds."""
        suggested = self.task.get("pollIntervalMs")
        if type(suggested) is int and suggested > 0:
            return min(max(suggested / 1000, MIN_POLL_INTERVAL), MAX_POLL_INTERVAL)
        return DEFAULT_POLL_INTERVAL

    def status(self, *, timeout: float | None = None) -> dict[str, t.Any]:
        """The task now (``tasks/get``): ``status`` with its ``result``, ``error`` or ``inputRequests``.

        :raises ServerError: the server does not know the task (-32602), among others.
        :param timeout: seconds to wait for the answer (default: the client's).
        :returns: the ``tasks/get`` result.
        """
        if self.task.get("taskId") is None or self.task.get("status") in TERMINAL_STATUSES:
            return dict(self.task)
        response = self.sender.request(methods.TASKS_GET, {"taskId": self.task_id}, timeout=timeout)
        task = response.get("result")
        if not isinstance(task, dict) or task.get("status") is None:
            raise ValidationError("Response validation failed: tasks/get answered no task")
        with self._lock:
            self.task = task
        return dict(task)

    def result(self, timeout: float | None = None, *, cancellation: Cancellation | None = None) -> dict[str, t.Any]:
        """Wait for the task to end; return the tool's result (``CallToolResult``).

        Input the task asks for is answered with the client's handlers.

        :param timeout: seconds to wait at most (None: until it ends).
        :raises RequestTimeoutError: it did not end within ``timeout`` (it keeps running).
        :raises ServerError: the task ``failed`` (its JSON-RPC error).
        :raises CancelledError: the task was cancelled, or ``cancellation`` was.
        :raises InputRequiredError: it asked for something no handler answers.
        :param cancellation: a :class:`~mcp_sdk.Cancellation`; cancelling it stops waiting and cancels the task.
        """
        deadline = None if timeout is None else time.monotonic() + timeout
        while True:
            task = self.status()
            status = task.get("status")
            if status == "completed":
                result = task.get("result")
                if not isinstance(result, dict):
                    raise ValidationError("Response validation failed: a completed task has no result object")
                return result
            if status == "failed":
                found = task.get("error")
                error: dict[str, t.Any] = found if isinstance(found, dict) else {}
                code = error.get("code")
                raise ServerError(str(error.get("message", "Task failed")), code if type(code) is int else -32603, error.get("data"))
            if status == "cancelled":
                raise CancelledError("Task was cancelled", reason=task.get("statusMessage"))
            if status == "input_required":
                self._answer(task.get("inputRequests"))
            if cancellation is not None and cancellation.cancelled():
                raise CancelledError(reason=cancellation.reason)
            pause = self.poll_interval
            if deadline is not None:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    raise RequestTimeoutError(f"Task did not finish within {timeout} s")
                pause = min(pause, remaining)
            if cancellation is not None:
                cancellation.wait(pause)
            else:
                time.sleep(pause)

    def cancel(self, *, timeout: float | None = None) -> None:
        """Ask the server to cancel the task (``tasks/cancel``); cooperative: it may still complete.

        :param timeout: seconds to wait for the server's answer (default: the client's).
        """
        if self.task.get("taskId") is None:
            return
        self.sender.request(methods.TASKS_CANCEL, {"taskId": self.task_id}, timeout=timeout)

    def _answer(self, requests: t.Any) -> None:
        if not isinstance(requests, dict):
            return
        with self._lock:
            fresh = {key: request for key, request in requests.items() if key not in self._answered}
            self._answered.update(fresh)
        if not fresh:
            return
        responses = answer_all(fresh, self.sender.answer_input)
        self.sender.request(methods.TASKS_UPDATE, {"taskId": self.task_id, "inputResponses": responses})

    def __repr__(self) -> str:
        return f"<TaskHandle status={self.task.get('status')!r}>"  # the id is a bearer secret


__all__ = ["TASKS_EXTENSION", "TaskHandle", "TaskRequests", "declare", "is_task"]
