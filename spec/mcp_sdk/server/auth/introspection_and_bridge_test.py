"""RFC 7662 introspection, callable verifiers, the authenticate= bridge, and no secrets anywhere."""

from __future__ import annotations

import logging
import time

import pytest
import requests

from mcp_sdk.server.auth import AccessToken, BearerAuth, IntrospectionVerifier, Principal
from mcp_sdk.server.transports import StreamableHTTPTransport
from spec.support.auth_server import INTROSPECTION_CLIENT
from spec.support.http_client import initialize_message, messages_of, tool_call
from spec.support.protected_server import ProtectedServer, build_server

HEADERS = {"Accept": "application/json, text/event-stream", "Content-Type": "application/json"}


def initialize(url: str, token: str | None, **headers: str) -> requests.Response:
    all_headers = {**HEADERS, **headers}
    if token is not None:
        all_headers["Authorization"] = "Bearer " + token
    with requests.post(url, json=initialize_message(), headers=all_headers, timeout=30) as response:
        return response


def introspection(authorization_server, **options) -> IntrospectionVerifier:
    return IntrospectionVerifier(
        endpoint=authorization_server.introspection_endpoint, client_id=INTROSPECTION_CLIENT[0], client_secret=INTROSPECTION_CLIENT[1], **options
    )


def test_introspection_accepts_active_tokens_and_caches_the_answer(issuer, protect):
    protected = protect(introspection(issuer))
    token = issuer.mint(aud=protected.url)
    for _ in range(3):
        assert initialize(protected.url, token).status_code == 200
    assert issuer.introspection_calls() == 1
    form = issuer.requests_to("/introspect")[0].form
    assert form == {"token": token, "token_type_hint": "access_token"}


def test_introspection_refuses_inactive_and_unknown_tokens(issuer, protect):
    protected = protect(introspection(issuer, cache_ttl=0))
    token = issuer.mint(aud=protected.url)
    issuer.revoked.add(token)
    assert initialize(protected.url, token).status_code == 401
    assert initialize(protected.url, "opaque-unknown").status_code == 401
    assert initialize(protected.url, "opaque-unknown").status_code == 401  # a client retrying a dead token
    assert issuer.introspection_calls() == 2  # the "inactive" answer was reused


def test_introspection_checks_the_audience_and_issuer(issuer, protect):
    protected = protect(introspection(issuer))
    response = initialize(protected.url, issuer.mint(aud="https://other.example.com/mcp"))
    assert response.status_code == 401
    assert 'error_description="the access token is for another resource"' in response.headers["WWW-Authenticate"]
    pinned = protect(introspection(issuer, issuer="https://elsewhere.example.com"))
    assert initialize(pinned.url, issuer.mint(aud=pinned.url)).status_code == 401


def test_introspection_cache_is_bounded(issuer, protect):
    verifier = introspection(issuer, cache_size=2)
    protected = protect(verifier)
    tokens = [issuer.mint(aud=protected.url, jti=str(n)) for n in range(4)]
    for token in tokens:
        assert initialize(protected.url, token).status_code == 200
    assert len(verifier._cache) == 2
    assert initialize(protected.url, tokens[0]).status_code == 200  # evicted: asked again
    assert issuer.introspection_calls() == 5


def test_a_failing_introspection_endpoint_is_503(issuer, protect):
    protected = protect(introspection(issuer))
    issuer.failing = True
    assert initialize(protected.url, issuer.mint(aud=protected.url)).status_code == 503
    wrong_secret = protect(IntrospectionVerifier(endpoint=issuer.introspection_endpoint, client_id="mcp-resource-server", client_secret="wrong"))
    issuer.failing = False
    assert initialize(wrong_secret.url, issuer.mint(aud=wrong_secret.url)).status_code == 503


def test_any_callable_verifies(protect):
    tokens = {"token-for-dana": AccessToken(subject="dana", scopes=["mcp"], expires_at=time.time() + 60)}
    protected = protect(tokens.get)
    assert initialize(protected.url, "token-for-dana").status_code == 200
    assert initialize(protected.url, "token-for-nobody").status_code == 401
    tokens["expired"] = AccessToken(subject="dana", scopes=["mcp"], expires_at=time.time() - 1)
    assert initialize(protected.url, "expired").status_code == 401


def test_nothing_secret_in_reprs_errors_or_logs(issuer, protect, caplog):
    caplog.set_level(logging.DEBUG)
    verifier = introspection(issuer)
    assert INTROSPECTION_CLIENT[1] not in repr(verifier)
    protected = protect(verifier)
    good = issuer.mint(aud=protected.url)
    bad = issuer.mint(aud=protected.url, exp=int(time.time()) - 3600)
    issuer.revoked.add(bad)
    texts = [initialize(protected.url, token).text for token in (good, bad)]
    issuer.failing = True
    texts.append(initialize(protected.url, issuer.mint(aud=protected.url, jti="x")).text)
    principal = Principal(subject="alice", scopes=["mcp"], claims={"email": "alice@example.com"})
    for text in [*texts, repr(principal), repr(protected.auth), caplog.text]:
        assert good not in text and bad not in text and INTROSPECTION_CLIENT[1] not in text
    assert "alice@example.com" not in repr(principal)


