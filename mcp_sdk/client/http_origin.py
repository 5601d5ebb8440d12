"""Where an HTTP client transport's requests may go: the MCP endpoint's origin, and for a bearer token its URL.

User headers (an API key...) must not reach another server, so redirects are
followed only within the endpoint's origin (scheme, host, port); with OAuth, the
token must reach only the MCP URL, whatever the user's ``requests.Session`` does.
"""

from __future__ import annotations

import typing as t
from urllib.parse import urljoin, urlsplit

import requests

from ..errors import TransportError
from .oauth.url_rules import display_url

if t.TYPE_CHECKING:
    from .oauth import OAuthClient


def send(
    session: requests.Session,
    method: str,
    url: str,
    data: bytes | None,
    headers: dict[str, str],
    stream: bool,
    timeout: tuple[float, float],
    oauth: OAuthClient | None,
) -> requests.Response:
    """What ``session.request`` does, with the OAuth URL check where the request really leaves.

    With OAuth, the prepared request's URL is checked after the session's own
    preparation, and the adapter's connection step checks the URL again after
    any rewriting in the adapter's ``send``.

    :raises TransportError: a redirect to another origin than ``url``'s.
    :raises InsecureURLError: with ``oauth``, a request that would carry the token elsewhere.
    """
    prepared = session.prepare_request(requests.Request(method, url, data=data, headers=headers))
    settings = session.merge_environment_settings(prepared.url, {}, stream, None, None)
    if oauth is not None:
        oauth.check_url(t.cast(str, prepared.url))
        guard_adapter(session.get_adapter(t.cast(str, prepared.url)), oauth.check_url)
    response = session.send(prepared, timeout=timeout, allow_redirects=False, **settings)
    if response.is_redirect:
        check_redirect(response, url)
        kwargs: dict[str, t.Any] = {**settings, "timeout": timeout}  # settings holds stream, verify...
        for response in session.resolve_redirects(response, prepared, **kwargs):
            if response.is_redirect:
                check_redirect(response, url)
    return response


def check_redirect(response: requests.Response, url: str) -> None:
    """:raises TransportError: ``response`` redirects to another origin (scheme, host, port) than ``url``'s."""
    target = urljoin(response.url, response.headers.get("Location", ""))
    if origin(target) != origin(url):
        response.close()
        raise TransportError(
            f"{url} redirected to another origin ({display_url(target)}); not followed, "
            "so the headers meant for this server stay with it"
        )


def origin(url: str) -> tuple[str, str, int | None]:
    """``url``'s scheme, host and port (the default one when it names none)."""
    parts = urlsplit(url)
    try:
        port = parts.port
    except ValueError:
        port = -1
    scheme = parts.scheme.lower()
    return scheme, (parts.hostname or ""), port or (443 if scheme == "https" else 80)


def guard_adapter(adapter: t.Any, check_url: t.Callable[[str], None]) -> None:
    """Make an :class:`~requests.adapters.HTTPAdapter` check every bearer request's URL as it connects.

    ``get_connection_with_tls_context`` receives the request as it will be
    sent, after anything the adapter's ``send`` changed; checking there stops
    the token before a connection to another host opens. Adapters of other
    kinds do their own I/O and are the user's own responsibility.
    """
    if not isinstance(adapter, requests.adapters.HTTPAdapter) or getattr(adapter, "_mcp_url_guard", False):
        return
    connect = adapter.get_connection_with_tls_context

    def guarded(request: requests.PreparedRequest, *args: t.Any, **kwargs: t.Any) -> t.Any:
        authorization = request.headers.get("Authorization", "")
        if authorization[:7].lower() == "bearer ":
            check_url(t.cast(str, request.url))
        return connect(request, *args, **kwargs)

    adapter.get_connection_with_tls_context = guarded  # type: ignore[method-assign]  # instance-level wrap, once
    setattr(adapter, "_mcp_url_guard", True)  # noqa: B010 - a marker on a foreign object


__all__ = ["check_redirect", "guard_adapter", "origin", "send"]
