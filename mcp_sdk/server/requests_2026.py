"""Serving one 2026-07-28 request: envelope in, stamped result out.

The steps around the ordinary dispatch (:meth:`.dispatch.Dispatcher.handle_request`), in order:

1. read the ``_meta`` envelope (-32602 / -32022 when it is missing or unsupported);
2. refuse the methods this era removed (-32601);
3. for a request that may be retried (MRTR), open its ``requestState`` (-32602 when
   forged, expired or issued for another request) and collect the answers so far;
4. run the request in a :class:`~.exchange_2026.ModernExchange`;
5. turn an ask into ``resultType: "input_required"`` with a sealed ``requestState``,
   or stamp the result (``resultType``, ``serverInfo``, cache hints).
"""

from __future__ import annotations

import typing as t

from .. import error_codes, json_rpc, methods
from ..cancellation import Cancellation
from .channel import Channel
from ..errors import MissingClientCapabilityError, RequestHandlerError
from .envelope import (
    CACHEABLE_METHODS,
    INPUT_REQUIRED_METHODS,
    REMOVED_METHODS,
    SUBSCRIPTION_ID_KEY,
    EnvelopeFields,
    envelope_fields,
    stamp,
)
from .input_required import InputRequired, InputRequiredResult, RoundTripInputs, required_capability, url_elicitation
from .exchange_2026 import ModernExchange, capability_object

if t.TYPE_CHECKING:
    from .core import ServerCore
    from .dispatch import Dispatcher
    from .request import Incoming
    from .request_state import RequestStateCodec

#: Default ``ttlMs`` of ``server/discover`` and the list results (a minute).
DEFAULT_TTL_MS = 60_000
#: Default ``ttlMs`` of ``resources/read`` (contents change more often than lists).
DEFAULT_READ_TTL_MS = 0
#: Methods whose stamped result gets more than ``serverInfo`` and ``resultType``.
_HINTED_METHODS = CACHEABLE_METHODS | {methods.SUBSCRIPTIONS_LISTEN}


