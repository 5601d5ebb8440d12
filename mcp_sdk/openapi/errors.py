"""What building a server from an OpenAPI document, or calling its API, can fail with."""

from __future__ import annotations

from ..errors import InternalError, InvalidParamsError, MCPError


class OpenAPIError(MCPError):
    """The OpenAPI document cannot be used: unreadable, not OpenAPI 3.0/3.1, too large or deep, or
    a ``$ref`` that leads nowhere."""


class OpenAPIRequestError(InternalError):
    """Reading a resource made from an operation failed (HTTP error status, timeout, unreachable API,
    an answer over the size cap, a redirect to another origin): the client gets a ``-32603`` error with
    this message (and ``data.status`` for an HTTP status). A tool call answers an ``isError`` result
    with the same text. The message never holds the request's URL, headers or cookies."""


class OpenAPIArgumentError(InvalidParamsError):
    """An argument cannot be sent as its parameter without reaching past it: a path value that is
    empty, ``.`` or ``..``, a header value with a line break or a control character. Nothing is sent;
    a tool call answers an ``isError`` result with this message, a resource read a ``-32602`` error
    (``data.parameter`` names the parameter).

    :param parameter: the parameter's name, as the operation's document spells it.
    :param message: what is wrong with the value.
    """

    def __init__(self, parameter: str, message: str) -> None:
        super().__init__(message, data={"parameter": parameter})
        self.parameter = parameter


__all__ = ["OpenAPIArgumentError", "OpenAPIError", "OpenAPIRequestError"]
