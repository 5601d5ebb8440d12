"""The MCP client: :class:`Client`, over the :class:`Stdio` or :class:`HTTP` transport (or your own).

.. code-block:: python

    from mcp_sdk import Client
    from mcp_sdk.client import Stdio

    with Client(transport=Stdio(command="python", args=["server.py"])) as client:
        client.connect()
        tools = client.tools()
        response = client.call_tool(tool=tools[0], arguments={"message": "hi"})

``InMemory(server)`` connects to a server in the same process (for tests).
``HTTP`` (which needs requests) and ``oauth`` load only when first used.
"""

from __future__ import annotations

import itertools
import logging
import threading
import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from ..errors import CancelledError, JSONRPCError, RequestTimeoutError, TransportError
from ..version import VERSION
from .elicitation import apply_defaults
from .errors import ServerError, ValidationError
from .in_memory import InMemory
from . import headers as mcp_headers
from . import modern, mrtr, negotiation, tasks
from .tasks import TaskHandle
from .cache import ResultCache
from .errors import InputRequiredError, ServerError, ValidationError
from .handlers import ServerMessages
from .listen import Subscription, notification_filter
from .paginated_result import ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ListToolsResult
from .stdio import Stdio
from .tool import Tool
from .transport import Message, Transport, check_transport, send_through

if t.TYPE_CHECKING:
    from .http import HTTP as HTTP

logger = logging.getLogger("mcp_sdk.client")


_DEFAULT_CLIENT_INFO = {"name": "mcp_sdk", "version": VERSION}


