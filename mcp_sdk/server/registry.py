"""What a server serves: its tools, prompts, resources, resource templates and handlers.

A :class:`Registry` belongs to one :class:`~mcp_sdk.Server`, which reads, adds,
removes, enables and disables through it. Its public collections (``tools``,
``prompts``...) are what clients see: what is registered, less what the
:class:`~.visibility.Visibility` hides (disabled items, tag filters). Each collection
is replaced, never changed in place, on every change, so a reader takes no lock and
sees a consistent collection; one lock orders the writers. The items of servers mounted into
this one (:mod:`.composition`) are served after its own, under its visibility, and watchers
(:meth:`Registry.watch`) hear of every change. The registry also keeps the list results it built (``tools/list`` and
the others, per protocol version) until the next change.
"""

from __future__ import annotations

import threading
import typing as t

from .. import protocol_version as versions
from .._signature import Signature
from ..errors import MethodAlreadyDefinedError, NotRegisteredError, PromptNotUnique, ToolNotUnique
from ..prompt import Prompt
from ..resource import Resource
from ..resource_template import ResourceTemplate
from ..tool import Tool, check_has_call, validate_name
from .visibility import Visibility, template_matcher

#: A registered handler: the function and its signature.
HandlerEntry = t.Tuple[t.Callable[..., t.Any], Signature]
_Handler = t.TypeVar("_Handler", bound=t.Callable[..., t.Any])

#: The list kinds, with the name of one item's kind in :mod:`mcp_sdk.protocol_version`.
LIST_KINDS = {"tools": "tool", "prompts": "prompt", "resources": "resource", "resourceTemplates": "resource_template"}


def check_tool(tool: t.Any) -> None:
    """Check that ``tool`` can be registered.

    :raises TypeError: it is not a :class:`~mcp_sdk.Tool` subclass.
    :raises InvalidNameError: its name is not 1-128 characters of ``A-Za-z0-9_-.``.
    :raises DefinitionError: it has no ``call``.
    """
    if not (isinstance(tool, type) and issubclass(tool, Tool)):
        raise TypeError(f"tools must be Tool subclasses, not {tool!r}")
    validate_name(tool.tool_name)
    check_has_call(tool)


