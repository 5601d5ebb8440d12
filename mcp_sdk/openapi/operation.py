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

from .document import OpenAPIError
from .parameters import IGNORED_HEADERS, cookie_value, header_value, path_value, text
from .route_map import Route
from .schemas import Resolver, SchemaBuilder
from .upstream import OpenAPIRequestError

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


@attrs.frozen
class RequestBody:
    """What an operation's request body makes of the tool's arguments: the properties of an object
    body, each an argument of its own, or the whole body as the one ``body`` argument."""

    #: The media type the body is sent as: the first JSON one, else a form (None: no body is sent).
    media: str | None = None
    #: An object body's properties (argument name -> schema).
    properties: dict[str, t.Any] = attrs.Factory(dict)
    #: The properties an object body requires, when the body itself is required.
    required: list[str] = attrs.Factory(list)
    #: The schema of a body that is not an object, sent whole as the ``body`` argument (None: none).
    whole: t.Any = None
    #: Whether that ``body`` argument is required.
    whole_required: bool = False

    @classmethod
    def read(cls, body: t.Any, builder: SchemaBuilder) -> RequestBody:
        """What the ``requestBody`` object ``body`` (dereferenced) gives; nothing when it is absent or
        has neither a JSON nor a form media type.

        :param body: the operation's ``requestBody``, its ``$ref`` followed.
        :param builder: the builder of the operation's input schema.
        """
        if not isinstance(body, t.Mapping):
            return cls()
        content = body.get("content") or {}
        media = _body_media(content)
        if media is None:
            return cls()
        schema = builder.root((content[media] or {}).get("schema") or {})
        if isinstance(schema, dict) and isinstance(schema.get("properties"), dict) and schema.get("type", "object") == "object":
            properties = schema["properties"]
            required = [name for name in schema.get("required") or () if name in properties] if body.get("required") else []
            return cls(media, properties, required)
        return cls(media, whole=schema, whole_required=bool(body.get("required")))


def _body_media(content: t.Mapping[str, t.Any]) -> str | None:
    """The media type of a request body's ``content`` the body is sent as: the first JSON one, else a
    form (None: neither, and the operation takes no body)."""
    media = next((m for m in content if is_json(m)), None)
    if media is None:
        media = next((m for m in content if m == "application/x-www-form-urlencoded"), None)
    return media


class _Arguments:
    """The tool's arguments as they are gathered: their schemas, which are required, and where each goes.

    :param required: arguments required before any is added (an object body's).
    """

    def __init__(self, required: list[str]) -> None:
        self.properties: dict[str, t.Any] = {}
        self.required = list(required)
        self.bindings: list[Binding] = []

    def add(self, binding: Binding, schema: t.Any, required: bool) -> None:
        """Add the argument of ``binding``, with its ``schema``."""
        self.properties[binding.argument] = schema
        if required:
            self.required.append(binding.argument)
        self.bindings.append(binding)

    def schema(self) -> dict[str, t.Any]:
        """The ``inputSchema`` they make (before the builder adds its definitions)."""
        schema: dict[str, t.Any] = {"type": "object", "properties": self.properties}
        if self.required:
            schema["required"] = list(dict.fromkeys(self.required))
        return schema


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
        body = RequestBody.read(resolver.deref(route.operation.get("requestBody")), builder)
        #: The media type the request body is sent as (None: no body).
        self.body_media = body.media
        arguments = _Arguments(body.required)
        for binding, schema, required in _parameter_arguments(route, body, builder):
            arguments.add(binding, schema, required)
        for name, schema in body.properties.items():
            arguments.add(Binding(name, "body", name), schema, required=False)
        if body.whole is not None:
            arguments.add(Binding("body", "body*", "body"), body.whole, body.whole_required)
        #: Where each argument goes in the request.
        self.bindings = arguments.bindings
        #: The tool's ``inputSchema``.
        self.input_schema = builder.finish(arguments.schema())
        #: The ``outputSchema`` (the first 2xx JSON response's, when an object), or None.
        self.output_schema: dict[str, t.Any] | None = None
        #: The media type of the first 2xx response (a resource's ``mimeType``), or None.
        self.response_media: str | None = None
        self._describe_response(resolver)

    def _describe_response(self, resolver: Resolver) -> None:
        """Set :attr:`response_media` and :attr:`output_schema` from the first 2xx response."""
        content = _success_content(self.route.operation.get("responses") or {}, resolver)
        if content is None:
            return
        self.response_media = next(iter(content), None)
        self.output_schema = _output_schema(content, resolver)

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
        parts = _RequestParts(self.route.path)
        for binding in self.bindings:
            if binding.argument not in arguments or arguments[binding.argument] is None:
                continue
            parts.put(binding, arguments[binding.argument])
        if re.search(r"\{[^}]*\}", parts.path):
            raise OpenAPIError(f"{self.route.method} {self.route.path}: a path parameter has no value")
        request = requests.Request(
            self.route.method, base_url.rstrip("/") + parts.path, params=parts.query, headers=parts.headers, cookies=parts.cookies
        )
        payload = parts.payload
        if payload is not None and self.body_media is not None:
            if is_json(self.body_media):
                request.json = payload
            else:
                request.data = payload
        prepared = session.prepare_request(request)
        self._check_path(parts.path, urlsplit(t.cast(str, prepared.url)).path)
        return prepared

    def _check_path(self, path: str, sent: str) -> None:
        """Refuse a request whose path, as it will be sent, is not the operation's template filled in."""
        filled = self._template.fullmatch(path) is not None
        if not filled or not sent.endswith(requote_uri(path)) or _DOT_SEGMENT.search(path):
            raise OpenAPIRequestError(f"{self.route.method} {self.route.path}: the request's path would not be this operation's; not sent")


