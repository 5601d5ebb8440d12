"""What the server's collaborators read of it: the declared core of :class:`~mcp_sdk.Server`.

The collaborators (:mod:`.dispatch`, :mod:`.handlers`, :mod:`.requests_2026`,
:mod:`.capabilities`) are objects the server holds. They are typed against
:class:`ServerCore`, never against :class:`~mcp_sdk.Server` itself, so no module
of the server's imports the module that composes them.
"""

from __future__ import annotations

import typing as t

from ..channel import ChannelHost

if t.TYPE_CHECKING:
    from .handler_contexts import HandlerContext
    from .registry import Registry
    from .subscriptions import SubscriptionBus


class ServerCore(ChannelHost, t.Protocol):
    """The configuration, registries, identity and error reporting of one server."""

    #: What the server serves.
    registry: Registry
    #: Carries list changes and resource updates to ``subscriptions/listen`` requests.
    subscriptions: SubscriptionBus
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


__all__ = ["ServerCore"]
