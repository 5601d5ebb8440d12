"""Assembles the Redis-backed parts of the transport: ``StreamableHTTPTransport(server, redis_url=...)``."""

from __future__ import annotations

import typing as t

from ....redis_task_store import RedisTaskStore
from ..streams.event_store import DEFAULT_MAX_AGE, EventStore
from ....._redis import connect
from .redis_backplane import RedisBackplane
from .redis_bus import RedisSubscriptionBus
from .redis_event_store import RedisEventStore
from .redis_request_state import RedisRequestStateKeys
from .redis_sessions import RedisSessionRegistry

if t.TYPE_CHECKING:
    from .....server import Server
    from ..options import Limits, Storage


class SharedState(t.NamedTuple):
    """What the transport uses instead of its in-process defaults."""

    backplane: RedisBackplane
    #: None in stateless mode (no sessions).
    registry: RedisSessionRegistry | None
    event_store: t.Callable[[str], EventStore]
    bus: RedisSubscriptionBus
    #: The ``requestState`` keys every process shares (unless the configuration sets its own).
    request_state_keys: RedisRequestStateKeys


def share_on_redis(
    server: Server,
    *,
    redis_url: str | None,
    client: t.Any,
    prefix: str,
    event_store: t.Callable[[str], EventStore] | None,
    stateless: bool,
    can_send_requests: bool,
    idle_timeout: float | None,
    max_sessions: int | None,
    unused_timeout: float | None,
) -> SharedState:
    """Connect to Redis (``client``, else ``redis_url``) and build the shared registry, event store and
    bus; the server's tasks move to Redis too (unless it was given a task store of its own), and
    so do its ``requestState`` keys (unless its configuration sets them).

    :raises MissingExtraError: redis-py is not installed.
    :raises ValueError: both or neither of ``redis_url`` and ``client``.
    """
    if (redis_url is None) == (client is None):
        raise ValueError("pass redis_url or redis, not both")
    if client is not None:
        backplane = RedisBackplane(client, prefix)
    else:
        backplane = RedisBackplane(connect(t.cast(str, redis_url)), prefix, owns_client=True)
    ttl = idle_timeout if idle_timeout is not None else DEFAULT_MAX_AGE

    def redis_events(session_id: str) -> EventStore:
        return RedisEventStore(backplane, backplane.key("s", session_id), ttl=ttl)

    store = event_store or redis_events
    registry = None
    if not stateless:
        registry = RedisSessionRegistry(
            backplane, server, store, can_send_requests, idle_timeout, max_sessions, unused_timeout
        )
    bus = RedisSubscriptionBus(backplane)
    server.subscriptions = bus
    if not server.tasks.store_given:  # the default in-memory store: tasks are shared too
        server.tasks.store = RedisTaskStore(backplane.redis, prefix=backplane.key(""))
    state_keys = RedisRequestStateKeys(backplane)
    server.shared_request_state_keys = state_keys
    return SharedState(backplane, registry, store, bus, state_keys)


def shared_storage(server: Server, storage: Storage, limits: Limits, *, stateless: bool, can_send_requests: bool) -> SharedState | None:
    """:func:`share_on_redis` with a transport's option groups, when ``storage`` names a Redis
    (:attr:`mcp_sdk.server.transports.streamable_http.options.Storage.shared`); None when the sessions stay in this process.

    :param server: the server served.
    :param storage: where sessions and events live.
    :param limits: the session timeouts and cap.
    :param stateless: the transport keeps no sessions.
    :param can_send_requests: the sessions may send server-to-client requests (JSON response mode off).
    """
    if not storage.shared:
        return None
    return share_on_redis(
        server,
        redis_url=storage.redis_url,
        client=storage.redis,
        prefix=storage.redis_prefix,
        event_store=storage.event_store,
        stateless=stateless,
        can_send_requests=can_send_requests,
        idle_timeout=limits.session_idle_timeout,
        max_sessions=limits.max_sessions,
        unused_timeout=limits.unused_session_timeout,
    )


__all__ = ["SharedState", "share_on_redis", "shared_storage"]
