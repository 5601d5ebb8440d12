"""The channel a task's work runs on, and the worker's own state.

:class:`TaskExchange` is a :class:`~mcp_sdk.server.channel.Channel` like any other: what
the work writes is dropped (the request that started the task was answered long
ago), and what it asks the client becomes an entry of the task's
``inputRequests``, answered by ``tasks/update``.
"""

from __future__ import annotations

import threading
import typing as t

from ..cancellation import Cancellation
from ..errors import InvalidParamsError, TransportError
from .exchange_2026 import INPUT_KEY_PREFIXES, ModernExchange

if t.TYPE_CHECKING:
    from .channel import ClientRequest
    from .core import ServerCore


class TaskInputs(t.Protocol):
    """What a task's channel needs of the tasks (a :class:`~.tasks.TaskManager`)."""

    @property
    def server(self) -> ServerCore:
        """The server the tasks belong to."""

    def ask(self, runner: TaskRunner, requests: dict[str, dict[str, t.Any]]) -> dict[str, t.Any]:
        """Park the task with ``requests``; their answers, by key, once all came."""


class TaskExchange(ModernExchange):
    """The session a task's work runs in.

    What the work writes (progress, log messages) is dropped: the request that
    started the task has been answered. A server-to-client request becomes an
    entry of the task's ``inputRequests`` and blocks until ``tasks/update``
    answers it.
    """

    def __init__(self, manager: TaskInputs, origin: ModernExchange, runner: TaskRunner) -> None:
        super().__init__(
            manager.server,
            origin.carrier,
            origin.version,
            origin.client_capabilities,
            origin.client_info,
            origin.log_level,
        )
        self.auth = origin.auth
        self.manager = manager
        self.runner = runner

    def write(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        """Dropped: the extension defines no notifications of a task but ``notifications/tasks``."""

    def ask(self, request: ClientRequest) -> t.Any:
        """Ask the client through the task's ``inputRequests``; wait for the answer.

        :raises TransportError: the method cannot be an input request.
        :raises CancelledError: the task was cancelled (or expired) meanwhile.
        :raises InvalidParamsError: the client's answer is not an object.
        """
        method, params = request.method, request.params
        prefix = INPUT_KEY_PREFIXES.get(method)
        if prefix is None:
            raise TransportError(f"Cannot send {method} from a task: it is not an input request")
        asking: dict[str, t.Any] = {"method": method}
        if params is not None:
            asking["params"] = params
        key = self.runner.new_key(prefix)
        answer = self.manager.ask(self.runner, {key: asking})[key]
        if type(answer) is not dict:
            raise InvalidParamsError(f"Invalid params: inputResponses[{key!r}] must be an object")
        return answer

    def __repr__(self) -> str:
        return "<TaskExchange>"


class TaskRunner:
    """One task's worker: its id, token, and the input-request keys it used."""

    def __init__(self, task_id: str, cancellation: Cancellation) -> None:
        self.task_id = task_id
        self.cancellation = cancellation
        self._lock = threading.Lock()
        self._count = 0
        self.used: set[str] = set()

    def new_key(self, prefix: str) -> str:
        with self._lock:
            self._count += 1
            key = f"{prefix}-{self._count}"
            self.used.add(key)
            return key

    def wire_key(self, key: str) -> str:
        """A key unique over the task's life for the tool's own ``key`` (keys are never reused)."""
        with self._lock:
            wire = key
            while wire in self.used:
                self._count += 1
                wire = f"{key}~{self._count}"
            self.used.add(wire)
            return wire


__all__ = ["TaskExchange", "TaskInputs", "TaskRunner"]
