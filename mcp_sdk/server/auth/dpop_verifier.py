"""DPoP proof checking for a resource server (RFC 9449 section 7): ``BearerAuth(..., dpop=DPoPVerifier())``.

A DPoP-bound access token names the thumbprint of the client's key
(``cnf.jkt``); every request carrying it must come with a fresh proof signed by
that key, for this method and URL, hashing this token (``ath``). Proofs are
signed JWTs checked by PyJWT with ``cryptography`` (the ``mcp_sdk[auth]`` extra).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import threading
import time
import typing as t
from collections import OrderedDict
from urllib.parse import urlsplit, urlunsplit

from ..._jwk import access_token_hash, b64url, jwk_thumbprint
from ..._pyjwt import import_jwt
from ...errors import MCPError

#: Asymmetric algorithms accepted by default (RFC 9449 section 11.6: never ``none`` or HMAC).
DEFAULT_ALGORITHMS = ("ES256", "ES384", "ES512", "RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "EdDSA")
#: The longest proof looked at.
MAX_PROOF_LENGTH = 8 * 1024


class InvalidDPoPProofError(MCPError):
    """A request's DPoP proof is missing, malformed, stale, replayed or for another key, method or URL."""


class DPoPNonceRequiredError(InvalidDPoPProofError):
    """The proof lacks the server's current nonce: the client should retry with ``nonce`` (RFC 9449 section 9).

    :param message: what the proof lacks.
    :param nonce: the nonce to send in the ``DPoP-Nonce`` header.
    """

    def __init__(self, message: str, nonce: str) -> None:
        super().__init__(message)
        #: The nonce to send in the ``DPoP-Nonce`` header.
        self.nonce = nonce


def _target(url: str) -> str:
    parts = urlsplit(url)
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), parts.path.rstrip("/") or "/", "", ""))