class Registry:
    """The registered items of one server (see the module docstring).

    :param tools: Tool subclasses (names must be unique).
    :param prompts: Prompt subclasses (names must be unique).
    :param resources: :class:`~mcp_sdk.Resource` objects.
    :param resource_templates: :class:`~mcp_sdk.ResourceTemplate` objects.
    :param visibility: the items hidden from the start (tag filters).
    :raises ToolNotUnique: two tools share a name.
    :raises PromptNotUnique: two prompts share a name.
    """

    def __init__(
        self,
        tools: t.Iterable[type[Tool]] = (),
        prompts: t.Iterable[type[Prompt]] = (),
        resources: t.Iterable[Resource] = (),
        resource_templates: t.Iterable[ResourceTemplate] = (),
        visibility: Visibility | None = None,
    ) -> None:
        self._lock = threading.Lock()
        registered_tools: dict[str, type[Tool]] = {}
        for tool in tools:
            check_tool(tool)
            _require_new_tool(tool, registered_tools)
            registered_tools[tool.tool_name] = tool
        registered_prompts: dict[str, type[Prompt]] = {}
        for prompt in prompts:
            _require_new_prompt(prompt, registered_prompts)
            registered_prompts[prompt.prompt_name] = prompt
        # Everything registered, shown or not; the attributes below are what clients see.
        self._registered = _Registered(registered_tools, registered_prompts, list(resources), list(resource_templates))
        self._visibility = visibility or Visibility()
        # Resources and templates removed: a reader registered for them (``@server.resource``)
        # must not serve them any more (they show again when added again).
        self._removed: frozenset[tuple[str, str]] = frozenset()
        #: Tool name -> Tool subclass: the tools served (registered, enabled, let through by the tag filters).
        self.tools: dict[str, type[Tool]] = {}
        #: Prompt name -> Prompt subclass: the prompts served.
        self.prompts: dict[str, type[Prompt]] = {}
        #: The resources listed.
        self.resources: list[Resource] = []
        #: The resource templates listed.
        self.resource_templates: list[ResourceTemplate] = []
        self._hidden_uris: frozenset[str] = frozenset()
        self._hidden_templates: tuple[t.Callable[[str], bool], ...] = ()
        self._shown_templates: tuple[t.Callable[[str], bool], ...] = ()
        #: Protocol handlers the user registered: name (``"resources_read"``...) -> entry.
        self.handlers: dict[str, HandlerEntry] = {}
        #: Custom JSON-RPC methods: method name -> entry.
        self.custom_methods: dict[str, HandlerEntry] = {}
        self._listings: dict[tuple[str, str], list[dict[str, t.Any]]] = {}
        self._listings_generation = 0  # bumped on every change, so a listing built meanwhile is not cached
        # Items of mounted servers (:mod:`.composition`): mount key -> (their generation, items), in mount order.
        self._mounted: dict[str, tuple[int, _Registered, frozenset[str]]] = {}
        #: The handler names (``"completion"``, ``"resources_subscribe"``...) some mounted server registered.
        self.mounted_handlers: frozenset[str] = frozenset()
        self._watchers: tuple[t.Callable[[], None], ...] = ()
        self._show()

    # -- adding --------------------------------------------------------------

    def add_tool(self, tool: type[Tool]) -> type[Tool]:
        """Add a Tool subclass.

        :raises ToolNotUnique: a tool of that name is registered (shown or not).
        """
        with self._lock:
            check_tool(tool)
            _require_new_tool(tool, self._registered.tools)
            self._registered = self._registered.replace(tools={**self._registered.tools, tool.tool_name: tool})
            self._changed()
        self._tell_watchers()
        return tool

    def add_prompt(self, prompt: type[Prompt]) -> type[Prompt]:
        """Add a Prompt subclass.

        :raises PromptNotUnique: a prompt of that name is registered (shown or not).
        """
        with self._lock:
            _require_new_prompt(prompt, self._registered.prompts)
            self._registered = self._registered.replace(prompts={**self._registered.prompts, prompt.prompt_name: prompt})
            self._changed()
        self._tell_watchers()
        return prompt

    def add_resource(self, resource: Resource) -> Resource:
        """Add a resource."""
        with self._lock:
            self._registered = self._registered.replace(resources=[*self._registered.resources, resource])
            self._removed -= {("resources", resource.uri)}
            self._changed()
        self._tell_watchers()
        return resource

    def add_resource_template(self, template: ResourceTemplate) -> ResourceTemplate:
        """Add a resource template."""
        with self._lock:
            self._registered = self._registered.replace(resource_templates=[*self._registered.resource_templates, template])
            self._removed -= {("resourceTemplates", template.uri_template)}
            self._changed()
        self._tell_watchers()
        return template

    # -- changing what is shown (see :mod:`.visibility`) -----------------------

    def remove(self, kind: str, name: str) -> list[t.Any]:
        """Unregister the items of ``kind`` (a key of :data:`LIST_KINDS`) named ``name``
        (tool or prompt name, resource URI, URI template).

        :return: what was removed (one tool or prompt; every resource of that URI).
        :raises NotRegisteredError: none is registered.
        """
        with self._lock:
            registered = self._registered
            removed = [item for item in registered.items(kind) if _key(kind, item) == name]
            if not removed:
                raise NotRegisteredError(LIST_KINDS[kind].replace("_", " "), name)
            self._registered = registered.without(kind, name)
            self._visibility = self._visibility.forgetting(kind, name)
            if kind in ("resources", "resourceTemplates"):
                self._removed |= {(kind, name)}
            self._changed()
        self._tell_watchers()
        return removed

    def set_enabled(self, kind: str, name: str, enabled: bool) -> bool:
        """Enable or disable the item of ``kind`` named ``name`` (a disabled item is neither listed nor served).

        :return: whether that changed anything.
        :raises NotRegisteredError: none is registered.
        """
        with self._lock:
            if not any(_key(kind, item) == name for item in self._registered.items(kind)):
                raise NotRegisteredError(LIST_KINDS[kind].replace("_", " "), name)
            if ((kind, name) not in self._visibility.disabled) == enabled:
                return False
            self._visibility = self._visibility.with_enabled(kind, name, enabled)
            self._changed()
        self._tell_watchers()
        return True

    def filter_tags(self, include_tags: t.Iterable[str] | None, exclude_tags: t.Iterable[str] | None) -> None:
        """Serve only the items the tag filters let through (see :class:`.visibility.Visibility`).

        :raises TypeError: a tag is not a non-empty string.
        """
        filters = Visibility(include_tags, exclude_tags)  # checked before the lock is taken
        with self._lock:
            self._visibility = Visibility(filters.include_tags, filters.exclude_tags, self._visibility.disabled)
            self._changed()
        self._tell_watchers()

    @property
    def visibility(self) -> Visibility:
        """The disabled items and tag filters in effect."""
        return self._visibility

    def registered(self, kind: str) -> list[t.Any]:
        """Every item of ``kind`` registered, shown or not (a snapshot)."""
        return list(self._registered.items(kind))

    def has_registered(self, kind: str) -> bool:
        """Whether any item of ``kind`` is registered, shown or not, here or on a mounted server."""
        return bool(self._registered.items(kind)) or any(items.items(kind) for _, items, _ in self._mounted.values())

    # -- mounted servers (see :mod:`.composition`) -------------------------------

    def set_mounted(
        self, key: str, generation: int, items: Items | None, handlers: t.AbstractSet[str] = frozenset()
    ) -> None:
        """Serve ``items`` (already prefixed) for the mounted server ``key``, under this registry's
        visibility and after its own items (which win a name); None: no more.

        :param generation: the mounted server's :attr:`generation` they were taken at: items older
            than those already set are ignored (two changes may sync at once).
        :param handlers: the names of the handlers the mounted server registered.
        """
        with self._lock:
            if items is None:
                self._mounted.pop(key, None)
            elif key in self._mounted and self._mounted[key][0] > generation:
                return
            else:
                self._mounted[key] = (generation, items, frozenset(handlers))
            self.mounted_handlers = frozenset(name for _, _, names in self._mounted.values() for name in names)
            self._changed()
        self._tell_watchers()

    def watch(self, callback: t.Callable[[], None]) -> t.Callable[[], None]:
        """Call ``callback()`` after every change of what is served (outside the lock, on the changing
        thread); returns the function that stops it."""
        with self._lock:
            self._watchers = (*self._watchers, callback)

        def unwatch() -> None:
            with self._lock:
                self._watchers = tuple(watcher for watcher in self._watchers if watcher is not callback)

        return unwatch

    def _tell_watchers(self) -> None:
        for watcher in self._watchers:
            watcher()

    @property
    def generation(self) -> int:
        """A number that changes whenever what is served changes (for caches of list and read results)."""
        return self._listings_generation

    def add_handler(self, name: str, function: _Handler) -> _Handler:
        """Set the handler ``name`` (``"resources_read"``, ``"completion"``...); returns ``function``.

        :raises TypeError: ``function`` is not callable.
        """
        if not callable(function):
            raise TypeError(f"{name} handler must be callable")
        with self._lock:
            self.handlers = {**self.handlers, name: (function, Signature(function))}
        return function

    def add_custom_method(
        self, method: str, function: t.Callable[..., t.Any], reserved: t.Callable[[str], bool]
    ) -> None:
        """Answer the JSON-RPC method ``method`` with ``function``.

        :param reserved: says whether a method name belongs to the protocol.
        :raises MethodAlreadyDefinedError: ``method`` is reserved or already defined.
        """
        with self._lock:
            if reserved(method) or method in self.custom_methods:
                raise MethodAlreadyDefinedError(method)
            self.custom_methods = {**self.custom_methods, method: (function, Signature(function))}

    # -- reading -------------------------------------------------------------

    def hides(self, uri: str) -> bool:
        """Whether ``uri`` belongs to a resource, or may belong to a resource template, that is
        registered but not shown (then ``resources/read`` answers as for an unknown URI)."""
        if uri in self._hidden_uris:
            return True
        if not self._hidden_templates or self.resource(uri) is not None:
            return False
        if not any(matches(uri) for matches in self._hidden_templates):
            return False
        return not any(matches(uri) for matches in self._shown_templates)

    def resource(self, uri: str) -> Resource | None:
        """The listed resource ``uri`` (None when none is)."""
        for resource in self.resources:
            if resource.uri == uri:
                return resource
        return None

    def resource_uris(self) -> set[str]:
        """The URIs of the listed resources."""
        return {resource.uri for resource in self.resources}

    def listing(self, kind: str, version: str) -> list[dict[str, t.Any]]:
        """The items of ``kind`` (``"tools"``, ``"prompts"``, ``"resources"``, ``"resourceTemplates"``)
        as protocol ``version`` lists them; built once per change, then shared (do not change it)."""
        key = (kind, version)
        listing = self._listings.get(key)
        if listing is None:
            generation = self._listings_generation
            source: t.Iterable[t.Any]
            if kind == "tools":
                source = self.tools.values()
            elif kind == "prompts":
                source = self.prompts.values()
            elif kind == "resources":
                source = self.resources
            else:
                source = self.resource_templates
            object_kind = LIST_KINDS[kind]
            listing = [versions.filter_fields(object_kind, item.to_dict(), version) for item in source]
            if kind == "prompts" and version != versions.LATEST_VERSION:
                for entry in listing:
                    entry["arguments"] = [
                        versions.filter_fields("prompt_argument", a, version) for a in entry.get("arguments", [])
                    ]
            with self._lock:
                # A registration since `generation` was read may be missing from this
                # listing: answer with it, but do not keep it for later requests.
                if generation == self._listings_generation:
                    self._listings[key] = listing
        return listing

    def forget_listings(self) -> None:
        """Build the list results anew on the next request (after a change the registry did not see)."""
        with self._lock:
            self._changed()

    def _changed(self) -> None:
        # Called with self._lock held.
        self._show()
        self._listings_generation += 1
        self._listings.clear()

    def _show(self) -> None:
        """Derive what clients see from what is registered and the visibility (lock held, or in __init__).

        Each collection is replaced, never changed in place: readers take no lock."""
        registered, visibility = self._with_mounted(), self._visibility
        if visibility.hides_nothing and not self._removed:
            self.tools, self.prompts = registered.tools, registered.prompts
            self.resources, self.resource_templates = registered.resources, registered.resource_templates
            self._hidden_uris, self._hidden_templates, self._shown_templates = frozenset(), (), ()
            return
        self.tools = {name: tool for name, tool in registered.tools.items() if visibility.shows("tools", name, tool.tags)}
        self.prompts = {
            name: prompt for name, prompt in registered.prompts.items() if visibility.shows("prompts", name, prompt.tags)
        }
        self.resources = [r for r in registered.resources if visibility.shows("resources", r.uri, r.tags)]
        self.resource_templates = [
            tpl for tpl in registered.resource_templates if visibility.shows("resourceTemplates", tpl.uri_template, tpl.tags)
        ]
        self._hide_the_rest(registered)

    def _hide_the_rest(self, registered: _Registered) -> None:
        """Note the resources and templates of ``registered`` (and those removed) that are not
        shown, so that reading one answers as for an unknown one; and match the templates shown."""
        shown_uris = {resource.uri for resource in self.resources}
        removed = [name for kind, name in self._removed if kind == "resources"]
        self._hidden_uris = frozenset(
            [r.uri for r in registered.resources if r.uri not in shown_uris] + [uri for uri in removed if uri not in shown_uris]
        )
        shown = {tpl.uri_template for tpl in self.resource_templates}
        hidden = [tpl.uri_template for tpl in registered.resource_templates if tpl.uri_template not in shown]
        hidden += [name for kind, name in self._removed if kind == "resourceTemplates" and name not in shown]
        self._hidden_templates = tuple(template_matcher(uri_template) for uri_template in hidden)
        self._shown_templates = tuple(template_matcher(uri_template) for uri_template in shown)

    def _with_mounted(self) -> _Registered:
        """What is registered here, then what mounted servers serve under names not taken (lock held)."""
        own = self._registered
        if not self._mounted:
            return own
        tools, prompts = dict(own.tools), dict(own.prompts)
        resources, templates = list(own.resources), list(own.resource_templates)
        uris, uri_templates = {r.uri for r in resources}, {tpl.uri_template for tpl in templates}
        for _, items, _ in self._mounted.values():
            for name, tool in items.tools.items():
                tools.setdefault(name, tool)
            for name, prompt in items.prompts.items():
                prompts.setdefault(name, prompt)
            resources += [r for r in items.resources if r.uri not in uris]
            uris |= {r.uri for r in items.resources}
            templates += [tpl for tpl in items.resource_templates if tpl.uri_template not in uri_templates]
            uri_templates |= {tpl.uri_template for tpl in items.resource_templates}
        return _Registered(tools, prompts, resources, templates)


