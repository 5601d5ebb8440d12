"""One OpenAPI operation: its arguments' JSON Schema, and the HTTP request a call makes.

Arguments are the operation's path, query, header and cookie parameters and, for a JSON (or
form) request body that is an object, the body's properties side by side; any other body is the
``body`` argument. A parameter whose name another argument already has is called
``<name>__<in>`` (``id__query``), as in FastMCP. Header parameters OpenAPI says to ignore
(``Accept``, ``Content-Type``, ``Authorization``) and those that would reframe the request or carry
cookies (``Host``, ``Content-Length``, ``Cookie``...) are left out: see
:data:`~.parameters.IGNORED_HEADERS`.
"""

from __future__ import annotations

import re
import typing as t
from urllib.parse import urlsplit

import attrs
import requests
from requests.utils import requote_uri

from .errors import OpenAPIError, OpenAPIRequestError
from .parameters import IGNORED_HEADERS, cookie_value, header_value, path_value, text
from .route_map import Route
from .schemas import Resolver, SchemaBuilder

_LOCATIONS = ("path", "query", "header", "cookie")
#: A ``.`` or ``..`` segment (at the end of a path, or before a ``/``).
_DOT_SEGMENT = re.compile(r"/\.\.?(?=/|$)")


def _template(path: str) -> re.Pattern[str]:
    """What ``path`` (``/pets/{petId}``) may become: each ``{name}`` one or more characters other than ``/``."""
    parts = re.split(r"(\{[^}]*\})", path)
    return re.compile("".join("[^/]+" if part.startswith("{") else re.escape(part) for part in parts))


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
        self._template = _template(route.path)
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
        parameters = [p for p in route.parameters if not (p.get("in") == "header" and str(p.get("name")).lower() in IGNORED_HEADERS)]
        names = [parameter.get("name") for parameter in parameters] + list(body_properties)
        for parameter in parameters:
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

    def prepare(self, session: requests.Session, base_url: str, arguments: t.Mapping[str, t.Any]) -> requests.PreparedRequest:
        """The request for ``arguments``, prepared by ``session`` (its headers, auth, cookies and params added).

        Each argument reaches only its parameter (see :mod:`.parameters`), and the prepared URL's
        path is checked to be the operation's template filled in, as ``requests`` will send it.

        :raises OpenAPIArgumentError: an argument cannot be sent as its parameter (nothing is sent).
        :raises OpenAPIRequestError: the path would not be the operation's.
        :raises OpenAPIError: a path parameter has no value.
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
                path = path.replace("{" + binding.name + "}", path_value(binding.name, value))
            elif binding.location == "query":
                if isinstance(value, list):
                    items = [text(item) for item in value]
                    query[binding.name] = items if binding.explode else ",".join(items)
                else:
                    query[binding.name] = text(value)
            elif binding.location == "header":
                headers[binding.name] = header_value(binding.name, value)
            elif binding.location == "cookie":
                cookies[binding.name] = cookie_value(value)
            elif binding.location == "body":
                body[binding.name] = value
            else:
                whole = value
        if re.search(r"\{[^}]*\}", path):
            raise OpenAPIError(f"{self.route.method} {self.route.path}: a path parameter has no value")
        payload = whole if whole is not None else (body or None)
        request = requests.Request(self.route.method, base_url.rstrip("/") + path, params=query, headers=headers, cookies=cookies)
        if payload is not None and self.body_media is not None:
            if is_json(self.body_media):
                request.json = payload
            else:
                request.data = payload
        prepared = session.prepare_request(request)
        self._check_path(path, urlsplit(t.cast(str, prepared.url)).path)
        return prepared

    def _check_path(self, path: str, sent: str) -> None:
        """Refuse a request whose path, as it will be sent, is not the operation's template filled in."""
        filled = self._template.fullmatch(path) is not None
        if not filled or not sent.endswith(requote_uri(path)) or _DOT_SEGMENT.search(path):
            raise OpenAPIRequestError(f"{self.route.method} {self.route.path}: the request's path would not be this operation's; not sent")


def _parameter_schema(parameter: t.Mapping[str, t.Any], builder: SchemaBuilder) -> t.Any:
    schema = parameter.get("schema")
    if schema is None:
        content: t.Mapping[str, t.Any] = parameter.get("content") or {}
        schema = (next(iter(content.values())) or {}).get("schema") if content else None
    converted = builder.root(schema or {"type": "string"})
    if isinstance(converted, dict) and isinstance(parameter.get("description"), str) and "description" not in converted:
        converted = {**converted, "description": parameter["description"]}
    return converted

