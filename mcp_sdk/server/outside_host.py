"""A tool that needed its web framework's context and ran without it: the SDK names the fix.

A ``StreamableHTTPTransport`` mounted beside a Flask app (werkzeug's ``DispatcherMiddleware``, as
older READMEs showed) runs tools on its own threads, outside any Flask context, so ``current_app``,
``flask.request``, Flask-SQLAlchemy's ``db.session`` or Flask-Login's ``current_user`` raise
Flask's ``RuntimeError("Working outside of application context. ...")``, whose advice
(``app.app_context()``) is not the fix. :func:`recognize` turns it into
:class:`OutsideHostContextError`, which says to serve the server with ``mcp_sdk.contrib.flask``;
the client is told the same (the SDK's words, nothing of the tool's).
"""

from __future__ import annotations

from ..errors import MCPError

#: Flask's messages (flask/globals.py), first line, and the context each names.
FLASK_MESSAGES = {
    "Working outside of application context.": "application context",
    "Working outside of request context.": "request context",
}
#: The message, with the context Flask named.
OUTSIDE_FLASK = (
    "The tool used Flask's {context} (current_app, flask.request, db.session, current_user ...), which "
    "tools of this server do not run in: a StreamableHTTPTransport mounted beside the app "
    "(DispatcherMiddleware) runs them on its own threads. Serve the server from the app with "
    "mcp_sdk.contrib.flask: MCP(app, server=server)"
)


class OutsideHostContextError(MCPError, RuntimeError):
    """A tool used its framework's context where the SDK does not provide it; the message names
    the fix, and is what the client is told."""


def recognize(error: BaseException) -> OutsideHostContextError | None:
    """The SDK's account of ``error`` if it is Flask's "working outside of context", else None."""
    if type(error) is not RuntimeError:
        return None
    context = FLASK_MESSAGES.get(str(error).split("\n", 1)[0])
    if context is None:
        return None
    return OutsideHostContextError(OUTSIDE_FLASK.format(context=context))


__all__ = ["FLASK_MESSAGES", "OUTSIDE_FLASK", "OutsideHostContextError", "recognize"]
