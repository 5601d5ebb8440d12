"""Where a :class:`~mcp_sdk.client.multi.MultiServerClient` sends ``<server>_<name>``: a map its listings fill.

A prefixed name can be read more than one way when one server's name, with ``_``, begins another's:
``a_b_delete_everything`` is tool ``b_delete_everything`` of server ``a`` and tool
``delete_everything`` of server ``a_b``. So a name is never routed by guessing from its prefix:
each listing records which server listed which name, and a call goes where that record says. A
prefixed name two servers both list is refused: left out of the listing, with a warning naming both
servers, and a call to it raises :class:`~mcp_sdk.client.exceptions.NameCollisionError`.
"""

from __future__ import annotations

import logging
import threading
import typing as t

logger = logging.getLogger("mcp_sdk.client.multi")

#: ``(server, the server's own name)``: where a prefixed name goes.
Target = t.Tuple[str, str]


def prefixed(server: str, name: str) -> str:
    """The name a multi-server client gives ``name`` of ``server``: ``<server>_<name>``."""
    return f"{server}_{name}"


def claimants(name: str, servers: t.Iterable[str]) -> list[str]:
    """The servers whose prefix ``name`` carries (in the order given): the ones that could list it.

    Used to choose which servers to list again, and to explain a refusal; never to route.
    """
    return [server for server in servers if name.startswith(f"{server}_") and len(name) > len(server) + 1]


class NameRoutes:
    """Prefixed name -> its server and own name, for one kind of entry (tools, or prompts).

    Thread-safe: one lock guards the record, held for no I/O and no callback.

    :param kind: what the names are (``"tool"``, ``"prompt"``), for messages.
    :param servers: every server's name, in configuration order (the order collisions name them).
    """

    def __init__(self, kind: str, servers: t.Sequence[str]) -> None:
        self.kind = kind
        self._order = {server: index for index, server in enumerate(servers)}
        self._lock = threading.Lock()
        self._listed: dict[str, tuple[str, ...]] = {}  # server -> the names of its last listing
        self._routes: dict[str, Target] = {}
        self._collisions: dict[str, tuple[Target, ...]] = {}

    def record(self, listed: t.Mapping[str, t.Iterable[str]], covering: t.Iterable[str]) -> frozenset[str]:
        """Take a listing of the servers in ``covering``: each one's names are now ``listed[server]``
        (none, for a server absent from ``listed``: it failed, sits out, or lists no such entry).

        :param listed: server -> the names it listed.
        :param covering: the servers this listing speaks for (the others keep their last listing).
        :return: the prefixed names now refused, two or more servers listing them.
        """
        with self._lock:
            for server in covering:
                names = listed.get(server)
                if names is None:
                    self._listed.pop(server, None)
                else:
                    self._listed[server] = tuple(names)
            before = self._collisions
            self._routes, self._collisions = self._build()
            collisions = self._collisions
        for name in collisions.keys() - before.keys():  # warned once, when it appears
            logger.warning("MCP servers %s all list %s %r; refused: it is listed for none and calls to it fail (%s)",
                           " and ".join(repr(server) for server, _ in collisions[name]), self.kind, name,
                           ", ".join(f"{server!r} lists {own!r}" for server, own in collisions[name]))
        return frozenset(collisions)

    def _build(self) -> tuple[dict[str, Target], dict[str, tuple[Target, ...]]]:
        claims: dict[str, list[Target]] = {}
        for server in sorted(self._listed, key=self._order.__getitem__):
            for own in self._listed[server]:
                targets = claims.setdefault(prefixed(server, own), [])
                if (server, own) not in targets:  # a server listing a name twice is no collision
                    targets.append((server, own))
        routes = {name: targets[0] for name, targets in claims.items() if len(targets) == 1}
        collisions = {name: tuple(targets) for name, targets in claims.items() if len(targets) > 1}
        return routes, collisions

    def route(self, name: str) -> Target | None:
        """Where ``name`` goes: its server and that server's own name; None when no listing gave it."""
        with self._lock:
            return self._routes.get(name)

    def collision(self, name: str) -> tuple[Target, ...] | None:
        """The servers (and their own names) that all list ``name``, when it is refused; else None."""
        with self._lock:
            return self._collisions.get(name)

    def __repr__(self) -> str:
        with self._lock:
            return f"<NameRoutes {self.kind} routes={len(self._routes)} collisions={sorted(self._collisions)!r}>"
