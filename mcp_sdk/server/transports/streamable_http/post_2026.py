"""The 2026-07-28 side of the Streamable HTTP endpoint: one POST, one request, one answer.

https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/streamable-http

A POST carrying the ``_meta`` envelope (or, outside stateless mode, one with no
session that does not open one) is served statelessly: checked for its envelope
(-32602), its headers (-32020, :mod:`.wire.request_headers`) and its version (-32022),
then run on a :class:`RequestChannel` of its own. Errors keep the HTTP status the
specification gives them (400, 404): an answer becomes an SSE stream only once the
handler writes something before it. ``Mcp-Session-Id`` and ``Last-Event-ID`` are
ignored; GET and DELETE without a session get 405.
"""

from __future__ import annotations

import typing as t

from .... import error_codes, json_rpc, methods
from .... import protocol_version as versions
from ....errors import InvalidParamsError, RequestHandlerError
from ...envelope import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY, carries_envelope, required_meta
from .wire import request_headers
from .answer_choice import is_initialize, may_send_first
from .wire.carrying_request import CarryingRequest
from .wire.client_address import client_address
from .wire.http_io import SESSION_HEADER, SESSION_KEY, VERSION_KEY, Answer, HTTPRequestError, empty_answer, json_answer
from .wire.outage import unavailable_answer
from .sessions.request_channel import RequestChannel
from .streams.sse import SSEBody
from .streams.sse_answers import SSEAnswers

if t.TYPE_CHECKING:
    from ....server import Server
    from ...auth import Principal

WSGIEnvironment = t.Dict[str, t.Any]


class ModernPost:
    """Serves the 2026-07-28 POSTs of a :class:`~mcp_sdk.server.transports.StreamableHTTPTransport`.

    :param server: runs the requests.
    :param answers: the transport's SSE answers (connection places, the pool, stateless streams).
    :param stateless: the transport's ``stateless`` mode: there every POST without the
        envelope is a 2025 one.
    :param enable_json_response: answer with ``application/json`` whatever the handler.
    """

    def __init__(self, server: Server, answers: SSEAnswers, *, stateless: bool, enable_json_response: bool) -> None:
        self.server = server
        self.stateless = stateless
        self.enable_json_response = enable_json_response
        self._answers = answers

    def is_modern(self, environ: WSGIEnvironment, message: t.Any) -> bool:
        """Whether a POST is a 2026-07-28 request: it carries the ``_meta`` envelope, or, outside
        stateless mode, it has no session and does not open one (nor names a 2025 version)."""
        if carries_envelope(message):
            return True
        if self.stateless or environ.get(SESSION_KEY):  # a session's request (the usual one): asked first
            return False
        if type(message) is not dict or "method" not in message or is_initialize(message):
            return False
        header = environ.get(VERSION_KEY)
        return header is None or not versions.is_supported(header)

    def answer(self, environ: WSGIEnvironment, message: t.Any, principal: Principal | None) -> Answer:
        """A 2026-07-28 POST: one request, one answer; no session, no resumption (Mcp-Session-Id
        and Last-Event-ID are ignored)."""
        if type(message) is not dict:
            raise HTTPRequestError(400, "Invalid Request: protocol 2026-07-28 has no batches")
        if "method" not in message:
            raise HTTPRequestError(400, "Invalid Request: protocol 2026-07-28 clients send no responses")
        server_session = request_channel(self.server, principal)
        carrier = CarryingRequest(environ)
        if "id" not in message:  # no notification means anything over HTTP in 2026-07-28; a custom one still runs
            self.server.handle_message(message, server_session, modern=True, http_request=carrier)
            return empty_answer(202)
        request_id = message["id"]
        try:
            _require_envelope(message.get("params"))
            request_headers.check(environ, message, self.server.tools)
        except RequestHandlerError as refusal:
            status = error_codes.MODERN_HTTP_STATUS.get(refusal.code, 400)
            return json_answer(json_rpc.encode(json_rpc.error(request_id, refusal.code, refusal.message, refusal.data)), status)
        if not json_rpc.is_valid_id(request_id):
            return self._answer_json(server_session, message, carrier)
        # subscriptions/listen is a stream by nature: SSE even in JSON response mode, where a
        # JSON answer would hold the request open with its notifications dropped.
        if message.get("method") != methods.SUBSCRIPTIONS_LISTEN and (
            self.enable_json_response or not may_send_first(self.server, message)
        ):
            return self._answer_json(server_session, message, carrier)
        if message.get("method") == methods.SUBSCRIPTIONS_LISTEN:
            owner = principal.key if principal is not None else client_address(environ)  # a tuple, or a str: never equal
            self._answers.admit_listen(environ, server_session, owner, request_id)
        else:
            self._answers.hold(environ, None, request_id)
        return self._answer_sse(server_session, message, carrier)

    def _answer_json(self, server_session: RequestChannel, message: dict[str, t.Any], carrier: CarryingRequest) -> Answer:
        response = self.server.handle_message(message, server_session, modern=True, http_request=carrier)
        text = server_session.encode(response)
        if text is None:
            return empty_answer(202)
        return _json(response, text)

    def _answer_sse(self, server_session: RequestChannel, message: dict[str, t.Any], carrier: CarryingRequest) -> Answer:
        """SSE once the handler talks first; an answer with nothing before it goes out as JSON
        with its status (a -32021 is a 400 even from a tool that could have streamed)."""
        answers = self._answers
        stream, consumer = answers.open_stateless(server_session, [message["id"]])
        stream.listen = message.get("method") == methods.SUBSCRIPTIONS_LISTEN
        outcome: list[t.Any] = []

        def finish(response: t.Any, text: str | None) -> None:
            outcome.append(response)
            stream.finish(response, text)

        answer = answers.answer(
            server_session, message, stream, consumer, [], finish, answers.stateless_ended,
            modern=True, first_event_wait=answers.keepalive_interval, http_request=carrier,
        )
        response = outcome[0] if outcome else None
        body = answer.body
        if isinstance(body, SSEBody) and body.complete and server_session.messages_sent == 0 and (
            isinstance(response, dict) and "error" in response
        ):
            body.close()
            return _json(response, json_rpc.encode(response))
        return answer


