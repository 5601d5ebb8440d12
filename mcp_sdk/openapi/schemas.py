"""OpenAPI schemas as JSON Schema: local ``$ref``s resolved, recursion kept in ``$defs``.

A ``$ref`` is inlined where it is met; one met again inside its own expansion (a recursive
schema, e.g. a tree) becomes ``{"$ref": "#/$defs/<Name>"}`` with ``<Name>`` defined once in the
result's ``$defs``, so every schema is finite. OpenAPI 3.0's ``nullable: true`` becomes a
``"null"`` type; OpenAPI-only keywords (``discriminator``, ``xml``, ``externalDocs``) are dropped
and 3.0's ``example`` becomes ``examples``.
"""

from __future__ import annotations

import re
import typing as t
from urllib.parse import unquote

from .document import OpenAPIError

_OPENAPI_ONLY = frozenset({"discriminator", "xml", "externalDocs", "nullable", "example"})
#: Keywords whose value is a map of names to schemas, or a list of schemas, or one schema.
_SCHEMA_MAPS = frozenset({"properties", "patternProperties", "$defs", "definitions", "dependentSchemas"})
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_ONE = frozenset(
    {"items", "additionalProperties", "not", "if", "then", "else", "contains", "propertyNames",
     "unevaluatedItems", "unevaluatedProperties", "additionalItems"}
)


class Resolver:
    """Follows local references (``#/components/...``) in one document."""

    def __init__(self, document: t.Mapping[str, t.Any]) -> None:
        self.document = document

    def lookup(self, ref: str) -> t.Any:
        """The value ``ref`` points at; :raises OpenAPIError: not a local reference, or dangling."""
        if not ref.startswith("#"):
            raise OpenAPIError(f"only local references are supported, not {ref!r}")
        node: t.Any = self.document
        for part in ref[1:].split("/")[1:]:
            key = unquote(part).replace("~1", "/").replace("~0", "~")
            if isinstance(node, list) and key.isdigit() and int(key) < len(node):
                node = node[int(key)]
            elif isinstance(node, t.Mapping) and key in node:
                node = node[key]
            else:
                raise OpenAPIError(f"the reference {ref!r} leads nowhere")
        return node

    def deref(self, node: t.Any) -> t.Any:
        """``node`` with a top-level ``$ref`` followed (parameters, bodies, responses; at most 32 hops)."""
        for _ in range(32):
            if not (isinstance(node, t.Mapping) and isinstance(node.get("$ref"), str)):
                return node
            node = self.lookup(node["$ref"])
        raise OpenAPIError("a chain of references does not end")



class SchemaBuilder:
    """Converts schemas; the recursive ones it meets are collected in :attr:`defs`."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.defs: dict[str, t.Any] = {}
        self._pending: dict[str, str] = {}

    def convert(self, node: t.Any, stack: tuple[str, ...] = ()) -> t.Any:
        """``node`` as JSON Schema, references in ``stack`` (being expanded) left as ``$defs`` refs."""
        if isinstance(node, list):
            return [self.convert(item, stack) for item in node]
        if not isinstance(node, t.Mapping):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            siblings = {key: value for key, value in node.items() if key != "$ref"}
            if ref in stack:
                name = self._def_name(ref)
                self._pending.setdefault(ref, name)
                return {"$ref": f"#/$defs/{name}", **self._convert_keywords(siblings, stack)}
            target = self.convert(self.resolver.lookup(ref), (*stack, ref))
            return {**target, **self._convert_keywords(siblings, stack)} if isinstance(target, dict) else target
        return self._convert_keywords(node, stack)

    def _convert_keywords(self, node: t.Mapping[str, t.Any], stack: tuple[str, ...]) -> dict[str, t.Any]:
        result: dict[str, t.Any] = {}
        for key, value in node.items():
            if key in _OPENAPI_ONLY:
                continue
            if key in _SCHEMA_MAPS and isinstance(value, t.Mapping):
                result[key] = {name: self.convert(schema, stack) for name, schema in value.items()}
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                result[key] = [self.convert(schema, stack) for schema in value]
            elif key in _SCHEMA_ONE and isinstance(value, t.Mapping):
                result[key] = self.convert(value, stack)
            else:
                result[key] = value
        if "example" in node and "examples" not in node:
            result["examples"] = [node["example"]]
        if node.get("nullable") is True:
            _allow_null(result)
        return result

    def _def_name(self, ref: str) -> str:
        if ref in self._pending:
            return self._pending[ref]
        base = re.sub(r"[^A-Za-z0-9_.-]", "_", ref.rsplit("/", 1)[-1]) or "schema"
        name, taken = base, set(self._pending.values())
        counter = 2
        while name in taken:
            name, counter = f"{base}_{counter}", counter + 1
        return name

    def finish(self, schema: dict[str, t.Any]) -> dict[str, t.Any]:
        """``schema`` with the ``$defs`` its recursive references need (each expanded once)."""
        done: set[str] = set()
        while set(self._pending) - done:
            ref = sorted(set(self._pending) - done)[0]
            done.add(ref)
            self.defs[self._pending[ref]] = self.convert(self.resolver.lookup(ref), (ref,))
        if self.defs:
            schema = {**schema, "$defs": {**schema.get("$defs", {}), **self.defs}}
        return schema


def _allow_null(schema: dict[str, t.Any]) -> None:
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
