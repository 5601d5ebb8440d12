"""Django REST framework views as MCP tools, called in-process.

A viewset's actions, or an ``APIView``'s methods, become Tool classes whose input schema comes
from the view's serializer; a call builds a request with DRF's ``APIRequestFactory``, signs it in
as the MCP principal's Django user (``force_authenticate``), and runs the view, so its
permissions, throttles, validation and ``perform_create`` hooks apply as over HTTP. Nothing is
exposed unless listed.
"""

from __future__ import annotations

import inspect
import json
import typing as t

from ...string_utils import underscore
from ...tool import Tool
from .auth import USER_ATTRIBUTE
from .serializer_schema import model_field_schema, serializer_schema

if t.TYPE_CHECKING:
    from ...server.context import ServerContext

#: ``fn(server_context) -> Django user``: whom a tool call runs as.
UserFor = t.Callable[[t.Any], t.Any]

#: The viewset actions a tool can be made of: the HTTP method and whether it names one object.
ACTIONS: dict[str, tuple[str, bool]] = {
    "list": ("get", False),
    "retrieve": ("get", True),
    "create": ("post", False),
    "update": ("put", True),
    "partial_update": ("patch", True),
    "destroy": ("delete", True),
}
#: What each action does, for a tool whose view method has no docstring of its own.
_DESCRIPTIONS = {
    "list": "List {plural}.",
    "retrieve": "Get one {name} by its {lookup}.",
    "create": "Create a {name}.",
    "update": "Replace a {name}, by its {lookup}.",
    "partial_update": "Change some fields of a {name}, by its {lookup}.",
    "destroy": "Delete a {name}, by its {lookup}.",
    "get": "GET {path}.",
    "post": "POST {path}.",
    "put": "PUT {path}.",
    "patch": "PATCH {path}.",
    "delete": "DELETE {path}.",
}
_ANNOTATIONS: dict[str, dict[str, bool]] = {
    "get": {"read_only_hint": True},
    "put": {"idempotent_hint": True},
    "delete": {"destructive_hint": True, "idempotent_hint": True},
}
#: The carrying request's environ keys a tool's request keeps: host (links, ``ALLOWED_HOSTS``)
#: and client address (throttles). Credentials are not carried: the principal's user is forced.
_CARRIED_META = ("HTTP_HOST", "SERVER_NAME", "SERVER_PORT", "REMOTE_ADDR", "HTTP_X_FORWARDED_FOR", "wsgi.url_scheme")


def principal_user(server_context: t.Any) -> t.Any:
    """The default ``user=``: the Django user ``MCP_SDK["AUTHENTICATION"]`` signed the MCP
    request in as (its session user or DRF-authenticated user), else ``AnonymousUser`` (no
    request, no principal, or a principal from another authenticator: pass your own ``user=``).
    """
    from django.contrib.auth.models import AnonymousUser  # type: ignore[import-untyped]

    request = getattr(server_context, "request", None)
    if server_context is None or getattr(server_context, "auth", None) is None or request is None:
        return AnonymousUser()
    user = getattr(request, USER_ATTRIBUTE, None)
    return user if user is not None else AnonymousUser()


