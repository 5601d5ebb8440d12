"""One OpenAPI operation: its arguments' JSON Schema, and the HTTP request a call makes.

Arguments are the operation's path, query, header and cookie parameters and, for a JSON (or
form) request body that is an object, the body's properties side by side; any other body is the
``body`` argument. A parameter whose name another argument already has is called
``<name>__<in>`` (``id__query``), as in FastMCP.
"""

from __future__ import annotations

import json
import re
import typing as t
from urllib.parse import quote

import attrs
import requests

from .document import OpenAPIError
from .route_map import Route
from .schemas import Resolver, SchemaBuilder

_LOCATIONS = ("path", "query", "header", "cookie")


def is_json(media_type: str) -> bool:
    """True for ``application/json`` and ``…+json`` media types (parameters ignored)."""
    bare = media_type.split(";", 1)[0].strip().lower()
    return bare == "application/json" or bare.endswith("+json")


@attrs.frozen
class Binding:
    """Where one argument goes in the request."""

    argument: str
    location: str  #: ``path``, ``query``, ``header``, ``cookie``, ``body`` (one property) or ``body*`` (the whole body)
    name: str
    #: For a list in the query: one ``name=value`` per item (the default), or ``explode: false``'s one comma-joined value.
    explode: bool = True


class Operation:
    """The arguments and request of one route.

    :param route: the operation.
    :param resolver: the document's reference resolver.
    :raises OpenAPIError: a ``$ref`` leads nowhere.
    """

    def __init__(self, route: Route, resolver: Resolver) -> None:
        self.route = route
        builder = SchemaBuilder(resolver)
        properties: dict[str, t.Any] = {}
        required: list[str] = []
        self.bindings: list[Binding] = []
        self.body_media: str | None = None
        body = resolver.deref(route.operation.get("requestBody"))
        body_properties: dict[str, t.Any] = {}
        whole_body: t.Any = None
        if isinstance(body, t.Mapping):
            content = body.get("content") or {}
            self.body_media = next((m for m in content if is_json(m)), None) or next(
                (m for m in content if m == "application/x-www-form-urlencoded"), None
            )
            if self.body_media is not None:
                schema = builder.root((content[self.body_media] or {}).get("schema") or {})
                if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) and schema.get("type", "object") == "object":
                    body_properties = schema["properties"]
                    if body.get("required"):
                        required.extend(name for name in schema.get("required") or () if name in body_properties)
                else:
                    whole_body = schema
        names = [parameter.get("name") for parameter in route.parameters] + list(body_properties)
        for parameter in route.parameters:
            location, name = parameter.get("in"), parameter.get("name")
            if location not in _LOCATIONS or not isinstance(name, str):
                continue
            argument = name if names.count(name) == 1 else f"{name}__{location}"
            schema = _parameter_schema(parameter, builder)
            properties[argument] = schema
            if parameter.get("required") or location == "path":
                required.append(argument)
            self.bindings.append(Binding(argument, location, name, parameter.get("explode", parameter.get("style", "form") == "form") is not False))
        for name, schema in body_properties.items():
            properties[name] = schema
            self.bindings.append(Binding(name, "body", name))
        if whole_body is not None:
            properties["body"] = whole_body
            self.bindings.append(Binding("body", "body*", "body"))
            if isinstance(body, t.Mapping) and body.get("required"):
                required.append("body")
        schema_dict: dict[str, t.Any] = {"type": "object", "properties": properties}
        if required:
            schema_dict["required"] = list(dict.fromkeys(required))
        #: The tool's ``inputSchema``.
        self.input_schema = builder.finish(schema_dict)
        #: The ``outputSchema`` (the first 2xx JSON response's, when an object), or None.
        self.output_schema: dict[str, t.Any] | None = None
        #: The media type of the first 2xx response (a resource's ``mimeType``), or None.
        self.response_media: str | None = None
        self._describe_response(resolver)

    def _describe_response(self, resolver: Resolver) -> None:
        responses = self.route.operation.get("responses") or {}
        for code in sorted(str(code) for code in responses):
            if not code.startswith("2"):
                continue
            response = resolver.deref(responses.get(code, responses.get(int(code)) if code.isdigit() else None))
            content = (response or {}).get("content") or {}
            self.response_media = next(iter(content), None)
            media = next((m for m in content if is_json(m)), None)
            if media is not None:
                builder = SchemaBuilder(resolver)
                schema = builder.root((content[media] or {}).get("schema") or {})
                if isinstance(schema, dict) and (schema.get("type") == "object" or ("type" not in schema and "properties" in schema)):
                    self.output_schema = builder.finish({**schema, "type": "object"})
            return

    @property
    def description(self) -> str | None:
        """The summary and the description, one paragraph each."""
        parts = [self.route.operation.get(key) for key in ("summary", "description")]
        kept = dict.fromkeys(part.strip() for part in parts if isinstance(part, str) and part.strip())
        return "\n\n".join(kept) or None

    def send(
        self, session: requests.Session, base_url: str, arguments: t.Mapping[str, t.Any], timeout: float
    ) -> requests.Response:
        """Make the request for ``arguments`` through ``session``.

        :raises requests.RequestException: the request failed (``requests.Timeout`` after ``timeout`` seconds).
        """
        path = self.route.path
        query: dict[str, t.Any] = {}
        headers: dict[str, str] = {}
        cookies: dict[str, str] = {}
        body: dict[str, t.Any] = {}
        whole: t.Any = None
        for binding in self.bindings:
            if binding.argument not in arguments or arguments[binding.argument] is None:
                continue
            value = arguments[binding.argument]
            if binding.location == "path":
                path = path.replace("{" + binding.name + "}", quote(_text(value), safe=""))
            elif binding.location == "query":
                if isinstance(value, list):
                    items = [_text(item) for item in value]
                    query[binding.name] = items if binding.explode else ",".join(items)
                else:
                    query[binding.name] = _text(value)
            elif binding.location == "header":
                headers[binding.name] = _text(value)
            elif binding.location == "cookie":
                cookies[binding.name] = _text(value)
            elif binding.location == "body":
                body[binding.name] = value
            else:
                whole = value
        if re.search(r"\{[^}]*\}", path):
            raise OpenAPIError(f"{self.route.method} {self.route.path}: a path parameter has no value")
        payload = whole if whole is not None else (body or None)
        kwargs: dict[str, t.Any] = {"params": query, "headers": headers, "cookies": cookies, "timeout": timeout}
        if payload is not None and self.body_media is not None:
            if is_json(self.body_media):
                kwargs["json"] = payload
            else:
                kwargs["data"] = payload
        return session.request(self.route.method, base_url.rstrip("/") + path, **kwargs)


def _parameter_schema(parameter: t.Mapping[str, t.Any], builder: SchemaBuilder) -> t.Any:
    schema = parameter.get("schema")
    if schema is None:
        content: t.Mapping[str, t.Any] = parameter.get("content") or {}
        schema = (next(iter(content.values())) or {}).get("schema") if content else None
    converted = builder.root(schema or {"type": "string"})
    if isinstance(converted, dict) and isinstance(parameter.get("description"), str) and "description" not in converted:
        converted = {**converted, "description": parameter["description"]}
    return converted


def _text(value: t.Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)
