"""Where an MCP server's metadata may send the OAuth client (issue 19, item 11): never to
link-local addresses, to loopback ones only beside a loopback MCP server (or when allowed),
refused with a clear error before any request goes there."""

from __future__ import annotations

import pytest
import requests

from mcp_sdk.client.oauth import InsecureURLError, OAuthClient
from mcp_sdk.client.oauth.url_rules import ensure_permitted_host, local_address_kind

ALLOW_HINT = " (set allow_loopback_authorization_servers = True on the provider to allow it)"


def test_the_authorization_server_beside_a_loopback_mcp_server_is_allowed(auth, mcp, session, make_provider, send):
    """The existing specs' and conformance set-up: both on 127.0.0.1, different ports."""
    assert send(OAuthClient(make_provider(), mcp.mcp_url, session)).status_code == 200
    assert auth.paths()[-1] == "POST /token"


def test_loopback_refused_when_not_allowed_before_any_request_goes_there(auth, mcp, session, make_provider, send):
    """The review's reproduction: the MCP server's metadata names another port on 127.0.0.1."""
    provider = make_provider()
    provider.allow_loopback_authorization_servers = False
    with pytest.raises(InsecureURLError) as raised:
        send(OAuthClient(provider, mcp.mcp_url, session))
    assert str(raised.value) == (
        f"authorization server {auth.issuer} is a loopback address and allow_loopback_authorization_servers is False; "
        "refusing to contact it" + ALLOW_HINT
    )
    assert auth.requests == []  # no GET metadata, no POST /register, no POST /token
    assert mcp.paths() == ["POST /mcp", "GET /.well-known/oauth-protected-resource/mcp"]  # its own origin is fine


def test_a_remote_mcp_server_cannot_point_the_client_at_loopback(auth, mcp, session, make_provider):
    """A real 401 whose challenge names a loopback metadata URL, for an MCP server that is not loopback."""
    mcp.challenge_resource_metadata = auth.base_url + "/.well-known/oauth-protected-resource/mcp"
    client = OAuthClient(make_provider(), "https://mcp.example.com/mcp", session)
    with requests.post(mcp.mcp_url, json={}, timeout=30) as response:
        assert response.status_code == 401
    with pytest.raises(InsecureURLError) as raised:
        client.handle_response(response)
    assert str(raised.value) == (
        f"WWW-Authenticate resource_metadata URL {auth.base_url}/.well-known/oauth-protected-resource/mcp is a loopback "
        "address and the MCP server https://mcp.example.com/mcp is not; refusing to contact it" + ALLOW_HINT
    )
    assert auth.requests == []


@pytest.mark.parametrize("where", ["authorization_servers", "resource_metadata"])
def test_link_local_is_never_contacted_even_beside_a_loopback_mcp_server(auth, mcp, session, make_provider, send, where):
    if where == "authorization_servers":
        mcp.authorization_server_url = "https://169.254.169.254"
        expected = "authorization server https://169.254.169.254 is a link-local address; refusing to contact it"
    else:
        mcp.challenge_resource_metadata = "https://169.254.169.254/latest/meta-data/"
        expected = "WWW-Authenticate resource_metadata URL https://169.254.169.254/latest/meta-data/ is a link-local address; refusing to contact it"
    with pytest.raises(InsecureURLError) as raised:
        send(OAuthClient(make_provider(), mcp.mcp_url, session))
    assert str(raised.value) == expected
    assert auth.requests == []


def test_endpoints_in_the_authorization_server_metadata_are_checked_too(auth, mcp, session, make_provider, send):
    auth.metadata_overrides = {"token_endpoint": "https://[fe80::1]/token"}
    with pytest.raises(InsecureURLError) as raised:
        send(OAuthClient(make_provider(), mcp.mcp_url, session))
    assert str(raised.value) == "authorization server token_endpoint https://[fe80::1]/token is a link-local address; refusing to contact it"
    assert "POST /register" not in auth.paths() and "POST /token" not in auth.paths()


def test_allowed_explicitly_for_a_remote_looking_mcp_server():
    url = "http://127.0.0.1:9000/token"
    with pytest.raises(InsecureURLError):
        ensure_permitted_host(url, "authorization server", "https://mcp.example.com/mcp")
    assert ensure_permitted_host(url, "authorization server", "https://mcp.example.com/mcp", allow_loopback=True) == url
    # The MCP server's own origin is always fine, whatever its address.
    assert ensure_permitted_host("https://169.254.1.1/.well-known/x", "metadata", "https://169.254.1.1/mcp") == "https://169.254.1.1/.well-known/x"


@pytest.mark.parametrize(
    ("host", "kind"),
    [
        ("localhost", "loopback"),
        ("api.localhost", "loopback"),
        ("LOCALHOST.", "loopback"),
        ("127.0.0.1", "loopback"),
        ("127.1", "loopback"),
        ("2130706433", "loopback"),
        ("0x7f000001", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("2852039166", "link-local"),
        ("::ffff:169.254.169.254", "link-local"),
        ("fe80::1", "link-local"),
        ("0.0.0.0", "unspecified"),
        ("0", "unspecified"),
        ("::", "unspecified"),
        ("224.0.0.1", "multicast"),
        ("auth.example.com", None),
        ("10.0.0.5", None),
        ("93.184.216.34", None),
        ("localhost.example.com", None),
        ("127.example.com", None),
    ],
)
def test_local_address_kinds(host, kind):
    assert local_address_kind(host) == kind
