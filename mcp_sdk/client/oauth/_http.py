"""The OAuth client's HTTP calls: bounded bodies, no redirects to insecure URLs, no stray credentials."""

from __future__ import annotations

import json
import logging
import typing as t
from urllib.parse import urljoin

import requests
from requests.auth import AuthBase

from .authorization_errors import AuthorizationError
from .url_rules import display_url, ensure_permitted_host, ensure_secure_url

if t.TYPE_CHECKING:
    from .dpop import DPoPKey

logger = logging.getLogger("mcp_sdk.client.oauth")

#: Largest body read from an authorization server or metadata endpoint.
MAX_BODY_BYTES = 1024 * 1024
_MAX_REDIRECTS = 5
_INVALID = object()


class _NoAuth(AuthBase):
    # Stops requests from applying the session's ``auth`` or ~/.netrc credentials
    # to OAuth endpoints; OAuth calls carry exactly the credentials we set.
    def __call__(self, request: requests.PreparedRequest) -> requests.PreparedRequest:
        return request


class UnreachableError(AuthorizationError):
    """The request got no HTTP response (connection refused, timeout, TLS failure)."""


class Response(t.NamedTuple):
    """A fully read, size-checked HTTP response."""

    status: int
    headers: t.Mapping[str, str]
    body: bytes

    @property
    def ok(self) -> bool:
        return 200 <= self.status < 300

    def json_object(self, label: str) -> dict[str, t.Any]:
        """The body as a JSON object, or :class:`AuthorizationError` naming ``label``."""
        try:
            value = json.loads(self.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError):
            value = _INVALID
        # Raised outside the ``except``: the decode error keeps the whole body,
        # which may hold tokens, and would ride along as ``__context__``.
        if value is _INVALID:
            raise AuthorizationError(f"{label} is not valid JSON")
        if not isinstance(value, dict):
            raise AuthorizationError(f"{label} is not a JSON object")
        return value


class OAuthHTTP:
    """Sends OAuth requests through the transport's ``requests.Session``, each to a URL
    :meth:`check` permits.

    :param server_url: the MCP server the requests are for (None: only HTTPS-or-loopback is checked).
    :param allow_loopback: see :func:`~mcp_sdk.client.oauth.url_rules.ensure_permitted_host`.
    """

    def __init__(
        self,
        session: requests.Session,
        timeout: float | None = 30.0,
        *,
        server_url: str | None = None,
        allow_loopback: bool | None = None,
    ) -> None:
        self.session = session
        self.timeout = timeout
        self.server_url = server_url
        self.allow_loopback = allow_loopback
        #: The DPoP key whose proofs go with token requests (RFC 9449 section 5), or ``None``.
        self.dpop: DPoPKey | None = None

    def check(self, url: str, label: str) -> str:
        """Return ``url`` if the client may contact it: HTTPS (or loopback HTTP), and not a
        local address an MCP server elsewhere could be pointing it at; else raise
        :class:`~mcp_sdk.client.oauth.InsecureURLError`."""
        ensure_secure_url(url, label)
        if self.server_url is not None:
            ensure_permitted_host(url, label, self.server_url, self.allow_loopback)
        return url

    def get(self, url: str, label: str) -> Response:
        """GET ``url``, following at most a few redirects, each to a secure URL."""
        for _ in range(_MAX_REDIRECTS + 1):
            self.check(url, label)
            response = self._send("GET", url, label)
            location = response.headers.get("Location")
            if response.status not in (301, 302, 303, 307, 308) or not location:
                return response
            url = urljoin(url, location)
        raise AuthorizationError(f"{label}: too many redirects")

    def post_form(self, url: str, form: t.Mapping[str, str], label: str, headers: t.Mapping[str, str] | None = None) -> Response:
        """POST an ``application/x-www-form-urlencoded`` body; redirects are not followed."""
        self.check(url, label)
        return self._send("POST", url, label, data=dict(form), headers=headers)

    def post_json(self, url: str, body: t.Any, label: str) -> Response:
        """POST a JSON body; redirects are not followed."""
        self.check(url, label)
        return self._send("POST", url, label, json_body=body)

    def _send(
        self,
        method: str,
        url: str,
        label: str,
        data: dict[str, str] | None = None,
        json_body: t.Any = None,
        headers: t.Mapping[str, str] | None = None,
    ) -> Response:
        # ``None`` removes a header the session would otherwise add (requests'
        # merge rule), so a transport-level Authorization never reaches the AS.
        merged: dict[str, str | None] = {"Accept": "application/json", "Authorization": None}
        merged.update(headers or {})
        logger.debug("OAuth %s %s", method, display_url(url))
        failure = None
        try:
            response = self.session.request(
                method,
                url,
                data=data,
                json=json_body,
                headers=merged,
                auth=_NoAuth(),
                allow_redirects=False,
                stream=True,
                timeout=self.timeout,
            )
        except requests.RequestException as exc:
            failure = type(exc).__name__
        if failure is not None:
            # Outside the ``except``: requests' exception holds the prepared
            # request, whose headers and body may carry client credentials.
            raise UnreachableError(f"{label}: {method} {display_url(url)} failed ({failure})")
        try:
            body = _read_bounded(response, label, url)
            return Response(response.status_code, response.headers, body)
        finally:
            response.close()


def _read_bounded(response: requests.Response, label: str, url: str) -> bytes:
    declared = response.headers.get("Content-Length")
    if declared and declared.isdigit() and int(declared) > MAX_BODY_BYTES:
        raise AuthorizationError(f"{label}: response from {display_url(url)} exceeds {MAX_BODY_BYTES} bytes")
    chunks: list[bytes] = []
    size = 0
    failure = None
    try:
        for chunk in response.iter_content(chunk_size=64 * 1024):
            size += len(chunk)
            if size > MAX_BODY_BYTES:
                break
            chunks.append(chunk)
    except requests.RequestException as exc:
        failure = type(exc).__name__
    if failure is not None:
        raise AuthorizationError(f"{label}: reading {display_url(url)} failed ({failure})")
    if size > MAX_BODY_BYTES:
        raise AuthorizationError(f"{label}: response from {display_url(url)} exceeds {MAX_BODY_BYTES} bytes")
    return b"".join(chunks)
