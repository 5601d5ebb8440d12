"""The Flask extension: the MCP endpoint as a Flask view, tools in the app's context."""

from __future__ import annotations

import contextlib
import threading
import typing as t

import click
from flask import Blueprint, Flask, current_app, request
from flask.cli import AppGroup
from flask.globals import request_ctx

from ...server.transports.streamable_http import FRAMEWORK_REQUEST_KEY
from .carried import CARRIED_KEY, Carried

if t.TYPE_CHECKING:
    from werkzeug.wrappers import Response

    from ...server import Server
    from ...server.transports.streamable_http import StreamableHTTPTransport
    from ...server.context import ServerContext

#: The key of this extension's per-app state in ``app.extensions``.
EXTENSION_KEY = "mcp_sdk"


class AppState:
    """One app's share of an :class:`MCP` extension, kept in ``app.extensions["mcp_sdk"]``.

    :param mcp: the extension.
    :param app: the app.
    :param transport: the app's own transport (several apps never share one).
    """

    __slots__ = ("mcp", "app", "transport")

    def __init__(self, mcp: MCP, app: Flask, transport: StreamableHTTPTransport) -> None:
        self.mcp = mcp
        self.app = app
        self.transport = transport


class MCP:
    """Serve ``server`` from a Flask app at ``url_prefix``, in Flask's own routing.

    ``MCP(app, server=server)`` or, with an app factory, ``mcp = MCP(server=server)`` then
    ``mcp.init_app(app)``. For each app it:

    - registers :attr:`blueprint` (one view for ``GET``, ``POST`` and ``DELETE`` at
      ``url_prefix``), so ``before_request`` hooks, Flask-Login and error handlers apply to the
      MCP endpoint as to any view. The view hands the request to the app's own
      :class:`~mcp_sdk.server.transports.StreamableHTTPTransport` and returns its response, an
      SSE stream included, which Flask passes through unbuffered. ``server_context.request`` is
      the Flask request.
    - runs every handler (tool, prompt, resource, task work) in the app's context, on whichever
      thread runs it: a new app context, and a request context over a copy of the request that
      carried the call, so ``current_app``, ``flask.request`` (headers, cookies,
      ``remote_addr``, path; no body), ``session``, Flask-Login's ``current_user`` and
      Flask-SQLAlchemy's ``db.session`` work in tools. ``g`` is the handler's own, fresh for
      each call: what a ``before_request`` hook put in the view's ``g`` is not there (derive it
      again from ``flask.request``); ``teardown_appcontext`` functions run when the handler
      ends. ``before_request`` hooks do not run again for the handler.
    - adds the ``flask mcp`` commands: ``flask mcp stdio`` serves the same server over stdio
      with the app loaded (tools in an app context there too), ``flask mcp tools`` lists the
      tools.

    A Flask-WTF ``CSRFProtect`` refuses the MCP ``POST`` requests: exempt :attr:`blueprint`.

    :param app: the app to set up now; see :meth:`init_app`.
    :param server: the MCP server to serve.
    :param url_prefix: where the endpoint is, in the app's URL space.
    :param transport_options: keyword arguments of
        :class:`~mcp_sdk.server.transports.StreamableHTTPTransport` (``wsgi_threads=``,
        ``stateless=``, ``allowed_hosts=``, ``authenticate=`` ...), for each app's transport.
    """

    def __init__(self, app: Flask | None = None, *, server: Server, url_prefix: str = "/mcp", **transport_options: t.Any) -> None:
        self.server = server
        self.url_prefix = url_prefix
        self.transport_options = transport_options
        #: The blueprint holding the endpoint; add hooks that apply to the MCP endpoint alone
        #: (``@mcp.blueprint.before_request``) before :meth:`init_app`.
        self.blueprint = Blueprint("mcp_sdk", __name__)
        self.blueprint.add_url_rule("", "endpoint", _endpoint, methods=["GET", "POST", "DELETE"])
        self._stdio_app: Flask | None = None
        self._lock = threading.Lock()
        server.handler_context(self._handler_context)
        if app is not None:
            self.init_app(app)

    def init_app(self, app: Flask) -> None:
        """Set ``app`` up: its transport, the endpoint, the ``flask mcp`` commands.

        :param app: the Flask app.
        :raises RuntimeError: if ``app`` already has an :class:`MCP` extension.
        """
        from ...server.transports import StreamableHTTPTransport

        if EXTENSION_KEY in app.extensions:
            raise RuntimeError(f"{app!r} already has an MCP extension (app.extensions[{EXTENSION_KEY!r}])")
        app.extensions[EXTENSION_KEY] = AppState(self, app, StreamableHTTPTransport(self.server, **self.transport_options))
        app.register_blueprint(self.blueprint, url_prefix=self.url_prefix)
        app.cli.add_command(mcp_commands)

    def transport(self, app: Flask | None = None) -> StreamableHTTPTransport:
        """The transport serving ``app`` (default: ``current_app``).

        :raises RuntimeError: if the app was not set up with this extension (or, without
            ``app``, outside an app context).
        :param app: the Flask app (default: ``current_app``).
        """
        return self.state(app).transport

    def state(self, app: Flask | None = None) -> AppState:
        """This extension's state for ``app`` (default: ``current_app``).

        :raises RuntimeError: if the app was not set up with this extension (or, without
            ``app``, outside an app context).
        :param app: the Flask app (default: ``current_app``).
        """
        found = (app if app is not None else current_app).extensions.get(EXTENSION_KEY)
        if not isinstance(found, AppState) or found.mcp is not self:
            raise RuntimeError("the app was not set up with this MCP extension: call mcp.init_app(app)")
        return found

    def close(self, app: Flask | None = None) -> None:
        """Close the transport of ``app`` (default: ``current_app``): its sessions end, its
        streams close, its threads stop; the endpoint answers 503 from then on.

        Flask has no application shutdown signal: call it where the process ends (a gunicorn
        ``worker_exit`` hook, the end of a test). The transport's threads are daemons, so a
        process that never calls it still exits.

        :param app: the Flask app (default: ``current_app``).
        """
        self.transport(app).close()

    def serve_stdio(self, app: Flask, **stdio_options: t.Any) -> None:
        """Serve the server over this process's stdin and stdout until end of input, every
        handler in an app context of ``app`` (there is no request); what ``flask mcp stdio``
        runs.

        :param app: the app whose context handlers run in.
        :param stdio_options: keyword arguments of :class:`~mcp_sdk.server.transports.StdioTransport`.
        :raises RuntimeError: if this extension already serves stdio.
        """
        from ...server.transports import StdioTransport

        with self._lock:
            if self._stdio_app is not None:
                raise RuntimeError("this MCP extension already serves stdio")
            self._stdio_app = app
        transport = StdioTransport(self.server, **stdio_options)
        try:
            transport.open()
        finally:
            transport.close()
            with self._lock:
                self._stdio_app = None

    def _handler_context(self, server_context: ServerContext) -> t.ContextManager[t.Any]:
        carrying = server_context.request
        if carrying is None:
            app = self._stdio_app
            return app.app_context() if app is not None else contextlib.nullcontext()
        carried = getattr(carrying, "environ", {}).get(CARRIED_KEY)
        if not isinstance(carried, Carried) or carried.owner is not self:
            return contextlib.nullcontext()  # served by another transport of the same server
        return carried.contexts()


