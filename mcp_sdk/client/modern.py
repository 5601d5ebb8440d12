"""The 2026-07-28 ("modern") era of the protocol, as the client speaks it.

A modern request opens no session: each one carries its protocol version, the
client's capabilities and identity in ``_meta`` (the *envelope*), and every
result says what it is in ``resultType``. This module holds what that takes:
the envelope, the result check, telling a modern server from a legacy one, and
the per-process memory of which era each server speaks.

https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
"""

from __future__ import annotations

import threading
import typing as t

from .. import error_codes
from .errors import ValidationError

#: The modern versions this client speaks, oldest first.
MODERN_VERSIONS: tuple[str, ...] = ("2026-07-28",)
LATEST_MODERN_VERSION = MODERN_VERSIONS[-1]

META_PROTOCOL_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CLIENT_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
META_CLIENT_INFO = "io.modelcontextprotocol/clientInfo"
META_LOG_LEVEL = "io.modelcontextprotocol/logLevel"
META_SUBSCRIPTION_ID = "io.modelcontextprotocol/subscriptionId"
META_SERVER_INFO = "io.modelcontextprotocol/serverInfo"

SERVER_DISCOVER = "server/discover"
SUBSCRIPTIONS_LISTEN = "subscriptions/listen"
NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED = "notifications/subscriptions/acknowledged"

COMPLETE = "complete"
INPUT_REQUIRED = "input_required"

#: JSON-RPC errors only a modern server sends: one of them means "modern, but adjust", never "legacy".
MODERN_ERROR_CODES = frozenset(
    {error_codes.HEADER_MISMATCH, error_codes.MISSING_REQUIRED_CLIENT_CAPABILITY, error_codes.UNSUPPORTED_PROTOCOL_VERSION}
)

MODES = ("auto", "modern", "legacy")
MODERN, LEGACY = "modern", "legacy"


class EraMemory:
    """Which era each server spoke, for the life of the process (thread-safe).

    Keys come from the transport (:meth:`Transport.era_key`): the URL for HTTP,
    the command line for stdio. The versioning section lets a client cache the
    answer per server, so a second connection does not probe again.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._eras: dict[str, str] = {}

    def recall(self, key: str | None) -> str | None:
        """The era remembered for ``key`` (``"modern"``/``"legacy"``), or None."""
        if key is None:
            return None
        with self._lock:
            return self._eras.get(key)

    def remember(self, key: str | None, era: str) -> None:
        """Remember that the server at ``key`` speaks ``era``."""
        if key is not None:
            with self._lock:
                self._eras[key] = era

    def forget(self, key: str | None = None) -> None:
        """Forget ``key`` (every server when None), so the next connection probes again."""
        with self._lock:
            if key is None:
                self._eras.clear()
            else:
                self._eras.pop(key, None)


#: The process-wide memory :meth:`Client.connect` consults in ``"auto"`` mode.
ERAS = EraMemory()


def era_key(transport: t.Any) -> str | None:
    """The transport's name for its server, or None when it has none (then nothing is remembered)."""
    key = getattr(transport, "era_key", None)
    return key() if callable(key) else None


def envelope(
    version: str,
    capabilities: t.Mapping[str, t.Any],
    client_info: t.Mapping[str, t.Any],
    log_level: str | None,
) -> dict[str, t.Any]:
    """The ``_meta`` entries every modern request carries."""
    meta: dict[str, t.Any] = {
        META_PROTOCOL_VERSION: version,
        META_CLIENT_CAPABILITIES: dict(capabilities),
        META_CLIENT_INFO: dict(client_info),
    }
    if log_level is not None:
        meta[META_LOG_LEVEL] = log_level
    return meta


def result_type(result: t.Mapping[str, t.Any], method: str, *, input_allowed: bool) -> str:
    """The result's ``resultType``: absent means ``"complete"``.

    :raises ValidationError: an unknown value, or ``input_required`` on a method that may not ask for input.
    """
    kind = result.get("resultType", COMPLETE)
    if kind == COMPLETE or (kind == INPUT_REQUIRED and input_allowed):
        return t.cast(str, kind)
    if kind == INPUT_REQUIRED:
        raise ValidationError(f"Response validation failed: {method} answered input_required, which it may not")
    raise ValidationError(f"Response validation failed: {method} answered an unknown resultType {kind!r:.100}")


def error_code(response: t.Mapping[str, t.Any]) -> int | None:
    """The code of an error response (None for a result or a malformed error)."""
    body = response.get("error")
    code = body.get("code") if isinstance(body, dict) else None
    return code if type(code) is int else None


def supported_versions(response: t.Mapping[str, t.Any]) -> list[str]:
    """The ``data.supported`` list of an ``UnsupportedProtocolVersion`` error (strings only)."""
    body = response.get("error")
    data = body.get("data") if isinstance(body, dict) else None
    supported = data.get("supported") if isinstance(data, dict) else None
    return [v for v in supported if isinstance(v, str)] if isinstance(supported, list) else []


def pick_version(offered: t.Iterable[str], ours: t.Sequence[str] = MODERN_VERSIONS) -> str | None:
    """The newest of ``ours`` that the server also offers."""
    offered = set(offered)
    return next((version for version in reversed(ours) if version in offered), None)


def is_discover_result(response: t.Mapping[str, t.Any]) -> bool:
    """Whether ``response`` carries a ``DiscoverResult`` (an object with a ``supportedVersions`` list)."""
    result = response.get("result")
    return isinstance(result, dict) and isinstance(result.get("supportedVersions"), list)


def server_info(result: t.Mapping[str, t.Any]) -> dict[str, t.Any] | None:
    """``serverInfo`` of a discover result, or the ``_meta`` one any modern result may carry."""
    info = result.get("serverInfo")
    if isinstance(info, dict):
        return info
    meta = result.get("_meta")
    info = meta.get(META_SERVER_INFO) if isinstance(meta, dict) else None
    return info if isinstance(info, dict) else None


__all__ = ["ERAS", "EraMemory", "LATEST_MODERN_VERSION", "MODERN_VERSIONS"]
