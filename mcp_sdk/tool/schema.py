"""JSON Schema wrappers shared by tool input and output schemas.

Schemas are sent to clients exactly as given. For validation they are compiled
once, never per call, with fastjsonschema, in two steps: the validator's source
is generated where the schema is defined (so a broken schema is refused there),
and run into a function on the first validation (so defining many tools, and so
a server's start, stays cheap: the second step is most of the cost).
fastjsonschema implements drafts 4, 6 and 7: ``$schema`` is dropped, and ``$ref`` into ``$defs``
resolves as a JSON pointer. 2020-12 keywords without a draft-7 meaning
(``prefixItems``, ``unevaluatedProperties``, ``dependentRequired``,
``dependentSchemas``, ``$dynamicRef``) are accepted but not enforced, and, as in
draft 7, keywords beside a ``$ref`` are ignored. ``format`` is not enforced.
"""

from __future__ import annotations

import threading
import typing as t

import fastjsonschema

from ..errors import ValidationError


class Schema:
    """A JSON Schema object with a cached validator.

    Accepts a dict, keyword arguments (``properties=..., required=...``), or
    another :class:`Schema`.
    """

    #: The ``type`` a schema gets when it names none.
    default_type: t.ClassVar[str] = "object"
    #: What validation messages call the validated value as a whole.
    root_name: t.ClassVar[str] = "value"

    def __init__(self, schema: t.Mapping[str, t.Any] | Schema | None = None, **keywords: t.Any) -> None:
        if isinstance(schema, Schema):
            schema = schema.schema
        merged = dict(schema or {})
        merged.update(keywords)
        if "type" not in merged and "$ref" not in merged and not any(k in merged for k in ("anyOf", "oneOf", "allOf")):
            merged = {"type": self.default_type, **merged}
        self.schema: dict[str, t.Any] = merged
        #: Whether validating fills in ``default`` values (fastjsonschema writes them into the data).
        self.fills_defaults: bool = _has_default(merged)
        self._validator: t.Callable[[t.Any], t.Any] | None = None
        self._lock = threading.Lock()
        # Generating the source rejects a broken schema where it is defined, not on the first call.
        self._source: str | None = _validator_source({k: v for k, v in merged.items() if k != "$schema"})

    def _compiled(self) -> t.Callable[[t.Any], t.Any]:
        validator = self._validator
        if validator is None:
            with self._lock:
                source = self._source
                if source is not None:
                    namespace: dict[str, t.Any] = {}
                    exec(source, namespace)  # the validators of the root and of each $ref, root first
                    start = source.index("\ndef ") + 5
                    self._validator = namespace[source[start : source.index("(", start)]]
                    self._source = None
                validator = t.cast("t.Callable[[t.Any], t.Any]", self._validator)
        return validator

    def errors(self, data: t.Any) -> str | None:
        """The first validation failure as a message naming the field, or None when valid.

        :param data: the value to validate.
        """
        try:
            (self._validator or self._compiled())(data)
        except fastjsonschema.JsonSchemaValueException as error:
            return _describe(error, self.root_name)
        return None

    def to_dict(self) -> dict[str, t.Any]:
        """The schema as given (plus ``type`` when it had none)."""
        return self.schema

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Schema):
            return self.schema == other.schema
        if isinstance(other, dict):
            return self.schema == other
        return NotImplemented

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.schema!r})"


def _has_default(node: t.Any) -> bool:
    if isinstance(node, dict):
        return "default" in node or any(_has_default(value) for value in node.values())
    if isinstance(node, list):
        return any(_has_default(value) for value in node)
    return False


def _validator_source(definition: dict[str, t.Any]) -> str:
    try:
        return fastjsonschema.compile_to_code(definition, use_formats=False)
    except fastjsonschema.JsonSchemaDefinitionException as error:
        raise ValidationError(f"Invalid JSON Schema: {error}") from None


def _describe(error: fastjsonschema.JsonSchemaValueException, root_name: str) -> str:
    message = error.message
    # fastjsonschema names the root "data"; name the field, or what the root is.
    if message.startswith("data."):
        return message[5:]
    if message.startswith("data "):
        return f"{root_name} {message[5:]}"
    if message.startswith("data["):
        return f"{root_name}{message[4:]}"
    return message
