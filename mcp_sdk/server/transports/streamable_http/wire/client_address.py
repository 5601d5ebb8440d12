"""Who an anonymous request comes from, for the shares that bound one client: its network address.

The address is the WSGI server's ``REMOTE_ADDR``. The package trusts no forwarding header of its
own accord (``X-Forwarded-For`` is whatever the client wrote): behind a reverse proxy every client
has the proxy's address until the application is wrapped in werkzeug's
``ProxyFix(app, x_for=N)`` with ``N`` the proxies in front, which rewrites ``REMOTE_ADDR`` from the
header those proxies set.

An IPv6 client is counted by its ``/64`` network: a single host is routinely given a whole ``/64``
and can pick a fresh address within it for every request.
"""

from __future__ import annotations

import functools
import ipaddress
import typing as t

#: The prefix length under which IPv6 addresses count as one client.
IPV6_CLIENT_PREFIX = 64
#: The address of a request whose WSGI server gives none (a Unix socket): all such share one.
UNKNOWN_ADDRESS = "unknown"


def client_address(environ: t.Mapping[str, t.Any]) -> str:
    """The client a request comes from: ``REMOTE_ADDR``, an IPv6 one as its ``/64`` network.

    :param environ: the request's WSGI environ.
    :return: an IPv4 address, an IPv6 network (``"2001:db8:1:2::/64"``), the address as given when
        it does not parse, or :data:`UNKNOWN_ADDRESS` when the server gives none.
    """
    address = environ.get("REMOTE_ADDR")
    if not isinstance(address, str) or not address:
        return UNKNOWN_ADDRESS
    if ":" not in address:
        return address  # IPv4, the usual case: as the server wrote it
    return _ipv6_client(address)


@functools.lru_cache(maxsize=1024)
def _ipv6_client(address: str) -> str:
    try:
        parsed = ipaddress.IPv6Address(address.split("%", 1)[0])  # a zone index names a link, not a host
    except ValueError:
        return address
    if parsed.ipv4_mapped is not None:  # a dual-stack socket's IPv4 client
        return str(parsed.ipv4_mapped)
    return str(ipaddress.IPv6Network((parsed, IPV6_CLIENT_PREFIX), strict=False))


__all__ = ["IPV6_CLIENT_PREFIX", "UNKNOWN_ADDRESS", "client_address"]
