"""The MCP server: registered tools, prompts and resources, answering JSON-RPC.

A :class:`Server` is transport-agnostic and synchronous: transports (:mod:`mcp_sdk.server.transports`)
feed each client connection's :class:`~mcp_sdk.ServerSession`; :meth:`Server.handle` answers one message.
"""

from __future__ import annotations

import typing as t

from .._converter import to_wire
from ..cancellation import Cancellation
from ..configuration import Configuration, configuration as default_configuration
from ..deprecations import warn_deprecated
from ..errors import InvalidNameError, MethodAlreadyDefinedError, RequestHandlerError, ResourceNotFoundError
from ..errors import URLElicitationRequiredError, ValidationError
from ..prompt import Prompt
from ..resource import Resource
from ..resource_template import ResourceTemplate
from .session import ServerSession
from ..tool import Tool
from . import capabilities as capabilities_module
from .composition import Composition, Mount
from .decorators import ResourceReaders, custom_method_registrar, define_registrar, prompt_decorator, tool_decorator
from .dispatch import Dispatcher, Route
from .exception_reporting import report
from .extensions import DeclaredExtensions
from .handler_contexts import HandlerContext, HandlerContexts
from .handlers import ProtocolHandlers
from .lifespan import Lifespan, LifespanFactory
from .middleware.chain import MiddlewareChain, MiddlewareFunction
from .notifications import Broadcast, CatalogChanges
from .requests_2026 import ModernRequests
from .pagination import check_list_options
from .registry import HandlerEntry, Registry
from .batches import answer_batch
from .request import BATCH, NOTIFICATION, REQUEST, RESPONSE, Incoming, Request, is_request
from .session_set import SessionSet
from .subscriptions import InProcessBus, SubscriptionBus
from .task_store import TaskStore
from .tasks import TaskManager
from .visibility import Visibility

F = t.TypeVar("F", bound=t.Callable[..., t.Any])
HC = t.TypeVar("HC", bound="HandlerContext")
M = t.TypeVar("M", bound=MiddlewareFunction)