def _endpoint() -> Response:
    """The MCP endpoint: the app's transport answers the request."""
    state = current_app.extensions[EXTENSION_KEY]
    environ = request.environ
    carried = Carried(state.mcp, state.app, environ)
    # The request object itself, not the `request` proxy, which means nothing on another thread.
    environ[FRAMEWORK_REQUEST_KEY] = request_ctx.request
    environ[CARRIED_KEY] = carried
    response: Response = state.transport.handle_request(request)
    return response


#: The ``flask mcp`` command group, added to every app :class:`~mcp_sdk.contrib.flask.MCP` sets up.
mcp_commands = AppGroup("mcp", help="The app's MCP server (mcp_sdk).")


def _state() -> AppState:
    state = current_app.extensions.get(EXTENSION_KEY)
    if not isinstance(state, AppState):
        raise click.ClickException("this app has no MCP extension: MCP(app, server=...)")
    return state


@mcp_commands.command("stdio")
def stdio_command() -> None:
    """Serve the MCP server over stdin and stdout (for desktop hosts), tools in the app's context."""
    state = _state()
    state.mcp.serve_stdio(state.app)


@mcp_commands.command("tools")
def tools_command() -> None:
    """List the server's tools: name, a tab, the first line of the description."""
    for name, tool in _state().mcp.server.tools.items():
        description = (tool.description or "").strip().splitlines()
        click.echo(f"{name}\t{description[0] if description else ''}")


__all__ = ["EXTENSION_KEY", "MCP", "AppState", "mcp_commands"]
