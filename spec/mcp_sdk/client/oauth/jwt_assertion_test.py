from __future__ import annotations

import base64
import hashlib
import json

import pytest

import jwt

from mcp_sdk.client.oauth.jwt_assertion import InvalidKeyError, JWTSigner
from spec.support.oauth_fixture import (
    TEST_EC_PRIVATE_KEY,
    TEST_EC_SEC1_PRIVATE_KEY,
    TEST_RSA_PKCS1_PRIVATE_KEY,
    TEST_RSA_PRIVATE_KEY,
)

SMALL_RSA_KEY = """\
-----BEGIN PRIVATE KEY-----
MIIBUwIBADANBgkqhkiG9w0BAQEFAASCAT0wggE5AgEAAkEAxGXkFmwhObzbdCev
/BwbBdOrld7UHqJE300ncQh4UqqBPhr14+TJOdvYMHhGKTduRXdWYcpP7i4/Ojw8
54TNWwIDAQABAkBKoxY9VzaBRL55tCNzQhMa8chBmn8ubSiTXDTjBf8EGtE4WctP
/OyddtZQG7pmQy8TrCOs7sDJNEoEVicL0f5xAiEA8iUsvBPVYTyS42OVjvxpn8zK
D3vL9e61QrTFvnTvhLUCIQDPoqIq1CYN3LpU/66ow7LiHYirzZuzMky8DBdCIfzj
zwIgLxQ3PGIGzJ8AWCGWhHRi/OTOLHB/WVON/mgzQjJuFzkCIH6011NdfQ9uiELA
eJxCOFJmBXYaFY7H/i2vDy5rQUDfAiBsBjSIZgFfD/frSp6Ybs2qOMB7KlmMJ+v7
v/44ER0kVQ==
-----END PRIVATE KEY-----
"""

P384_KEY = """\
-----BEGIN PRIVATE KEY-----
MIG2AgEAMBAGByqGSM49AgEGBSuBBAAiBIGeMIGbAgEBBDCvKGrZ4ktcqJc/5dy3
fP7buG96vSNgYqGYCILD/Yyl6AJOarDQIj7HZXYtv+oy/d2hZANiAATXcUqbSpv+
MZyKOlF10rQGEWBF5phbwf3XP3hNq4ja+nsxDL0yWJ+/UHos9VwogQTTgzYEvpFT
LfdyeK4Oo2PiguW4MUXqhNdHb+O6FaOrCZZcqKG27mI3URm+D/XCwxQ=
-----END PRIVATE KEY-----
"""


def b64decode(value):
    return base64.urlsafe_b64decode(value + "=" * (-len(value) % 4))


def public_key(pem):
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    return load_pem_private_key(pem.encode(), password=None).public_key()


@pytest.mark.parametrize("pem", [TEST_EC_PRIVATE_KEY, TEST_EC_SEC1_PRIVATE_KEY])
def test_es256_assertion(pem):
    token = JWTSigner(pem, "ES256").client_assertion("client", "https://auth.example.com", now=1_700_000_000)
    header, claims, signature = token.split(".")
    assert json.loads(b64decode(header)) == {"alg": "ES256", "typ": "JWT"}
    decoded = json.loads(b64decode(claims))
    jti = decoded.pop("jti")
    assert len(jti) >= 16
    assert decoded == {
        "iss": "client",
        "sub": "client",
        "aud": "https://auth.example.com",
        "iat": 1_700_000_000,
        "exp": 1_700_000_300,
    }
    assert len(b64decode(signature)) == 64  # JWS r || s, not DER
    verified = jwt.decode(token, public_key(pem), algorithms=["ES256"], audience="https://auth.example.com", options={"verify_exp": False})
    assert verified["sub"] == "client"


@pytest.mark.parametrize("pem", [TEST_RSA_PRIVATE_KEY, TEST_RSA_PKCS1_PRIVATE_KEY])
def test_rs256_signature(pem):
    numbers = public_key(pem).public_numbers()
    n, e = numbers.n, numbers.e
    signature = JWTSigner(pem, "RS256").sign(b"message")
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420") + hashlib.sha256(b"message").digest()
    recovered = pow(int.from_bytes(signature, "big"), e, n).to_bytes(256, "big")
    assert len(signature) == 256
    assert recovered == b"\x00\x01" + b"\xff" * (256 - len(digest_info) - 3) + b"\x00" + digest_info
    token = JWTSigner(pem, "RS256").client_assertion("client", "https://auth.example.com")
    assert jwt.decode(token, public_key(pem), algorithms=["RS256"], audience="https://auth.example.com")["iss"] == "client"


def test_es256_signatures_verify_and_differ():
    signer = JWTSigner(TEST_EC_PRIVATE_KEY, "ES256")
    first, second = signer.sign(b"sample"), signer.sign(b"sample")
    algorithm = jwt.algorithms.get_default_algorithms()["ES256"]
    key = public_key(TEST_EC_PRIVATE_KEY)
    assert algorithm.verify(b"sample", key, first) and algorithm.verify(b"sample", key, second)
    assert not algorithm.verify(b"other", key, first)


@pytest.mark.parametrize(
    "pem, algorithm, message",
    [
        (TEST_EC_PRIVATE_KEY, "RS256", "RSA private key"),
        (TEST_RSA_PRIVATE_KEY, "ES256", "P-256"),
        (TEST_EC_PRIVATE_KEY, "HS256", "signing_algorithm"),
        (SMALL_RSA_KEY, "RS256", "2048"),
        (P384_KEY, "ES256", "P-256"),
        ("-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----", "ES256", "readable"),
        ("-----BEGIN ENCRYPTED PRIVATE KEY-----\nAAAA\n-----END ENCRYPTED PRIVATE KEY-----", "ES256", "unsupported"),
        ("garbage", "ES256", "not a PEM"),
    ],
)
def test_unusable_keys(pem, algorithm, message):
    with pytest.raises(InvalidKeyError, match=message):
        JWTSigner(pem, algorithm)


def test_bytes_pem_and_repr():
    signer = JWTSigner(TEST_EC_PRIVATE_KEY.encode(), "ES256")
    assert repr(signer) == "<JWTSigner algorithm='ES256'>"
