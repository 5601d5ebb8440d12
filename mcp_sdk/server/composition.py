"""Composing servers: ``server.mount(other, prefix="weather")`` and ``server.include(other)``.

A mounted server's tools, prompts, resources and resource templates are served by the
mounting server under ``prefix``, following FastMCP's documented behaviour
(https://gofastmcp.com/servers/composition): a tool or prompt ``get_alerts`` becomes
``weather_get_alerts``, and a URI takes the prefix as the first segment of its path (FastMCP's
current, path-style default): ``weather://alerts/{state}`` becomes ``weather://weather/alerts/{state}``,
``data://users`` becomes ``data://data/users``. Without a prefix the names stay as they are.

A mount is live: what the mounted server serves is read again on each of its changes
(added, removed, disabled, filtered by tags), and its ``notify_*_list_changed`` and
``notify_resources_updated`` reach the mounting server's clients (2025 sessions and 2026-07-28
listeners). Requests for its items (``tools/call``, ``prompts/get``, ``resources/read``,
``resources/subscribe``/``unsubscribe``, ``completion/complete``) run first through the mounting
server's ``around_request`` and middleware, then are forwarded, with the names as the mounted
server knows them, to the mounted server, which runs them through its own handler contexts,
``around_request``, middleware, scopes and handlers, on the same session (progress, logs and
requests to the client reach the client). :meth:`Composition.include` takes what the other server
serves once, a snapshot, and forwards requests for it the same way.

The mounting server's own items win a name: the mounted item is then not served, with a warning on
the ``mcp_sdk.server`` logger (so is one that an earlier mount already serves).
"""

from __future__ import annotations

import itertools
import logging
import re
import threading
import typing as t

import attrs

from .. import methods
from ..errors import CancelledError, RequestHandlerError
from ..prompt import Prompt
from ..resource.uri_template import URITemplate, URITemplateError
from ..tool import Tool
from .notifications import LIST_CHANGED_METHODS
from .registry import Items, Registry
from .request import Request

if t.TYPE_CHECKING:
    from ..resource import Resource
    from ..resource_template import ResourceTemplate
    from .dispatch import Handler
    from .notifications import Broadcast
    from .subscriptions import Event, SubscriptionBus

logger = logging.getLogger("mcp_sdk.server")

_PREFIX = re.compile(r"[A-Za-z0-9_.-]+")
_keys = itertools.count(1)


class Mountable(t.Protocol):
    """What a mount reads of the server it mounts (a :class:`~mcp_sdk.Server`)."""

    name: str
    registry: Registry
    subscriptions: SubscriptionBus
    composition: Composition

    def handle_forwarded(self, request: Request) -> dict[str, t.Any] | None:
        """Run a request forwarded by a server that mounted this one; returns the response."""


def prefixed_name(prefix: str | None, name: str) -> str:
    """``name`` of a tool or prompt under ``prefix``: ``weather_get_alerts``."""
    return f"{prefix}_{name}" if prefix else name


def prefixed_uri(prefix: str | None, uri: str) -> str:
    """``uri`` (or URI template) under ``prefix``, path style: ``weather://alerts`` -> ``weather://weather/alerts``."""
    if not prefix:
        return uri
    scheme, separator, rest = uri.partition("://")
    return f"{scheme}://{prefix}/{rest}" if separator else f"{prefix}/{uri}"


def unprefixed_uri(prefix: str | None, uri: str) -> str | None:
    """The URI :func:`prefixed_uri` made ``uri`` from (None: ``uri`` is not under ``prefix``)."""
    if not prefix:
        return uri
    scheme, separator, rest = uri.partition("://")
    head = f"{prefix}/"
    if separator and rest.startswith(head):
        return f"{scheme}://{rest[len(head):]}"
    if not separator and uri.startswith(head):
        return uri[len(head):]
    return None