class _Registered(t.NamedTuple):
    """Everything registered on a registry (replaced as a whole on each change)."""

    tools: dict[str, type[Tool]]
    prompts: dict[str, type[Prompt]]
    resources: list[Resource]
    resource_templates: list[ResourceTemplate]

    def replace(self, **changes: t.Any) -> _Registered:
        return self._replace(**changes)

    def items(self, kind: str) -> t.Collection[t.Any]:
        if kind == "tools":
            return self.tools.values()
        if kind == "prompts":
            return self.prompts.values()
        if kind == "resources":
            return self.resources
        if kind == "resourceTemplates":
            return self.resource_templates
        raise ValueError(f"kind must be one of {', '.join(LIST_KINDS)}, not {kind!r}")

    def without(self, kind: str, name: str) -> _Registered:
        if kind == "tools":
            return self._replace(tools={key: tool for key, tool in self.tools.items() if key != name})
        if kind == "prompts":
            return self._replace(prompts={key: prompt for key, prompt in self.prompts.items() if key != name})
        if kind == "resources":
            return self._replace(resources=[r for r in self.resources if r.uri != name])
        return self._replace(resource_templates=[tpl for tpl in self.resource_templates if tpl.uri_template != name])


#: The items one mounted server contributes (:meth:`Registry.set_mounted`).
Items = _Registered


def _key(kind: str, item: t.Any) -> str:
    """The name an item of ``kind`` is known by."""
    if kind == "tools":
        return t.cast(str, item.tool_name)
    if kind == "prompts":
        return t.cast(str, item.prompt_name)
    if kind == "resources":
        return t.cast(str, item.uri)
    return t.cast(str, item.uri_template)


def _require_new_tool(tool: type[Tool], registry: dict[str, type[Tool]]) -> None:
    if tool.tool_name in registry:
        raise ToolNotUnique(f"Tool names should be unique. Duplicate: {tool.tool_name}")


def _require_new_prompt(prompt: type[Prompt], registry: dict[str, type[Prompt]]) -> None:
    if prompt.prompt_name in registry:
        raise PromptNotUnique(f"Prompt names should be unique. Duplicate: {prompt.prompt_name}")


__all__ = ["HandlerEntry", "Items", "LIST_KINDS", "Registry", "check_tool"]
