"""Server configuration: hooks for errors and instrumentation, protocol version, validation.

A server's own :class:`Configuration` is merged over the process-wide default
(``mcp_sdk.configure(...)``): what the server's sets wins.
"""

from __future__ import annotations

import threading
import typing as t

from . import protocol_version as versions

ExceptionReporter = t.Callable[[BaseException, t.Dict[str, t.Any]], None]
AroundRequest = t.Callable[[t.Dict[str, t.Any], t.Callable[[], t.Any]], t.Any]
InstrumentationCallback = t.Callable[[t.Dict[str, t.Any]], None]

_UNSET: t.Any = object()

#: The shortest ``request_state_keys`` entry accepted (HMAC-SHA256 wants a 256-bit key).
MIN_REQUEST_STATE_KEY_BYTES = 32

#: Default seconds a tool waits for the client to answer a server-to-client request.
#: Generous, because elicitation waits on a person.
DEFAULT_SERVER_REQUEST_TIMEOUT = 300.0
#: Default seconds a 2026-07-28 ``requestState`` stays valid (MRTR): long enough for a person to answer.
DEFAULT_REQUEST_STATE_TTL = 600.0


class Configuration:
    """Settings of a server.

    :param exception_reporter: ``fn(exception, context)``; ``context`` is
        ``{"request": <raw request>}`` or ``{"notification": "tools_list_changed"}``.
    :param around_request: ``fn(data, request_handler)``; must call
        ``request_handler()`` (its return value is not used). ``data["method"]`` is set
        before; ``tool_name``, ``tool_arguments``, ``prompt_name``,
        ``resource_uri``, ``error`` and ``client`` after.
    :param instrumentation_callback: ``fn(data)`` after each request, with
        ``data["duration"]`` in seconds (soft-deprecated: prefer ``around_request``).
    :param protocol_version: the newest version the server negotiates; None for the latest.
    :param validate_tool_call_arguments: check ``tools/call`` arguments against the input schema.
    :param validate_tool_call_results: check successful results' ``structuredContent``
        against the output schema.
    :param server_request_timeout: seconds a server-to-client request waits for its answer.
    :param request_state_keys: secrets (``str`` or ``bytes``, 32 bytes or more) that sign the
        ``requestState`` of 2026-07-28 multi round-trip requests; the first signs, all verify
        (rotation). Unset: a random key per process, so several processes serving one
        endpoint must share keys.
    :param request_state_ttl: seconds a ``requestState`` stays valid.
    :raises ValueError: for an unsupported ``protocol_version`` or a short key.
    """

    #: The settings' names.
    FIELDS: t.ClassVar[tuple[str, ...]] = (
        "exception_reporter",
        "around_request",
        "instrumentation_callback",
        "protocol_version",
        "validate_tool_call_arguments",
        "validate_tool_call_results",
        "server_request_timeout",
        "request_state_keys",
        "request_state_ttl",
    )
    _DEFAULTS: t.ClassVar[dict[str, t.Any]] = {
        "exception_reporter": None,
        "around_request": None,
        "instrumentation_callback": None,
        "protocol_version": None,
        "validate_tool_call_arguments": True,
        "validate_tool_call_results": False,
        "server_request_timeout": DEFAULT_SERVER_REQUEST_TIMEOUT,
        "request_state_keys": None,
        "request_state_ttl": DEFAULT_REQUEST_STATE_TTL,
    }

    # The settings read on every request are plain attributes (a property costs a call each
    # time); assigning one goes through __setattr__, which checks it and notes it as set.
    #: ``fn(exception, context)`` called with each exception a handler raises (None: none); setting a non-callable raises ``TypeError``.
    exception_reporter: ExceptionReporter | None
    #: ``fn(data, request_handler)`` wrapped around each request (None: none); it must call ``request_handler()``.
    around_request: AroundRequest | None
    #: ``fn(data)`` called after each request with ``data["duration"]`` in seconds (soft-deprecated: prefer :attr:`around_request`).
    instrumentation_callback: InstrumentationCallback | None
    #: Whether ``tools/call`` arguments are checked against the tool's input schema (default True).
    validate_tool_call_arguments: bool
    #: Whether successful results' ``structuredContent`` is checked against the output schema (default False).
    validate_tool_call_results: bool
    #: Seconds a server-to-client request waits for its answer; setting a non-positive number raises ``ValueError``.
    server_request_timeout: float
    #: Seconds a ``requestState`` stays valid; setting a non-positive number raises ``ValueError``.
    request_state_ttl: float
    _values: dict[str, t.Any]

    def __init__(
        self,
        exception_reporter: ExceptionReporter | None = _UNSET,
        around_request: AroundRequest | None = _UNSET,
        instrumentation_callback: InstrumentationCallback | None = _UNSET,
        protocol_version: str | None = _UNSET,
        validate_tool_call_arguments: bool = _UNSET,
        validate_tool_call_results: bool = _UNSET,
        server_request_timeout: float = _UNSET,
        request_state_keys: t.Sequence[str | bytes] | None = _UNSET,
        request_state_ttl: float = _UNSET,
    ) -> None:
        object.__setattr__(self, "_values", {})
        for name in _CHECKS:
            object.__setattr__(self, name, self._DEFAULTS[name])
        given = {
            "exception_reporter": exception_reporter,
            "around_request": around_request,
            "instrumentation_callback": instrumentation_callback,
            "protocol_version": protocol_version,
            "validate_tool_call_arguments": validate_tool_call_arguments,
            "validate_tool_call_results": validate_tool_call_results,
            "server_request_timeout": server_request_timeout,
            "request_state_keys": request_state_keys,
            "request_state_ttl": request_state_ttl,
        }
        for name, value in given.items():
            if value is not _UNSET:
                setattr(self, name, value)

    def __setattr__(self, name: str, value: t.Any) -> None:
        check = _CHECKS.get(name)
        if check is None:  # protocol_version and request_state_keys are properties
            object.__setattr__(self, name, value)
            return
        value = check(name, value)
        self._values[name] = value
        object.__setattr__(self, name, value)

    def _get(self, name: str) -> t.Any:
        return self._values.get(name, self._DEFAULTS[name])

    @property
    def protocol_version(self) -> str:
        """The newest protocol version the server negotiates (the latest when unset)."""
        return t.cast(str, self._get("protocol_version") or versions.LATEST_VERSION)

    @protocol_version.setter
    def protocol_version(self, value: str | None) -> None:
        if value is not None and not versions.is_supported(value):
            raise ValueError(
                f"protocol_version must be one of {', '.join(versions.SUPPORTED_VERSIONS)} (or None), not {value!r}"
            )
        self._values["protocol_version"] = value

    @property
    def request_state_keys(self) -> tuple[bytes, ...] | None:
        """The keys (as ``bytes``) that sign and verify ``requestState``; None: a random key per process.

        Setting them takes ``str`` or ``bytes`` keys of 32 bytes or more; the first signs, all verify.
        A short key or an empty list raises ``ValueError``.
        """
        return t.cast("tuple[bytes, ...] | None", self._get("request_state_keys"))

    @request_state_keys.setter
    def request_state_keys(self, value: t.Sequence[str | bytes] | None) -> None:
        if value is None:
            self._values["request_state_keys"] = None
            return
        if isinstance(value, (str, bytes)) or not value:
            raise ValueError("request_state_keys must be a non-empty list of keys (str or bytes)")
        keys = []
        for key in value:
            raw = key.encode("utf-8") if isinstance(key, str) else key
            if not isinstance(raw, bytes) or len(raw) < MIN_REQUEST_STATE_KEY_BYTES:
                raise ValueError(f"each request_state_keys key must be at least {MIN_REQUEST_STATE_KEY_BYTES} bytes")
            keys.append(raw)
        self._values["request_state_keys"] = tuple(keys)

    def is_set(self, name: str) -> bool:
        """Whether ``name`` was set explicitly (rather than left at its default).

        :param name: one of :attr:`FIELDS`.
        """
        return name in self._values

    def explicit_settings(self) -> dict[str, t.Any]:
        """The settings set explicitly (name -> value), which :meth:`merge` carries over."""
        return dict(self._values)

    def merge(self, other: Configuration | None) -> Configuration:
        """A new configuration: this one's settings, overridden by what ``other`` sets.

        :param other: the configuration whose explicit settings win, or None.
        :returns: the merged configuration (neither is changed).
        """
        settings = self.explicit_settings()
        if other is not None:
            settings.update(other.explicit_settings())
        return Configuration(**settings)

    def __repr__(self) -> str:
        def shown(name: str) -> str:
            value = self._get(name)
            if name == "request_state_keys" and value is not None:
                return f"<{len(value)} keys>"  # secrets never appear in a repr
            return repr(value)

        fields = ", ".join(f"{name}={shown(name)}" for name in self.FIELDS)
        return f"Configuration({fields})"


