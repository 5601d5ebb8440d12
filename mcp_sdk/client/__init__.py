"""The MCP client: :class:`Client`, over the :class:`Stdio` or :class:`HTTP` transport (or your own).

``InMemory(server)`` connects to a server in the same process (for tests).
``HTTP`` (which needs requests) and ``oauth`` load only when first used.
"""

from __future__ import annotations

import logging
import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from ..deprecations import warn_deprecated
from ..errors import JSONRPCError
from . import negotiation, wire_2026
from .cache import ResultCache
from .calls import Calls
from .elicitation_defaults import apply_defaults
from .era_2025 import LegacyEra
from .exceptions import ConfigError, InputRequiredError, ServerBusyError, ServerError, ServerUnavailableError, UnknownServerError
from .exceptions import NameCollisionError, ValidationError
from .in_memory import InMemory
from .listen import Subscription, Subscriptions, notification_filter
from .paginated_result import ListPromptsResult, ListResourcesResult, ListResourceTemplatesResult, ListToolsResult
from .paginated_result import all_pages
from .request_sender import DEFAULT_CLIENT_INFO, RequestSender, check_log_level, result_of
from .stdio import Stdio
from .task_handle import TaskHandle
from .tool import Tool
from .transport import Message, Transport, check_transport

if t.TYPE_CHECKING:
    from .http import HTTP as HTTP
    from .multi import MultiServerClient as MultiServerClient
    from .server_config import Config

logger = logging.getLogger("mcp_sdk.client")

F = t.TypeVar("F", bound=t.Callable[..., t.Any])


