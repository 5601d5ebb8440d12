"""Checks and derivations run once, when a Tool class is defined.

A ``call`` that cannot work (an instance method, an ``async def``) raises here, with what to
write instead; a tool without ``input_schema`` gets one from its ``call`` signature, and one
with both has them checked against each other; schemas that do not compile raise naming the
tool and the field, never fastjsonschema's bare error.
"""

from __future__ import annotations

import inspect
import typing as t

from ..errors import DefinitionError, SchemaError, ValidationError
from . import schema_sources, type_schema
from .schema import Schema

SchemaT = t.TypeVar("SchemaT", bound=Schema)


def check_call(owner: str, call: t.Any) -> None:
    """Raise :class:`DefinitionError` unless ``call`` (a class's own attribute) is a sync class or static method."""
    function = call.__func__ if isinstance(call, (classmethod, staticmethod)) else call
    if inspect.iscoroutinefunction(function) or inspect.isasyncgenfunction(function):
        # A decorated function arrives as a staticmethod under its own name: name the fix it needs.
        named = getattr(function, "__name__", "call")
        fix = "'@classmethod def call(cls, ...)'" if named == "call" else f"'def {named}(...)'"
        raise DefinitionError(
            f"{owner}: {named} is an async def; mcp_sdk runs tools on threads, so write a plain "
            f"{fix} (run a coroutine inside it with asyncio.run(...))"
        )
    if not isinstance(call, (classmethod, staticmethod)):
        raise DefinitionError(
            f"{owner}: call must be a classmethod (tools are never instantiated); write '@classmethod' above 'def call(cls, ...)'"
        )


def is_model(value: t.Any) -> bool:
    """Whether ``value`` (a tool's ``input_schema`` or ``output_schema``) is a model class a schema source describes."""
    return isinstance(value, type) and not issubclass(value, Schema) and schema_sources.describing(value) is not None


def compiled(owner: str, kind: str, schema: t.Any, schema_class: type[SchemaT]) -> SchemaT:
    """``schema`` (a dict, or a model class a schema source describes) as a compiled ``schema_class``,
    or :class:`SchemaError` naming the tool and the field."""
    if isinstance(schema, schema_class):
        return schema
    if is_model(schema):
        mode: schema_sources.Mode = "validation" if kind == "input_schema" else "serialization"
        try:
            schema = type_schema.schema_for(schema, mode)
        except TypeError as error:
            raise SchemaError(f"{owner}: {kind}: {error}") from None
        if schema.get("type") != "object":
            raise SchemaError(f"{owner}: {kind} must describe an object, and {kind} gives {schema!r:.200}")
    if schema is not None and not isinstance(schema, t.Mapping):
        raise SchemaError(f"{owner}: {kind} must be a dict (a JSON Schema object) or a Pydantic model, not {type(schema).__name__}")
    try:
        result = schema_class(schema)
    except ValidationError as error:
        raise SchemaError(f"{owner}: invalid {kind}{_failing_field(schema, schema_class)}: {_reason(error)}") from None
    try:
        type_schema.check_required_names(result.schema, owner)
    except DefinitionError as error:
        raise SchemaError(str(error).replace(f"{owner}: ", f"{owner}: {kind} ", 1)) from None
    return result


def _failing_field(schema: t.Any, schema_class: type[Schema]) -> str:
    properties = schema.get("properties") if isinstance(schema, t.Mapping) else None
    if isinstance(properties, t.Mapping):
        for name, value in properties.items():
            try:
                schema_class({"type": "object", "properties": {name: value}})
            except ValidationError:
                return f" at property {name!r}"
    return ""


def _reason(error: ValidationError) -> str:
    return str(error).removeprefix("Invalid JSON Schema: ")


__all__ = ["check_call", "compiled"]
