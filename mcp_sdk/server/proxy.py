"""A server in front of a remote server: ``Server.proxy(client)``.

The proxy serves the tools, prompts, resources and resource templates of the server its
:class:`~mcp_sdk.Client` reaches (stdio or HTTP, either era), as that server lists them: its
``list_changed`` notifications (2025) or ``subscriptions/listen`` stream (2026-07-28) make the proxy
list them again and tell its own clients. The client given is the proxy's *catalog* session: it
lists, and carries no caller's request.

Requests for the items (``tools/call``, ``prompts/get``, ``resources/read``,
``completion/complete``) are forwarded each on a session of its caller's own with the remote
(:mod:`.remote_sessions`): one per downstream 2025 session, one per request for a 2026-07-28 (or
stateless) caller, so no state the remote keeps for one caller (what it was told, what it asked)
reaches another. The proxy opens them with a new client like the given one (its transport's
:meth:`~mcp_sdk.client.transport.Transport.replica`: a new process for stdio, a new HTTP session),
or with ``fn()`` when ``Server.proxy(fn)`` is given a function returning a new client. They are
bounded: ``Server.proxy(client, max_remote_sessions=32, remote_session_idle_timeout=300.0)``.

What the remote sends while it works reaches only the proxy's client that made the request, through
that request's ``server_context`` (:mod:`.remote_session` says how a message is tied to its call, and
what happens to one that cannot be: refused or dropped, and logged, never given to anyone else):

- progress, under the progress token of the proxy's client (the remote sees one of the proxy's own);
- log messages, at the level the proxy's client asked for (the remote is asked for all of them);
- ``sampling/createMessage``, ``elicitation/create`` and ``roots/list``: real requests to a 2025
  client; on a 2026-07-28 client, input requests: the proxy's handler ends with ``input_required``,
  the remote call is cancelled, and the client's retry calls the remote again, whose same ask then
  gets the client's answer (so, as for any era-portable handler, the remote's work before its ask
  runs once per round);
- cancellation: the proxy's client cancels, the proxy cancels the remote call (and retires that
  remote session, see :mod:`.remote_sessions`).

Log messages the remote sends on the catalog session go to every client of the proxy.

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
from ..client.transport import Transport
from ..errors import JSONRPCError, MCPDeprecationWarning, MCPError, RequestHandlerError
from ..protocol_version import is_modern
from ..prompt import Prompt
from ..resource import Resource
from ..resource_template import ResourceTemplate
from ..tool import Tool
from .registry import Items
from .remote_session import ForwardedCall, RemoteClient
from .remote_sessions import MAX_REMOTE_SESSIONS, REMOTE_SESSION_IDLE_TIMEOUT, RemoteSessions

if t.TYPE_CHECKING:
    from .channel import Channel
    from .context import ServerContext
    from .core import ServerCore

logger = logging.getLogger("mcp_sdk.server")

_PROXY_KEY = "proxy"
_LIST_CHANGED = {
    methods.NOTIFICATIONS_TOOLS_LIST_CHANGED: "tools",
    methods.NOTIFICATIONS_PROMPTS_LIST_CHANGED: "prompts",
    methods.NOTIFICATIONS_RESOURCES_LIST_CHANGED: "resources",
}


#: The proxy server's class (:meth:`Proxy.build` makes one, :meth:`Proxy.start` returns it).
H = t.TypeVar("H", bound="ServerCore")


class ProxyError(MCPError, TypeError):
    """``Server.proxy`` was given a client it cannot open more sessions like (its transport has no
    :meth:`~mcp_sdk.client.transport.Transport.replica`): give it ``fn()`` returning a new client instead."""


class Proxy(t.Generic[H]):
    """The link between a proxy :class:`~mcp_sdk.Server` and the :class:`~mcp_sdk.Client` it fronts.

    :param server: the proxy server (its items are set here).
    :param client: the catalog client of the remote server, which lists (connected by :meth:`start` if it is not).
    :param factory: ``factory()`` returns a new, unconnected client of the remote server, for the callers' sessions.
    :param max_remote_sessions: most callers' sessions with the remote open at once (see :mod:`.remote_sessions`).
    :param remote_session_idle_timeout: seconds a downstream session's remote session stays open without a call.
    """

    def __init__(
        self,
        server: H,
        client: RemoteClient,
        factory: t.Callable[[], RemoteClient],
        *,
        max_remote_sessions: int = MAX_REMOTE_SESSIONS,
        remote_session_idle_timeout: float = REMOTE_SESSION_IDLE_TIMEOUT,
    ) -> None:
        self.server = server
        self.client = client
        self.factory = factory
        self.max_remote_sessions = max_remote_sessions
        self.remote_session_idle_timeout = remote_session_idle_timeout
        #: The callers' sessions with the remote (set by :meth:`start`).
        self.sessions: RemoteSessions | None = None
        self._lock = threading.Lock()
        self._order = itertools.count(1)
        self._generation = itertools.count(1)
        self._items = Items({}, {}, [], [])
        self._listed_at: dict[str, int] = {}  # kind -> the generation its listing in _items began at
        # kind -> a listing thread runs for it; True: a change was announced since its listing began
        self._relisting: dict[str, bool] = {}

    @classmethod
    def build(cls, server_class: t.Callable[..., H], client: t.Any, options: dict[str, t.Any]) -> Proxy[H]:
        """The proxy of ``Server.proxy(client, **options)``: ``client`` a :class:`~mcp_sdk.Client` (the catalog,
        and the model of the callers' sessions) or ``fn()`` returning a new one; ``options`` the proxy's
        keywords (``max_remote_sessions``, ``remote_session_idle_timeout``) and ``server_class``'s.

        :raises ProxyError: ``client``'s transport cannot make a replica of itself.
        """
        bounds = {key: options.pop(key) for key in ("max_remote_sessions", "remote_session_idle_timeout") if key in options}
        if callable(client):
            return cls(server_class(**options), client(), client, **bounds)
        return cls(server_class(**options), client, replicas_of(client), **bounds)

    # -- setup ----------------------------------------------------------------

    def start(self, mode: str = "auto") -> H:
        """Take the catalog's notifications, connect it (in ``mode``, see :meth:`Client.connect
        <mcp_sdk.Client.connect>`) unless connected, and list what the remote serves; returns the server.

        The catalog and the callers' sessions declare ``sampling``, ``elicitation`` (form and URL) and
        ``roots`` (the callers' sessions forward them; the catalog, which carries no call, refuses them);
        a catalog connected before declared what it had then. The callers' sessions speak the catalog's era.
        """
        client = self.client
        with warnings.catch_warnings():  # declared as the callers' sessions declare them: a remote may list by them
            warnings.simplefilter("ignore", MCPDeprecationWarning)
            client.on_sampling(lambda params: _refused(methods.SAMPLING_CREATE_MESSAGE))
            client.on_elicitation(lambda params: _refused(methods.ELICITATION_CREATE), url=True)
            client.on_roots(lambda params: _refused(methods.ROOTS_LIST))
        client.on_log_message(self._log)
        client.on_notification(self._notification)
        if not client.connected:
            client.connect(mode=mode)
        self.sessions = RemoteSessions(self.factory, "modern" if client.era == "modern" else "legacy",
                                       max_sessions=self.max_remote_sessions, idle_timeout=self.remote_session_idle_timeout)
        self.server.registry.add_handler("resources_read", self._read)
        self.server.registry.add_handler("completion", self._complete)
        capabilities = client.server_capabilities or {}
        if "logging" in capabilities:
            client.log_level = "debug"  # the proxy's sessions filter at their clients' levels
        if client.era == "modern":
            listed = {kind: bool((capabilities.get(kind) or {}).get("listChanged")) for kind in ("tools", "prompts", "resources")}
            if any(listed.values()):
                client.listen(**listed, wait=None)
        self.refresh()
        return self.server

    def close(self) -> None:
        """Close the callers' sessions with the remote (the catalog client is the caller's to close)."""
        if self.sessions is not None:
            self.sessions.close()

    def refresh(self, kinds: t.Iterable[str] = ("tools", "prompts", "resources")) -> None:
        """List again what the remote serves of ``kinds`` and serve it (requests: not on the client's reader thread).

        Two refreshes may run at once (two list changes): each kind keeps the newest listing begun.
        """
        with self._lock:
            begun = next(self._generation)
        self._serve(self._list(kinds), begun)

    def _list(self, kinds: t.Iterable[str]) -> dict[str, t.Any]:
        """What the remote serves now of ``kinds``, by field of :class:`~.registry.Items` (none of a kind
        the remote does not declare in its capabilities)."""
        capabilities = self.client.server_capabilities or {}
        listed: dict[str, t.Any] = {}
        if "tools" in kinds:
            listed["tools"] = self._list_tools() if "tools" in capabilities else {}
        if "prompts" in kinds:
            listed["prompts"] = {p["name"]: self._prompt(p) for p in self.client.prompts()} if "prompts" in capabilities else {}
        if "resources" in kinds:
            has = "resources" in capabilities
            listed["resources"] = [_resource(entry) for entry in self.client.resources()] if has else []
            listed["resource_templates"] = [_template(entry) for entry in self._templates()] if has else []
        return listed

    def _list_tools(self) -> dict[str, type[Tool]]:
        """The remote's tools as the proxy serves them, by name (without those it cannot serve)."""
        served = {}
        for tool in self.client.tools():
            proxied = self._tool(tool.to_dict())
            if proxied is not None:
                served[tool.name] = proxied
        return served

    def _serve(self, listed: dict[str, t.Any], begun: int) -> None:
        """Serve what a listing begun at generation ``begun`` found: of each kind, unless what is served
        of it now comes from a listing begun later."""
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
            response = self._forward(server_context, lambda remote, call: remote.call_tool(
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
            return t.cast("dict[str, t.Any]", self._forward(server_context, lambda remote, call: remote.get_prompt(
                name, arguments, meta=_progress_meta(call), cancellation=call.remote)))

        prompt: type[Prompt] = Prompt.define(
            name, title=entry.get("title"), description=entry.get("description"), arguments=entry.get("arguments") or [],
            meta=entry.get("_meta"), icons=entry.get("icons"), handler=get,
        )
        return prompt

    def _read(self, params: dict[str, t.Any], server_context: ServerContext) -> list[dict[str, t.Any]]:
        uri = params["uri"]
        return t.cast("list[dict[str, t.Any]]", self._forward(server_context, lambda remote, call: remote.read_resource(
            uri, meta=_progress_meta(call), cancellation=call.remote)))

    def _complete(self, params: dict[str, t.Any], server_context: ServerContext) -> dict[str, t.Any]:
        completion = self._forward(server_context, lambda remote, call: remote.complete(
            params["ref"], params["argument"], params.get("context"), cancellation=call.remote))
        return {"completion": completion}

    # -- forwarding -----------------------------------------------------------------

    def _forward(self, context: ServerContext, send: t.Callable[[RemoteClient, ForwardedCall], t.Any]) -> t.Any:
        """Run ``send`` (one request to the remote, on the caller's own remote session) for the request ``context`` belongs to.

        :raises RequestHandlerError: the remote answered with an error (its code, message and data);
            :class:`~.remote_sessions.TooManyRemoteSessionsError`: no remote session can be opened now.
        :raises CancelledError: the proxy's client cancelled the request.
        :raises InputRequired: the remote asked something a 2026-07-28 client answers on its retry.
        """
        assert self.sessions is not None, "Proxy.start() first"
        session = self.sessions.acquire(_owner(context))
        order = next(self._order)
        call = ForwardedCall(context, f"proxy-{order}" if context.progress_token is not None else None)

        def cancel(token: Cancellation) -> None:
            call.remote.cancel(token.reason)

        stop = context.cancellation.add_callback(cancel)
        key = session.begin(call)
        answered = False  # whether the remote answered: else it may still be working on the call
        try:
            assert session.client is not None
            outcome = send(session.client, call)
            answered = True
        except Exception as error:
            if call.input_required is not None:  # the remote call was ended for it (cancelled, or its ask refused)
                raise call.input_required from None
            if isinstance(error, JSONRPCError):  # the remote's error (a client's ServerError): the same to the proxy's client
                answered = True
                raise RequestHandlerError(error.message, error.data, code=error.code) from None
            raise
        finally:
            stop()
            session.end(key, abandoned=not answered)
            self.sessions.release(session, abandoned=not answered)
        if call.input_required is not None:  # the remote answered before the cancellation reached it
            raise call.input_required
        return outcome

    def _log(self, params: dict[str, t.Any]) -> None:
        """A log message on the catalog session, which carries no caller's request: to every client of the proxy."""
        level, data, source = params.get("level"), params.get("data"), params.get("logger")
        if level not in methods.LOG_SEVERITY:
            return
        # Straight to the broadcast: Server.notify_log_message warns that Logging is deprecated, and
        # relaying the remote's log is not this code using it.
        self.server.broadcast.log_message(data, level, source)

    def _notification(self, method: str, params: dict[str, t.Any]) -> None:
        kind = _LIST_CHANGED.get(method)
        if kind is not None:
            self._list_again(kind)
        elif method == methods.NOTIFICATIONS_RESOURCES_UPDATED and type(params.get("uri")) is str:
            self.server.notify_resources_updated(params["uri"])

    def _list_again(self, kind: str) -> None:
        """List ``kind`` again on a thread of its own: listing is a request, and the client's reader
        thread, which delivered the change, must deliver its answer. One thread per kind at most, so a
        remote announcing changes faster than they are listed costs no more threads: changes announced
        while it lists make it list once more."""
        with self._lock:
            if kind in self._relisting:
                self._relisting[kind] = True
                return
            self._relisting[kind] = False
        threading.Thread(target=self._relist, args=(kind,), name=f"mcp_sdk-proxy-{kind}-list", daemon=True).start()

    def _relist(self, kind: str) -> None:
        while True:
            self._changed(kind)
            with self._lock:
                if not self._relisting[kind]:  # no change announced since this listing began
                    del self._relisting[kind]
                    return
                self._relisting[kind] = False

    def _changed(self, kind: str) -> None:
        try:
            self.refresh((kind,))
        except Exception as error:  # the remote went away meanwhile: keep serving what was listed
            logger.warning("the proxy could not list the remote server's %s again: %s", kind, error)
            return
        self.server.broadcast.list_changed(kind)


def _refused(method: str) -> t.NoReturn:
    """The answer to a request of the remote's on the catalog session, which carries no caller's call."""
    logger.warning("the remote server's %s on the proxy's catalog session refused: it carries no call", method)
    raise JSONRPCError(f"{method}: this session of the proxy carries no call; refused", error_codes.INVALID_REQUEST)


def _owner(context: ServerContext) -> Channel | None:
    """The downstream session a call's remote session belongs to: its caller's 2025 session; None (a remote
    session for this request alone) for a 2026-07-28 request or a stateless POST, whose channel lives for one request."""
    session = context.session
    if session is None or not session.keeps_log_level or is_modern(session.protocol_version):
        return None
    return session


def replicas_of(client: t.Any) -> t.Callable[[], RemoteClient]:
    """``fn()`` returning a new client like ``client`` (its class and settings) on a replica of its transport.

    :raises ProxyError: ``client`` has no transport, or one that cannot make a replica of itself.
    """
    transport = getattr(client, "transport", None)
    if not isinstance(transport, Transport) or type(transport).replica is Transport.replica:
        raise ProxyError(
            f"Server.proxy cannot open sessions like {client!r} (its transport has no replica()): "
            "pass a function returning a new Client instead"
        )

    def replica() -> RemoteClient:
        return t.cast("RemoteClient", type(client)(
            transport.replica(), timeout=client.timeout, validate_structured_content=client.validate_structured_content,
            max_pages=client.max_pages, max_input_rounds=client.max_input_rounds,
        ))

    return replica


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


__all__ = ["ForwardedCall", "Proxy", "ProxyError", "RemoteClient", "replicas_of"]
