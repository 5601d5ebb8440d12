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
from ....errors import InvalidParamsError, RequestHandlerError
from ...envelope import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY, required_meta
from .sessions.request_channel import RequestChannel
from .wire import request_headers
from .wire.client_address import client_address
from .wire.http_io import SESSION_HEADER, SESSION_KEY, Answer, HTTPRequestError, empty_answer, json_answer, response_answer
from .streams.sse import SSEBody
from .streams.sse_answers import SSEAnswers

if t.TYPE_CHECKING:
    from ....server import Server
    from ...auth import Principal
    from ...request import Incoming

WSGIEnvironment = t.Dict[str, t.Any]


class ModernPost:
    """Serves the 2026-07-28 POSTs of a :class:`~mcp_sdk.server.transports.StreamableHTTPTransport`.

    :param server: runs the requests.
    :param answers: the transport's SSE answers (connection places, the pool, stateless streams).
    :param enable_json_response: answer with ``application/json`` whatever the handler.
    """

    def __init__(self, server: Server, answers: SSEAnswers, *, enable_json_response: bool) -> None:
        self.server = server
        self.enable_json_response = enable_json_response
        self._answers = answers

    def answer(self, environ: WSGIEnvironment, incoming: Incoming) -> Answer:
        """A 2026-07-28 POST: one request, one answer; no session, no resumption (Mcp-Session-Id
        and Last-Event-ID are ignored).

        :param environ: the POST's WSGI environ.
        :param incoming: its message, read by the transport and found 2026-07-28.
        """
        message = incoming.message
        if type(message) is not dict:
            raise HTTPRequestError(400, "Invalid Request: protocol 2026-07-28 has no batches")
        if "method" not in message:
            raise HTTPRequestError(400, "Invalid Request: protocol 2026-07-28 clients send no responses")
        principal = incoming.principal
        server_session = request_channel(self.server, principal)
        if "id" not in message:  # no notification means anything over HTTP in 2026-07-28; a custom one still runs
            self.server.receive(incoming, server_session)
            return empty_answer(202)
        request_id = incoming.id
        try:
            _require_envelope(incoming.params)
            request_headers.check(environ, message, self.server.tools)
        except RequestHandlerError as refusal:
            status = error_codes.MODERN_HTTP_STATUS.get(refusal.code, 400)
            return json_answer(json_rpc.encode(json_rpc.error(request_id, refusal.code, refusal.message, refusal.data)), status)
        if not json_rpc.is_valid_id(request_id):
            return self._answer_json(server_session, incoming)
        listen = incoming.method == methods.SUBSCRIPTIONS_LISTEN
        # subscriptions/listen is a stream by nature: SSE even in JSON response mode, where a
        # JSON answer would hold the request open with its notifications dropped.
        if not listen and (self.enable_json_response or not self.server.route(incoming).talks_first):
            return self._answer_json(server_session, incoming)
        if listen:
            owner = principal.key if principal is not None else client_address(environ)  # a tuple, or a str: never equal
            self._answers.admit_listen(environ, server_session, owner, request_id)
        else:
            self._answers.hold(environ, None, request_id)
        return self._answer_sse(server_session, incoming)

    def _answer_json(self, server_session: RequestChannel, incoming: Incoming) -> Answer:
        response = self.server.receive(incoming, server_session)
        text = server_session.encode(response)
        if text is None:
            return empty_answer(202)
        return _json(response, text)

    def _answer_sse(self, server_session: RequestChannel, incoming: Incoming) -> Answer:
        """SSE once the handler talks first; an answer with nothing before it goes out as JSON
        with its status (a -32021 is a 400 even from a tool that could have streamed)."""
        answers = self._answers
        stream, consumer = answers.open_stateless(server_session, [incoming.id])
        stream.listen = incoming.method == methods.SUBSCRIPTIONS_LISTEN
        outcome: list[t.Any] = []

        def finish(response: t.Any, text: str | None) -> None:
            outcome.append(response)
            stream.finish(response, text)

        answer = answers.answer(
            server_session, incoming, stream, consumer, [], finish, answers.stateless_ended,
            first_event_wait=answers.keepalive_interval,
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
    return response_answer(response, text, _modern_status(response))


def _modern_status(response: t.Any) -> int:
    """The HTTP status of a 2026-07-28 answer: 400 or 404 for the protocol's errors, else 200."""
    if type(response) is dict and type(response.get("error")) is dict:
        return error_codes.MODERN_HTTP_STATUS.get(response["error"].get("code"), 200)
    return 200


__all__ = ["ModernPost", "no_session_means_modern", "request_channel"]
