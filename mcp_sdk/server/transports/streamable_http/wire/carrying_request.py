"""The HTTP request a message arrived in, as handlers see it (``server_context.request``)."""

from __future__ import annotations

import typing as t

#: The WSGI environ key under which a framework integration puts its own request object (a
#: Flask or Django request), for handlers to get instead of a werkzeug ``Request``.
FRAMEWORK_REQUEST_KEY = "mcp_sdk.http_request"


class CarryingRequest:
    """Makes the request object the first time a handler asks for it (most never do).

    Calling it gives the framework's request put in the environ under
    :data:`FRAMEWORK_REQUEST_KEY`, else a werkzeug ``Request`` over the environ (its body
    already read by the transport).

    :param environ: the WSGI environ of the HTTP request.
    """

    __slots__ = ("environ", "_request")

    def __init__(self, environ: t.Dict[str, t.Any]) -> None:
        self.environ = environ
        self._request: t.Any = None

    def __call__(self) -> t.Any:
        request = self._request
        if request is None:
            request = self.environ.get(FRAMEWORK_REQUEST_KEY)
            if request is None:
                from werkzeug.wrappers import Request

                request = Request(self.environ)
            self._request = request  # two threads may build one each: either serves
        return request

    def __repr__(self) -> str:
        return f"<CarryingRequest {self.environ.get('REQUEST_METHOD')} {self.environ.get('PATH_INFO')!r}>"


__all__ = ["FRAMEWORK_REQUEST_KEY", "CarryingRequest"]
