"""The seam between the client and the two eras of the protocol: :class:`Era`, and the :class:`Sender` it works with.

The 2025 versions open a session with ``initialize`` (the *legacy* era,
:class:`~mcp_sdk.client.era_2025.LegacyEra`); 2026-07-28 sends every request on
its own, with the client's version, capabilities and identity in ``_meta`` (the
*modern* era, :class:`~mcp_sdk.client.era_2026.ModernEra`). :meth:`Client.connect`
picks one (:mod:`mcp_sdk.client.negotiation`); from then on the client's
:class:`~mcp_sdk.client.request_sender.RequestSender` shapes, checks and recovers
every request through it, and the client's era-specific operations (``ping``,
logging, roots, ``listen``) ask it too.
"""

from __future__ import annotations

import typing as t

from .exceptions import ServerError
from .headers import ToolHeaders
from .mrtr import Answer, Send
from .transport import Message

if t.TYPE_CHECKING:
    from .listen import Subscription


class Sender(t.Protocol):
    """What an era asks of the client's :class:`~mcp_sdk.client.request_sender.RequestSender`."""

    #: The client's ``clientInfo`` (``name``, ``version``...).
    client_info: dict[str, t.Any]
    #: The least severe log level the server should send (None: no logging).
    log_level: str | None
    #: Whether the transport takes the 2026-07-28 HTTP headers (:attr:`Transport.carries_headers`).
    carries_headers: bool
    #: What ``tools/list`` said about each tool's ``x-mcp-header`` parameters (SEP-2243).
    tool_headers: ToolHeaders

    def capabilities(self) -> dict[str, t.Any]:
        """The capabilities the client declares: its handlers' and those given to ``connect``."""
        ...

    def next_id(self) -> int:
        """A JSON-RPC id no request of this client has used."""
        ...

    def request(
        self,
        method: str,
        params: dict[str, t.Any] | None,
        *,
        era: Era | None = None,
        meta: dict[str, t.Any] | None = None,
        cancellation: t.Any = None,
        timeout: float | None = None,
        request_id: int | None = None,
        raise_errors: bool = True,
    ) -> Message:
        """Send one request, shaped by ``era`` (default: the era in use); return the response."""
        ...


class Era:
    """One era of the protocol as the client speaks it. A subclass implements every method;
    here they raise :class:`NotImplementedError`.

    The first four shape one request and judge its answer (the
    :class:`~mcp_sdk.client.request_sender.RequestSender` calls them); the others are
    the client operations that differ between eras.
    """

    #: What :attr:`Client.era` reports: ``"modern"`` or ``"legacy"``.
    name: t.ClassVar[str] = ""

    def __init__(self, protocol_version: str | None = None) -> None:
        #: The protocol version in use (None until the server has said).
        self.protocol_version = protocol_version

    # -- one request -----------------------------------------------------------

    def prepare(
        self, sender: Sender, method: str, params: dict[str, t.Any] | None, meta: dict[str, t.Any] | None
    ) -> tuple[dict[str, t.Any] | None, dict[str, str] | None]:
        """The params to send for ``method`` (``meta`` merged into their ``_meta``), and the HTTP
        headers that go with them (None: none; a transport gets them only if it carries headers).
        """
        raise NotImplementedError

    def check_result(self, method: str, response: Message) -> None:
        """Check a response to ``method`` against the era's rules.

        :raises ValidationError: it breaks them (e.g. an unknown ``resultType``).
        """
        raise NotImplementedError

    def resends_lost(self, method: str) -> bool:
        """Whether a request lost with its connection (a :class:`~mcp_sdk.TransportError`)
        is sent again, once, under a new id."""
        raise NotImplementedError

    def resends_after(self, response: Message) -> bool:
        """Whether an error ``response`` is fixed by sending the request again, once; the era may
        adjust itself first (to a protocol version the server named)."""
        raise NotImplementedError

    # -- client operations -----------------------------------------------------

    def complete(self, send: Send, answer: Answer, method: str, params: dict[str, t.Any], max_rounds: int) -> Message:
        """Send a request that may need input from the client, and return its final response.

        :param send: sends the request with the given params (a new id each time).
        :param answer: the client's handlers, for what the server asks.
        :param max_rounds: most rounds of input the server may ask for.
        :raises InputRequiredError: input no handler gives, or too many rounds.
        """
        raise NotImplementedError

    def ping(self, sender: Sender, *, meta: dict[str, t.Any] | None, cancellation: t.Any,
             timeout: float | None) -> dict[str, t.Any]:
        """Check that the server answers; return ``{}``.

        :raises ServerError: the server answered with an error.
        """
        raise NotImplementedError

    def set_logging_level(self, sender: Sender, level: str | None, timeout: float | None) -> dict[str, t.Any]:
        """Make ``level`` the sender's log level and tell the server as the era does; return the server's result.

        :raises ValueError: a level the era refuses before asking the server.
        :raises ServerError: the server refused it.
        """
        raise NotImplementedError

    def carry_log_level(self, sender: Sender, level: str | None, timeout: float | None) -> None:
        """Deliver :attr:`Client.log_level` as the era does (by default :meth:`set_logging_level`).

        :raises ServerError: the server refused it.
        """
        self.set_logging_level(sender, level, timeout)

    def notify_roots_list_changed(self, notify: t.Callable[[str], None]) -> None:
        """Tell the server the client's roots changed, through ``notify(method)``, if the era has a way to."""
        raise NotImplementedError

    def usable_tools(self, sender: Sender, entries: list[t.Any]) -> list[t.Any]:
        """The entries of a ``tools/list`` page the client can call (all, unless the era says otherwise)."""
        raise NotImplementedError

    def relist_fixes(self, error: ServerError) -> bool:
        """Whether a ``tools/call`` refused with ``error`` may succeed once the tools are listed again."""
        raise NotImplementedError

    def open_subscription(
        self,
        sender: Sender,
        notifications: dict[str, t.Any],
        callback: t.Callable[[str, dict[str, t.Any]], t.Any] | None,
        listen_timeout: float,
    ) -> Subscription:
        """A :class:`~mcp_sdk.client.listen.Subscription` (not started) for ``notifications``.

        :raises ValidationError: the era has no ``subscriptions/listen``.
        """
        raise NotImplementedError

    def __repr__(self) -> str:
        return f"<{type(self).__name__} {self.protocol_version!r}>"


__all__ = ["Era", "Sender"]