class Mount:
    """One server mounted (or included) into another under a prefix.

    :param server: the mounted server.
    :param prefix: the prefix of its names and URIs (None: none).
    :param live: follow its changes (:meth:`Composition.mount`), else take them once (``include``).
    :param registry: the mounting server's registry, which serves the mounted items.
    :param broadcast: tells the mounting server's clients of the mounted server's changes.
    """

    def __init__(self, server: Mountable, prefix: str | None, live: bool, registry: Registry, broadcast: Broadcast) -> None:
        self.registry = registry
        self.broadcast = broadcast
        self.server = server
        self.prefix = prefix
        self.live = live
        #: The key of its items in the mounting server's registry.
        self.key = f"{server.name}#{next(_keys)}"
        self._lock = threading.Lock()
        # Name as served -> (the item served, its name on the mounted server); replaced on each sync.
        self._tools: dict[str, tuple[type[Tool], str]] = {}
        self._prompts: dict[str, tuple[type[Prompt], str]] = {}
        self._resources: dict[str, Resource] = {}
        self._templates: dict[str, ResourceTemplate] = {}
        self._classes: dict[tuple[type[t.Any], str], type[t.Any]] = {}  # prefixed copies, made once
        self._warned: set[tuple[str, str]] = set()
        self._generation = -1  # of the mounted server's items the maps above hold

    def start(self) -> None:
        """Serve what the mounted server serves now; when live, follow it from now on."""
        if self.live:
            self.server.registry.watch(self.sync)
            self.server.subscriptions.subscribe(self._deliver)
        self.sync()

    def sync(self) -> None:
        """Read what the mounted server serves (its visible items) into the mounting server's registry."""
        registry = self.server.registry
        generation = registry.generation  # read first: the items read after it are at least as new
        tools = {prefixed_name(self.prefix, name): (self._copy(tool, "tool_name", name), name) for name, tool in registry.tools.items()}
        prompts = {
            prefixed_name(self.prefix, name): (self._copy(prompt, "prompt_name", name), name)
            for name, prompt in registry.prompts.items()
        }
        resources = {prefixed_uri(self.prefix, r.uri): r for r in registry.resources}
        resources = {uri: r if uri == r.uri else attrs.evolve(r, uri=uri) for uri, r in resources.items()}
        templates = {prefixed_uri(self.prefix, tpl.uri_template): tpl for tpl in registry.resource_templates}
        templates = {u: tpl if u == tpl.uri_template else attrs.evolve(tpl, uri_template=u) for u, tpl in templates.items()}
        with self._lock:
            if generation < self._generation:
                return  # a newer sync ran meanwhile
            self._generation = generation
            self._tools, self._prompts, self._resources, self._templates = tools, prompts, resources, templates
        items = Items(
            {name: tool for name, (tool, _) in tools.items()},
            {name: prompt for name, (prompt, _) in prompts.items()},
            list(resources.values()),
            list(templates.values()),
        )
        self.registry.set_mounted(self.key, generation, items, set(registry.handlers) | registry.mounted_handlers)
        self._warn_unserved()

    def _copy(self, item: type[t.Any], attribute: str, name: str) -> type[t.Any]:
        """The tool or prompt class ``item`` under its prefixed name (a subclass: same metadata and call)."""
        served = prefixed_name(self.prefix, name)
        if served == name:
            return item
        key = (item, served)
        with self._lock:  # one copy per item, whichever sync makes it: routing compares them by identity
            copy = self._classes.get(key)
            if copy is None:
                copy = self._classes[key] = type(item.__name__, (item,), {attribute: served, "__module__": item.__module__})
        return copy

    def _warn_unserved(self) -> None:
        """Warn (once per name) of the items the mounting server serves another of under the same name."""
        registry = self.registry
        unserved = [("tool", name) for name, (tool, _) in self._tools.items() if registry.tools.get(name, tool) is not tool]
        unserved += [("prompt", n) for n, (prompt, _) in self._prompts.items() if registry.prompts.get(n, prompt) is not prompt]
        unserved += [("resource", uri) for uri, r in self._resources.items() if registry.resource(uri) not in (None, r)]
        with self._lock:
            unserved = [entry for entry in unserved if entry not in self._warned]
            self._warned.update(unserved)
        for kind, name in unserved:
            logger.warning(
                "%s %r of mounted server %r is not served: the mounting server or an earlier mount has one of that name",
                kind, name, self.server.name,
            )

    def _deliver(self, event: Event) -> None:
        """A change the mounted server announced: tell the mounting server's clients, in its names."""
        kind, uri = event
        if kind in LIST_CHANGED_METHODS:
            self.broadcast.list_changed(kind)
        elif kind == "resource" and uri is not None:
            self.broadcast.publish("resource", prefixed_uri(self.prefix, uri))

    # -- routing -------------------------------------------------------------------

    def tool(self, name: str, served: t.Any) -> str | None:
        """The mounted server's name of the tool the mounting server serves as ``name`` (``served``), if it is this mount's."""
        entry = self._tools.get(name)
        return entry[1] if entry is not None and entry[0] is served else None

    def prompt(self, name: str, served: t.Any) -> str | None:
        """As :meth:`tool`, for a prompt."""
        entry = self._prompts.get(name)
        return entry[1] if entry is not None and entry[0] is served else None

    def uri(self, uri: str, listed: Resource | None) -> str | None:
        """The mounted server's URI for ``uri`` if this mount answers it: its resource the mounting server lists
        (``listed``), else a URI under its prefix (or, without a prefix, one its templates match)."""
        if listed is not None:
            mine = self._resources.get(uri)  # equal, not identical: two syncs may copy it twice
            return unprefixed_uri(self.prefix, uri) if mine is not None and mine == listed else None
        original = unprefixed_uri(self.prefix, uri)
        if original is None or self.prefix:
            return original
        return original if any(_matches(tpl.uri_template, original) for tpl in self._templates.values()) else None

    def template(self, uri_template: str) -> str | None:
        """The mounted server's URI template (or URI) for a ``completion/complete`` ``ref/resource`` uri."""
        if uri_template in self._templates or uri_template in self._resources:
            return unprefixed_uri(self.prefix, uri_template)
        return None

    def forward(self, request: Request, params: dict[str, t.Any]) -> t.Any:
        """Run ``request`` with ``params`` on the mounted server; returns its ``result``.

        :raises RequestHandlerError: it answered with an error (the same code, message and data).
        :raises CancelledError: it was cancelled (no response).
        """
        forwarded = Request(
            request.session, request.id, request.method, params, request.message, request.cancellation,
            request.inputs, request.http_request,
        )
        response = self.server.handle_forwarded(forwarded)
        if response is None:
            raise CancelledError()
        error = response.get("error")
        if error is not None:
            raise RequestHandlerError(error.get("message"), error.get("data"), code=error.get("code"))
        result = response["result"]
        if request.method == methods.RESOURCES_READ and type(result) is dict and type(result.get("contents")) is list:
            # The contents name the URI the client asked for, as the mounting server lists it.
            contents = [
                {**item, "uri": prefixed_uri(self.prefix, item["uri"])} if type(item) is dict and type(item.get("uri")) is str else item
                for item in result["contents"]
            ]
            result = {**result, "contents": contents}
        return result


