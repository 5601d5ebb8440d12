"""Running one request: its handler inside the middleware chain, and the outcome.

A :class:`Dispatcher` is what the server (and, for 2026-07-28 requests,
:class:`~.requests_2026.ModernRequests`) calls for a request or notification
(an :class:`~.request.Incoming`), in either era: it resolves a request's
handler once (a :class:`Route`, which a transport may ask first), tracks the
request for cancellation, runs its handler inside the handler contexts and the
middleware chain (:mod:`.middleware.chain`, whose outermost layers are the
configuration's ``instrumentation_callback`` and ``around_request``), and turns
what happened (a result, a handler error, a cancellation, an MRTR ask) into the
JSON-RPC response. On a 2025 session it also fulfils a handler's
:class:`~.input_required.InputRequiredResult` with real server-to-client requests.
"""

from __future__ import annotations

import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from .channel import Channel
from ..errors import CancelledError, JSONRPCError, MCPError, RequestHandlerError, StoreFullError
from .handler_contexts import entered
from .input_required import InputRequired, InputRequiredResult, RoundTripInputs
from .middleware.hooks import RequestHook, hooked
from .registry import HandlerEntry
from .request import Request
from .unavailable import unavailable

if t.TYPE_CHECKING:
    from .request import Incoming
    from .core import ServerCore
    from .middleware.chain import MiddlewareChain

#: A protocol method's handler: takes the request, returns the ``result``.
Handler = t.Callable[[Request], t.Any]

#: Protocol requests answered by a handler the user registered: method -> name in the registry's handlers.
HANDLER_NAMES = {
    methods.RESOURCES_READ: "resources_read",
    methods.RESOURCES_SUBSCRIBE: "resources_subscribe",
    methods.RESOURCES_UNSUBSCRIBE: "resources_unsubscribe",
    methods.COMPLETION_COMPLETE: "completion",
}

#: Notifications the protocol defines (a custom method may not take their names).
PROTOCOL_NOTIFICATIONS = frozenset(
    {
        methods.NOTIFICATIONS_INITIALIZED,
        methods.NOTIFICATIONS_CANCELLED,
        methods.NOTIFICATIONS_ROOTS_LIST_CHANGED,
        methods.NOTIFICATIONS_PROGRESS,
        methods.NOTIFICATIONS_MESSAGE,
    }
)

#: Times a handler may answer InputRequiredResult to one request on a 2025 session.
MAX_INPUT_ROUNDS = 8


class Route:
    """The handler a request resolved to, once per request: a transport asks it whether the handler
    may talk first (and so whether to answer with a stream), the dispatcher runs it.

    :param handler: runs the request; None when no handler answers its method.
    :param protocol: whether ``handler`` is a protocol method's (else a custom method's).
    :param talks_first: whether the handler may send something before its response (it takes a
        ``server_context``): progress, a log message, a server-to-client request.
    """

    __slots__ = ("handler", "protocol", "talks_first")

    def __init__(self, handler: Handler | None, protocol: bool, talks_first: bool) -> None:
        self.handler = handler
        self.protocol = protocol
        self.talks_first = talks_first