class DPoPVerifier:
    """Checks DPoP proofs and remembers their ``jti`` for the replay window.

    :param required: refuse plain ``Bearer`` tokens altogether (only DPoP-bound ones pass).
    :param algorithms: the proof signing algorithms accepted (asymmetric only).
    :param max_age: seconds a proof's ``iat`` may lie in the past (and the replay window).
    :param leeway: seconds a proof's ``iat`` may lie in the future (clock skew).
    :param max_remembered: the most ``jti`` values kept; the oldest go first. One
        process remembers its own proofs: behind several workers a proof can be
        replayed once per worker within ``max_age``.
    :param require_nonce: demand a server nonce in every proof (RFC 9449 section
        9): a proof without the current one is answered ``401 use_dpop_nonce``
        with a ``DPoP-Nonce`` header. Nonces change every ``nonce_lifetime``
        seconds (the previous one stays good); they are HMACs of the time, so
        workers sharing ``nonce_secret`` (bytes) accept each other's.
    :raises ~mcp_sdk.MissingExtraError: without PyJWT and cryptography installed.
    :param nonce_lifetime: seconds each server nonce stays current (see ``require_nonce``).
    :param nonce_secret: the key nonces are HMACs with (default: random, this process's own).
    """

    def __init__(
        self,
        *,
        required: bool = False,
        algorithms: t.Sequence[str] = DEFAULT_ALGORITHMS,
        max_age: float = 300.0,
        leeway: float = 5.0,
        max_remembered: int = 100_000,
        require_nonce: bool = False,
        nonce_lifetime: float = 300.0,
        nonce_secret: bytes | None = None,
    ) -> None:
        self._jwt = import_jwt()
        refused = [name for name in algorithms if name == "none" or name.startswith("HS")]
        if refused or not algorithms:
            raise ValueError("DPoP proofs need asymmetric algorithms (not none or HS*)")
        self.required = required
        self.algorithms = tuple(algorithms)
        self.max_age = max_age
        self.leeway = leeway
        self.max_remembered = max_remembered
        self.require_nonce = require_nonce
        self.nonce_lifetime = nonce_lifetime
        self._nonce_secret = nonce_secret if nonce_secret is not None else secrets.token_bytes(32)
        self._seen: OrderedDict[str, float] = OrderedDict()
        self._lock = threading.Lock()

    def verify(self, proof: str | None, method: str, url: str, access_token: str, jkt: t.Any) -> None:
        """Check ``proof`` for a request carrying the DPoP-bound ``access_token``.

        :param url: the resource's URL (``htu`` is compared without query and fragment).
        :param jkt: the token's ``cnf.jkt``: the proof must be signed by that key.
        :raises InvalidDPoPProofError: naming what is wrong (never the proof or the token).
        :param proof: the request's ``DPoP`` header (None when missing).
        :param method: the request's HTTP method.
        :param access_token: the token the request carries.
        """
        if not isinstance(jkt, str) or not jkt:
            raise InvalidDPoPProofError("the access token is not DPoP-bound (no cnf.jkt)")
        header, claims = self._decode(proof)
        if jwk_thumbprint(header["jwk"]) != jkt:
            raise InvalidDPoPProofError("the DPoP proof key is not the key the token is bound to")
        if claims.get("htm") != method.upper():
            raise InvalidDPoPProofError("the DPoP proof htm does not match the request method")
        htu = claims.get("htu")
        if not isinstance(htu, str) or _target(htu) != _target(url) or "?" in htu or "#" in htu:
            raise InvalidDPoPProofError("the DPoP proof htu does not match the request URL")
        if claims.get("ath") != access_token_hash(access_token):
            raise InvalidDPoPProofError("the DPoP proof ath does not match the access token")
        if self.require_nonce:
            self._check_nonce(claims.get("nonce"))
        self._check_fresh(claims)

    def current_nonce(self) -> str:
        """The nonce proofs must carry now (with ``require_nonce``)."""
        return self._nonce_at(int(time.time() // self.nonce_lifetime))

    def _nonce_at(self, window: int) -> str:
        mac = hmac.new(self._nonce_secret, str(window).encode("ascii"), hashlib.sha256).digest()
        return f"{window}.{b64url(mac[:18])}"

    def _check_nonce(self, nonce: t.Any) -> None:
        window = int(time.time() // self.nonce_lifetime)
        valid = (self._nonce_at(window), self._nonce_at(window - 1))
        if not isinstance(nonce, str) or not any(hmac.compare_digest(nonce, good) for good in valid):
            raise DPoPNonceRequiredError("the DPoP proof needs the server's current nonce", self._nonce_at(window))

    def _decode(self, proof: str | None) -> tuple[dict[str, t.Any], dict[str, t.Any]]:
        jwt = self._jwt
        if not proof or len(proof) > MAX_PROOF_LENGTH or "," in proof or proof.count(".") != 2:
            raise InvalidDPoPProofError("missing or malformed DPoP proof (exactly one DPoP header is needed)")
        failure = None
        try:
            header = jwt.get_unverified_header(proof)
            algorithm = header.get("alg")
            jwk = header.get("jwk")
            if header.get("typ") != "dpop+jwt":
                failure = "the DPoP proof typ is not dpop+jwt"
            elif algorithm not in self.algorithms:
                failure = "the DPoP proof algorithm is not accepted"
            elif not isinstance(jwk, dict) or any(private in jwk for private in ("d", "p", "q", "k")):
                failure = "the DPoP proof jwk is not a public key"
            else:
                key = jwt.PyJWK(jwk, algorithm).key
                # Freshness is checked below, with this verifier's window and leeway.
                unchecked = {"verify_aud": False, "verify_exp": False, "verify_iat": False, "verify_nbf": False}
                claims = jwt.decode(proof, key, algorithms=[algorithm], options=unchecked)
        except (jwt.PyJWTError, ValueError, TypeError, KeyError):
            failure = "the DPoP proof signature or encoding is invalid"
        if failure is not None:
            raise InvalidDPoPProofError(failure)
        if not isinstance(claims, dict):
            raise InvalidDPoPProofError("the DPoP proof claims are not an object")
        return header, claims

    def _check_fresh(self, claims: dict[str, t.Any]) -> None:
        jti, issued_at = claims.get("jti"), claims.get("iat")
        if not isinstance(jti, str) or not jti or len(jti) > 256:
            raise InvalidDPoPProofError("the DPoP proof has no usable jti")
        if isinstance(issued_at, bool) or not isinstance(issued_at, (int, float)):
            raise InvalidDPoPProofError("the DPoP proof has no iat")
        now = time.time()
        if issued_at > now + self.leeway or issued_at < now - self.max_age:
            raise InvalidDPoPProofError("the DPoP proof is too old or from the future")
        with self._lock:
            while self._seen and (next(iter(self._seen.values())) < now - self.max_age - self.leeway):
                self._seen.popitem(last=False)
            if jti in self._seen:
                raise InvalidDPoPProofError("the DPoP proof was already used (replay)")
            self._seen[jti] = now
            while len(self._seen) > self.max_remembered:
                self._seen.popitem(last=False)

    def __repr__(self) -> str:
        return f"<DPoPVerifier required={self.required!r} max_age={self.max_age!r}>"


__all__ = ["DEFAULT_ALGORITHMS", "DPoPNonceRequiredError", "DPoPVerifier", "InvalidDPoPProofError", "jwk_thumbprint"]
