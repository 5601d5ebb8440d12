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
import threading
import typing as t

if t.TYPE_CHECKING:
    from .context import ServerContext

#: ``factory(server_context) -> context manager``: what :meth:`mcp_sdk.Server.handler_context` takes.
HandlerContext = t.Callable[["ServerContext"], t.ContextManager[t.Any]]
HC = t.TypeVar("HC", bound=HandlerContext)


class HandlerContexts:
    """The handler contexts a server registered, in order."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        #: The factories, in the order registered (a new tuple on each registration: read without a lock).
        self.registered: tuple[HandlerContext, ...] = ()

    def add(self, factory: HC) -> HC:
        """Register ``factory``; returns it.

        :param factory: ``factory(server_context)`` returning a context manager.
        :raises TypeError: ``factory`` is not callable.
        """
        if not callable(factory):
            raise TypeError(f"handler_context takes a callable returning a context manager, not {factory!r}")
        with self._lock:
            self.registered = (*self.registered, factory)
        return factory


@contextlib.contextmanager
def entered(factories: t.Sequence[HandlerContext], server_context: ServerContext) -> t.Iterator[None]:
    """Enter the context each factory makes for ``server_context``, in order; leave them in reverse."""
    with contextlib.ExitStack() as stack:
        for factory in factories:
            stack.enter_context(factory(server_context))
        yield


__all__ = ["HandlerContext", "HandlerContexts", "entered"]
