"""Tools: functions a server offers to the model (``tools/list``, ``tools/call``).

Subclass :class:`Tool` with class-level metadata and a ``call`` classmethod (its docstring has
a whole example, run by the doc tests), or decorate a function with ``@server.tool``.

Unlike the Ruby gem, metadata set on a class is inherited by its subclasses, as
Python users expect of a base class; only the name (``tool_name``) is derived
afresh for each class that does not set its own.
"""

from __future__ import annotations

import inspect
import re
import typing as t

from .._converter import to_wire
from .._scopes import scope_tuple
from .._tags import tag_set
from .._signature import Signature
from ..errors import DefinitionError, InvalidNameError
from ..string_utils import class_name, underscore
from . import definition, type_schema
from .annotations import Annotations
from .arguments import ArgumentBinding
from .input_schema import InputSchema
from .output_schema import OutputSchema
from .response import Response

#: Tool names the specification allows (2025-11-25, "Tool names").
NAME_PATTERN = re.compile(r"[A-Za-z0-9_.\-]{1,128}")


def validate_name(name: t.Any, kind: str = "tool") -> str:
    """Return ``name`` if it is 1-128 characters of ``A-Za-z0-9_-.``; else raise :class:`~mcp_sdk.InvalidNameError`.

    :param name: the name to check.
    :param kind: what is named, for the message (``"tool"``, ``"prompt"``...).
    :returns: ``name``.
    :raises ~mcp_sdk.InvalidNameError: ``name`` is not a string of 1 to 128 allowed characters.
    """
    if not isinstance(name, str) or not NAME_PATTERN.fullmatch(name):
        raise InvalidNameError(
            f"Invalid {kind} name {name!r}: use 1 to 128 characters of A-Z, a-z, 0-9, '_', '-' and '.'"
        )
    return name


