"""How :meth:`Client.connect` picks the protocol era: ``server/discover`` first, ``initialize`` as the fallback.

``"auto"`` probes with ``server/discover``: a ``DiscoverResult`` or a modern
error means a 2026-07-28 server, anything else (another error, an HTTP 4xx
without a modern error body, a timeout) a legacy one, which then gets
``initialize``. The answer is remembered per server for the process, so the
next connection to a legacy server costs no probe (:data:`ERAS`).

https://modelcontextprotocol.io/specification/2026-07-28/basic/transports/stdio#backward-compatibility
"""

from __future__ import annotations

import logging
import threading
import typing as t

from .. import error_codes, json_rpc, methods
from ..errors import RequestTimeoutError, TransportError
from ..protocol_version import LATEST_VERSION, SUPPORTED_VERSIONS
from . import wire_2026
from .era import Era
from .era_2025 import LegacyEra
from .era_2026 import ModernEra
from .exceptions import ServerError, ValidationError
from .request_sender import RequestSender, result_of

logger = logging.getLogger("mcp_sdk.client")


#: The modes :meth:`Client.connect` takes: probe, 2026-07-28 only, ``initialize`` only.
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


class Handshake(t.NamedTuple):
    """What :func:`connect` agreed with the server, for the client to take on."""

    #: The era to speak from now on.
    era: Era
    #: What :meth:`Client.connect` returns: the ``InitializeResult``, or the ``DiscoverResult``
    #: with ``protocolVersion`` and ``serverInfo`` added.
    result: dict[str, t.Any]
    #: The server's ``InitializeResult`` (legacy era), else None.
    initialize_result: dict[str, t.Any] | None
    #: The server's ``DiscoverResult`` (modern era), else None.
    discover_result: dict[str, t.Any] | None


def connect(sender: RequestSender, mode: str, version: str | None, timeout: float | None,
            probe_timeout: float | None) -> Handshake:
    """Agree on an era with the server, sending through ``sender`` (its own era is left as it is).

    :raises ValueError: an unknown ``mode``, or a ``version`` the mode cannot speak.
    :raises ServerError: the server refused.
    :raises ValidationError: a malformed result, or no version both sides speak.
    """
    _check_mode(mode, version)
    key = era_key(sender.transport)
    wants_legacy = mode == "legacy" or version in SUPPORTED_VERSIONS
    if wants_legacy:
        return initialize(sender, version, timeout)
    if mode == "auto" and ERAS.recall(key) == LEGACY:
        try:
            return initialize(sender, version, timeout)
        except (ServerError, ValidationError):
            # The server may have moved on since it was remembered: probe it afresh.
            ERAS.forget(key)
    found = discover(sender, version or wire_2026.LATEST_MODERN_VERSION, timeout,
                     probe_timeout if mode == "auto" else None)
    if found is not None:
        ERAS.remember(key, MODERN)
        era, result = found
        # Code written against initialize reads these two: give them the same place here.
        combined = {"protocolVersion": era.protocol_version, "serverInfo": wire_2026.server_info(result), **result}
        return Handshake(era, combined, None, result)
    ERAS.remember(key, LEGACY)
    return initialize(sender, None, timeout)


def _check_mode(mode: str, version: str | None) -> None:
    """:raises ValueError: an unknown ``mode`` or ``version``, or a ``version`` that ``mode`` cannot speak."""
    if mode not in MODES:
        raise ValueError(f"mode must be one of {', '.join(MODES)}, not {mode!r}")
    if version is not None and version not in wire_2026.MODERN_VERSIONS and version not in SUPPORTED_VERSIONS:
        raise ValueError(f"unknown protocol version {version!r}")
    if mode == "modern" and version in SUPPORTED_VERSIONS:
        raise ValueError(f"mode='modern' cannot speak {version}, a version negotiated with initialize")
    if mode == "legacy" and version in wire_2026.MODERN_VERSIONS:
        raise ValueError(f"mode='legacy' cannot speak {version}")


