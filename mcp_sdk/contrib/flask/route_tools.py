"""A Flask app's own view functions as MCP tools, called through the app in-process.

:func:`tools_from_routes` makes a Tool class for each listed endpoint (or each endpoint of a
listed blueprint). A call builds the request the route expects (its URL from the rule and the
URL arguments, the other arguments as the query string or a JSON body), carrying the MCP
request's cookies and headers, so the session, Flask-Login's ``current_user`` and
``before_request`` hooks see the same caller; the app dispatches it in a request context of its
own (``app.full_dispatch_request()``). A JSON answer becomes ``structuredContent``, a 4xx or 5xx
answer an ``isError`` result. Nothing is exposed unless listed.
"""

from __future__ import annotations

import json
import re
import typing as t
from urllib.parse import urlencode

from werkzeug.http import HTTP_STATUS_CODES

from ...tool import Tool, type_schema

if t.TYPE_CHECKING:
    from flask import Flask
    from werkzeug.routing import Rule
    from werkzeug.wrappers import Response

#: JSON Schema of a URL argument, by the rule's converter (``<int:id>``).
CONVERTER_SCHEMAS: dict[str, dict[str, t.Any]] = {
    "int": {"type": "integer"},
    "float": {"type": "number"},
    "uuid": {"type": "string", "format": "uuid"},
    "string": {"type": "string"},
    "default": {"type": "string"},
    "path": {"type": "string"},
    "any": {"type": "string"},
}
#: Methods whose arguments go in a JSON body; the others' go in the query string.
BODY_METHODS = frozenset({"POST", "PUT", "PATCH"})
#: Request headers a tool's request does not copy from the MCP request: they describe the MCP
#: message (its body, its session), not the route's request.
_NOT_CARRIED = frozenset(
    {
        "HTTP_ACCEPT",
        "HTTP_ACCEPT_ENCODING",
        "HTTP_CONTENT_TYPE",
        "HTTP_CONTENT_LENGTH",
        "HTTP_MCP_SESSION_ID",
        "HTTP_MCP_PROTOCOL_VERSION",
        "HTTP_MCP_METHOD",
        "HTTP_MCP_NAME",
        "HTTP_LAST_EVENT_ID",
    }
)
#: Environ keys (besides headers) a tool's request copies: where the caller is and which host it named.
_CARRIED_ENVIRON = ("REMOTE_ADDR", "REMOTE_PORT", "SERVER_NAME", "SERVER_PORT", "wsgi.url_scheme", "SCRIPT_NAME")
_ARGUMENT = re.compile(r"<(?:(?P<converter>[a-zA-Z_][a-zA-Z0-9_]*)(?:\((?:[^)]*)\))?:)?(?P<name>[a-zA-Z_][a-zA-Z0-9_]*)>")


def tools_from_routes(
    app: Flask,
    *,
    endpoints: t.Iterable[str] = (),
    blueprints: t.Iterable[str] = (),
    prefix: str | None = None,
    input_schemas: t.Mapping[str, t.Mapping[str, t.Any]] | None = None,
    descriptions: t.Mapping[str, str] | None = None,
) -> list[type[Tool]]:
    """Tools for the listed view functions of ``app``, each called through the app in-process.

    A tool per endpoint and method (``HEAD`` and ``OPTIONS`` left out), named after the
    endpoint with dots as underscores (``books.show`` -> ``books_show``), with ``_get``,
    ``_post`` ... appended when one endpoint takes several methods, and ``{prefix}_`` before.

    Input schema: the rule's URL arguments (required; typed by the view's own type hints, else
    by the rule's converter: ``<int:id>`` is an integer), and the properties of
    ``input_schemas[endpoint]``, which go in the query string (``GET``, ``DELETE``) or the JSON
    body (``POST``, ``PUT``, ``PATCH``). Description: ``descriptions[endpoint]``, else the
    view's docstring (as ``@server.tool`` takes a function's), else ``"GET /books/<int:id>"``.

    :param app: the Flask app whose routes to expose; the tools call this app.
    :param endpoints: endpoint names to expose (``"books.show"``).
    :param blueprints: blueprint names whose every endpoint to expose.
    :param prefix: a prefix for the tool names.
    :param input_schemas: an object schema per endpoint for the arguments besides the URL's.
    :param descriptions: a description per endpoint.
    :raises ValueError: an endpoint or blueprint the app does not have, or nothing listed.
    """
    tools = []
    for endpoint, rule in _chosen_rules(app, list(endpoints), list(blueprints)).items():
        methods = sorted(set(rule.methods or ()) - {"HEAD", "OPTIONS"})
        stem = (f"{prefix}_" if prefix else "") + endpoint.replace(".", "_")
        for method in methods:
            name = stem if len(methods) == 1 else f"{stem}_{method.lower()}"
            schema = (input_schemas or {}).get(endpoint)
            tools.append(_route_tool(app, endpoint, rule, method, name, schema, (descriptions or {}).get(endpoint)))
    return tools


