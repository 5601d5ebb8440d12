"""HTTP plumbing of the Streamable HTTP transport: header checks, bounded body reads, answers.

The transport works on the WSGI environ directly (building werkzeug request and
response objects costs more than the MCP handling of a small request); an
:class:`Answer` becomes a werkzeug ``Response`` only for ``handle_request``.
Every refusal is an :class:`HTTPRequestError`; its body is JSON-RPC shaped
(``{"jsonrpc": "2.0", "id": null, "error": {...}}``), as the specification allows.
"""

from __future__ import annotations

import functools
import http
import typing as t

from ..... import error_codes, json_rpc
from ..... import protocol_version as versions
from .....errors import TransportError
from ....unavailable import UnavailableResponse

if t.TYPE_CHECKING:
    from werkzeug.wrappers import Response

JSON_MIMETYPE = "application/json"
SSE_MIMETYPE = "text/event-stream"
SESSION_HEADER = "Mcp-Session-Id"
PROTOCOL_VERSION_HEADER = "MCP-Protocol-Version"
#: The WSGI environ keys of those two headers.
SESSION_KEY = "HTTP_MCP_SESSION_ID"
VERSION_KEY = "HTTP_MCP_PROTOCOL_VERSION"
#: Bodies are read in pieces of this size, so a chunked body over the limit is refused early.
READ_CHUNK = 64 * 1024
#: Longest ``Accept`` value whose parsed form is cached (a client sends the same short value
#: every time; a huge one is parsed each time rather than kept).
_CACHED_ACCEPT_CHARS = 256

Headers = t.List[t.Tuple[str, str]]


class Answer:
    """An HTTP response: status, headers and a body iterable (a list, or an SSE stream with ``close()``)."""

    __slots__ = ("status", "headers", "body")

    def __init__(self, status: int, headers: Headers, body: t.Iterable[bytes]) -> None:
        self.status = status
        self.headers = headers
        self.body = body

    @property
    def status_line(self) -> str:
        return _STATUS_LINES.get(self.status) or f"{self.status} {http.HTTPStatus(self.status).phrase}"

    def to_response(self) -> Response:
        """The same answer as a werkzeug ``Response`` (its ``close()`` closes an SSE body)."""
        from werkzeug.wrappers import Response

        response = Response(self.body, status=self.status, headers=self.headers)
        if not any(name == "Content-Type" for name, _ in self.headers):
            del response.headers["Content-Type"]  # not werkzeug's text/plain default
        return response


_STATUS_LINES = {status: f"{status} {http.HTTPStatus(status).phrase}" for status in (200, 202, 204, 400, 404, 405, 406)}


