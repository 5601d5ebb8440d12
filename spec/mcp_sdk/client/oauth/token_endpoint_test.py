from __future__ import annotations

import base64

import pytest

from mcp_sdk.client.oauth import AuthorizationError
from mcp_sdk.client.oauth.token_endpoint import JWT_BEARER_ASSERTION_TYPE, client_authentication

ISSUER = "https://auth.example.com"


def test_basic_is_the_default_with_a_secret():
    fields, headers = client_authentication({"client_id": "id", "client_secret": "sec"}, ISSUER)
    assert fields == {}
    assert headers == {"Authorization": "Basic " + base64.b64encode(b"id:sec").decode()}


def test_basic_form_urlencodes_both_parts():
    info = {"client_id": "a b:c", "client_secret": "p@ss/wörd", "token_endpoint_auth_method": "client_secret_basic"}
    _, headers = client_authentication(info, ISSUER)
    assert base64.b64decode(headers["Authorization"][6:]) == b"a+b%3Ac:p%40ss%2Fw%C3%B6rd"


def test_post():
    info = {"client_id": "id", "client_secret": "sec", "token_endpoint_auth_method": "client_secret_post"}
    assert client_authentication(info, ISSUER) == ({"client_id": "id", "client_secret": "sec"}, {})


def test_none_and_public_clients():
    assert client_authentication({"client_id": "id", "token_endpoint_auth_method": "none"}, ISSUER) == ({"client_id": "id"}, {})
    info = {"client_id": "id", "client_secret": "ignored", "token_endpoint_auth_method": "none"}
    assert client_authentication(info, ISSUER) == ({"client_id": "id"}, {})
    assert client_authentication({"client_id": "id", "client_secret": "  "}, ISSUER) == ({"client_id": "id"}, {})


def test_private_key_jwt():
    audiences = []

    def assertion(audience):
        audiences.append(audience)
        return "signed.jwt.value"

    info = {"client_id": "id", "token_endpoint_auth_method": "private_key_jwt"}
    assert client_authentication(info, ISSUER, assertion) == (
        {"client_assertion_type": JWT_BEARER_ASSERTION_TYPE, "client_assertion": "signed.jwt.value"},
        {},
    )
    assert audiences == [ISSUER]
    with pytest.raises(AuthorizationError, match="no signing key"):
        client_authentication(info, ISSUER)


def test_client_id_is_required():
    with pytest.raises(AuthorizationError, match="no client_id"):
        client_authentication({"client_secret": "s"}, ISSUER)
