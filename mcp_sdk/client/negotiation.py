"""How :meth:`Client.connect` picks the protocol era: ``server/discover`` first, ``initialize`` as the fallback.

``"auto"`` probes with ``server/discover``: a ``DiscoverResult`` or a modern
error means a 2026-07-28 server, anything else (another error, an HTTP 4xx
without a modern error body, a timeout) a legacy one, which then gets
``initialize``. The answer is remembered per server for the process, so the
next connection to a legacy server costs no probe.

https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
"""

from __future__ import annotations

import typing as t

import logging

from .. import error_codes, json_rpc, methods
from ..errors import RequestTimeoutError, TransportError
from ..protocol_version import LATEST_VERSION, SUPPORTED_VERSIONS
from . import modern
from .errors import ServerError, ValidationError

if t.TYPE_CHECKING:
    from . import Client

logger = logging.getLogger("mcp_sdk.client")


def connect(client: Client, mode: str, version: str | None, timeout: float | None,
            probe_timeout: float | None) -> dict[str, t.Any]:
    """Agree on an era with the server; return the ``DiscoverResult`` or the ``InitializeResult``.

    :raises ValueError: an unknown ``mode``, or a ``version`` the mode cannot speak.
    """
    if mode not in modern.MODES:
        raise ValueError(f"mode must be one of {', '.join(modern.MODES)}, not {mode!r}")
    if version is not None and version not in modern.MODERN_VERSIONS and version not in SUPPORTED_VERSIONS:
        raise ValueError(f"unknown protocol version {version!r}")
    if mode == "modern" and version in SUPPORTED_VERSIONS:
        raise ValueError(f"mode='modern' cannot speak {version}, a version negotiated with initialize")
    if mode == "legacy" and version in modern.MODERN_VERSIONS:
        raise ValueError(f"mode='legacy' cannot speak {version}")
    key = modern.era_key(client.transport)
    wants_legacy = mode == "legacy" or version in SUPPORTED_VERSIONS
    if wants_legacy:
        return initialize(client, version, timeout)
    if mode == "auto" and modern.ERAS.recall(key) == modern.LEGACY:
        try:
            return initialize(client, version, timeout)
        except (ServerError, ValidationError):
            # The server may have moved on since it was remembered: probe it afresh.
            modern.ERAS.forget(key)
    result = discover(client, version or modern.LATEST_MODERN_VERSION, timeout,
                      probe_timeout if mode == "auto" else None)
    if result is not None:
        modern.ERAS.remember(key, modern.MODERN)
        # Code written against initialize reads these two: give them the same place here.
        return {"protocolVersion": client.protocol_version, "serverInfo": client.server_info, **result}
    modern.ERAS.remember(key, modern.LEGACY)
    return initialize(client, None, timeout)


def initialize(client: Client, protocol_version: str | None, timeout: float | None) -> dict[str, t.Any]:
    """The legacy handshake: ``initialize``, then ``notifications/initialized``."""
    client._use_legacy()
    params = {
        "protocolVersion": protocol_version or LATEST_VERSION,
        "capabilities": {**client.capabilities(), **client._extra_capabilities},
        "clientInfo": client._client_info,
    }
    result = client._result(client._request(methods.INITIALIZE, params, timeout=timeout))
    version = result.get("protocolVersion")
    if version not in SUPPORTED_VERSIONS:
        raise ValidationError(
            f"Server chose protocol version {version!r}, which this client does not support "
            f"(supported: {', '.join(SUPPORTED_VERSIONS)})"
        )
    if not isinstance(result.get("capabilities", {}), dict) or not isinstance(result.get("serverInfo", {}), dict):
        raise ValidationError("Response validation failed: malformed initialize result")
    client.initialize_result = result
    if getattr(client.transport, "send_notification", None) is None:
        # A transport written to the Ruby gem's interface has only send_request.
        logger.warning("%s has no send_notification; notifications/initialized was not sent", type(client.transport).__name__)
    else:
        client.transport.send_notification(json_rpc.notification(methods.NOTIFICATIONS_INITIALIZED))
    if client._log_level is not None:
        client.set_logging_level(client._log_level, timeout=timeout)
    return result


def discover(client: Client, version: str, timeout: float | None,
             probe_timeout: float | None) -> dict[str, t.Any] | None:
    """Send ``server/discover``; the ``DiscoverResult`` of a modern server, or None for a legacy one.

    With ``probe_timeout`` (auto mode), no answer within it or a transport-level
    refusal mean legacy; without it (modern mode) they raise.

    :raises ServerError: a modern server refused in a way retrying cannot fix.
    """
    wait = timeout if probe_timeout is None else min(probe_timeout, timeout) if timeout is not None else probe_timeout
    for attempt in (1, 2):
        client._use_modern(version)
        try:
            response = client._request(modern.SERVER_DISCOVER, None, timeout=wait, raise_errors=False)
        except (TransportError, RequestTimeoutError):
            client._use_legacy()
            if probe_timeout is None:
                raise
            return None
        if modern.is_discover_result(response):
            result: dict[str, t.Any] = response["result"]
            modern.result_type(result, modern.SERVER_DISCOVER, input_allowed=False)
            offered = [v for v in result["supportedVersions"] if isinstance(v, str)]
            if version not in offered:
                chosen = modern.pick_version(offered)
                if chosen is None:
                    break  # a server of a newer era only, or one that lists only legacy versions
                client._use_modern(chosen)
            client.discover_result = result
            return result
        code = modern.error_code(response)
        if code == error_codes.UNSUPPORTED_PROTOCOL_VERSION and attempt == 1:
            chosen = modern.pick_version(modern.supported_versions(response))
            if chosen is not None:
                version = chosen
                continue
            if any(v in SUPPORTED_VERSIONS for v in modern.supported_versions(response)):
                break  # a dual-era server that speaks none of our modern versions
        if code in modern.MODERN_ERROR_CODES or probe_timeout is None:
            client._use_legacy()
            body = response.get("error") or {}
            if "error" not in response:
                raise ValidationError("Response validation failed: server/discover answered without a DiscoverResult")
            raise ServerError(str(body.get("message", "")), t.cast(int, code), body.get("data"))
        break
    client._use_legacy()
    if probe_timeout is None:
        raise ValidationError(f"the server speaks none of this client's modern versions ({', '.join(modern.MODERN_VERSIONS)})")
    return None


__all__ = ["connect", "discover", "initialize"]
