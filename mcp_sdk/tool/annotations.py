"""Tool annotations: hints about a tool's behaviour (protocol 2025-03-26 and later)."""

from __future__ import annotations

import typing as t

import attrs

from .._converter import unstructure
from ..string_utils import camelize


@attrs.define
class Annotations:
    """Hints for clients; ``to_dict()`` gives camelCase keys (``readOnlyHint`` ...).

    Unset hints are left out, so clients apply the specification's defaults
    (destructive and open-world true, read-only and idempotent false).

    :param read_only_hint: the tool does not change its environment (``readOnlyHint``).
    :param destructive_hint: it may destroy or overwrite data, rather than only add (``destructiveHint``).
    :param idempotent_hint: calling it again with the same arguments has no further effect (``idempotentHint``).
    :param open_world_hint: it reaches outside entities, such as the web (``openWorldHint``).
    :param title: a display name for the tool.
    """

    read_only_hint: bool | None = None
    destructive_hint: bool | None = None
    idempotent_hint: bool | None = None
    open_world_hint: bool | None = None
    title: str | None = None

    @classmethod
    def coerce(cls, value: t.Any) -> Annotations | None:
        """An :class:`Annotations` from one, a dict with snake_case or camelCase keys, or None.

        :param value: the ``annotations`` given to a tool.
        :raises TypeError: not a dict nor :class:`Annotations`, or a dict with an unknown key.
        """
        if value is None or isinstance(value, Annotations):
            return value
        if not isinstance(value, t.Mapping):
            raise TypeError(f"annotations must be a dict or Tool.Annotations, not {type(value).__name__}")
        known = {f.name for f in attrs.fields(cls)}
        by_wire = {camelize(name): name for name in known}
        kwargs = {}
        for key, item in value.items():
            name = key if key in known else by_wire.get(key)
            if name is None:
                raise TypeError(f"unknown tool annotation {key!r}")
            kwargs[name] = item
        return cls(**kwargs)

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form."""
        return t.cast("dict[str, t.Any]", unstructure(self))
