"""What the server's collaborators read of it: the declared core of :class:`~mcp_sdk.Server`.

The collaborators (:mod:`.dispatch`, :mod:`.handlers`, :mod:`.requests_2026`,
:mod:`.capabilities`, :mod:`.tasks`, :mod:`.proxy`, the middleware chain) and the channels a
request runs on (:class:`~mcp_sdk.server.channel.Channel` and its kinds, :class:`~mcp_sdk.ServerSession`
first) are objects the server holds or makes. They are typed against :class:`ServerCore`, never
against :class:`~mcp_sdk.Server` itself, so no module of the server's imports the module that
composes them.

The objects that need only one or two of the server's parts get those parts instead (the
:mod:`.notifications` and :mod:`.composition` objects are given the registry and the broadcast).
"""

from __future__ import annotations

import typing as t

if t.TYPE_CHECKING:
    from ..cancellation import Cancellation
    from ..configuration import Configuration
    from .session import ServerSession
    from .handler_contexts import HandlerContext
    from .lifespan import Lifespan
    from .notifications import Broadcast
    from .registry import Registry
    from .subscriptions import SubscriptionBus


class ServerCore(t.Protocol):
    """The configuration, registries, identity, notifications and error reporting of one server,
    and the entry its sessions hand messages to."""

    #: The server's configuration (its latest protocol version, the request timeout...).
    configuration: Configuration
    #: The ``server_context`` given to the server, handed to handlers.
    server_context: t.Any
    #: The server's lifespan (``Server(lifespan=fn)``), whose value handlers read.
    lifespan: Lifespan
    #: What the server serves.
    registry: Registry
    #: Carries list changes and resource updates to ``subscriptions/listen`` requests.
    subscriptions: SubscriptionBus
    #: Tells every client of list changes, resource updates and log messages.
    broadcast: Broadcast
    #: ``instructions`` of ``initialize`` and ``server/discover``.
    instructions: str | None
    #: Items per page of list results (None: one page).
    page_size: int | None
    #: The ``ttlMs`` cache hint of 2026-07-28 results (None: the default).
    ttl_ms: int | None
    #: The ``cacheScope`` of 2026-07-28 results (None: by kind and caller).
    cache_scope: str | None
    #: The ``requestState`` keys every process of the server shares, when the configuration sets
    #: none: a callable returning them, the first signing (a transport on Redis sets it).
    shared_request_state_keys: t.Callable[[], t.Sequence[bytes]] | None

    @property
    def handler_contexts(self) -> t.Sequence[HandlerContext]:
        """Entered around every handler (see :mod:`.handler_contexts`)."""

    def server_info(self) -> dict[str, t.Any]:
        """``serverInfo`` in the latest protocol's shape."""

    def capabilities_for(self, version: str) -> dict[str, t.Any]:
        """The server's capabilities as protocol ``version`` defines them."""

    def report_exception(self, error: BaseException, context: dict[str, t.Any]) -> None:
        """Give an error no response can carry to the configured reporter."""

    def notify_resources_updated(self, uri: str) -> None:
        """Tell the 2026-07-28 listeners subscribed to ``uri`` that it changed."""

    def handle_message(
        self,
        message: t.Any,
        session: ServerSession,
        cancellation: Cancellation | None = None,
        *,
        modern: bool | None = None,
        http_request: t.Any = None,
    ) -> t.Any:
        """Answer one decoded message (or batch) read on ``session``."""

    def session_closed(self, session: ServerSession) -> None:
        """Forget a session that closed (it gets no more broadcasts)."""


__all__ = ["ServerCore"]