class Tool:
    """Base class of tools. Never instantiated: metadata and ``call`` live on the class.

    Subclass it with class-level metadata (``description``, ``input_schema``, optionally
    ``tool_name``, ``title``, ``output_schema``, ``annotations``...) and a ``call`` classmethod that
    takes the arguments as keywords (plus ``server_context`` when it declares it) and returns a
    :class:`Response`, a list of content, a string or a value for ``structuredContent``. Register
    the class with ``Server(tools=[...])`` or :meth:`~mcp_sdk.Server.add_tool`;
    :meth:`define` and ``@server.tool`` build one from a function instead.

    .. code-block:: python

        from mcp_sdk import Client, Server, Tool
        from mcp_sdk.client import InMemory


        class EchoTool(Tool):
            description = "Echoes its argument"
            input_schema = {"properties": {"message": {"type": "string"}}, "required": ["message"]}

            @classmethod
            def call(cls, message, server_context=None):
                return Tool.Response([{"type": "text", "text": message}])


        server = Server(name="echo", tools=[EchoTool])
        with Client(transport=InMemory(server)) as client:
            client.connect()
            response = client.call_tool(name="echo_tool", arguments={"message": "hi"})
            assert response["result"]["content"] == [{"type": "text", "text": "hi"}]
    """

    #: The wire name; defaults to the snake_case class name (``EchoTool`` -> ``echo_tool``).
    tool_name: t.ClassVar[str] = "tool"
    #: Human-readable display name (protocol 2025-06-18 and later).
    title: t.ClassVar[str | None] = None
    #: What the tool does, for the model.
    description: t.ClassVar[str | None] = None
    #: JSON Schema of the arguments; a dict becomes an :class:`InputSchema`, and so does a
    #: Pydantic model's schema (``call`` then gets the validated model, or its fields as keywords).
    input_schema: t.ClassVar[InputSchema] = InputSchema()
    #: JSON Schema of ``structuredContent``; a dict (or a Pydantic model) becomes an :class:`OutputSchema`.
    output_schema: t.ClassVar[OutputSchema | None] = None
    #: Behaviour hints; a dict (snake_case or camelCase keys) becomes :class:`Annotations`.
    annotations: t.ClassVar[Annotations | None] = None
    #: ``_meta`` of the tool's ``tools/list`` entry.
    meta: t.ClassVar[dict[str, t.Any] | None] = None
    #: Icons (``[{"src": ..., "mimeType": ..., "sizes": [...]}]``, protocol 2025-11-25).
    icons: t.ClassVar[list[dict[str, t.Any]] | None] = None
    #: OAuth scopes a caller needs: without them the tool is left out of ``tools/list``
    #: and a call is refused (HTTP 403 ``insufficient_scope``); see :mod:`mcp_sdk.server.auth`.
    required_scopes: t.ClassVar[tuple[str, ...]] = ()
    #: Task support (the ``io.modelcontextprotocol/tasks`` extension): ``"optional"`` (or True)
    #: runs a call as a task when the client declared the extension; ``"required"`` also refuses
    #: clients that did not (-32021); None (or False): never.
    task: t.ClassVar[str | None] = None
    #: The server's labels for it (never sent): ``Server(include_tags=..., exclude_tags=...)``
    #: lists and serves only the tools they let through.
    tags: t.ClassVar[frozenset[str]] = frozenset()
    #: Whether ``call`` takes the arguments as one dict (``call(cls, args, server_context=None)``,
    #: the shape of the Ruby gem's ``Tool.define`` block) rather than as keyword arguments (the
    #: gem's ``def self.call(message:, server_context:)``). False unless the class sets it;
    #: :meth:`define` sets it for the class it makes (see there).
    arguments_dict: t.ClassVar[bool] = False

    # Aliases, so ``Tool.Response`` works both as a class and in annotations.
    Response: t.TypeAlias = Response
    InputSchema: t.TypeAlias = InputSchema
    OutputSchema: t.TypeAlias = OutputSchema
    Annotations: t.TypeAlias = Annotations

    _signature: t.ClassVar[Signature]
    _input_schema_derived: t.ClassVar[bool] = False
    #: The ``input_schema`` when it was given as a model class (a schema source's type).
    _input_model: t.ClassVar[t.Any] = None
    #: How JSON arguments become model values for ``call``; None: passed as they are.
    _arguments: t.ClassVar[ArgumentBinding | None] = None

    def __init_subclass__(cls, **kwargs: t.Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "tool_name" not in own:
            cls.tool_name = underscore(cls.__name__)
        owner = f"Tool {cls.tool_name}"
        if "call" in own:
            definition.check_call(owner, own["call"])
        cls._settle_input_schema(own, owner)
        cls._settle_output_schema(own, owner)
        cls._coerce_metadata(own, owner)
        cls._signature = Signature(cls.call)

    @classmethod
    def _settle_input_schema(cls, own: t.Mapping[str, t.Any], owner: str) -> None:
        """Take the class's own ``input_schema`` (compiled; a model class kept to bind arguments to),
        bind ``call``'s arguments, then check the schema against ``call``'s signature, or derive it
        from the signature where the class gave none (``own``: the class's ``__dict__``)."""
        given = own.get("input_schema")
        if given is not None:
            cls._input_model = given if definition.is_model(given) else None
            cls.input_schema = definition.compiled(owner, "input_schema", given, InputSchema)
            cls._input_schema_derived = False
        cls._bind_arguments(own, owner)
        if not defines_call(cls) or cls.arguments_dict:
            return  # no call of its own, or one that takes the arguments dict: no signature to hold the schema to
        takes_model_whole = cls._arguments is not None and cls._arguments.takes_model_whole()
        if given is not None:
            if not takes_model_whole:
                type_schema.check_against_signature(cls.input_schema.schema, cls.call, owner)
        elif "call" in own:
            if cls._input_schema_derived or cls.input_schema is Tool.input_schema:
                derived = type_schema.input_schema_for(cls.call, owner)
                cls.input_schema = InputSchema(derived if derived["properties"] else None)
                cls._input_schema_derived = True
            elif not takes_model_whole:
                type_schema.check_against_signature(cls.input_schema.schema, cls.call, owner)

    @classmethod
    def _bind_arguments(cls, own: t.Mapping[str, t.Any], owner: str) -> None:
        """Check the class's own ``arguments_dict``; where the class sets ``call``, ``input_schema`` or
        ``arguments_dict``, build how ``call`` receives the JSON arguments (``own``: the class's ``__dict__``)."""
        if "arguments_dict" in own and type(own["arguments_dict"]) is not bool:
            raise DefinitionError(f"{owner}: arguments_dict must be True or False, not {own['arguments_dict']!r}")
        if "call" in own or "input_schema" in own or "arguments_dict" in own:
            model, takes_object = cls._input_model, cls.arguments_dict
            cls._arguments = ArgumentBinding.build(cls.call, owner, model=model, takes_object=takes_object) if defines_call(cls) else None

    @classmethod
    def _settle_output_schema(cls, own: t.Mapping[str, t.Any], owner: str) -> None:
        """Compile the class's own ``output_schema``; without one, a new ``call`` whose return type
        implies one (a dataclass, a model, a number...) gets it."""
        given = own.get("output_schema")
        if given is not None:
            cls.output_schema = definition.compiled(owner, "output_schema", given, OutputSchema)
        elif "call" in own and cls.output_schema is None:
            implied = type_schema.output_schema_for(cls.call)
            if implied is not None:
                cls.output_schema = OutputSchema(implied)

    @classmethod
    def _coerce_metadata(cls, own: t.Mapping[str, t.Any], owner: str) -> None:
        """Turn the class's own ``annotations``, ``required_scopes``, ``task`` and ``tags`` into their checked forms."""
        if "annotations" in own:
            cls.annotations = Annotations.coerce(own["annotations"])
        if "required_scopes" in own:
            cls.required_scopes = scope_tuple(own["required_scopes"])
        if "task" in own:
            cls.task = task_support(owner, own["task"])
        if "tags" in own:
            cls.tags = tag_set(own["tags"])

    def __init__(self, *args: t.Any, **kwargs: t.Any) -> None:
        """Always raises: a tool is its class, registered as is (``Server(tools=[EchoTool])``).

        :param args: ignored.
        :param kwargs: ignored.
        :raises TypeError: always.
        """
        raise TypeError("Tools are classes: register the class itself, do not instantiate it")

    @classmethod
    def call(cls, **arguments: t.Any) -> t.Any:
        """Run the tool. Arguments arrive as keyword arguments; declare ``server_context`` to get it.

        :return: a :class:`Tool.Response` (or a wire dict, a string, or a list of content).
        :param arguments: the tool's arguments (and ``server_context``, when ``call`` declares it).
        """
        raise NotImplementedError(f"{cls.__name__}.call is not implemented")

    @classmethod
    def accepts_server_context(cls) -> bool:
        """Whether ``call`` declares a ``server_context`` parameter (then it may talk to the client)."""
        return cls._signature.accepts_server_context

    @classmethod
    def invoke(cls, arguments: t.Mapping[str, t.Any], server_context: t.Any = None) -> t.Any:
        """Call the tool the way its signature asks: the SDK's single entry point.

        :raises InvalidArgumentsError: a parameter's model rejected its argument (naming the field).
        :param arguments: the ``tools/call`` arguments.
        :param server_context: the :class:`~mcp_sdk.ServerContext`, passed when ``call`` declares it.
        :returns: what ``call`` returns.
        """
        signature = cls._signature
        # Typed loosely: a tool made by define() has call(args, server_context=None) instead.
        call: t.Callable[..., t.Any] = cls.call
        binding = cls._arguments
        if cls.arguments_dict:
            args = binding.arguments_object(arguments) if binding is not None else dict(arguments)
            if signature.accepts_server_context:
                return call(args, server_context=server_context)
            return call(args)
        kwargs = signature.keyword_arguments(binding.keyword_arguments(arguments) if binding is not None else arguments)
        if signature.accepts_server_context:
            kwargs["server_context"] = server_context
        return call(**kwargs)

    @classmethod
    def to_dict(cls) -> dict[str, t.Any]:
        """The ``tools/list`` entry, in the latest protocol's shape."""
        entry: dict[str, t.Any] = {"name": cls.tool_name}
        if cls.title is not None:
            entry["title"] = cls.title
        if cls.description is not None:
            entry["description"] = cls.description
        entry["inputSchema"] = cls.input_schema.to_dict()
        if cls.output_schema is not None:
            entry["outputSchema"] = cls.output_schema.to_dict()
        if cls.annotations is not None:
            entry["annotations"] = cls.annotations.to_dict()
        if cls.icons is not None:
            entry["icons"] = to_wire(cls.icons)
        if cls.meta is not None:
            entry["_meta"] = cls.meta
        return entry

    @classmethod
    def define(
        cls,
        name: str | None = None,
        *,
        title: str | None = None,
        description: str | None = None,
        input_schema: t.Mapping[str, t.Any] | InputSchema | None = None,
        output_schema: t.Mapping[str, t.Any] | OutputSchema | None = None,
        annotations: t.Mapping[str, t.Any] | Annotations | None = None,
        meta: dict[str, t.Any] | None = None,
        icons: list[dict[str, t.Any]] | None = None,
        required_scopes: t.Iterable[str] = (),
        task: bool | str | None = None,
        tags: t.Iterable[str] = (),
        handler: t.Callable[..., t.Any] | None = None,
        arguments_dict: bool | None = None,
    ) -> t.Any:
        """Make a Tool subclass from a function; with ``handler=`` the class, without it a decorator.

        The function takes the tool's arguments as keyword arguments (``def add(a: int, b: int)``),
        its ``input_schema`` derived from their type hints when not given; or, the Ruby-shaped
        form, as one arguments dict (``def add(args, server_context=None)``, the gem's
        ``do |args, server_context:|``). Either may declare ``server_context``.
        ``arguments_dict=True``/``False`` says which; without it, the function's shape does
        (:func:`takes_arguments_dict`), never a parameter's name.

        :param name: the tool's name (default: the function's name).
        :param title: a display name.
        :param description: what it does (default: the function's docstring).
        :param input_schema: JSON Schema of the arguments (default: derived from the function's parameters).
        :param output_schema: JSON Schema of ``structuredContent`` (a dict or a Pydantic model).
        :param annotations: behaviour hints (a dict or :class:`Annotations`).
        :param meta: ``_meta`` of the ``tools/list`` entry.
        :param icons: icons, each ``{"src": ..., "mimeType": ..., "sizes": [...]}``.
        :param required_scopes: OAuth scopes a caller needs to see and call it.
        :param task: task support: True or ``"optional"``, ``"required"``, or None.
        :param tags: the server's labels for it, for ``Server(include_tags=..., exclude_tags=...)``.
        :param handler: the function; without it, ``define`` returns a decorator.
        :param arguments_dict: True: the function takes one arguments dict; False: keyword arguments;
            None: the function's shape decides (see :func:`takes_arguments_dict`).
        :returns: the Tool subclass, or a decorator returning it.
        """

        def build(function: t.Callable[..., t.Any]) -> type[Tool]:
            tool_name = name if name is not None else function.__name__
            takes_dict = takes_arguments_dict(function, input_schema) if arguments_dict is None else arguments_dict
            doc = _doc(function) if takes_dict else type_schema.summary(function.__doc__)
            namespace: dict[str, t.Any] = {
                "tool_name": tool_name,
                "title": title,
                "description": description if description is not None else doc,
                "output_schema": output_schema,
                "annotations": annotations,
                "meta": meta,
                "icons": icons,
                "required_scopes": scope_tuple(required_scopes),
                "task": task,
                "tags": tag_set(tags),
                "call": staticmethod(function),
                "arguments_dict": takes_dict,
                "__module__": getattr(function, "__module__", __name__),
                "__doc__": function.__doc__,
            }
            if input_schema is not None or takes_dict:
                namespace["input_schema"] = input_schema if input_schema is not None else InputSchema()
            return t.cast("type[Tool]", type(class_name(tool_name, "Tool"), (cls,), namespace))

        if handler is not None:
            return build(handler)
        return build


def defines_call(tool: type[Tool]) -> bool:
    """Whether a Tool class (or an ancestor below :class:`Tool`) defines its own ``call``.

    :param tool: a :class:`Tool` subclass.
    :returns: True when it (or an ancestor below :class:`Tool`) defines ``call``.
    """
    return getattr(tool.call, "__func__", None) is not t.cast(t.Any, Tool.call).__func__


def check_has_call(tool: type[Tool]) -> None:
    """Raise :class:`DefinitionError` when a Tool class (about to be served) never defines ``call``.

    :param tool: a :class:`Tool` subclass.
    :raises ~mcp_sdk.DefinitionError: it never defines ``call``.
    """
    if not defines_call(tool):
        raise DefinitionError(
            f"Tool {tool.tool_name}: no call method; define '@classmethod def call(cls, <arguments>, server_context=None)' returning the result"
        )


def task_support(owner: str, value: t.Any) -> str | None:
    """A tool's ``task`` setting normalised: True -> ``"optional"``, False -> None.

    :raises DefinitionError: any other value than None, a bool, ``"optional"`` or ``"required"``.
    """
    if value is None or value is False:
        return None
    if value is True:
        return "optional"
    if value in ("optional", "required"):
        return str(value)
    raise DefinitionError(f"{owner}: task must be True, False, None, 'optional' or 'required', not {value!r}")


def takes_arguments_dict(function: t.Callable[..., t.Any], input_schema: t.Any = None) -> bool:
    """Whether ``function`` takes the tool's arguments as one dict (``fn(args)``) rather than as
    keyword arguments, when ``arguments_dict=`` does not say (:meth:`Tool.define`).

    The documented shapes decide, never a parameter's name. A function with one parameter besides
    ``server_context`` (and ``**kwargs``) takes the one dict when

    - an ``input_schema`` is given that does not name that parameter (the Ruby gem's
      ``Tool.define(input_schema: ...) do |args, server_context:|``; a parameter the schema names
      is a keyword argument), or
    - no ``input_schema`` is given and the parameter has no type hint (the gem's block
      ``do |args, server_context:|``, which has no types), or
    - no ``input_schema`` is given and the parameter's type hint is a mapping (``dict``,
      ``dict[str, Any]``, ``Mapping[str, Any]``), the hint resolved where the function was written
      (a string hint is evaluated, never read as text).

    Any other function (no parameter, several, one with another type hint) takes keyword
    arguments; one without a signature to inspect takes the dict.

    :param function: the tool's function.
    :param input_schema: its input schema, if given (a dict, an :class:`InputSchema` or a model class).
    :returns: True for the one arguments dict, False for keyword arguments.
    """
    try:
        parameters = [
            p
            for p in inspect.signature(function).parameters.values()
            if p.name != "server_context" and p.kind is not p.VAR_KEYWORD
        ]
    except (TypeError, ValueError):
        return True
    if len(parameters) != 1:
        return False
    (parameter,) = parameters
    schema = input_schema.schema if isinstance(input_schema, InputSchema) else input_schema
    if definition.is_model(schema):  # its fields are the properties
        schema = type_schema.schema_for(schema)
    if isinstance(schema, t.Mapping):
        return parameter.name not in (schema.get("properties") or {})
    if parameter.annotation is parameter.empty:
        return True
    return type_schema.is_mapping_hint(parameter.annotation, function)


def _doc(function: t.Callable[..., t.Any]) -> str | None:
    doc = getattr(function, "__doc__", None)
    return doc.strip() if doc else None


__all__ = [
    "Tool",
    "Response",
    "InputSchema",
    "OutputSchema",
    "Annotations",
    "check_has_call",
    "defines_call",
    "validate_name",
    "takes_arguments_dict",
]
