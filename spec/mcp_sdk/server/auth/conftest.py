from __future__ import annotations

import typing as t

import pytest
import requests

from mcp_sdk.server.auth import BearerAuth, JWTVerifier
from spec.support.auth_server import JWTAuthorizationServer
from spec.support.http_client import Client
from spec.support.oauth_fixture import Served
from spec.support.protected_server import ProtectedServer


@pytest.fixture
def issuer() -> t.Iterator[JWTAuthorizationServer]:
    app = JWTAuthorizationServer("ES256")
    served = Served(app)
    yield app
    served.close()


@pytest.fixture
def protect(issuer: JWTAuthorizationServer) -> t.Iterator[t.Callable[..., ProtectedServer]]:
    """``protect(verifier=None, required_scopes=("mcp",), auth_options=None, **transport_options)``: a served protected server."""
    started: list[ProtectedServer] = []

    def start(
        verifier: t.Any = None, required_scopes: t.Sequence[str] = ("mcp",), auth_options: dict[str, t.Any] | None = None, **options: t.Any
    ) -> ProtectedServer:
        def make_auth(resource: str) -> BearerAuth:
            chosen = verifier or JWTVerifier(jwks_uri=issuer.jwks_uri, issuer=issuer.issuer, refetch_interval=0)
            return BearerAuth(
                chosen, resource=resource, authorization_servers=[issuer.issuer], required_scopes=required_scopes, **(auth_options or {})
            )

        protected = ProtectedServer(make_auth, **options)
        started.append(protected)
        return protected

    yield start
    for protected in started:
        protected.close()


@pytest.fixture
def clients() -> t.Iterator[t.Callable[[str, str | None], Client]]:
    """``clients(url, token)``: a wire-level test client sending ``Authorization: Bearer <token>``."""
    made: list[Client] = []

    def make(url: str, token: str | None) -> Client:
        http = requests.Session()
        if token is not None:
            http.headers["Authorization"] = f"Bearer {token}"
        client = Client(url, http)
        made.append(client)
        return client

    yield make
    for client in made:
        client.close()