def _callable_or_none(name: str, value: t.Any) -> t.Any:
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable or None, not {type(value).__name__}")
    return value


def _seconds(name: str, value: t.Any) -> float:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
        raise ValueError(f"{name} must be a positive number of seconds, not {value!r}")
    return float(value)


def _bool(name: str, value: t.Any) -> bool:
    return bool(value)


#: The settings kept as plain attributes: name -> its check (returns the value to keep, or raises).
_CHECKS: dict[str, t.Callable[[str, t.Any], t.Any]] = {
    "exception_reporter": _callable_or_none,
    "around_request": _callable_or_none,
    "instrumentation_callback": _callable_or_none,
    "validate_tool_call_arguments": _bool,
    "validate_tool_call_results": _bool,
    "server_request_timeout": _seconds,
    "request_state_ttl": _seconds,
}


_default = Configuration()
_default_lock = threading.Lock()


def configure(**settings: t.Any) -> Configuration:
    """Set fields of the process-wide default configuration; return it.

    ``mcp_sdk.configure(around_request=fn, exception_reporter=fn)``. Servers
    created afterwards merge their own configuration over it.

    :param settings: any of :attr:`Configuration.FIELDS`, as keywords.
    :returns: the process-wide default :class:`Configuration`.
    :raises TypeError: an unknown setting, or a setting that must be callable is not.
    :raises ValueError: a value its setting refuses (see :class:`Configuration`).
    """
    with _default_lock:
        for name, value in settings.items():
            if name not in Configuration.FIELDS:
                raise TypeError(f"configure() got an unknown setting {name!r}")
            setattr(_default, name, value)
    return _default


def configuration() -> Configuration:
    """The process-wide default configuration."""
    return _default