class HTTPRequestError(TransportError):
    """An HTTP request the transport refuses, with the status and JSON-RPC error it answers with.

    :param status: the HTTP status code.
    :param message: the JSON-RPC error message.
    :param code: the JSON-RPC error code (``-32600`` unless the problem is JSON, ``-32700``).
    :param headers: extra response headers (``Allow`` for 405).
    :param request_id: the id of the request refused, when known.
    """

    def __init__(
        self,
        status: int,
        message: str,
        code: int = error_codes.INVALID_REQUEST,
        headers: dict[str, str] | None = None,
        request_id: t.Any = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.code = code
        self.headers = headers or {}
        self.request_id = request_id

    def answer(self) -> Answer:
        """The answer refusing the request."""
        body = json_rpc.encode(json_rpc.error(self.request_id, self.code, self.message))
        return json_answer(body, self.status, list(self.headers.items()))

    def response(self) -> Response:
        """The answer as a werkzeug ``Response``."""
        return self.answer().to_response()


def json_answer(text: str, status: int = 200, headers: Headers | None = None) -> Answer:
    """A JSON body."""
    body = json_rpc.utf8(text)
    fields = [("Content-Type", JSON_MIMETYPE), ("Content-Length", str(len(body)))]
    return Answer(status, fields if headers is None else [*headers, *fields], [body])


def response_answer(response: t.Any, text: str, status: int = 200) -> Answer:
    """The JSON answer carrying the server's ``response`` to a request, encoded as ``text``: with
    ``status``, or ``503`` with ``Retry-After`` for a request a full store refused (the dispatcher
    answered with an :class:`~mcp_sdk.server.unavailable.UnavailableResponse`, see :mod:`.outage`).

    :param response: the server's response to the request.
    :param text: that response as JSON.
    :param status: the HTTP status of any other response.
    """
    if isinstance(response, UnavailableResponse):
        return json_answer(text, 503, [("Retry-After", str(response.retry_after))])
    return json_answer(text, status)


def empty_answer(status: int) -> Answer:
    """No body (and no ``Content-Type``): ``202 Accepted`` for notifications and responses, ``204`` for DELETE."""
    return Answer(status, [("Content-Length", "0")] if status != 204 else [], [])


def _media_ranges(accept: str) -> dict[str, float]:
    """``Accept`` parsed into media range -> quality (clients send the same value every time: cached
    when short, so the cache never holds more than 128 short strings)."""
    return _cached_media_ranges(accept) if len(accept) <= _CACHED_ACCEPT_CHARS else _parse_media_ranges(accept)


def _parse_media_ranges(accept: str) -> dict[str, float]:
    ranges: dict[str, float] = {}
    for part in accept.split(","):
        media_range, *parameters = part.split(";")
        media_range = media_range.strip().lower()
        if not media_range:
            continue
        quality = 1.0
        for parameter in parameters:
            key, _, value = parameter.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    quality = float(value)
                except ValueError:
                    quality = 0.0
        ranges[media_range] = max(quality, ranges.get(media_range, 0.0))
    return ranges


_cached_media_ranges = functools.lru_cache(maxsize=128)(_parse_media_ranges)


def accepts(accept: str | None, mimetype: str) -> bool:
    """Whether an ``Accept`` value allows ``mimetype``: the most specific matching range decides;
    wildcards count; no header (or an empty one) allows anything."""
    if not accept or not accept.strip():
        return True
    ranges = _media_ranges(accept)
    for media_range in (mimetype, mimetype.split("/", 1)[0] + "/*", "*/*"):
        quality = ranges.get(media_range)
        if quality is not None:
            return quality > 0
    return False


def _accepts_all(accept: str | None, mimetypes: tuple[str, ...]) -> bool:
    return all(accepts(accept, mimetype) for mimetype in mimetypes)


#: The verdict for short ``Accept`` values (clients send the same one every time), as ``_media_ranges``.
_cached_accepts_all = functools.lru_cache(maxsize=128)(_accepts_all)


def require_accept(environ: dict[str, t.Any], *mimetypes: str) -> None:
    """:raises HTTPRequestError: 406 unless ``Accept`` allows every one of ``mimetypes``."""
    accept = environ.get("HTTP_ACCEPT")
    short = accept is None or len(accept) <= _CACHED_ACCEPT_CHARS
    if not (_cached_accepts_all if short else _accepts_all)(accept, mimetypes):
        raise HTTPRequestError(406, f"Not Acceptable: the Accept header must allow {' and '.join(mimetypes)}")


def require_json_content(environ: dict[str, t.Any]) -> None:
    """:raises HTTPRequestError: 415 unless the body is declared ``application/json``."""
    content_type = environ.get("CONTENT_TYPE", "")
    if content_type != JSON_MIMETYPE and content_type.split(";", 1)[0].strip().lower() != JSON_MIMETYPE:
        raise HTTPRequestError(415, "Unsupported Media Type: Content-Type must be application/json")


def content_length(environ: dict[str, t.Any]) -> int | None:
    """The declared body length, or None.

    :raises HTTPRequestError: 400 for a malformed value.
    """
    value = environ.get("CONTENT_LENGTH")
    if not value:
        return None
    try:
        length = int(value)
    except ValueError:
        length = -1
    if length < 0:
        raise HTTPRequestError(400, "Bad Request: invalid Content-Length")
    return length


def read_body(stream: t.Any, length: int | None, limit: int, until_eof: bool) -> bytes:
    """The request body, refused as soon as it is known to exceed ``limit`` bytes.

    :param length: the declared ``Content-Length`` (a larger one is refused unread).
    :param until_eof: without a length, read until EOF (a chunked body the server
        de-chunks, ``wsgi.input_terminated``); otherwise there is no body.
    :raises HTTPRequestError: 413.
    """
    if length is not None:
        if length > limit:
            raise _too_large(limit)
        remaining = length
    elif until_eof:
        remaining = limit + 1
    else:
        return b""
    pieces = []
    size = 0
    while remaining > 0:
        piece = stream.read(min(READ_CHUNK, remaining))
        if not piece:
            break
        pieces.append(piece)
        size += len(piece)
        remaining -= len(piece)
    if size > limit:
        raise _too_large(limit)
    return pieces[0] if len(pieces) == 1 else b"".join(pieces)


def _too_large(limit: int) -> HTTPRequestError:
    return HTTPRequestError(413, f"Payload Too Large: the body exceeds {limit} bytes")


def protocol_version(environ: dict[str, t.Any]) -> str:
    """The ``MCP-Protocol-Version`` of a request after initialization (absent: 2025-03-26).

    Any supported version passes, even one other than the session's.
    """
    version: str | None = environ.get(VERSION_KEY)
    if version is None:
        return versions.DEFAULT_HTTP_VERSION
    if version not in versions.SUPPORTED_VERSIONS:
        supported = ", ".join(versions.SUPPORTED_VERSIONS)
        raise HTTPRequestError(
            400, f"Bad Request: unsupported {PROTOCOL_VERSION_HEADER} {version!r} (supported: {supported})"
        )
    return version


def decode_body(body: bytes) -> t.Any:
    """The JSON the body holds.

    :raises HTTPRequestError: 400 with ``-32700`` for malformed JSON, ``-32600`` for a batch
        of more than :data:`~mcp_sdk.json_rpc.MAX_BATCH_ITEMS` messages.
    """
    try:
        message = json_rpc.decode(body)
    except ValueError as error:
        raise HTTPRequestError(400, f"Parse error: {error}", error_codes.PARSE_ERROR) from None
    if type(message) is list and len(message) > json_rpc.MAX_BATCH_ITEMS:  # refused before any routing
        raise HTTPRequestError(400, f"Invalid Request: a batch may hold at most {json_rpc.MAX_BATCH_ITEMS} messages")
    return message


__all__ = [
    "response_answer",
    "SESSION_KEY",
    "VERSION_KEY",
    "Answer",
    "HTTPRequestError",
    "JSON_MIMETYPE",
    "PROTOCOL_VERSION_HEADER",
    "SESSION_HEADER",
    "SSE_MIMETYPE",
    "accepts",
    "content_length",
    "decode_body",
    "empty_answer",
    "json_answer",
    "protocol_version",
    "read_body",
    "require_accept",
    "require_json_content",
]
