"""The requests behind :class:`~mcp_sdk.Client`'s list, call, read, get and complete methods.

:class:`Calls` is an object the client holds: each method sends its request through the client's
:class:`~.request_sender.RequestSender`. A request that may need input (``tools/call``,
``prompts/get``, ``resources/read``) answers 2026-07-28 ``input_required`` results with the
client's handlers until it completes; list pages and reads that carry ``ttlMs`` are kept in the
client's :class:`~.cache.ResultCache` until they expire.
"""

from __future__ import annotations

import threading
import typing as t

from .. import methods
from ..cancellation import Cancellation
from . import task_handle
from .exceptions import ServerError, ValidationError
from .paginated_result import ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ListToolsResult
from .paginated_result import all_pages, page_cursor, page_items
from .request_sender import RequestSender, result_of
from .task_handle import TaskHandle
from .tool import Tool

if t.TYPE_CHECKING:
    from .cache import ResultCache

Meta = t.Optional[t.Dict[str, t.Any]]


class Calls:
    """The list, call, read, get and complete requests of one client.

    :param sender: sends the requests.
    :param answer: ``answer(method, params)``: the client's handlers answering an input request.
    :param cache: keeps results that carry ``ttlMs`` (None: nothing is kept).
    :param max_pages: most pages a listing of every item fetches.
    :param max_input_rounds: most ``input_required`` rounds one request may take.
    :param validate_structured_content: check a tool's ``structuredContent`` against its output schema.
    """

    def __init__(
        self,
        sender: RequestSender,
        answer: t.Callable[[str, dict[str, t.Any]], t.Any],
        cache: ResultCache | None,
        *,
        max_pages: int,
        max_input_rounds: int,
        validate_structured_content: bool,
    ) -> None:
        self.max_pages = max_pages
        self.max_input_rounds = max_input_rounds
        self.validate_structured_content = validate_structured_content
        self.sender = sender
        self.answer = answer
        self.cache = cache
        #: Tool name -> the tool as last listed (its output schema validates ``structuredContent``).
        self.known_tools: dict[str, Tool] = {}
        self._lock = threading.Lock()

    # -- lists -----------------------------------------------------------------

    def list_tools(self, cursor: str | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None) -> ListToolsResult:
        """One page of ``tools/list``, its tools remembered for :meth:`call_tool`'s validation."""
        result = self.list_page(methods.TOOLS_LIST, cursor, meta, cancellation, timeout)
        entries = self.sender.era.usable_tools(self.sender, page_items(result, "tools"))
        tools = [Tool.from_dict(entry) for entry in entries]
        with self._lock:
            for tool in tools:
                self.known_tools[tool.name] = tool
        return ListToolsResult(tools=tools, next_cursor=page_cursor(result), meta=result.get("_meta"))

    def list_prompts(self, cursor: str | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None) -> ListPromptsResult:
        """One page of ``prompts/list``."""
        result = self.list_page(methods.PROMPTS_LIST, cursor, meta, cancellation, timeout)
        return ListPromptsResult(prompts=page_items(result, "prompts"), next_cursor=page_cursor(result), meta=result.get("_meta"))

    def list_resources(
        self, cursor: str | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None
    ) -> ListResourcesResult:
        """One page of ``resources/list``."""
        result = self.list_page(methods.RESOURCES_LIST, cursor, meta, cancellation, timeout)
        return ListResourcesResult(
            resources=page_items(result, "resources"), next_cursor=page_cursor(result), meta=result.get("_meta")
        )

    def list_resource_templates(
        self, cursor: str | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None
    ) -> ListResourceTemplatesResult:
        """One page of ``resources/templates/list``."""
        result = self.list_page(methods.RESOURCES_TEMPLATES_LIST, cursor, meta, cancellation, timeout)
        return ListResourceTemplatesResult(
            resource_templates=page_items(result, "resourceTemplates"), next_cursor=page_cursor(result), meta=result.get("_meta")
        )

    def list_page(
        self, method: str, cursor: str | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None
    ) -> dict[str, t.Any]:
        """The result of one list request: from the cache while it holds it, else asked and kept."""
        params = {"cursor": cursor} if cursor is not None else None
        cached = self.cache.get(method, params) if self.cache is not None else None
        if cached is not None:
            return cached
        result = result_of(self.sender.request(method, params, meta=meta, cancellation=cancellation, timeout=timeout))
        return self._store(method, params, result)

    # -- calls -----------------------------------------------------------------

    def call_tool(
        self,
        name: str | None,
        arguments: dict[str, t.Any] | None,
        tool: Tool | None,
        progress_token: str | int | None,
        meta: Meta,
        cancellation: Cancellation | None,
        timeout: float | None,
    ) -> dict[str, t.Any]:
        """:meth:`Client.call_tool <mcp_sdk.Client.call_tool>`: the whole JSON-RPC response.

        :raises TypeError: neither ``name`` nor ``tool`` was given.
        """
        tool_name = tool.name if tool is not None else name
        if not tool_name:
            raise TypeError("call_tool() needs name= or tool=")
        params: dict[str, t.Any] = {"name": tool_name}
        if arguments is not None:
            params["arguments"] = arguments
        entries = dict(meta or {})
        if progress_token is not None:
            entries["progressToken"] = progress_token
        try:
            response = self.final(methods.TOOLS_CALL, params, meta=entries, cancellation=cancellation, timeout=timeout)
        except ServerError as error:
            if not self.sender.era.relist_fixes(error):
                raise
            # List again, retry once.
            all_pages(self.max_pages, self._tools_page, "tools", cancellation, timeout)
            response = self.final(methods.TOOLS_CALL, params, meta=entries, cancellation=cancellation, timeout=timeout)
        result = result_of(response)
        if task_handle.is_task(result):  # the server made it a task: follow it to its end
            result = self.task_handle(result).result(cancellation=cancellation)
            response = {**response, "result": result}
        if self.validate_structured_content:
            known = tool if tool is not None else self.known_tools.get(tool_name)
            if known is not None:
                known.validate_structured_content(result)
        return response

    def call_tool_task(
        self, name: str, arguments: dict[str, t.Any] | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None
    ) -> TaskHandle:
        """:meth:`Client.call_tool_task <mcp_sdk.Client.call_tool_task>`: a handle for the task (or the direct answer)."""
        params: dict[str, t.Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        response = self.final(methods.TOOLS_CALL, params, meta=meta, cancellation=cancellation, timeout=timeout)
        result = result_of(response)
        if task_handle.is_task(result):
            return self.task_handle(result)
        return TaskHandle.completed(self.sender, result)

    def task_handle(self, created: dict[str, t.Any]) -> TaskHandle:
        """A handle for the task a ``CreateTaskResult`` announces.

        :raises ValidationError: it has no ``taskId``.
        """
        task_id = created.get("taskId")
        if not isinstance(task_id, str) or not task_id:
            raise ValidationError("Response validation failed: a CreateTaskResult without a taskId")
        return TaskHandle(self.sender, task_id, created)

    def read_resource(self, uri: str, meta: Meta, cancellation: Cancellation | None, timeout: float | None) -> list[dict[str, t.Any]]:
        """The ``contents`` of ``resources/read`` (from the cache while it holds them)."""
        params = {"uri": uri}
        result = self.cache.get(methods.RESOURCES_READ, params) if self.cache is not None else None
        if result is None:
            response = self.final(methods.RESOURCES_READ, params, meta=meta, cancellation=cancellation, timeout=timeout, cache=True)
            result = result_of(response)
        return page_items(result, "contents")

    def get_prompt(
        self, name: str, arguments: dict[str, str] | None, meta: Meta, cancellation: Cancellation | None, timeout: float | None
    ) -> dict[str, t.Any]:
        """The result of ``prompts/get``."""
        params: dict[str, t.Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return result_of(self.final(methods.PROMPTS_GET, params, meta=meta, cancellation=cancellation, timeout=timeout))

    def complete(
        self,
        ref: dict[str, t.Any],
        argument: dict[str, t.Any],
        context: dict[str, t.Any] | None,
        meta: Meta,
        cancellation: Cancellation | None,
        timeout: float | None,
    ) -> dict[str, t.Any]:
        """The ``completion`` of ``completion/complete``.

        :raises ValidationError: the result has no ``completion`` object.
        """
        params: dict[str, t.Any] = {"ref": ref, "argument": argument}
        if context is not None:
            params["context"] = context
        result = result_of(self.sender.request(methods.COMPLETION_COMPLETE, params, meta=meta, cancellation=cancellation, timeout=timeout))
        completion = result.get("completion")
        if not isinstance(completion, dict):
            raise ValidationError("Response validation failed: completion/complete result has no completion object")
        return completion

    def final(self, method: str, params: dict[str, t.Any], *, meta: Meta,
              cancellation: Cancellation | None, timeout: float | None, cache: bool = False) -> dict[str, t.Any]:
        """A request that may need input, answering ``input_required`` results with the registered handlers until complete.

        :param cache: keep the result in the cache, unless it took MRTR rounds (their results depend on
            inputs that are not part of the cache key).
        """
        rounds = 0

        def send(round_params: dict[str, t.Any]) -> dict[str, t.Any]:
            nonlocal rounds
            rounds += 1
            return self.sender.request(method, round_params, meta=meta, cancellation=cancellation, timeout=timeout)

        response = self.sender.era.complete(send, self.answer, method, params, self.max_input_rounds)
        if cache and rounds == 1 and isinstance(response.get("result"), dict):
            self._store(method, params, response["result"])
        return response

    def _tools_page(self, cursor: str | None, *, cancellation: Cancellation | None, timeout: float | None) -> ListToolsResult:
        return self.list_tools(cursor, None, cancellation, timeout)

    def _store(self, method: str, params: dict[str, t.Any] | None, result: dict[str, t.Any]) -> dict[str, t.Any]:
        if self.cache is not None:
            self.cache.put(method, params, result)
        return result


__all__ = ["Calls"]