class ModernRequests:
    """The 2026-07-28 request path of one server (see the module docstring).

    :param server: the server.
    :param dispatcher: runs the request once its envelope is read.
    """

    def __init__(self, server: ServerCore, dispatcher: Dispatcher) -> None:
        self.server = server
        self.dispatcher = dispatcher
        self._codec: RequestStateCodec | None = None
        self._codec_settings: tuple[t.Any, float] | None = None

    @property
    def codec(self) -> RequestStateCodec:
        """The ``requestState`` codec, rebuilt when its keys or TTL change.

        The keys are the configuration's; else those a transport shares between processes
        (``server.shared_request_state_keys``, on Redis); else this process's random key.
        """
        config = self.server.configuration
        keys = config.request_state_keys
        shared = self.server.shared_request_state_keys
        if keys is None and shared is not None:
            keys = tuple(shared())
        settings = (keys, config.request_state_ttl)
        codec = self._codec
        if codec is None or settings != self._codec_settings:
            # Loaded on first use, as is hashing in _binding: a server that never seals a state
            # (every 2025 one) does not import hmac and hashlib on its way to its first answer.
            from .request_state import RequestStateCodec

            codec = self._codec = RequestStateCodec(settings[0], settings[1])
            self._codec_settings = settings
        return codec

    def handle(self, incoming: Incoming, channel: Channel) -> dict[str, t.Any] | None:
        """The response to a modern request (None when it was cancelled).

        :param incoming: the request, as the transport read it (see :class:`~.request.Incoming`).
        :param channel: the connection it came on.
        """
        channel.serves_modern = True
        request_id = incoming.id
        method = incoming.method
        params = incoming.params
        try:
            fields = envelope_fields(params)
        except RequestHandlerError as error:
            return self._refused(channel, request_id, incoming.cancellation, error)
        if method in REMOVED_METHODS:
            return json_rpc.error(
                request_id, error_codes.METHOD_NOT_FOUND, f"Method not found: {method} is not part of protocol {fields[0]}"
            )
        retryable = method in INPUT_REQUIRED_METHODS
        if retryable and ("requestState" in params or "inputResponses" in params):
            return self._retry(incoming, channel, fields)
        # The common request: no state to open, no answers to collect (nothing was asked before).
        exchange = ModernExchange(self.server, channel, *fields)
        response = self.dispatcher.handle_request(incoming, exchange)
        if response is not None and method not in _HINTED_METHODS:
            result = response.get("result")
            if type(result) is dict:  # the common answer: no input request, no hints
                response["result"] = stamp(result, self.server.server_info())  # the dispatcher's own dict
                return response
        return self._answer(exchange, request_id, method, params, response, retryable, None)

    def _refused(
        self, channel: Channel, request_id: t.Any, cancellation: Cancellation | None, error: RequestHandlerError
    ) -> dict[str, t.Any]:
        """The error response to a request refused before it ran."""
        if json_rpc.is_valid_id(request_id) and cancellation is not None:
            channel.forget(request_id)
        return json_rpc.error(request_id, error.code, error.message, error.data)

    def _retry(self, incoming: Incoming, channel: Channel, envelope: EnvelopeFields) -> dict[str, t.Any] | None:
        """A request that may be a retry (MRTR): it carries ``requestState`` or ``inputResponses``."""
        method = incoming.method
        params: dict[str, t.Any] = incoming.params
        state: dict[str, t.Any] = {}
        # What a requestState is bound to: computed (a digest of the arguments) only when a
        # state is opened or sealed, and at most once.
        binding: dict[str, t.Any] | None = None
        sealed = params.get("requestState")
        if sealed is not None:
            binding = _binding(method, params, channel)
            try:
                state = self.codec.open(sealed, binding)
            except RequestHandlerError as error:
                return self._refused(channel, incoming.id, incoming.cancellation, error)
        # Without a state nothing was asked before: no answers to collect.
        answers, asked = _answers(state, params) if state else (None, None)
        exchange = ModernExchange(self.server, channel, *envelope, answers, asked)
        inputs = None
        responses = params.get("inputResponses")
        if type(responses) is dict or state:
            inputs = RoundTripInputs(responses if type(responses) is dict else None, state.get("user"))
        response = self.dispatcher.handle_request(incoming, exchange, inputs=inputs)
        return self._answer(exchange, incoming.id, method, params, response, True, binding)

    def _answer(
        self,
        exchange: ModernExchange,
        request_id: t.Any,
        method: str,
        params: t.Any,
        response: dict[str, t.Any] | None,
        retryable: bool,
        binding: dict[str, t.Any] | None,
    ) -> dict[str, t.Any] | None:
        """The modern response for the dispatcher's ``response``: an input request, or the result stamped."""
        if response is None:
            return None
        if "error" in response:
            if response["error"].get("code") == error_codes.URL_ELICITATION_REQUIRED and retryable:
                binding = binding or _binding(method, params, exchange.carrier)
                return self._url_elicitations(exchange, request_id, response, binding)
            return response
        result = response["result"]
        if type(result) is not dict and retryable and isinstance(result, (InputRequired, InputRequiredResult)):
            binding = binding or _binding(method, params, exchange.carrier)
            if isinstance(result, InputRequired):
                return self._input_required(exchange, request_id, {result.key: result.request}, None, binding)
            return self._input_required(exchange, request_id, result.input_requests, result.request_state, binding)
        stamped = stamp(result, self.server.server_info())
        if method in CACHEABLE_METHODS:
            _cache_hints(self.server, exchange, method, params, stamped)
        elif method == methods.SUBSCRIPTIONS_LISTEN:
            stamped["_meta"][SUBSCRIPTION_ID_KEY] = request_id
        response["result"] = stamped  # the dispatcher's own dict, never a handler's
        return response

    def _input_required(
        self,
        exchange: ModernExchange,
        request_id: t.Any,
        input_requests: dict[str, dict[str, t.Any]],
        user_state: str | None,
        binding: dict[str, t.Any],
    ) -> dict[str, t.Any]:
        missing: dict[str, t.Any] = {}
        for request in input_requests.values():
            try:
                capability = required_capability(request)
            except ValueError as error:  # the handler's mistake: reported, never sent
                self.server.report_exception(error, {"request": {"id": request_id}})
                return json_rpc.error(request_id, error_codes.INTERNAL_ERROR)
            if not exchange.client_supports(capability):
                _merge(missing, capability_object(capability))
        if missing:
            refusal = MissingClientCapabilityError(missing)
            return json_rpc.error(request_id, refusal.code, refusal.message, refusal.data)
        data: dict[str, t.Any] = {"answers": exchange.answers, "asked": exchange.asked}
        if user_state is not None:
            data["user"] = user_state
        result: dict[str, t.Any] = {"resultType": "input_required"}
        if input_requests:
            result["inputRequests"] = input_requests
        result["requestState"] = self.codec.seal(binding, data)
        return {"jsonrpc": "2.0", "id": request_id, "result": stamp(result, self.server.server_info(), "input_required")}

    def _url_elicitations(
        self, exchange: ModernExchange, request_id: t.Any, response: dict[str, t.Any], binding: dict[str, t.Any]
    ) -> dict[str, t.Any]:
        """-32042 does not exist in 2026-07-28: the URL elicitations become input requests."""
        data = response["error"].get("data")
        elicitations = data.get("elicitations") if isinstance(data, dict) else None
        requests = {
            f"url-{index}": url_elicitation(str(item.get("message", "")), str(item.get("url", "")))
            for index, item in enumerate(elicitations or [], 1)
            if isinstance(item, dict)
        }
        if not requests:
            return json_rpc.error(request_id, error_codes.INTERNAL_ERROR)
        return self._input_required(exchange, request_id, requests, None, binding)


