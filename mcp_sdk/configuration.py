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

#: Default seconds a tool waits for the client to answer a server-to-client request.
#: Generous, because elicitation waits on a person.
DEFAULT_SERVER_REQUEST_TIMEOUT = 300.0


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
    :raises ValueError: for an unsupported ``protocol_version``.
    """

    _FIELDS = (
        "exception_reporter",
        "around_request",
        "instrumentation_callback",
        "protocol_version",
        "validate_tool_call_arguments",
        "validate_tool_call_results",
        "server_request_timeout",
    )
    _DEFAULTS: t.ClassVar[dict[str, t.Any]] = {
        "exception_reporter": None,
        "around_request": None,
        "instrumentation_callback": None,
        "protocol_version": None,
        "validate_tool_call_arguments": True,
        "validate_tool_call_results": False,
        "server_request_timeout": DEFAULT_SERVER_REQUEST_TIMEOUT,
    }

    def __init__(
        self,
        exception_reporter: ExceptionReporter | None = _UNSET,
        around_request: AroundRequest | None = _UNSET,
        instrumentation_callback: InstrumentationCallback | None = _UNSET,
        protocol_version: str | None = _UNSET,
        validate_tool_call_arguments: bool = _UNSET,
        validate_tool_call_results: bool = _UNSET,
        server_request_timeout: float = _UNSET,
    ) -> None:
        self._values: dict[str, t.Any] = {}
        given = {
            "exception_reporter": exception_reporter,
            "around_request": around_request,
            "instrumentation_callback": instrumentation_callback,
            "protocol_version": protocol_version,
            "validate_tool_call_arguments": validate_tool_call_arguments,
            "validate_tool_call_results": validate_tool_call_results,
            "server_request_timeout": server_request_timeout,
        }
        for name, value in given.items():
            if value is not _UNSET:
                setattr(self, name, value)

    def _get(self, name: str) -> t.Any:
        return self._values.get(name, self._DEFAULTS[name])

    @property
    def exception_reporter(self) -> ExceptionReporter | None:
        return t.cast("ExceptionReporter | None", self._get("exception_reporter"))

    @exception_reporter.setter
    def exception_reporter(self, value: ExceptionReporter | None) -> None:
        self._values["exception_reporter"] = _callable_or_none("exception_reporter", value)

    @property
    def around_request(self) -> AroundRequest | None:
        return t.cast("AroundRequest | None", self._get("around_request"))

    @around_request.setter
    def around_request(self, value: AroundRequest | None) -> None:
        self._values["around_request"] = _callable_or_none("around_request", value)

    @property
    def instrumentation_callback(self) -> InstrumentationCallback | None:
        return t.cast("InstrumentationCallback | None", self._get("instrumentation_callback"))

    @instrumentation_callback.setter
    def instrumentation_callback(self, value: InstrumentationCallback | None) -> None:
        self._values["instrumentation_callback"] = _callable_or_none("instrumentation_callback", value)

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
    def validate_tool_call_arguments(self) -> bool:
        return t.cast(bool, self._get("validate_tool_call_arguments"))

    @validate_tool_call_arguments.setter
    def validate_tool_call_arguments(self, value: bool) -> None:
        self._values["validate_tool_call_arguments"] = bool(value)

    @property
    def validate_tool_call_results(self) -> bool:
        return t.cast(bool, self._get("validate_tool_call_results"))

    @validate_tool_call_results.setter
    def validate_tool_call_results(self, value: bool) -> None:
        self._values["validate_tool_call_results"] = bool(value)

    @property
    def server_request_timeout(self) -> float:
        return t.cast(float, self._get("server_request_timeout"))

    @server_request_timeout.setter
    def server_request_timeout(self, value: float) -> None:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or value <= 0:
            raise ValueError(f"server_request_timeout must be a positive number of seconds, not {value!r}")
        self._values["server_request_timeout"] = float(value)

    def is_set(self, name: str) -> bool:
        """Whether ``name`` was set explicitly (rather than left at its default)."""
        return name in self._values

    def merge(self, other: Configuration | None) -> Configuration:
        """A new configuration: this one's settings, overridden by what ``other`` sets."""
        merged = Configuration()
        merged._values = dict(self._values)
        if other is not None:
            merged._values.update(other._values)
        return merged

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={self._get(name)!r}" for name in self._FIELDS)
        return f"Configuration({fields})"


def _callable_or_none(name: str, value: t.Any) -> t.Any:
    if value is not None and not callable(value):
        raise TypeError(f"{name} must be callable or None, not {type(value).__name__}")
    return value


_default = Configuration()
_default_lock = threading.Lock()


def configure(**settings: t.Any) -> Configuration:
    """Set fields of the process-wide default configuration; return it.

    ``mcp_sdk.configure(around_request=fn, exception_reporter=fn)``. Servers
    created afterwards merge their own configuration over it.
    """
    with _default_lock:
        for name, value in settings.items():
            if name not in Configuration._FIELDS:
                raise TypeError(f"configure() got an unknown setting {name!r}")
            setattr(_default, name, value)
    return _default


def configuration() -> Configuration:
    """The process-wide default configuration."""
    return _default

