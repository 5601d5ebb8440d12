"""Who a request counts against, for :class:`~.rate_limit.RateLimit`: :func:`caller_key`.

An authenticated request counts against its principal. An anonymous one counts against
the address it came from: a session id (2025) or a fresh 2026-07-28 request costs the
client nothing to change, so neither can key a limit, and one bucket for every anonymous
caller would let one of them get all the others refused.

The address is the WSGI ``REMOTE_ADDR``: the transport has no proxy setting of its own.
Behind a reverse proxy, wrap the WSGI app in werkzeug's ``ProxyFix(app, x_for=N)`` (N: the
proxies you run), which sets ``REMOTE_ADDR`` from the ``X-Forwarded-For`` entry the nearest
of your proxies added; a header the client wrote itself is never read. An IPv6 address
counts as its /64 network, the block one subscriber is given, so that a client cannot take
a new bucket by taking a new address of its own block.
"""

from __future__ import annotations

import ipaddress
import typing as t

if t.TYPE_CHECKING:
    from ..request import Request

#: The prefix length an IPv6 client is counted by (RFC 6177: a subscriber's smallest block).
IPV6_PREFIX = 64


def caller_key(request: Request) -> t.Hashable:
    """Who ``request`` counts against: ``("principal", issuer, subject, client_id)`` when it is
    authenticated; else ``("address", address)`` (see :func:`client_address`); else, off HTTP
    (stdio: one client), ``("anonymous",)``.

    :param request: the request.
    """
    principal = request.principal
    if principal is not None:
        return ("principal", *principal.key)
    address = client_address(request)
    if address is not None:
        return ("address", address)
    return ("anonymous",)


def client_address(request: Request) -> str | None:
    """The address ``request`` came from: its HTTP request's ``REMOTE_ADDR`` (an IPv6 one as
    its /64 network); None off HTTP.

    :param request: the request.
    """
    environ = _environ(request.http_request)
    if environ is None:
        return None
    address = environ.get("REMOTE_ADDR")
    if type(address) is not str or not address:
        return None
    try:
        parsed = ipaddress.ip_address(address.split("%", 1)[0])
    except ValueError:  # a Unix socket's peer, say: the server's own word for it
        return address
    if isinstance(parsed, ipaddress.IPv6Address):
        if parsed.ipv4_mapped is not None:
            return str(parsed.ipv4_mapped)
        return str(ipaddress.IPv6Network((parsed, IPV6_PREFIX), strict=False))
    return str(parsed)


def _environ(carrier: t.Any) -> t.Mapping[str, t.Any] | None:
    """The WSGI environ of what a transport passed as the HTTP request: the transport's
    carrier or a werkzeug/Flask request (``environ``), a Django request (``META``)."""
    if carrier is None:
        return None
    for candidate in (carrier, carrier() if callable(carrier) and not hasattr(carrier, "environ") else None):
        for name in ("environ", "META"):
            environ = getattr(candidate, name, None)
            if isinstance(environ, dict):
                return environ
    return None


__all__ = ["IPV6_PREFIX", "caller_key", "client_address"]
