"""Argument values as the text of their parameter's location, never reaching past it.

A path value stays one segment: percent-encoded whole, and refused when it is empty, ``.`` or
``..`` (HTTP clients and servers resolve those as dot segments, so ``uid=".."`` would turn
``DELETE /projects/7/members/{uid}`` into ``DELETE /projects/7/``). A header value with a line
break or another control character is refused. A cookie value is percent-encoded, as OpenAPI's
``form`` style (the default for cookies) says, so ``;`` or ``,`` cannot start another cookie.
Query values need nothing here: ``requests`` percent-encodes each one.
"""

from __future__ import annotations

import json
import re
import typing as t
from urllib.parse import quote

from ..errors import InvalidParamsError

#: Header parameters OpenAPI says to ignore (Accept, Content-Type, Authorization), and those that
#: would let an argument reframe the request or carry cookies past :func:`cookie_value`.
IGNORED_HEADERS = frozenset(
    {"accept", "content-type", "authorization", "content-length", "transfer-encoding", "host", "connection", "cookie", "te", "upgrade", "trailer", "expect"}
)
#: Path values that are dot segments, or no segment at all.
_NOT_A_SEGMENT = frozenset({"", ".", ".."})
#: A header value: visible ASCII, with spaces and tabs inside (RFC 9110 ``field-value``, minus obs-text).
_HEADER_VALUE = re.compile(r"(?:[\x21-\x7e](?:[\x20-\x7e\t]*[\x21-\x7e])?)?")


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


def text(value: t.Any) -> str:
    """``value`` as the text a parameter carries: JSON's spelling of booleans, objects and arrays."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (dict, list)):
        return json.dumps(value, separators=(",", ":"))
    return str(value)


def path_value(name: str, value: t.Any) -> str:
    """``value`` as one percent-encoded path segment (or part of one).

    :param name: the parameter's name, for the error.
    :raises OpenAPIArgumentError: the value is empty, ``.`` or ``..``.
    """
    written = text(value)
    if written in _NOT_A_SEGMENT:
        raise OpenAPIArgumentError(name, f"path parameter {name!r} cannot be {written!r}: it would not stay one path segment")
    return quote(written, safe="")


def header_value(name: str, value: t.Any) -> str:
    """``value`` as a header's value.

    :param name: the parameter's name, for the error.
    :raises OpenAPIArgumentError: the value has a line break, a control character, a character
        outside ASCII, or leading or trailing whitespace.
    """
    written = text(value)
    if not _HEADER_VALUE.fullmatch(written):
        raise OpenAPIArgumentError(
            name, f"header parameter {name!r} must be visible ASCII characters (spaces inside), without line breaks or control characters"
        )
    return written


def cookie_value(value: t.Any) -> str:
    """``value`` in OpenAPI's ``form`` style: percent-encoded, an array's items joined by (encoded) commas.

    Every character that could end the cookie (``;``, ``,``, spaces, quotes, line breaks) is encoded.
    """
    if isinstance(value, list):
        return quote(",".join(text(item) for item in value), safe="")
    return quote(text(value), safe="")


__all__ = ["IGNORED_HEADERS", "OpenAPIArgumentError", "cookie_value", "header_value", "path_value", "text"]
