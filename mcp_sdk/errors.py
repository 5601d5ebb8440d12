"""The exceptions ``mcp_sdk`` raises on purpose, all rooted at :class:`MCPError`.

Handler errors (:class:`RequestHandlerError` and its subclasses) carry their
JSON-RPC code as a class attribute, like werkzeug's ``HTTPException``: raise one
from a tool, prompt or handler and the client receives that error.
"""

from __future__ import annotations

import typing as t

from . import error_codes


class MCPError(Exception):
    """Base class of every exception the SDK raises on purpose."""


class MCPDeprecationWarning(DeprecationWarning):
    """Warns of an SDK feature that will be removed."""


class CancelledError(MCPError):
    """The request was cancelled (``notifications/cancelled``) before it finished.

    Raised by ``ServerContext.raise_if_cancelled()`` and from a nested
    server-to-client request whose parent request was cancelled; on the client,
    from a call whose :class:`~mcp_sdk.Cancellation` was cancelled.

    :param message: the exception's message.
    :param reason: the reason the canceller gave (``notifications/cancelled``'s ``reason``), if any.
    """

    def __init__(self, message: str = "Request was cancelled", reason: str | None = None) -> None:
        super().__init__(message)
        self.reason = reason


class RequestTimeoutError(MCPError, TimeoutError):
    """A request to the peer got no response within its timeout."""


class CapabilityError(MCPError, RuntimeError):
    """The peer did not declare the capability a request needs (e.g. ``sampling``)."""


class ValidationError(MCPError, ValueError):
    """A message or value does not have the shape the protocol requires."""


class ElicitationContentError(ValidationError):
    """The client accepted an elicitation with content that does not fit the requested form.

    The message names the field and the rule (``Invalid elicitation content: age must be
    integer``); a tool that lets it escape answers ``isError`` with it, since the fault is the
    client's answer, not the tool.
    """


class DefinitionError(MCPError, TypeError):
    """A tool, prompt or resource is defined in a way that cannot work; raised where it is defined.

    The message names the tool and the field, and says what to write instead.
    """


class ToolResultError(MCPError, TypeError):
    """A tool returned a value with no MCP form: a mistake the SDK detected in the tool's code.

    ``str(error)`` names the tool and the value, for the exception reporter; the client is
    told :attr:`client_message`, which names the tool and the value's type but never its
    contents.
    """

    def __init__(self, message: str, client_message: str | None = None) -> None:
        super().__init__(message)
        #: What the client is told in the tool's ``isError`` result.
        self.client_message = client_message if client_message is not None else message


class SchemaError(DefinitionError, ValidationError):
    """A tool's schema is invalid, or does not match the parameters of its ``call``."""


class InvalidNameError(MCPError, ValueError):
    """A tool, prompt or method name is not allowed."""


class ToolNotUnique(MCPError, ValueError):
    """Two tools registered on one server share a name."""


class PromptNotUnique(MCPError, ValueError):
    """Two prompts registered on one server share a name."""


class NotRegisteredError(MCPError, KeyError):
    """No tool, prompt, resource or resource template of that name is registered on the server
    (``server.remove_tool(name)``, ``disable_tool``, ...).

    :param kind: what was looked up: ``"tool"``, ``"prompt"``, ``"resource"``...
    :param name: the name (or URI) that is not registered.
    """

    def __init__(self, kind: str, name: str) -> None:
        super().__init__(f"No {kind} {name!r} is registered")
        self.kind = kind
        self.name = name

    def __str__(self) -> str:  # KeyError's would repr the message
        return str(self.args[0])


class MethodAlreadyDefinedError(MCPError, ValueError):
    """``define_custom_method`` would override a protocol method or an earlier custom one.

    :param method_name: the JSON-RPC method already defined.
    """

    def __init__(self, method_name: str) -> None:
        super().__init__(f"Method {method_name} already defined")
        self.method_name = method_name


class MissingExtraError(MCPError, ImportError):
    """An optional dependency of the feature in use is not installed (the message names the extra)."""


class TransportError(MCPError):
    """The transport failed: a dead process, a closed stream, an unreachable URL."""


class ClientRequestsUnavailableError(CapabilityError, TransportError):
    """The connection cannot carry a server-to-client request (sampling, elicitation, roots,
    ``ping``) whatever the client declared: e.g. a stateless HTTP POST, where the client's answer
    would arrive in another request. A :class:`CapabilityError` (the request is unavailable here)
    and a :class:`TransportError` (the transport is why); a tool that lets it escape answers
    ``isError`` with its message.
    """


class SessionExpiredError(TransportError):
    """The server no longer knows this session (HTTP 404 on a session request)."""


