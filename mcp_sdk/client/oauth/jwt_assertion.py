"""RFC 7523 JWT client assertions for ``private_key_jwt`` (SEP-1046), ES256 and RS256.

Signed by PyJWT with ``cryptography`` (the ``mcp_sdk[auth]`` extra, imported when
the first :class:`JWTSigner` is made): constant-time, well-reviewed key handling
instead of arithmetic of our own.
"""

from __future__ import annotations

import secrets
import time
import typing as t

from ..._pyjwt import import_jwt
from ...errors import MCPError

#: Lifetime of an assertion, in seconds.
ASSERTION_LIFETIME = 300

SUPPORTED_ALGORITHMS = ("ES256", "RS256")


class InvalidKeyError(MCPError, ValueError):
    """The private key cannot be read, or does not fit the signing algorithm."""


class JWTSigner:
    """Signs client assertions with one private key.

    :param private_key: PEM text: ``PRIVATE KEY`` (PKCS#8, unencrypted),
        ``RSA PRIVATE KEY`` or ``EC PRIVATE KEY``.
    :param algorithm: ``"ES256"`` (P-256 key) or ``"RS256"`` (RSA key, 2048 bits or more).
    :raises InvalidKeyError: for a key that cannot be read or does not fit ``algorithm``.
    :raises ~mcp_sdk.MissingExtraError: without PyJWT and cryptography installed.
    """

    def __init__(self, private_key: str | bytes, algorithm: str) -> None:
        if algorithm not in SUPPORTED_ALGORITHMS:
            raise InvalidKeyError(f"signing_algorithm must be one of {', '.join(SUPPORTED_ALGORITHMS)}")
        self._jwt = import_jwt()
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        data = private_key.encode("ascii", "replace") if isinstance(private_key, str) else bytes(private_key)
        if b"-----BEGIN" not in data:
            raise InvalidKeyError("private_key is not a PEM private key")
        if b"-----BEGIN ENCRYPTED PRIVATE KEY-----" in data:
            raise InvalidKeyError("unsupported encrypted PEM key (use an unencrypted PKCS#8 key)")
        try:
            key = load_pem_private_key(data, password=None)
        except (ValueError, TypeError):
            raise InvalidKeyError("private_key is not a readable unencrypted private key") from None
        if algorithm == "RS256":
            if not isinstance(key, rsa.RSAPrivateKey):
                raise InvalidKeyError("RS256 needs an RSA private key")
            if key.key_size < 2048:
                raise InvalidKeyError("RSA keys shorter than 2048 bits are refused")
        elif not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, ec.SECP256R1):
            raise InvalidKeyError("ES256 needs a P-256 EC private key")
        self.algorithm = algorithm
        self._key = key

    def sign(self, message: bytes) -> bytes:
        """The JWS signature of ``message`` (``r || s`` for ES256)."""
        algorithm = self._jwt.algorithms.get_default_algorithms()[self.algorithm]
        return t.cast(bytes, algorithm.sign(message, self._key))

    def client_assertion(self, client_id: str, audience: str, now: float | None = None) -> str:
        """A compact JWT with ``iss``/``sub`` = ``client_id`` and ``aud`` = the issuer (RFC 7523 section 3)."""
        issued_at = int(time.time() if now is None else now)
        claims = {
            "iss": client_id,
            "sub": client_id,
            "aud": audience,
            "iat": issued_at,
            "exp": issued_at + ASSERTION_LIFETIME,
            "jti": secrets.token_urlsafe(16),
        }
        return t.cast(str, self._jwt.encode(claims, self._key, algorithm=self.algorithm, headers={"typ": "JWT"}))

    def __repr__(self) -> str:
        return f"<JWTSigner algorithm={self.algorithm!r}>"


__all__ = ["ASSERTION_LIFETIME", "InvalidKeyError", "JWTSigner", "SUPPORTED_ALGORITHMS"]