class Client:
    """A connection to one MCP server, through a :class:`~mcp_sdk.client.transport.Transport`.

    Open it with ``with`` (or :meth:`close` it), :meth:`connect` (the handshake), then list and call:
    :meth:`tools` and :meth:`call_tool`, :meth:`prompts` and :meth:`get_prompt`, :meth:`resources` and
    :meth:`read_resource` (``call_tool`` returns the whole JSON-RPC response). With a server in the same process:

    .. code-block:: python

        from mcp_sdk import Client, Server
        from mcp_sdk.client import InMemory
        server = Server(name="calculator")

        @server.tool
        def add(a: int, b: int) -> int:
            return a + b
        with Client(transport=InMemory(server)) as client:
            client.connect()
            assert [tool.name for tool in client.tools()] == ["add"]
            response = client.call_tool(name="add", arguments={"a": 2, "b": 3})
            assert response["result"]["structuredContent"] == {"result": 5}

    Thread-safe: any number of threads may send requests at once. Every request method accepts ``meta=``
    (extra ``_meta`` entries, e.g. W3C trace context; the current OpenTelemetry span's is added when the
    application uses OpenTelemetry, see :mod:`mcp_sdk.client.trace_propagation`), ``cancellation=`` (a
    :class:`~mcp_sdk.Cancellation`; cancelling it from another thread sends ``notifications/cancelled`` and
    raises :class:`~mcp_sdk.CancelledError` in the caller) and ``timeout=`` (seconds;
    :class:`~mcp_sdk.RequestTimeoutError` when it runs out).

    :param transport: how to reach the server.
    :param timeout: default seconds to wait for each response (``None``: the transport's default).
    :param validate_structured_content: check a tool's ``structuredContent`` against its output schema (for tools
        seen in a ``tools/list`` page, or passed as ``tool=``) and raise :attr:`ValidationError` when it does not conform.
    :param max_pages: most pages :meth:`tools` and its siblings fetch.
    :param cache: keep results that carry ``ttlMs`` (MCP 2026-07-28) until they expire; ``False`` asks every time.
    :param max_input_rounds: most ``input_required`` rounds one call may take (MCP 2026-07-28).
    :raises ServerError: (from each method) the server answered with a JSON-RPC error;
        :attr:`ServerBusyError`, a subclass, when HTTP said 429 or 503. Every exception is an
        :class:`~mcp_sdk.MCPError`: :attr:`ValidationError` for a malformed response,
        :class:`~mcp_sdk.TransportError` when the server is unreachable or died.
    """

    # Aliases, so `Client.Tool`, `Client.ServerError`... work as in the gem (and as types).
    Tool: t.TypeAlias = Tool
    ServerError: t.TypeAlias = ServerError
    ServerBusyError: t.TypeAlias = ServerBusyError
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
        check_transport(transport)
        self.transport = transport
        # The on_* handlers (None: not registered); what connect() declares follows from them.
        self._sampling_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._elicitation_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._elicitation_url = False
        self._roots_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._progress_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._log_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
        self._notification_handler: t.Callable[[str, t.Any], t.Any] | None = None
        self._sender = RequestSender(transport, LegacyEra(), handler_capabilities=self.capabilities, answer=self._answer,
                                     timeout=timeout)
        #: The server's ``InitializeResult`` (None before :meth:`connect`).
        self.initialize_result: dict[str, t.Any] | None = None
        #: The server's ``DiscoverResult`` on MCP 2026-07-28 (None on an older version).
        self.discover_result: dict[str, t.Any] | None = None
        self._cache = ResultCache(auth_context=getattr(transport, "auth_context", None)) if cache else None
        self._subscriptions = Subscriptions()
        self._calls = Calls(
            self._sender,
            self._answer,
            self._cache,
            max_pages=max_pages,
            max_input_rounds=max_input_rounds,
            validate_structured_content=validate_structured_content,
        )
        set_handler = getattr(transport, "set_message_handler", None)
        if set_handler is not None:
            set_handler(self._handle_message)

    @classmethod
    def from_config(
        cls,
        config: Config,
        *,
        timeout: float | None = None,
        connect_timeout: float = 30.0,
        mode: str = "auto",
        inherit_env: bool = False,
        **client_options: t.Any,
    ) -> MultiServerClient[Client]:
        """One :class:`~mcp_sdk.client.multi.MultiServerClient` for every server of an ``mcpServers``
        configuration (Claude Desktop's format; see :mod:`mcp_sdk.client.server_config`). Nothing
        starts before its ``connect()``.

        :param config: ``{"mcpServers": {...}}``, or the path of a JSON file holding it.
        :param timeout: seconds to wait for each response.
        :param connect_timeout: seconds to wait for all the servers to connect.
        :param mode: how each server's era is chosen (see :meth:`connect`).
        :param inherit_env: stdio servers inherit all of this process's variables, not only ``HOME``,
            ``PATH``, ``USER`` and a few more (see :mod:`~mcp_sdk.client.stdio_environment`).
        :param client_options: the other keywords of :class:`Client` (``max_pages``, ``cache``...), for each client.
        :raises ConfigError: the configuration is malformed.
        """
        from .multi import MultiServerClient
        from .server_config import transports_for

        transports = transports_for(config, timeout=timeout, inherit_env=inherit_env)
        clients = {name: cls(transport, timeout=timeout, **client_options) for name, transport in transports.items()}
        return MultiServerClient(clients, connect_timeout=connect_timeout, mode=mode)

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

        ``mode="auto"`` (the default) probes with ``server/discover`` and speaks MCP 2026-07-28 to a server
        that answers it; any other answer (or none within ``probe_timeout``) falls back to ``initialize`` +
        ``notifications/initialized``. The era is remembered per server for the process: the next ``connect``
        to a legacy server skips the probe. ``"modern"`` speaks 2026-07-28 only; ``"legacy"`` only ``initialize``.

        :param client_info: ``{"name": ..., "version": ...}``; defaults to this SDK's.
        :param protocol_version: the version to offer (default: the latest of the era).
        :param capabilities: merged over the capabilities the registered handlers imply (``sampling``, ``elicitation``, ``roots``).
        :param mode: ``"auto"``, ``"modern"`` or ``"legacy"``, as above.
        :param timeout: seconds to wait for each response of the handshake (None: :attr:`timeout`).
        :param probe_timeout: seconds ``"auto"`` waits for the ``server/discover`` answer before falling back
            (at most ``timeout``); None: as long as ``timeout``, and silence or a refusal raises instead.
        :return: the server's ``InitializeResult``, or on 2026-07-28 its ``DiscoverResult`` with
            ``protocolVersion`` and ``serverInfo`` added, so code reading those works in both eras.
        :raises ServerError: the server refused.
        :raises ValidationError: a malformed result, or a protocol version this SDK does not speak.
        """
        self._sender.client_info = dict(client_info or DEFAULT_CLIENT_INFO)
        self._sender.extra_capabilities = dict(capabilities or {})
        handshake = negotiation.connect(self._sender, mode, protocol_version, timeout, probe_timeout)
        self._sender.era = handshake.era
        self.initialize_result = handshake.initialize_result
        self.discover_result = handshake.discover_result
        return handshake.result

    @property
    def timeout(self) -> float | None:
        """Default seconds to wait for each response (None: the transport's default)."""
        return self._sender.timeout

    @timeout.setter
    def timeout(self, timeout: float | None) -> None:
        self._sender.timeout = timeout

    @property
    def max_pages(self) -> int:
        """Most pages :meth:`tools` and its siblings fetch."""
        return self._calls.max_pages

    @max_pages.setter
    def max_pages(self, pages: int) -> None:
        self._calls.max_pages = pages

    @property
    def max_input_rounds(self) -> int:
        """Most ``input_required`` rounds one call may take (MCP 2026-07-28)."""
        return self._calls.max_input_rounds

    @max_input_rounds.setter
    def max_input_rounds(self, rounds: int) -> None:
        self._calls.max_input_rounds = rounds

    @property
    def validate_structured_content(self) -> bool:
        """Whether a tool's ``structuredContent`` is checked against its output schema."""
        return self._calls.validate_structured_content

    @validate_structured_content.setter
    def validate_structured_content(self, validate: bool) -> None:
        self._calls.validate_structured_content = validate

    # -- what the handshake told of the server ------------------------------

    @property
    def era(self) -> str | None:
        """``"modern"`` (MCP 2026-07-28), ``"legacy"`` (``initialize``), or None before :meth:`connect`."""
        if self.discover_result is None and self.initialize_result is None:
            return None
        return self._sender.era.name

    @property
    def connected(self) -> bool:
        """Whether :meth:`connect` has completed."""
        return self.era is not None

    @property
    def protocol_version(self) -> str | None:
        """The agreed protocol version (e.g. ``"2026-07-28"``; None before :meth:`connect`)."""
        return self._sender.era.protocol_version if self.connected else None

    @property
    def server_info(self) -> dict[str, t.Any] | None:
        """The server's ``serverInfo`` (``name``, ``version``, ``title``...)."""
        return wire_2026.server_info(self._description())

    @property
    def server_capabilities(self) -> dict[str, t.Any] | None:
        """The ``capabilities`` the server declared."""
        return self._description().get("capabilities")

    @property
    def instructions(self) -> str | None:
        """The server's ``instructions``, if it gave any."""
        return self._description().get("instructions")

    def _description(self) -> dict[str, t.Any]:
        return self.discover_result or self.initialize_result or {}

    @property
    def log_level(self) -> str | None:
        """The least severe log level the server should send (``notifications/message`` reach
        :meth:`on_log_message`); None (the default) asks for no logging.

        On 2026-07-28 it travels in every request's ``_meta``; on an older
        version setting it sends ``logging/setLevel`` (now, or on :meth:`connect`), unless the
        server does not advertise ``logging`` (a stateless server, which cannot keep a level
        from one request to the next): then it travels in every request's ``_meta`` too.
        """
        return self._sender.log_level

    @log_level.setter
    def log_level(self, level: str | None) -> None:
        check_log_level(level)
        self._sender.log_level = level
        if level is not None and self.connected:
            self._sender.era.carry_log_level(self._sender, level, None)

    # -- what the server sends on its own: the on_* handlers ------------------

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
        Sampling is deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        warn_deprecated("sampling")
        return self._register("_sampling_handler", handler)

    def on_elicitation(self, handler: F | None = None, *, url: bool = False) -> t.Any:
        """Answer ``elicitation/create``: ``handler(params)`` returns ``{"action": ..., "content": {...}}``.

        For a form, an ``accept`` gets the ``default`` of every field the
        handler left out (SEP-1034). Declares ``elicitation: {"form": {}}``, plus
        ``"url": {}`` when ``url=True`` (the handler also handles ``mode: "url"``).
        Works as a call and as a decorator (``@client.on_elicitation(url=True)`` too).

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :param url: also declare (and handle) URL elicitations.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        self._elicitation_url = url
        return self._register("_elicitation_handler", handler)

    def on_roots(self, handler: F | None = None) -> t.Any:
        """Answer ``roots/list``: ``handler(params)`` returns a list of roots (``{"uri": "file://...", "name": ...}``).

        Declares ``roots: {"listChanged": true}``; call
        :meth:`notify_roots_list_changed` when they change.
        Roots are deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        warn_deprecated("roots")
        return self._register("_roots_handler", handler)

    def on_progress(self, handler: F | None = None) -> t.Any:
        """Receive every ``notifications/progress``: ``handler(params)`` (``progressToken``, ``progress``...).

        Notification handlers run on the transport's reader thread, in order:
        keep them quick (hand long work to a thread of your own).

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        return self._register("_progress_handler", handler)

    def on_log_message(self, handler: F | None = None) -> t.Any:
        """Receive every ``notifications/message``: ``handler(params)`` (``level``, ``data``, ``logger``).

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        return self._register("_log_handler", handler)

    def on_notification(self, handler: F | None = None) -> t.Any:
        """Receive the other notifications (list changes, resource updates...): ``handler(method, params)``.

        :param handler: ``handler(method, params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
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
        if self._cache is not None:
            self._cache.invalidate(method, params)
        meta = params.get("_meta")
        subscription_id = meta.get(wire_2026.META_SUBSCRIPTION_ID) if isinstance(meta, dict) else None
        if subscription_id is not None:
            self._subscriptions.receive(subscription_id, method, params)
            if method == wire_2026.NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED:
                return
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

    # -- closing -------------------------------------------------------------

    def close(self) -> None:
        """End every :meth:`listen` subscription, then close the transport (ends a stdio server process, an HTTP session)."""
        self._subscriptions.close()
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

        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._sender.era.ping(self._sender, meta=meta, cancellation=cancellation, timeout=timeout)

    def list_tools(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> ListToolsResult:
        """One page of ``tools/list`` (one request): ``page.tools`` and ``page.next_cursor``.

        :param cursor: the ``next_cursor`` of the previous page (None: the first page).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.list_tools(cursor, meta, cancellation, timeout)

    def list_prompts(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                     cancellation: Cancellation | None = None, timeout: float | None = None) -> ListPromptsResult:
        """One page of ``prompts/list``: ``page.prompts`` and ``page.next_cursor``.

        :param cursor: the ``next_cursor`` of the previous page (None: the first page).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.list_prompts(cursor, meta, cancellation, timeout)

    def list_resources(self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
                       cancellation: Cancellation | None = None, timeout: float | None = None) -> ListResourcesResult:
        """One page of ``resources/list``: ``page.resources`` and ``page.next_cursor``.

        :param cursor: the ``next_cursor`` of the previous page (None: the first page).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.list_resources(cursor, meta, cancellation, timeout)

    def list_resource_templates(
        self, cursor: str | None = None, *, meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None, timeout: float | None = None,
    ) -> ListResourceTemplatesResult:
        """One page of ``resources/templates/list``: ``page.resource_templates`` and ``page.next_cursor``.

        :param cursor: the ``next_cursor`` of the previous page (None: the first page).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.list_resource_templates(cursor, meta, cancellation, timeout)

    def tools(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[Tool]:
        """Every tool, following ``nextCursor``; stops at the last page, at a cursor seen before,
        or after :attr:`max_pages` pages.

        :param cancellation: cancels the request in flight from another thread.
        :param timeout: seconds to wait for each page (None: :attr:`timeout`).
        """
        return all_pages(self.max_pages, self.list_tools, "tools", cancellation, timeout)

    def prompts(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every prompt, over all pages (as :meth:`tools`).

        :param cancellation: cancels the request in flight from another thread.
        :param timeout: seconds to wait for each page (None: :attr:`timeout`).
        """
        return all_pages(self.max_pages, self.list_prompts, "prompts", cancellation, timeout)

    def resources(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every resource, over all pages (as :meth:`tools`).

        :param cancellation: cancels the request in flight from another thread.
        :param timeout: seconds to wait for each page (None: :attr:`timeout`).
        """
        return all_pages(self.max_pages, self.list_resources, "resources", cancellation, timeout)

    def resource_templates(
        self, *, cancellation: Cancellation | None = None, timeout: float | None = None
    ) -> list[dict[str, t.Any]]:
        """Every resource template, over all pages (as :meth:`tools`).

        :param cancellation: cancels the request in flight from another thread.
        :param timeout: seconds to wait for each page (None: :attr:`timeout`).
        """
        return all_pages(self.max_pages, self.list_resource_templates, "resource_templates", cancellation, timeout)

    def call_tool(
        self,
        name: str | None = None,
        arguments: dict[str, t.Any] | None = None,
        *,
        tool: Tool | None = None,
        progress_token: str | int | None = None,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> dict[str, t.Any]:
        """Call a tool, by ``name`` or ``tool``: ``client.call_tool("add", {"a": 1})``; returns the
        full JSON-RPC response.

        ``response["result"]["content"]`` holds the content; a tool that failed
        answers ``isError: true`` in its result rather than raising.

        :param name: the tool's name.
        :param arguments: the tool's arguments (None: none sent).
        :param tool: a :class:`Tool` from :meth:`tools` instead of ``name`` (its output schema validates the result).
        :param progress_token: asks the server for ``notifications/progress``
            (they reach :meth:`on_progress`); wins over a ``progressToken`` in ``meta``.
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        :raises TypeError: neither ``name`` nor ``tool`` was given.
        :raises ValidationError: with ``validate_structured_content``, a
            ``structuredContent`` that does not match the tool's output schema.
        """
        return self._calls.call_tool(name, arguments, tool, progress_token, meta, cancellation, timeout)

    def call_tool_task(
        self,
        name: str,
        arguments: dict[str, t.Any] | None = None,
        *,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> TaskHandle:
        """Call a tool and return at once with a :class:`~mcp_sdk.client.task_handle.TaskHandle`
        (``status()``, ``result(timeout=)``, ``cancel()``, ``task_id``).

        A server that answers the call directly (no task) gives an already completed handle.
        Multi round-trip input before the task exists is answered with the registered handlers.

        :param name: the tool's name.
        :param arguments: the tool's arguments (None: none sent).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.call_tool_task(name, arguments, meta, cancellation, timeout)

    def task(self, task_id: str) -> TaskHandle:
        """A handle for a task this client (or an earlier connection) started, by its id.

        :param task_id: the ``taskId`` the server gave.
        """
        return TaskHandle(self._sender, task_id)

    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None,
                      cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Read a resource; returns its ``contents`` (text or blob entries).

        :param uri: the resource's URI.
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.read_resource(uri, meta, cancellation, timeout)

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Get a prompt filled in with ``arguments``; returns the result (``messages``, ``description``).

        :param name: the prompt's name.
        :param arguments: argument name -> string value (None: none sent).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return self._calls.get_prompt(name, arguments, meta, cancellation, timeout)

    def complete(self, ref: dict[str, t.Any], argument: dict[str, t.Any], context: dict[str, t.Any] | None = None, *,
                 meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
                 timeout: float | None = None) -> dict[str, t.Any]:
        """Ask for completions of a prompt argument or template variable; returns ``completion``
        (``values``, and optionally ``total``, ``hasMore``).

        :param ref: ``{"type": "ref/prompt", "name": ...}`` or ``{"type": "ref/resource", "uri": ...}``.
        :param argument: ``{"name": ..., "value": ...}``.
        :param context: ``{"arguments": {...}}``, values already chosen.
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        :raises ValidationError: the result has no ``completion`` object.
        """
        return self._calls.complete(ref, argument, context, meta, cancellation, timeout)

    def set_logging_level(self, level: str, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Ask the server to send log messages at ``level`` and above (they reach :meth:`on_log_message`).

        On MCP 2026-07-28 this sets :attr:`log_level`, which every request then carries.
        Logging is deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :param level: one of the eight syslog levels (``"debug"``, ``"info"``... ``"emergency"``).
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        warn_deprecated("logging")
        return self._sender.era.set_logging_level(self._sender, level, timeout)

    def subscribe_resource(self, uri: str, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Ask for ``notifications/resources/updated`` about ``uri`` (they reach :meth:`on_notification`).

        :param uri: the resource's URI.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return result_of(self._sender.request(methods.RESOURCES_SUBSCRIBE, {"uri": uri}, timeout=timeout))

    def unsubscribe_resource(self, uri: str, *, timeout: float | None = None) -> dict[str, t.Any]:
        """Stop the updates :meth:`subscribe_resource` asked for.

        :param uri: the resource's URI.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        """
        return result_of(self._sender.request(methods.RESOURCES_UNSUBSCRIBE, {"uri": uri}, timeout=timeout))

    def request(self, method: str, params: dict[str, t.Any] | None = None, *, meta: dict[str, t.Any] | None = None,
                cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Send any request (e.g. a server's custom method); returns the full JSON-RPC response.

        :param method: the JSON-RPC method.
        :param params: its ``params`` (None: none sent).
        :param meta: extra ``_meta`` entries.
        :param cancellation: cancels the request from another thread.
        :param timeout: seconds to wait for the response (None: :attr:`timeout`).
        :raises ServerError: the server answered with an error.
        """
        return self._sender.request(method, params, meta=meta, cancellation=cancellation, timeout=timeout)

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
        and drop what the cache holds for them. A dropped stream, or one the server ends with
        its result (a threaded server takes its thread back), is opened again, with backoff
        and jitter; changes may have gone unannounced meanwhile, so once listening again the
        client tells of each change the filter covers once (``notifications/tools/list_changed``
        for ``tools``, ``notifications/resources/updated`` for each URI...), for handlers to list
        or read again. ``subscription.close()`` (or :meth:`close`) ends it.

        :param tools: ``notifications/tools/list_changed``.
        :param prompts: ``notifications/prompts/list_changed``.
        :param resources: ``notifications/resources/list_changed``.
        :param resource_uris: ``notifications/resources/updated`` for these URIs.
        :param callback: ``callback(method, params)`` for each notification, besides :meth:`on_notification`.
        :param wait: seconds to wait for the server's acknowledgement (None: do not wait).
        :param listen_timeout: seconds a stream may stay silent before it is opened again.
        :raises ValidationError: not connected to a 2026-07-28 server.
        """
        wanted = notification_filter(tools=tools, prompts=prompts, resources=resources, resource_uris=resource_uris)
        subscription = self._sender.era.open_subscription(self._sender, wanted, callback, listen_timeout)
        subscription.deliver = self._handle_notification
        return self._subscriptions.add(subscription, wait)

    def notify(self, method: str, params: dict[str, t.Any] | None = None) -> None:
        """Send any notification.

        :param method: the notification's method (``notifications/...``).
        :param params: its ``params`` (None: none sent).
        """
        self._sender.notify(method, params)

    def notify_roots_list_changed(self) -> None:
        """Tell the server the roots changed (``notifications/roots/list_changed``).

        Nothing to send on MCP 2026-07-28: a server asks for the roots with each request that needs them.
        Roots are deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.
        """
        warn_deprecated("roots")
        self._sender.era.notify_roots_list_changed(self.notify)

    def cancel(self, request_id: str | int, reason: str | None = None) -> None:
        """Send ``notifications/cancelled`` for an in-flight request.

        Passing ``cancellation=`` to a call does this for you, and also stops the wait.

        :param request_id: the JSON-RPC id of the request.
        :param reason: why, for the server's logs.
        """
        self._sender.cancel(request_id, reason)

    def __repr__(self) -> str:
        return f"<Client {self.transport!r} protocol={self.protocol_version!r}>"


def __getattr__(name: str) -> t.Any:
    # requests loads only with the HTTP transport.
    if name == "HTTP":
        from .http import HTTP

        return HTTP
    if name == "MultiServerClient":  # the multi-server client loads only when used
        from . import multi

        return multi.MultiServerClient
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")



def _object(value: t.Any, method: str) -> dict[str, t.Any]:
    if not isinstance(value, dict):
        raise TypeError(f"the {method} handler must return a dict, not {type(value).__name__}")
    return value


__all__ = [
    "Client",
    "ConfigError",
    "HTTP",
    "InMemory",
    "InputRequiredError",
    "ListPromptsResult",
    "ListResourceTemplatesResult",
    "ListResourcesResult",
    "ListToolsResult",
    "MultiServerClient",
    "NameCollisionError",
    "ServerBusyError",
    "ServerError",
    "ServerUnavailableError",
    "Stdio",
    "Subscription",
    "TaskHandle",
    "Tool",
    "Transport",
    "UnknownServerError",
    "ValidationError",
]

