"""What a server serves: its tools, prompts, resources, resource templates and handlers.

A :class:`Registry` belongs to one :class:`~mcp_sdk.Server`, which reads and adds
through it. Each collection is replaced, never changed in place, when something is
added, so a reader takes no lock and sees a consistent collection; one lock orders
the writers. The registry also keeps the list results it built (``tools/list`` and
the others, per protocol version) until the next change.
"""

from __future__ import annotations

import threading
import typing as t

from .. import protocol_version as versions
from .._signature import Signature
from ..errors import MethodAlreadyDefinedError, PromptNotUnique, ToolNotUnique
from ..prompt import Prompt
from ..resource import Resource
from ..resource_template import ResourceTemplate
from ..tool import Tool, check_has_call, validate_name

#: A registered handler: the function and its signature.
HandlerEntry = t.Tuple[t.Callable[..., t.Any], Signature]

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
    :raises ToolNotUnique: two tools share a name.
    :raises PromptNotUnique: two prompts share a name.
    """

    def __init__(
        self,
        tools: t.Iterable[type[Tool]] = (),
        prompts: t.Iterable[type[Prompt]] = (),
        resources: t.Iterable[Resource] = (),
        resource_templates: t.Iterable[ResourceTemplate] = (),
    ) -> None:
        self._lock = threading.Lock()
        #: Tool name -> Tool subclass.
        self.tools: dict[str, type[Tool]] = {}
        for tool in tools:
            check_tool(tool)
            _require_new_tool(tool, self.tools)
            self.tools[tool.tool_name] = tool
        #: Prompt name -> Prompt subclass.
        self.prompts: dict[str, type[Prompt]] = {}
        for prompt in prompts:
            _require_new_prompt(prompt, self.prompts)
            self.prompts[prompt.prompt_name] = prompt
        self.resources: list[Resource] = list(resources)
        self.resource_templates: list[ResourceTemplate] = list(resource_templates)
        #: Protocol handlers the user registered: name (``"resources_read"``...) -> entry.
        self.handlers: dict[str, HandlerEntry] = {}
        #: Custom JSON-RPC methods: method name -> entry.
        self.custom_methods: dict[str, HandlerEntry] = {}
        self._listings: dict[tuple[str, str], list[dict[str, t.Any]]] = {}
        self._listings_generation = 0  # bumped on every change, so a listing built meanwhile is not cached

    # -- adding --------------------------------------------------------------

    def add_tool(self, tool: type[Tool]) -> type[Tool]:
        """Add a Tool subclass.

        :raises ToolNotUnique: a tool of that name is registered.
        """
        with self._lock:
            check_tool(tool)
            _require_new_tool(tool, self.tools)
            self.tools = {**self.tools, tool.tool_name: tool}
            self._changed()
        return tool

    def add_prompt(self, prompt: type[Prompt]) -> type[Prompt]:
        """Add a Prompt subclass.

        :raises PromptNotUnique: a prompt of that name is registered.
        """
        with self._lock:
            _require_new_prompt(prompt, self.prompts)
            self.prompts = {**self.prompts, prompt.prompt_name: prompt}
            self._changed()
        return prompt

    def add_resource(self, resource: Resource) -> Resource:
        """Add a resource."""
        with self._lock:
            self.resources = [*self.resources, resource]
            self._changed()
        return resource

    def add_resource_template(self, template: ResourceTemplate) -> ResourceTemplate:
        """Add a resource template."""
        with self._lock:
            self.resource_templates = [*self.resource_templates, template]
            self._changed()
        return template

    def add_handler(self, name: str, function: t.Callable[..., t.Any]) -> None:
        """Set the handler ``name`` (``"resources_read"``, ``"completion"``...).

        :raises TypeError: ``function`` is not callable.
        """
        if not callable(function):
            raise TypeError(f"{name} handler must be callable")
        with self._lock:
            self.handlers = {**self.handlers, name: (function, Signature(function))}

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
        self._listings_generation += 1
        self._listings.clear()


def _require_new_tool(tool: type[Tool], registry: dict[str, type[Tool]]) -> None:
    if tool.tool_name in registry:
        raise ToolNotUnique(f"Tool names should be unique. Duplicate: {tool.tool_name}")


def _require_new_prompt(prompt: type[Prompt], registry: dict[str, type[Prompt]]) -> None:
    if prompt.prompt_name in registry:
        raise PromptNotUnique(f"Prompt names should be unique. Duplicate: {prompt.prompt_name}")


__all__ = ["HandlerEntry", "LIST_KINDS", "Registry", "check_tool"]
