"""URL rules of MCP authorization: secure transport, canonical form, well-known locations.

- Communication Security: HTTPS, or plain HTTP to a loopback host only.
- RFC 8707 / RFC 9728: the canonical resource URI and whether a PRM ``resource``
  covers the MCP server URL.
- RFC 9728 / RFC 8414 / OpenID Connect Discovery: the candidate metadata URLs.
- Where an MCP server's metadata may send the client: never to this machine or its
  network's link-local services (cloud metadata at 169.254.169.254), unless the MCP
  server is itself on this machine.
"""

from __future__ import annotations

import ipaddress
import re
import socket
import typing as t
from urllib.parse import SplitResult, urlsplit, urlunsplit

from .authorization_errors import InsecureURLError

_DEFAULT_PORTS = {"http": 80, "https": 443}
_ENCODED_DOT = re.compile("%2e", re.IGNORECASE)
#: Hosts ``socket.inet_aton`` would read as IPv4 (``2130706433``, ``0x7f.1``, ``127.1``): the
#: resolver connects to them as such, so they are classified as the address they stand for.
_LEGACY_IPV4 = re.compile(r"[0-9a-fx.]+")


def _split(url: str) -> SplitResult | None:
    if not isinstance(url, str) or not url:
        return None
    try:
        parts = urlsplit(url)
        parts.port  # raises ValueError for a malformed port
    except ValueError:
        return None
    return parts


def is_loopback_host(host: str | None) -> bool:
    """Whether ``host`` is ``localhost``, in ``127.0.0.0/8``, or ``::1``.

    Matched exactly: ``foo.localhost`` and ``127.example.com`` are not loopback.
    """
    if not host:
        return False
    host = host.lower().strip("[]")
    if host == "localhost":
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        address = address.ipv4_mapped
    return address.is_loopback


def _address(host: str) -> ipaddress.IPv4Address | ipaddress.IPv6Address | None:
    try:
        address: ipaddress.IPv4Address | ipaddress.IPv6Address = ipaddress.ip_address(host)
    except ValueError:
        if not _LEGACY_IPV4.fullmatch(host):
            return None
        try:
            address = ipaddress.IPv4Address(socket.inet_aton(host))
        except OSError:
            return None
    if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
        return address.ipv4_mapped
    return address


def local_address_kind(host: str | None) -> str | None:
    """Why ``host`` is no place for a remote service, or ``None``.

    ``"loopback"``: ``localhost``, ``*.localhost`` (RFC 6761), ``127.0.0.0/8``, ``::1``, in any
    spelling the resolver accepts (``2130706433``, ``[::ffff:127.0.0.1]``). ``"link-local"``:
    ``169.254.0.0/16`` (cloud metadata services) and ``fe80::/10``. ``"unspecified"``: ``0.0.0.0``
    and ``::``, which reach this machine. ``"multicast"``. Host names are not resolved.
    """
    if not host:
        return None
    host = host.lower().strip("[]").rstrip(".")
    if host == "localhost" or host.endswith(".localhost"):
        return "loopback"
    address = _address(host)
    if address is None:
        return None
    if address.is_loopback:
        return "loopback"
    if address.is_link_local:
        return "link-local"
    if address.is_unspecified:
        return "unspecified"
    if address.is_multicast:
        return "multicast"
    return None


def ensure_permitted_host(url: str, label: str, server_url: str, allow_loopback: bool | None = None) -> str:
    """Return ``url`` unless an MCP server at ``server_url`` may not send the client there.

    The MCP server's own origin is always permitted. Elsewhere, a link-local, unspecified or
    multicast address never is; a loopback one is when ``allow_loopback`` says so, or, when it
    is ``None``, when the MCP server is itself loopback (a local authorization server beside a
    local MCP server, as in development and tests).

    :raises InsecureURLError: naming ``label``, the URL and the reason.
    """
    parts = _split(url)
    try:
        if origin(url) == origin(server_url):
            return url
    except ValueError:
        pass
    kind = local_address_kind(parts.hostname if parts is not None else None)
    if kind is None:
        return url
    if kind == "loopback":
        server_is_loopback = is_loopback_host(urlsplit(server_url).hostname)
        if allow_loopback or (allow_loopback is None and server_is_loopback):
            return url
        reason = (
            f"is a loopback address and the MCP server {display_url(server_url)} is not"
            if allow_loopback is None
            else "is a loopback address and allow_loopback_authorization_servers is False"
        )
        hint = " (set allow_loopback_authorization_servers = True on the provider to allow it)"
    else:
        reason, hint = f"is a {kind} address", ""
    raise InsecureURLError(f"{label} {display_url(url)} {reason}; refusing to contact it{hint}")


def is_secure_url(url: str) -> bool:
    """Whether ``url`` is ``https://`` with a host, or ``http://`` to a loopback host."""
    parts = _split(url)
    if parts is None or not parts.hostname:
        return False
    scheme = parts.scheme.lower()
    if scheme == "https":
        return True
    return scheme == "http" and is_loopback_host(parts.hostname)


def display_url(url: str) -> str:
    """``url`` reduced to scheme, host, port and path, safe for messages and logs.

    Userinfo and query strings can carry credentials (``?api_key=``), so neither
    is ever echoed.
    """
    parts = _split(url)
    if parts is None or not parts.hostname:
        return "<invalid URL>"
    host = parts.hostname
    if ":" in host:
        host = f"[{host}]"
    netloc = host if parts.port is None else f"{host}:{parts.port}"
    return urlunsplit((parts.scheme, netloc, parts.path, "", ""))


