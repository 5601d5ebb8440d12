"""WorkloadIdentityProvider: a platform JWT traded with the RFC 7523 jwt-bearer grant."""

from __future__ import annotations

import typing as t
from pathlib import Path

import pytest

from mcp_sdk.client.oauth import AuthorizationError, InvalidGrantError, OAuthClient, WorkloadIdentityProvider
from mcp_sdk.client.oauth.workload_identity_provider import InvalidWorkloadIdentityError
from spec.support.oauth_fixture import JWT_BEARER_GRANT, FixtureServer

WORKLOAD_JWT = "eyJhbGciOiJFUzI1NiJ9.eyJzdWIiOiJ3b3JrbG9hZCJ9.c2ln"


def accept_workload(auth: FixtureServer, assertion: str = WORKLOAD_JWT, client_id: str | None = "wl") -> None:
    """Let the fixture AS take ``assertion`` as a jwt-bearer grant for ``client_id``."""
    if client_id is not None:
        auth.clients[client_id] = {"client_id": client_id, "token_endpoint_auth_method": "none"}
    auth.jag_client_id = client_id
    auth.registry.authorization_grants[assertion] = {
        "client_id": client_id,
        "audience": auth.issuer,
        "resource": None,
        "scope": None,
    }


def test_a_token_file_is_read_and_sent_as_the_assertion(auth, mcp, session, send, tmp_path: Path) -> None:
    accept_workload(auth)
    token_file = tmp_path / "token"
    token_file.write_text(WORKLOAD_JWT + "\n")
    provider = WorkloadIdentityProvider(token_file=token_file, client_id="wl", scope="tools")

    assert send(OAuthClient(provider, mcp.mcp_url, session)).status_code == 200

    assert auth.paths() == ["GET /.well-known/oauth-authorization-server", "POST /token"]
    assert auth.requests_to("/token")[0].form == {
        "grant_type": JWT_BEARER_GRANT,
        "assertion": WORKLOAD_JWT,
        "resource": mcp.mcp_url,
        "scope": "tools",
        "client_id": "wl",
    }
    assert mcp.requests[-1].headers["Authorization"] == "Bearer " + provider.access_token


def test_a_callable_is_asked_for_each_grant(auth, mcp, session, send) -> None:
    calls: list[int] = []

    def current_token() -> str:
        calls.append(1)
        return WORKLOAD_JWT

    accept_workload(auth)
    provider = WorkloadIdentityProvider(token=current_token, client_id="wl")
    send(OAuthClient(provider, mcp.mcp_url, session))
    assert calls == [1]


def test_a_refused_grant_raises_without_retrying(auth, mcp, session, send) -> None:
    auth.clients["wl"] = {"client_id": "wl", "token_endpoint_auth_method": "none"}
    provider = WorkloadIdentityProvider(token=lambda: WORKLOAD_JWT, client_id="wl")

    with pytest.raises(InvalidGrantError):
        send(OAuthClient(provider, mcp.mcp_url, session))

    assert len(auth.requests_to("/token")) == 1


@pytest.mark.parametrize(
    ("content", "message"),
    [("not a jwt", "is not a compact JWT"), ("a.b", "is not a compact JWT"), ("x" * 70000, "exceeds")],
)
def test_a_bad_token_file_is_a_clear_error_that_never_echoes_it(auth, mcp, session, send, tmp_path, content, message) -> None:
    token_file = tmp_path / "token"
    token_file.write_text(content)
    provider = WorkloadIdentityProvider(token_file=token_file)

    with pytest.raises(AuthorizationError, match=message) as raised:
        send(OAuthClient(provider, mcp.mcp_url, session))

    assert content[:20] not in str(raised.value)
    assert auth.requests_to("/token") == []


def test_a_missing_token_file(tmp_path: Path) -> None:
    provider = WorkloadIdentityProvider(token_file=tmp_path / "absent")
    with pytest.raises(AuthorizationError, match=r"cannot read the workload token from token_file .*absent \(FileNotFoundError\)"):
        provider.assertion()


def test_configuration_errors() -> None:
    with pytest.raises(InvalidWorkloadIdentityError, match="exactly one of token_file and token"):
        WorkloadIdentityProvider()
    with pytest.raises(InvalidWorkloadIdentityError, match="exactly one"):
        WorkloadIdentityProvider(token_file="/x", token=lambda: "a.b.c")
    with pytest.raises(InvalidWorkloadIdentityError, match="callable"):
        WorkloadIdentityProvider(token=t.cast(t.Any, "a.b.c"))
    with pytest.raises(InvalidWorkloadIdentityError, match="client_id"):
        WorkloadIdentityProvider(token=lambda: "a.b.c", client_id=" ")


def test_repr_and_client_information() -> None:
    provider = WorkloadIdentityProvider(token=lambda: WORKLOAD_JWT)
    assert repr(provider) == "<WorkloadIdentityProvider token=<callable> client_id=None scope=None>"
    assert provider.client_information() == {"token_endpoint_auth_method": "none"}
    assert WorkloadIdentityProvider(token_file="/t", client_id="wl").client_information() == {
        "client_id": "wl",
        "token_endpoint_auth_method": "none",
    }
