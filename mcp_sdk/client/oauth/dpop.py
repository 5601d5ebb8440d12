"""DPoP (RFC 9449): proof-of-possession tokens for the OAuth client.

A :class:`DPoPKey` holds one asymmetric key pair for the life of a client. Every
token request and every request to the MCP server carries a fresh proof (a JWT
signed by that key naming the method and URL); the authorization server binds the
token to the key's thumbprint, so a stolen token is useless without the key.
Signed by PyJWT with ``cryptography`` (the ``mcp_sdk[auth]`` extra).
"""

from __future__ import annotations

import secrets
import threading
import time
import typing as t
from urllib.parse import urlsplit, urlunsplit

from ..._jwk import access_token_hash, b64url, jwk_thumbprint
from ..._pyjwt import import_jwt
from .jwt_assertion import InvalidKeyError

#: The algorithms a :class:`DPoPKey` signs with; ES256 is the default.
SUPPORTED_ALGORITHMS = ("ES256", "ES384", "RS256", "PS256")
#: The ``typ`` header of a proof (RFC 9449 section 4.2).
PROOF_TYPE = "dpop+jwt"
#: How many servers' nonces are remembered at once.
MAX_NONCES = 64


def _int_bytes(value: int, length: int | None = None) -> bytes:
    size = length if length is not None else max(1, (value.bit_length() + 7) // 8)
    return value.to_bytes(size, "big")


def proof_target(url: str) -> str:
    """The ``htu`` of a request to ``url``: the URL without query and fragment (RFC 9449 section 4.2)."""
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path or "/", "", ""))


