"""An MCP server from an OpenAPI 3.0 or 3.1 document (``Server.from_openapi``).

Each operation becomes a tool calling the API through a ``requests.Session`` (so its auth and
headers apply), or, as the route maps say, a resource, a resource template, or nothing.
"""

from __future__ import annotations

import base64
import os
import re
import typing as t

import requests

from ..errors import InternalError
from ..tool import Tool
from .document import OpenAPIError, load_document
from .operation import Operation, is_json
from .route_map import MCPType, Route, RouteMap, choose, routes
from .schemas import Resolver

__all__ = ["MCPType", "OpenAPIError", "OpenAPIRequestError", "RouteMap", "SEMANTIC_ROUTE_MAPS", "from_openapi"]

#: Characters of an error response's body kept in the tool's error text.
ERROR_BODY_LIMIT = 500
#: GETs with path parameters as resource templates, other GETs as resources, the rest tools
#: (FastMCP's "semantic" mapping; the default makes everything a tool).
SEMANTIC_ROUTE_MAPS = (
    RouteMap(methods=["GET"], pattern=r"\{[^}]+\}", mcp_type=MCPType.RESOURCE_TEMPLATE),
    RouteMap(methods=["GET"], mcp_type=MCPType.RESOURCE),
)

F = t.TypeVar("F", bound=t.Callable[..., t.Any])


class OpenAPIRequestError(InternalError):
    """Reading a resource made from an operation failed (HTTP error status, timeout, unreachable API):
    the client gets a ``-32603`` error with this message (and ``data.status`` for an HTTP status)."""


class Registrar(t.Protocol):
    """What :func:`from_openapi` needs of the server it fills (``mcp_sdk.Server`` is one)."""

    def add_tool(self, tool: type[Tool]) -> type[Tool]: ...

    def resource(
        self, uri: str, *, name: str | None = ..., title: str | None = ..., description: str | None = ...,
        mime_type: str | None = ..., tags: t.Iterable[str] = ...,
    ) -> t.Callable[[F], F]: ...


S = t.TypeVar("S", bound=Registrar)


def from_openapi(
    server_class: t.Callable[..., S],
    document: t.Mapping[str, t.Any] | str | bytes | os.PathLike[str],
    *,
    name: str | None = None,
    base_url: str | None = None,
    session: requests.Session | None = None,
    route_maps: t.Sequence[RouteMap] = (),
    timeout: float = 30.0,
    **server_options: t.Any,
) -> S:
    """Make a server whose tools, resources and templates are the operations of an OpenAPI document.

    :param server_class: the server class (``Server``), called with ``name`` and ``server_options``.
    :param document: the document: a mapping, JSON or YAML text, or a file path (YAML needs ``[openapi]``).
    :param name: the server's name (default: the document's ``info.title``).
    :param base_url: where the API is (default: the document's first ``servers`` URL).
    :param session: the ``requests.Session`` every call goes through (default: a new one).
    :param route_maps: tried in order, the first matching an operation deciding what it becomes;
        operations none matches become tools (see :data:`SEMANTIC_ROUTE_MAPS`).
    :param timeout: seconds a request may wait to connect, and between bytes of the answer (``requests``'
        timeout); a call that waits longer is an ``isError`` result (a resource read, a ``-32603`` error).
    :returns: the server.
    :raises OpenAPIError: the document is not OpenAPI 3.0/3.1, has a dangling ``$ref``, or names no base URL.
    :raises MissingExtraError: the document is YAML and PyYAML is not installed.
    :param server_options: more keywords for ``server_class`` (``version=``, ``instructions=``...).
    """
    spec = load_document(document)
    resolver = Resolver(spec)
    if base_url is None:
        servers = spec.get("servers") or [{}]
        base_url = str(servers[0].get("url") or "")
        if not re.match(r"https?://", base_url):
            raise OpenAPIError("give base_url=: the document names no absolute server URL")
    api = _API(session or requests.Session(), base_url, timeout)
    title = (spec.get("info") or {}).get("title")
    server = server_class(name=name or title or "openapi", **server_options)
    taken: set[str] = set()
    for route in routes(spec, resolver.deref):
        route_map = choose(route_maps, route)
        if route_map.mcp_type is MCPType.EXCLUDE:
            continue
        operation = Operation(route, resolver)
        component = _component_name(route, taken)
        tags = set(route_map.mcp_tags) | set(route.tags)
        kind = _fitting(route_map.mcp_type, route, operation)
        if kind is MCPType.TOOL:
            server.add_tool(Tool.define(
                component, description=operation.description, input_schema=operation.input_schema,
                output_schema=operation.output_schema, tags=tags, handler=api.tool_handler(operation), arguments_dict=True,
            ))
        else:
            variables = "".join("/{" + variable + "}" for variable in route.path_parameters)
            server.resource(
                f"resource://{component}{variables}", name=component, description=operation.description,
                mime_type=operation.response_media, tags=tags,
            )(api.resource_reader(operation))
    return server


