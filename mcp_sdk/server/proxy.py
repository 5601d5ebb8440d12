"""A server in front of a remote server: ``Server.proxy(client)``.

The proxy serves the tools, prompts, resources and resource templates of the server its
:class:`~mcp_sdk.Client` reaches (stdio or HTTP, either era), as that server lists them: its
``list_changed`` notifications (2025) or ``subscriptions/listen`` stream (2026-07-28) make the proxy
list them again and tell its own clients. Requests for them are forwarded (``tools/call``,
``prompts/get``, ``resources/read``, ``completion/complete``), and what the remote server sends while
it works reaches the proxy's client that made the request, through that request's ``server_context``:

- progress, under the progress token of the proxy's client (the remote sees one of the proxy's own);
- log messages, at the level the proxy's client asked for (the remote is asked for all of them);
- ``sampling/createMessage``, ``elicitation/create`` and ``roots/list``: real requests to a 2025
  client; on a 2026-07-28 client, input requests: the proxy's handler ends with ``input_required``,
  the remote call is cancelled, and the client's retry calls the remote again, whose same ask then
  gets the client's answer (so, as for any era-portable handler, the remote's work before its ask
  runs once per round);
- cancellation: the proxy's client cancels, the proxy cancels the remote call.

A remote request carries nothing that names the call it belongs to (a stdio server's
``sampling/createMessage`` has no related request id), so the proxy gives a request from the remote to
the forwarded call in flight on the thread that receives it (a 2026-07-28 remote), else to the only
call in flight. With several in flight it cannot tell whose it is: it refuses the request (the remote
gets an error) rather than ask another client, and drops a log message rather than show it to the
wrong one. Logs sent outside any call go to every client of the proxy.

A proxy is a :class:`~mcp_sdk.Server`: it can be served over any transport, and mounted.
"""

from __future__ import annotations

import itertools
import logging
import threading
import typing as t
import warnings

from .. import error_codes, methods
from ..cancellation import Cancellation
from ..errors import JSONRPCError, MCPDeprecationWarning, MCPError, RequestHandlerError
from ..prompt import Prompt
from ..resource import Resource
from ..resource_template import ResourceTemplate
from ..tool import Tool
from .input_required import InputRequired, required_capability
from .registry import Items, Registry

if t.TYPE_CHECKING:
    from ..server_context import ServerContext

logger = logging.getLogger("mcp_sdk.server")

_PROXY_KEY = "proxy"
_LIST_CHANGED = {
    methods.NOTIFICATIONS_TOOLS_LIST_CHANGED: "tools",
    methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED: "prompts",
    methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED: "resources",
}


class ProxyHost(t.Protocol):
    """What a proxy uses of its :class:`~mcp_sdk.Server`."""

    registry: Registry

    def resources_read_handler(self, function: t.Callable[..., t.Any]) -> t.Any: ...
    def completion_handler(self, function: t.Callable[..., t.Any]) -> t.Any: ...
    def notify_tools_list_changed(self) -> None: ...
    def notify_prompts_list_changed(self) -> None: ...
    def notify_resources_list_changed(self) -> None: ...
    def notify_resources_updated(self, uri: str) -> None: ...
    def notify_log_message(self, data: t.Any, level: str, logger: str | None = None) -> None: ...


