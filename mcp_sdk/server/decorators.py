"""``@server.tool``, ``@server.prompt`` and ``@server.resource(uri)``: plain functions as tools,
prompts and resources, described by their names, docstrings and type hints.

The class API (``Tool``/``Prompt`` subclasses, ``resources_read_handler``) stays the primary,
Ruby-shaped one; these build the same objects from a function and return the function unchanged,
so it can still be called (and tested) directly.
"""

from __future__ import annotations

import base64
import re
import threading
import typing as t

from .._converter import to_wire
from .._signature import Signature
from ..content import Text
from ..errors import InvalidParamsError, ResourceNotFoundError
from ..json_rpc import encode
from ..prompt import Argument, Message, Prompt, Result
from ..resource import Resource
from ..resource_template import ResourceTemplate
from ..tool import Tool
from ..tool import type_schema

F = t.TypeVar("F", bound=t.Callable[..., t.Any])

_TEMPLATE_VARIABLE = re.compile(r"\{([A-Za-z0-9_]+)\}")


class DecoratorMethods:
    """Mixin of :class:`~mcp_sdk.Server`: the decorator registration methods."""

    _lock: threading.RLock | threading.Lock
    handlers: dict[str, tuple[t.Callable[..., t.Any], Signature]]

    if t.TYPE_CHECKING:

        def add_tool(self, tool: type[Tool]) -> type[Tool]: ...

        def add_prompt(self, prompt: type[Prompt]) -> type[Prompt]: ...

        def add_resource(self, resource: Resource) -> Resource: ...

        def add_resource_template(self, template: ResourceTemplate) -> ResourceTemplate: ...

        def resources_read_handler(self, function: F) -> F: ...

    @t.overload
    def tool(self, function: F, /) -> F: ...

    @t.overload
    def tool(self, name: str | None = None, /, **metadata: t.Any) -> t.Callable[[F], F]: ...

    def tool(self, function_or_name: t.Any = None, /, **metadata: t.Any) -> t.Any:
        """Register a function as a tool: ``@server.tool`` or ``@server.tool(name=..., title=...)``.

        Its keyword arguments are the tool's arguments and its type hints their schema
        (``server_context`` passed when declared); the name is the function's, the description
        its docstring. Takes :meth:`Tool.define`'s keywords. Returns the function unchanged.
        """

        def register(function: F) -> F:
            self.add_tool(Tool.define(metadata.pop("name", name), arguments_dict=False, handler=function, **metadata))
            return function

        if callable(function_or_name):
            name = None
            return register(function_or_name)
        name = function_or_name
        return register

    @t.overload
    def prompt(self, function: F, /) -> F: ...

    @t.overload
    def prompt(self, name: str | None = None, /, **metadata: t.Any) -> t.Callable[[F], F]: ...

    def prompt(self, function_or_name: t.Any = None, /, **metadata: t.Any) -> t.Any:
        """Register a function as a prompt: ``@server.prompt`` or ``@server.prompt(name=..., title=...)``.

        Its parameters are the prompt's arguments (required when they have no default, described
        from the docstring). It returns a string (one user message), a list of strings or
        ``Prompt.Message`` objects, or a ``Prompt.Result``. Returns the function unchanged.
        """

        def register(function: F) -> F:
            self.add_prompt(prompt_from_function(function, metadata.pop("name", name), **metadata))
            return function

        if callable(function_or_name):
            name = None
            return register(function_or_name)
        name = function_or_name
        return register

    def resource(
        self,
        uri: str,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        mime_type: str | None = None,
    ) -> t.Callable[[F], F]:
        """Register a function that reads a resource: ``@server.resource("config://app")``.

        A URI with ``{variables}`` is a resource template: they arrive as keyword arguments. The
        function returns a string (text), bytes (a blob), a dict or list (JSON text), or
        ``Resource.TextContents``/``BlobContents``. Reads of other URIs go to a
        ``resources_read_handler`` registered before the first ``@server.resource``.
        """

        def register(function: F) -> F:
            reader = _Reader(uri, function, mime_type)
            listed_name = name or function.__name__
            doc = description if description is not None else type_schema.summary(function.__doc__)
            if reader.pattern is None:
                self.add_resource(Resource(uri=uri, name=listed_name, title=title, description=doc, mime_type=mime_type))
            else:
                self.add_resource_template(
                    ResourceTemplate(uri_template=uri, name=listed_name, title=title, description=doc, mime_type=mime_type)
                )
            with self._lock:
                readers = self.__dict__.setdefault("_resource_readers", [])
                first = not readers
                readers.append(reader)
                fallback = self.handlers.get("resources_read")
            if first:
                self.resources_read_handler(_dispatcher(readers, fallback))
            return function

        return register


