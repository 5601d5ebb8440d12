"""What a 2026-07-28 request runs in: the stand-in for a session, built from its envelope.

A handler sees ``request.session`` (and ``server_context.session``) with the same
interface in both eras. For a modern request it is a :class:`ModernExchange`:
its version, client capabilities, client info and log level come from the
request's ``_meta``; what it writes goes to the channel the request came on (the
stdio connection, or the POST's own response stream); and a server-to-client
request becomes an MRTR input request (see :mod:`.input_required`).
"""

from __future__ import annotations

import typing as t

from .. import methods
from ..cancellation import Cancellation
from ..errors import InvalidParamsError, MissingClientCapabilityError, TransportError
from ..server_session import ServerSession
from .envelope import Envelope
from .input_required import InputRequired
from .request_state import arguments_digest

if t.TYPE_CHECKING:
    from . import Server

#: Key prefixes of era-portable input requests, by method.
_KEY_PREFIXES = {
    methods.ELICITATION_CREATE: "elicitation",
    methods.SAMPLING_CREATE_MESSAGE: "sampling",
    methods.ROOTS_LIST: "roots",
}


def capability_object(capability: str) -> dict[str, t.Any]:
    """A dotted capability as a ``ClientCapabilities`` object: ``"elicitation.url"`` -> ``{"elicitation": {"url": {}}}``."""
    node: dict[str, t.Any] = {}
    for part in reversed(capability.split(".")):
        node = {part: node}
    return node


class ModernExchange(ServerSession):
    """The session-shaped view of one 2026-07-28 request.

    :param server: the server.
    :param channel: the connection the request arrived on; it tracks the request
        for cancellation and carries what the handler writes.
    :param envelope: the request's ``_meta`` envelope.
    :param answers: input responses already given for era-portable asks (key -> result).
    :param asked: key -> digest of each ask the answers belong to.
    """

    def __init__(
        self,
        server: Server,
        channel: ServerSession,
        envelope: Envelope,
        answers: dict[str, t.Any] | None = None,
        asked: dict[str, str] | None = None,
    ) -> None:
        # Not ServerSession.__init__: nothing here is tracked (the channel tracks the request),
        # so no lock, no pending tables: one of these is built for every 2026-07-28 request.
        self.server = server
        self.session_id = None
        self.no_requests_reason = ""
        self.stream_closer = None
        self._send = None
        self._closed = False
        self.serves_modern = True
        self.channel = channel
        self.envelope = envelope
        self.protocol_version = envelope.protocol_version
        self.client_info = envelope.client_info
        self.client_capabilities = envelope.client_capabilities
        self.log_level = envelope.log_level
        self.initialized = True
        self.can_send_requests = True  # as input requests
        self.auth = getattr(channel, "auth", None)
        #: Answers to era-portable asks, from the retry's state and ``inputResponses``.
        self.answers: dict[str, t.Any] = dict(answers or {})
        #: key -> digest of every ask made so far (earlier rounds and this one).
        self.asked: dict[str, str] = dict(asked or {})
        self._asks = 0

    # -- the channel ---------------------------------------------------------

    def write(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        self.channel.write(message, related_request_id)

    def _begin(self, request_id: t.Any, cancellation: Cancellation) -> bool:
        return self.channel._begin(request_id, cancellation)

    def _end(self, request_id: t.Any) -> None:
        self.channel._end(request_id)

    def cancel_request(self, request_id: t.Any, reason: str | None = None) -> bool:
        return self.channel.cancel_request(request_id, reason)

    def accept(self, request_id: t.Any) -> Cancellation | None:
        return self.channel.accept(request_id)

    def forget(self, request_id: t.Any) -> None:
        self.channel.forget(request_id)

    @property
    def in_flight_count(self) -> int:
        return self.channel.in_flight_count

    def close(self, reason: str = "Connection closed") -> None:
        """Nothing to end: the request's channel belongs to the transport."""

    # -- capabilities --------------------------------------------------------

    def require_capability(self, capability: str, method: str) -> None:
        """Raise :class:`MissingClientCapabilityError` (-32021) unless this request declared ``capability``."""
        if not self.client_supports(capability):
            raise MissingClientCapabilityError(
                capability_object(capability),
                f"Missing required client capability: {capability} (needed for {method})",
            )

    # -- server-to-client requests become input requests ---------------------

    def send_request(
        self,
        method: str,
        params: t.Any = None,
        *,
        related_request_id: t.Any = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> t.Any:
        """The client's answer to this ask if the retry carries it; else end the handler with an
        input request (:class:`InputRequired`).

        :raises TransportError: ``method`` cannot be an input request (``ping``).
        :raises InvalidParamsError: the client's answer is not an object.
        """
        prefix = _KEY_PREFIXES.get(method)
        if prefix is None:
            raise TransportError(f"Cannot send {method}: protocol 2026-07-28 has no server-to-client {method}")
        self._asks += 1
        key = f"{prefix}-{self._asks}"
        request: dict[str, t.Any] = {"method": method}
        if params is not None:
            request["params"] = params
        digest = arguments_digest(request)
        if key in self.answers and self.asked.get(key) == digest:
            answer = self.answers[key]
            if type(answer) is not dict:
                raise InvalidParamsError(f"Invalid params: inputResponses[{key!r}] must be an object")
            return answer
        # A different ask under this key (the handler's code changed course): its old answer is void.
        self.answers.pop(key, None)
        self.asked[key] = digest
        raise InputRequired(key, request)

    def ping(
        self, timeout: float | None = None, *, related_request_id: t.Any = None, cancellation: Cancellation | None = None
    ) -> dict[str, t.Any]:
        raise TransportError("Cannot ping: protocol 2026-07-28 has no ping")

    def close_sse_stream(self, request_id: t.Any) -> bool:
        return False  # 2026-07-28 streams are not resumable

    def __repr__(self) -> str:
        return f"<ModernExchange version={self.protocol_version!r}>"


__all__ = ["ModernExchange", "capability_object"]
