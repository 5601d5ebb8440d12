"""Calling the API: each call one bounded exchange through the user's ``requests.Session``.

- Redirects are followed only within the API's origin (scheme, host, port), so the session's
  credentials (headers, auth, cookies, query keys) and a 307/308 body never go elsewhere; a
  redirect to another origin is an error.
- One deadline covers the whole exchange: connecting, each redirect, and reading the answer,
  however slowly the API sends it.
- An answer over the size cap is refused without being read whole; an error answer's body is read
  only as far as its message shows.
- Messages name the operation (``GET /pets/{petId}``), never the request's URL, headers or
  cookies; an answer's URL is shown without its user info and query.
- Cookies the API sets are not kept in the session: one caller's answer does not change what
  another caller's call sends.

The request goes through the session's adapter (``session.get_adapter(url).send``) with the
session's proxies, TLS settings and response hooks, as ``session.send`` would, but not its redirect
handling: that reads a redirect's whole body before anything can refuse it.
"""

from __future__ import annotations

import socket
import time
import typing as t
from urllib.parse import urljoin, urlsplit, urlunsplit

import attrs
import requests
import urllib3.exceptions
from requests.hooks import dispatch_hook
from requests.utils import get_encoding_from_headers

from ..errors import InternalError

#: The largest answer read by default (``max_response_bytes=``), in bytes.
DEFAULT_MAX_RESPONSE_BYTES = 4 * 1024 * 1024
#: How much of an error answer's body is read: enough for the 500 characters its message shows.
ERROR_BODY_BYTES = 4096
#: The most bytes asked of the socket at a time.
_CHUNK = 65536
#: Redirects whose method and body are kept (the others become a GET without a body, as in ``requests``).
_KEEP_METHOD = (307, 308)
#: What reading an answer's body may raise when the connection breaks or times out.
_READ_ERRORS = (urllib3.exceptions.HTTPError, requests.RequestException, OSError, ValueError)


class OpenAPIRequestError(InternalError):
    """Reading a resource made from an operation failed (HTTP error status, timeout, unreachable API,
    an answer over the size cap, a redirect to another origin): the client gets a ``-32603`` error with
    this message (and ``data.status`` for an HTTP status). A tool call answers an ``isError`` result
    with the same text. The message never holds the request's URL, headers or cookies."""


@attrs.frozen
class Answer:
    """What the API answered."""

    status: int
    reason: str
    #: The ``Content-Type`` header, as sent (empty when there was none).
    content_type: str
    body: bytes
    #: False when the body was cut (an error answer's, at :data:`ERROR_BODY_BYTES`).
    complete: bool
    #: Where the answer came from: scheme, host, port and path (no user info, no query).
    url: str
    #: The charset of the ``Content-Type`` (``requests``' reading of it), or None.
    encoding: t.Optional[str]

    @property
    def ok(self) -> bool:
        """A 2xx status."""
        return 200 <= self.status < 300

    @property
    def media(self) -> str:
        """The bare media type, lower case (``application/json``), or ``""``."""
        return self.content_type.split(";")[0].strip().lower()

    @property
    def text(self) -> str:
        """The body decoded by its charset (UTF-8 when it names none or an unknown one)."""
        try:
            return self.body.decode(self.encoding or "utf-8", errors="replace")
        except LookupError:
            return self.body.decode("utf-8", errors="replace")