def _chosen_rules(app: Flask, wanted: list[str], groups: list[str]) -> dict[str, Rule]:
    """The rule of each endpoint listed in ``wanted`` or belonging to a blueprint in ``groups``:
    an endpoint's first rule, the one ``url_for`` builds.

    :raises ValueError: nothing listed, or a name the app does not have.
    """
    if not wanted and not groups:
        raise ValueError("tools_from_routes() exposes only what is listed: give endpoints= or blueprints=")
    missing = [name for name in wanted if name not in app.view_functions] + [name for name in groups if name not in app.blueprints]
    if missing:
        raise ValueError(f"{app.import_name} has no endpoint or blueprint {', '.join(map(repr, missing))}")
    chosen: dict[str, Rule] = {}
    for rule in app.url_map.iter_rules():
        group = rule.endpoint.rpartition(".")[0]
        if (rule.endpoint in wanted or group in groups) and rule.endpoint not in chosen:
            chosen[rule.endpoint] = rule
    return chosen


def _route_tool(
    app: Flask,
    endpoint: str,
    rule: Rule,
    method: str,
    name: str,
    schema: t.Mapping[str, t.Any] | None,
    description: str | None,
) -> type[Tool]:
    """The tool ``name`` that calls ``endpoint`` with ``method``; its description ``description``,
    else the view's docstring, else ``"GET /books/<int:id>"``."""
    view = app.view_functions[endpoint]
    input_schema = _input_schema(name, rule, view, schema)
    description = description or type_schema.summary(view.__doc__) or f"{method} {rule.rule}"
    call = _RouteCall(app, endpoint, method, tuple(rule.arguments))
    annotations = {"read_only_hint": True} if method == "GET" else None
    tool: type[Tool] = Tool.define(
        name, description=description, input_schema=input_schema, annotations=annotations, handler=call, arguments_dict=True
    )
    return tool


class _RouteCall:
    """One tool's call: the arguments as a request to the route, the app's answer as a result."""

    def __init__(self, app: Flask, endpoint: str, method: str, url_arguments: tuple[str, ...]) -> None:
        self.app = app
        self.endpoint = endpoint
        self.method = method
        self.url_arguments = url_arguments

    def __call__(self, args: dict[str, t.Any]) -> Tool.Response:
        from flask import has_request_context, request
        from werkzeug.test import EnvironBuilder

        arguments = dict(args)
        values = {name: arguments.pop(name) for name in self.url_arguments if name in arguments}
        path = self.app.url_map.bind("localhost").build(self.endpoint, values, method=self.method)
        carried: t.Mapping[str, t.Any] = request.environ if has_request_context() else {}
        headers = [
            (key[5:].replace("_", "-").title(), str(value)) for key, value in carried.items() if key.startswith("HTTP_") and key not in _NOT_CARRIED
        ]
        base = {key: carried[key] for key in _CARRIED_ENVIRON if key in carried}
        body = self.method in BODY_METHODS
        builder = EnvironBuilder(
            path=path,
            method=self.method,
            headers=headers,
            environ_base=base,
            query_string=None if body else urlencode(arguments, doseq=True),
            json=arguments if body else None,
        )
        try:
            environ = builder.get_environ()
        finally:
            builder.close()
        with self.app.request_context(environ):
            response = self.app.full_dispatch_request()
            return answer(response)


def answer(response: Response) -> Tool.Response:
    """A Flask response as a tool result: a JSON body as ``structuredContent`` (a non-object as
    ``{"result": ...}``); 4xx and 5xx as ``isError`` with ``{"status", "detail"}``, the detail
    the JSON body, the status's phrase for an HTML page (werkzeug's error pages), else the text."""
    data = response.get_json(silent=True) if response.is_json else None
    text = response.get_data(as_text=True)
    if response.status_code >= 400:
        if data is not None:
            detail = data
        elif text.lstrip()[:9].lower().startswith(("<!doctype", "<html")):
            detail = HTTP_STATUS_CODES.get(response.status_code, "Error")  # an error page is for a browser
        else:
            detail = text
        error = {"status": response.status_code, "detail": detail}
        return Tool.Response(json.dumps(error), structured_content=error, error=True)
    if data is None:
        return Tool.Response(text)
    return Tool.Response(json.dumps(data), structured_content=data if isinstance(data, dict) else {"result": data})


def _input_schema(name: str, rule: Rule, view: t.Callable[..., t.Any], given: t.Mapping[str, t.Any] | None) -> dict[str, t.Any]:
    converters = {match["name"]: match["converter"] or "default" for match in _ARGUMENT.finditer(rule.rule)}
    hinted = type_schema.input_schema_for(view, f"Tool {name}")["properties"]
    properties: dict[str, t.Any] = {}
    for argument in sorted(rule.arguments, key=list(converters).index if set(rule.arguments) <= set(converters) else str):
        own = dict(hinted.get(argument) or {})
        if "type" not in own and "$ref" not in own and "enum" not in own:
            own.update(CONVERTER_SCHEMAS.get(converters.get(argument, "default"), {"type": "string"}))
        properties[argument] = own
    required = list(properties)
    if given is not None:
        properties.update(given.get("properties", {}))
        required.extend(name for name in given.get("required", []) if name not in required)
    schema: dict[str, t.Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    if given is not None and "additionalProperties" in given:
        schema["additionalProperties"] = given["additionalProperties"]
    return schema


__all__ = ["BODY_METHODS", "CONVERTER_SCHEMAS", "answer", "tools_from_routes"]