def ensure_secure_url(url: str, label: str) -> str:
    """Return ``url`` when :func:`is_secure_url`, else raise :class:`InsecureURLError`."""
    if not is_secure_url(url):
        shown = display_url(url) if isinstance(url, str) else repr(type(url).__name__)
        raise InsecureURLError(
            f"{label} {shown} is not HTTPS or loopback; refusing to use it "
            "(MCP authorization, Communication Security)"
        )
    return url


def _remove_dot_segments(path: str) -> str:
    # RFC 3986 section 5.2.4, after decoding %2e so "/a/%2e%2e/b" cannot hide a "..".
    path = _ENCODED_DOT.sub(".", path)
    output: list[str] = []
    for segment in path.split("/"):
        if segment == "..":
            if len(output) > 1:
                output.pop()
        elif segment != ".":
            output.append(segment)
    result = "/".join(output)
    if path.endswith(("/.", "/..")):
        result += "/"
    if path.startswith("/") and not result.startswith("/"):
        result = "/" + result
    return result


def _netloc(parts: SplitResult) -> str:
    host = (parts.hostname or "").lower()
    if ":" in host:
        host = f"[{host}]"
    port = parts.port
    if port is None or port == _DEFAULT_PORTS.get(parts.scheme.lower()):
        return host
    return f"{host}:{port}"


def canonicalize_url(url: str) -> str:
    """The canonical form used to compare resource URIs.

    Lower-case scheme and host, default port dropped, userinfo and fragment
    dropped, dot segments resolved, and a bare ``/`` path removed. The query is
    kept verbatim. Raises ``ValueError`` for a URL without scheme or host.
    """
    parts = _split(url)
    if parts is None or not parts.scheme or not parts.hostname:
        raise ValueError("not an absolute URL")
    path = _remove_dot_segments(parts.path)
    if path == "/":
        path = ""
    return urlunsplit((parts.scheme.lower(), _netloc(parts), path, parts.query, ""))


def origin(url: str) -> str:
    """``scheme://host[:port]`` of ``url``, canonicalized."""
    parts = urlsplit(canonicalize_url(url))
    return f"{parts.scheme}://{parts.netloc}"


def resource_covers(prm_resource: str, server_url: str) -> bool:
    """Whether a PRM ``resource`` may govern ``server_url``.

    Same origin, and the resource path is the server path or a parent of it
    (segment-wise: ``/api`` covers ``/api/mcp``, not ``/apix``). A resource with a
    query covers only the identical query, so ``?tenant=a`` cannot mint tokens
    for ``?tenant=b``.
    """
    try:
        resource = urlsplit(canonicalize_url(prm_resource))
        server = urlsplit(canonicalize_url(server_url))
    except ValueError:
        return False
    if (resource.scheme, resource.netloc) != (server.scheme, server.netloc):
        return False
    prefix = resource.path.rstrip("/")
    if not (server.path.rstrip("/") == prefix or server.path.startswith(prefix + "/")):
        return False
    return not resource.query or resource.query == server.query


def _base_and_path(url: str) -> tuple[str, str]:
    parts = urlsplit(canonicalize_url(url))
    return f"{parts.scheme}://{parts.netloc}", parts.path.rstrip("/")


def protected_resource_metadata_urls(server_url: str, resource_metadata_url: str | None = None) -> list[str]:
    """Candidate RFC 9728 metadata URLs, in the order the MCP spec requires.

    The ``resource_metadata`` URL from ``WWW-Authenticate`` first, then the
    path-aware well-known URL, then the root one.
    """
    base, path = _base_and_path(server_url)
    urls = [resource_metadata_url] if resource_metadata_url else []
    if path:
        urls.append(f"{base}/.well-known/oauth-protected-resource{path}")
    urls.append(f"{base}/.well-known/oauth-protected-resource")
    return _unique(urls)


def authorization_server_metadata_urls(issuer: str) -> list[str]:
    """Candidate metadata URLs for an issuer (RFC 8414, then OpenID Connect Discovery).

    With a path component: OAuth path-inserted, OIDC path-inserted, OIDC
    path-appended. Without one: OAuth, then OIDC, at the root.
    """
    base, path = _base_and_path(issuer)
    if not path:
        return [f"{base}/.well-known/oauth-authorization-server", f"{base}/.well-known/openid-configuration"]
    return [
        f"{base}/.well-known/oauth-authorization-server{path}",
        f"{base}/.well-known/openid-configuration{path}",
        f"{base}{path}/.well-known/openid-configuration",
    ]


def same_endpoint(url: str, expected: str) -> bool:
    """Whether two URLs name the same origin, path and query once canonicalized."""
    try:
        return canonicalize_url(url) == canonicalize_url(expected)
    except ValueError:
        return False


def validate_client_id_metadata_document_url(url: str) -> str | None:
    """Why ``url`` cannot be a Client ID Metadata Document URL, or ``None`` when it can.

    draft-ietf-oauth-client-id-metadata-document: ``https`` with a non-root path,
    no fragment, no userinfo, no ``.``/``..`` segments; the SDK also refuses a
    query so the ``client_id`` stays stable.
    """
    if not isinstance(url, str):
        return "it is not a string"
    parts = _split(url)
    if parts is None or not parts.hostname:
        return "it is not an absolute URL"
    if parts.scheme.lower() != "https":
        return "it must use https"
    if parts.username is not None or parts.password is not None or "@" in parts.netloc:
        return "it must not contain userinfo"
    if "#" in url:
        return "it must not contain a fragment"
    if "?" in url:
        return "it must not contain a query"
    if parts.path in ("", "/"):
        return "it must have a non-root path"
    segments = _ENCODED_DOT.sub(".", parts.path).split("/")
    if any(segment in (".", "..") for segment in segments):
        return "it must not contain dot segments"
    return None


def _unique(urls: t.Iterable[str]) -> list[str]:
    seen: list[str] = []
    for url in urls:
        if url not in seen:
            seen.append(url)
    return seen
