"""OpenAPI schemas as JSON Schema: the root reference followed, the others pointing into ``$defs``
(each component reached once, so recursion stays finite), 3.0's ``nullable`` and ``example``
translated, OpenAPI-only keywords dropped."""

from __future__ import annotations

import jsonschema
import pytest

from mcp_sdk.openapi import OpenAPIError
from mcp_sdk.openapi.schemas import Resolver, SchemaBuilder

DOCUMENT = {
    "openapi": "3.0.3",
    "components": {
        "schemas": {
            "Node": {
                "type": "object",
                "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/components/schemas/Node"}}},
            },
            "Tree": {"type": "object", "properties": {"root": {"$ref": "#/components/schemas/Node"}}},
            "Odd": {"type": "object", "properties": {"even": {"$ref": "#/components/schemas/Even"}}},
            "Even": {"type": "object", "properties": {"odd": {"$ref": "#/components/schemas/Odd"}}},
            "Name": {"type": "string", "nullable": True, "example": "Rex", "xml": {"name": "n"}},
            "Colour": {"type": "string", "enum": ["red", "blue"], "nullable": True},
        }
    },
}


def convert(schema: dict[str, object]) -> dict[str, object]:
    builder = SchemaBuilder(Resolver(DOCUMENT))
    converted = builder.root(schema)
    assert isinstance(converted, dict)
    return builder.finish(converted)


NODE = {
    "type": "object",
    "properties": {"value": {"type": "integer"}, "children": {"type": "array", "items": {"$ref": "#/$defs/Node"}}},
}


def test_the_root_is_followed_and_a_recursive_schema_is_kept_once_in_defs() -> None:
    schema = convert({"$ref": "#/components/schemas/Tree"})
    assert schema == {"type": "object", "properties": {"root": {"$ref": "#/$defs/Node"}}, "$defs": {"Node": NODE}}
    jsonschema.Draft202012Validator.check_schema(schema)
    assert convert({"$ref": "#/components/schemas/Node"}) == {**NODE, "$defs": {"Node": NODE}}


def test_mutual_recursion_is_bounded_and_validates() -> None:
    schema = convert({"$ref": "#/components/schemas/Odd"})
    assert schema == {
        "type": "object",
        "properties": {"even": {"$ref": "#/$defs/Even"}},
        "$defs": {
            "Even": {"type": "object", "properties": {"odd": {"$ref": "#/$defs/Odd"}}},
            "Odd": {"type": "object", "properties": {"even": {"$ref": "#/$defs/Even"}}},
        },
    }
    validator = jsonschema.Draft202012Validator(schema)
    assert validator.is_valid({"even": {"odd": {"even": {}}}})
    assert not validator.is_valid({"even": {"odd": {"even": 3}}})


def test_a_nested_reference_keeps_the_keywords_beside_it() -> None:
    assert convert({"type": "object", "properties": {"name": {"$ref": "#/components/schemas/Name", "description": "Its name"}}}) == {
        "type": "object",
        "properties": {"name": {"$ref": "#/$defs/Name", "description": "Its name"}},
        "$defs": {"Name": {"type": ["string", "null"], "examples": ["Rex"]}},
    }


def test_nullable_example_and_openapi_only_keywords() -> None:
    assert convert({"$ref": "#/components/schemas/Name"}) == {"type": ["string", "null"], "examples": ["Rex"]}
    assert convert({"$ref": "#/components/schemas/Colour"}) == {"type": ["string", "null"], "enum": ["red", "blue", None]}
    assert convert({"type": "object", "discriminator": {"propertyName": "kind"}, "externalDocs": {"url": "x"}}) == {"type": "object"}


def test_keywords_beside_the_root_reference_override_the_target_as_in_31() -> None:
    assert convert({"$ref": "#/components/schemas/Name", "description": "The pet's name"}) == {
        "type": ["string", "null"], "examples": ["Rex"], "description": "The pet's name",
    }


@pytest.mark.parametrize(
    ("ref", "message"),
    [("#/components/schemas/Nope", "the reference '#/components/schemas/Nope' leads nowhere"),
     ("other.yaml#/Pet", "only local references are supported, not 'other.yaml#/Pet'")],
)
def test_a_reference_that_cannot_be_followed_is_an_error(ref: str, message: str) -> None:
    with pytest.raises(OpenAPIError, match=f"^{message}$"):
        convert({"$ref": ref})
