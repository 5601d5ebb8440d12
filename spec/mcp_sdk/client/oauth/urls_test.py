from __future__ import annotations

import pytest

from mcp_sdk.client.oauth import InsecureURLError
from mcp_sdk.client.oauth.url_rules import (
    authorization_server_metadata_urls,
    canonicalize_url,
    display_url,
    ensure_secure_url,
    is_loopback_host,
    is_secure_url,
    protected_resource_metadata_urls,
    resource_covers,
    same_endpoint,
    validate_client_id_metadata_document_url,
)


@pytest.mark.parametrize(
    "url",
    [
        "https://example.com/mcp",
        "https://example.com",
        "HTTPS://EXAMPLE.COM/x",
        "http://localhost:8080/cb",
        "http://LOCALHOST/cb",
        "http://127.0.0.1/x",
        "http://127.255.10.3:9/x",
        "http://[::1]:3000/x",
        "http://[::ffff:127.0.0.1]/x",
    ],
)
def test_secure_urls(url):
    assert is_secure_url(url)
    assert ensure_secure_url(url, "x") == url


@pytest.mark.parametrize(
    "url",
    [
        "http://example.com/mcp",
        "http://127.example.com/x",
        "http://localhost.example.com/x",
        "http://foo.localhost/x",
        "http://128.0.0.1/x",
        "http://10.0.0.1/x",
        "http://[::2]/x",
        "http://0.0.0.0/x",
        "ftp://localhost/x",
        "javascript:alert(1)",
        "https:///nohost",
        "http://localhost:99999/x",
        "//example.com/x",
        "/relative",
        "",
        None,
        42,
    ],
)
def test_insecure_urls(url):
    assert not is_secure_url(url)
    with pytest.raises(InsecureURLError):
        ensure_secure_url(url, "token endpoint")


def test_insecure_url_error_hides_userinfo_and_query():
    with pytest.raises(InsecureURLError) as info:
        ensure_secure_url("http://user:pw@example.com/path?api_key=k#f", "MCP server URL")
    message = str(info.value)
    assert "MCP server URL http://example.com/path" in message
    assert "pw" not in message and "api_key" not in message


def test_loopback_host():
    assert is_loopback_host("localhost") and is_loopback_host("::1") and is_loopback_host("[::1]")
    assert not is_loopback_host(None) and not is_loopback_host("") and not is_loopback_host("127.0.0.1.nip.io")


@pytest.mark.parametrize(
    "url, expected",
    [
        ("HTTPS://Example.COM:443/", "https://example.com"),
        ("https://example.com:8443/a/./b/../mcp", "https://example.com:8443/a/mcp"),
        ("https://example.com/a/%2e%2E/mcp", "https://example.com/mcp"),
        ("http://u:p@127.0.0.1:80/mcp?x=1#frag", "http://127.0.0.1/mcp?x=1"),
        ("https://example.com/mcp/", "https://example.com/mcp/"),
        ("http://[::1]:3000/mcp", "http://[::1]:3000/mcp"),
    ],
)
def test_canonicalize_url(url, expected):
    assert canonicalize_url(url) == expected


def test_canonicalize_rejects_relative_urls():
    with pytest.raises(ValueError):
        canonicalize_url("/mcp")


@pytest.mark.parametrize(
    "resource, server, covers",
    [
        ("https://example.com/mcp", "https://example.com/mcp", True),
        ("https://example.com", "https://example.com/mcp", True),
        ("https://example.com/", "https://example.com/mcp", True),
        ("https://example.com/api", "https://example.com/api/mcp", True),
        ("https://example.com/api/", "https://example.com/api/mcp", True),
        ("https://EXAMPLE.com:443/mcp", "https://example.com/mcp", True),
        ("https://example.com/mcp", "https://example.com/mcp?tenant=a", True),
        ("https://example.com/mcp?tenant=a", "https://example.com/mcp?tenant=a", True),
        ("https://example.com/mcp?tenant=b", "https://example.com/mcp?tenant=a", False),
        ("https://example.com/api", "https://example.com/apix/mcp", False),
        ("https://example.com/mcp/deeper", "https://example.com/mcp", False),
        ("https://example.com/a/../mcp", "https://example.com/b/mcp", False),
        ("https://evil.com/mcp", "https://example.com/mcp", False),
        ("http://example.com/mcp", "https://example.com/mcp", False),
        ("https://example.com:8443/mcp", "https://example.com/mcp", False),
        ("not a url", "https://example.com/mcp", False),
    ],
)
def test_resource_covers(resource, server, covers):
    assert resource_covers(resource, server) is covers


def test_protected_resource_metadata_urls():
    assert protected_resource_metadata_urls("https://example.com/public/mcp", "https://example.com/custom") == [
        "https://example.com/custom",
        "https://example.com/.well-known/oauth-protected-resource/public/mcp",
        "https://example.com/.well-known/oauth-protected-resource",
    ]
    assert protected_resource_metadata_urls("https://example.com/") == [
        "https://example.com/.well-known/oauth-protected-resource",
    ]


def test_authorization_server_metadata_urls():
    assert authorization_server_metadata_urls("https://auth.example.com/tenant1/") == [
        "https://auth.example.com/.well-known/oauth-authorization-server/tenant1",
        "https://auth.example.com/.well-known/openid-configuration/tenant1",
        "https://auth.example.com/tenant1/.well-known/openid-configuration",
    ]
    assert authorization_server_metadata_urls("https://auth.example.com") == [
        "https://auth.example.com/.well-known/oauth-authorization-server",
        "https://auth.example.com/.well-known/openid-configuration",
    ]


def test_same_endpoint():
    assert same_endpoint("https://EXAMPLE.com:443/mcp?a=1", "https://example.com/mcp?a=1")
    assert not same_endpoint("https://example.com/mcp?a=2", "https://example.com/mcp?a=1")
    assert not same_endpoint("/mcp", "https://example.com/mcp")


def test_display_url():
    assert display_url("https://u:p@Example.com:8443/p?q=1#f") == "https://example.com:8443/p"
    assert display_url("garbage") == "<invalid URL>"


@pytest.mark.parametrize(
    "url, problem",
    [
        ("https://client.example.com/oauth/client.json", None),
        ("http://client.example.com/client.json", "https"),
        ("https://client.example.com", "non-root path"),
        ("https://client.example.com/", "non-root path"),
        ("https://client.example.com/a.json#frag", "fragment"),
        ("https://user@client.example.com/a.json", "userinfo"),
        ("https://client.example.com/a/../b.json", "dot segments"),
        ("https://client.example.com/a/./b.json", "dot segments"),
        ("https://client.example.com/a/%2e%2e/b.json", "dot segments"),
        ("https://client.example.com/a.json?v=1", "query"),
        ("client.json", "absolute"),
    ],
)
def test_client_id_metadata_document_url(url, problem):
    result = validate_client_id_metadata_document_url(url)
    if problem is None:
        assert result is None
    else:
        assert problem in result
