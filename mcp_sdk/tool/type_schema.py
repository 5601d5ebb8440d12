"""JSON Schemas from a function's signature, type hints and docstring.

``input_schema_for(fn)`` gives a tool without an ``input_schema`` its schema: one property per
parameter (``server_context`` and ``*args``/``**kwargs`` left out), typed from its hint, with its
default as ``default`` and its description from the docstring (Google ``Args:`` sections or reST
``:param name:`` lines) or from ``Annotated[T, "description"]``. ``check_against_signature``
checks an explicit schema against the function instead. Hints a schema source describes
(Pydantic models, ``Annotated[T, Field(...)]``: :mod:`.schema_sources`) get that source's schema.
"""

from __future__ import annotations

import collections.abc
import dataclasses
import enum
import inspect
import re
import types
import typing as t

import attrs

from ..errors import DefinitionError, SchemaError
from . import schema_sources

#: Parameters that are never tool arguments.
SKIPPED_PARAMETERS = frozenset({"server_context"})

_SCALARS: dict[t.Any, dict[str, t.Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    t.Any: {},
    object: {},
}


def parameters(function: t.Callable[..., t.Any], owner: str) -> list[inspect.Parameter]:
    """The parameters of ``function`` that are tool arguments, annotations resolved.

    :raises DefinitionError: naming ``owner`` and the parameter when a hint cannot be resolved.
    """
    found = []
    for parameter in inspect.signature(function).parameters.values():
        if parameter.name in SKIPPED_PARAMETERS or parameter.kind in (parameter.VAR_POSITIONAL, parameter.VAR_KEYWORD):
            continue
        try:  # only these hints: server_context's or the return's may name TYPE_CHECKING-only imports
            hint = _resolved(parameter.annotation, function)
        except Exception as error:
            raise DefinitionError(
                f"{owner}: cannot resolve the type hint {parameter.annotation!r} of parameter {parameter.name!r} ({error})"
            ) from None
        found.append(parameter.replace(annotation=hint))
    return found


def input_schema_for(function: t.Callable[..., t.Any], owner: str) -> dict[str, t.Any]:
    """The ``inputSchema`` derived from ``function``'s parameters (see the module docstring).

    :raises DefinitionError: naming ``owner`` and the field when a parameter's type has no JSON Schema.
    """
    descriptions = parameter_descriptions(function.__doc__)
    properties: dict[str, t.Any] = {}
    required: list[str] = []
    for parameter in parameters(function, owner):
        if parameter.kind is parameter.POSITIONAL_ONLY:
            raise DefinitionError(f"{owner}: parameter {parameter.name!r} is positional-only; tool arguments arrive by name")
        hint = parameter.annotation
        try:
            schema = schema_for(hint) if hint is not parameter.empty else {}
        except TypeError as error:
            raise DefinitionError(f"{owner}: parameter {parameter.name!r}: {error}") from None
        description = descriptions.get(parameter.name)
        if description and "description" not in schema:
            schema["description"] = description
        if parameter.default is parameter.empty:
            required.append(parameter.name)
        elif _is_json(parameter.default):
            schema["default"] = parameter.default.value if isinstance(parameter.default, enum.Enum) else parameter.default
        properties[parameter.name] = schema
    result: dict[str, t.Any] = {"type": "object", "properties": properties}
    if required:
        result["required"] = required
    try:
        return schema_sources.hoist_definitions(result)
    except TypeError as error:
        raise DefinitionError(f"{owner}: {error}") from None


def output_schema_for(function: t.Callable[..., t.Any]) -> dict[str, t.Any] | None:
    """The ``outputSchema`` a return hint implies (a dataclass, attrs class, ``TypedDict`` or ``dict``;
    ``int``, ``float``, ``bool`` or a list of those or of objects, wrapped as ``{"result": ...}``), else None."""
    try:
        hint = _resolved(inspect.signature(function).return_annotation, function)
    except Exception:  # a hint only a type checker can resolve implies nothing
        return None
    if hint is inspect.Signature.empty:
        return None
    try:
        structured = is_structured_type(hint)
        if structured or is_wrapped_type(hint):
            schema = schema_for(hint, "serialization")
            if structured and schema.get("type") == "object":
                return schema
            # Not an object (a number, a list, a model of one such as RootModel[list[int]]): {"result": ...}.
            wrapped = {"type": "object", "properties": {"result": schema}, "required": ["result"]}
            return schema_sources.hoist_definitions(wrapped)
    except TypeError:
        return None
    return None


def is_wrapped_type(hint: t.Any) -> bool:
    """Whether values of ``hint`` become the structured content ``{"result": value}``: ``int``,
    ``float``, ``bool``, and lists or tuples of anything but strings (a list of strings is text)."""
    origin = t.get_origin(hint)
    if origin is t.Annotated:
        return is_wrapped_type(t.get_args(hint)[0])
    if hint in (int, float, bool):
        return True
    if origin in (list, tuple):
        items = [arg for arg in t.get_args(hint) if arg is not Ellipsis]
        return bool(items) and str not in items and all(item in (int, float, bool) or is_structured_type(item) for item in items)
    return False


def is_structured_type(hint: t.Any) -> bool:
    """Whether values of ``hint`` become ``structuredContent`` (objects with a schema of their own)."""
    origin = t.get_origin(hint)
    if origin is t.Annotated:
        return is_structured_type(t.get_args(hint)[0])
    return isinstance(hint, type) and (
        dataclasses.is_dataclass(hint) or attrs.has(hint) or t.is_typeddict(hint) or schema_sources.describing(hint) is not None
    ) or hint is dict or origin is dict


def schema_for(hint: t.Any, mode: schema_sources.Mode = "validation") -> dict[str, t.Any]:
    """The JSON Schema of a type hint; ``mode`` says whether values of it come in (arguments)
    or go out (results), which a schema source's types may describe differently.

    :raises TypeError: for a type with no JSON form.
    """
    if hint in _SCALARS:
        return dict(_SCALARS[hint])
    source = schema_sources.describing(hint)
    if source is not None:
        return source.schema(hint, mode)
    origin = t.get_origin(hint)
    args = t.get_args(hint)
    if origin is t.Annotated:
        annotated = schema_for(args[0])
        for extra in args[1:]:
            if isinstance(extra, str):
                annotated["description"] = extra
        return annotated
    if origin is t.Union or origin is types.UnionType:
        return _union_schema(args)
    if origin is t.Literal:
        return _enum_schema(list(args))
    if origin in (list, tuple, set, frozenset) or hint in (list, tuple, set, frozenset):
        return _array_schema(hint, origin, args)
    if origin is dict or hint is dict:
        return _mapping_schema(args)
    if isinstance(hint, type):
        schema = _class_schema(hint)
        if schema is not None:
            return schema
    raise TypeError(f"{_type_name(hint)} has no JSON Schema (use str, int, float, bool, list, dict, Literal, an Enum, a TypedDict, a dataclass or a Pydantic model)")


def _union_schema(args: tuple[t.Any, ...]) -> dict[str, t.Any]:
    """The schema of a union of ``args``: ``anyOf`` them, or the one type made nullable (``X | None``)."""
    options = [schema_for(arg) for arg in args]
    nullable = {"type": "null"} in options
    others = [o for o in options if o != {"type": "null"}]
    if nullable and len(others) == 1 and isinstance(others[0].get("type"), str):
        return {**others[0], "type": [others[0]["type"], "null"]}
    return {"anyOf": options}


def _array_schema(hint: t.Any, origin: t.Any, args: tuple[t.Any, ...]) -> dict[str, t.Any]:
    """The schema of a list, tuple, set or frozenset hint (``origin`` and ``args`` its parts)."""
    schema: dict[str, t.Any] = {"type": "array"}
    if origin is tuple and args and args[-1] is not Ellipsis:
        schema["prefixItems"] = [schema_for(arg) for arg in args]
        schema["minItems"] = schema["maxItems"] = len(args)
    elif args:
        schema["items"] = schema_for(args[0])
    if origin in (set, frozenset) or hint in (set, frozenset):
        schema["uniqueItems"] = True
    return schema


def _mapping_schema(args: tuple[t.Any, ...]) -> dict[str, t.Any]:
    """The schema of a dict hint with type arguments ``args`` (its values typed unless ``Any``)."""
    mapping: dict[str, t.Any] = {"type": "object"}
    if len(args) == 2 and args[1] is not t.Any:
        mapping["additionalProperties"] = schema_for(args[1])
    return mapping


def _class_schema(hint: type) -> dict[str, t.Any] | None:
    """The schema of an Enum, a TypedDict, a dataclass or an attrs class; None for another class."""
    if issubclass(hint, enum.Enum):
        return _enum_schema([member.value for member in hint])
    if t.is_typeddict(hint):
        hints = t.get_type_hints(hint, include_extras=True)
        required_keys: frozenset[str] = getattr(hint, "__required_keys__", frozenset(hints))
        return _object_schema({name: (hints[name], name in required_keys, None) for name in hints})
    if dataclasses.is_dataclass(hint):
        hints = t.get_type_hints(hint, include_extras=True)
        fields = {
            f.name: (hints.get(f.name, t.Any), _dataclass_required(f), _dataclass_default(f))
            for f in dataclasses.fields(hint)
        }
        return _object_schema(fields)
    if attrs.has(hint):
        hints = t.get_type_hints(hint, include_extras=True)
        fields = {
            a.name: (hints.get(a.name, t.Any), a.default is attrs.NOTHING, _attrs_default(a))
            for a in attrs.fields(hint)
        }
        return _object_schema(fields)
    return None


def check_against_signature(schema: t.Mapping[str, t.Any], function: t.Callable[..., t.Any], owner: str) -> None:
    """Check an explicit input schema against the function that receives its arguments.

    :raises SchemaError: naming ``owner`` and the field: a ``required`` name that is not a property,
        a required property the function cannot take, or a required parameter the schema lacks.
    """
    check_required_names(schema, owner)
    signature = inspect.signature(function)
    _check_required_are_parameters(schema, function, signature, owner)
    _check_parameters_are_properties(schema, function, signature, owner)


def _check_required_are_parameters(
    schema: t.Mapping[str, t.Any], function: t.Callable[..., t.Any], signature: inspect.Signature, owner: str
) -> None:
    """:raises SchemaError: a ``required`` property ``function`` has no parameter for (and no ``**kwargs``)."""
    if any(p.kind is p.VAR_KEYWORD for p in signature.parameters.values()):
        return
    takes = {p.name for p in signature.parameters.values() if p.kind in (p.POSITIONAL_OR_KEYWORD, p.KEYWORD_ONLY)}
    for name in schema.get("required") or ():
        if name not in takes:
            raise SchemaError(
                f"{owner}: input_schema requires {name!r} but {_name(function)} has no parameter {name!r} (add it, or **kwargs)"
            )


def _check_parameters_are_properties(
    schema: t.Mapping[str, t.Any], function: t.Callable[..., t.Any], signature: inspect.Signature, owner: str
) -> None:
    """:raises SchemaError: a parameter of ``function`` without a default that the schema's
        ``properties`` lack (checked only for a plain object schema, not a composed one)."""
    properties = schema.get("properties")
    composed = any(key in schema for key in ("$ref", "allOf", "anyOf", "oneOf", "additionalProperties", "patternProperties"))
    if not isinstance(properties, dict) or composed:
        return
    for parameter in signature.parameters.values():
        if (
            parameter.name not in SKIPPED_PARAMETERS
            and parameter.kind in (parameter.POSITIONAL_OR_KEYWORD, parameter.KEYWORD_ONLY)
            and parameter.default is parameter.empty
            and parameter.name not in properties
        ):
            raise SchemaError(
                f"{owner}: parameter {parameter.name!r} of {_name(function)} is required but input_schema has no property {parameter.name!r}"
                " (add it to the schema, or give the parameter a default)"
            )


def check_required_names(schema: t.Mapping[str, t.Any], owner: str) -> None:
    """Raise :class:`DefinitionError` when ``required`` names a property the object schema does not define."""
    required = schema.get("required")
    if required is None:
        return
    if not isinstance(required, list) or not all(isinstance(name, str) for name in required):
        raise DefinitionError(f"{owner}: 'required' must be a list of property names, not {required!r}")
    if any(key in schema for key in ("$ref", "allOf", "anyOf", "oneOf", "additionalProperties", "patternProperties")):
        return
    properties = schema.get("properties") or {}
    for name in required:
        if name not in properties:
            raise DefinitionError(f"{owner}: 'required' names {name!r}, which is not in 'properties'")


def parameter_descriptions(doc: str | None) -> dict[str, str]:
    """Parameter descriptions from a docstring's Google ``Args:`` section or reST ``:param x:`` lines."""
    if not doc:
        return {}
    text = inspect.cleandoc(doc)
    found = {m.group(1): " ".join(m.group(2).split()) for m in _REST_PARAM.finditer(text)}
    section = _GOOGLE_ARGS.search(text)
    if section:
        current: str | None = None
        for line in section.group(1).splitlines():
            match = _GOOGLE_LINE.match(line)
            if match:
                current = match.group(1)
                found[current] = match.group(2).strip()
            elif current and line.strip():
                found[current] = f"{found[current]} {line.strip()}".strip()
    return found


def summary(doc: str | None) -> str | None:
    """A docstring without its parameter sections: the tool's description."""
    if not doc:
        return None
    text = inspect.cleandoc(doc)
    cut = [m.start() for m in (_GOOGLE_ARGS.search(text), _REST_PARAM.search(text)) if m]
    text = text[: min(cut)] if cut else text
    return text.strip() or None


_REST_PARAM = re.compile(r"^:param\s+(?:[^:\s]+\s+)?(\w+):\s*(.*(?:\n(?!:)(?!\s*$).*)*)", re.MULTILINE)
_GOOGLE_ARGS = re.compile(r"^(?:Args|Arguments|Parameters):\s*\n((?:[ \t]+.*\n?|\s*\n)*)", re.MULTILINE)
_GOOGLE_LINE = re.compile(r"^\s{2,}(\w+)\s*(?:\([^)]*\))?:\s*(.*)$")


def _object_schema(fields: dict[str, tuple[t.Any, bool, t.Any]]) -> dict[str, t.Any]:
    properties: dict[str, t.Any] = {}
    required: list[str] = []
    for name, (hint, is_required, default) in fields.items():
        properties[name] = schema_for(hint)
        if is_required:
            required.append(name)
        elif default is not None and _is_json(default):
            properties[name]["default"] = default
    schema: dict[str, t.Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _enum_schema(values: list[t.Any]) -> dict[str, t.Any]:
    kinds = {type(v) for v in values}
    schema: dict[str, t.Any] = {"enum": values}
    if len(kinds) == 1:
        kind = kinds.pop()
        if kind in _SCALARS and kind is not type(None):
            schema = {**_SCALARS[kind], "enum": values}
    return schema


def _dataclass_required(field: dataclasses.Field[t.Any]) -> bool:
    return field.default is dataclasses.MISSING and field.default_factory is dataclasses.MISSING


def _dataclass_default(field: dataclasses.Field[t.Any]) -> t.Any:
    return None if field.default is dataclasses.MISSING else field.default


def _attrs_default(attribute: t.Any) -> t.Any:
    default = attribute.default
    return None if default is attrs.NOTHING or isinstance(default, attrs.Factory) else default  # type: ignore[arg-type]


def is_mapping_hint(annotation: t.Any, function: t.Callable[..., t.Any]) -> bool:
    """Whether a parameter of ``function`` annotated ``annotation`` takes a mapping: ``dict``,
    ``dict[K, V]``, ``typing.Dict[K, V]``, ``Mapping[K, V]``. A string annotation is resolved where
    the function was written; one that cannot be resolved is no mapping.

    :param annotation: the parameter's annotation, as written.
    :param function: the function it belongs to.
    """
    try:
        hint = _resolved(annotation, function)
    except Exception:  # a hint only a type checker can resolve: the schema derivation names it
        return False
    return hint in (dict, t.Dict, t.Mapping, collections.abc.Mapping) or t.get_origin(hint) in (dict, collections.abc.Mapping)


def _resolved(annotation: t.Any, function: t.Callable[..., t.Any]) -> t.Any:
    """A string annotation (``from __future__ import annotations``) evaluated where the function was written."""
    if not isinstance(annotation, str):
        return annotation
    target = inspect.unwrap(getattr(function, "__func__", function))
    namespace = getattr(target, "__globals__", {})
    return eval(annotation, namespace)  # noqa: S307 - what typing.get_type_hints does with the function's own source text


def _is_json(value: t.Any) -> bool:
    if isinstance(value, enum.Enum):
        value = value.value
    if value is None or isinstance(value, (str, int, float, bool)):
        return True
    if isinstance(value, (list, tuple)):
        return all(_is_json(item) for item in value)
    if isinstance(value, dict):
        return all(isinstance(key, str) and _is_json(item) for key, item in value.items())
    return False


def _type_name(hint: t.Any) -> str:
    return getattr(hint, "__qualname__", None) or repr(hint)


def _name(function: t.Callable[..., t.Any]) -> str:
    return f"{getattr(function, '__qualname__', None) or getattr(function, '__name__', 'the function')}()"


__all__ = [
    "input_schema_for",
    "output_schema_for",
    "schema_for",
    "is_mapping_hint",
    "check_against_signature",
    "check_required_names",
    "parameter_descriptions",
    "summary",
    "is_structured_type",
    "is_wrapped_type",
]
