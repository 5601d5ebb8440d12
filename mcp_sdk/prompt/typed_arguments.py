"""Prompt arguments typed with a schema source's types (Pydantic models, ``Annotated[..., Field(...)]``).

Prompt arguments are strings on the wire. A parameter typed with a model takes its value as JSON
text (its description says so and gives the schema, as FastMCP does); one typed
``Annotated[int, Field(ge=1)]`` takes the number as text, checked against the constraint. A
Prompt class whose ``arguments`` is a model lists the model's fields and gets the validated
instance in ``template``. A value the type rejects is ``-32602 Invalid params`` naming the argument
and the field, as other prompt argument errors are.
"""

from __future__ import annotations

import typing as t

from ..errors import InvalidParamsError
from ..json_rpc import encode
from ..tool import schema_sources, type_schema
from ..tool.schema_source import InvalidValueError
from .argument import Argument

#: Schema types whose values a prompt argument carries as JSON text.
_JSON_TYPES = frozenset({"object", "array"})


def is_model(value: t.Any) -> bool:
    """Whether ``value`` (a Prompt's ``arguments``) is a model class a schema source describes."""
    return isinstance(value, type) and schema_sources.describing(value) is not None


def model_arguments(model: t.Any) -> list[Argument]:
    """The ``prompts/list`` arguments of a model: one per field, its description, required when it has no default.

    :raises TypeError: the model has no JSON Schema.
    """
    schema = type_schema.schema_for(model)
    required = set(schema.get("required") or ())
    return [
        Argument(name=name, description=argument_description(None, field), required=name in required)
        for name, field in (schema.get("properties") or {}).items()
    ]


def argument_description(description: str | None, schema: t.Mapping[str, t.Any]) -> str | None:
    """An argument's description; for a value passed as JSON text, with the schema it must match."""
    text = description if description is not None else schema.get("description")
    if not _is_json_valued(schema):
        return text
    hint = f"Provide as a JSON string matching the following schema: {encode(schema)}"
    return f"{text} ({hint})" if text else hint


def model_loader(model: t.Any) -> t.Callable[[t.Mapping[str, t.Any]], t.Any]:
    """Builds a prompt's arguments into ``model``; raises :class:`InvalidParamsError` naming the field."""
    source = schema_sources.describing(model)
    assert source is not None
    load = source.loader(model)

    def build(arguments: t.Mapping[str, t.Any]) -> t.Any:
        try:
            return load(dict(arguments))
        except InvalidValueError as error:
            raise InvalidParamsError(f"Invalid params: argument {error.field!r}: {error.reason}" if error.field else f"Invalid params: {error.reason}") from None

    return build


def parameter_loaders(parameters: t.Iterable[t.Any]) -> dict[str, t.Callable[[t.Any], t.Any]]:
    """Loaders for the parameters (``inspect.Parameter``, hints resolved) a schema source describes."""
    loaders = {}
    for parameter in parameters:
        source = schema_sources.describing(parameter.annotation) if parameter.annotation is not parameter.empty else None
        if source is not None:
            loaders[parameter.name] = source.loader(parameter.annotation)
    return loaders


def load_parameters(loaders: t.Mapping[str, t.Callable[[t.Any], t.Any]], kwargs: dict[str, t.Any]) -> None:
    """Replace the arguments in ``kwargs`` that ``loaders`` build by their values.

    :raises InvalidParamsError: naming the argument and the field the type rejected.
    """
    for name, load in loaders.items():
        if name in kwargs:
            try:
                kwargs[name] = load(kwargs[name])
            except InvalidValueError as error:
                raise InvalidParamsError(f"Invalid params: argument {name!r}: {error}") from None


def _is_json_valued(schema: t.Mapping[str, t.Any]) -> bool:
    kind = schema.get("type")
    if kind in _JSON_TYPES or (isinstance(kind, list) and _JSON_TYPES.intersection(kind)):
        return True
    return any(_is_json_valued(option) for option in schema.get("anyOf") or () if isinstance(option, t.Mapping))


__all__ = ["argument_description", "is_model", "load_parameters", "model_arguments", "model_loader", "parameter_loaders"]
