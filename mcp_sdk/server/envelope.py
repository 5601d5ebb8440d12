"""The 2026-07-28 request envelope: a modern request's ``_meta``, read, and a modern result, stamped.

Which era a client message belongs to is decided once, where it enters the server
(:func:`~.request.is_modern`, read by :class:`~.request.Incoming`); this module reads the
envelope of a message found modern. Handlers never ask: they see a session (2025) or a
:class:`~mcp_sdk.server.exchange_2026.ModernExchange` (2026) with the same interface.

https://modelcontextprotocol.io/specification/2026-07-28/basic/versioning
("Backward Compatibility"): a request carrying the per-request ``_meta``
fields is served statelessly; ``initialize`` opens a 2025-era session.
"""

from __future__ import annotations

import typing as t

from .. import methods
from .. import protocol_version as versions
from ..errors import InvalidParamsError, UnsupportedProtocolVersionError
from .request import CLIENT_CAPABILITIES_KEY as CLIENT_CAPABILITIES_KEY
from .request import MODERN_ONLY_METHODS as MODERN_ONLY_METHODS
from .request import PROTOCOL_VERSION_KEY as PROTOCOL_VERSION_KEY
from .request import is_modern as is_modern

CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"
SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"

#: Methods of the 2025 era a modern request cannot call (-32601, HTTP 404).
REMOVED_METHODS = frozenset(
    {
        methods.INITIALIZE,
        methods.PING,
        methods.LOGGING_SET_LEVEL,
        methods.RESOURCES_SUBSCRIBE,
        methods.RESOURCES_UNSUBSCRIBE,
    }
)

#: Results that carry ``ttlMs`` and ``cacheScope`` (server/utilities/caching.mdx).
CACHEABLE_METHODS = frozenset(
    {
        methods.SERVER_DISCOVER,
        methods.TOOLS_LIST,
        methods.PROMPTS_LIST,
        methods.RESOURCES_LIST,
        methods.RESOURCES_TEMPLATES_LIST,
        methods.RESOURCES_READ,
    }
)

#: Requests that may answer ``resultType: "input_required"`` (basic/patterns/mrtr.mdx).
INPUT_REQUIRED_METHODS = frozenset({methods.TOOLS_CALL, methods.PROMPTS_GET, methods.RESOURCES_READ})


def carries_envelope(message: t.Any) -> bool:
    """Whether a decoded message is a modern request: it names a modern-only method, or its
    ``params._meta`` carries one of the per-request protocol fields.

    A message with a malformed envelope (one field of the two) is still modern, so that
    it gets the modern error (-32602) rather than being served as part of a session.
    """
    return type(message) is dict and is_modern(message.get("method"), message.get("params"))


def required_meta(params: t.Any) -> dict[str, t.Any]:
    """``params._meta``, once it is an object carrying both required per-request fields.

    :raises InvalidParamsError: it is not (-32602).
    """
    meta = params.get("_meta") if type(params) is dict else None
    if type(meta) is not dict:
        raise InvalidParamsError(
            f"Invalid params: params._meta must be an object carrying {PROTOCOL_VERSION_KEY!r} "
            f"and {CLIENT_CAPABILITIES_KEY!r}"
        )
    if PROTOCOL_VERSION_KEY not in meta or CLIENT_CAPABILITIES_KEY not in meta:
        missing = [key for key in (PROTOCOL_VERSION_KEY, CLIENT_CAPABILITIES_KEY) if key not in meta]
        raise InvalidParamsError(f"Invalid params: params._meta is missing {' and '.join(map(repr, missing))}")
    return meta


