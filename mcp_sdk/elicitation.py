"""Typed form elicitation: ``server_context.elicit(message, schema=Model)``.

The requested schema comes from a type (a Pydantic model, a dataclass, an attrs class or a
``TypedDict``) or is a JSON Schema dict, and what the user accepted comes back checked against it
and built into the type: a model instance, a dataclass or attrs instance, or the dict itself.

MCP allows a form only flat, primitive fields (string, number, integer, boolean, enums, and
arrays of string enums for multiple choice); a type with any other field raises
:class:`TypeError` naming it before anything is sent. ``Optional[...]`` fields become the
non-null type (not required, as their default makes them), since the form schema has no null.
"""

from __future__ import annotations

import dataclasses
import functools
import typing as t

import attrs

from .errors import ElicitationContentError
from .tool import schema_sources, type_schema
from .tool.schema import Schema
from .tool.schema_source import InvalidValueError

T = t.TypeVar("T")

#: The ``type`` values a form field may have (``PrimitiveSchemaDefinition``, 2025-11-25).
_PRIMITIVE_TYPES = frozenset({"string", "number", "integer", "boolean"})


@attrs.frozen
class ElicitationResult(t.Generic[T]):
    """What the user did with an elicitation form.

    :param action: ``"accept"``, ``"decline"`` or ``"cancel"``.
    :param data: when accepted, the answer built into the requested type (the dict for a dict schema).
    :param content: the answer as the client sent it (None unless accepted).
    """

    action: str
    data: T | None = None
    content: dict[str, t.Any] | None = None

    @property
    def accepted(self) -> bool:
        """Whether the user accepted (then :attr:`data` holds the answer)."""
        return self.action == "accept"


class FormAsker(t.Protocol):
    """What :func:`elicit` asks through: a :class:`~mcp_sdk.server.context.ServerContext`."""

    def create_form_elicitation(
        self, message: str, requested_schema: dict[str, t.Any], timeout: float | None = None
    ) -> dict[str, t.Any]: ...


class _Form(t.NamedTuple):
    requested_schema: dict[str, t.Any]
    checker: Schema
    build: t.Callable[[dict[str, t.Any]], t.Any]


def elicit(
    context: FormAsker, message: str, schema: t.Any, timeout: float | None = None
) -> ElicitationResult[t.Any]:
    """Ask the user to fill the form ``schema`` describes; see :meth:`ServerContext.elicit`."""
    form = _dict_form(schema) if isinstance(schema, t.Mapping) else _type_form(schema)
    answer = context.create_form_elicitation(message=message, requested_schema=form.requested_schema, timeout=timeout)
    action = answer.get("action")
    if action != "accept":
        return ElicitationResult(action=str(action))
    content = answer.get("content") or {}
    problem = form.checker.errors(content)
    if problem is not None:
        raise ElicitationContentError(f"Invalid elicitation content: {problem}")
    try:
        data = form.build(dict(content))
    except InvalidValueError as error:
        raise ElicitationContentError(f"Invalid elicitation content: {error}") from None
    return ElicitationResult(action="accept", data=data, content=content)


def requested_schema(hint: t.Any) -> dict[str, t.Any]:
    """The form schema of a type (see the module docstring).

    :raises TypeError: the type is not an object of flat, primitive fields.
    """
    return _type_form(hint).requested_schema


def _dict_form(schema: t.Mapping[str, t.Any]) -> _Form:
    checker = Schema(schema)
    return _Form(checker.to_dict(), checker, lambda content: content)


@functools.lru_cache(maxsize=128)
def _type_form(hint: t.Any) -> _Form:
    if not isinstance(hint, type) or not type_schema.is_structured_type(hint) or hint is dict:
        raise TypeError(f"elicit() needs a Pydantic model, a dataclass, an attrs class, a TypedDict or a JSON Schema dict, not {hint!r}")
    schema = type_schema.schema_for(hint)
    properties = {name: _form_field(hint, name, field) for name, field in (schema.get("properties") or {}).items()}
    form: dict[str, t.Any] = {"type": "object", "properties": properties}
    if schema.get("required"):
        form["required"] = list(schema["required"])
    source = schema_sources.describing(hint)
    build: t.Callable[[dict[str, t.Any]], t.Any]
    if source is not None:
        build = source.loader(hint)
    elif dataclasses.is_dataclass(hint) or attrs.has(hint):
        build = lambda content: hint(**content)  # noqa: E731
    else:
        build = lambda content: content  # noqa: E731
    return _Form(form, Schema(form), build)


def _not_nullable(field: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
    """A copy of ``field`` without what makes it nullable (``X | None``: an ``anyOf`` with null,
    or a type list with null) and without a None default: a form field is left out, not null."""
    field = dict(field)
    options = field.get("anyOf")
    if isinstance(options, list):
        others = [option for option in options if option != {"type": "null"}]
        if len(others) == 1 and len(others) < len(options):
            del field["anyOf"]
            field = {**others[0], **field}
            if field.get("default", 0) is None:
                del field["default"]
    kind = field.get("type")
    if isinstance(kind, list) and "null" in kind and len(kind) == 2:
        field["type"] = next(k for k in kind if k != "null")
        if field.get("default", 0) is None:
            del field["default"]
    return field


def _form_field(hint: t.Any, name: str, field: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
    field = _not_nullable(field)
    kind = field.get("type")
    items = field.get("items")
    multiple_choice = kind == "array" and isinstance(items, t.Mapping) and ("enum" in items or "anyOf" in items)
    if kind not in _PRIMITIVE_TYPES and not multiple_choice:
        raise TypeError(
            f"{getattr(hint, '__qualname__', hint)} cannot be an elicitation form: field {name!r} is not a string,"
            " number, integer, boolean or enum (forms are flat; ask for nested data as separate fields)"
        )
    return field


__all__ = ["ElicitationResult", "FormAsker", "elicit", "requested_schema"]
