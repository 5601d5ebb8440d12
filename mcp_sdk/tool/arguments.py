"""Arguments typed with a schema source's types (Pydantic models): built from the wire before ``call``.

A ``tools/call``'s arguments are JSON. A parameter typed with a model (``def f(user: User)``), an
``input_schema`` given as a model, or an ``Annotated[..., Field(...)]`` parameter asks for the
model's value instead: :class:`ArgumentBinding` builds it once per call, after the input schema
checked the JSON (so a failure here is one only the model knows: a validator of its own), and
raises :class:`InvalidArgumentsError` naming the field, which the server answers as the tool's
``isError`` result, as it does a schema failure.
"""

from __future__ import annotations

import typing as t

from ..errors import DefinitionError, ValidationError
from . import schema_sources, type_schema
from .schema_source import InvalidValueError, SchemaSource


class InvalidArgumentsError(ValidationError):
    """Arguments a parameter's model rejected; the message (``Invalid arguments: user.age: ...``)
    is what the client reads in the tool's ``isError`` result."""


class ArgumentBinding:
    """How one tool's JSON arguments become what its function receives.

    :param whole: builds the whole arguments object into the ``input_schema`` model, or None.
    :param into: the parameter that receives that model instance; None spreads its fields as
        keyword arguments (or, for a function taking one arguments object, passes the instance).
    :param parameters: parameter name -> loader, for parameters typed with a source's types.
    :param source: the source of the ``input_schema`` model, to spread its fields.
    """

    __slots__ = ("whole", "into", "parameters", "source")

    def __init__(
        self,
        *,
        whole: t.Callable[[t.Any], t.Any] | None = None,
        into: str | None = None,
        parameters: t.Mapping[str, t.Callable[[t.Any], t.Any]] | None = None,
        source: SchemaSource | None = None,
    ) -> None:
        self.whole = whole
        self.into = into
        self.parameters = dict(parameters or {})
        self.source = source

    @classmethod
    def build(
        cls, function: t.Callable[..., t.Any], owner: str, *, model: t.Any = None, takes_object: bool = False
    ) -> ArgumentBinding | None:
        """The binding ``function`` needs, or None when it takes the JSON as it is.

        :param model: the tool's ``input_schema`` when given as a model class.
        :param takes_object: whether ``function`` takes one arguments object (``fn(args)``).
        """
        source = schema_sources.describing(model) if model is not None else None
        if takes_object:
            return cls(whole=source.loader(model)) if source is not None else None
        try:
            parameters = type_schema.parameters(function, owner)
        except DefinitionError:  # a hint only a type checker resolves: no model among them to build
            return cls(whole=source.loader(model), source=source) if source is not None else None
        if source is not None:
            taking = [p.name for p in parameters if p.annotation is model]
            if len(parameters) == 1 and taking:
                return cls(whole=source.loader(model), into=taking[0])
            return cls(whole=source.loader(model), source=source)
        loaders = {}
        for parameter in parameters:
            described = schema_sources.describing(parameter.annotation) if parameter.annotation is not parameter.empty else None
            if described is not None:
                loaders[parameter.name] = described.loader(parameter.annotation)
        return cls(parameters=loaders) if loaders else None

    def takes_model_whole(self) -> bool:
        """Whether one parameter receives the whole ``input_schema`` model (then it is no property)."""
        return self.into is not None

    def arguments_object(self, arguments: t.Mapping[str, t.Any]) -> t.Any:
        """What a function taking one arguments object receives: the model instance, or a dict."""
        return self._whole(arguments) if self.whole is not None else dict(arguments)

    def keyword_arguments(self, arguments: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
        """The keyword arguments: the model (or its fields), or ``arguments`` with typed parameters built."""
        if self.whole is not None:
            value = self._whole(arguments)
            if self.into is not None:
                return {self.into: value}
            assert self.source is not None
            return self.source.fields(value)
        built = dict(arguments)
        for name, load in self.parameters.items():
            if name in built:
                try:
                    built[name] = load(built[name])
                except InvalidValueError as error:
                    raise InvalidArgumentsError(f"Invalid arguments: {error.within(name)}") from None
        return built

    def _whole(self, arguments: t.Mapping[str, t.Any]) -> t.Any:
        assert self.whole is not None
        try:
            return self.whole(dict(arguments))
        except InvalidValueError as error:
            raise InvalidArgumentsError(f"Invalid arguments: {error}") from None


__all__ = ["ArgumentBinding", "InvalidArgumentsError"]
