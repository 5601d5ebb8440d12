"""Context managers a server enters around every handler: the host application's context.

A handler runs on whichever thread the transport gives it (a pool thread of the HTTP transport,
a task's own thread), outside any context the web framework set up for the HTTP request. A
*handler context* puts it back: a Flask app (and request) context, Django's connection
handling. Register one with :meth:`mcp_sdk.Server.handler_context`; it is entered on the thread
that runs the handler, around ``around_request`` and the handler, for every request and
notification, every retry of a multi round-trip request, and every run of a task's work.
"""

from __future__ import annotations

import contextlib
import typing as t

if t.TYPE_CHECKING:
    from ..server_context import ServerContext

#: ``factory(server_context) -> context manager``: what :meth:`mcp_sdk.Server.handler_context` takes.
HandlerContext = t.Callable[["ServerContext"], t.ContextManager[t.Any]]


@contextlib.contextmanager
def entered(factories: t.Sequence[HandlerContext], server_context: ServerContext) -> t.Iterator[None]:
    """Enter the context each factory makes for ``server_context``, in order; leave them in reverse."""
    with contextlib.ExitStack() as stack:
        for factory in factories:
            stack.enter_context(factory(server_context))
        yield


__all__ = ["HandlerContext", "entered"]