# -- the authenticate= bridge -------------------------------------------------------


def signed_in(environ) -> Principal | None:
    """The host's login, standing in for Flask-Login: the X-Test-User header names the user."""
    user = environ.get("HTTP_X_TEST_USER")
    return Principal(subject=user, scopes=["mcp"]) if user else None


def test_authenticate_alone_lets_signed_in_users_in():
    protected = ProtectedServer(None, authenticate=signed_in)
    try:
        response = initialize(protected.url, None)
        assert (response.status_code, response.json()["error"]["message"]) == (401, "Unauthorized: sign in first")
        response = initialize(protected.url, None, **{"X-Test-User": "erin"})
        assert response.status_code == 200
        session_id = response.headers["Mcp-Session-Id"]
        headers = {**HEADERS, "Mcp-Session-Id": session_id, "MCP-Protocol-Version": "2025-11-25"}
        with requests.post(protected.url, json=tool_call("whoami"), headers={**headers, "X-Test-User": "erin"}, timeout=30) as answer:
            assert messages_of(answer)[0]["result"]["structuredContent"]["subject"] == "erin"
        with requests.post(protected.url, json=tool_call("whoami"), headers={**headers, "X-Test-User": "frank"}, timeout=30) as answer:
            assert answer.status_code == 404
        with requests.post(protected.url, json=tool_call("admin_report"), headers={**headers, "X-Test-User": "erin"}, timeout=30) as answer:
            assert answer.status_code == 403
            assert "WWW-Authenticate" not in answer.headers
    finally:
        protected.close()


def test_authenticate_with_bearer_fallback(issuer, protect):
    protected = protect(authenticate=signed_in)
    assert initialize(protected.url, None, **{"X-Test-User": "erin"}).status_code == 200
    unscoped = protect(authenticate=signed_in, required_scopes=("mcp", "beta"))  # the endpoint's scopes bind signed-in users too
    response = initialize(unscoped.url, None, **{"X-Test-User": "erin"})
    assert (response.status_code, 'error="insufficient_scope"' in response.headers["WWW-Authenticate"]) == (403, True)
    assert initialize(protected.url, issuer.mint(aud=protected.url)).status_code == 200
    assert initialize(protected.url, None).status_code == 401


def test_configuration_errors():
    server = build_server()
    with pytest.raises(TypeError, match="BearerAuth"):
        StreamableHTTPTransport(server, auth=lambda token: None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        StreamableHTTPTransport(server, authenticate="nope")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="absolute"):
        BearerAuth(lambda token: None, resource="/mcp")
    with pytest.raises(TypeError, match="required scope"):
        from mcp_sdk import Tool

        Tool.define("x", required_scopes=["two words"], handler=lambda args: None)


def test_metadata_urls():
    from mcp_sdk.server.auth import metadata_url_for

    assert metadata_url_for("https://api.example.com/mcp") == "https://api.example.com/.well-known/oauth-protected-resource/mcp"
    assert metadata_url_for("https://api.example.com/") == "https://api.example.com/.well-known/oauth-protected-resource"
    auth = BearerAuth(lambda token: None, resource="https://api.example.com/v1/mcp")
    assert auth.metadata_path == "/.well-known/oauth-protected-resource/v1/mcp"


def test_without_the_auth_extra_the_error_names_it():
    import subprocess
    import sys

    code = (
        "import sys; sys.modules['jwt'] = None\n"
        "import mcp_sdk.server.auth as auth, mcp_sdk\n"
        "assert 'jwt' not in [m for m in sys.modules if sys.modules[m] is not None]\n"
        "from mcp_sdk.client.oauth.jwt_assertion import JWTSigner\n"
        "for make in (lambda: auth.JWTVerifier(jwks_uri='https://a/jwks', issuer='https://a'), lambda: JWTSigner('x', 'ES256')):\n"
        "    try:\n"
        "        make()\n"
        "    except mcp_sdk.MissingExtraError as error:\n"
        "        assert isinstance(error, ImportError)\n"
        "        print(error)\n"
    )
    completed = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)
    assert completed.returncode == 0, completed.stderr
    message = "JWT signing and verification need PyJWT and cryptography: pip install 'mcp_sdk[auth]'"
    assert completed.stdout.splitlines() == [message, message]


def test_canonical_uris():
    from mcp_sdk.server.auth import canonical_uri

    assert canonical_uri("HTTPS://MCP.Example.com/") == "https://mcp.example.com"
    assert canonical_uri("https://mcp.example.com/Server/mcp") == "https://mcp.example.com/Server/mcp"
    assert canonical_uri("not a url") == "not a url"
