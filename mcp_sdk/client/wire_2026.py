"""The 2026-07-28 wire as the client speaks it: its names and the helpers that read and write them.

A 2026-07-28 request opens no session: each one carries its protocol version, the
client's capabilities and identity in ``_meta`` (the *envelope*), and every
result says what it is in ``resultType``. This module holds what that takes:
the ``_meta`` keys and method names, the envelope, the result check, and telling a
2026-07-28 server from a 2025 one by its answer. Names here say *modern* for 2026-07-28 and
*legacy* for the versions negotiated with ``initialize``, the words of ``Client(mode=...)``.

https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
"""

from __future__ import annotations

import typing as t

from .. import error_codes
from .exceptions import ValidationError

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


__all__ = ["LATEST_MODERN_VERSION", "MODERN_VERSIONS"]