class Dispatcher:
    """Runs the requests and notifications of one server (see the module docstring).

    :param core: the server.
    :param protocol_methods: the protocol's requests: method -> handler. Other methods
        go to the custom methods of the server's registry.
    :param middleware: the server's middleware chain, run around each request's handler
        (with the configuration's hooks as its outermost layers).
    """

    def __init__(self, core: ServerCore, protocol_methods: t.Mapping[str, Handler], middleware: MiddlewareChain) -> None:
        self.core = core
        self._methods = protocol_methods  # not copied: the composition adds forwarding to it (Composition.route)
        self._middleware = middleware

    def answers(self, method: str) -> bool:
        """Whether ``method`` is a protocol request this dispatcher answers itself."""
        return method in self._methods

    def reserved(self, method: str) -> bool:
        """Whether ``method`` belongs to the protocol (a custom method cannot take it)."""
        return method in self._methods or (method.startswith("notifications/") and method in PROTOCOL_NOTIFICATIONS)

    def handler_accepts_server_context(self, method: str, params: t.Any = None) -> bool:
        """Whether the handler that would answer a ``method`` request declares ``server_context``
        (see :meth:`mcp_sdk.Server.handler_accepts_server_context`)."""
        return self.route(method, params, talks_first=True).talks_first

    def route(self, method: str, params: t.Any = None, *, talks_first: bool = False) -> Route:
        """The handler of a ``method`` request, resolved once.

        :param params: the request's params; their ``"name"`` picks the tool or prompt whose
            handler may talk first.
        :param talks_first: find out whether the handler may talk first (a transport that chooses
            between a stream and a plain answer asks); else :attr:`Route.talks_first` is False for a
            protocol method.
        """
        handler = self._methods.get(method)
        if handler is not None:
            return Route(handler, True, talks_first and self._protocol_handler_talks_first(method, params))
        custom = self.core.registry.custom_methods.get(method)
        if custom is None:
            return Route(None, False, False)
        return Route(self._custom_handler(custom), False, custom[1].accepts_server_context)

    def _protocol_handler_talks_first(self, method: str, params: t.Any) -> bool:
        """Whether the user's function behind a protocol method (a tool, a prompt, a resource
        reader...) takes ``server_context``; the server's own answers never talk first."""
        registry = self.core.registry
        if method == methods.TOOLS_CALL or method == methods.PROMPTS_GET:
            name = params.get("name") if type(params) is dict else None
            if type(name) is not str:
                return False
            if method == methods.TOOLS_CALL:
                tool = registry.tools.get(name)
                return tool is not None and tool.accepts_server_context()
            prompt = registry.prompts.get(name)
            return prompt is not None and prompt.accepts_server_context()
        handler_name = HANDLER_NAMES.get(method)
        if handler_name is None:  # answered by the server itself: it never talks back first
            return False
        entry = registry.handlers.get(handler_name)
        return entry is not None and entry[1].accepts_server_context

    def handle_request(  # noqa: size (every request's path: its steps inline, since a frame each would cost every call)
        self, incoming: Incoming, session: Channel, *, inputs: RoundTripInputs | None = None
    ) -> dict[str, t.Any] | None:
        """The response to one request (None when it was cancelled), run on ``session``.

        :param incoming: the request, as the transport read it: its handler is the one it was
            routed to (:attr:`~.request.Incoming.route`), else resolved now; its cancellation the
            token the transport took (by default a new one).
        :param session: the channel it runs on (the session, or a 2026-07-28 exchange).
        :param inputs: on the retry of a multi round-trip request, the answers and state it brings.
        """
        method = incoming.method
        request_id = incoming.id
        route = incoming.route
        if route is not None:  # resolved when the transport asked whether the handler talks first
            handler, protocol = route.handler, route.protocol
        else:  # as route() does, without making a Route nobody else reads
            handler = self._methods.get(method)
            protocol = handler is not None
            if handler is None:
                custom = self.core.registry.custom_methods.get(method)
                if custom is not None:
                    handler = self._custom_handler(custom)
        if handler is None:
            return self._method_not_found(session, request_id, method)
        # None added: nothing to wrap, and nothing that reads request.data.
        wrapped = self._middleware.active
        if wrapped:
            handler = self._middleware.wrap(method, handler, protocol)
        if method == methods.INITIALIZE:
            cancellation = None  # the specification: initialize is never cancelled
        else:
            cancellation = incoming.cancellation
            if cancellation is None:
                cancellation = Cancellation()
        request = Request(
            session, request_id, method, incoming.params, incoming.message, cancellation, inputs, incoming.http_request,
            None if incoming.make_http_request is None else incoming.carrier,
        )
        if cancellation is not None:
            if not session.begin(request_id, cancellation):
                # The specification: ids are unique per session. Answering would end
                # or cancel the first request in the duplicate's place.
                return json_rpc.error(
                    request_id,
                    error_codes.INVALID_REQUEST,
                    "Invalid Request: this id is already in use by a request in flight",
                )
            if cancellation.cancelled():
                session.end(request_id)
                return None  # cancelled before it started: nothing to run, nothing to answer
        try:
            response = self._run(handler, request, wrapped)
            if response is not None and isinstance(response.get("result"), InputRequiredResult):
                response = self._fulfil_input_requests(handler, request, response)
        finally:
            if cancellation is not None:
                session.end(request_id)
        if cancellation is not None and cancellation.cancelled():
            return None  # the specification: no response to a cancelled request
        return response

    def handle_forwarded(self, request: Request) -> dict[str, t.Any] | None:
        """The response to ``request``, a protocol request that a server which mounted this one
        forwards (:mod:`.composition`): begun on its session by that server, which owns its id and
        cancellation. It runs in this server's handler contexts, ``around_request`` and middleware."""
        handler = self._middleware.wrap(request.method, self._methods[request.method], True)
        return self._run(handler, request)

    def _fulfil_input_requests(
        self, handler: Handler, request: Request, response: dict[str, t.Any] | None
    ) -> dict[str, t.Any] | None:
        """On a 2025 session, a handler's :class:`InputRequiredResult` is asked of the client as
        real requests, and the handler runs again with the answers (as the TypeScript and Ruby
        SDKs' legacy shims do). A session that returns input requests (2026-07-28) gets
        ``response`` as it is."""
        if request.session.returns_input_requests:
            return response
        rounds = 0
        while response is not None and isinstance(response.get("result"), InputRequiredResult):
            asked: InputRequiredResult = response["result"]
            rounds += 1
            if rounds > MAX_INPUT_ROUNDS:
                self.core.report_exception(
                    RuntimeError(f"{request.method} asked for input more than {MAX_INPUT_ROUNDS} times"),
                    {"request": request.message},
                )
                return json_rpc.error(request.id, error_codes.INTERNAL_ERROR)
            answers: dict[str, t.Any] = {}
            try:
                for key, input_request in asked.input_requests.items():
                    answers[key] = request.session.send_request(
                        input_request["method"],
                        input_request.get("params"),
                        related_request_id=request.id,
                        cancellation=request.cancellation,
                    )
            except CancelledError:
                return None
            except JSONRPCError as error:
                return json_rpc.error(request.id, error.code, error.message, error.data)
            except MCPError as error:
                return json_rpc.error(request.id, error_codes.INTERNAL_ERROR, str(error))
            request = Request(
                request.session,
                request.id,
                request.method,
                request.params,
                request.message,
                request.cancellation,
                RoundTripInputs(answers, asked.request_state),
                request.http_request,
            )
            response = self._run(handler, request)
        return response

    def _run(self, handler: Handler, request: Request, observed: bool = True) -> dict[str, t.Any] | None:
        """Run ``handler`` inside the handler contexts and the configuration's hooks there are.

        :param observed: a middleware may read ``request.data`` (hooks always may).
        """
        config = self.core.configuration
        if config.around_request is None and config.instrumentation_callback is None:
            # Read here rather than through hooks(): this runs for every request, and a server
            # without hooks should not pay a call to learn that it has none.
            hooks: tuple[RequestHook, ...] = ()
        else:
            hooks = self._middleware.hooks()
        contexts = self.core.handler_contexts
        if not contexts:
            if not hooks:
                # The common case: nothing around the handler, and without middleware nothing reads request.data.
                return self._respond(handler, request, observed)
            return self._run_hooked(hooks, handler, request)
        try:
            with entered(contexts, request.server_context()):
                return self._run_hooked(hooks, handler, request)
        except Exception as error:  # a handler context failed to enter or leave
            self.core.report_exception(error, {"request": request.message})
            return json_rpc.error(request.id, error_codes.INTERNAL_ERROR)

    def _run_hooked(self, hooks: tuple[RequestHook, ...], handler: Handler, request: Request) -> dict[str, t.Any] | None:
        """Run ``handler`` inside ``hooks`` (:mod:`.middleware.hooks`), the outermost first."""
        if not hooks:
            return self._respond(handler, request)

        def respond(request: Request) -> dict[str, t.Any] | None:
            return self._respond(handler, request)

        try:
            return hooked(hooks, respond)(request)
        except Exception as error:  # the hooks answer their own errors: this is a failure of the SDK's
            self.core.report_exception(error, {"request": request.message})
            return json_rpc.error(request.id, error_codes.INTERNAL_ERROR)

    def _respond(self, handler: Handler, request: Request, observed: bool = True) -> dict[str, t.Any] | None:
        """Run ``handler`` and turn its outcome into the JSON-RPC response.

        :param observed: a hook or middleware may read ``request.data`` (else its ``client`` entry is not made).
        """
        if observed:
            client_info = request.session.client_info
            if client_info is not None:
                request.data["client"] = {"name": client_info.get("name"), "version": client_info.get("version")}
        try:
            return {"jsonrpc": "2.0", "id": request.id, "result": handler(request)}
        except RequestHandlerError as error:
            request.data.setdefault("error", _error_name(error.code))
            if isinstance(error, StoreFullError):  # the transport may say when to come back (503)
                return unavailable(request.id, error)
            return json_rpc.error(request.id, error.code, error.message, error.data)
        except CancelledError:
            request.data.setdefault("error", "cancelled")
            if request.cancellation is not None:
                request.cancellation.cancel()
            return None
        except InputRequired as ask:  # 2026-07-28: ModernRequests turns it into an InputRequiredResult
            request.data["result_type"] = "input_required"
            return {"jsonrpc": "2.0", "id": request.id, "result": ask}
        except Exception as error:
            request.data.setdefault("error", "internal_error")
            self.core.report_exception(error, {"request": request.message})
            return json_rpc.error(request.id, error_codes.INTERNAL_ERROR)

    def _custom_handler(self, custom: HandlerEntry) -> Handler:
        function, signature = custom

        def handler(request: Request) -> t.Any:
            if signature.accepts_server_context:
                return function(request.params, server_context=request.server_context())
            return function(request.params)

        return handler

    def _method_not_found(self, session: Channel, request_id: t.Any, method: str) -> dict[str, t.Any]:
        if self._middleware.hooks():  # the hooks see unknown methods too (the middleware does not)
            request = Request(session, request_id, method, None, {}, None)

            def fail(request: Request) -> t.NoReturn:
                request.data["error"] = "method_not_found"
                raise RequestHandlerError(f"Method not found: {method}", code=error_codes.METHOD_NOT_FOUND)

            return t.cast("dict[str, t.Any]", self._run(fail, request))
        return json_rpc.error(request_id, error_codes.METHOD_NOT_FOUND, f"Method not found: {method}")

    def handle_notification(self, incoming: Incoming, session: Channel) -> None:
        """Act on one notification (errors are reported: a notification has no response).

        :param incoming: the notification, as the transport read it.
        :param session: the channel it came on.
        """
        method = incoming.method
        params = incoming.params
        registry = self.core.registry
        try:
            if method == methods.NOTIFICATIONS_INITIALIZED:
                session.initialized = True
            elif method == methods.NOTIFICATIONS_CANCELLED:
                if isinstance(params, dict) and json_rpc.is_valid_id(params.get("requestId")):
                    reason = params.get("reason")
                    session.cancel_request(params["requestId"], reason if isinstance(reason, str) else None)
            elif method == methods.NOTIFICATIONS_ROOTS_LIST_CHANGED:
                entry = registry.handlers.get("roots_list_changed")
                if entry is not None:
                    roots_changed = entry[0]
                    self._notify(session, incoming, lambda request: roots_changed())
            elif method in registry.custom_methods:
                function, signature = registry.custom_methods[method]

                def custom(request: Request) -> None:
                    if signature.accepts_server_context:
                        function(params, server_context=request.server_context())
                    else:
                        function(params)

                self._notify(session, incoming, custom)
        except Exception as error:  # a notification has no response to carry the error
            self.core.report_exception(error, {"notification": method})

    def _notify(self, session: Channel, incoming: Incoming, call: t.Callable[[Request], None]) -> None:
        """Run a user's notification handler, inside the handler contexts when there are any."""
        request = Request(
            session, None, incoming.method, incoming.params, incoming.message, Cancellation(), None, incoming.http_request,
            None if incoming.make_http_request is None else incoming.carrier,
        )
        contexts = self.core.handler_contexts
        if not contexts:
            call(request)
            return
        with entered(contexts, request.server_context()):
            call(request)


_ERROR_NAMES = {
    error_codes.PARSE_ERROR: "parse_error",
    error_codes.INVALID_REQUEST: "invalid_request",
    error_codes.METHOD_NOT_FOUND: "method_not_found",
    error_codes.INVALID_PARAMS: "invalid_params",
    error_codes.INTERNAL_ERROR: "internal_error",
    error_codes.URL_ELICITATION_REQUIRED: "url_elicitation_required",
}


def _error_name(code: int) -> str:
    return _ERROR_NAMES.get(code, str(code))


__all__ = ["HANDLER_NAMES", "PROTOCOL_NOTIFICATIONS", "Dispatcher", "Handler", "MAX_INPUT_ROUNDS", "Route"]
