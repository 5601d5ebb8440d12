"""DNS rebinding protection: ``Host`` and ``Origin`` checked against allow-lists.

A web page on ``evil.example.com`` can re-point its DNS name at 127.0.0.1 and
then talk to a server on the visitor's machine; the browser sends
``Host: evil.example.com`` (and a matching ``Origin``), which is what gives it
away. By default only loopback names pass, which fits a server bound to
localhost; a server reached under a real name lists it in ``allowed_hosts``.
https://modelcontextprotocol.io/specification/2025-11-25/basic/transports#security-warning
"""

from __future__ import annotations

import typing as t
from urllib.parse import urlsplit

#: Host names every server accepts (any port).
LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})

_MAX_VERDICTS = 256
#: Longest ``Host`` + ``Origin`` whose verdict is cached: the cache holds at most
#: 256 short keys, never attacker-sized ones.
_CACHED_KEY_CHARS = 512
#: How much of a refused header the refusal quotes.
_QUOTED_CHARS = 100


def host_name(authority: str) -> str:
    """``"127.0.0.1:80"`` -> ``"127.0.0.1"``, ``"[::1]:80"`` -> ``"::1"``, lower-cased."""
    authority = authority.strip().lower()
    if authority.startswith("["):
        end = authority.find("]")
        return authority[1:end] if end != -1 else authority
    if authority.count(":") == 1:
        return authority.split(":", 1)[0]
    return authority


class RebindingGuard:
    """Decides whether a request's ``Host`` and ``Origin`` may reach the server.

    :param allowed_hosts: extra ``Host`` values beyond the loopback names: a host
        name (any port) or ``host:port``; ``"*"`` accepts any.
    :param allowed_origins: extra ``Origin`` values (``"https://app.example.com"``);
        ``"*"`` accepts any. Same-origin requests and, on a loopback ``Host``,
        loopback origins on any port always pass.
    """

    def __init__(self, allowed_hosts: t.Iterable[str] | None = None, allowed_origins: t.Iterable[str] | None = None) -> None:
        hosts = {host.strip().lower() for host in allowed_hosts or ()}
        self.any_host = "*" in hosts
        self.hosts = frozenset(LOOPBACK_HOSTS | hosts)
        origins = {origin.strip().lower().rstrip("/") for origin in allowed_origins or ()}
        self.any_origin = "*" in origins
        self.origins = frozenset(origins)
        self._verdicts: dict[tuple[str | None, str | None], str | None] = {}  # clients repeat their headers

    def check(self, host: str | None, origin: str | None) -> str | None:
        """Return why the request is refused, or None when it may pass.

        A missing header passes: non-browser clients send no ``Origin``, HTTP/1.0 no ``Host``.

        :param host: the request's ``Host`` header, if any.
        :param origin: its ``Origin`` header, if any.
        """
        key = (host, origin)
        try:
            return self._verdicts[key]
        except KeyError:
            pass
        verdict = self._check(host, origin)
        if len(host or "") + len(origin or "") > _CACHED_KEY_CHARS:
            return verdict
        if len(self._verdicts) >= _MAX_VERDICTS:  # a flood of odd headers must not grow it without end
            self._verdicts.clear()
        self._verdicts[key] = verdict
        return verdict

    def _check(self, host: str | None, origin: str | None) -> str | None:
        if host is not None and not self.any_host:
            normalized = host.strip().lower()
            if host_name(normalized) not in self.hosts and normalized not in self.hosts:
                return f"Forbidden: Host {host[:_QUOTED_CHARS]!r} is not allowed; name it in StreamableHTTPTransport(allowed_hosts=[...])"
        if origin is not None and not self.any_origin and not self._origin_ok(origin, host):
            return f"Forbidden: Origin {origin[:_QUOTED_CHARS]!r} is not allowed; name it in StreamableHTTPTransport(allowed_origins=[...])"
        return None

    def _origin_ok(self, origin: str, host: str | None) -> bool:
        normalized = origin.strip().lower().rstrip("/")
        if normalized in self.origins:
            return True
        try:
            parts = urlsplit(normalized)
            origin_host = parts.hostname
            port = parts.port
        except ValueError:
            return False
        if parts.scheme not in ("http", "https") or origin_host is None:
            return False
        if host is None:
            return False
        request_host = host_name(host)
        if origin_host in LOOPBACK_HOSTS and request_host in LOOPBACK_HOSTS:
            return True
        default_port = 443 if parts.scheme == "https" else 80
        authority = host.strip().lower()
        if authority.endswith(f":{default_port}"):
            authority = authority[: -len(f":{default_port}")]
        netloc = parts.netloc if port != default_port else parts.netloc.rsplit(":", 1)[0]
        return netloc == authority


__all__ = ["LOOPBACK_HOSTS", "RebindingGuard", "host_name"]
