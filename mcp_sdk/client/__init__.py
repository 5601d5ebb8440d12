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
from ..protocol_version import LATEST_VERSION, SUPPORTED_VERSIONS
from ..version import VERSION
from .elicitation import apply_defaults
from .errors import ServerError, ValidationError
from .in_memory import InMemory
from .paginated_result import ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ListToolsResult
from .stdio import Stdio
from .tool import Tool
from .transport import Message, SendShape, Transport

if t.TYPE_CHECKING:
    from .http import HTTP as HTTP

logger = logging.getLogger("mcp_sdk.client")

F = t.TypeVar("F", bound=t.Callable[..., t.Any])
P = t.TypeVar("P")

_DEFAULT_CLIENT_INFO = {"name": "mcp_sdk", "version": VERSION}


class Client:
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
    :raises: see each method; every exception is an :class:`~mcp_sdk.MCPError`:
        :attr:`ServerError` (a JSON-RPC error from the server),
        :attr:`ValidationError` (a malformed response),
        :class:`~mcp_sdk.TransportError` (the server is unreachable or died).
    """

    # Aliases, so `Client.Tool`, `Client.ServerError`... work as in the gem (and as types).
    Tool: t.TypeAlias = Tool
    ServerError: t.TypeAlias = ServerError
    ValidationError: t.TypeAlias = ValidationError
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
    ) -> None:
        self.transport = transport
        self.timeout = timeout
        self.validate_structured_content = validate_structured_content
        self.max_pages = max_pages
        #: The server's ``InitializeResult`` (None before :meth:`connect`).
        self.initialize_result: dict[str, t.Any] | None = None
        self._ids = itertools.count(1)
        self._lock = threading.Lock()
        self._known_tools: dict[str, Tool] = {}
        self._sampling_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._elicitation_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._elicitation_url = False
        self._roots_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._progress_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._log_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._notification_handler: t.Callable[[str, t.Any], t.Any] | None = None
        set_handler = getattr(transport, "set_message_handler", None)
        if set_handler is not None:
            set_handler(self._handle_message)
        self._send_shape = SendShape(transport)

    # -- lifecycle -----------------------------------------------------------

    def connect(
        self,
        client_info: dict[str, t.Any] | None = None,
        protocol_version: str | None = None,
        capabilities: dict[str, t.Any] | None = None,
        *,
        timeout: float | None = None,
    ) -> dict[str, t.Any]:
        """Run the handshake: ``initialize``, then ``notifications/initialized``.

        :param client_info: ``{"name": ..., "version": ...}``; defaults to this SDK's.
        :param protocol_version: the version to offer (default: the latest).
        :param capabilities: merged over the capabilities the registered
            handlers imply (``sampling``, ``elicitation``, ``roots``).
        :return: the server's ``InitializeResult``.
        :raises ServerError: the server refused.
        :raises ValidationError: a malformed result, or a protocol version this SDK does not speak.
        """
        params = {
            "protocolVersion": protocol_version or LATEST_VERSION,
            "capabilities": {**self.capabilities(), **(capabilities or {})},
            "clientInfo": dict(client_info or _DEFAULT_CLIENT_INFO),
        }
        result = self._result(self._request(methods.INITIALIZE, params, timeout=timeout))
        version = result.get("protocolVersion")
        if version not in SUPPORTED_VERSIONS:
            raise ValidationError(
                f"Server chose protocol version {version!r}, which this client does not support "
                f"(supported: {', '.join(SUPPORTED_VERSIONS)})"
            )
        if not isinstance(result.get("capabilities", {}), dict) or not isinstance(result.get("serverInfo", {}), dict):
            raise ValidationError("Response validation failed: malformed initialize result")
        self.initialize_result = result
        if getattr(self.transport, "send_notification", None) is None:
            # A transport written to the Ruby gem's interface has only send_request.
            logger.warning("%s has no send_notification; notifications/initialized was not sent", type(self.transport).__name__)
        else:
            self.transport.send_notification(json_rpc.notification(methods.NOTIFICATIONS_INITIALIZED))
        return result

    @property
    def connected(self) -> bool:
        """Whether :meth:`connect` has completed."""
        return self.initialize_result is not None

    @property
    def protocol_version(self) -> str | None:
        """The negotiated protocol version."""
        return (self.initialize_result or {}).get("protocolVersion")

    @property
    def server_info(self) -> dict[str, t.Any] | None:
        """The server's ``serverInfo`` (``name``, ``version``, ``title``...)."""
        return (self.initialize_result or {}).get("serverInfo")

    @property
    def server_capabilities(self) -> dict[str, t.Any] | None:
        """The ``capabilities`` the server declared."""
        return (self.initialize_result or {}).get("capabilities")

    @property
    def instructions(self) -> str | None:
        """The server's ``instructions``, if it gave any."""
        return (self.initialize_result or {}).get("instructions")

    def capabilities(self) -> dict[str, t.Any]:
        """The client capabilities the registered handlers imply (what :meth:`connect` declares)."""
        capabilities: dict[str, t.Any] = {}
        if self._sampling_handler is not None:
            capabilities["sampling"] = {}
        if self._elicitation_handler is not None:
            capabilities["elicitation"] = {"form": {}, **({"url": {}} if self._elicitation_url else {})}
        if self._roots_handler is not None:
            capabilities["roots"] = {"listChanged": True}
        return capabilities

    def close(self) -> None:
        """Close the transport (ends a stdio server process, an HTTP session)."""
        self.transport.close()

    def __enter__(self) -> Client:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()

    # -- requests ------------------------------------------------------------

    def ping(self, *, meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
             timeout: float | None = None) -> dict[str, t.Any]:
        """Check that the server answers; returns its (empty) result ``{}``."""
        return self._result(self._request(methods.PING, None, meta=meta, cancellation=cancellation, timeout=timeout))

    def list_tools(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> ListToolsResult:
        """One page of ``tools/list`` (one request): ``page.tools`` and ``page.next_cursor``."""
        result = self._list(methods.TOOLS_LIST, cursor, meta, cancellation, timeout)
        tools = [Tool.from_dict(entry) for entry in _items(result, "tools")]
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
        response = self._request(methods.TOOLS_CALL, params, meta=entries, cancellation=cancellation, timeout=timeout)
        result = self._result(response)
        if self.validate_structured_content:
            known = tool if tool is not None else self._known_tools.get(tool_name)
            if known is not None:
                known.validate_structured_content(result)
        return response

    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None,
                      cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Read a resource; returns its ``contents`` (text or blob entries)."""
        response = self._request(methods.RESOURCES_READ, {"uri": uri}, meta=meta, cancellation=cancellation, timeout=timeout)
        return _items(self._result(response), "contents")

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Get a prompt filled in with ``arguments``; returns the result (``messages``, ``description``)."""
        params: dict[str, t.Any] = {"name": name}
        if arguments is not None:
            params["arguments"] = arguments
        return self._result(self._request(methods.PROMPTS_GET, params, meta=meta, cancellation=cancellation, timeout=timeout))

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
        """Ask the server to send log messages at ``level`` and above (they reach :meth:`on_log_message`)."""
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

    def notify(self, method: str, params: dict[str, t.Any] | None = None) -> None:
        """Send any notification."""
        send_notification = getattr(self.transport, "send_notification", None)
        if send_notification is None:
            raise TransportError(f"{type(self.transport).__name__} cannot send notifications (it has no send_notification)")
        send_notification(json_rpc.notification(method, params))

    def notify_roots_list_changed(self) -> None:
        """Tell the server the roots changed (``notifications/roots/list_changed``)."""
        self.notify(methods.NOTIFICATIONS_ROOTS_LIST_CHANGED)

    def cancel(self, request_id: str | int, reason: str | None = None) -> None:
        """Send ``notifications/cancelled`` for an in-flight request.

        Passing ``cancellation=`` to a call does this for you, and also stops the wait.
        """
        params: dict[str, t.Any] = {"requestId": request_id}
        if reason is not None:
            params["reason"] = reason
        self.notify(methods.NOTIFICATIONS_CANCELLED, params)

    # -- handlers for what the server sends ------------------------------------

    @t.overload
    def on_sampling(self, handler: F) -> F: ...
    @t.overload
    def on_sampling(self, handler: None = None) -> t.Callable[[F], F]: ...

    def on_sampling(self, handler: F | None = None) -> F | t.Callable[[F], F]:
        """Answer ``sampling/createMessage``: ``handler(params)`` returns a ``CreateMessageResult`` dict.

        Works as a call and as a decorator; returns ``handler``. Declares the
        ``sampling`` capability on :meth:`connect`. Raise a
        :class:`~mcp_sdk.JSONRPCError` to answer with that error (the
        specification uses code ``-1`` for a user's refusal).
        """
        return self._register("_sampling_handler", handler)

    def on_elicitation(self, handler: F | None = None, *, url: bool = False) -> t.Any:
        """Answer ``elicitation/create``: ``handler(params)`` returns ``{"action": ..., "content": {...}}``.

        For a form, an ``accept`` gets the ``default`` of every field the
        handler left out (SEP-1034). Declares ``elicitation: {"form": {}}``, plus
        ``"url": {}`` when ``url=True`` (the handler also handles ``mode: "url"``).
        Works as a call and as a decorator (``@client.on_elicitation(url=True)`` too).
        """
        self._elicitation_url = url
        return self._register("_elicitation_handler", handler)

    def on_roots(self, handler: F | None = None) -> t.Any:
        """Answer ``roots/list``: ``handler(params)`` returns a list of roots (``{"uri": "file://...", "name": ...}``).

        Declares ``roots: {"listChanged": true}``; call
        :meth:`notify_roots_list_changed` when they change.
        """
        return self._register("_roots_handler", handler)

    def on_progress(self, handler: F | None = None) -> t.Any:
        """Receive every ``notifications/progress``: ``handler(params)`` (``progressToken``, ``progress``...).

        Notification handlers run on the transport's reader thread, in order:
        keep them quick (hand long work to a thread of your own).
        """
        return self._register("_progress_handler", handler)

    def on_log_message(self, handler: F | None = None) -> t.Any:
        """Receive every ``notifications/message``: ``handler(params)`` (``level``, ``data``, ``logger``)."""
        return self._register("_log_handler", handler)

    def on_notification(self, handler: F | None = None) -> t.Any:
        """Receive the other notifications (list changes, resource updates...): ``handler(method, params)``."""
        return self._register("_notification_handler", handler)

    def _register(self, attribute: str, handler: F | None) -> F | t.Callable[[F], F]:
        if handler is None:
            def decorator(function: F) -> F:
                setattr(self, attribute, function)
                return function

            return decorator
        setattr(self, attribute, handler)
        return handler

    def _handle_message(self, message: Message) -> Message | None:
        """The transport's message handler: answer a server request, or route a notification."""
        method = message.get("method")
        params = message.get("params")
        if not isinstance(params, dict):
            params = {}
        if "id" not in message:
            self._handle_notification(str(method), params)
            return None
        request_id = message["id"]
        try:
            return json_rpc.result(request_id, self._answer(str(method), params))
        except JSONRPCError as error:
            return json_rpc.error(request_id, error.code, error.message, error.data)
        except Exception:
            logger.exception("handler for %s failed", method)
            return json_rpc.error(request_id, error_codes.INTERNAL_ERROR)

    def _answer(self, method: str, params: dict[str, t.Any]) -> t.Any:
        if method == methods.PING:
            return {}
        if method == methods.SAMPLING_CREATE_MESSAGE and self._sampling_handler is not None:
            return _object(self._sampling_handler(params), method)
        if method == methods.ELICITATION_CREATE and self._elicitation_handler is not None:
            result = _object(self._elicitation_handler(params), method)
            if result.get("action") == "accept" and params.get("mode", "form") == "form":
                result = {**result, "content": apply_defaults(params.get("requestedSchema"), result.get("content"))}
            return result
        if method == methods.ROOTS_LIST and self._roots_handler is not None:
            roots = self._roots_handler(params)
            return {"roots": list(roots)} if isinstance(roots, (list, tuple)) else _object(roots, method)
        raise JSONRPCError(f"Method not found: {method}", error_codes.METHOD_NOT_FOUND)

    def _handle_notification(self, method: str, params: dict[str, t.Any]) -> None:
        if method == methods.NOTIFICATIONS_PROGRESS:
            handler = self._progress_handler
            if handler is not None:
                handler(params)
        elif method == methods.NOTIFICATIONS_MESSAGE:
            log_handler = self._log_handler
            if log_handler is not None:
                log_handler(params)
        else:
            other = self._notification_handler
            if other is not None:
                other(method, params)

    # -- plumbing ------------------------------------------------------------

    def _request(
        self,
        method: str,
        params: dict[str, t.Any] | None,
        *,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> dict[str, t.Any]:
        """Send one request and return the response; raise :attr:`ServerError` for an error response."""
        if meta:
            params = dict(params or {})
            params["_meta"] = {**(params.get("_meta") or {}), **meta}
        request_id = next(self._ids)
        request = json_rpc.request(request_id, method, params)
        if cancellation is not None:
            cancellation.raise_if_cancelled()
        try:
            response = self._send_shape.send(self.transport, request, self.timeout if timeout is None else timeout, cancellation)
        except (CancelledError, RequestTimeoutError) as error:
            # The specification: initialize is never cancelled.
            if method != methods.INITIALIZE:
                reason = error.reason if isinstance(error, CancelledError) else "Request timed out"
                self._cancel_quietly(request_id, reason)
            raise
        if type(response) is not dict or response.get("id") != request_id:
            raise ValidationError(f"Response validation failed: expected a response to request {request_id}, got {response!r:.200}")
        if "error" in response:
            body = response["error"]
            if not isinstance(body, dict):
                raise ValidationError(f"Response validation failed: malformed error {body!r:.200}")
            code = body.get("code")
            raise ServerError(str(body.get("message", "")), code if type(code) is int else error_codes.INTERNAL_ERROR, body.get("data"))
        return response

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
        return self._result(self._request(method, params, meta=meta, cancellation=cancellation, timeout=timeout))

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


def _object(value: t.Any, method: str) -> dict[str, t.Any]:
    if not isinstance(value, dict):
        raise TypeError(f"the {method} handler must return a dict, not {type(value).__name__}")
    return value


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
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ListToolsResult",
    "ServerError",
    "Stdio",
    "Tool",
    "Transport",
    "ValidationError",
]