class JSONRPCError(MCPError):
    """A JSON-RPC error object: ``code``, ``message`` and optional ``data``.

    Raised on the side that *receives* an error response (e.g. a client's
    answer to a server-to-client request was an error).

    :param message: the error object's ``message``.
    :param code: the error object's ``code``.
    :param data: the error object's ``data``, if any.
    """

    def __init__(self, message: str, code: int, data: t.Any = None) -> None:
        super().__init__(message)
        self.message = message
        self.code = code
        self.data = data

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form of the error object."""
        error: dict[str, t.Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


class RequestHandlerError(JSONRPCError):
    """Raise from a handler to answer the request with this JSON-RPC error.

    Subclasses set :attr:`code`; the message defaults to the code's standard one.

    :param message: the error's message (default: the standard message of its code).
    :param data: the error object's ``data``, if any.
    :param code: the JSON-RPC code (default: the class's :attr:`code`).
    """

    #: The JSON-RPC error code sent to the client.
    code: int = error_codes.INTERNAL_ERROR

    def __init__(self, message: str | None = None, data: t.Any = None, code: int | None = None) -> None:
        code = type(self).code if code is None else code
        super().__init__(message or error_codes.MESSAGES.get(code, "Error"), code, data)


class ParseError(RequestHandlerError):
    code = error_codes.PARSE_ERROR


class InvalidRequestError(RequestHandlerError):
    code = error_codes.INVALID_REQUEST


class MethodNotFoundError(RequestHandlerError):
    code = error_codes.METHOD_NOT_FOUND


class InvalidParamsError(RequestHandlerError):
    code = error_codes.INVALID_PARAMS


class InternalError(RequestHandlerError):
    code = error_codes.INTERNAL_ERROR


class StoreFullError(InternalError):
    """A shared store (Redis at ``maxmemory`` with policy ``noeviction``) refused a write the
    request needed: -32603 saying which store, ``data`` ``{"reason": "full"}``.

    The server answers it as it answers any handler error, and a transport with a status line
    says "come back later" as well: the Streamable HTTP transport answers ``503`` with
    ``Retry-After:`` :attr:`retry_after` (see ``streamable_http/outage.py``).
    """

    #: Seconds a client should wait: room comes back as sessions, events and tasks expire, not at once.
    retry_after: t.ClassVar[int] = 5


class ResourceNotFoundError(InvalidParamsError):
    """No resource has this URI (SEP-2164: ``-32602`` with the URI in ``data``).

    :param uri: the requested URI.
    :param params: the request's params, kept for the exception reporter.
    """

    def __init__(self, uri: str, params: t.Mapping[str, t.Any] | None = None) -> None:
        super().__init__(f"Resource not found: {uri}", data={"uri": uri})
        self.uri = uri
        self.params = params


class URLElicitationRequiredError(RequestHandlerError):
    """The tool needs the user to complete URL elicitations first (``-32042``).

    :param elicitations: the ``elicitation/create`` params (``mode: "url"``) the
        client should present.
    :param message: the error's message (default ``"URL elicitation required"``).
    """

    code = error_codes.URL_ELICITATION_REQUIRED

    def __init__(self, elicitations: list[dict[str, t.Any]], message: str | None = None) -> None:
        super().__init__(
            message or "URL elicitation required",
            data={"elicitations": list(elicitations)},
        )
        self.elicitations = list(elicitations)


class HeaderMismatchError(RequestHandlerError):
    """2026-07-28, Streamable HTTP: a header disagrees with the body, or is missing or malformed (``-32020``)."""

    code = error_codes.HEADER_MISMATCH


class MissingClientCapabilityError(RequestHandlerError):
    """2026-07-28: the request needs client capabilities its ``_meta`` did not declare (``-32021``).

    :param required_capabilities: the missing capabilities, shaped like ``ClientCapabilities``
        (``{"elicitation": {"form": {}}}``).
    """

    code = error_codes.MISSING_REQUIRED_CLIENT_CAPABILITY

    def __init__(self, required_capabilities: dict[str, t.Any], message: str | None = None) -> None:
        names = ", ".join(_dotted(required_capabilities)) or "none"
        super().__init__(
            message or f"Missing required client capability: {names}",
            data={"requiredCapabilities": required_capabilities},
        )
        self.required_capabilities = required_capabilities


class UnsupportedProtocolVersionError(RequestHandlerError):
    """The request's protocol version is not served here (``-32022``, HTTP 400).

    :param requested: the version the request named.
    :param supported: the versions the server serves for such requests.
    """

    code = error_codes.UNSUPPORTED_PROTOCOL_VERSION

    def __init__(self, requested: t.Any, supported: t.Sequence[str]) -> None:
        super().__init__(
            f"Unsupported protocol version: {requested!r} (supported: {', '.join(supported)})",
            data={"supported": list(supported), "requested": requested},
        )
        self.requested = requested
        self.supported = list(supported)


def _dotted(capabilities: t.Mapping[str, t.Any], prefix: str = "") -> list[str]:
    names = []
    for key, value in capabilities.items():
        if isinstance(value, t.Mapping) and value:
            names.extend(_dotted(value, f"{prefix}{key}."))
        else:
            names.append(f"{prefix}{key}")
    return names
