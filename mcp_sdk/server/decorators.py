"""What ``@server.tool``, ``@server.prompt`` and ``@server.resource(uri)`` do: plain functions as
tools, prompts and resources, described by their names, docstrings and type hints.

The class API (``Tool``/``Prompt`` subclasses, ``resources_read_handler``) stays the primary,
Ruby-shaped one; these build the same objects from a function and return the function unchanged,
so it can still be called (and tested) directly.
"""

from __future__ import annotations

import base64
import threading
import typing as t

from .._converter import to_wire
from .._signature import Signature
from ..content import Text
from ..errors import InvalidNameError, InvalidParamsError, ResourceNotFoundError
from ..json_rpc import encode
from ..prompt import Argument, Message, Prompt, Result, typed_arguments
from ..resource import Resource
from ..resource.uri_template import URITemplate
from ..resource_template import ResourceTemplate
from ..tool import Tool
from ..tool import type_schema

if t.TYPE_CHECKING:
    from .registry import Registry

F = t.TypeVar("F", bound=t.Callable[..., t.Any])


def tool_decorator(
    add_tool: t.Callable[[type[Tool]], object], function_or_name: t.Any, metadata: dict[str, t.Any]
) -> t.Any:
    """What ``@server.tool`` and ``@server.tool(name=...)`` give: see :meth:`mcp_sdk.Server.tool`.

    It is :meth:`Tool.define` with ``arguments_dict=False`` unless the metadata says otherwise:
    the function's keyword arguments are the tool's, whatever its shape.
    """
    name: str | None = None

    def register(function: F) -> F:
        arguments_dict = metadata.pop("arguments_dict", False)
        add_tool(Tool.define(metadata.pop("name", name), arguments_dict=arguments_dict, handler=function, **metadata))
        return function

    if callable(function_or_name):
        return register(function_or_name)
    name = function_or_name
    return register


def prompt_decorator(
    add_prompt: t.Callable[[type[Prompt]], object], function_or_name: t.Any, metadata: dict[str, t.Any]
) -> t.Any:
    """What ``@server.prompt`` and ``@server.prompt(name=...)`` give: see :meth:`mcp_sdk.Server.prompt`."""
    name: str | None = None

    def register(function: F) -> F:
        add_prompt(prompt_from_function(function, metadata.pop("name", name), **metadata))
        return function

    if callable(function_or_name):
        return register(function_or_name)
    name = function_or_name
    return register


def registrar(
    add: t.Callable[[t.Callable[..., t.Any]], object], handler: t.Callable[..., t.Any] | None
) -> t.Callable[[F], F]:
    """A decorator that gives a function to ``add`` and returns it unchanged (flask ``route``).

    With ``handler``, it is applied to it at once: the form without decorator syntax.
    """

    def register(function: F) -> F:
        add(function)
        return function

    if handler is not None:
        register(handler)
    return register


def define_registrar(
    add: t.Callable[[t.Any], object], define: t.Callable[..., t.Any], name: str | None, metadata: dict[str, t.Any]
) -> t.Callable[[F], F]:
    """What ``server.define_tool(name, **metadata)`` and ``define_prompt`` give: a :func:`registrar` of
    ``add(define(name, handler=function, **metadata))``, applied at once to ``metadata["handler"]`` if given."""
    handler = metadata.pop("handler", None)
    return registrar(lambda function: add(define(name, handler=function, **metadata)), handler)


def custom_method_registrar(
    registry: Registry, reserved: t.Callable[[str], bool], method_name: str, handler: t.Callable[..., t.Any] | None
) -> t.Callable[[F], F]:
    """What ``server.define_custom_method(method_name, handler)`` gives: see :meth:`mcp_sdk.Server.define_custom_method`.

    :raises InvalidNameError: ``method_name`` is not a non-empty string.
    """
    if type(method_name) is not str or not method_name:
        raise InvalidNameError(f"method_name must be a non-empty string, not {method_name!r}")
    return registrar(lambda function: registry.add_custom_method(method_name, function, reserved), handler)


class ResourceReaders:
    """The functions registered with ``@server.resource``, which answer ``resources/read`` in turn.

    :param registry: the server's registry: the resources and templates are listed there,
        and the first reader installs the ``resources_read`` handler that asks them all
        (falling back to the handler registered before it, if any).
    """

    def __init__(self, registry: Registry) -> None:
        self.registry = registry
        self._lock = threading.Lock()
        self._readers: list[_Reader] = []

    def decorator(
        self,
        uri: str,
        name: str | None,
        title: str | None,
        description: str | None,
        mime_type: str | None,
        tags: t.Iterable[str] = (),
    ) -> t.Callable[[F], F]:
        """What ``@server.resource(uri, ...)`` gives: see :meth:`mcp_sdk.Server.resource`."""

        def register(function: F) -> F:
            reader = _Reader(uri, function, mime_type)
            listed_name = name or function.__name__
            doc = description if description is not None else type_schema.summary(function.__doc__)
            if not reader.template.is_template():
                self.registry.add_resource(
                    Resource(uri=uri, name=listed_name, title=title, description=doc, mime_type=mime_type, tags=tags)
                )
            else:
                self.registry.add_resource_template(
                    ResourceTemplate(
                        uri_template=uri, name=listed_name, title=title, description=doc, mime_type=mime_type, tags=tags
                    )
                )
            with self._lock:
                first = not self._readers
                self._readers.append(reader)
            if first:
                fallback = self.registry.handlers.get("resources_read")
                self.registry.add_handler("resources_read", _dispatcher(self._readers, fallback))
            return function

        return register


def prompt_from_function(function: t.Callable[..., t.Any], name: str | None = None, **metadata: t.Any) -> type[Prompt]:
    """A Prompt subclass whose template calls ``function`` with the arguments as keywords."""
    signature = Signature(function)
    descriptions = type_schema.parameter_descriptions(function.__doc__)
    parameters = type_schema.parameters(function, f"Prompt {name or function.__name__}")
    loaders = typed_arguments.parameter_loaders(parameters)  # Pydantic models, Annotated[..., Field(...)]
    arguments = [
        Argument(
            name=p.name,
            description=typed_arguments.argument_description(descriptions.get(p.name), type_schema.schema_for(p.annotation))
            if p.name in loaders
            else descriptions.get(p.name),
            required=p.default is p.empty,
        )
        for p in parameters
    ]
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
        typed_arguments.load_parameters(loaders, kwargs)
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
    """One ``@server.resource`` function and the URIs it answers (an RFC 6570 template, see
    :mod:`mcp_sdk.resource.uri_template`)."""

    def __init__(self, uri: str, function: t.Callable[..., t.Any], mime_type: str | None) -> None:
        self.uri = uri
        self.template = URITemplate(uri)
        self.template.check_matchable()  # a template no URI can be read back from fails here, not per read
        self.function = function
        self.mime_type = mime_type
        self.signature = Signature(function)

    def match(self, uri: str) -> dict[str, t.Any] | None:
        return self.template.match(uri)

    def read(self, uri: str, variables: dict[str, t.Any], server_context: t.Any) -> list[dict[str, t.Any]]:
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


__all__ = [
    "ResourceReaders",
    "custom_method_registrar",
    "define_registrar",
    "prompt_decorator",
    "prompt_from_function",
    "registrar",
    "tool_decorator",
]