class Client(ServerMessages):
    """A connection to one MCP server, through a :class:`~mcp_sdk.client.transport.Transport`.

    Thread-safe: any number of threads may send requests at once. Every
    request method accepts ``meta=`` (extra ``_meta`` entries, e.g. W3C trace
    context), ``cancellation=`` (a :class:`~mcp_sdk.Cancellation`; cancelling it
    from another thread sends ``notifications/cancelled`` and raises
    :class:`~mcp_sdk.CancelledError` in the caller) and ``timeout=`` (seconds;
    :class:`~mcp_sdk.RequestTimeoutError` when it runs out).

    :param transport: how to reach the server.
    :param timeout: default seconds to wait for each response (``None``: the transport's default).
    :param validate_structured_content: check a tool's ``structuredContent``
        against its output schema (for tools seen in a ``tools/list`` page, or
        passed as ``tool=``) and raise :attr:`ValidationError` when it does not conform.
    :param max_pages: most pages :meth:`tools` and its siblings fetch.
    :param cache: keep results that carry ``ttlMs`` (MCP 2026-07-28) until they
        expire; ``False`` asks the server every time.
    :param max_input_rounds: most ``input_required`` rounds one call may take (MCP 2026-07-28).
    :raises: see each method; every exception is an :class:`~mcp_sdk.MCPError`:
        :attr:`ServerError` (a JSON-RPC error from the server),
        :attr:`ValidationError` (a malformed response),
        :class:`~mcp_sdk.TransportError` (the server is unreachable or died).
    """

    # Aliases, so `Client.Tool`, `Client.ServerError`... work as in the gem (and as types).
    Tool: t.TypeAlias = Tool
    ServerError: t.TypeAlias = ServerError
    ValidationError: t.TypeAlias = ValidationError
    InputRequiredError: t.TypeAlias = InputRequiredError
    Subscription: t.TypeAlias = Subscription
    ListToolsResult: t.TypeAlias = ListToolsResult
    ListPromptsResult: t.TypeAlias = ListPromptsResult
    ListResourcesResult: t.TypeAlias = ListResourcesResult
    ListResourceTemplatesResult: t.TypeAlias = ListResourceTemplatesResult

    def __init__(
        self,
        transport: Transport,
        *,
        timeout: float | None = None,
        validate_structured_content: bool = False,
        max_pages: int = 1000,
        cache: bool = True,
        max_input_rounds: int = 10,
    ) -> None:
        self.transport = transport
        self.timeout = timeout
        self.validate_structured_content = validate_structured_content
        self.max_pages = max_pages
        #: The server's ``InitializeResult`` (None before :meth:`connect`).
        self.initialize_result: dict[str, t.Any] | None = None
        #: The server's ``DiscoverResult`` on MCP 2026-07-28 (None on an older version).
        self.discover_result: dict[str, t.Any] | None = None
        self.max_input_rounds = max_input_rounds
        #: The 2026-07-28 version in use (None: the legacy era, or not connected).
        self._modern_version: str | None = None
        self._client_info: dict[str, t.Any] = dict(_DEFAULT_CLIENT_INFO)
        self._extra_capabilities: dict[str, t.Any] = {}
        self._log_level: str | None = None
        self._cache = ResultCache(auth_context=getattr(transport, "auth_context", None)) if cache else None
        self._tool_headers = mcp_headers.ToolHeaders()
        self._subscriptions: list[Subscription] = []
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._known_tools: dict[str, Tool] = {}
        set_handler = getattr(transport, "set_message_handler", None)
        if set_handler is not None:
            set_handler(self._handle_message)
        check_transport(transport)
        self._carries_headers = isinstance(transport, Transport) and transport.carries_headers

    # -- lifecycle -----------------------------------------------------------

    def connect(
        self,
        client_info: dict[str, t.Any] | None = None,
        protocol_version: str | None = None,
        capabilities: dict[str, t.Any] | None = None,
        *,
        mode: str = "auto",
        timeout: float | None = None,
        probe_timeout: float | None = 10.0,
    ) -> dict[str, t.Any]:
        """Agree on a protocol version with the server.

        ``mode="auto"`` (the default) probes with ``server/discover`` and speaks
        MCP 2026-07-28 to a server that answers it; any other answer (or none
        within ``probe_timeout``) falls back to ``initialize`` +
        ``notifications/initialized``. The era is remembered per server for the
        process: the next ``connect`` to a legacy server skips the probe.
        ``"modern"`` speaks 2026-07-28 only; ``"legacy"`` only ``initialize``.

        :param client_info: ``{"name": ..., "version": ...}``; defaults to this SDK's.
        :param protocol_version: the version to offer (default: the latest of the era).
        :param capabilities: merged over the capabilities the registered
            handlers imply (``sampling``, ``elicitation``, ``roots``).
        :return: the server's ``InitializeResult``, or on 2026-07-28 its ``DiscoverResult`` with
            ``protocolVersion`` and ``serverInfo`` added, so code reading those works in both eras.
        :raises ServerError: the server refused.
        :raises ValidationError: a malformed result, or a protocol version this SDK does not speak.
        """
        self._client_info = dict(client_info or _DEFAULT_CLIENT_INFO)
        self._extra_capabilities = dict(capabilities or {})
        return negotiation.connect(self, mode, protocol_version, timeout, probe_timeout)

    def _use_modern(self, version: str) -> None:
        self._modern_version = version
        self.initialize_result = None

    def _use_legacy(self) -> None:
        self._modern_version = None
        self.discover_result = None

    @property
    def era(self) -> str | None:
        """``"modern"`` (MCP 2026-07-28), ``"legacy"`` (``initialize``), or None before :meth:`connect`."""
        if self._modern_version is not None and self.discover_result is not None:
            return modern.MODERN
        return modern.LEGACY if self.initialize_result is not None else None

    @property
    def log_level(self) -> str | None:
        """The least severe log level the server should send (``notifications/message`` reach
        :meth:`on_log_message`); None (the default) asks for no logging.

        On 2026-07-28 it travels in every request's ``_meta``; on an older
        version setting it sends ``logging/setLevel`` (now, or on :meth:`connect`).
        """
        return self._log_level

    @log_level.setter
    def log_level(self, level: str | None) -> None:
        if level is not None and level not in methods.LOG_LEVELS:
            raise ValueError(f"log_level must be one of {', '.join(methods.LOG_LEVELS)}, not {level!r}")
        self._log_level = level
        if level is not None and self.initialize_result is not None:
            self._result(self._request(methods.LOGGING_SET_LEVEL, {"level": level}))

    @property
    def connected(self) -> bool:
        """Whether :meth:`connect` has completed."""
        return self.era is not None

    @property
    def protocol_version(self) -> str | None:
        """The agreed protocol version (e.g. ``"2026-07-28"``; None before :meth:`connect`)."""
        if self.era == modern.MODERN:
            return self._modern_version
        return (self.initialize_result or {}).get("protocolVersion")

    @property
    def _description(self) -> dict[str, t.Any]:
        return self.discover_result or self.initialize_result or {}

    @property
    def server_info(self) -> dict[str, t.Any] | None:
        """The server's ``serverInfo`` (``name``, ``version``, ``title``...)."""
        return modern.server_info(self._description)

    @property
    def server_capabilities(self) -> dict[str, t.Any] | None:
        """The ``capabilities`` the server declared."""
        return self._description.get("capabilities")

    @property
    def instructions(self) -> str | None:
        """The server's ``instructions``, if it gave any."""
        return self._description.get("instructions")

    def close(self) -> None:
        """End every :meth:`listen` subscription, then close the transport (ends a stdio server process, an HTTP session)."""
        with self._lock:
            subscriptions, self._subscriptions = self._subscriptions, []
        for subscription in subscriptions:
            subscription.close()
        self.transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()

    # -- requests ------------------------------------------------------------

    def ping(self, *, meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
             timeout: float | None = None) -> dict[str, t.Any]:
        """Check that the server answers; returns its (empty) result ``{}``.

        MCP 2026-07-28 has no ``ping``: there ``server/discover`` is asked instead.
        """
        if self._modern_version is not None:
            self._result(self._request(modern.SERVER_DISCOVER, None, meta=meta, cancellation=cancellation, timeout=timeout))
            return {}
        return self._result(self._request(methods.PING, None, meta=meta, cancellation=cancellation, timeout=timeout))

    def list_tools(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> ListToolsResult:
        """One page of ``tools/list`` (one request): ``page.tools`` and ``page.next_cursor``."""
        result = self._list(methods.TOOLS_LIST, cursor, meta, cancellation, timeout)
        entries = _items(result, "tools")
        if self._modern_version is not None and self._carries_headers:
            entries = self._tool_headers.usable(entries)  # SEP-2243: over HTTP, leave out badly annotated tools
        tools = [Tool.from_dict(entry) for entry in entries]
        with self._lock:
            for tool in tools:
                self._known_tools[tool.name] = tool
        return ListToolsResult(tools=tools, next_cursor=_cursor(result), meta=result.get("_meta"))

    def list_prompts(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                     cancellation: Cancellation | None = None, timeout: float | None = None) -> ListPromptsResult:
        """One page of ``prompts/list``: ``page.prompts`` and ``page.next_cursor``."""
        result = self._list(methods.PROMPTS_LIST, cursor, meta, cancellation, timeout)
        return ListPromptsResult(prompts=_items(result, "prompts"), next_cursor=_cursor(result), meta=result.get("_meta"))

    def list_resources(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                       cancellation: Cancellation | None = None, timeout: float | None = None) -> ListResourcesResult:
        """One page of ``resources/list``: ``page.resources`` and ``page.next_cursor``."""
        result = self._list(methods.RESOURCES_LIST, cursor, meta, cancellation, timeout)
        return ListResourcesResult(
            resources=_items(result, "resources"), next_cursor=_cursor(result), meta=result.get("_meta")
        )

    def list_resource_templates(
        self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None, timeout: float | None = None,
    ) -> ListResourceTemplatesResult:
        """One page of ``resources/templates/list``: ``page.resource_templates`` and ``page.next_cursor``."""
        result = self._list(methods.RESOURCES_TEMPLATES_LIST, cursor, meta, cancellation, timeout)
        return ListResourceTemplatesResult(
            resource_templates=_items(result, "resourceTemplates"), next_cursor=_cursor(result), meta=result.get("_meta")
        )

    def tools(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[Tool]:
        """Every tool, following ``nextCursor`` (see :meth:`_all_pages` for when it stops)."""
        return self._all_pages(self.list_tools, "tools", cancellation, timeout)

    def prompts(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every prompt, over all pages."""
        return self._all_pages(self.list_prompts, "prompts", cancellation, timeout)

    def resources(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every resource, over all pages."""
        return self._all_pages(self.list_resources, "resources", cancellation, timeout)

    def resource_templates(
        self, *, cancellation: Cancellation | None = None, timeout: float | None = None
    ) -> list[dict[str, t.Any]]:
        """Every resource template, over all pages."""
        return self._all_pages(self.list_resource_templates, "resource_templates", cancellation, timeout)

    def call_tool(
        self,
        name: str | None = None,
        *,
        tool: Tool | None = None,
        arguments: dict[str, t.Any] | None = None,
        progress_token: str | int | None = None,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> dict[str, t.Any]:
        """Call a tool, by ``name`` or ``tool``; returns the full JSON-RPC response.

        ``response["result"]["content"]`` holds the content; a tool that failed
        answers ``isError: true`` in its result rather than raising.

        :param progress_token: asks the server for ``notifications/progress``
            (they reach :meth:`on_progress`); wins over a ``progressToken`` in ``meta``.
        :raises TypeError: neither ``name`` nor ``tool`` was given.
        :raises ValidationError: with ``validate_structured_content``, a
            ``structuredContent`` that does not match the tool's output schema.
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
            response = self._final(methods.TOOLS_CALL, params, meta=entries, cancellation=cancellation, timeout=timeout)
        except ServerError as error:
            if error.code != error_codes.HEADER_MISMATCH or self._modern_version is None:
                raise
            # SEP-2243: the tool's x-mcp-header annotations may have changed; list again, retry once.
            self.tools(cancellation=cancellation, timeout=timeout)
            response = self._final(methods.TOOLS_CALL, params, meta=entries, cancellation=cancellation, timeout=timeout)
        result = self._result(response)
        if tasks.is_task(result):  # the server made it a task: follow it to its end
            result = self._task_handle(result).result(cancellation=cancellation)
            response = {**response, "result": result}
        if self.validate_structured_content:
            known = tool if tool is not None else self._known_tools.get(tool_name)
            if known is not None:
                known.validate_structured_content(result)
        return response

    def call_tool_task(
        self,
        name: str,
        arguments: dict[str, t.Any] | None = None,
        *,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> TaskHandle:
        """Call a tool and return at once with a :class:`~mcp_sdk.client.tasks.TaskHandle`
        (``status()``, ``result(timeout=)``, ``cancel()``, ``task_id``).

        A server that answers the call directly (no task) gives an already completed handle.
        Multi round-trip input before the task exists is answered with the registered handlers.
        """
        params: dict[str, t.Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        response = self._final(methods.TOOLS_CALL, params, meta=meta, cancellation=cancellation, timeout=timeout)
        result = self._result(response)
        if tasks.is_task(result):
            return self._task_handle(result)
        return TaskHandle.completed(self, result)

    def task(self, task_id: str) -> TaskHandle:
        """A handle for a task this client (or an earlier connection) started, by its id."""
        return TaskHandle(self, task_id)

    def _task_handle(self, created: dict[str, t.Any]) -> TaskHandle:
        task_id = created.get("taskId")
        if not isinstance(task_id, str) or not task_id:
            raise ValidationError("Response validation failed: a CreateTaskResult without a taskId")
        return TaskHandle(self, task_id, created)

    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None,
                      cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Read a resource; returns its ``contents`` (text or blob entries)."""
        params = {"uri": uri}
        result = self._cache.get(methods.RESOURCES_READ, params) if self._cache is not None else None
        if result is None:
            response = self._final(methods.RESOURCES_READ, params, meta=meta, cancellation=cancellation, timeout=timeout,
                                   cache=True)
            result = self._result(response)
        return _items(result, "contents")

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Get a prompt filled in with ``arguments``; returns the result (``messages``, ``description``)."""
        params: dict[str, t.Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return self._result(self._final(methods.PROMPTS_GET, params, meta=meta, cancellation=cancellation, timeout=timeout))

    def complete(self, ref: dict[str, t.Any], argument: dict[str, t.Any], context: dict[str, t.Any] | None = None, *,
                 meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
                 timeout: float | None = None) -> dict[str, t.Any]:
        """Ask for completions of a prompt argument or template variable; returns ``completion``
        (``values``, and optionally ``total``, ``hasMore``).

        :param ref: ``{"type": "ref/prompt", "name": ...}`` or ``{"type": "ref/resource", "uri": ...}``.
        :param argument: ``{"name": ..., "value": ...}``.
        :param context: ``{"arguments": {...}}``, values already chosen.
        """
        params: dict[str, t.Any] = {"ref": ref, "argument": argument}
        if context is not None:
            params["context"] = context
        result = self._result(self._request(methods.COMPLETION_COMPLETE, params, meta=meta, cancellation=cancellation, timeout=timeout))
        completion = result.get("completion")
        if not isinstance(completion, dict):
            raise ValidationError("Response validation failed: completion/complete result has no completion object")
        return completion

    def set_logging_level(self, level: str, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Ask the server to send log messages at ``level`` and above (they reach :meth:`on_log_message`).

        On MCP 2026-07-28 this sets :attr:`log_level`, which every request then carries.
        """
        if self._modern_version is not None:
            self.log_level = level
            return {}
        self._log_level = level
        return self._result(self._request(methods.LOGGING_SET_LEVEL, {"level": level}, timeout=timeout))

    def subscribe_resource(self, uri: str, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Ask for ``notifications/resources/updated`` about ``uri`` (they reach :meth:`on_notification`)."""
        return self._result(self._request(methods.RESOURCES_SUBSCRIBE, {"uri": uri}, timeout=timeout))

    def unsubscribe_resource(self, uri: str, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Stop the updates :meth:`subscribe_resource` asked for."""
        return self._result(self._request(methods.RESOURCES_UNSUBSCRIBE, {"uri": uri}, timeout=timeout))

    def request(self, method: str, params: dict[str, t.Any] | None = None, *, meta: dict[str, t.Any] | None = None,
                cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Send any request (e.g. a server's custom method); returns the full JSON-RPC response.

        :raises ServerError: the server answered with an error.
        """
        return self._request(method, params, meta=meta, cancellation=cancellation, timeout=timeout)

    def listen(
        self,
        *,
        tools: bool = False,
        prompts: bool = False,
        resources: bool = False,
        resource_uris: t.Iterable[str] = (),
        callback: t.Callable[[str, dict[str, t.Any]], t.Any] | None = None,
        wait: float | None = 10.0,
        listen_timeout: float = 3600.0,
    ) -> Subscription:
        """Open ``subscriptions/listen`` (MCP 2026-07-28) for list changes and resource updates.

        The notifications reach :meth:`on_notification` (and ``callback(method, params)``),
        and drop what the cache holds for them. A dropped stream is opened again;
        ``subscription.close()`` (or :meth:`close`) ends it.

        :param tools: ``notifications/tools/list_changed``; ``prompts``, ``resources``: likewise.
        :param resource_uris: ``notifications/resources/updated`` for these URIs.
        :param wait: seconds to wait for the server's acknowledgement (None: do not wait).
        :param listen_timeout: seconds a stream may stay silent before it is opened again.
        :raises ValidationError: not connected to a 2026-07-28 server.
        """
        if self._modern_version is None:
            raise ValidationError("listen() needs a 2026-07-28 server; use subscribe_resource() and on_notification() on older ones")

        def send(params: dict[str, t.Any], request_id: int, cancellation: Cancellation) -> dict[str, t.Any]:
            return self._request(modern.SUBSCRIPTIONS_LISTEN, params, cancellation=cancellation, request_id=request_id,
                                 timeout=listen_timeout)

        wanted = notification_filter(tools=tools, prompts=prompts, resources=resources, resource_uris=resource_uris)
        subscription = Subscription(send, lambda: next(self._ids), wanted, callback=callback)
        with self._lock:
            self._subscriptions.append(subscription)
        subscription.start()
        if wait is not None:
            subscription.wait_acknowledged(wait)
        return subscription

    def notify(self, method: str, params: dict[str, t.Any] | None = None) -> None:
        """Send any notification."""
        send_notification = getattr(self.transport, "send_notification", None)
        if send_notification is None:
            raise TransportError(f"{type(self.transport).__name__} cannot send notifications (it has no send_notification)")
        send_notification(json_rpc.notification(method, params))

    def notify_roots_list_changed(self) -> None:
        """Tell the server the roots changed (``notifications/roots/list_changed``).

        Nothing to send on MCP 2026-07-28: a server asks for the roots with each request that needs them.
        """
        if self._modern_version is None:
            self.notify(methods.NOTIFICATIONS_ROOTS_LIST_CHANGED)

    def cancel(self, request_id: str | int, reason: str | None = None) -> None:
        """Send ``notifications/cancelled`` for an in-flight request.

        Passing ``cancellation=`` to a call does this for you, and also stops the wait.
        """
        params: dict[str, t.Any] = {"requestId": request_id}
        if reason is not None:
            params["reason"] = reason
        self.notify(methods.NOTIFICATIONS_CANCELLED, params)

    # -- plumbing ------------------------------------------------------------

    def _request(
        self,
        method: str,
        params: dict[str, t.Any] | None,
        *,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
        request_id: int | None = None,
        raise_errors: bool = True,
        retried: bool = False,
    ) -> dict[str, t.Any]:
        """Send one request and return the response; raise :attr:`ServerError` for an error response.

        On MCP 2026-07-28 the request carries the ``_meta`` envelope and the
        standard headers, and a result's ``resultType`` is checked.
        """
        version = self._modern_version
        headers: dict[str, str] | None = None
        if version is not None:
            params = dict(params or {})
            capabilities = {**self.capabilities(), **self._extra_capabilities}
            if method in tasks.DECLARING_METHODS:
                capabilities = tasks.declare(capabilities)  # per request: a tool call may become a task
            envelope = modern.envelope(version, capabilities, self._client_info, self._log_level)
            params["_meta"] = {**(params.get("_meta") or {}), **(meta or {}), **envelope}
            if self._carries_headers:
                headers = mcp_headers.standard_headers(method, params, version)
                if method == methods.TOOLS_CALL:
                    headers.update(self._tool_headers.for_call(params))
        elif meta:
            params = dict(params or {})
            params["_meta"] = {**(params.get("_meta") or {}), **meta}
        if request_id is None:
            request_id = next(self._ids)
        request = json_rpc.request(request_id, method, params)
        if cancellation is not None:
            cancellation.raise_if_cancelled()
        try:
            response = send_through(self.transport, request, timeout=self.timeout if timeout is None else timeout,
                                    cancellation=cancellation, headers=headers)
        except TransportError:
            # 2026-07-28: a broken stream loses the request; it is sent again, under a new id (once).
            if version is None or retried or method in (modern.SERVER_DISCOVER, modern.SUBSCRIPTIONS_LISTEN):
                raise
            logger.info("%s lost with its stream; sending it again", method)
            return self._reissue(method, params, cancellation, timeout, raise_errors)
        except (CancelledError, RequestTimeoutError) as error:
            # The specification: initialize is never cancelled; a probe is not a request the server knows;
            # on 2026-07-28 HTTP the transport cancelled by closing the request's stream.
            closed = headers is not None and self._carries_headers and self.transport.cancels_by_closing_stream
            if method not in (methods.INITIALIZE, modern.SERVER_DISCOVER) and not closed:
                reason = error.reason if isinstance(error, CancelledError) else "Request timed out"
                self._cancel_quietly(request_id, reason)
            raise
        if type(response) is not dict or response.get("id") != request_id:
            raise ValidationError(f"Response validation failed: expected a response to request {request_id}, got {response!r:.200}")
        if version is not None and not retried and modern.error_code(response) == error_codes.UNSUPPORTED_PROTOCOL_VERSION:
            chosen = modern.pick_version(modern.supported_versions(response))
            if chosen is not None and chosen != version:
                self._modern_version = chosen
                return self._reissue(method, params, cancellation, timeout, raise_errors)
        if version is not None and isinstance(response.get("result"), dict) and not (
            method == methods.TOOLS_CALL and tasks.is_task(response["result"])
        ):
            modern.result_type(response["result"], method, input_allowed=method in mrtr.INPUT_METHODS)
        if "error" in response and raise_errors:
            body = response["error"]
            if not isinstance(body, dict):
                raise ValidationError(f"Response validation failed: malformed error {body!r:.200}")
            code = body.get("code")
            raise ServerError(str(body.get("message", "")), code if type(code) is int else error_codes.INTERNAL_ERROR, body.get("data"))
        return response

    def _reissue(self, method: str, params: dict[str, t.Any] | None, cancellation: Cancellation | None,
                 timeout: float | None, raise_errors: bool) -> dict[str, t.Any]:
        """Send a 2026-07-28 request again under a new id, with a fresh envelope and the caller's own ``_meta``."""
        plain = {key: value for key, value in (params or {}).items() if key != "_meta"}
        user_meta = {k: v for k, v in (params or {}).get("_meta", {}).items() if not k.startswith("io.modelcontextprotocol/")}
        return self._request(method, plain, meta=user_meta, cancellation=cancellation, timeout=timeout,
                             raise_errors=raise_errors, retried=True)

    def _final(self, method: str, params: dict[str, t.Any], *, meta: dict[str, t.Any] | None,
               cancellation: Cancellation | None, timeout: float | None, cache: bool = False) -> dict[str, t.Any]:
        """:meth:`_request`, answering ``input_required`` results with the registered handlers until complete.

        :param cache: keep the result in the cache, unless it took MRTR rounds (their results depend on
            inputs that are not part of the cache key).
        """
        rounds = 0

        def send(round_params: dict[str, t.Any]) -> dict[str, t.Any]:
            nonlocal rounds
            rounds += 1
            return self._request(method, round_params, meta=meta, cancellation=cancellation, timeout=timeout)

        if self._modern_version is None:
            response = send(params)
        else:
            response = mrtr.complete(send, self._answer, method, params, self.max_input_rounds)
        if cache and rounds == 1 and isinstance(response.get("result"), dict):
            self._store(method, params, response["result"])
        return response

    def _store(self, method: str, params: dict[str, t.Any] | None, result: dict[str, t.Any]) -> dict[str, t.Any]:
        if self._cache is not None:
            self._cache.put(method, params, result)
        return result

    def _cancel_quietly(self, request_id: int, reason: str | None) -> None:
        try:
            self.cancel(request_id, reason)
        except Exception as error:  # the caller is already leaving with the real error
            logger.debug("could not send notifications/cancelled for %s: %s", request_id, error)

    @staticmethod
    def _result(response: dict[str, t.Any]) -> dict[str, t.Any]:
        result = response.get("result")
        if not isinstance(result, dict):
            raise ValidationError("Response validation failed: missing or invalid `result`")
        return result

    def _list(self, method: str, cursor: str | None, meta: dict[str, t.Any] | None,
              cancellation: Cancellation | None, timeout: float | None) -> dict[str, t.Any]:
        params = {"cursor": cursor} if cursor is not None else None
        cached = self._cache.get(method, params) if self._cache is not None else None
        if cached is not None:
            return cached
        result = self._result(self._request(method, params, meta=meta, cancellation=cancellation, timeout=timeout))
        return self._store(method, params, result)

    def _all_pages(self, list_page: t.Callable[..., t.Any], attribute: str,
                   cancellation: Cancellation | None, timeout: float | None) -> list[t.Any]:
        """Items of every page; stops at the last page, at a cursor seen before, or after :attr:`max_pages`."""
        items: list[t.Any] = []
        seen: set[str] = set()
        cursor: str | None = None
        for _ in range(self.max_pages):
            page = list_page(cursor, cancellation=cancellation, timeout=timeout)
            items.extend(getattr(page, attribute))
            cursor = page.next_cursor
            if cursor is None or cursor in seen:
                return items
            seen.add(cursor)
        logger.warning("stopped listing %s after %d pages", attribute, self.max_pages)
        return items

    def __repr__(self) -> str:
        return f"<Client {self.transport!r} protocol={self.protocol_version!r}>"


def _items(result: dict[str, t.Any], key: str) -> list[t.Any]:
    items = result.get(key, [])
    if not isinstance(items, list):
        raise ValidationError(f"Response validation failed: `{key}` is not an array")
    return items


def _cursor(result: dict[str, t.Any]) -> str | None:
    cursor = result.get("nextCursor")
    if cursor is not None and not isinstance(cursor, str):
        raise ValidationError("Response validation failed: `nextCursor` is not a string")
    return cursor


def __getattr__(name: str) -> t.Any:
    # requests loads only with the HTTP transport.
    if name == "HTTP":
        from .http import HTTP

        return HTTP
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


__all__ = [
    "Client",
    "HTTP",
    "InMemory",
    "InputRequiredError",
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ListToolsResult",
    "ServerError",
    "Stdio",
    "Subscription",
    "TaskHandle",
    "Tool",
    "Transport",
    "ValidationError",
]

