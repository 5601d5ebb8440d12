"""Integrity-protected ``requestState`` for 2026-07-28 multi round-trip requests.

``requestState`` travels through the client, so the server must treat it as
attacker-controlled (basic/patterns/mrtr.mdx, "Server Requirements"). A sealed
state is ``base64url(payload) "." base64url(HMAC-SHA256(key, payload))``; the
payload binds the state to the request it was issued for (method, target, a
digest of the arguments), to the caller's principal when there is one, and to
an expiry. :meth:`RequestStateCodec.open` refuses anything else with -32602.

The state is signed, not encrypted: it holds what the client itself sent
(earlier answers) and what the handler chose to put in its own ``requestState``.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import secrets
import time
import typing as t

from ..errors import InvalidParamsError

#: The largest ``requestState`` accepted back (a sealed state past this was never ours).
MAX_REQUEST_STATE_BYTES = 1024 * 1024

#: Used when the configuration sets no keys: random, and different in every process.
_PROCESS_KEY = secrets.token_bytes(32)

_VERSION = 1

_NOT_OURS = "Invalid params: requestState is not one this server issued"
#: The refusal of a state another process sealed with its own random key (no keys were configured).
SEALED_ELSEWHERE = (
    "Invalid params: requestState was sealed by another server process, whose key this process does not "
    "have: give every process the same keys (Configuration(request_state_keys=[...])) or share them on "
    "Redis (StreamableHTTPTransport(redis_url=...))"
)


def key_id(key: bytes) -> str:
    """A short public name of ``key`` (an HMAC of a constant: it tells keys apart, and reveals nothing of them)."""
    return hmac.new(key, b"mcp_sdk requestState key id", hashlib.sha256).hexdigest()[:16]


def arguments_digest(value: t.Any) -> str:
    """A SHA-256 digest of a JSON value, independent of key order."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


class RequestStateCodec:
    """Seals and opens ``requestState`` values.

    :param keys: the secrets; the first signs, every one verifies (key rotation).
        None: this process's random key.
    :param ttl: seconds a sealed state stays valid.
    :param clock: ``time.time``, replaceable in tests.
    """

    def __init__(
        self, keys: t.Sequence[bytes] | None, ttl: float, clock: t.Callable[[], float] = time.time
    ) -> None:
        self._keys: tuple[bytes, ...] = tuple(keys) if keys else (_PROCESS_KEY,)
        #: Whether the keys are this process's own random one (then a state of another key came from another process).
        self.per_process = not keys
        self._key_ids = frozenset(key_id(key) for key in self._keys)
        self.ttl = ttl
        self._clock = clock

    def seal(self, binding: dict[str, t.Any], data: dict[str, t.Any]) -> str:
        """A state carrying ``data`` that :meth:`open` accepts only with the same ``binding``, until it expires."""
        payload = {"v": _VERSION, "k": key_id(self._keys[0]), "b": binding, "exp": int(self._clock() + self.ttl) + 1, "d": data}
        body = json.dumps(payload, separators=(",", ":"), ensure_ascii=False, allow_nan=False).encode("utf-8")
        signature = hmac.new(self._keys[0], body, hashlib.sha256).digest()
        return f"{_b64(body)}.{_b64(signature)}"

    def open(self, state: t.Any, binding: dict[str, t.Any]) -> dict[str, t.Any]:
        """The ``data`` sealed into ``state``.

        :raises InvalidParamsError: the state is malformed, forged, expired, or was
            issued for another request or principal.
        """
        if type(state) is not str or len(state) > MAX_REQUEST_STATE_BYTES:
            raise InvalidParamsError(_NOT_OURS)
        body_text, _, signature_text = state.partition(".")
        try:
            body = _unb64(body_text)
            signature = _unb64(signature_text)
        except (binascii.Error, ValueError):
            raise InvalidParamsError(_NOT_OURS) from None
        if not any(hmac.compare_digest(hmac.new(key, body, hashlib.sha256).digest(), signature) for key in self._keys):
            raise InvalidParamsError(SEALED_ELSEWHERE if self._sealed_elsewhere(body) else _NOT_OURS)
        try:
            payload = json.loads(body)
        except ValueError:  # signed by us, so never; but a key shared with another program may sign anything
            raise InvalidParamsError(_NOT_OURS) from None
        if type(payload) is not dict or payload.get("v") != _VERSION or type(payload.get("d")) is not dict:
            raise InvalidParamsError(_NOT_OURS)
        expiry = payload.get("exp")
        if type(expiry) is not int or expiry < self._clock():
            raise InvalidParamsError("Invalid params: requestState has expired; send the request again without it")
        if payload.get("b") != binding:
            raise InvalidParamsError("Invalid params: requestState was issued for another request")
        return t.cast("dict[str, t.Any]", payload["d"])

    def _sealed_elsewhere(self, body: bytes) -> bool:
        """Whether a state that failed verification names a key another process of this server holds.

        Only said when this process signs with its own random key: the likely cause is then a
        deployment of several processes without shared keys. (The name is not verified; it only
        chooses the error message.)
        """
        if not self.per_process:
            return False
        try:
            payload = json.loads(body)
        except (ValueError, RecursionError):
            return False
        named = payload.get("k") if type(payload) is dict else None
        return type(named) is str and named not in self._key_ids


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    if not text or not text.isascii():
        raise ValueError("empty")
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


__all__ = ["MAX_REQUEST_STATE_BYTES", "RequestStateCodec", "SEALED_ELSEWHERE", "arguments_digest", "key_id"]