def _fitting(wanted: MCPType, route: Route, operation: Operation) -> MCPType:
    """``wanted``, or TOOL when the operation needs arguments a resource (template) cannot carry."""
    required = set(operation.input_schema.get("required") or ())
    path = set(route.path_parameters)
    if wanted is MCPType.RESOURCE and not required and not path:
        return wanted
    if wanted is MCPType.RESOURCE_TEMPLATE and path and required <= path and all(re.fullmatch(r"[A-Za-z0-9_]+", p) for p in path):
        return wanted
    return MCPType.TOOL


def _component_name(route: Route, taken: set[str]) -> str:
    """The ``operationId`` (else method and path), made a valid, unique tool name."""
    raw = route.operation.get("operationId")
    if not isinstance(raw, str) or not raw.strip():
        raw = f"{route.method.lower()}_{route.path}"
    base = re.sub(r"_+", "_", re.sub(r"[^A-Za-z0-9_.-]", "_", raw)).strip("_")[:120] or "operation"
    name, counter = base, 2
    while name in taken:
        name, counter = f"{base}_{counter}", counter + 1
    taken.add(name)
    return name


class _API:
    """Calls the API for tools and resources: one session, one base URL, one timeout."""

    def __init__(self, session: requests.Session, base_url: str, timeout: float) -> None:
        self.session, self.base_url, self.timeout = session, base_url, timeout

    def tool_handler(self, operation: Operation) -> t.Callable[[dict[str, t.Any]], Tool.Response]:
        def call(args: dict[str, t.Any]) -> Tool.Response:
            route = operation.route
            try:
                response = operation.send(self.session, self.base_url, args, self.timeout)
            except requests.Timeout:
                return _error(f"{route.method} {route.path} timed out after {self.timeout:g} s")
            except requests.RequestException as error:
                return _error(f"{route.method} {route.path} failed: {type(error).__name__}: {error}")
            if not 200 <= response.status_code < 300:
                return _error(_status_text(response))
            return _success(response)

        return call

    def resource_reader(self, operation: Operation) -> t.Callable[..., t.Any]:
        def read(**variables: t.Any) -> str | bytes:
            variables.pop("server_context", None)
            route = operation.route
            try:
                response = operation.send(self.session, self.base_url, variables, self.timeout)
            except requests.Timeout:
                raise OpenAPIRequestError(f"{route.method} {route.path} timed out after {self.timeout:g} s") from None
            except requests.RequestException as error:
                raise OpenAPIRequestError(f"{route.method} {route.path} failed: {type(error).__name__}") from None
            if not 200 <= response.status_code < 300:
                raise OpenAPIRequestError(_status_text(response), data={"status": response.status_code})
            media = response.headers.get("Content-Type", "").split(";")[0].strip().lower()
            return response.text if _is_text(media) else response.content

        return read


def _is_text(media: str) -> bool:
    """Whether a body of this media type is text (JSON, XML, ``text/*``, or no type given)."""
    return not media or is_json(media) or media.startswith("text/") or media.endswith(("/xml", "+xml"))


def _status_text(response: requests.Response) -> str:
    body = response.text
    if len(body) > ERROR_BODY_LIMIT:
        body = body[:ERROR_BODY_LIMIT] + "…"
    return f"HTTP {response.status_code} {response.reason}" + (f": {body}" if body else "")


def _error(text: str) -> Tool.Response:
    return Tool.Response([{"type": "text", "text": text}], error=True)


def _success(response: requests.Response) -> Tool.Response:
    kind = response.headers.get("Content-Type", "")
    media = kind.split(";")[0].strip().lower()
    if response.content and not _is_text(media):
        data = base64.b64encode(response.content).decode("ascii")
        if media.startswith(("image/", "audio/")):
            return Tool.Response([{"type": media.split("/")[0], "data": data, "mimeType": media}])
        return Tool.Response([{"type": "resource", "resource": {"uri": response.url, "mimeType": media, "blob": data}}])
    text = response.text or f"HTTP {response.status_code} {response.reason}"
    structured = None
    if is_json(kind):
        try:
            parsed = response.json()
        except ValueError:
            parsed = None
        structured = parsed if isinstance(parsed, dict) else None
    return Tool.Response([{"type": "text", "text": text}], structured_content=structured)
