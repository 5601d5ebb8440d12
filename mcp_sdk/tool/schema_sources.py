"""The schema sources the SDK asks, in order, and what it asks of them all (see :mod:`.schema_source`)."""

from __future__ import annotations

import typing as t

from .pydantic_schema import PydanticSource
from .schema_source import Mode, SchemaSource


#: Every schema source, asked in order.
SOURCES: tuple[SchemaSource, ...] = (PydanticSource(),)


def describing(hint: t.Any) -> SchemaSource | None:
    """The source that describes ``hint``, or None (the SDK's own readers apply)."""
    for source in SOURCES:
        if source.describes(hint):
            return source
    return None


def dumped(value: t.Any) -> t.Any:
    """``value`` as JSON when a source owns it (or owns the items of a list or tuple), else as given."""
    for source in SOURCES:
        if source.dumps(value):
            return source.dump(value)
    if isinstance(value, (list, tuple)) and any(source.dumps(item) for item in value for source in SOURCES):
        return [dumped(item) for item in value]
    return value


def hoist_definitions(schema: dict[str, t.Any]) -> dict[str, t.Any]:
    """``schema`` with the ``$defs`` of nested schemas moved to its top, where ``#/$defs/...``
    references resolve (a recursive model's schema embedded as a property keeps working).

    :raises TypeError: two different definitions share one name.
    """
    found: dict[str, t.Any] = {}

    def lift(node: t.Any, top: bool) -> t.Any:
        if isinstance(node, list):
            return [lift(item, False) for item in node]
        if not isinstance(node, dict):
            return node
        definitions = node.get("$defs")
        if isinstance(definitions, dict) and not top:
            for name, definition in definitions.items():
                lifted = lift(definition, False)
                if found.setdefault(name, lifted) != lifted:
                    raise TypeError(f"two different types are both named {name!r} in one schema; rename one")
        return {key: lift(value, False) for key, value in node.items() if not (key == "$defs" and not top)}

    result = t.cast("dict[str, t.Any]", lift(schema, True))
    if found:
        result["$defs"] = {**found, **result.get("$defs", {})}
    return result


__all__ = ["Mode", "SOURCES", "describing", "dumped", "hoist_definitions"]
