"""Serve a WSGI application (the MCP transport) from a Django view.

Routing through the URLconf keeps Django's middleware (authentication, logging)
in front of the endpoint. The answer is a ``StreamingHttpResponse``, so SSE
events reach the client as they are written; Django closes the body when the
response ends, which tells the transport the connection is gone.
"""

from __future__ import annotations

import typing as t

from django.http import HttpRequest, StreamingHttpResponse
from django.views.decorators.csrf import csrf_exempt

WSGIApp = t.Callable[[t.Dict[str, t.Any], t.Callable[..., t.Any]], t.Iterable[bytes]]


def wsgi_view(app: WSGIApp) -> t.Callable[[HttpRequest], StreamingHttpResponse]:
    """A Django view answering every method by calling the WSGI ``app``."""

    @csrf_exempt  # a JSON API for non-browser clients; the transport checks Origin itself
    def view(request: HttpRequest) -> StreamingHttpResponse:
        environ = {**request.environ, "wsgi.input": request}  # Django's own, length-bounded body stream
        environ["django.request"] = request  # for StreamableHTTPTransport(authenticate=...): request.user
        started: dict[str, t.Any] = {}

        def start_response(status: str, headers: list[tuple[str, str]], exc_info: t.Any = None) -> t.Callable[[bytes], None]:
            started["status"], started["headers"] = status, headers

            def write(data: bytes) -> None:
                raise NotImplementedError("the write() callable is not supported")

            return write

        body = app(environ, start_response)
        response = StreamingHttpResponse(body, status=int(started["status"].split(" ", 1)[0]))
        del response["Content-Type"]  # the app's own headers only
        for name, value in started["headers"]:
            response[name] = value
        return response

    return view