def tools_from_viewset(
    viewset: type[t.Any],
    *,
    actions: t.Sequence[str],
    prefix: str | None = None,
    path: str | None = None,
    user: UserFor = principal_user,
    descriptions: t.Mapping[str, str] | None = None,
) -> list[type[Tool]]:
    """Tools for the listed actions of a DRF viewset, named ``{prefix}_{action}``.

    Input schemas: ``create``/``update`` take the serializer's writable fields (required as the
    serializer requires them), ``partial_update`` the same with none required; detail actions
    (``retrieve``, ``update``, ``partial_update``, ``destroy``) also take the lookup
    (``lookup_url_kwarg`` or ``lookup_field``, typed from the model field); ``list`` takes the
    query parameters the viewset's pagination class and filter backends declare (their OpenAPI
    parameters), all optional.

    A call answers the response data as ``structuredContent`` (a list as ``{"result": [...]}``)
    and as JSON text; a 4xx answer is an ``isError`` result whose ``structuredContent`` is
    ``{"status": 403, "detail": ...}``.

    :param viewset: a ``GenericViewSet`` subclass (``ModelViewSet`` ...).
    :param actions: the actions to expose, of :data:`ACTIONS` (others are not exposed).
    :param prefix: the tools' name prefix (default: the viewset's name without ``ViewSet``, in
        snake_case: ``BookViewSet`` -> ``book``).
    :param path: the path the in-process requests carry (default ``/{prefix}/``; a detail
        action's is ``{path}{lookup}/``), as links in the answer (pagination's ``next``) show.
    :param user: ``fn(server_context) -> Django user`` the request runs as (default:
        :func:`principal_user`).
    :param descriptions: a description per action (default: the action method's own
        docstring, else a sentence naming the model).
    :raises ValueError: an action that is not in :data:`ACTIONS` or the viewset does not have.
    """
    stem = prefix if prefix is not None else underscore(viewset.__name__.removesuffix("ViewSet").removesuffix("Viewset"))
    base = path if path is not None else f"/{stem}/"
    lookup = str(getattr(viewset, "lookup_url_kwarg", None) or getattr(viewset, "lookup_field", "pk"))
    tools = []
    for action in actions:
        if action not in ACTIONS or not callable(getattr(viewset, action, None)):
            raise ValueError(f"{viewset.__name__} has no action {action!r} to expose (one of {', '.join(ACTIONS)} it defines)")
        method, detail = ACTIONS[action]
        view = viewset(action=action, request=None, format_kwarg=None, kwargs={}, args=())
        properties: dict[str, t.Any] = {}
        required: list[str] = []
        if detail:
            properties[lookup] = _lookup_schema(view, lookup)
            required.append(lookup)
        if action == "list":
            properties.update(_query_parameters(view))
        elif method in ("post", "put", "patch"):
            body = serializer_schema(view.get_serializer(), partial=action == "partial_update")
            properties.update(body["properties"])
            required.extend(body.get("required", []))
        schema: dict[str, t.Any] = {"type": "object", "properties": properties}
        if required:
            schema["required"] = required
        description = (descriptions or {}).get(action) or _own_doc(viewset, action) or _DESCRIPTIONS[action].format(**_names(view, lookup))
        call = _Call(viewset.as_view({method: action}), method, base, lookup if detail else None, action == "list" or method == "get", user)
        tools.append(_tool(f"{stem}_{action}", description, schema, method, call))
    return tools


def tools_from_api_view(
    view: type[t.Any],
    *,
    methods: t.Sequence[str],
    prefix: str | None = None,
    path: str = "/",
    path_parameters: t.Mapping[str, t.Mapping[str, t.Any]] | None = None,
    input_schemas: t.Mapping[str, t.Mapping[str, t.Any]] | None = None,
    user: UserFor = principal_user,
    descriptions: t.Mapping[str, str] | None = None,
) -> list[type[Tool]]:
    """Tools for the listed HTTP methods of a DRF ``APIView``, named ``{prefix}_{method}``.

    Input schemas: the URL keyword arguments in ``path_parameters`` (required), and for
    ``post``/``put``/``patch`` the writable fields of the view's ``serializer_class`` (its
    ``get_serializer()`` for a ``GenericAPIView``); ``input_schemas[method]`` replaces the
    derived schema. The other arguments go as the query string (``get``, ``delete``) or the JSON
    body. Answers as :func:`tools_from_viewset`'s.

    :param view: an ``APIView`` subclass.
    :param methods: the methods to expose (lower case; others are not exposed).
    :param prefix: the name prefix (default: the view's name without ``View``/``APIView``, in snake_case).
    :param path: the path the in-process requests carry.
    :param path_parameters: the view's URL keyword arguments and their JSON Schemas.
    :param input_schemas: an explicit input schema per method.
    :param user: ``fn(server_context) -> Django user`` the request runs as.
    :param descriptions: a description per method (default: the method's docstring).
    :raises ValueError: a method the view does not handle.
    """
    stem = prefix if prefix is not None else underscore(view.__name__.removesuffix("APIView").removesuffix("View"))
    kwargs_schemas = dict(path_parameters or {})
    tools = []
    for method in (name.lower() for name in methods):
        if not callable(getattr(view, method, None)):
            raise ValueError(f"{view.__name__} does not handle {method.upper()}")
        if input_schemas and method in input_schemas:
            schema = dict(input_schemas[method])
        else:
            properties: dict[str, t.Any] = {name: dict(value) for name, value in kwargs_schemas.items()}
            required = list(kwargs_schemas)
            serializer = _serializer(view)
            if serializer is not None and method in ("post", "put", "patch"):
                body = serializer_schema(serializer, partial=method == "patch")
                properties.update(body["properties"])
                required.extend(body.get("required", []))
            schema = {"type": "object", "properties": properties}
            if required:
                schema["required"] = required
        description = (descriptions or {}).get(method) or _own_doc(view, method) or _DESCRIPTIONS[method].format(path=path)
        call = _Call(view.as_view(), method, path, None, method in ("get", "delete"), user, url_kwargs=tuple(kwargs_schemas))
        tools.append(_tool(f"{stem}_{method}", description, schema, method, call))
    return tools