def initialize(sender: RequestSender, protocol_version: str | None, timeout: float | None) -> Handshake:
    """The legacy handshake: ``initialize``, then ``notifications/initialized`` (and ``logging/setLevel``
    when the client has a log level)."""
    params = {
        "protocolVersion": protocol_version or LATEST_VERSION,
        "capabilities": sender.capabilities(),
        "clientInfo": sender.client_info,
    }
    result = result_of(sender.request(methods.INITIALIZE, params, era=LegacyEra(), timeout=timeout))
    version = result.get("protocolVersion")
    if version not in SUPPORTED_VERSIONS:
        raise ValidationError(
            f"Server chose protocol version {version!r}, which this client does not support "
            f"(supported: {', '.join(SUPPORTED_VERSIONS)})"
        )
    if not isinstance(result.get("capabilities", {}), dict) or not isinstance(result.get("serverInfo", {}), dict):
        raise ValidationError("Response validation failed: malformed initialize result")
    era = LegacyEra(t.cast(str, version))
    era.level_per_request = "logging" not in result.get("capabilities", {})
    if getattr(sender.transport, "send_notification", None) is None:
        # A transport written to the Ruby gem's interface has only send_request.
        logger.warning("%s has no send_notification; notifications/initialized was not sent", type(sender.transport).__name__)
    else:
        sender.transport.send_notification(json_rpc.notification(methods.NOTIFICATIONS_INITIALIZED))
    if sender.log_level is not None:
        era.carry_log_level(sender, sender.log_level, timeout)
    return Handshake(era, result, result, None)


def discover(sender: RequestSender, version: str, timeout: float | None,
             probe_timeout: float | None) -> tuple[ModernEra, dict[str, t.Any]] | None:
    """Send ``server/discover``; for a modern server the era to speak and its ``DiscoverResult``,
    for a legacy one None.

    With ``probe_timeout`` (auto mode), no answer within it or a transport-level
    refusal mean legacy; without it (modern mode) they raise.

    :raises ServerError: a modern server refused in a way retrying cannot fix.
    """
    wait = _discover_wait(timeout, probe_timeout)
    for attempt in (1, 2):
        era = ModernEra(version)
        try:
            response = sender.request(wire_2026.SERVER_DISCOVER, None, era=era, timeout=wait, raise_errors=False)
        except (TransportError, RequestTimeoutError):
            if probe_timeout is None:
                raise
            return None
        if wire_2026.is_discover_result(response):
            found = _agreed_era(response["result"], era)
            if found is None:
                break  # a server of a newer era only, or one that lists only legacy versions
            return found
        code = wire_2026.error_code(response)
        if code == error_codes.UNSUPPORTED_PROTOCOL_VERSION and attempt == 1:
            chosen = wire_2026.pick_version(wire_2026.supported_versions(response))
            if chosen is not None:
                version = chosen
                continue
            if any(v in SUPPORTED_VERSIONS for v in wire_2026.supported_versions(response)):
                break  # a dual-era server that speaks none of our modern versions
        if code in wire_2026.MODERN_ERROR_CODES or probe_timeout is None:
            raise _refusal(response, code)
        break
    if probe_timeout is None:
        raise ValidationError(f"the server speaks none of this client's modern versions ({', '.join(wire_2026.MODERN_VERSIONS)})")
    return None


def _discover_wait(timeout: float | None, probe_timeout: float | None) -> float | None:
    """How long to wait for ``server/discover``: the call's ``timeout``, cut to ``probe_timeout`` when probing."""
    if probe_timeout is None:
        return timeout
    return min(probe_timeout, timeout) if timeout is not None else probe_timeout


def _agreed_era(result: dict[str, t.Any], era: ModernEra) -> tuple[ModernEra, dict[str, t.Any]] | None:
    """The era to speak with a server whose ``DiscoverResult`` is ``result`` (``era``, the one
    discover asked in, if it offers its version, else the best modern version it offers), and that
    result; None when it offers none of ours.

    :raises ValidationError: a malformed result.
    """
    wire_2026.result_type(result, wire_2026.SERVER_DISCOVER, input_allowed=False)
    offered = [v for v in result["supportedVersions"] if isinstance(v, str)]
    if era.protocol_version in offered:
        return era, result
    chosen = wire_2026.pick_version(offered)
    return None if chosen is None else (ModernEra(chosen), result)


def _refusal(response: dict[str, t.Any], code: t.Any) -> ValidationError | ServerError:
    """The error for a ``server/discover`` answered with the error ``code`` (or without a result)."""
    body = response.get("error") or {}
    if "error" not in response:
        return ValidationError("Response validation failed: server/discover answered without a DiscoverResult")
    return ServerError(str(body.get("message", "")), t.cast(int, code), body.get("data"))


__all__ = ["ERAS", "EraMemory", "Handshake", "connect", "discover", "initialize"]
