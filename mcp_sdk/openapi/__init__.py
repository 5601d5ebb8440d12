"""An MCP server from an OpenAPI 3.0 or 3.1 document (``Server.from_openapi``).

Each operation becomes a tool calling the API through a ``requests.Session`` (so its auth and
headers apply), or, as the route maps say, a resource, a resource template, or nothing.
"""

from __future__ import annotations

import base64
import json
import math
import os
import re
import typing as t

import requests

from ..tool import Tool
from .document import OpenAPIError, load_document
from .operation import Operation, is_json
from .parameters import OpenAPIArgumentError
from .route_map import MCPType, Route, RouteMap, choose, routes
from .schemas import Resolver
from .upstream import DEFAULT_MAX_RESPONSE_BYTES, Answer, OpenAPIRequestError, Upstream

__all__ = [
    "DEFAULT_MAX_RESPONSE_BYTES", "MCPType", "OpenAPIArgumentError", "OpenAPIError", "OpenAPIRequestError", "RouteMap",
    "SEMANTIC_ROUTE_MAPS", "from_openapi",
]

#: Characters of an error response's body kept in the tool's error text.
ERROR_BODY_LIMIT = 500
#: GETs with path parameters as resource templates, other GETs as resources, the rest tools
#: (FastMCP's "semantic" mapping; the default makes everything a tool).
SEMANTIC_ROUTE_MAPS = (
    RouteMap(methods=["GET"], pattern=r"\{[^}]+\}", mcp_type=MCPType.RESOURCE_TEMPLATE),
    RouteMap(methods=["GET"], mcp_type=MCPType.RESOURCE),
)

F = t.TypeVar("F", bound=t.Callable[..., t.Any])


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
    max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES,
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
    :param timeout: seconds a whole call may take: connecting, following redirects and reading the
        answer; a call that takes longer is an ``isError`` result (a resource read, a ``-32603`` error).
    :param max_response_bytes: the largest answer read (4 MiB by default); a larger one is an
        ``isError`` result (a resource read, a ``-32603`` error).
    :param server_options: more keywords for ``server_class`` (``version=``, ``instructions=``...).
    :returns: the server.
    :raises OpenAPIError: the document is not OpenAPI 3.0/3.1, has a dangling ``$ref``, names no base
        URL, or is too deep or expands too far (:mod:`mcp_sdk.openapi.document`).
    :raises MissingExtraError: the document is YAML and PyYAML is not installed.
    :raises ValueError: ``timeout`` is not a positive finite number, or ``max_response_bytes`` not a positive integer.
    """
    _check_call_limits(timeout, max_response_bytes)
    spec = load_document(document)
    resolver = Resolver(spec)
    url = _base_url(spec, base_url)
    api = _API(Upstream(session or requests.Session(), url, timeout, max_response_bytes))
    title = (spec.get("info") or {}).get("title")
    server = server_class(name=name or title or "openapi", **server_options)
    taken: set[str] = set()
    for route in routes(spec, resolver.deref):
        route_map = choose(route_maps, route)
        if route_map.mcp_type is MCPType.EXCLUDE:
            continue
        operation = Operation(route, resolver)
        _serve(server, api, operation, _component_name(route, taken), route_map)
    return server


def _check_call_limits(timeout: t.Any, max_response_bytes: t.Any) -> None:
    """:raises ValueError: ``timeout`` is not a positive finite number, or ``max_response_bytes`` not a positive integer."""
    if isinstance(timeout, bool) or not isinstance(timeout, (int, float)) or not 0 < timeout < math.inf:
        raise ValueError(f"timeout must be a positive number of seconds, not {timeout!r}")
    if isinstance(max_response_bytes, bool) or not isinstance(max_response_bytes, int) or max_response_bytes < 1:
        raise ValueError(f"max_response_bytes must be a positive integer, not {max_response_bytes!r}")


def _base_url(spec: t.Mapping[str, t.Any], given: str | None) -> str:
    """``given``, else the document's first ``servers`` URL.

    :raises OpenAPIError: none is given and the document names no absolute URL.
    """
    if given is not None:
        return given
    servers = spec.get("servers") or [{}]
    url = str(servers[0].get("url") or "")
    if not re.match(r"https?://", url):
        raise OpenAPIError("give base_url=: the document names no absolute server URL")
    return url


def _serve(server: Registrar, api: _API, operation: Operation, component: str, route_map: RouteMap) -> None:
    """Serve ``operation`` on ``server`` as ``component``: a tool, or the resource (template) its route map
    asks for when the operation's arguments fit one (see :func:`_fitting`)."""
    route = operation.route
    tags = set(route_map.mcp_tags) | set(route.tags)
    if _fitting(route_map.mcp_type, route, operation) is MCPType.TOOL:
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
    """Makes the tool handlers and resource readers of the operations: each call one :class:`Upstream` exchange."""

    def __init__(self, upstream: Upstream) -> None:
        self.upstream = upstream

    def answer(self, operation: Operation, arguments: t.Mapping[str, t.Any]) -> Answer:
        """What the API answers to ``operation`` called with ``arguments``.

        :raises OpenAPIArgumentError: an argument cannot be sent as its parameter.
        :raises OpenAPIRequestError: the call failed (no HTTP status involved).
        """
        route = operation.route
        prepared = operation.prepare(self.upstream.session, self.upstream.base_url, arguments)
        return self.upstream.call(f"{route.method} {route.path}", prepared)

    def tool_handler(self, operation: Operation) -> t.Callable[[dict[str, t.Any]], Tool.Response]:
        def call(args: dict[str, t.Any]) -> Tool.Response:
            try:
                answer = self.answer(operation, args)
            except (OpenAPIArgumentError, OpenAPIRequestError) as error:
                return _error(error.message)
            if not answer.ok:
                return _error(_status_text(answer))
            return _success(answer)

        return call

    def resource_reader(self, operation: Operation) -> t.Callable[..., t.Any]:
        def read(**variables: t.Any) -> str | bytes:
            variables.pop("server_context", None)
            answer = self.answer(operation, variables)
            if not answer.ok:
                raise OpenAPIRequestError(_status_text(answer), data={"status": answer.status})
            return answer.text if _is_text(answer.media) else answer.body

        return read


def _is_text(media: str) -> bool:
    """Whether a body of this media type is text (JSON, XML, ``text/*``, or no type given)."""
    return not media or is_json(media) or media.startswith("text/") or media.endswith(("/xml", "+xml"))


def _status_text(answer: Answer) -> str:
    body = answer.text
    if len(body) > ERROR_BODY_LIMIT or not answer.complete:
        body = body[:ERROR_BODY_LIMIT] + "…"
    return f"HTTP {answer.status} {answer.reason}" + (f": {body}" if body else "")


def _error(text: str) -> Tool.Response:
    return Tool.Response([{"type": "text", "text": text}], error=True)


def _success(answer: Answer) -> Tool.Response:
    media = answer.media
    if answer.body and not _is_text(media):
        data = base64.b64encode(answer.body).decode("ascii")
        if media.startswith(("image/", "audio/")):
            return Tool.Response([{"type": media.split("/")[0], "data": data, "mimeType": media}])
        return Tool.Response([{"type": "resource", "resource": {"uri": answer.url, "mimeType": media, "blob": data}}])
    text = answer.text or f"HTTP {answer.status} {answer.reason}"
    structured = None
    if is_json(answer.content_type):
        try:
            parsed = json.loads(text)
        except (ValueError, RecursionError):  # RecursionError: nested too deep
            parsed = None
        structured = parsed if isinstance(parsed, dict) else None
    return Tool.Response([{"type": "text", "text": text}], structured_content=structured)