@attrs.define
class _RequestParts:
    """Where the arguments of one call went: the path filled in, the query, headers, cookies and body."""

    path: str
    query: dict[str, t.Any] = attrs.Factory(dict)
    headers: dict[str, str] = attrs.Factory(dict)
    cookies: dict[str, str] = attrs.Factory(dict)
    #: An object body's properties.
    body: dict[str, t.Any] = attrs.Factory(dict)
    #: A body sent whole (the ``body`` argument), or None.
    whole: t.Any = None

    def put(self, binding: Binding, value: t.Any) -> None:
        """Put ``value`` where ``binding`` says, in its parameter's form (see :mod:`.parameters`).

        :raises OpenAPIArgumentError: the value cannot be sent as its parameter.
        """
        if binding.location == "path":
            self.path = self.path.replace("{" + binding.name + "}", path_value(binding.name, value))
        elif binding.location == "query":
            if isinstance(value, list):
                items = [text(item) for item in value]
                self.query[binding.name] = items if binding.explode else ",".join(items)
            else:
                self.query[binding.name] = text(value)
        elif binding.location == "header":
            self.headers[binding.name] = header_value(binding.name, value)
        elif binding.location == "cookie":
            self.cookies[binding.name] = cookie_value(value)
        elif binding.location == "body":
            self.body[binding.name] = value
        else:
            self.whole = value

    @property
    def payload(self) -> t.Any:
        """The request body: the whole one, else the object of the properties given (None: no body)."""
        return self.whole if self.whole is not None else (self.body or None)


def _parameter_arguments(
    route: Route, body: RequestBody, builder: SchemaBuilder
) -> t.Iterator[tuple[Binding, t.Any, bool]]:
    """The arguments of the route's parameters, each with its schema and whether it is required.

    A parameter is called ``<name>__<in>`` when another parameter or a body property has its name;
    ignored headers (:data:`~.parameters.IGNORED_HEADERS`) and parameters in no known place are left out.
    """
    parameters = [p for p in route.parameters if not (p.get("in") == "header" and str(p.get("name")).lower() in IGNORED_HEADERS)]
    names = [parameter.get("name") for parameter in parameters] + list(body.properties)
    for parameter in parameters:
        location, name = parameter.get("in"), parameter.get("name")
        if location not in _LOCATIONS or not isinstance(name, str):
            continue
        argument = name if names.count(name) == 1 else f"{name}__{location}"
        explode = parameter.get("explode", parameter.get("style", "form") == "form") is not False
        required = bool(parameter.get("required")) or location == "path"
        yield Binding(argument, location, name, explode), _parameter_schema(parameter, builder), required


def _success_content(responses: t.Mapping[t.Any, t.Any], resolver: Resolver) -> t.Mapping[str, t.Any] | None:
    """The ``content`` of the first 2xx response, codes in text order (``{}``: it has none; None: there is
    no 2xx response)."""
    for code in sorted(str(code) for code in responses):
        if code.startswith("2"):
            response = resolver.deref(responses.get(code, responses.get(int(code)) if code.isdigit() else None))
            content: t.Mapping[str, t.Any] = (response or {}).get("content") or {}
            return content
    return None


def _output_schema(content: t.Mapping[str, t.Any], resolver: Resolver) -> dict[str, t.Any] | None:
    """The ``outputSchema`` of a response's ``content``: its first JSON schema, when that is an object."""
    media = next((m for m in content if is_json(m)), None)
    if media is None:
        return None
    builder = SchemaBuilder(resolver)
    schema = builder.root((content[media] or {}).get("schema") or {})
    if isinstance(schema, dict) and (schema.get("type") == "object" or ("type" not in schema and "properties" in schema)):
        return builder.finish({**schema, "type": "object"})
    return None


def _parameter_schema(parameter: t.Mapping[str, t.Any], builder: SchemaBuilder) -> t.Any:
    schema = parameter.get("schema")
    if schema is None:
        content: t.Mapping[str, t.Any] = parameter.get("content") or {}
        schema = (next(iter(content.values())) or {}).get("schema") if content else None
    converted = builder.root(schema or {"type": "string"})
    if isinstance(converted, dict) and isinstance(parameter.get("description"), str) and "description" not in converted:
        converted = {**converted, "description": parameter["description"]}
    return converted