class Envelope:
    """What a 2026-07-28 request says about itself in ``params._meta``.

    :ivar protocol_version: the request's protocol version (one of :data:`~mcp_sdk.protocol_version.MODERN_VERSIONS`).
    :ivar client_capabilities: the capabilities the client declared for this request.
    :ivar client_info: ``clientInfo``, when sent.
    :ivar log_level: the lowest level of ``notifications/message`` the client wants for
        this request; None: none at all.
    """

    __slots__ = ("protocol_version", "client_capabilities", "client_info", "log_level")

    def __init__(
        self,
        protocol_version: str,
        client_capabilities: dict[str, t.Any],
        client_info: dict[str, t.Any] | None = None,
        log_level: str | None = None,
    ) -> None:
        self.protocol_version = protocol_version
        self.client_capabilities = client_capabilities
        self.client_info = client_info
        self.log_level = log_level

    @classmethod
    def read(cls, params: t.Any) -> Envelope:
        """The envelope of a modern request's ``params``.

        :raises InvalidParamsError: ``_meta`` or a required field is missing or malformed (-32602).
        :raises UnsupportedProtocolVersionError: the version is not a modern one served here (-32022).
        """
        meta = params.get("_meta") if type(params) is dict else None
        if type(meta) is not dict or PROTOCOL_VERSION_KEY not in meta or CLIENT_CAPABILITIES_KEY not in meta:
            meta = required_meta(params)  # raises, saying what is missing
        version = meta[PROTOCOL_VERSION_KEY]
        if type(version) is not str:
            raise InvalidParamsError(f"Invalid params: {PROTOCOL_VERSION_KEY!r} must be a string")
        if version not in versions.MODERN_VERSIONS:
            raise UnsupportedProtocolVersionError(version, versions.MODERN_VERSIONS)
        capabilities = meta[CLIENT_CAPABILITIES_KEY]
        if type(capabilities) is not dict:
            raise InvalidParamsError(f"Invalid params: {CLIENT_CAPABILITIES_KEY!r} must be an object")
        client_info = meta.get(CLIENT_INFO_KEY)
        if client_info is not None and type(client_info) is not dict:
            raise InvalidParamsError(f"Invalid params: {CLIENT_INFO_KEY!r} must be an object")
        log_level = meta.get(LOG_LEVEL_KEY)
        if log_level is not None and (type(log_level) is not str or log_level not in methods.LOG_SEVERITY):
            raise InvalidParamsError(
                f"Invalid params: {LOG_LEVEL_KEY!r} must be one of {', '.join(methods.LOG_LEVELS)}"
            )
        return cls(version, capabilities, client_info, log_level)

    def __repr__(self) -> str:
        return f"<Envelope version={self.protocol_version!r} log_level={self.log_level!r}>"


#: The envelope's four fields: protocolVersion, clientCapabilities, clientInfo (or None), logLevel (or None).
EnvelopeFields = t.Tuple[str, t.Dict[str, t.Any], t.Optional[t.Dict[str, t.Any]], t.Optional[str]]


def envelope_fields(params: t.Any) -> EnvelopeFields:
    """The fields :meth:`Envelope.read` reads from a modern request's ``params``, without building
    the :class:`Envelope` (the usual, well-formed envelope is checked in one pass).

    :raises InvalidParamsError: as :meth:`Envelope.read`.
    :raises UnsupportedProtocolVersionError: as :meth:`Envelope.read`.
    """
    meta = params.get("_meta") if type(params) is dict else None
    if type(meta) is dict:
        version = meta.get(PROTOCOL_VERSION_KEY)
        capabilities = meta.get(CLIENT_CAPABILITIES_KEY)
        client_info = meta.get(CLIENT_INFO_KEY)
        log_level = meta.get(LOG_LEVEL_KEY)
        if (
            version in versions.MODERN_VERSIONS
            and type(capabilities) is dict
            and (client_info is None or type(client_info) is dict)
            and (log_level is None or (type(log_level) is str and log_level in methods.LOG_SEVERITY))
        ):
            return version, capabilities, client_info, log_level
    envelope = Envelope.read(params)  # says what is wrong (a well-formed envelope returned above)
    return envelope.protocol_version, envelope.client_capabilities, envelope.client_info, envelope.log_level


def stamp(result: t.Any, server_info: dict[str, t.Any], result_type: str = "complete") -> dict[str, t.Any]:
    """A modern result: ``result`` with ``resultType`` and ``_meta["io.modelcontextprotocol/serverInfo"]``.

    ``result`` itself is not changed (it may be a cached listing's page): the stamped result is
    one copy of it, with a copy of its ``_meta`` when it has one.
    """
    if type(result) is not dict:
        return {"_meta": {SERVER_INFO_KEY: server_info}, "resultType": result_type}
    stamped = result.copy()
    meta = result.get("_meta")
    stamped["_meta"] = {**meta, SERVER_INFO_KEY: server_info} if type(meta) is dict else {SERVER_INFO_KEY: server_info}
    if "resultType" not in stamped:
        stamped["resultType"] = result_type
    return stamped


__all__ = [
    "CACHEABLE_METHODS",
    "CLIENT_CAPABILITIES_KEY",
    "CLIENT_INFO_KEY",
    "Envelope",
    "EnvelopeFields",
    "INPUT_REQUIRED_METHODS",
    "LOG_LEVEL_KEY",
    "MODERN_ONLY_METHODS",
    "PROTOCOL_VERSION_KEY",
    "REMOVED_METHODS",
    "SERVER_INFO_KEY",
    "SUBSCRIPTION_ID_KEY",
    "carries_envelope",
    "envelope_fields",
    "is_modern",
    "required_meta",
    "stamp",
]
