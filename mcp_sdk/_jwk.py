"""JWK helpers both DPoP sides share (RFC 7638 thumbprints, RFC 9449 ``ath``)."""

from __future__ import annotations

import base64
import hashlib
import json
import typing as t

#: The members of each public key type that its thumbprint hashes (RFC 7638 section 3.2).
_THUMBPRINT_MEMBERS = {"EC": ("crv", "kty", "x", "y"), "RSA": ("e", "kty", "n"), "OKP": ("crv", "kty", "x")}


def b64url(data: bytes) -> str:
    """Unpadded base64url."""
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def jwk_thumbprint(jwk: t.Mapping[str, t.Any]) -> str:
    """The RFC 7638 SHA-256 thumbprint of a public JWK (the ``cnf.jkt`` of a DPoP-bound token).

    :raises ValueError: for a key type other than ``EC``, ``RSA`` or ``OKP``, or missing members.
    """
    members = _THUMBPRINT_MEMBERS.get(str(jwk.get("kty")))
    if members is None or not all(isinstance(jwk.get(name), str) for name in members):
        raise ValueError("not a public EC, RSA or OKP JWK")
    canonical = json.dumps({name: jwk[name] for name in members}, separators=(",", ":"), sort_keys=True)
    return b64url(hashlib.sha256(canonical.encode("utf-8")).digest())


def access_token_hash(access_token: str) -> str:
    """The ``ath`` claim: base64url of the SHA-256 of the token's ASCII bytes."""
    return b64url(hashlib.sha256(access_token.encode("ascii", "replace")).digest())
