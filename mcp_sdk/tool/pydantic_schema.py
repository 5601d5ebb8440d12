"""Pydantic v2 models as a schema source: tool parameters and results, prompt arguments, elicitation.

The ``[pydantic]`` extra. Nothing here imports pydantic to decide whether a hint is one of its
types: a hint can only be a model (or carry a ``Field``) when the user's code imported pydantic,
so :meth:`PydanticSource.describes` looks in ``sys.modules`` and answers False otherwise. For the
same reason "pydantic is not installed" cannot arise from a model; what can is a Pydantic 1 model
(``pydantic.v1.BaseModel``, or Pydantic < 2 installed: no ``model_json_schema``), which raises
:class:`~mcp_sdk.MissingExtraError` naming the extra where the tool or prompt is defined.

Schemas are Pydantic's own (``TypeAdapter(hint).json_schema()``, titles, aliases and ``Field``
constraints included, as the official SDK sends them) with every ``$ref`` into ``$defs``
replaced by its definition, so clients and elicitation forms that do not follow references read
them; only a recursive model keeps ``$defs`` (its self-references cannot be written out).
"""

from __future__ import annotations

import sys
import typing as t

from ..errors import MissingExtraError
from .schema_source import InvalidValueError, Mode

_DEFINITION = "#/$defs/"
#: Where ``BaseModel`` lives: Pydantic 2 (or 1), and Pydantic 1's API kept inside Pydantic 2.
_MODEL_MODULES = ("pydantic.main", "pydantic.v1.main")


class PydanticSource:
    """Pydantic ``BaseModel`` subclasses, and hints that contain them or an ``Annotated[..., Field(...)]``."""

    def describes(self, hint: t.Any) -> bool:
        bases = tuple(module.BaseModel for module in map(sys.modules.get, _MODEL_MODULES) if module is not None)
        if not bases:
            return False
        fields = sys.modules.get("pydantic.fields")
        return _involves(hint, bases, getattr(fields, "FieldInfo", None))

    def schema(self, hint: t.Any, mode: Mode) -> dict[str, t.Any]:
        adapter = _adapter(hint)
        try:
            schema = adapter.json_schema(mode=mode)
        except Exception as error:  # PydanticInvalidForJsonSchema, PydanticUserError
            raise TypeError(f"{_name(hint)} has no JSON Schema ({error})") from None
        schema = inline_references(schema)
        if t.get_origin(hint) is t.Annotated and "description" not in schema:
            descriptions = [extra for extra in t.get_args(hint)[1:] if isinstance(extra, str)]
            if descriptions:
                schema["description"] = descriptions[-1]
        return schema

    def loader(self, hint: t.Any) -> t.Callable[[t.Any], t.Any]:
        adapter = _adapter(hint)
        pydantic = sys.modules["pydantic"]

        def load(data: t.Any) -> t.Any:
            try:
                return adapter.validate_python(data)
            except pydantic.ValidationError as error:
                first = error
            if isinstance(data, str) and data.lstrip()[:1] in ("{", "["):  # a prompt's argument: JSON text
                try:
                    return adapter.validate_json(data)
                except pydantic.ValidationError as error:
                    first = error
            raise invalid_value(first) from None

        return load

    def fields(self, value: t.Any) -> dict[str, t.Any]:
        return {name: getattr(value, name) for name in type(value).model_fields}

    def dumps(self, value: t.Any) -> bool:
        main = sys.modules.get("pydantic.main")
        return main is not None and isinstance(value, main.BaseModel)

    def dump(self, value: t.Any) -> t.Any:
        return value.model_dump(mode="json", by_alias=True)


def invalid_value(error: t.Any) -> InvalidValueError:
    """The first failure of a ``pydantic.ValidationError``, its location as a dotted field path."""
    details = error.errors(include_url=False)
    if not details:
        return InvalidValueError("", str(error))
    first = details[0]
    return InvalidValueError(".".join(str(part) for part in first["loc"]), str(first["msg"]))


def inline_references(schema: dict[str, t.Any]) -> dict[str, t.Any]:
    """``schema`` with each ``{"$ref": "#/$defs/X"}`` replaced by definition ``X`` (keywords beside
    the reference kept); a recursive definition stays referenced, in the result's ``$defs``."""
    definitions = schema.get("$defs") or {}
    kept: dict[str, t.Any] = {}

    def walk(node: t.Any, seen: tuple[str, ...]) -> t.Any:
        if isinstance(node, list):
            return [walk(item, seen) for item in node]
        if not isinstance(node, dict):
            return node
        reference = node.get("$ref")
        if isinstance(reference, str) and reference.startswith(_DEFINITION) and reference[len(_DEFINITION) :] in definitions:
            name = reference[len(_DEFINITION) :]
            if name in seen:
                if name not in kept:
                    kept[name] = {}
                    kept[name] = walk(definitions[name], (name,))
                return dict(node)
            beside = {key: walk(value, seen) for key, value in node.items() if key != "$ref"}
            return {**walk(definitions[name], (*seen, name)), **beside}
        return {key: walk(value, seen) for key, value in node.items() if key != "$defs"}

    result = t.cast("dict[str, t.Any]", walk(schema, ()))
    if kept:
        result["$defs"] = kept
    return result


def _adapter(hint: t.Any) -> t.Any:
    """A ``pydantic.TypeAdapter`` for ``hint``; built where a tool or prompt is defined, never per call."""
    legacy = [module.BaseModel for module in map(sys.modules.get, _MODEL_MODULES) if module is not None]
    legacy = [base for base in legacy if not hasattr(base, "model_json_schema")]
    if legacy and _involves(hint, tuple(legacy), None):
        raise MissingExtraError(
            f"{_name(hint)} is a Pydantic 1 model (pydantic.v1 or Pydantic < 2); mcp_sdk reads Pydantic 2 models"
            " (pydantic.BaseModel): pip install 'mcp_sdk[pydantic]'"
        )
    from pydantic import TypeAdapter  # already imported by the user's code: describes() said so

    return TypeAdapter(hint)


def _involves(hint: t.Any, base_model: tuple[type, ...], field_info: type | None) -> bool:
    if t.get_origin(hint) is None:
        return isinstance(hint, type) and issubclass(hint, base_model)
    arguments = t.get_args(hint)
    if t.get_origin(hint) is t.Annotated:
        if field_info is not None and any(isinstance(extra, field_info) for extra in arguments[1:]):
            return True
        return _involves(arguments[0], base_model, field_info)
    return any(_involves(argument, base_model, field_info) for argument in arguments if argument is not Ellipsis)


def _name(hint: t.Any) -> str:
    return getattr(hint, "__qualname__", None) or repr(hint)


__all__ = ["PydanticSource", "inline_references", "invalid_value"]
