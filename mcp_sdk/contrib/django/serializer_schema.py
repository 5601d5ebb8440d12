"""Django REST framework serializers as JSON Schema: what a tool made from a viewset accepts."""

from __future__ import annotations

import typing as t

#: DRF field class name -> JSON Schema of its value (checked along the class's MRO, most specific first).
_SIMPLE: dict[str, dict[str, t.Any]] = {
    "BooleanField": {"type": "boolean"},
    "NullBooleanField": {"type": ["boolean", "null"]},
    "IntegerField": {"type": "integer"},
    "FloatField": {"type": "number"},
    "DecimalField": {"type": ["number", "string"]},
    "EmailField": {"type": "string", "format": "email"},
    "URLField": {"type": "string", "format": "uri"},
    "UUIDField": {"type": "string", "format": "uuid"},
    "IPAddressField": {"type": "string"},
    "SlugField": {"type": "string", "pattern": "^[-a-zA-Z0-9_]+$"},
    "DateTimeField": {"type": "string", "format": "date-time"},
    "DateField": {"type": "string", "format": "date"},
    "TimeField": {"type": "string", "format": "time"},
    "DurationField": {"type": "string"},
    "CharField": {"type": "string"},
    "DictField": {"type": "object"},
    "HStoreField": {"type": "object"},
    "JSONField": {},
    "FileField": {"type": "string"},
}


def serializer_schema(serializer: t.Any, *, partial: bool = False) -> dict[str, t.Any]:
    """The JSON Schema (an ``object``) of what ``serializer`` accepts as input.

    Read-only and hidden fields are left out; a field is required as DRF requires it (never with
    ``partial``); ``help_text`` becomes ``description``, a default that is not callable
    ``default``, ``allow_null`` a ``"null"`` type; choices become ``enum``, and length, size and
    pattern validators their keywords. Nested serializers become nested objects (arrays with
    ``many=True``), related fields the primary key's type.

    :param serializer: a serializer instance (its ``fields`` are read).
    :param partial: for a partial update: nothing is required.
    :return: ``{"type": "object", "properties": ..., "required": [...]}`` (``required`` only when
        something is).
    """
    properties: dict[str, t.Any] = {}
    required: list[str] = []
    for name, field in serializer.fields.items():
        if field.read_only or type(field).__name__ == "HiddenField":  # a hidden field's value never comes from input
            continue
        properties[name] = field_schema(field)
        if field.required and not partial:
            required.append(name)
    schema: dict[str, t.Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def field_schema(field: t.Any) -> dict[str, t.Any]:
    """The JSON Schema of one serializer field's input value (see :func:`serializer_schema`)."""
    schema = _value_schema(field)
    help_text = getattr(field, "help_text", None)
    if help_text:
        schema["description"] = str(help_text)
    default = getattr(field, "default", None)
    if default is not None and not callable(default):  # DRF's "no default" marker is a class
        schema["default"] = default
    if getattr(field, "allow_null", False):
        schema = _nullable(schema)
    return schema


def _nullable(schema: dict[str, t.Any]) -> dict[str, t.Any]:
    kind = schema.get("type")
    if isinstance(kind, str):
        return {**schema, "type": [kind, "null"]}
    if isinstance(kind, list):
        return schema if "null" in kind else {**schema, "type": [*kind, "null"]}
    if "enum" in schema:
        return {**schema, "enum": [*schema["enum"], None]}
    return schema


def _value_schema(field: t.Any) -> dict[str, t.Any]:
    from rest_framework import fields, relations, serializers  # type: ignore[import-untyped]

    if isinstance(field, serializers.ListSerializer):
        return {"type": "array", "items": serializer_schema(field.child)}
    if isinstance(field, serializers.BaseSerializer):
        return serializer_schema(field)
    if isinstance(field, relations.ManyRelatedField):
        return {"type": "array", "items": _value_schema(field.child_relation)}
    if isinstance(field, relations.RelatedField):
        return _related_schema(field)
    if isinstance(field, fields.MultipleChoiceField):
        return {"type": "array", "items": {"enum": list(field.choices)}, "uniqueItems": True}
    if isinstance(field, fields.ChoiceField):
        return {"enum": list(field.choices)}
    if isinstance(field, fields.ListField):
        return _list_schema(field)
    return _scalar_schema(field)


def _list_schema(field: t.Any) -> dict[str, t.Any]:
    """The schema of a ``ListField``: an array of its child's values, with its length limits."""
    schema: dict[str, t.Any] = {"type": "array", "items": _value_schema(field.child) if field.child is not None else {}}
    if field.min_length is not None:
        schema["minItems"] = field.min_length
    if field.max_length is not None:
        schema["maxItems"] = field.max_length
    return schema


def _scalar_schema(field: t.Any) -> dict[str, t.Any]:
    """The schema of a field of one value: its class's (most specific first along the MRO, see
    :data:`_SIMPLE`), with the limits of a string or a number field."""
    from rest_framework import fields

    for kind in type(field).__mro__:
        if kind.__name__ in _SIMPLE:
            schema = dict(_SIMPLE[kind.__name__])
            break
    else:
        schema = {}
    if isinstance(field, fields.CharField):
        _add_string_limits(field, schema)
    if isinstance(field, (fields.IntegerField, fields.FloatField, fields.DecimalField)):
        if field.min_value is not None:
            schema["minimum"] = field.min_value
        if field.max_value is not None:
            schema["maximum"] = field.max_value
    return schema


def _add_string_limits(field: t.Any, schema: dict[str, t.Any]) -> None:
    """Add a ``CharField``'s length limits (blank refused: at least one character) and the pattern
    of its first plain regex validator to ``schema``."""
    min_length = field.min_length if field.min_length is not None else (None if field.allow_blank else 1)
    if min_length is not None:
        schema["minLength"] = min_length
    if field.max_length is not None:
        schema["maxLength"] = field.max_length
    # Plain RegexValidators only: URLValidator's and EmailValidator's patterns are not ECMA-262.
    patterns = [validator.regex.pattern for validator in field.validators if type(validator).__name__ == "RegexValidator"]
    if patterns and "pattern" not in schema:
        schema["pattern"] = patterns[0]


def _related_schema(field: t.Any) -> dict[str, t.Any]:
    from rest_framework import relations

    if isinstance(field, relations.SlugRelatedField):
        return {"type": "string"}
    if isinstance(field, relations.HyperlinkedRelatedField):
        return {"type": "string", "format": "uri"}
    queryset = getattr(field, "queryset", None)
    model = getattr(queryset, "model", None)
    return model_field_schema(model._meta.pk) if model is not None else {}


def model_field_schema(model_field: t.Any) -> dict[str, t.Any]:
    """The JSON Schema of a value of a Django model field, as a URL or a key carries it: an
    integer for integer fields (``AutoField`` and the like), else a string."""
    internal = model_field.get_internal_type() if model_field is not None else ""
    return {"type": "integer"} if "IntegerField" in internal or "AutoField" in internal else {"type": "string"}


__all__ = ["field_schema", "model_field_schema", "serializer_schema"]