def prompt_from_function(function: t.Callable[..., t.Any], name: str | None = None, **metadata: t.Any) -> type[Prompt]:
    """A Prompt subclass whose template calls ``function`` with the arguments as keywords."""
    signature = Signature(function)
    descriptions = type_schema.parameter_descriptions(function.__doc__)
    parameters = type_schema.parameters(function, f"Prompt {name or function.__name__}")
    arguments = [Argument(name=p.name, description=descriptions.get(p.name), required=p.default is p.empty) for p in parameters]
    # Prompt arguments are strings on the wire: give int, float and bool parameters what they declare.
    converters = {p.name: _STRING_CONVERTERS[p.annotation] for p in parameters if p.annotation in _STRING_CONVERTERS}

    def call(args: dict[str, t.Any], server_context: t.Any) -> Result:
        kwargs = signature.keyword_arguments(args)
        for key, convert in converters.items():
            value = kwargs.get(key)
            if isinstance(value, str):
                try:
                    kwargs[key] = convert(value)
                except ValueError:
                    raise InvalidParamsError(f"Invalid params: argument {key!r} must be {convert.__name__.lstrip('_')}, not {value!r}") from None
        if signature.accepts_server_context:
            kwargs["server_context"] = server_context
        return _prompt_result(function(**kwargs))

    if signature.accepts_server_context:

        def template(args: dict[str, t.Any], server_context: t.Any = None) -> Result:
            return call(args, server_context)

    else:

        def template(args: dict[str, t.Any]) -> Result:  # type: ignore[misc]
            return call(args, None)

    template.__name__ = function.__name__
    metadata.setdefault("description", type_schema.summary(function.__doc__))
    return t.cast("type[Prompt]", Prompt.define(name, arguments=arguments, handler=template, **metadata))


def _bool(text: str) -> bool:
    lowered = text.strip().lower()
    if lowered in ("true", "1", "yes", "on"):
        return True
    if lowered in ("false", "0", "no", "off"):
        return False
    raise ValueError(text)


_STRING_CONVERTERS: dict[t.Any, t.Callable[[str], t.Any]] = {int: int, float: float, bool: _bool}


def _prompt_result(returned: t.Any) -> Result:
    if isinstance(returned, Result):
        return returned
    if isinstance(returned, (str, Message, dict)):
        returned = [returned]
    if not isinstance(returned, (list, tuple)):
        raise TypeError(f"a prompt function returned {type(returned).__name__}: return a string, a list of Prompt.Message, or a Prompt.Result")
    messages = [Message(role="user", content=Text(item)) if isinstance(item, str) else item for item in returned]
    return Result(messages=messages)


class _Reader:
    """One ``@server.resource`` function and the URIs it answers."""

    def __init__(self, uri: str, function: t.Callable[..., t.Any], mime_type: str | None) -> None:
        self.uri = uri
        self.function = function
        self.mime_type = mime_type
        self.signature = Signature(function)
        variables = _TEMPLATE_VARIABLE.findall(uri)
        self.pattern: re.Pattern[str] | None = None
        if variables:
            parts = _TEMPLATE_VARIABLE.split(uri)
            regex = "".join(re.escape(part) if i % 2 == 0 else f"(?P<{part}>[^/]+)" for i, part in enumerate(parts))
            self.pattern = re.compile(regex)

    def match(self, uri: str) -> dict[str, str] | None:
        if self.pattern is None:
            return {} if uri == self.uri else None
        found = self.pattern.fullmatch(uri)
        return found.groupdict() if found else None

    def read(self, uri: str, variables: dict[str, str], server_context: t.Any) -> list[dict[str, t.Any]]:
        kwargs = self.signature.keyword_arguments(variables)
        if self.signature.accepts_server_context:
            kwargs["server_context"] = server_context
        returned = self.function(**kwargs)
        items = returned if isinstance(returned, list) and returned and not _is_json_list(returned) else [returned]
        return [self._contents(uri, item) for item in items]

    def _contents(self, uri: str, value: t.Any) -> dict[str, t.Any]:
        if isinstance(value, str):
            return {"uri": uri, "mimeType": self.mime_type or "text/plain", "text": value}
        if isinstance(value, (bytes, bytearray)):
            data = base64.b64encode(bytes(value)).decode("ascii")
            return {"uri": uri, "mimeType": self.mime_type or "application/octet-stream", "blob": data}
        if isinstance(value, (dict, list)) and not (isinstance(value, dict) and "uri" in value):
            return {"uri": uri, "mimeType": self.mime_type or "application/json", "text": encode(value)}
        return t.cast("dict[str, t.Any]", to_wire(value))


def _is_json_list(value: list[t.Any]) -> bool:
    return not any(hasattr(item, "to_dict") or (isinstance(item, dict) and "uri" in item) for item in value)


def _dispatcher(readers: list[_Reader], fallback: tuple[t.Callable[..., t.Any], Signature] | None) -> t.Callable[..., t.Any]:
    def read(params: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        uri = params["uri"]
        for reader in list(readers):
            variables = reader.match(uri)
            if variables is not None:
                return reader.read(uri, variables, server_context)
        if fallback is not None:
            handler, signature = fallback
            return handler(params, server_context=server_context) if signature.accepts_server_context else handler(params)
        raise ResourceNotFoundError(uri, params)

    return read


__all__ = ["DecoratorMethods", "prompt_from_function"]
