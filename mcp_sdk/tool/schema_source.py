"""Schema sources: libraries of typed models that describe, check and build their own values.

A type hint the SDK reads for a tool, prompt or elicitation is either one it knows itself
(``str``, ``list[int]``, a dataclass, attrs class or ``TypedDict``: see :mod:`.type_schema`) or one a
:class:`SchemaSource` describes. A source gives the hint's JSON Schema, turns validated wire data
into the value a function declared (a model instance), and turns such a value back into JSON.

:data:`.schema_sources.SOURCES` lists them; today one, Pydantic (:mod:`.pydantic_schema`). A source
never imports its library to answer :meth:`SchemaSource.describes`: a hint can only be one of its
models when the user's code has imported the library already.
"""

from __future__ import annotations

import typing as t

from ..errors import ValidationError

#: Which direction a schema describes: data coming in (arguments) or going out (results).
Mode = t.Literal["validation", "serialization"]


class InvalidValueError(ValidationError):
    """Wire data a source's type rejected; :attr:`field` is the dotted path of the first failure
    (``""`` for the value as a whole), :attr:`reason` what is wrong with it."""

    def __init__(self, field: str, reason: str) -> None:
        super().__init__(f"{field}: {reason}" if field else reason)
        self.field = field
        self.reason = reason

    def within(self, name: str) -> InvalidValueError:
        """The same failure, its field path under ``name`` (a parameter or argument name)."""
        return InvalidValueError(f"{name}.{self.field}" if self.field else name, self.reason)


class SchemaSource(t.Protocol):
    """One library of typed models the SDK understands (see the module docstring)."""

    def describes(self, hint: t.Any) -> bool:
        """Whether ``hint`` is (or contains) one of this source's types; never imports the library."""

    def schema(self, hint: t.Any, mode: Mode) -> dict[str, t.Any]:
        """The JSON Schema of ``hint``, self-contained: no ``$ref`` left but recursive ones, whose
        targets sit in its top-level ``$defs``.

        :raises TypeError: the hint has no JSON Schema.
        """

    def loader(self, hint: t.Any) -> t.Callable[[t.Any], t.Any]:
        """A function turning wire data (JSON values, or a prompt's strings) into a value of ``hint``;
        it raises :class:`InvalidValueError` naming the field."""

    def fields(self, value: t.Any) -> dict[str, t.Any]:
        """The fields of one of this source's instances by their Python names, as keyword arguments."""

    def dumps(self, value: t.Any) -> bool:
        """Whether ``value`` is an instance this source turns into JSON."""

    def dump(self, value: t.Any) -> t.Any:
        """The JSON form of ``value`` (what ``structuredContent`` carries)."""


__all__ = ["InvalidValueError", "Mode", "SchemaSource"]