def _origin(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class DPoPKey:
    """One DPoP key pair, the proofs it signs, and the nonces servers hand out.

    :param private_key: PEM of an existing key (to keep tokens bound across
        restarts); ``None`` generates a fresh key in memory.
    :param algorithm: ``"ES256"`` (default, P-256), ``"ES384"`` (P-384),
        ``"RS256"`` or ``"PS256"`` (RSA, 2048 bits or more).
    :raises InvalidKeyError: for an unsupported algorithm or a key that does not fit it.
    :raises ~mcp_sdk.MissingExtraError: without PyJWT and cryptography installed.

    The private key never leaves this object: not in proofs, reprs or logs.
    """

    def __init__(self, private_key: str | bytes | None = None, algorithm: str = "ES256") -> None:
        if algorithm not in SUPPORTED_ALGORITHMS:
            raise InvalidKeyError(f"DPoP algorithm must be one of {', '.join(SUPPORTED_ALGORITHMS)}")
        self._jwt = import_jwt()
        from cryptography.hazmat.primitives.asymmetric import ec, rsa
        from cryptography.hazmat.primitives.serialization import load_pem_private_key

        curve = {"ES256": ec.SECP256R1, "ES384": ec.SECP384R1}.get(algorithm)
        key: t.Any
        if private_key is None:
            key = ec.generate_private_key(curve()) if curve is not None else rsa.generate_private_key(65537, 2048)
        else:
            data = private_key.encode("ascii", "replace") if isinstance(private_key, str) else bytes(private_key)
            try:
                key = load_pem_private_key(data, password=None)
            except (ValueError, TypeError):
                raise InvalidKeyError("the DPoP private_key is not a readable unencrypted PEM private key") from None
        if curve is not None:
            if not isinstance(key, ec.EllipticCurvePrivateKey) or not isinstance(key.curve, curve):
                raise InvalidKeyError(f"{algorithm} needs a {curve.name} EC private key")
        elif not isinstance(key, rsa.RSAPrivateKey) or key.key_size < 2048:
            raise InvalidKeyError(f"{algorithm} needs an RSA private key of 2048 bits or more")
        self.algorithm = algorithm
        self._key = key
        #: The public key as a JWK (embedded in every proof).
        self.public_jwk: dict[str, str] = self._public_jwk()
        #: RFC 7638 thumbprint of :attr:`public_jwk`: what a bound token's ``cnf.jkt`` names.
        self.thumbprint = jwk_thumbprint(self.public_jwk)
        self._nonces: dict[str, str] = {}
        self._lock = threading.Lock()

    def _public_jwk(self) -> dict[str, str]:
        numbers = self._key.public_key().public_numbers()
        if self.algorithm.startswith("ES"):
            size = (self._key.curve.key_size + 7) // 8
            crv = "P-256" if self.algorithm == "ES256" else "P-384"
            return {
                "kty": "EC",
                "crv": crv,
                "x": b64url(_int_bytes(numbers.x, size)),
                "y": b64url(_int_bytes(numbers.y, size)),
            }
        return {"kty": "RSA", "e": b64url(_int_bytes(numbers.e)), "n": b64url(_int_bytes(numbers.n))}

    def proof(self, method: str, url: str, access_token: str | None = None, nonce: str | None = None) -> str:
        """A fresh proof for one request: ``htm``, ``htu``, ``iat``, a random ``jti``.

        :param access_token: adds ``ath`` (required when the request carries a token).
        :param nonce: the server's nonce; by default the last one ``url``'s origin sent.
        :param method: the request's HTTP method (``htm``).
        :param url: the request's URL (``htu``, without query and fragment).
        :returns: the signed proof JWT, for the ``DPoP`` header.
        """
        claims: dict[str, t.Any] = {
            "jti": secrets.token_urlsafe(18),
            "htm": method.upper(),
            "htu": proof_target(url),
            "iat": int(time.time()),
        }
        if access_token is not None:
            claims["ath"] = access_token_hash(access_token)
        nonce = nonce if nonce is not None else self.nonce_for(url)
        if nonce is not None:
            claims["nonce"] = nonce
        headers = {"typ": PROOF_TYPE, "jwk": self.public_jwk}
        return t.cast(str, self._jwt.encode(claims, self._key, algorithm=self.algorithm, headers=headers))

    def nonce_for(self, url: str) -> str | None:
        """The last nonce ``url``'s origin sent in a ``DPoP-Nonce`` header, or ``None``.

        :param url: a URL of the server (only its origin counts).
        """
        with self._lock:
            return self._nonces.get(_origin(url))

    def remember_nonce(self, url: str, headers: t.Mapping[str, str]) -> bool:
        """Keep the ``DPoP-Nonce`` of a response from ``url``; ``True`` when it is new.

        :param url: the URL the response came from.
        :param headers: the response's headers.
        """
        nonce = headers.get("DPoP-Nonce")
        # RFC 9449 section 8.1: a nonce is NQCHAR (printable ASCII, no quote or backslash).
        if not isinstance(nonce, str) or not nonce or len(nonce) > 1024:
            return False
        if any(not (0x21 <= ord(ch) <= 0x7E) or ch in '"\\' for ch in nonce):
            return False
        origin = _origin(url)
        with self._lock:
            if self._nonces.get(origin) == nonce:
                return False
            if origin not in self._nonces and len(self._nonces) >= MAX_NONCES:
                self._nonces.pop(next(iter(self._nonces)))
            self._nonces[origin] = nonce
            return True

    def __repr__(self) -> str:
        return f"<DPoPKey algorithm={self.algorithm!r} thumbprint={self.thumbprint!r}>"

    def __reduce__(self) -> t.NoReturn:
        raise TypeError("a DPoPKey cannot be pickled: its private key stays in this process")


def resolve_dpop(dpop: bool | DPoPKey | None) -> DPoPKey | None:
    """A provider's ``dpop`` argument as a key: ``True`` makes a fresh ES256 key."""
    if dpop is None or dpop is False:
        return None
    if dpop is True:
        return DPoPKey()
    if isinstance(dpop, DPoPKey):
        return dpop
    raise TypeError("dpop must be True, False, None or a DPoPKey")


__all__ = ["DPoPKey", "SUPPORTED_ALGORITHMS", "access_token_hash", "jwk_thumbprint", "proof_target"]
