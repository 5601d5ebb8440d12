"""Clients from distinct addresses on one machine: ``127.0.0.0/8`` is all loopback on Linux.

A server on 127.0.0.1 sees a session built by :func:`from_address` as coming from ``address``
(``REMOTE_ADDR``), so a spec can play several clients, an abuser and its victims, that the
transport's per-address shares tell apart.
"""

from __future__ import annotations

import typing as t

import requests
from requests.adapters import HTTPAdapter


class _BoundAdapter(HTTPAdapter):
    """Connects from ``address`` (any free port)."""

    def __init__(self, address: str) -> None:
        self._source = (address, 0)
        super().__init__()

    def init_poolmanager(self, connections: int, maxsize: int, block: bool = False, **pool_kwargs: t.Any) -> None:
        super().init_poolmanager(connections, maxsize, block, source_address=self._source, **pool_kwargs)


def from_address(address: str) -> requests.Session:
    """A ``requests.Session`` whose connections come from ``address`` (e.g. ``"127.0.0.2"``)."""
    session = requests.Session()
    session.mount("http://", _BoundAdapter(address))
    return session


def loopback(n: int) -> str:
    """The ``n``-th loopback address of ``127.1.0.0/16`` (0 -> ``127.1.0.1``): never the server's 127.0.0.1."""
    return f"127.1.{n // 250}.{n % 250 + 1}"


__all__ = ["from_address", "loopback"]
