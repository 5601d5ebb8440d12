"""Prompts: reusable message templates a server offers (``prompts/list``, ``prompts/get``).

Subclass :class:`Prompt` with class-level metadata and a ``template`` classmethod
that takes the arguments dict (or, when ``arguments`` is a Pydantic model, the validated
model instance). Metadata is inherited by subclasses; only ``prompt_name`` is derived
afresh (snake_case class name) for each class.
"""

from __future__ import annotations

import typing as t

from .._converter import to_wire
from .._scopes import scope_tuple
from .._tags import tag_set
from .._signature import Signature
from ..string_utils import class_name, underscore
from .argument import Argument
from .message import Message
from .result import Result
from .typed_arguments import is_model, model_arguments, model_loader


class Prompt:
    """Base class of prompts. Never instantiated: metadata and ``template`` live on the class.

    Subclass it with class-level metadata (``description``, ``arguments``, optionally
    ``prompt_name``, ``title``...) and a ``template`` classmethod that takes the arguments dict
    (and ``server_context``) and returns a :class:`Result` of :class:`Message` objects. Register the
    class with ``Server(prompts=[...])`` or :meth:`~mcp_sdk.Server.add_prompt`;
    ``@server.prompt`` builds one from a function instead.

    .. code-block:: python

        from mcp_sdk import Client, Content, Prompt, Server
        from mcp_sdk.client import InMemory


        class Greeting(Prompt):
            description = "Greets someone by name"
            arguments = [Prompt.Argument(name="name", required=True)]

            @classmethod
            def template(cls, args, server_context=None):
                return Prompt.Result(messages=[Prompt.Message(role="user", content=Content.Text(f"Say hello to {args['name']}"))])


        server = Server(name="greeter", prompts=[Greeting])
        with Client(transport=InMemory(server)) as client:
            client.connect()
            response = client.get_prompt("greeting", {"name": "Ada"})
            assert response["messages"][0]["content"]["text"] == "Say hello to Ada"
    """

    #: The wire name; defaults to the snake_case class name.
    prompt_name: t.ClassVar[str] = "prompt"
    #: Human-readable display name (protocol 2025-06-18 and later).
    title: t.ClassVar[str | None] = None
    #: What the prompt is for.
    description: t.ClassVar[str | None] = None
    #: The arguments the template takes; a Pydantic model lists its fields, and ``template``
    #: then receives the validated model instead of the arguments dict.
    arguments: t.ClassVar[list[Argument]] = []
    #: ``_meta`` of the ``prompts/list`` entry.
    meta: t.ClassVar[dict[str, t.Any] | None] = None
    #: Icons (protocol 2025-11-25).
    icons: t.ClassVar[list[dict[str, t.Any]] | None] = None
    #: OAuth scopes a caller needs: without them the prompt is left out of ``prompts/list``
    #: and refused (HTTP 403 ``insufficient_scope``); see :mod:`mcp_sdk.server.auth`.
    required_scopes: t.ClassVar[tuple[str, ...]] = ()
    #: The server's labels for it (never sent): ``Server(include_tags=..., exclude_tags=...)``
    #: lists and serves only the prompts they let through.
    tags: t.ClassVar[frozenset[str]] = frozenset()

    # Aliases, so ``Prompt.Argument`` works both as a class and in annotations.
    Argument: t.TypeAlias = Argument
    Message: t.TypeAlias = Message
    Result: t.TypeAlias = Result

    _signature: t.ClassVar[Signature]
    #: Builds the arguments dict into the ``arguments`` model; None: the dict is passed.
    _arguments_model: t.ClassVar[t.Callable[[t.Mapping[str, t.Any]], t.Any] | None] = None

    def __init_subclass__(cls, **kwargs: t.Any) -> None:
        super().__init_subclass__(**kwargs)
        own = cls.__dict__
        if "prompt_name" not in own:
            cls.prompt_name = underscore(cls.__name__)
        if "arguments" in own and is_model(own["arguments"]):
            cls._arguments_model = model_loader(own["arguments"])
            cls.arguments = model_arguments(own["arguments"])
        elif "arguments" in own:
            cls._arguments_model = None
            cls.arguments = [_coerce_argument(a) for a in (own["arguments"] or [])]
        if "required_scopes" in own:
            cls.required_scopes = scope_tuple(own["required_scopes"])
        if "tags" in own:
            cls.tags = tag_set(own["tags"])
        cls._signature = Signature(cls.template)

    def __init__(self, *args: t.Any, **kwargs: t.Any) -> None:
        """Always raises: a prompt is its class, registered as is (``Server(prompts=[Greeting])``).

        :param args: ignored.
        :param kwargs: ignored.
        :raises TypeError: always.
        """
        raise TypeError("Prompts are classes: register the class itself, do not instantiate it")

    @classmethod
    def template(cls, args: dict[str, t.Any], server_context: t.Any = None) -> t.Any:
        """Build the messages from ``args``; return a :class:`Prompt.Result` (or its wire dict).

        :param args: the ``prompts/get`` arguments (or the validated model, when ``arguments`` is a model).
        :param server_context: the :class:`~mcp_sdk.ServerContext`, passed when ``template`` declares it.
        """
        raise NotImplementedError(f"{cls.__name__}.template is not implemented")

    @classmethod
    def accepts_server_context(cls) -> bool:
        """Whether ``template`` declares a ``server_context`` parameter."""
        return cls._signature.accepts_server_context

    @classmethod
    def invoke(cls, args: t.Mapping[str, t.Any], server_context: t.Any = None) -> t.Any:
        """Call the template the way its signature asks.

        :raises InvalidParamsError: the ``arguments`` model rejected ``args`` (naming the field).
        :param args: the ``prompts/get`` arguments.
        :param server_context: the :class:`~mcp_sdk.ServerContext`, passed when ``template`` declares it.
        :returns: what ``template`` returns.
        """
        value = cls._arguments_model(args) if cls._arguments_model is not None else dict(args)
        if cls._signature.accepts_server_context:
            return cls.template(value, server_context=server_context)
        return cls.template(value)

    @classmethod
    def missing_arguments(cls, args: t.Mapping[str, t.Any]) -> list[str]:
        """Names of required arguments absent from ``args``.

        :param args: the ``prompts/get`` arguments.
        :returns: the names, in declaration order.
        """
        return [a.name for a in cls.arguments if a.required and args.get(a.name) is None]

    @classmethod
    def to_dict(cls) -> dict[str, t.Any]:
        """The ``prompts/list`` entry, in the latest protocol's shape."""
        entry: dict[str, t.Any] = {"name": cls.prompt_name}
        if cls.title is not None:
            entry["title"] = cls.title
        if cls.description is not None:
            entry["description"] = cls.description
        entry["arguments"] = [argument.to_dict() for argument in cls.arguments]
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
        arguments: t.Iterable[Argument | t.Mapping[str, t.Any]] | type | None = None,
        meta: dict[str, t.Any] | None = None,
        icons: list[dict[str, t.Any]] | None = None,
        required_scopes: t.Iterable[str] = (),
        tags: t.Iterable[str] = (),
        handler: t.Callable[..., t.Any] | None = None,
    ) -> t.Any:
        """Make a Prompt subclass from ``handler(args, server_context=None)``.

        With ``handler=`` the class is returned; without it, a decorator that returns the class.

        :param name: the prompt's name (default: the function's name).
        :param title: a display name.
        :param description: what it is for.
        :param arguments: its arguments: :class:`Argument` objects or dicts, or a Pydantic model whose fields they are.
        :param meta: ``_meta`` of the ``prompts/list`` entry.
        :param icons: icons, each ``{"src": ..., "mimeType": ..., "sizes": [...]}``.
        :param required_scopes: OAuth scopes a caller needs to see and get it.
        :param tags: the server's labels for it, for ``Server(include_tags=..., exclude_tags=...)``.
        :param handler: the template function; without it, ``define`` returns a decorator.
        :returns: the Prompt subclass, or a decorator returning it.
        """

        def build(function: t.Callable[..., t.Any]) -> type[Prompt]:
            prompt_name = name if name is not None else function.__name__
            namespace: dict[str, t.Any] = {
                "prompt_name": prompt_name,
                "title": title,
                "description": description,
                "arguments": arguments if is_model(arguments) else list(t.cast(t.Iterable[t.Any], arguments or [])),
                "meta": meta,
                "icons": icons,
                "required_scopes": scope_tuple(required_scopes),
                "tags": tag_set(tags),
                "template": staticmethod(function),
                "__module__": getattr(function, "__module__", __name__),
                "__doc__": function.__doc__,
            }
            return t.cast("type[Prompt]", type(class_name(prompt_name, "Prompt"), (cls,), namespace))

        if handler is not None:
            return build(handler)
        return build


def _coerce_argument(value: Argument | t.Mapping[str, t.Any]) -> Argument:
    if isinstance(value, Argument):
        return value
    if isinstance(value, t.Mapping):
        return Argument(**value)
    raise TypeError(f"prompt arguments must be Prompt.Argument or dict, not {type(value).__name__}")


__all__ = ["Prompt", "Argument", "Message", "Result"]
