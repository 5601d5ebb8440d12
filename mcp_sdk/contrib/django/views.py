"""The MCP endpoint as a Django view: Django's request in, the transport's answer out."""

from __future__ import annotations

import json
import typing as t

from django.http import HttpResponse, StreamingHttpResponse  # type: ignore[import-untyped]
from django.middleware.csrf import CsrfViewMiddleware  # type: ignore[import-untyped]
from django.views.decorators.csrf import csrf_exempt  # type: ignore[import-untyped]

from ...server.transports.streamable_http import FRAMEWORK_REQUEST_KEY
from .conf import Endpoint, configured

if t.TYPE_CHECKING:
    from ...server import Server
    from ...server.auth import BearerAuth

#: A WSGI application: the transport, or another the SDK gives (RFC 9728 metadata).
WSGIApp = t.Callable[[t.Dict[str, t.Any], t.Callable[..., t.Any]], t.Iterable[bytes]]

#: Methods Django's CSRF protection leaves alone.
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS", "TRACE"})


def mcp_view(server: Server | None = None, **transport_options: t.Any) -> t.Callable[[t.Any], t.Any]:
    """A Django view serving ``server`` (default: ``MCP_SDK["SERVER"]``, the view of
    ``mcp_sdk.contrib.django.urls``) for ``GET``, ``POST`` and ``DELETE``.

    It hands the ``HttpRequest`` to the server's transport (built on the first request, one per
    process) as a WSGI environ from ``request.META``, reading the body from the request's own
    stream, with the ``HttpRequest`` as ``server_context.request``; an SSE answer becomes a
    ``StreamingHttpResponse`` (each event reaches the client as it is written), any other an
    ``HttpResponse``, with the transport's status and headers.

    CSRF: a request signed in by its session cookie (``request.user`` authenticated, no
    ``Authorization`` header) that is not ``GET``/``HEAD`` must pass Django's CSRF check, else 403
    naming the fix; bearer-token and anonymous requests need no token (a browser cannot be made to
    send either on a user's behalf).

    :param server: a server of your own; ``mcp_sdk.contrib.django`` adds its handler context and
        ``request_state_keys`` to it as to the configured one.
    :param transport_options: ``StreamableHTTPTransport`` keyword arguments for ``server``'s
        transport (default: ``MCP_SDK["TRANSPORT"]``); ``authenticate`` and ``redis_url`` come
        from ``MCP_SDK`` unless given.
    :raises TypeError: ``transport_options`` without ``server`` (set ``MCP_SDK["TRANSPORT"]``).
    """
    if server is None and transport_options:
        raise TypeError('mcp_view() takes transport options only with a server; set MCP_SDK["TRANSPORT"] for the configured one')
    endpoint = configured if server is None else Endpoint(server, transport_options or None)

    def view(request: t.Any) -> t.Any:
        return csrf_refusal(request) or serve(endpoint.transport(), request)

    exempt: t.Callable[[t.Any], t.Any] = csrf_exempt(view)  # checked in the view, for cookie-session callers only
    exempt.mcp_endpoint = endpoint  # type: ignore[attr-defined]
    return exempt


def protected_resource_view(auth: BearerAuth) -> t.Callable[[t.Any], t.Any]:
    """A Django view answering ``auth``'s RFC 9728 protected resource metadata (``GET``, ``HEAD``,
    CORS ``OPTIONS``), to route at the site's root where ``auth.metadata_path`` says:
    ``path(auth.metadata_path.lstrip("/"), protected_resource_view(auth))``.

    :param auth: the ``BearerAuth`` the endpoint's transport was given (``mcp_view(server, auth=auth)``).
    """
    from ...server.auth import protected_resource_metadata

    app = protected_resource_metadata(auth)

    def view(request: t.Any) -> t.Any:
        return serve(app, request)

    exempt: t.Callable[[t.Any], t.Any] = csrf_exempt(view)  # a public document
    return exempt


class _CSRFCheck(CsrfViewMiddleware):  # type: ignore[misc]
    def _reject(self, request: t.Any, reason: str) -> str:
        return reason


def csrf_refusal(request: t.Any) -> HttpResponse | None:
    """Django's CSRF check for a request the session cookie signs in; None when it passes or
    does not apply, else a 403 JSON-RPC error that names the fix."""
    if request.method in SAFE_METHODS or "HTTP_AUTHORIZATION" in request.META:
        return None
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return None
    check = _CSRFCheck(lambda request: None)
    check.process_request(request)
    reason = check.process_view(request, None, (), {})
    if reason is None:
        return None
    from django.conf import settings  # type: ignore[import-untyped]

    header = settings.CSRF_HEADER_NAME.removeprefix("HTTP_").replace("_", "-").title()  # as Django names it
    message = (
        f"Forbidden: CSRF check failed ({reason}). This request is signed in by a Django session cookie, so "
        f"Django's CSRF protection applies: send the {settings.CSRF_COOKIE_NAME} cookie's value in an {header} header, "
        f"or authenticate with an Authorization header (a bearer token) instead of the session cookie"
    )
    body = json.dumps({"jsonrpc": "2.0", "id": None, "error": {"code": -32600, "message": message}}, separators=(",", ":"))
    return HttpResponse(body, status=403, content_type="application/json")


def serve(transport: WSGIApp, request: t.Any) -> t.Any:
    """``request`` answered by ``transport`` (or another WSGI application), as a Django response."""
    # Django's request is itself the body stream, length-bounded, and replays a body middleware read.
    environ = {**request.META, "wsgi.input": request, FRAMEWORK_REQUEST_KEY: request}
    started: list[t.Any] = []

    def start_response(status: str, headers: list[tuple[str, str]], exc_info: t.Any = None) -> t.Callable[[bytes], None]:
        started[:] = [status, headers]
        return _no_write

    body = transport(environ, start_response)
    status, headers = int(started[0].split(" ", 1)[0]), started[1]
    content_type = next((value for name, value in headers if name.lower() == "content-type"), "")
    response: t.Any
    if content_type.startswith("text/event-stream"):
        response = StreamingHttpResponse(body, status=status)  # Django closes `body` when the response ends
    else:
        try:
            content = b"".join(body)
        finally:
            close = getattr(body, "close", None)
            if close is not None:
                close()
        response = HttpResponse(content, status=status)
    del response["Content-Type"]
    merged: dict[str, list[str]] = {}
    for name, value in headers:
        merged.setdefault(name, []).append(value)
    for name, values in merged.items():
        response[name] = ", ".join(values)  # Django keeps one value per header name
    return response


def _no_write(data: bytes) -> None:
    raise NotImplementedError("the WSGI write() callable is not supported")


__all__ = ["SAFE_METHODS", "WSGIApp", "csrf_refusal", "mcp_view", "protected_resource_view", "serve"]
