"""A :class:`~mcp_sdk.server.subscriptions.SubscriptionBus` on Redis pub/sub.

``notify_*_list_changed()`` or ``notify_resources_updated()`` on any worker
reaches the ``subscriptions/listen`` requests of every worker (and, through
:class:`~.redis_sessions.RedisSessionRegistry`, the GET streams of 2025 sessions).
"""

from __future__ import annotations

import typing as t

from ....subscriptions import CLOSED, Deliver, InProcessBus
from .redis_backplane import RedisBackplane


class RedisSubscriptionBus:
    """Publishes changes to every worker; delivers those of every worker to this one's listeners.

    :param backplane: the link to Redis and the other workers.
    """

    def __init__(self, backplane: RedisBackplane) -> None:
        self.backplane = backplane
        self._local = InProcessBus()
        backplane.on("bus", self._received)

    def publish(self, kind: str, uri: str | None = None) -> None:
        """Announce a change to every worker (this one hears it back from Redis).

        :param kind: what changed: ``"tools"``, ``"prompts"``, ``"resources"`` (a list), ``"resource"``, ``"task"``.
        :param uri: the resource's URI for ``"resource"``, the task's id for ``"task"``.
        """
        self.backplane.start()
        self.backplane.broadcast({"k": "bus", "e": [kind, uri]})

    def subscribe(self, deliver: Deliver) -> t.Callable[[], None]:
        """Call ``deliver(event)`` for each change announced by any worker from now on.

        Starts the backplane's listener if it is not running yet.

        :param deliver: called with each change event, on the backplane's listener thread.
        :returns: the function that stops the delivery.
        """
        self.backplane.start()
        return self._local.subscribe(deliver)

    def close(self) -> None:
        """End this worker's listen requests (the others keep theirs)."""
        self._local.close()

    def _received(self, message: dict[str, t.Any]) -> None:
        event = message.get("e")
        if type(event) is not list or len(event) != 2 or type(event[0]) is not str or event[0] == CLOSED:
            return
        uri = event[1] if type(event[1]) is str else None
        self._local.publish(event[0], uri)

    @property
    def listener_count(self) -> int:
        """How many ``deliver`` functions of this worker are subscribed."""
        return self._local.listener_count


__all__ = ["RedisSubscriptionBus"]