class RemoteClient(t.Protocol):
    """What a proxy uses of the :class:`~mcp_sdk.Client` it fronts."""

    @property
    def connected(self) -> bool: ...
    @property
    def era(self) -> str | None: ...
    @property
    def server_capabilities(self) -> dict[str, t.Any] | None: ...
    @property
    def log_level(self) -> str | None: ...
    @log_level.setter
    def log_level(self, level: str | None) -> None: ...
    def connect(self, *, mode: str = "auto") -> dict[str, t.Any]: ...
    def on_sampling(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_elicitation(self, handler: t.Callable[[dict[str, t.Any]], t.Any], *, url: bool = False) -> t.Any: ...
    def on_roots(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_progress(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_log_message(self, handler: t.Callable[[dict[str, t.Any]], t.Any]) -> t.Any: ...
    def on_notification(self, handler: t.Callable[[str, dict[str, t.Any]], t.Any]) -> t.Any: ...
    def listen(self, *, tools: bool = False, prompts: bool = False, resources: bool = False, wait: float | None = 10.0) -> t.Any: ...
    def tools(self) -> list[t.Any]: ...
    def prompts(self) -> list[dict[str, t.Any]]: ...
    def resources(self) -> list[dict[str, t.Any]]: ...
    def resource_templates(self) -> list[dict[str, t.Any]]: ...
    def call_tool(self, name: str, arguments: dict[str, t.Any] | None = None, *, progress_token: str | int | None = None,
                  cancellation: Cancellation | None = None) -> dict[str, t.Any]: ...
    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None) -> dict[str, t.Any]: ...
    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None,
                      cancellation: Cancellation | None = None) -> list[dict[str, t.Any]]: ...
    def complete(self, ref: dict[str, t.Any], argument: dict[str, t.Any], context: dict[str, t.Any] | None = None, *,
                 cancellation: Cancellation | None = None) -> dict[str, t.Any]: ...


class ForwardedCall:
    """One request of the proxy's client being forwarded to the remote server.

    :param context: the request's ``server_context``.
    :param progress_token: the token the remote reports progress under (None: none asked).
    """

    def __init__(self, context: ServerContext, progress_token: str | None) -> None:
        self.context = context
        self.progress_token = progress_token
        self.thread = threading.get_ident()
        #: Cancels the remote call.
        self.remote = Cancellation()
        #: An ask of the remote's that the proxy's (2026-07-28) client must answer first.
        self.input_required: InputRequired | None = None


H = t.TypeVar("H", bound=ProxyHost)


class Proxy(t.Generic[H]):
    """The link between a proxy :class:`~mcp_sdk.Server` and the :class:`~mcp_sdk.Client` it fronts.

    :param server: the proxy server (its items are set here).
    :param client: the client of the remote server (connected by :meth:`start` if it is not).
    """

    def __init__(self, server: H, client: RemoteClient) -> None:
        self.server = server
        self.client = client
        self._lock = threading.Lock()
        self._calls: dict[int, ForwardedCall] = {}  # by order of start
        self._order = itertools.count(1)
        self._generation = itertools.count(1)
        self._items = Items({}, {}, [], [])
        self._listed_at: dict[str, int] = {}  # kind -> the generation its listing in _items began at

    # -- setup ----------------------------------------------------------------

    def start(self, mode: str = "auto") -> H:
        """Take the remote's requests and notifications, connect (in ``mode``, see :meth:`Client.connect
        <mcp_sdk.Client.connect>`) unless connected, and list what the remote serves; returns the server.

        A client connected before declared the capabilities it had then: connected here, it declares
        ``sampling``, ``elicitation`` (form and URL) and ``roots``, to forward them.
        """
        client = self.client
        with warnings.catch_warnings():  # sampling, roots and logging are what the remote may use: forward them
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            client.on_sampling(lambda params: self._ask(methods.SAMPLING_CREATE_MESSAGE, params))
            client.on_elicitation(lambda params: self._ask(methods.ELICITATION_CREATE, params), url=True)
            client.on_roots(lambda params: self._ask(methods.ROOTS_LIST, params))
        client.on_progress(self._progress)
        client.on_log_message(self._log)
        client.on_notification(self._notification)
        if not client.connected:
            client.connect(mode=mode)
        self.server.resources_read_handler(self._read)
        self.server.completion_handler(self._complete)
        capabilities = client.server_capabilities or {}
        if "logging" in capabilities:
            client.log_level = "debug"  # the proxy's sessions filter at their clients' levels
        if client.era == "modern":
            listed = {kind: bool((capabilities.get(kind) or {}).get("listChanged")) for kind in ("tools", "prompts", "resources")}
            if any(listed.values()):
                client.listen(**listed, wait=None)
        self.refresh()
        return self.server

    def refresh(self, kinds: t.Iterable[str] = ("tools", "prompts", "resources")) -> None:
        """List again what the remote serves of ``kinds`` and serve it (requests: not on the client's reader thread).

        Two refreshes may run at once (two list changes): each kind keeps the newest listing begun.
        """
        capabilities = self.client.server_capabilities or {}
        with self._lock:
            begun = next(self._generation)
        listed: dict[str, t.Any] = {}
        if "tools" in kinds:
            tools = self.client.tools() if "tools" in capabilities else []
            listed["tools"] = {tool.name: served for tool in tools if (served := self._tool(tool.to_dict())) is not None}
        if "prompts" in kinds:
            listed["prompts"] = {p["name"]: self._prompt(p) for p in self.client.prompts()} if "prompts" in capabilities else {}
        if "resources" in kinds:
            has = "resources" in capabilities
            listed["resources"] = [_resource(entry) for entry in self.client.resources()] if has else []
            listed["resource_templates"] = [_template(entry) for entry in self._templates()] if has else []
        with self._lock:
            fresh = {kind: items for kind, items in listed.items() if begun > self._listed_at.get(kind, 0)}
            self._listed_at.update((kind, begun) for kind in fresh)
            self._items = items = self._items.replace(**fresh)
            generation = next(self._generation)
        self.server.registry.set_mounted(_PROXY_KEY, generation, items)  # ignored when older than one already set

    def _templates(self) -> list[dict[str, t.Any]]:
        try:
            return self.client.resource_templates()
        except JSONRPCError:  # a server with resources but no templates may not know the method
            return []

    # -- what the proxy serves ----------------------------------------------------

    def _tool(self, entry: dict[str, t.Any]) -> type[Tool] | None:
        """The proxy's tool for the remote's ``tools/list`` entry (None, with a warning: one the SDK cannot serve)."""
        name = entry["name"]

        def call(arguments: dict[str, t.Any], server_context: ServerContext) -> t.Any:  # Any: no output schema implied
            response = self._forward(server_context, lambda call: self.client.call_tool(
                name, arguments, progress_token=call.progress_token, cancellation=call.remote))
            return response["result"]

        try:
            tool: type[Tool] = Tool.define(
                name, title=entry.get("title"), description=entry.get("description"), input_schema=entry.get("inputSchema"),
                output_schema=entry.get("outputSchema"), annotations=entry.get("annotations"), meta=entry.get("_meta"),
                icons=entry.get("icons"), handler=call, arguments_dict=True,
            )
        except MCPError as error:  # a schema the SDK cannot compile (SchemaError): serve the others
            logger.warning("tool %r of the remote server is not served: %s", name, error)
            return None
        return tool

    def _prompt(self, entry: dict[str, t.Any]) -> type[Prompt]:
        name = entry["name"]

        def get(arguments: dict[str, t.Any], server_context: ServerContext) -> dict[str, t.Any]:
            return t.cast("dict[str, t.Any]", self._forward(server_context, lambda call: self.client.get_prompt(
                name, arguments, meta=_progress_meta(call), cancellation=call.remote)))

        prompt: type[Prompt] = Prompt.define(
            name, title=entry.get("title"), description=entry.get("description"), arguments=entry.get("arguments") or [],
            meta=entry.get("_meta"), icons=entry.get("icons"), handler=get,
        )
        return prompt

    def _read(self, params: dict[str, t.Any], server_context: ServerContext) -> list[dict[str, t.Any]]:
        uri = params["uri"]
        return t.cast("list[dict[str, t.Any]]", self._forward(server_context, lambda call: self.client.read_resource(
            uri, meta=_progress_meta(call), cancellation=call.remote)))

    def _complete(self, params: dict[str, t.Any], server_context: ServerContext) -> dict[str, t.Any]:
        completion = self._forward(server_context, lambda call: self.client.complete(
            params["ref"], params["argument"], params.get("context"), cancellation=call.remote))
        return {"completion": completion}

    # -- forwarding -----------------------------------------------------------------

    def _forward(self, context: ServerContext, send: t.Callable[[ForwardedCall], t.Any]) -> t.Any:
        """Run ``send`` (one request to the remote) for the request ``context`` belongs to.

        :raises RequestHandlerError: the remote answered with an error (its code, message and data).
        :raises CancelledError: the proxy's client cancelled the request.
        :raises InputRequired: the remote asked something a 2026-07-28 client answers on its retry.
        """
        order = next(self._order)
        call = ForwardedCall(context, f"proxy-{order}" if context.progress_token is not None else None)

        def cancel(token: Cancellation) -> None:
            call.remote.cancel(token.reason)

        stop = context.cancellation.add_callback(cancel)
        with self._lock:
            self._calls[order] = call
        try:
            outcome = send(call)
        except Exception as error:
            if call.input_required is not None:  # the remote call was ended for it (cancelled, or its ask refused)
                raise call.input_required from None
            if isinstance(error, JSONRPCError):  # the remote's error (a client's ServerError): the same to the proxy's client
                raise RequestHandlerError(error.message, error.data, code=error.code) from None
            raise
        finally:
            stop()
            with self._lock:
                del self._calls[order]
        if call.input_required is not None:  # the remote answered before the cancellation reached it
            raise call.input_required
        return outcome

    def _call(self) -> tuple[ForwardedCall | None, int]:
        """The forwarded call a request or log of the remote's belongs to (see the module docstring),
        None when none is in flight or several are and none runs on this thread; and how many are."""
        me = threading.get_ident()
        with self._lock:
            calls = list(self._calls.values())
        mine = [call for call in calls if call.thread == me]
        if mine:
            return mine[-1], len(calls)
        return (calls[0] if len(calls) == 1 else None), len(calls)

    def _ask(self, method: str, params: dict[str, t.Any]) -> dict[str, t.Any]:
        """The remote's ``method`` request, asked of the proxy's client that made the call it belongs to.

        :raises JSONRPCError: no call is in flight, or its client lacks the capability (-32601), or
            answers on its retry (2026-07-28); the client's own error answer.
        """
        call, in_flight = self._call()
        session = call.context.session if call is not None else None
        if call is None and in_flight > 1:  # asking one of them could show a caller another's request
            raise JSONRPCError(
                f"{method}: {in_flight} requests of the proxy's clients are in flight and nothing tells "
                "which one this belongs to; refused rather than asked of the wrong client",
                error_codes.INVALID_REQUEST,
            )
        if call is None or session is None:
            raise JSONRPCError(f"{method}: no request of the proxy's client is in flight", error_codes.INVALID_REQUEST)
        capability = required_capability({"method": method, "params": params})
        if not session.client_supports(capability):  # as a client without that handler answers
            raise JSONRPCError(f"Method not found: {method} (the proxy's client lacks {capability})", error_codes.METHOD_NOT_FOUND)
        try:
            answer = session.send_request(method, params or None, related_request_id=call.context.request_id,
                                          cancellation=call.context.cancellation)
        except InputRequired as ask:
            if call.thread == threading.get_ident():
                raise  # a 2026-07-28 remote's ask, answered on the calling thread: it ends the call there
            call.input_required = ask  # the calling thread raises it once the remote call has ended
            call.remote.cancel("the proxy's client answers on its retry")
            raise JSONRPCError("The proxy's client will answer on a later request", error_codes.INTERNAL_ERROR) from None
        return t.cast("dict[str, t.Any]", answer)

    def _progress(self, params: dict[str, t.Any]) -> None:
        token = params.get("progressToken")
        with self._lock:
            call = next((call for call in self._calls.values() if call.progress_token == token), None)
        if call is not None and type(params.get("progress")) in (int, float):
            call.context.report_progress(params["progress"], params.get("total"), params.get("message"))

    def _log(self, params: dict[str, t.Any]) -> None:
        level, data, source = params.get("level"), params.get("data"), params.get("logger")
        if type(level) is not str:
            return
        call, in_flight = self._call()
        if call is not None and call.context.session is not None:
            call.context.session.notify_log_message(data, level, source, related_request_id=call.context.request_id)
            return
        if in_flight:  # several calls, none of them known to be its own: shown to nobody rather than the wrong client
            logger.debug("remote log message dropped: %d calls in flight, none known to be its own", in_flight)
            return
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            self.server.notify_log_message(data, level, source)

    def _notification(self, method: str, params: dict[str, t.Any]) -> None:
        kind = _LIST_CHANGED.get(method)
        if kind is not None:
            # Listing is a request: not on the client's reader thread, which must deliver its answer.
            threading.Thread(target=self._changed, args=(kind,), name=f"mcp_sdk-proxy-{kind}-list", daemon=True).start()
        elif method == methods.NOTIFICATIONS_RESOURCES_UPDATED and type(params.get("uri")) is str:
            self.server.notify_resources_updated(params["uri"])

    def _changed(self, kind: str) -> None:
        try:
            self.refresh((kind,))
        except Exception as error:  # the remote went away meanwhile: keep serving what was listed
            logger.warning("the proxy could not list the remote server's %s again: %s", kind, error)
            return
        {"tools": self.server.notify_tools_list_changed, "prompts": self.server.notify_prompts_list_changed,
         "resources": self.server.notify_resources_list_changed}[kind]()


def _progress_meta(call: ForwardedCall) -> dict[str, t.Any] | None:
    return {"progressToken": call.progress_token} if call.progress_token is not None else None


def _resource(entry: dict[str, t.Any]) -> Resource:
    return Resource(uri=entry["uri"], name=entry.get("name", entry["uri"]), title=entry.get("title"),
                    description=entry.get("description"), mime_type=entry.get("mimeType"), size=entry.get("size"),
                    annotations=entry.get("annotations"), icons=entry.get("icons"), meta=entry.get("_meta"))


def _template(entry: dict[str, t.Any]) -> ResourceTemplate:
    return ResourceTemplate(uri_template=entry["uriTemplate"], name=entry.get("name", entry["uriTemplate"]),
                            title=entry.get("title"), description=entry.get("description"), mime_type=entry.get("mimeType"),
                            annotations=entry.get("annotations"), icons=entry.get("icons"), meta=entry.get("_meta"))


__all__ = ["ForwardedCall", "Proxy", "ProxyHost", "RemoteClient"]
