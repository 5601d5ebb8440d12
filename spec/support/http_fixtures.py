"""Pytest fixtures for the Streamable HTTP tests (import them into the test module).

``serve(**transport_options)`` starts the :mod:`spec.support.http_app` server
behind a :class:`StreamableHTTPTransport` on a live werkzeug server and returns
a :class:`Served`; everything started is stopped after the test.
"""

from __future__ import annotations

import dataclasses
import typing as t

import pytest
import requests

from mcp_sdk import Configuration, Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.http_app import Probe, build_server
from spec.support.http_client import Client
from spec.support.http_server import LiveServer


@dataclasses.dataclass
class Served:
    server: Server
    probe: Probe
    transport: StreamableHTTPTransport
    live: LiveServer
    reported: list[tuple[BaseException, dict[str, t.Any]]]
    _clients: list[Client] = dataclasses.field(default_factory=list)

    @property
    def url(self) -> str:
        return self.live.url

    def client(self) -> Client:
        """A new client (its own connection pool), closed after the test."""
        client = Client(self.url, requests.Session())
        self._clients.append(client)
        return client

    def close_clients(self) -> None:
        for client in self._clients:
            client.close()


@pytest.fixture
def serve() -> t.Iterator[t.Callable[..., Served]]:
    started: list[Served] = []

    def start(**transport_options: t.Any) -> Served:
        reported: list[tuple[BaseException, dict[str, t.Any]]] = []
        configuration = Configuration(exception_reporter=lambda error, context: reported.append((error, context)))
        server, probe = build_server(configuration=configuration)
        # werkzeug's threaded server has a thread per connection: size the stream caps for plenty.
        transport = StreamableHTTPTransport(server, **{"wsgi_threads": 32, **transport_options})
        served = Served(server, probe, transport, LiveServer(transport, closeables=[transport]), reported)
        started.append(served)
        return served

    yield start
    for served in started:
        served.probe.release.set()
        served.close_clients()
        served.live.stop()


__all__ = ["Served", "serve"]