def _matches(uri_template: str, uri: str) -> bool:
    try:
        return URITemplate(uri_template).match(uri) is not None
    except URITemplateError:
        return False


class Composition:
    """The servers mounted into one server, and the routing of requests to them.

    :param registry: the registry of the server they are mounted into, which serves their items.
    :param broadcast: tells that server's clients what the mounts change.
    """

    def __init__(self, registry: Registry, broadcast: Broadcast) -> None:
        self.registry = registry
        self.broadcast = broadcast
        self._lock = threading.Lock()
        self._mounts: tuple[Mount, ...] = ()
        # What route() returned and was given: the first mount puts forwarding handlers in the former.
        self._routed: dict[str, Handler] = {}
        self._protocol: dict[str, Handler] = {}

    @property
    def mounts(self) -> tuple[Mount, ...]:
        """The mounts, in the order made."""
        return self._mounts

    def mount(self, server: Mountable, prefix: str | None = None, live: bool = True) -> Mount:
        """Serve ``server``'s items under ``prefix`` (see the module docstring); returns the mount.

        :param live: follow its changes; False takes them once (``include``).
        :raises ValueError: ``prefix`` is not 1 or more of ``A-Za-z0-9_.-``, or mounting would make a cycle.
        :raises TypeError: ``server`` is not a server.
        """
        if prefix is not None and (type(prefix) is not str or not _PREFIX.fullmatch(prefix)):
            raise ValueError(f"prefix must be None or 1 or more of A-Za-z0-9_.-, not {prefix!r}")
        if not isinstance(getattr(server, "composition", None), Composition):
            raise TypeError(f"mount takes a Server, not {server!r}")
        if _reaches(server, self):
            raise ValueError(f"mounting server {server.name!r} here would make a cycle")
        mount = Mount(server, prefix, live, self.registry, self.broadcast)
        with self._lock:
            if not self._mounts:
                self._forward()
            self._mounts = (*self._mounts, mount)
        mount.start()
        for kind in LIST_CHANGED_METHODS:
            self.broadcast.list_changed(kind)
        return mount

    def route(self, protocol_methods: t.Mapping[str, Handler]) -> dict[str, Handler]:
        """The handlers to dispatch to: ``protocol_methods`` until a first server is mounted, which
        puts in this same dict the handlers that forward requests naming a mounted item to its
        server. Until then nothing stands between a request and its handler."""
        self._protocol = dict(protocol_methods)
        self._routed = dict(protocol_methods)
        return self._routed

    def _forward(self) -> None:
        """Route the requests that may name a mounted item through :meth:`_router` (called with
        self._lock held, at the first mount; each replacement is one atomic dict assignment)."""
        finders = {
            methods.TOOLS_CALL: self._tool_call,
            methods.PROMPTS_GET: self._prompt_get,
            methods.RESOURCES_READ: self._resource,
            methods.RESOURCES_SUBSCRIBE: self._resource,
            methods.RESOURCES_UNSUBSCRIBE: self._resource,
            methods.COMPLETION_COMPLETE: self._completion,
        }
        for method, find in finders.items():
            if method in self._protocol:
                self._routed[method] = self._router(self._protocol[method], find)

    def _router(
        self, protocol: Handler, find: t.Callable[[Request, dict[str, t.Any]], tuple[Mount, dict[str, t.Any]] | None]
    ) -> Handler:
        def handler(request: Request) -> t.Any:
            params = request.params
            if self._mounts and type(params) is dict:
                target = find(request, params)
                if target is not None:
                    return target[0].forward(request, target[1])
            return protocol(request)

        return handler

    def _tool_call(self, request: Request, params: dict[str, t.Any]) -> tuple[Mount, dict[str, t.Any]] | None:
        name = params.get("name")
        served = self.registry.tools.get(name) if type(name) is str else None
        for mount in self._mounts if served is not None else ():
            original = mount.tool(t.cast(str, name), served)
            if original is not None:
                request.data["tool_name"] = name
                return mount, {**params, "name": original}
        return None

    def _prompt_get(self, request: Request, params: dict[str, t.Any]) -> tuple[Mount, dict[str, t.Any]] | None:
        name = params.get("name")
        served = self.registry.prompts.get(name) if type(name) is str else None
        for mount in self._mounts if served is not None else ():
            original = mount.prompt(t.cast(str, name), served)
            if original is not None:
                request.data["prompt_name"] = name
                return mount, {**params, "name": original}
        return None

    def _resource(self, request: Request, params: dict[str, t.Any]) -> tuple[Mount, dict[str, t.Any]] | None:
        uri = params.get("uri")
        if type(uri) is not str:
            return None
        original = self._uri(uri)
        if original is None:
            return None
        request.data["resource_uri"] = uri
        return original[0], {**params, "uri": original[1]}

    def _uri(self, uri: str) -> tuple[Mount, str] | None:
        registry = self.registry
        if registry.hides(uri):  # hidden by the mounting server's own visibility: it answers, as for an unknown URI
            return None
        listed = registry.resource(uri)
        if listed is None and any(_matches(tpl.uri_template, uri) for tpl in registry.registered("resourceTemplates")):
            return None  # the mounting server's own template answers it
        for mount in self._mounts:
            original = mount.uri(uri, listed)
            if original is not None:
                return mount, original
        return None

    def _completion(self, request: Request, params: dict[str, t.Any]) -> tuple[Mount, dict[str, t.Any]] | None:
        ref = params.get("ref")
        if type(ref) is not dict:
            return None
        if ref.get("type") == "ref/prompt" and type(ref.get("name")) is str:
            served = self.registry.prompts.get(ref["name"])
            for mount in self._mounts if served is not None else ():
                original = mount.prompt(ref["name"], served)
                if original is not None:
                    return mount, {**params, "ref": {**ref, "name": original}}
        elif ref.get("type") == "ref/resource" and type(ref.get("uri")) is str:
            for mount in self._mounts:
                original = mount.template(ref["uri"])
                if original is not None:
                    return mount, {**params, "ref": {**ref, "uri": original}}
        return None


def _reaches(server: Mountable, composition: Composition) -> bool:
    """Whether ``composition`` is ``server``'s own or that of a server mounted into it, at any depth."""
    return server.composition is composition or any(_reaches(mount.server, composition) for mount in server.composition.mounts)


__all__ = ["Composition", "Mount", "Mountable", "prefixed_name", "prefixed_uri", "unprefixed_uri"]
