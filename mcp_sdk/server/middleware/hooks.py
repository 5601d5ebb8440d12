"""``around_request`` and ``instrumentation_callback`` as the outermost layers of the chain.

The two hooks of :class:`~mcp_sdk.Configuration` are adapted here into *request hooks*:
layers of the middleware chain (:mod:`.chain`) that sit outside every middleware added
with ``Server.add_middleware`` and see the JSON-RPC *response* rather than the ``result``.
Outermost first, a request runs through:

1. :class:`Instrumentation` (``instrumentation_callback``): times everything inside it and
   calls the callback with ``data["duration"]`` once the request is answered, failed or not;
2. :class:`AroundRequest` (``around_request``): the user's ``fn(data, request_handler)``;
3. the middleware, in the order added;
4. the handler.

By the time ``request_handler()`` returns, the handler's and the middleware's errors are
already answered (the response is an error response, ``data["error"]`` names what failed), so
a hook's code after the call runs for failed requests too. ``duration`` is set after
``around_request`` returns, so it is never visible inside it (as in the Ruby gem).

The hooks also run for requests of an unknown method (the middleware does not); neither runs
for notifications. A server whose configuration sets neither hook has no request hook at all.
"""

from __future__ import annotations

import time
import typing as t

from ... import error_codes, json_rpc

if t.TYPE_CHECKING:
    from ...configuration import AroundRequest as AroundRequestFunction
    from ...configuration import InstrumentationCallback
    from ..request import Request

#: The JSON-RPC response to a request (None: none is sent, the request was cancelled).
Response = t.Optional[t.Dict[str, t.Any]]
#: Runs the rest of the chain and the handler, and returns the JSON-RPC response.
Respond = t.Callable[["Request"], Response]
#: Gives an exception no response carries to the server's exception reporter.
Report = t.Callable[[BaseException, t.Dict[str, t.Any]], None]


class RequestHook(t.Protocol):
    """A layer of the chain outside the middleware: it sees the JSON-RPC response."""

    def __call__(self, request: Request, respond: Respond) -> Response:
        """Answer ``request``, running ``respond(request)`` for the rest of the chain.

        :param request: the request being handled.
        :param respond: runs the rest of the chain and the handler; returns the response.
        """


class AroundRequest:
    """``around_request(data, request_handler)`` as a request hook.

    ``request_handler()`` runs the rest of the chain once and returns the response (a second
    call returns the first response again: a tool never runs twice). The request is answered
    with that response even when the hook raises after calling it; a hook that raises before,
    or returns without calling it, is reported and the request answered -32603.

    :param around: the configuration's ``around_request``.
    :param report: gives an exception to the server's exception reporter.
    """

    def __init__(self, around: AroundRequestFunction, report: Report) -> None:
        self.around = around
        self.report = report

    def __call__(self, request: Request, respond: Respond) -> Response:
        """Run ``around_request`` around ``respond`` (see the class docstring).

        :param request: the request being handled.
        :param respond: runs the rest of the chain and the handler; returns the response.
        """
        handled = False
        response: Response = None

        def request_handler() -> Response:
            nonlocal handled, response
            if not handled:
                handled = True
                response = respond(request)
            return response

        try:
            self.around(request.data, request_handler)
            if not handled:  # a request must be answered: a hook that skips the handler is a bug
                raise RuntimeError("around_request returned without calling request_handler()")
        except Exception as error:
            self.report(error, {"request": request.message})
            return response or json_rpc.error(request.id, error_codes.INTERNAL_ERROR)
        return response


class Instrumentation:
    """``instrumentation_callback(data)`` as a request hook: called once the request is
    answered, with ``data["duration"]`` in seconds. An exception it raises is reported
    (``{"instrumentation": method}``) and changes no response.

    :param callback: the configuration's ``instrumentation_callback``.
    :param report: gives an exception to the server's exception reporter.
    """

    def __init__(self, callback: InstrumentationCallback, report: Report) -> None:
        self.callback = callback
        self.report = report

    def __call__(self, request: Request, respond: Respond) -> Response:
        """Answer ``request`` with ``respond``, then call the callback with the duration.

        :param request: the request being handled.
        :param respond: runs the rest of the chain and the handler; returns the response.
        """
        data = request.data
        started = time.perf_counter()
        try:
            return respond(request)
        finally:
            data["duration"] = time.perf_counter() - started
            try:
                self.callback(data)
            except Exception as error:
                self.report(error, {"instrumentation": request.method})


def hooked(hooks: t.Sequence[RequestHook], respond: Respond) -> Respond:
    """``respond`` with ``hooks`` around it, the first outermost.

    :param hooks: the request hooks, outermost first.
    :param respond: the innermost step: runs the middleware and the handler, returns the response.
    :returns: a ``respond`` that runs every hook.
    """
    for hook in reversed(hooks):
        respond = _layer(hook, respond)
    return respond


def _layer(hook: RequestHook, respond: Respond) -> Respond:
    """What the hook outside ``hook`` calls: runs ``hook`` with the rest of the chain."""

    def layer(request: Request) -> Response:
        return hook(request, respond)

    return layer


__all__ = ["AroundRequest", "Instrumentation", "Report", "RequestHook", "Respond", "Response", "hooked"]