def _binding(method: str, params: dict[str, t.Any], channel: Channel) -> dict[str, t.Any]:
    """What a ``requestState`` is bound to: the method, its target, its arguments, the principal."""
    if method == methods.RESOURCES_READ:
        target, arguments = params.get("uri"), None
    else:
        target, arguments = params.get("name"), params.get("arguments")
    from .request_state import arguments_digest

    try:
        digest = arguments_digest(arguments)
    except (TypeError, ValueError):
        digest = None
    auth = channel.auth
    # The same caller as session binding means: issuer, subject and client (a list: the payload is JSON).
    principal = list(auth.key) if auth is not None else None
    return {"m": method, "t": target if type(target) is str else None, "a": digest, "p": principal}


def _answers(state: dict[str, t.Any], params: t.Any) -> tuple[dict[str, t.Any], dict[str, str]]:
    """The answers to era-portable asks: the state's, plus this retry's ``inputResponses`` for the keys it asked."""
    answers = dict(state.get("answers") or {})
    asked = {key: value for key, value in (state.get("asked") or {}).items() if type(value) is str}
    responses = params.get("inputResponses") if type(params) is dict else None
    if type(responses) is dict:
        for key in asked:
            if key not in answers and key in responses:
                answers[key] = responses[key]
    return answers, asked


def _cache_hints(server: ServerCore, exchange: ModernExchange, method: str, params: t.Any, result: dict[str, t.Any]) -> None:
    ttl_ms: int | None = None
    scope: str | None = None
    if method == methods.RESOURCES_READ:
        uri = params.get("uri") if type(params) is dict else None
        resource = server.registry.resource(uri) if type(uri) is str else None
        if resource is not None:
            ttl_ms, scope = resource.ttl_ms, resource.cache_scope
        if ttl_ms is None:
            ttl_ms = server.ttl_ms if server.ttl_ms is not None else DEFAULT_READ_TTL_MS
        scope = scope or server.cache_scope or "private"
    else:
        ttl_ms = server.ttl_ms if server.ttl_ms is not None else DEFAULT_TTL_MS
        # Lists filtered per caller (authorization) are private to that caller.
        scope = server.cache_scope or ("private" if exchange.auth is not None else "public")
    result.setdefault("ttlMs", ttl_ms)
    result.setdefault("cacheScope", scope)


def _merge(target: dict[str, t.Any], source: dict[str, t.Any]) -> None:
    for key, value in source.items():
        if isinstance(value, dict) and isinstance(target.get(key), dict):
            _merge(target[key], value)
        else:
            target[key] = value


__all__ = ["DEFAULT_READ_TTL_MS", "DEFAULT_TTL_MS", "ModernRequests"]
