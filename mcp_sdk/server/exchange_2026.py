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
from .channel import Channel, ClientRequest
from ..errors import InvalidParamsError, MissingClientCapabilityError, TransportError
from .envelope import Envelope
from .input_required import InputRequired

if t.TYPE_CHECKING:
    from .core import ServerCore

#: Key prefixes of era-portable input requests, by method.
INPUT_KEY_PREFIXES = {
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


class ModernExchange(Channel):
    """The channel of one 2026-07-28 request: its state read from the request's envelope,
    its traffic carried by the connection it came on.

    :param server: the server.
    :param carrier: the connection the request arrived on; it tracks the request
        for cancellation and carries what the handler writes.
    :param protocol_version: the request's version, read from its ``_meta`` envelope (see
        :meth:`.envelope.Envelope.read`), as are the three that follow.
    :param client_capabilities: the capabilities the client declared for this request.
    :param client_info: ``clientInfo``, when sent.
    :param log_level: the lowest level of ``notifications/message`` the client wants (None: none).
    :param answers: input responses already given for era-portable asks (key -> result); the
        exchange keeps the dict and adds to it.
    :param asked: key -> digest of each ask the answers belong to; kept and added to as well.
    """

    returns_input_requests = True
    initialized = True
    can_send_requests = True  # as input requests
    serves_modern = True

    #: How many asks this request made so far (the key of the next is one more).
    _asks = 0

    def __init__(
        self,
        server: ServerCore,
        carrier: Channel,
        protocol_version: str,
        client_capabilities: dict[str, t.Any],
        client_info: dict[str, t.Any] | None = None,
        log_level: str | None = None,
        answers: dict[str, t.Any] | None = None,
        asked: dict[str, str] | None = None,
    ) -> None:
        # One of these is built for every 2026-07-28 request, so it stays light: nothing is
        # tracked here (the carrier tracks the request), the flags every exchange has are class
        # attributes (above), the envelope's fields come as arguments (no Envelope is built),
        # and the rest is stored directly rather than through keywords.
        super().__init__(server, client_capabilities=client_capabilities)
        self.protocol_version = protocol_version
        self.client_info = client_info
        self.log_level = log_level
        self.auth = carrier.auth
        self.carrier = carrier
        self.graceful_end = carrier.graceful_end  # the carrier is this request's alone where it has one
        #: Answers to era-portable asks, from the retry's state and ``inputResponses`` (the
        #: exchange's own: it adds to them).
        self.answers: dict[str, t.Any] = answers if answers is not None else {}
        #: key -> digest of every ask made so far (earlier rounds and this one).
        self.asked: dict[str, str] = asked if asked is not None else {}

    @property
    def envelope(self) -> Envelope:
        """The request's ``_meta`` envelope, as this exchange holds it."""
        return Envelope(self.protocol_version or "", self.client_capabilities, self.client_info, self.log_level)

    # -- the carrier ---------------------------------------------------------

    def write(self, message: dict[str, t.Any], related_request_id: t.Any = None) -> None:
        self.carrier.write(message, related_request_id)

    def begin(self, request_id: t.Any, cancellation: Cancellation) -> bool:
        return self.carrier.begin(request_id, cancellation)

    def end(self, request_id: t.Any) -> None:
        self.carrier.end(request_id)

    def cancel_request(self, request_id: t.Any, reason: str | None = None) -> bool:
        return self.carrier.cancel_request(request_id, reason)

    def accept(self, request_id: t.Any) -> Cancellation | None:
        return self.carrier.accept(request_id)

    def forget(self, request_id: t.Any) -> None:
        self.carrier.forget(request_id)

    @property
    def in_flight_count(self) -> int:
        return self.carrier.in_flight_count

    def close(self, reason: str = "Connection closed") -> None:
        """Nothing to end: the request's carrier belongs to the transport."""

    # -- capabilities --------------------------------------------------------

    def require_capability(self, capability: str, method: str) -> None:
        """Raise :class:`MissingClientCapabilityError` (-32021) unless this request declared ``capability``."""
        if not self.client_supports(capability):
            raise MissingClientCapabilityError(
                capability_object(capability),
                f"Missing required client capability: {capability} (needed for {method})",
            )

    # -- server-to-client requests become input requests ---------------------

    def ask(self, request: ClientRequest) -> t.Any:
        """The client's answer to this ask if the retry carries it; else end the handler with an
        input request (:class:`InputRequired`).

        :raises TransportError: the method cannot be an input request (``ping``).
        :raises InvalidParamsError: the client's answer is not an object.
        """
        method, params = request.method, request.params
        prefix = INPUT_KEY_PREFIXES.get(method)
        if prefix is None:
            raise TransportError(f"Cannot send {method}: protocol 2026-07-28 has no server-to-client {method}")
        self._asks += 1
        key = f"{prefix}-{self._asks}"
        asking: dict[str, t.Any] = {"method": method}
        if params is not None:
            asking["params"] = params
        from .request_state import arguments_digest  # on first use: see ModernRequests.codec

        digest = arguments_digest(asking)
        if key in self.answers and self.asked.get(key) == digest:
            answer = self.answers[key]
            if type(answer) is not dict:
                raise InvalidParamsError(f"Invalid params: inputResponses[{key!r}] must be an object")
            return answer
        # A different ask under this key (the handler's code changed course): its old answer is void.
        self.answers.pop(key, None)
        self.asked[key] = digest
        raise InputRequired(key, asking)

    def ping(
        self, timeout: float | None = None, *, related_request_id: t.Any = None, cancellation: Cancellation | None = None
    ) -> dict[str, t.Any]:
        raise TransportError("Cannot ping: protocol 2026-07-28 has no ping")

    def __repr__(self) -> str:
        return f"<ModernExchange version={self.protocol_version!r}>"


__all__ = ["INPUT_KEY_PREFIXES", "ModernExchange", "capability_object"]
