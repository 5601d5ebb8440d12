from __future__ import annotations

import pytest

from mcp_sdk.client.oauth import parse_www_authenticate
from mcp_sdk.client.oauth.www_authenticate import Challenge, bearer_challenge


def test_single_bearer_challenge():
    header = 'Bearer resource_metadata="https://example.com/.well-known/oauth-protected-resource", scope="a b"'
    assert parse_www_authenticate(header) == [
        Challenge("Bearer", {"resource_metadata": "https://example.com/.well-known/oauth-protected-resource", "scope": "a b"})
    ]


def test_quoted_strings_with_commas_and_escapes():
    header = r'Bearer realm="a, b", error_description="say \"hi\", then go", scope="x"'
    assert bearer_challenge(header) == {"realm": "a, b", "error_description": 'say "hi", then go', "scope": "x"}


def test_several_challenges():
    header = 'Basic realm="simple", Bearer error="insufficient_scope", scope="mcp:write", DPoP algs="ES256 PS256"'
    assert parse_www_authenticate(header) == [
        Challenge("Basic", {"realm": "simple"}),
        Challenge("Bearer", {"error": "insufficient_scope", "scope": "mcp:write"}),
        Challenge("DPoP", {"algs": "ES256 PS256"}),
    ]


def test_rfc9110_example():
    header = 'Newauth realm="apps", type=1, title="Login to \\"apps\\"", Basic realm="simple"'
    assert parse_www_authenticate(header) == [
        Challenge("Newauth", {"realm": "apps", "type": "1", "title": 'Login to "apps"'}),
        Challenge("Basic", {"realm": "simple"}),
    ]


def test_token68_and_bare_schemes():
    assert parse_www_authenticate("Negotiate abc123==, Bearer") == [
        Challenge("Negotiate", {}, "abc123=="),
        Challenge("Bearer", {}),
    ]
    assert bearer_challenge("Bearer") == {}


def test_case_insensitive_scheme_and_names_and_bare_values():
    header = "bearer Resource_Metadata=https://example.com/prm, ERROR=invalid_token"
    assert bearer_challenge(header) == {"resource_metadata": "https://example.com/prm", "error": "invalid_token"}


def test_repeated_headers_joined_by_requests():
    header = 'Basic realm="x", Bearer scope="a", resource_metadata="https://e.com/m"'
    assert bearer_challenge(header) == {"scope": "a", "resource_metadata": "https://e.com/m"}


def test_first_parameter_occurrence_wins():
    assert bearer_challenge('Bearer scope="a", scope="b"') == {"scope": "a"}


@pytest.mark.parametrize("header", [None, "", "   ", ",,,", 'Basic realm="x"', '"quoted"'])
def test_no_bearer_challenge(header):
    assert bearer_challenge(header) is None


def test_unterminated_quote_does_not_crash():
    assert parse_www_authenticate('Bearer scope="a b') == [Challenge("Bearer", {})]
