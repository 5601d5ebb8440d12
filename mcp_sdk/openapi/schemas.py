"""OpenAPI schemas as self-contained JSON Schema.

A schema's root ``$ref`` (a request body's ``#/components/schemas/Pet``) is followed, so its
properties are visible; a ``$ref`` inside it becomes ``{"$ref": "#/$defs/<Name>"}`` and the
result's ``$defs`` holds every component it reaches, each once. This keeps recursive schemas
finite and large documents small: inlining every reference of a real API (Discord's 3.1
document) made single tool schemas megabytes long. Each component is converted once per
document. OpenAPI 3.0's ``nullable: true`` becomes a ``"null"`` type; OpenAPI-only keywords
(``discriminator``, ``xml``, ``externalDocs``) are dropped and 3.0's ``example`` becomes ``examples``.
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
#: How many ``$ref``s in a row are followed before giving up.
MAX_HOPS = 32


class Resolver:
    """Follows local references (``#/components/...``) in one document, and converts its components once."""

    def __init__(self, document: t.Mapping[str, t.Any]) -> None:
        self.document = document
        self._names: dict[str, str] = {}
        self._components: dict[str, tuple[t.Any, frozenset[str]]] = {}

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
        """``node`` with a top-level ``$ref`` followed (parameters, bodies, responses)."""
        for _ in range(MAX_HOPS):
            if not (isinstance(node, t.Mapping) and isinstance(node.get("$ref"), str)):
                return node
            node = self.lookup(node["$ref"])
        raise OpenAPIError("a chain of references does not end")

    def name(self, ref: str) -> str:
        """The ``$defs`` name of the component ``ref`` (its last segment, made unique in the document)."""
        if ref not in self._names:
            base = re.sub(r"[^A-Za-z0-9_.-]", "_", unquote(ref.rsplit("/", 1)[-1])) or "schema"
            name, counter, taken = base, 2, set(self._names.values())
            while name in taken:
                name, counter = f"{base}_{counter}", counter + 1
            self._names[ref] = name
        return self._names[ref]

    def component(self, ref: str) -> tuple[t.Any, frozenset[str]]:
        """The component ``ref`` as JSON Schema and the references it makes (converted once)."""
        if ref not in self._components:
            builder = SchemaBuilder(self)
            converted = builder.convert(self.lookup(ref))
            self._components[ref] = (converted, frozenset(builder.used))
        return self._components[ref]


class SchemaBuilder:
    """Converts the schemas of one tool; :attr:`used` collects the components they reference."""

    def __init__(self, resolver: Resolver) -> None:
        self.resolver = resolver
        self.used: set[str] = set()

    def root(self, node: t.Any) -> t.Any:
        """``node`` as JSON Schema, a reference at its root followed (keywords beside it win)."""
        siblings: dict[str, t.Any] = {}
        for _ in range(MAX_HOPS):
            if not (isinstance(node, t.Mapping) and isinstance(node.get("$ref"), str)):
                converted = self.convert(node)
                return {**converted, **siblings} if isinstance(converted, dict) else converted
            siblings = {**self._keywords({k: v for k, v in node.items() if k != "$ref"}), **siblings}
            node = self.resolver.lookup(node["$ref"])
        raise OpenAPIError("a chain of references does not end")

    def convert(self, node: t.Any) -> t.Any:
        """``node`` as JSON Schema, its references pointing into ``$defs``."""
        if isinstance(node, list):
            return [self.convert(item) for item in node]
        if not isinstance(node, t.Mapping):
            return node
        ref = node.get("$ref")
        if isinstance(ref, str):
            self.resolver.lookup(ref)
            self.used.add(ref)
            siblings = self._keywords({key: value for key, value in node.items() if key != "$ref"})
            return {"$ref": f"#/$defs/{self.resolver.name(ref)}", **siblings}
        return self._keywords(node)

    def _keywords(self, node: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
        result: dict[str, t.Any] = {}
        for key, value in node.items():
            if key in _OPENAPI_ONLY:
                continue
            if key in _SCHEMA_MAPS and isinstance(value, t.Mapping):
                result[key] = {name: self.convert(schema) for name, schema in value.items()}
            elif key in _SCHEMA_LISTS and isinstance(value, list):
                result[key] = [self.convert(schema) for schema in value]
            elif key in _SCHEMA_ONE and isinstance(value, t.Mapping):
                result[key] = self.convert(value)
            else:
                result[key] = value
        if "example" in node and "examples" not in node:
            result["examples"] = [node["example"]]
        if node.get("nullable") is True:
            _allow_null(result)
        return result

    def finish(self, schema: dict[str, t.Any]) -> dict[str, t.Any]:
        """``schema`` with ``$defs`` holding every component it reaches (none: unchanged)."""
        defs: dict[str, t.Any] = {}
        pending, seen = sorted(self.used), set(self.used)
        while pending:
            ref = pending.pop(0)
            converted, references = self.resolver.component(ref)
            defs[self.resolver.name(ref)] = converted
            for more in sorted(references - seen):
                seen.add(more)
                pending.append(more)
        if defs:
            schema = {**schema, "$defs": {**schema.get("$defs", {}), **defs}}
        return schema


def _allow_null(schema: dict[str, t.Any]) -> None:
    kind = schema.get("type")
    if isinstance(kind, str):
        schema["type"] = [kind, "null"]
    elif isinstance(kind, list) and "null" not in kind:
        schema["type"] = [*kind, "null"]
    if isinstance(schema.get("enum"), list) and None not in schema["enum"]:
        schema["enum"] = [*schema["enum"], None]
