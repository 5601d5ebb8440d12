from __future__ import annotations

import typing as t

import pytest

from mcp_sdk.client.oauth import AuthorizationError, InsecureURLError, OAuthClient
from spec.support.oauth_fixture import FixtureServer, Registry


def flow(mcp, session, make_provider, send, **kwargs: t.Any):
    return send(OAuthClient(make_provider(**kwargs), mcp.mcp_url, session))


def test_prm_from_the_challenge_url_first(auth, mcp, session, make_provider, send):
    mcp.prm_locations = {"/custom/prm"}
    mcp.challenge_resource_metadata = mcp.base_url + "/custom/prm"

    assert flow(mcp, session, make_provider, send).status_code == 200

    assert mcp.paths()[:2] == ["POST /mcp", "GET /custom/prm"]


def test_prm_path_aware_then_root_well_known(auth, mcp, session, make_provider, send):
    mcp.challenge_resource_metadata = ""
    mcp.prm_locations = {"root"}
    mcp.mcp_path = "/api/v1/mcp"

    assert flow(mcp, session, make_provider, send).status_code == 200

    assert mcp.paths()[:3] == [
        "POST /api/v1/mcp",
        "GET /.well-known/oauth-protected-resource/api/v1/mcp",
        "GET /.well-known/oauth-protected-resource",
    ]


def test_challenge_url_missing_falls_back_to_well_known(auth, mcp, session, make_provider, send):
    mcp.challenge_resource_metadata = mcp.base_url + "/gone"

    assert flow(mcp, session, make_provider, send).status_code == 200

    assert mcp.paths()[:3] == ["POST /mcp", "GET /gone", "GET /.well-known/oauth-protected-resource/mcp"]


@pytest.mark.parametrize(
    "location, expected",
    [
        ("oauth", ["GET /.well-known/oauth-authorization-server/tenant1"]),
        (
            "oidc",
            ["GET /.well-known/oauth-authorization-server/tenant1", "GET /.well-known/openid-configuration/tenant1"],
        ),
        (
            "oidc-appended",
            [
                "GET /.well-known/oauth-authorization-server/tenant1",
                "GET /.well-known/openid-configuration/tenant1",
                "GET /tenant1/.well-known/openid-configuration",
            ],
        ),
    ],
)
def test_authorization_server_metadata_with_an_issuer_path(auth, mcp, session, make_provider, send, location, expected):
    auth.issuer_path = "/tenant1"
    auth.metadata_locations = {location}
    mcp.authorization_server_url = auth.issuer

    assert flow(mcp, session, make_provider, send).status_code == 200

    assert auth.paths()[: len(expected)] == expected
    assert auth.paths()[len(expected)] == "POST /register"


def test_openid_configuration_at_the_root(auth, mcp, session, make_provider, send):
    auth.metadata_locations = {"oidc"}

    assert flow(mcp, session, make_provider, send).status_code == 200

    assert auth.paths()[:2] == ["GET /.well-known/oauth-authorization-server", "GET /.well-known/openid-configuration"]


def test_no_authorization_server_metadata_is_an_error(auth, mcp, session, make_provider, send):
    auth.metadata_locations = set()

    with pytest.raises(AuthorizationError, match="no authorization server metadata"):
        flow(mcp, session, make_provider, send)


@pytest.fixture
def legacy() -> t.Iterator[FixtureServer]:
    # 2025-03-26: one server is both the MCP endpoint and its authorization server.
    server = FixtureServer(authorization_server=True, resource_server=True, registry=Registry())
    server.prm_locations = set()
    server.challenge_resource_metadata = ""
    yield server
    server.close()


def test_legacy_metadata_at_the_mcp_origin(legacy, session, make_provider, send):
    legacy.mcp_path = "/v1/mcp"

    assert flow(legacy, session, make_provider, send).status_code == 200

    assert legacy.paths() == [
        "POST /v1/mcp",
        "GET /.well-known/oauth-protected-resource/v1/mcp",
        "GET /.well-known/oauth-protected-resource",
        "GET /.well-known/oauth-authorization-server",
        "POST /register",
        "GET /authorize",
        "POST /token",
        "POST /v1/mcp",
    ]
    assert legacy.requests_to("/authorize")[0].query["resource"] == legacy.mcp_url


def test_legacy_default_endpoints_without_metadata(legacy, session, make_provider, send):
    legacy.metadata_locations = set()

    assert flow(legacy, session, make_provider, send).status_code == 200

    assert legacy.paths()[3:] == [
        "GET /.well-known/oauth-authorization-server",
        "GET /.well-known/openid-configuration",
        "POST /register",
        "GET /authorize",
        "POST /token",
        "POST /mcp",
    ]


def test_prm_resource_may_be_a_parent_and_is_sent_verbatim(auth, mcp, session, make_provider, send):
    mcp.prm_overrides["resource"] = mcp.base_url

    assert flow(mcp, session, make_provider, send).status_code == 200

    assert auth.requests_to("/authorize")[0].query["resource"] == mcp.base_url
    assert auth.requests_to("/token")[0].form["resource"] == mcp.base_url