class Server:
    """An MCP server.

    It holds its collaborators (:class:`~.registry.Registry`, :class:`~.dispatch.Dispatcher`,
    :class:`~.handlers.ProtocolHandlers`, :class:`~.requests_2026.ModernRequests`, :class:`~.tasks.TaskManager`,
    :class:`~.composition.Composition`, :class:`~.notifications.Broadcast`, :class:`~.notifications.CatalogChanges`);
    each sees the server only as the :class:`~.core.ServerCore` it declares, or is given the parts it works with.

    :param name: ``serverInfo.name``.
    :param title: ``serverInfo.title``, a display name.
    :param version: ``serverInfo.version`` (default ``"0.1.0"``).
    :param instructions: ``instructions`` of ``initialize`` and ``server/discover``: how to use the server, for the model.
    :param website_url: ``serverInfo.websiteUrl``.
    :param icons: ``serverInfo.icons``, each ``{"src": ..., "mimeType": ..., "sizes": [...]}``.
    :param description: ``serverInfo.description``.
    :param tools: Tool subclasses (names must be unique).
    :param prompts: Prompt subclasses.
    :param resources: :class:`~mcp_sdk.Resource` objects.
    :param resource_templates: :class:`~mcp_sdk.ResourceTemplate` objects.
    :param server_context: passed (merged with the request's ``_meta``) to handlers
        that declare a ``server_context`` parameter.
    :param configuration: merged over the process-wide default (``mcp_sdk.configure``).
    :param capabilities: replaces the capabilities derived from what is registered.
    :param page_size: split list results into pages of this many items.
    :param ttl_ms: the ``ttlMs`` cache hint of 2026-07-28 ``server/discover`` and list
        results (default a minute), and of ``resources/read`` for resources without their own.
    :param cache_scope: ``"public"`` or ``"private"`` for those results (default: lists and
        discovery public, or private when the caller is authenticated; reads private).
    :param task_store: where the tasks extension keeps tasks (default: in this process's memory).
    :param lifespan: ``fn(server)`` returning a context manager, run once per process around serving;
        what it yields is ``server_context.lifespan`` (see :mod:`.lifespan`).
    :param include_tags: serve only the tools, prompts, resources and templates with one of these ``tags``.
    :param exclude_tags: hide those with any of these ``tags`` (exclusion wins; see :meth:`filter_tags`).
    :raises ToolNotUnique: two tools share a name.
    :raises InvalidNameError: a tool name is not 1-128 characters of ``A-Za-z0-9_-.``.
    """

    ResourceNotFoundError = ResourceNotFoundError
    URLElicitationRequiredError = URLElicitationRequiredError
    MethodAlreadyDefinedError = MethodAlreadyDefinedError
    RequestHandlerError = RequestHandlerError
    ValidationError = ValidationError

    def __init__(  # noqa: size (22 lines are the signature, the Ruby gem's keywords; the rest stores each and builds the parts in the order they need one another)
        self,
        name: str = "model_context_protocol",
        title: str | None = None,
        version: str = "0.1.0",
        instructions: str | None = None,
        website_url: str | None = None,
        icons: list[dict[str, t.Any]] | None = None,
        description: str | None = None,
        tools: t.Iterable[type[Tool]] | None = None,
        prompts: t.Iterable[type[Prompt]] | None = None,
        resources: t.Iterable[Resource] | None = None,
        resource_templates: t.Iterable[ResourceTemplate] | None = None,
        server_context: t.Any = None,
        configuration: Configuration | None = None,
        capabilities: dict[str, t.Any] | None = None,
        page_size: int | None = None,
        ttl_ms: int | None = None,
        cache_scope: str | None = None,
        task_store: TaskStore | None = None,
        lifespan: LifespanFactory | None = None,
        include_tags: t.Iterable[str] | None = None,
        exclude_tags: t.Iterable[str] | None = None,
    ) -> None:
        self.name = name
        self.title = title
        self.version = version
        self.instructions = instructions
        self.website_url = website_url
        self.icons = icons
        self.description = description
        self.server_context = server_context
        self.configuration = default_configuration().merge(configuration)
        self._capabilities = capabilities
        #: Extensions declared with :meth:`declare_extension` (``.declared``, ``.withdraw(name)``).
        self.extensions = DeclaredExtensions()
        check_list_options(page_size, ttl_ms, cache_scope)
        self.page_size, self.ttl_ms, self.cache_scope = page_size, ttl_ms, cache_scope
        #: Carries list changes and resource updates to ``subscriptions/listen`` requests.
        self.subscriptions: SubscriptionBus = InProcessBus()
        #: What the server serves: tools, prompts, resources, templates, handlers.
        self.registry = Registry(
            tools or (), prompts or (), resources or (), resource_templates or (), Visibility(include_tags, exclude_tags)
        )
        #: The ``requestState`` keys shared by every process of the server when the configuration
        #: sets none: a callable returning them, the first signing. ``StreamableHTTPTransport(redis_url=...)``
        #: sets it; None: each process signs with its own random key.
        self.shared_request_state_keys: t.Callable[[], t.Sequence[bytes]] | None = None
        self._sessions = SessionSet(self)
        #: Sends the ``notify_*`` notifications to every client (:mod:`.notifications`).
        self.broadcast = Broadcast(self.registry, lambda: self.subscriptions, self._sessions.snapshot, self.report_exception)
        #: The tasks extension's tasks (``io.modelcontextprotocol/tasks``), kept in ``task_store``.
        self.tasks = TaskManager(self, task_store)
        #: Startup and shutdown around serving (``lifespan=``): transports enter and leave it.
        self.lifespan = Lifespan(lifespan, self)
        #: The middleware around every request's handler (see :meth:`add_middleware`).
        self.middleware = MiddlewareChain(self)
        #: The servers mounted or included here (see :meth:`mount`).
        self.composition = Composition(self.registry, self.broadcast)
        self._dispatcher = Dispatcher(self, self.composition.route(ProtocolHandlers(self, self.tasks).methods()), self.middleware)
        self._modern = ModernRequests(self, self._dispatcher)
        self._resource_readers = ResourceReaders(self.registry)
        self._handler_contexts = HandlerContexts()
        self._changes = CatalogChanges(self.registry, self.broadcast)

    # -- what is registered (read-only views of the registry) ---------------

    @property
    def tools(self) -> dict[str, type[Tool]]:
        """Tool name -> Tool subclass, of the tools served (not disabled or filtered out; a snapshot)."""
        return self.registry.tools

    @property
    def prompts(self) -> dict[str, type[Prompt]]:
        """Prompt name -> Prompt subclass, of the prompts served (not disabled or filtered out; a snapshot)."""
        return self.registry.prompts

    @property
    def resources(self) -> list[Resource]:
        """The listed resources (a snapshot: register with :meth:`add_resource`)."""
        return self.registry.resources

    @property
    def resource_templates(self) -> list[ResourceTemplate]:
        """The listed resource templates (a snapshot: register with :meth:`add_resource_template`)."""
        return self.registry.resource_templates

    @property
    def handlers(self) -> dict[str, HandlerEntry]:
        """Registered handlers: name (``"resources_read"``...) -> (function, signature)."""
        return self.registry.handlers

    # -- identity and capabilities ------------------------------------------

    def server_info(self) -> dict[str, t.Any]:
        """``serverInfo`` in the latest protocol's shape."""
        info: dict[str, t.Any] = {} if self.name is None else {"name": self.name}
        if self.title is not None:
            info["title"] = self.title
        info["version"] = self.version
        if self.description is not None:
            info["description"] = self.description
        if self.website_url is not None:
            info["websiteUrl"] = self.website_url
        if self.icons is not None:
            info["icons"] = to_wire(self.icons)
        return info

    @property
    def capabilities(self) -> dict[str, t.Any]:
        """The server's capabilities: as given to the constructor, else derived from what is
        registered; with the extensions declared by :meth:`declare_extension`."""
        base = self._capabilities if self._capabilities is not None else capabilities_module.derive(self.registry)
        return self.extensions.apply(base)

    def declare_extension(self, name: str, settings: t.Mapping[str, t.Any] | None = None) -> None:
        """Advertise an extension in ``capabilities.extensions``, keeping the rest: see :meth:`.extensions.DeclaredExtensions.declare`.

        :param name: the extension's identifier (``"com.example/search"``, SEP-2133).
        :param settings: its settings object (None: ``{}``).
        """
        self.extensions.declare(name, settings)

    def capabilities_for(self, version: str) -> dict[str, t.Any]:
        """:attr:`capabilities` without what a protocol version does not define.

        :param version: the protocol version a client agreed (``"2025-06-18"``...).
        """
        return capabilities_module.for_version(self.capabilities, version, derived=self._capabilities is None)

    # -- registration --------------------------------------------------------

    def add_tool(self, tool: type[Tool]) -> type[Tool]:
        """Register a Tool subclass after construction (clients are not notified: call
        :meth:`notify_tools_list_changed`); returns it.

        :param tool: the Tool subclass.
        :raises ToolNotUnique: a tool of that name is registered.
        :raises InvalidNameError: its name is not 1-128 characters of ``A-Za-z0-9_-.``.
        """
        return self.registry.add_tool(tool)

    def define_tool(self, name: str | None = None, **metadata: t.Any) -> t.Callable[[F], F]:
        """Decorator: register a function as a tool (:meth:`Tool.define`'s forms and keywords); returns it unchanged.

        :param name: the tool's name (default: the function's).
        :param metadata: :meth:`Tool.define`'s other keywords (``title``, ``description``, ``input_schema``...);
            ``handler=fn`` registers ``fn`` without decorating.
        """
        return define_registrar(self.add_tool, Tool.define, name, metadata)

    def add_prompt(self, prompt: type[Prompt]) -> type[Prompt]:
        """Register a Prompt subclass after construction; returns it.

        :param prompt: the Prompt subclass.
        :raises PromptNotUnique: a prompt of that name is registered.
        """
        return self.registry.add_prompt(prompt)

    def define_prompt(self, name: str | None = None, **metadata: t.Any) -> t.Callable[[F], F]:
        """Decorator: register ``fn(args, server_context=None)`` as a prompt template; returns ``fn``.

        :param name: the prompt's name (default: the function's).
        :param metadata: :meth:`Prompt.define`'s other keywords (``title``, ``description``, ``arguments``...);
            ``handler=fn`` registers ``fn`` without decorating.
        """
        return define_registrar(self.add_prompt, Prompt.define, name, metadata)

    def add_resource(self, resource: Resource) -> Resource:
        """Register a resource after construction; returns it.

        :param resource: the :class:`~mcp_sdk.Resource`.
        """
        return self.registry.add_resource(resource)

    def add_resource_template(self, template: ResourceTemplate) -> ResourceTemplate:
        """Register a resource template after construction; returns it.

        :param template: the :class:`~mcp_sdk.ResourceTemplate`.
        """
        return self.registry.add_resource_template(template)

    # -- changing what is served (:mod:`.notifications`): sends list_changed; unknown names: NotRegisteredError --

    def remove_tool(self, name: str) -> type[Tool]:
        """Unregister a tool and tell clients the list changed; returns it.

        :param name: the tool's name.
        :raises NotRegisteredError: no tool has that name.
        """
        return t.cast("type[Tool]", self._changes.remove("tools", name)[0])

    def disable_tool(self, name: str) -> None:
        """Stop listing and serving a tool (a call answers as for an unknown tool), and tell clients
        the list changed.

        :param name: the tool's name.
        :raises NotRegisteredError: no tool has that name.
        """
        self._changes.set_enabled("tools", name, False)

    def enable_tool(self, name: str) -> None:
        """List and serve a disabled tool again, and tell clients the list changed.

        :param name: the tool's name.
        :raises NotRegisteredError: no tool has that name.
        """
        self._changes.set_enabled("tools", name, True)

    def remove_prompt(self, name: str) -> type[Prompt]:
        """Unregister a prompt and tell clients the list changed; returns it.

        :param name: the prompt's name.
        :raises NotRegisteredError: no prompt has that name.
        """
        return t.cast("type[Prompt]", self._changes.remove("prompts", name)[0])

    def disable_prompt(self, name: str) -> None:
        """As :meth:`disable_tool`, for a prompt.

        :param name: the prompt's name.
        :raises NotRegisteredError: no prompt has that name.
        """
        self._changes.set_enabled("prompts", name, False)

    def enable_prompt(self, name: str) -> None:
        """As :meth:`enable_tool`, for a prompt.

        :param name: the prompt's name.
        :raises NotRegisteredError: no prompt has that name.
        """
        self._changes.set_enabled("prompts", name, True)

    def remove_resource(self, uri: str) -> list[Resource]:
        """Unregister the resources of a URI (reads of it then fail) and tell clients the list
        changed; returns them.

        :param uri: the resources' URI.
        :raises NotRegisteredError: no resource has that URI.
        """
        return self._changes.remove("resources", uri)

    def disable_resource(self, uri: str) -> None:
        """As :meth:`disable_tool`, for a resource (``resources/read`` of it: resource not found).

        :param uri: the resource's URI.
        :raises NotRegisteredError: no resource has that URI.
        """
        self._changes.set_enabled("resources", uri, False)

    def enable_resource(self, uri: str) -> None:
        """As :meth:`enable_tool`, for a resource.

        :param uri: the resource's URI.
        :raises NotRegisteredError: no resource has that URI.
        """
        self._changes.set_enabled("resources", uri, True)

    def remove_resource_template(self, uri_template: str) -> ResourceTemplate:
        """Unregister a resource template (reads of URIs only it matches then fail) and tell clients
        the list changed; returns it.

        :param uri_template: the template's RFC 6570 URI template, as registered.
        :raises NotRegisteredError: no template has that URI template.
        """
        return t.cast(ResourceTemplate, self._changes.remove("resourceTemplates", uri_template)[0])

    def disable_resource_template(self, uri_template: str) -> None:
        """As :meth:`disable_tool`, for a resource template.

        :param uri_template: the template's URI template, as registered.
        :raises NotRegisteredError: no template has that URI template.
        """
        self._changes.set_enabled("resourceTemplates", uri_template, False)

    def enable_resource_template(self, uri_template: str) -> None:
        """As :meth:`enable_tool`, for a resource template.

        :param uri_template: the template's URI template, as registered.
        :raises NotRegisteredError: no template has that URI template.
        """
        self._changes.set_enabled("resourceTemplates", uri_template, True)

    def filter_tags(self, include_tags: t.Iterable[str] | None = None, exclude_tags: t.Iterable[str] | None = None) -> None:
        """Serve only what the tags let through (replacing the filter given before), and tell clients the lists changed.

        :param include_tags: serve only what carries one of these (None: everything).
        :param exclude_tags: hide what carries any of these (exclusion wins).
        :raises TypeError: a tag is not a non-empty string.
        """
        self._changes.filter_tags(include_tags, exclude_tags)

    def mount(self, server: Server, prefix: str | None = None) -> Mount:
        """Serve another server's tools, prompts, resources and templates here, live: what it
        registers later shows too, and its requests are run by it with its own hooks
        (:mod:`.composition`).

        :param server: the server to mount.
        :param prefix: put before its names and in its URIs (``weather_get_alerts``,
            ``weather://weather/alerts``); None mounts them under their own names.
        :return: the :class:`~mcp_sdk.server.composition.Mount`.
        """
        return self.composition.mount(server, prefix)

    def include(self, server: Server, prefix: str | None = None) -> Mount:
        """As :meth:`mount`, but copy what the other server serves now, once: its later changes
        do not show.

        :param server: the server to include.
        :param prefix: as for :meth:`mount`.
        :return: the :class:`~mcp_sdk.server.composition.Mount`.
        """
        return self.composition.mount(server, prefix, live=False)

    @classmethod
    def from_openapi(cls, document: t.Any, **options: t.Any) -> Server:
        """A server calling an HTTP API, from its OpenAPI 3.0/3.1 document: see :func:`mcp_sdk.openapi.from_openapi`.

        :param document: the document: a mapping, JSON or YAML text, or a file path.
        :param options: :func:`~mcp_sdk.openapi.from_openapi`'s keywords (``base_url``, ``route_maps``...) and this class's.
        """
        from ..openapi import from_openapi

        return from_openapi(cls, document, **options)

    @classmethod
    def proxy(
        cls,
        client: t.Any,
        mode: str = "auto",
        *,
        max_remote_sessions: int = 32,
        remote_session_idle_timeout: float = 300.0,
        **options: t.Any,
    ) -> Server:
        """A server serving, live, what ``client``'s server serves, forwarding each caller's requests on
        a remote session of its own, so that nothing the remote does for one caller reaches another
        (:mod:`.proxy`).

        :param client: a :class:`~mcp_sdk.Client` (connected here unless it is), which lists what the
            remote serves and which the callers' sessions copy; or ``fn()`` returning a new one.
        :param mode: how it connects (see :meth:`Client.connect <mcp_sdk.Client.connect>`).
        :param max_remote_sessions: most remote sessions open at once (one per 2025 caller session,
            one per 2026-07-28 request; a stdio remote runs a process each). At the bound a new one
            closes the one idle longest; with every one carrying a call, the call is refused.
        :param remote_session_idle_timeout: seconds a caller's remote session stays open without a call.
        :param options: the keywords of this class's constructor (``name``, ``version``...).
        :raises ProxyError: ``client``'s transport cannot make a copy of itself (pass ``fn()`` instead).
        :raises ValueError: a bound that is not positive.
        """
        from .proxy import Proxy  # on first use: most servers proxy nothing

        bounds = {"max_remote_sessions": max_remote_sessions, "remote_session_idle_timeout": remote_session_idle_timeout}
        return Proxy.build(cls, client, {**options, **bounds}).start(mode)

    def handle_forwarded(self, request: Request) -> dict[str, t.Any] | None:
        """Answer a request forwarded by a server which mounted this one (:mod:`.composition`).

        :param request: the mounting server's :class:`~mcp_sdk.server.request.Request`, its names
            already without the prefix.
        :return: the JSON-RPC response, or None for a notification.
        """
        return self._dispatcher.handle_forwarded(request)

    def add_middleware(self, middleware: M, methods: t.Iterable[str] | str | None = None) -> M:
        """Run a middleware around the handler of every request, after those added before it (see
        :mod:`mcp_sdk.server.middleware`); returns it.

        :param middleware: ``middleware(request, call_next)``, returning the result.
        :param methods: run it only for these JSON-RPC methods (a name or several); None: for all.
        """
        return self.middleware.add(middleware, methods)

    def resources_read_handler(self, function: F) -> F:
        """Register ``fn(params, server_context=None)`` answering ``resources/read``.

        It returns a list of contents (dicts or ``Resource.TextContents``/``BlobContents``);
        raise :class:`Server.ResourceNotFoundError` for an unknown URI.

        :param function: the handler; returned unchanged.
        """
        return self.registry.add_handler("resources_read", function)

    def resources_subscribe_handler(self, function: F) -> F:
        """Register the handler of ``resources/subscribe`` (the server then advertises ``subscribe``).

        :param function: ``function(params, server_context=None)``; returned unchanged.
        """
        return self.registry.add_handler("resources_subscribe", function)

    def resources_unsubscribe_handler(self, function: F) -> F:
        """Register the handler of ``resources/unsubscribe``.

        :param function: ``function(params, server_context=None)``; returned unchanged.
        """
        return self.registry.add_handler("resources_unsubscribe", function)

    def completion_handler(self, function: F) -> F:
        """Register ``fn(params, server_context=None)`` for ``completion/complete``.

        It returns ``{"completion": {"values": [...], "total": n, "hasMore": bool}}``;
        values past 100 are cut off.

        :param function: the handler; returned unchanged.
        """
        return self.registry.add_handler("completion", function)

    def roots_list_changed_handler(self, function: F) -> F:
        """Register a function called on ``notifications/roots/list_changed`` (Roots are deprecated:
        SEP-2577, it warns with :class:`~mcp_sdk.MCPDeprecationWarning`).

        :param function: ``function()``; returned unchanged.
        """
        warn_deprecated("roots")
        return self.registry.add_handler("roots_list_changed", function)

    def define_custom_method(self, method_name: str, handler: t.Callable[..., t.Any] | None = None) -> t.Callable[[F], F]:
        """Decorator: answer the JSON-RPC method ``method_name`` with ``fn(params, server_context=None)``.

        The return value is the ``result``. A notification with that name calls
        ``fn`` and sends nothing.

        :param method_name: the JSON-RPC method.
        :param handler: the function, registered at once (the form without decorator syntax).
        :raises InvalidNameError: ``method_name`` is not a non-empty string.
        :raises MethodAlreadyDefinedError: ``method_name`` is a protocol method or already defined.
        """
        return custom_method_registrar(self.registry, self._dispatcher.reserved, method_name, handler)

    def handler_accepts_server_context(self, method: str, params: t.Any = None) -> bool:
        """Whether the handler that would answer a request declares ``server_context``, and so may
        send progress, logs or requests before its response (a transport then chooses a stream).

        :param method: the request's JSON-RPC method.
        :param params: the request's params; their ``"name"`` picks the tool or prompt of
            ``tools/call`` and ``prompts/get``.
        :return: False for protocol methods the server answers itself, unknown methods, and unknown
            tool or prompt names.
        """
        return self._dispatcher.handler_accepts_server_context(method, params)

    # -- the host application ------------------------------------------------

    def handler_context(self, factory: HC) -> HC:
        """Register ``factory(server_context) -> context manager``, entered around every handler
        on the thread that runs it (see :mod:`mcp_sdk.server.handler_contexts`); returns it.

        For a web framework's context: the handler then runs as a view would (a Flask app
        context, Django's database connection handling). Contexts are entered in the order
        registered and left in reverse; one that fails to enter answers the request with an
        internal error, reported to the ``exception_reporter``.

        :param factory: ``factory(server_context)`` returning a context manager.
        :raises TypeError: ``factory`` is not callable.
        """
        return self._handler_contexts.add(factory)

    @property
    def handler_contexts(self) -> tuple[HandlerContext, ...]:
        """The registered handler contexts, in order."""
        return self._handler_contexts.registered

    # -- decorators ----------------------------------------------------------

    @t.overload
    def tool(self, function: F, /) -> F: ...

    @t.overload
    def tool(self, name: str | None = None, /, **metadata: t.Any) -> t.Callable[[F], F]: ...

    def tool(self, function_or_name: t.Any = None, /, **metadata: t.Any) -> t.Any:
        """Register a function as a tool: ``@server.tool`` or ``@server.tool(name=..., title=...)``.

        Its keyword arguments are the tool's arguments and its type hints their schema
        (``server_context`` passed when declared); the name is the function's, the description
        its docstring. Returns the function unchanged. It is :meth:`Tool.define` with
        ``arguments_dict=False`` by default: ``arguments_dict=True`` gives the function the
        arguments as one dict instead.

        :param function_or_name: the function (``@server.tool``), or the tool's name (None: the function's).
        :param metadata: :meth:`Tool.define`'s other keywords (``title``, ``annotations``, ``output_schema``,
            ``arguments_dict``...).
        """
        return tool_decorator(self.add_tool, function_or_name, metadata)

    @t.overload
    def prompt(self, function: F, /) -> F: ...

    @t.overload
    def prompt(self, name: str | None = None, /, **metadata: t.Any) -> t.Callable[[F], F]: ...

    def prompt(self, function_or_name: t.Any = None, /, **metadata: t.Any) -> t.Any:
        """Register a function as a prompt: ``@server.prompt`` or ``@server.prompt(name=..., title=...)``.

        Its parameters are the prompt's arguments (required when they have no default, described
        from the docstring). It returns a string (one user message), a list of strings or
        ``Prompt.Message`` objects, or a ``Prompt.Result``. Returns the function unchanged.

        :param function_or_name: the function (``@server.prompt``), or the prompt's name (None: the function's).
        :param metadata: :meth:`Prompt.define`'s other keywords (``title``, ``description``, ``meta``...).
        """
        return prompt_decorator(self.add_prompt, function_or_name, metadata)

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
        tags: t.Iterable[str] = (),
    ) -> t.Callable[[F], F]:
        """Register a function that reads a resource: ``@server.resource("config://app")``.

        A URI with RFC 6570 expressions (:mod:`mcp_sdk.resource.uri_template`) is a resource template:
        the variables arrive as keyword arguments, percent-decoded. The function returns a string (text), bytes (a blob), a dict or list (JSON text), or
        ``Resource.TextContents``/``BlobContents``. Reads of other URIs go to a
        ``resources_read_handler`` registered before the first ``@server.resource``.

        :param uri: the resource's URI, or an RFC 6570 URI template.
        :param name: its ``name`` (default: the function's).
        :param title: a display name.
        :param description: what it holds (default: the function's docstring).
        :param mime_type: its ``mimeType``.
        :param tags: the server's labels for it (see ``include_tags``).
        """
        return self._resource_readers.decorator(uri, name, title, description, mime_type, tags)

    # -- sessions ------------------------------------------------------------

    def create_session(
        self, send: t.Callable[[dict[str, t.Any], t.Any], None] | None = None, session_id: str | None = None
    ) -> ServerSession:
        """A new :class:`ServerSession` for a client connection, registered for broadcasts.
        Transports call this.

        :param send: ``send(message, related_request_id)`` writes a message to the client (None:
            messages are dropped).
        :param session_id: the transport's id of the session (``Mcp-Session-Id``), if it has one.
        """
        return self._sessions.create(send, session_id)

    def session_closed(self, session: ServerSession) -> None:
        """Forget a session that closed: it gets no more broadcasts (:meth:`ServerSession.close`
        calls this).

        :param session: the closed session.
        """
        self._sessions.discard(session)

    @property
    def sessions(self) -> list[ServerSession]:
        """The open sessions (a snapshot)."""
        return self._sessions.snapshot()

    # -- handling ------------------------------------------------------------

    def handle_message(
        self,
        message: t.Any,
        session: ServerSession,
        cancellation: Cancellation | None = None,
        *,
        modern: bool | None = None,
        http_request: t.Any = None,
    ) -> t.Any:
        """Answer one decoded message (or batch) a transport read from a client.

        A request carrying the 2026-07-28 ``_meta`` envelope is served statelessly;
        anything else belongs to the session (2024-11-05 to 2025-11-25).

        :param message: the decoded JSON-RPC message, or a list of them.
        :param session: the session the transport read it on.
        :param cancellation: the token :meth:`ServerSession.accept` gave for this request.
        :param modern: True serves a request as 2026-07-28 whatever its ``_meta``.
        :param http_request: the HTTP request that carried it, or a zero-argument callable that
            makes it (handlers read it as ``server_context.request``).
        :return: the response (a dict, or a list for a batch), or None when there is none.
        """
        incoming = Incoming(message, modern, None, http_request, None, cancellation)  # by position: see Incoming
        return self.receive(incoming, session)

    def route(self, incoming: Incoming) -> Route:
        """Resolve the handler of an incoming request, once: the transport learns whether it may
        talk first (:attr:`~.dispatch.Route.talks_first`: it takes ``server_context``, so it may send
        progress, logs or requests before its response), and :meth:`receive` runs it.

        :param incoming: the request (a batch: whether any of its requests' handlers may talk first).
        :return: the route, also kept as ``incoming.route``.
        """
        dispatcher = self._dispatcher
        message = incoming.message
        if type(message) is list:
            talks = any(
                dispatcher.route(item["method"], item.get("params"), talks_first=True).talks_first
                for item in message
                if is_request(item)
            )
            return Route(None, False, talks)
        route = incoming.route = dispatcher.route(incoming.method, incoming.params, talks_first=True)
        return route

    def receive(self, incoming: Incoming, session: ServerSession) -> t.Any:
        """Answer one message a transport read (see :class:`~.request.Incoming`): a request runs its
        handler (its :attr:`~.request.Incoming.route` when the transport routed it), in its era; a
        notification is acted on; a response goes to the request of the session's that waits for it.

        :param incoming: the message, read once by the transport.
        :param session: the connection it came on.
        :return: the response (a dict, or a list for a batch), or None when there is none.
        """
        kind = incoming.kind
        if kind is REQUEST:
            if incoming.modern:
                return self._modern.handle(incoming, session)
            return self._dispatcher.handle_request(incoming, session)
        if kind is NOTIFICATION:
            self._dispatcher.handle_notification(incoming, session)
            return None
        if kind is RESPONSE:
            session.receive_response(incoming.message)
            return None
        if kind is BATCH:
            return answer_batch(incoming, session, self.receive)
        return incoming.error

    def handle(self, request: t.Any) -> t.Any:
        """Answer one decoded JSON-RPC message, on a default session with no transport
        (notifications it would send are dropped).

        :param request: the decoded message.
        :return: the response dict, or None for a notification.
        """
        return self.receive(Incoming(request), self._sessions.default())

    def handle_json(self, text: str | bytes) -> str | None:
        """Answer one JSON-RPC message given as JSON text, as :meth:`handle` does.

        :param text: the message's JSON (str or UTF-8 bytes).
        :return: the response as JSON text, or None for a notification.
        """
        return self._sessions.default().handle_json(text)

    # -- notifications to clients -------------------------------------------

    def notify_tools_list_changed(self) -> None:
        """Tell every connected client (2025 sessions, 2026 listeners) the tool list changed."""
        self.broadcast.list_changed("tools")

    def notify_prompts_list_changed(self) -> None:
        """Tell every connected client (2025 sessions, 2026 listeners) the prompt list changed."""
        self.broadcast.list_changed("prompts")

    def notify_resources_list_changed(self) -> None:
        """Tell every connected client (2025 sessions, 2026 listeners) the resource list changed."""
        self.broadcast.list_changed("resources")

    def notify_resources_updated(self, uri: str) -> None:
        """Tell the 2026-07-28 listeners subscribed to a resource that it changed.

        (2025 sessions are told by the tool that changed it, through
        ``server_context.notify_resources_updated``, which also reaches listeners.)

        :param uri: the resource's URI.
        """
        self.broadcast.publish("resource", uri)

    def close_subscriptions(self) -> None:
        """End every open ``subscriptions/listen`` request gracefully, with a result (transports
        call this when they close)."""
        self.subscriptions.close()

    def notify_log_message(self, data: t.Any, level: str, logger: str | None = None) -> None:
        """Send a log message in ``notifications/message`` to every client whose log level lets it
        through (Logging is deprecated: SEP-2577, it warns with :class:`~mcp_sdk.MCPDeprecationWarning`).

        :param data: the message: a string or any JSON value.
        :param level: its level, one of the eight of RFC 5424 (``"debug"`` to ``"emergency"``).
        :param logger: the name of what logged it, if any.
        :raises ValueError: for a level that is not one of the eight.
        """
        warn_deprecated("logging")
        self.broadcast.log_message(data, level, logger)

    def report_exception(self, error: BaseException, context: dict[str, t.Any]) -> None:
        """Give an exception to the configured ``exception_reporter`` (logged when there is none).

        :param error: the exception.
        :param context: where it happened (``{"request": message}``...); its first key names it in the log.
        """
        report(self.configuration.exception_reporter, error, context)


__all__ = ["Server", "ServerSession"]
