from __future__ import annotations

import base64
import hashlib
import json

import pytest

from mcp_sdk.client.oauth.jwt_assertion import (
    InvalidKeyError,
    JWTSigner,
    _load_pem,
    _p256_sign,
    p256_public_key,
    p256_verify,
)
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


def test_rfc6979_p256_sha256_vector():
    # RFC 6979 appendix A.2.5, message "sample".
    x = 0xC9AFA9D845BA75166B5C215767B1D6934E50C3DB36E89B127B8A622B120F6721
    signature = _p256_sign(x, b"sample")
    assert signature.hex().upper() == (
        "EFD48B2AACB6A8FD1140DD9CD45E81D69D2C877B56AAF991C34D0EA84EAF3716"
        "F7CB1C942D657C41D436C7A1B6E29F65F3E900DBB9AFF4064DC4AB2F843ACDA8"
    )
    public = p256_public_key(x)
    assert public == (
        0x60FED4BA255A9D31C961EB74C6356D68C049B8923B61FA6CE669622E60F29FB6,
        0x7903FE1008B8BC99A41AE9E95628BC64F2F1B20C2D7E9F5177A3C294D4462299,
    )
    assert p256_verify(public, b"sample", signature)
    assert not p256_verify(public, b"other", signature)
    assert not p256_verify(public, b"sample", signature[:-1])


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
    public = p256_public_key(_load_pem(pem)[1][0])
    assert p256_verify(public, f"{header}.{claims}".encode(), b64decode(signature))


@pytest.mark.parametrize("pem", [TEST_RSA_PRIVATE_KEY, TEST_RSA_PKCS1_PRIVATE_KEY])
def test_rs256_signature(pem):
    n, e = _load_pem(pem)[1][:2]
    signature = JWTSigner(pem, "RS256").sign(b"message")
    digest_info = bytes.fromhex("3031300d060960864801650304020105000420") + hashlib.sha256(b"message").digest()
    recovered = pow(int.from_bytes(signature, "big"), e, n).to_bytes(256, "big")
    assert len(signature) == 256
    assert recovered == b"\x00\x01" + b"\xff" * (256 - len(digest_info) - 3) + b"\x00" + digest_info


@pytest.mark.parametrize(
    "pem, algorithm, message",
    [
        (TEST_EC_PRIVATE_KEY, "RS256", "RSA private key"),
        (TEST_RSA_PRIVATE_KEY, "ES256", "P-256"),
        (TEST_EC_PRIVATE_KEY, "HS256", "signing_algorithm"),
        (SMALL_RSA_KEY, "RS256", "2048"),
        (P384_KEY, "ES256", "readable"),
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