class _Call:
    """One tool's call: the arguments as a request through the view, its answer as a result."""

    def __init__(
        self, view: t.Callable[..., t.Any], method: str, path: str, lookup: str | None, query: bool, user: UserFor, url_kwargs: tuple[str, ...] = ()
    ) -> None:
        self.view = view
        self.method = method
        self.path = path
        self.lookup = lookup
        self.query = query
        self.user = user
        self.url_kwargs = url_kwargs

    def __call__(self, args: dict[str, t.Any], server_context: ServerContext | None = None) -> Tool.Response:
        from rest_framework.test import APIRequestFactory, force_authenticate  # type: ignore[import-untyped]

        arguments = dict(args)
        kwargs = {name: arguments.pop(name) for name in self.url_kwargs if name in arguments}
        path = self.path
        if self.lookup is not None:
            kwargs[self.lookup] = arguments.pop(self.lookup)
            path = f"{path}{kwargs[self.lookup]}/"
        carrying = getattr(server_context, "request", None)
        meta = getattr(carrying, "META", {})
        extra = {key: meta[key] for key in _CARRIED_META if key in meta}
        factory = APIRequestFactory()
        if self.query:
            request = getattr(factory, self.method)(path, data=arguments or None, **extra)
        else:
            request = getattr(factory, self.method)(path, data=arguments, format="json", **extra)
        force_authenticate(request, user=self.user(server_context))
        response = self.view(request, **kwargs)  # as the schema typed them: what an <int:pk> converter gives
        return answer(response.status_code, response.data)


def answer(status: int, data: t.Any) -> Tool.Response:
    """A DRF response's status and data as a tool result: ``isError`` for 4xx and 5xx."""
    from rest_framework.renderers import JSONRenderer  # type: ignore[import-untyped]

    plain = json.loads(JSONRenderer().render(data)) if data is not None else None  # Decimal, dates, lazy text as JSON
    if status >= 400:
        detail = plain["detail"] if isinstance(plain, dict) and list(plain) == ["detail"] else plain
        error = {"status": status, "detail": detail}
        return Tool.Response(json.dumps(error), structured_content=error, error=True)
    if plain is None:
        return Tool.Response(json.dumps({"status": status}), structured_content={"status": status})
    structured = plain if isinstance(plain, dict) else {"result": plain}
    return Tool.Response(json.dumps(plain), structured_content=structured)


def _tool(name: str, description: str, schema: dict[str, t.Any], method: str, call: _Call) -> type[Tool]:
    tool: type[Tool] = Tool.define(
        name, description=description, input_schema=schema, annotations=_ANNOTATIONS.get(method), handler=call, arguments_dict=True
    )
    return tool


def _lookup_schema(view: t.Any, lookup: str) -> dict[str, t.Any]:
    queryset = getattr(view, "queryset", None)
    model = getattr(queryset, "model", None)
    if model is None:
        return {"type": "string"}
    field_name = getattr(view, "lookup_field", "pk")
    return model_field_schema(model._meta.pk if field_name == "pk" else model._meta.get_field(field_name))


def _query_parameters(view: t.Any) -> dict[str, t.Any]:
    sources = [backend() for backend in getattr(view, "filter_backends", ())]
    if getattr(view, "pagination_class", None) is not None:
        sources.append(view.pagination_class())
    properties: dict[str, t.Any] = {}
    for source in sources:
        for parameter in source.get_schema_operation_parameters(view):
            if parameter.get("in") == "query":
                schema = dict(parameter.get("schema") or {"type": "string"})
                if parameter.get("description"):
                    schema["description"] = str(parameter["description"])
                properties[parameter["name"]] = schema
    return properties


def _serializer(view: type[t.Any]) -> t.Any:
    instance = view(request=None, format_kwarg=None, kwargs={}, args=())
    if callable(getattr(instance, "get_serializer", None)):
        return instance.get_serializer()
    serializer_class = getattr(view, "serializer_class", None)
    return serializer_class() if serializer_class is not None else None


def _own_doc(view: type[t.Any], name: str) -> str | None:
    """The docstring of ``view``'s method ``name`` when the project wrote it (not DRF's mixins')."""
    for owner in view.__mro__:
        if name in owner.__dict__:
            if owner.__module__.startswith("rest_framework."):
                return None
            doc = inspect.getdoc(owner.__dict__[name])
            return doc.strip() if doc else None
    return None


def _names(view: t.Any, lookup: str) -> dict[str, str]:
    model = getattr(getattr(view, "queryset", None), "model", None)
    meta = getattr(model, "_meta", None)
    return {
        "name": str(meta.verbose_name) if meta is not None else "item",
        "plural": str(meta.verbose_name_plural) if meta is not None else "items",
        "lookup": lookup,
    }


__all__ = ["ACTIONS", "UserFor", "answer", "principal_user", "tools_from_api_view", "tools_from_viewset"]
