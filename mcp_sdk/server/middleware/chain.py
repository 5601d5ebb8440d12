"""The middleware chain: functions run in order around each request's handler.

A middleware is ``fn(request, call_next)``: ``request`` is the
:class:`~mcp_sdk.server.request.Request` being handled (``method``, ``params``, ``id``,
``principal``, ``session``, ``server_context()``, ``data``), and ``call_next(request)``
runs the rest of the chain and the handler, returning the JSON-RPC ``result``. A
middleware returns that result (changed or not), or short-circuits: it returns a result
of its own without calling ``call_next``, or raises a
:class:`~mcp_sdk.errors.RequestHandlerError` (the error response; any other exception
is reported and answered -32603, as a handler's would be).

The configuration's ``instrumentation_callback`` and ``around_request``
(:class:`~mcp_sdk.Configuration`) are the chain's outermost layers, in that order, adapted by
:mod:`.hooks`: they see the whole JSON-RPC response, and run for unknown methods too. The
middleware runs inside them, the same way in both protocol eras and on every transport, for
every request method the server answers (not for notifications, nor for unknown methods).
"""

from __future__ import annotations

import threading
import typing as t

from .hooks import AroundRequest, Instrumentation, RequestHook

if t.TYPE_CHECKING:
    from ..core import ServerCore
    from ..request import Request

#: What ``call_next`` is: runs the rest of the chain and the handler, returns the ``result``.
CallNext = t.Callable[["Request"], t.Any]
#: A middleware function.
MiddlewareFunction = t.Callable[["Request", CallNext], t.Any]
M = t.TypeVar("M", bound=MiddlewareFunction)


class Middleware:
    """Base class of middleware objects: override :meth:`__call__`; :meth:`bind` is called
    once when the object is added to a server."""

    def bind(self, server: ServerCore) -> None:
        """Called by :meth:`mcp_sdk.Server.add_middleware` with the server (a cache, say,
        follows its changes). The default does nothing.

        :param server: the server the middleware was added to.
        """

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        """Handle ``request``: by default, pass it on."""
        return call_next(request)


class MiddlewareChain:
    """The middleware of one server, in the order added, inside the configuration's hooks.

    :param server: given to each middleware object's :meth:`Middleware.bind`; its
        configuration's ``around_request`` and ``instrumentation_callback`` are the hooks.
    """

    def __init__(self, server: ServerCore) -> None:
        self._server = server
        self._lock = threading.Lock()
        self._entries: tuple[tuple[MiddlewareFunction, frozenset[str] | None], ...] = ()
        #: Whether any middleware was added: read for every request, so kept as a plain attribute.
        self.active = False
        # method -> its middleware; replaced, never changed in place (readers take no lock).
        self._by_method: dict[str, tuple[MiddlewareFunction, ...]] = {}
        # method -> (its protocol handler, that handler wrapped); replaced like _by_method.
        self._wrapped: dict[str, tuple[CallNext, CallNext]] = {}
        # (around_request, instrumentation_callback, their hooks): replaced when the configuration changes.
        self._hooks: tuple[t.Any, t.Any, tuple[RequestHook, ...]] = (None, None, ())

    def add(self, middleware: M, methods: t.Iterable[str] | str | None = None) -> M:
        """Run ``middleware`` after those added before, for every request or only ``methods``.

        :raises TypeError: it is not callable, or ``methods`` is not strings.
        :param middleware: a :class:`Middleware` or a function ``fn(request, call_next)``.
        :param methods: the JSON-RPC methods it runs for (one, or several); None: every request.
        :returns: ``middleware``.
        """
        if not callable(middleware):
            raise TypeError(f"middleware must be callable as fn(request, call_next), not {middleware!r}")
        only = None
        if methods is not None:
            only = frozenset((methods,) if isinstance(methods, str) else methods)
            if not all(type(method) is str for method in only):
                raise TypeError("methods must be method names (strings)")
        if isinstance(middleware, Middleware):
            middleware.bind(self._server)
        with self._lock:
            self._entries = (*self._entries, (middleware, only))
            self.active = True
            self._by_method = {}
            self._wrapped = {}
        return middleware

    def __len__(self) -> int:
        """How many middleware were added (the configuration's hooks are not counted)."""
        return len(self._entries)

    def hooks(self) -> tuple[RequestHook, ...]:
        """The configuration's hooks as request hooks (:mod:`.hooks`), outermost first:
        :class:`~.hooks.Instrumentation`, then :class:`~.hooks.AroundRequest`; each only when
        the configuration sets it, so a server that sets neither gets ``()``. Read for every
        request: a hook set on the configuration later takes effect at the next request.
        """
        config = self._server.configuration
        around = config.around_request
        instrument = config.instrumentation_callback
        if around is None and instrument is None:
            return ()
        cached = self._hooks
        if cached[0] is around and cached[1] is instrument:
            return cached[2]
        report = self._server.report_exception
        hooks: list[RequestHook] = []
        if instrument is not None:
            hooks.append(Instrumentation(instrument, report))
        if around is not None:
            hooks.append(AroundRequest(around, report))
        adapted = tuple(hooks)
        self._hooks = (around, instrument, adapted)  # one assignment: readers see the old or the new whole
        return adapted

    def for_method(self, method: str) -> tuple[MiddlewareFunction, ...]:
        """The middleware that runs for ``method``, in order.

        :param method: a JSON-RPC method.
        """
        chain = self._by_method.get(method)
        if chain is None:
            with self._lock:  # built from the entries it is stored with (add() may run meanwhile)
                chain = tuple(function for function, only in self._entries if only is None or method in only)
                self._by_method = {**self._by_method, method: chain}
        return chain

    def wrap(self, method: str, handler: CallNext, reused: bool = False) -> CallNext:
        """``handler`` with the middleware of ``method`` around it (itself when there is none).

        :param reused: ``handler`` answers every ``method`` request (a protocol method's):
            the wrapped handler is built once and kept until the chain changes.
        :param method: the JSON-RPC method ``handler`` answers.
        :param handler: the handler, ``handler(request)``.
        """
        entries = self._entries
        if not entries:
            return handler
        if reused:
            wrapped = self._wrapped.get(method)
            if wrapped is not None and wrapped[0] is handler:
                return wrapped[1]
        chain = self.for_method(method)
        composed = handler
        for middleware in reversed(chain):
            composed = _layer(middleware, composed)
        if reused:
            with self._lock:
                if self._entries is entries:  # else add() ran meanwhile: build it anew next time
                    self._wrapped = {**self._wrapped, method: (handler, composed)}
        return composed


def _layer(middleware: MiddlewareFunction, call_next: CallNext) -> CallNext:
    """``call_next`` of the middleware before ``middleware``: runs it with the rest of the chain."""

    def layer(request: Request) -> t.Any:
        return middleware(request, call_next)

    return layer


__all__ = ["CallNext", "Middleware", "MiddlewareChain", "MiddlewareFunction"]
