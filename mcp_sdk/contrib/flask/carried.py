"""The Flask contexts a handler runs in: the app's, and a copy of the request that carried it."""

from __future__ import annotations

import contextlib
import io
import typing as t

if t.TYPE_CHECKING:
    from flask import Flask

#: The environ key under which the Flask view leaves a :class:`Carried` for the handlers.
CARRIED_KEY = "mcp_sdk.contrib.flask"

#: Environ keys the copy leaves out: the body (the transport read it; it is the MCP message,
#: not the tool's to parse) and objects tied to the original request.
_LEFT_OUT = frozenset({"wsgi.input", "CONTENT_LENGTH", "werkzeug.request"})


class Carried:
    """What a handler needs to run as the view that received its call would: the app, and the
    carrying request's WSGI environ, copied while the view runs (the WSGI server reuses and
    changes the original once the response is sent).

    :param owner: the :class:`~mcp_sdk.contrib.flask.MCP` extension that served the request;
        another extension sharing the server leaves the call alone.
    :param app: the Flask app whose view received the request.
    :param environ: the request's WSGI environ.
    """

    __slots__ = ("owner", "app", "environ")

    def __init__(self, owner: object, app: Flask, environ: t.Mapping[str, t.Any]) -> None:
        self.owner = owner
        self.app = app
        self.environ = {key: value for key, value in environ.items() if key not in _LEFT_OUT and not key.startswith("mcp_sdk.")}

    @contextlib.contextmanager
    def contexts(self) -> t.Iterator[None]:
        """Push a new app context (its own ``g``; ``teardown_appcontext`` runs when the handler
        ends, so Flask-SQLAlchemy's session is the handler's own) and a request context over a
        fresh copy of the environ (headers, cookies, so the session and Flask-Login's
        ``current_user``, remote address, path), without a body."""
        environ = {**self.environ, "wsgi.input": io.BytesIO(b""), "CONTENT_LENGTH": "0"}
        with self.app.app_context(), self.app.request_context(environ):
            yield


__all__ = ["CARRIED_KEY", "Carried"]