@pytest.mark.parametrize(
    "resource",
    [
        "http://127.0.0.1:1/mcp",  # another origin
        "https://{host}/mcp",  # another scheme
        "http://{host}/other",
        "http://{host}/mc",  # a prefix, but not a path segment
        "http://{host}/mcp/deeper",
        "http://{host}/mcp?tenant=other",
        42,
    ],
)
def test_mismatched_prm_resource_is_refused(auth, mcp, session, make_provider, send, resource):
    host = mcp.base_url.split("//")[1]
    mcp.prm_overrides["resource"] = resource.format(host=host) if isinstance(resource, str) else resource

    with pytest.raises(AuthorizationError, match="does not match the MCP server URL"):
        flow(mcp, session, make_provider, send)
    assert auth.requests == []


@pytest.mark.parametrize(
    "overrides, message",
    [
        ({"authorization_servers": None}, "no authorization_servers"),
        ({"authorization_servers": []}, "no authorization_servers"),
        ({"authorization_servers": [7]}, "not a URL"),
    ],
)
def test_malformed_prm(auth, mcp, session, make_provider, send, overrides, message):
    mcp.prm_overrides.update(overrides)

    with pytest.raises(AuthorizationError, match=message):
        flow(mcp, session, make_provider, send)


def test_issuer_mismatch_is_refused(auth, mcp, session, make_provider, send):
    auth.metadata_overrides["issuer"] = "https://evil.example.com"

    with pytest.raises(AuthorizationError, match="issuer does not match"):
        flow(mcp, session, make_provider, send)
    assert "POST /register" not in auth.paths()


@pytest.mark.parametrize("endpoint", ["authorization_endpoint", "token_endpoint", "registration_endpoint"])
def test_plain_http_endpoint_on_a_remote_host_is_refused(auth, mcp, session, make_provider, send, endpoint):
    auth.metadata_overrides[endpoint] = "http://auth.example.com/" + endpoint

    with pytest.raises(InsecureURLError, match=endpoint):
        flow(mcp, session, make_provider, send)
    assert auth.paths() == ["GET /.well-known/oauth-authorization-server"]


def test_plain_http_resource_metadata_url_is_refused(auth, mcp, session, make_provider, send):
    mcp.challenge_resource_metadata = "http://prm.example.com/prm"

    with pytest.raises(InsecureURLError, match="resource_metadata"):
        flow(mcp, session, make_provider, send)
    assert mcp.paths() == ["POST /mcp"]


def test_plain_http_authorization_server_is_refused(auth, mcp, session, make_provider, send):
    mcp.authorization_server_url = "http://auth.example.com"

    with pytest.raises(InsecureURLError, match="authorization server"):
        flow(mcp, session, make_provider, send)


@pytest.mark.parametrize("streamed", [False, True])
@pytest.mark.parametrize("where", ["prm", "metadata", "token", "register"])
def test_oversized_bodies_are_refused(auth, mcp, session, make_provider, send, where, streamed):
    auth.stream_oversized = mcp.stream_oversized = streamed
    if where == "prm":
        mcp.oversized_paths.add("/.well-known/oauth-protected-resource/mcp")
    elif where == "metadata":
        auth.oversized_paths.add("/.well-known/oauth-authorization-server")
    else:
        auth.oversized_paths.add("/" + where)

    with pytest.raises(AuthorizationError, match="exceeds 1048576 bytes"):
        flow(mcp, session, make_provider, send)


def test_metadata_that_is_not_a_json_object_is_refused(auth, mcp, session, make_provider, send):
    mcp.protected_resource_metadata = lambda: ["not", "an", "object"]  # type: ignore[method-assign]

    with pytest.raises(AuthorizationError, match="not a JSON object"):
        flow(mcp, session, make_provider, send)
    assert auth.requests == []


def test_metadata_redirect_to_plain_http_is_refused(auth, mcp, session, make_provider, send):
    auth.redirects["/.well-known/oauth-authorization-server"] = "http://auth.example.com/metadata"

    with pytest.raises(InsecureURLError):
        flow(mcp, session, make_provider, send)


def test_metadata_redirect_to_a_secure_url_is_followed(auth, mcp, session, make_provider, send):
    mcp.redirects["/.well-known/oauth-protected-resource/mcp"] = "/.well-known/oauth-protected-resource"
    mcp.prm_locations = {"root"}

    assert flow(mcp, session, make_provider, send).status_code == 200
    assert mcp.paths()[1:3] == [
        "GET /.well-known/oauth-protected-resource/mcp",
        "GET /.well-known/oauth-protected-resource",
    ]


def test_unreachable_challenge_url_falls_back_to_well_known(auth, mcp, session, make_provider, send):
    mcp.challenge_resource_metadata = "http://127.0.0.1:1/prm"

    assert flow(mcp, session, make_provider, send).status_code == 200
    assert mcp.paths()[1] == "GET /.well-known/oauth-protected-resource/mcp"