class Upstream:
    """The API: the session every call goes through, its origin, the deadline and size cap of a call.

    :param session: the user's session (auth, headers, cookies, adapters, proxies).
    :param base_url: the API's URL; its origin is the only one requests go to.
    :param timeout: seconds a whole exchange may take.
    :param max_response_bytes: the largest answer body read (decoded).
    """

    def __init__(self, session: requests.Session, base_url: str, timeout: float, max_response_bytes: int) -> None:
        self.session, self.base_url, self.timeout, self.max_response_bytes = session, base_url, timeout, max_response_bytes
        self.origin = origin(base_url)

    def call(self, label: str, prepared: requests.PreparedRequest) -> Answer:
        """Send ``prepared``, follow redirects within the API's origin, read the answer.

        :param label: the operation (``GET /pets/{petId}``), for messages.
        :raises OpenAPIRequestError: a timeout, a failed connection, a redirect to another origin or
            too many redirects, an answer over the size cap.
        """
        deadline = time.monotonic() + self.timeout
        settings: dict[str, t.Any] = dict(self.session.merge_environment_settings(prepared.url, {}, True, None, None))
        for _ in range(self.session.max_redirects + 1):
            self._check_origin(label, t.cast(str, prepared.url))
            response = self._send(label, prepared, deadline, settings)
            try:
                if not response.is_redirect:
                    return self._read(label, response, deadline)
                prepared = self._follow(response, prepared)
            finally:
                response.close()
        raise OpenAPIRequestError(f"{label} failed: more than {self.session.max_redirects} redirects")

    def _check_origin(self, label: str, url: str) -> None:
        if origin(url) != self.origin:
            raise OpenAPIRequestError(
                f"{label}: the API redirected to another origin ({shown_url(url)}); not followed, "
                "so the credentials meant for the API stay with it"
            )

    def _send(self, label: str, prepared: requests.PreparedRequest, deadline: float, settings: dict[str, t.Any]) -> requests.Response:
        remaining = deadline - time.monotonic()
        if remaining <= 0:
            raise self._timed_out(label)
        adapter = self.session.get_adapter(t.cast(str, prepared.url))
        try:
            response = adapter.send(prepared, timeout=remaining, **settings)
        except requests.Timeout:
            raise self._timed_out(label) from None
        except (requests.RequestException, ValueError) as error:  # ValueError: http.client refusing a header
            raise OpenAPIRequestError(f"{label} failed: {type(error).__name__}") from None
        hooked = dispatch_hook("response", prepared.hooks, response, timeout=remaining, **settings)  # type: ignore[no-untyped-call]
        return t.cast(requests.Response, hooked)

    def _follow(self, response: requests.Response, prepared: requests.PreparedRequest) -> requests.PreparedRequest:
        """The request a redirect asks for (its origin is checked before it is sent)."""
        location = urljoin(response.url, self.session.get_redirect_target(response) or "")
        follow = prepared.copy()
        follow.prepare_url(location, None)
        if response.status_code not in _KEEP_METHOD:
            self.session.rebuild_method(follow, response)
            for header in ("Content-Length", "Content-Type", "Transfer-Encoding"):
                follow.headers.pop(header, None)
            follow.body = None
        return follow

    def _read(self, label: str, response: requests.Response, deadline: float) -> Answer:
        ok = 200 <= response.status_code < 300
        limit = self.max_response_bytes if ok else ERROR_BODY_BYTES
        declared = response.headers.get("Content-Length", "")
        if ok and declared.isdigit() and int(declared) > limit and _request_method(response) != "HEAD":
            raise self._too_large(label)
        body, complete = self._body(label, response, deadline, limit)
        if ok and not complete:
            raise self._too_large(label)
        return Answer(
            status=response.status_code, reason=response.reason or "", content_type=response.headers.get("Content-Type", ""),
            body=body, complete=complete, url=shown_url(response.url),
            encoding=get_encoding_from_headers(response.headers),
        )

    def _body(self, label: str, response: requests.Response, deadline: float, limit: int) -> tuple[bytes, bool]:
        """The body (decoded by its Content-Encoding) up to ``limit`` bytes, and whether it was all of it."""
        chunks: list[bytes] = []
        size = 0
        while True:
            remaining = deadline - time.monotonic()
            if remaining <= 0:
                raise self._timed_out(label)
            _cap_read_timeout(response, remaining)
            try:
                # read1 returns what has arrived: a dripping API cannot hold a read past the deadline
                data = response.raw.read1(_CHUNK, decode_content=True)
            except _READ_ERRORS as error:
                if isinstance(error, (urllib3.exceptions.TimeoutError, socket.timeout)) or time.monotonic() >= deadline:
                    raise self._timed_out(label) from None
                raise OpenAPIRequestError(f"{label} failed: {type(error).__name__}") from None
            if not data:
                return b"".join(chunks), True
            if size + len(data) > limit:
                chunks.append(data[: limit - size])
                return b"".join(chunks), False
            chunks.append(data)
            size += len(data)

    def _timed_out(self, label: str) -> OpenAPIRequestError:
        return OpenAPIRequestError(f"{label} timed out after {self.timeout:g} s")

    def _too_large(self, label: str) -> OpenAPIRequestError:
        return OpenAPIRequestError(f"{label}: the answer is larger than {self.max_response_bytes} bytes (max_response_bytes); not read")


def _request_method(response: requests.Response) -> str:
    """The method of the request ``response`` answers (a HEAD's Content-Length is not its body's)."""
    return str(getattr(response.request, "method", "") or "").upper()


def _cap_read_timeout(response: requests.Response, seconds: float) -> None:
    """Make the next socket read of ``response`` wait at most ``seconds`` (never longer than it would)."""
    try:
        connection = response.raw.connection
        sock = connection.sock if connection is not None else None
        if sock is None:
            return
        current = sock.gettimeout()
        if current is None or current > seconds:
            sock.settimeout(seconds)
    except (AttributeError, OSError):
        pass


def origin(url: str) -> tuple[str, str, int]:
    """``url``'s scheme, host and port (the scheme's default when it names none)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or ""), port if port is not None else (443 if scheme == "https" else 80)


def shown_url(url: str) -> str:
    """``url`` without user info, query or fragment: what messages and results may show of it."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = None
    host = parts.hostname or ""
    if ":" in host:
        host = f"[{host}]"
    return urlunsplit((parts.scheme, host if port is None else f"{host}:{port}", parts.path, "", ""))


__all__ = ["DEFAULT_MAX_RESPONSE_BYTES", "ERROR_BODY_BYTES", "Answer", "OpenAPIRequestError", "Upstream", "origin", "shown_url"]
