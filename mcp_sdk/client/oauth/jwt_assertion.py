"""RFC 7523 JWT client assertions for ``private_key_jwt`` (SEP-1046), ES256 and RS256.

Written against the standard library only, so the SDK needs no crypto
dependency: DER parsing of the PEM key (PKCS#8, PKCS#1 RSA, SEC1 EC), RSASSA-
PKCS1-v1_5 with blinding (RFC 8017), and ECDSA on P-256 with deterministic
nonces (RFC 6979). Big-integer arithmetic in Python is not constant-time; the
key only ever signs short-lived assertions sent to the authorization server.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import math
import re
import secrets
import time
import typing as t

from ...errors import MCPError

#: Lifetime of an assertion, in seconds.
ASSERTION_LIFETIME = 300

SUPPORTED_ALGORITHMS = ("ES256", "RS256")

_OID_RSA = "1.2.840.113549.1.1.1"
_OID_EC = "1.2.840.10045.2.1"
_OID_P256 = "1.2.840.10045.3.1.7"
_SHA256_DIGEST_INFO = bytes.fromhex("3031300d060960864801650304020105000420")
_PEM = re.compile(rb"-----BEGIN ([A-Z ]+)-----(.+?)-----END \1-----", re.DOTALL)


class InvalidKeyError(MCPError, ValueError):
    """The private key cannot be read, or does not fit the signing algorithm."""


def _b64url(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


class JWTSigner:
    """Signs client assertions with one private key.

    :param private_key: PEM text: ``PRIVATE KEY`` (PKCS#8, unencrypted),
        ``RSA PRIVATE KEY`` or ``EC PRIVATE KEY``.
    :param algorithm: ``"ES256"`` (P-256 key) or ``"RS256"`` (RSA key, 2048 bits or more).
    """

    def __init__(self, private_key: str | bytes, algorithm: str) -> None:
        if algorithm not in SUPPORTED_ALGORITHMS:
            raise InvalidKeyError(f"signing_algorithm must be one of {', '.join(SUPPORTED_ALGORITHMS)}")
        kind, key = _load_pem(private_key)
        if algorithm == "RS256" and kind != "RSA":
            raise InvalidKeyError("RS256 needs an RSA private key")
        if algorithm == "ES256" and kind != "EC":
            raise InvalidKeyError("ES256 needs a P-256 EC private key")
        if kind == "RSA" and key[0].bit_length() < 2048:
            raise InvalidKeyError("RSA keys shorter than 2048 bits are refused")
        self.algorithm = algorithm
        self._key = key

    def sign(self, message: bytes) -> bytes:
        """The JWS signature of ``message`` (``r || s`` for ES256)."""
        if self.algorithm == "RS256":
            return _rsa_sign(self._key, message)
        return _p256_sign(self._key[0], message)

    def client_assertion(self, client_id: str, audience: str, now: float | None = None) -> str:
        """A compact JWT with ``iss``/``sub`` = ``client_id`` and ``aud`` = the issuer (RFC 7523 section 3)."""
        issued_at = int(time.time() if now is None else now)
        header = {"alg": self.algorithm, "typ": "JWT"}
        claims = {
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": issued_at,
            "exp": issued_at + ASSERTION_LIFETIME,
            "jti": secrets.token_urlsafe(16),
        }
        signing_input = ".".join(
            _b64url(json.dumps(part, separators=(",", ":")).encode()) for part in (header, claims)
        )
        return signing_input + "." + _b64url(self.sign(signing_input.encode("ascii")))

    def __repr__(self) -> str:
        return f"<JWTSigner algorithm={self.algorithm!r}>"


# --------------------------------------------------------------------- key parsing


def _load_pem(pem: str | bytes) -> tuple[str, tuple[int, ...]]:
    data = pem.encode("ascii", "replace") if isinstance(pem, str) else bytes(pem)
    match = _PEM.search(data)
    if match is None:
        raise InvalidKeyError("private_key is not a PEM private key")
    label = match.group(1).decode()
    try:
        der = base64.b64decode(b"".join(match.group(2).split()), validate=True)
        if label == "PRIVATE KEY":
            return _pkcs8(der)
        if label == "RSA PRIVATE KEY":
            return "RSA", _pkcs1(der)
        if label == "EC PRIVATE KEY":
            return "EC", _sec1(der, None)
    except (ValueError, IndexError):
        raise InvalidKeyError("private_key is not a readable unencrypted private key") from None
    raise InvalidKeyError(f"unsupported PEM block {label!r} (use an unencrypted PKCS#8 key)")


def _tlv(data: bytes, pos: int) -> tuple[int, int, int]:
    """Tag, start and end of the DER element at ``pos``."""
    tag = data[pos]
    length = data[pos + 1]
    pos += 2
    if length & 0x80:
        count = length & 0x7F
        if not 0 < count <= 4:
            raise ValueError("bad DER length")
        length = int.from_bytes(data[pos : pos + count], "big")
        pos += count
    if pos + length > len(data):
        raise ValueError("truncated DER")
    return tag, pos, pos + length


def _children(data: bytes, start: int, end: int) -> list[tuple[int, bytes]]:
    items = []
    while start < end:
        tag, value_start, value_end = _tlv(data, start)
        items.append((tag, data[value_start:value_end]))
        start = value_end
    return items


def _sequence(der: bytes) -> list[tuple[int, bytes]]:
    tag, start, end = _tlv(der, 0)
    if tag != 0x30:
        raise ValueError("not a DER sequence")
    return _children(der, start, end)


def _oid(value: bytes) -> str:
    parts = [value[0] // 40, value[0] % 40]
    number = 0
    for byte in value[1:]:
        number = (number << 7) | (byte & 0x7F)
        if not byte & 0x80:
            parts.append(number)
            number = 0
    return ".".join(map(str, parts))


def _pkcs8(der: bytes) -> tuple[str, tuple[int, ...]]:
    items = _sequence(der)
    algorithm = items[1][1]
    oids = [_oid(value) for tag, value in _children(algorithm, 0, len(algorithm)) if tag == 0x06]
    private = items[2][1]
    if oids[:1] == [_OID_RSA]:
        return "RSA", _pkcs1(private)
    if oids[:1] == [_OID_EC]:
        return "EC", _sec1(private, oids[1] if len(oids) > 1 else None)
    raise ValueError("unsupported key algorithm")


def _pkcs1(der: bytes) -> tuple[int, ...]:
    n, e, d, p, q, dp, dq, qinv = (int.from_bytes(value, "big") for tag, value in _sequence(der)[1:9])
    return n, e, d, p, q, dp, dq, qinv


def _sec1(der: bytes, curve: str | None) -> tuple[int, ...]:
    items = _sequence(der)
    scalar = int.from_bytes(items[1][1], "big")
    for tag, value in items[2:]:
        if tag == 0xA0:
            curve = _oid(_children(value, 0, len(value))[0][1])
    if curve != _OID_P256:
        raise ValueError("only P-256 EC keys are supported")
    if not 0 < scalar < _N:
        raise ValueError("EC private key out of range")
    return (scalar,)


# ---------------------------------------------------------------------------- RSA


def _rsa_sign(key: tuple[int, ...], message: bytes) -> bytes:
    n, e, d, p, q, dp, dq, qinv = key
    size = (n.bit_length() + 7) // 8
    digest_info = _SHA256_DIGEST_INFO + hashlib.sha256(message).digest()
    encoded = b"\x00\x01" + b"\xff" * (size - len(digest_info) - 3) + b"\x00" + digest_info
    m = int.from_bytes(encoded, "big")
    # Blinding: the private operation never runs on the attacker-visible value.
    while True:
        r = secrets.randbelow(n - 2) + 2
        if math.gcd(r, n) == 1:
            break
    blinded = (m * pow(r, e, n)) % n
    m1, m2 = pow(blinded, dp, p), pow(blinded, dq, q)
    signature = (m2 + q * ((qinv * (m1 - m2)) % p)) % n
    signature = (signature * pow(r, -1, n)) % n
    if pow(signature, e, n) != m:
        raise InvalidKeyError("RSA key is inconsistent")
    return signature.to_bytes(size, "big")


# -------------------------------------------------------------------- ECDSA P-256

_P = 0xFFFFFFFF00000001000000000000000000000000FFFFFFFFFFFFFFFFFFFFFFFF
_B = 0x5AC635D8AA3A93E7B3EBBD55769886BC651D06B0CC53B0F63BCE3C3E27D2604B
_N = 0xFFFFFFFF00000000FFFFFFFFFFFFFFFFBCE6FAADA7179E84F3B9CAC2FC632551
_G = (
    0x6B17D1F2E12C4247F8BCE6E563A440F277037D812DEB33A0F4A13945D898C296,
    0x4FE342E2FE1A7F9B8EE7EB4A7C0F9E162BCE33576B315ECECBB6406837BF51F5,
)

_Jacobian = t.Tuple[int, int, int]


def _double(point: _Jacobian) -> _Jacobian:
    x, y, z = point
    if y == 0 or z == 0:
        return (0, 1, 0)
    # a = -3: M = 3 (X - Z^2)(X + Z^2)
    z2 = z * z % _P
    m = 3 * (x - z2) * (x + z2) % _P
    s = 4 * x * y * y % _P
    x3 = (m * m - 2 * s) % _P
    y3 = (m * (s - x3) - 8 * pow(y, 4, _P)) % _P
    return x3, y3, 2 * y * z % _P


def _add(p1: _Jacobian, p2: _Jacobian) -> _Jacobian:
    if p1[2] == 0:
        return p2
    if p2[2] == 0:
        return p1
    x1, y1, z1 = p1
    x2, y2, z2 = p2
    z1s, z2s = z1 * z1 % _P, z2 * z2 % _P
    u1, u2 = x1 * z2s % _P, x2 * z1s % _P
    s1, s2 = y1 * z2s * z2 % _P, y2 * z1s * z1 % _P
    if u1 == u2:
        return _double(p1) if s1 == s2 else (0, 1, 0)
    h, r = (u2 - u1) % _P, (s2 - s1) % _P
    h2 = h * h % _P
    h3 = h * h2 % _P
    x3 = (r * r - h3 - 2 * u1 * h2) % _P
    y3 = (r * (u1 * h2 - x3) - s1 * h3) % _P
    return x3, y3, h * z1 * z2 % _P


def _multiply(k: int, point: tuple[int, int] = _G) -> tuple[int, int]:
    result: _Jacobian = (0, 1, 0)
    addend: _Jacobian = (point[0], point[1], 1)
    while k:
        if k & 1:
            result = _add(result, addend)
        addend = _double(addend)
        k >>= 1
    x, y, z = result
    if z == 0:
        raise ValueError("point at infinity")
    z_inv = pow(z, -1, _P)
    return x * z_inv * z_inv % _P, y * z_inv * z_inv * z_inv % _P


def _rfc6979_nonces(scalar: int, digest: bytes) -> t.Iterator[int]:
    """Deterministic ECDSA nonces (RFC 6979 section 3.2) for SHA-256 on P-256."""
    x = scalar.to_bytes(32, "big")
    h = (int.from_bytes(digest, "big") % _N).to_bytes(32, "big")
    v, k = b"\x01" * 32, b"\x00" * 32
    k = hmac.new(k, v + b"\x00" + x + h, hashlib.sha256).digest()
    v = hmac.new(k, v, hashlib.sha256).digest()
    k = hmac.new(k, v + b"\x01" + x + h, hashlib.sha256).digest()
    v = hmac.new(k, v, hashlib.sha256).digest()
    while True:
        v = hmac.new(k, v, hashlib.sha256).digest()
        candidate = int.from_bytes(v, "big")
        if 0 < candidate < _N:
            yield candidate
        k = hmac.new(k, v + b"\x00", hashlib.sha256).digest()
        v = hmac.new(k, v, hashlib.sha256).digest()


def _p256_sign(scalar: int, message: bytes) -> bytes:
    digest = hashlib.sha256(message).digest()
    e = int.from_bytes(digest, "big")
    for k in _rfc6979_nonces(scalar, digest):
        r = _multiply(k)[0] % _N
        if r == 0:
            continue
        s = pow(k, -1, _N) * (e + r * scalar) % _N
        if s != 0:
            return r.to_bytes(32, "big") + s.to_bytes(32, "big")
    raise AssertionError("unreachable")  # pragma: no cover


def p256_public_key(scalar: int) -> tuple[int, int]:
    """The public point of a P-256 private scalar."""
    return _multiply(scalar)


def p256_verify(public: tuple[int, int], message: bytes, signature: bytes) -> bool:
    """Check an ES256 (``r || s``) signature; used by tests and fixtures."""
    if len(signature) != 64:
        return False
    r, s = int.from_bytes(signature[:32], "big"), int.from_bytes(signature[32:], "big")
    if not (0 < r < _N and 0 < s < _N):
        return False
    e = int.from_bytes(hashlib.sha256(message).digest(), "big")
    w = pow(s, -1, _N)
    p1 = _multiply(e * w % _N)
    p2 = _multiply(r * w % _N, public)
    x, y, z = _add((p1[0], p1[1], 1), (p2[0], p2[1], 1))
    if z == 0:
        return False
    z_inv = pow(z, -1, _P)
    return x * z_inv * z_inv % _P % _N == r