def request_channel(server: Server, principal: Principal | None) -> RequestChannel:
    """The connection of one stateless request (2026-07-28, or ``stateless=True``), which cannot
    send the client requests: their answers would arrive in another POST."""
    channel = RequestChannel(server)
    channel.auth = principal
    channel.can_send_requests = False  # the answer would arrive in another POST, on another session
    channel.no_requests_reason = "stateless mode"
    return channel


def no_session_means_modern(environ: WSGIEnvironment, method: str) -> None:
    """GET and DELETE exist only for 2025 sessions: without one, 405 (2026-07-28 has neither)."""
    if not environ.get(SESSION_KEY):
        raise HTTPRequestError(
            405,
            f"Method Not Allowed: {method} needs an {SESSION_HEADER} (protocol 2026-07-28 uses POST only)",
            headers={"Allow": "POST"},
        )


def _require_envelope(params: t.Any) -> None:
    """-32602 (HTTP 400) when a modern request lacks its envelope: checked before the headers."""
    meta = params.get("_meta") if type(params) is dict else None
    if type(meta) is not dict or not (PROTOCOL_VERSION_KEY in meta or CLIENT_CAPABILITIES_KEY in meta):
        # Neither era: a 2025 client that lost its session reads this too.
        raise InvalidParamsError(
            f"Invalid params: no {SESSION_HEADER} header (send initialize first, MCP 2025) and no "
            f"params._meta carrying {PROTOCOL_VERSION_KEY!r} and {CLIENT_CAPABILITIES_KEY!r} (MCP 2026-07-28)"
        )
    required_meta(params)


def _json(response: t.Any, text: str) -> Answer:
    """A 2026-07-28 answer as JSON: 503 with ``Retry-After`` for a request a full store refused
    (:mod:`.wire.outage`), else the status of :func:`_modern_status`."""
    return unavailable_answer(response, text) or json_answer(text, _modern_status(response))


def _modern_status(response: t.Any) -> int:
    """The HTTP status of a 2026-07-28 answer: 400 or 404 for the protocol's errors, else 200."""
    if type(response) is dict and type(response.get("error")) is dict:
        return error_codes.MODERN_HTTP_STATUS.get(response["error"].get("code"), 200)
    return 200


__all__ = ["ModernPost", "no_session_means_modern", "request_channel"]
