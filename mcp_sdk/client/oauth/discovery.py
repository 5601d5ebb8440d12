"""Finding the authorization server of an MCP server (RFC 9728, RFC 8414, OIDC Discovery).

The 2025-11-25 path: Protected Resource Metadata names the authorization
server, whose metadata is fetched and checked. The 2025-03-26 fallback, for
servers without PRM: the MCP server's own origin is the authorization base URL,
and when it publishes no metadata either, ``/authorize``, ``/token`` and
``/register`` at that origin are used.
"""

from __future__ import annotations

import typing as t
from dataclasses import dataclass, field

from ._http import OAuthHTTP, UnreachableError
from .authorization_errors import AuthorizationError
from .url_rules import (
    authorization_server_metadata_urls,
    canonicalize_url,
    display_url,
    ensure_secure_url,
    origin,
    protected_resource_metadata_urls,
    resource_covers,
)

_ENDPOINTS = ("authorization_endpoint", "token_endpoint", "registration_endpoint")


@dataclass(frozen=True)
class AuthorizationServer:
    """What discovery found: the server to talk to and the resource to ask for.

    :param issuer: the authorization server's issuer identifier.
    :param metadata: its RFC 8414 metadata (the 2025-03-26 defaults when none is published).
    :param resource: the RFC 8707 ``resource`` sent on authorization and token requests.
    :param protected_resource_metadata: the Protected Resource Metadata, or None on the 2025-03-26 path.
    """

    #: The authorization server's issuer identifier.
    issuer: str
    #: Its RFC 8414 metadata (the 2025-03-26 defaults when none is published).
    metadata: dict[str, t.Any] = field(repr=False)
    #: The RFC 8707 ``resource`` sent on authorization and token requests.
    resource: str
    #: The Protected Resource Metadata, or ``None`` on the 2025-03-26 path.
    protected_resource_metadata: dict[str, t.Any] | None = field(default=None, repr=False)

    @property
    def legacy(self) -> bool:
        """Whether this came from the 2025-03-26 fallback (no PRM)."""
        return self.protected_resource_metadata is None

    def endpoint(self, name: str) -> str | None:
        """``authorization_endpoint``, ``token_endpoint`` or ``registration_endpoint``.

        :param name: the metadata key.
        :returns: the endpoint's URL, or None when the metadata has none.
        """
        value = self.metadata.get(name)
        return value if isinstance(value, str) and value else None

    def scopes_supported(self) -> list[str]:
        """The authorization server's ``scopes_supported`` (strings only)."""
        return _string_list(self.metadata.get("scopes_supported"))


def discover(http: OAuthHTTP, server_url: str, resource_metadata_url: str | None = None) -> AuthorizationServer:
    """Run discovery for ``server_url``; ``resource_metadata_url`` comes from ``WWW-Authenticate``.

    Raises :class:`~mcp_sdk.client.oauth.AuthorizationError` (or its
    ``InsecureURLError``) for hostile or unusable metadata.
    """
    if resource_metadata_url is not None:
        http.check(resource_metadata_url, "WWW-Authenticate resource_metadata URL")
    prm = _fetch_first(http, protected_resource_metadata_urls(server_url, resource_metadata_url), "protected resource metadata")
    if prm is None:
        return _legacy(http, server_url)

    issuer = _first_authorization_server(http, prm)
    resource = _resource(prm, server_url)
    metadata = _fetch_first(http, authorization_server_metadata_urls(issuer), "authorization server metadata")
    if metadata is None:
        raise AuthorizationError(f"no authorization server metadata found for {display_url(issuer)}")
    returned = metadata.get("issuer")
    # RFC 8414 section 3.3: the metadata must be about the issuer we asked for;
    # only a trailing "/" is forgiven.
    if not isinstance(returned, str) or returned.rstrip("/") != issuer.rstrip("/"):
        raise AuthorizationError(
            f"authorization server metadata issuer does not match {display_url(issuer)} (RFC 8414 section 3.3)"
        )
    _check_endpoints(http, metadata)
    return AuthorizationServer(issuer=returned, metadata=metadata, resource=resource, protected_resource_metadata=prm)


def _legacy(http: OAuthHTTP, server_url: str) -> AuthorizationServer:
    base = origin(server_url)
    ensure_secure_url(base, "MCP server origin")
    metadata = _fetch_first(http, authorization_server_metadata_urls(base), "authorization server metadata")
    if metadata is None:
        # 2025-03-26 "Fallbacks for Servers without Metadata Discovery"; that
        # revision mandates PKCE, so S256 is assumed.
        metadata = {
            "issuer": base,
            "authorization_endpoint": f"{base}/authorize",
            "token_endpoint": f"{base}/token",
            "registration_endpoint": f"{base}/register",
            "code_challenge_methods_supported": ["S256"],
        }
    _check_endpoints(http, metadata)
    issuer = metadata.get("issuer")
    return AuthorizationServer(
        issuer=issuer if isinstance(issuer, str) and issuer else base,
        metadata=metadata,
        resource=canonicalize_url(server_url),
    )


def _fetch_first(http: OAuthHTTP, urls: list[str], label: str) -> dict[str, t.Any] | None:
    # A missing document (any non-2xx, or no answer) moves on to the next
    # candidate; a document that is there but broken or oversized is an error.
    for url in urls:
        try:
            response = http.get(url, label)
        except UnreachableError:
            continue
        if response.ok:
            return response.json_object(f"{label} at {display_url(url)}")
    return None


def _first_authorization_server(http: OAuthHTTP, prm: dict[str, t.Any]) -> str:
    servers = prm.get("authorization_servers")
    if not isinstance(servers, list) or not servers:
        raise AuthorizationError("protected resource metadata has no authorization_servers")
    issuer = servers[0]
    if not isinstance(issuer, str) or not issuer:
        raise AuthorizationError("protected resource metadata authorization_servers[0] is not a URL")
    http.check(issuer, "authorization server")
    if "?" in issuer or "#" in issuer:  # RFC 8414 section 2: an issuer has no query or fragment
        raise AuthorizationError(
            f"authorization server issuer {display_url(issuer)} has a query or fragment (RFC 8414 section 2)"
        )
    return issuer


def _resource(prm: dict[str, t.Any], server_url: str) -> str:
    resource = prm.get("resource")
    if resource is None:
        return canonicalize_url(server_url)
    if not isinstance(resource, str) or not resource_covers(resource, server_url):
        shown = display_url(resource) if isinstance(resource, str) else type(resource).__name__
        raise AuthorizationError(
            f"protected resource metadata resource {shown} does not match the MCP server URL "
            f"{display_url(server_url)}; refusing tokens for another audience"
        )
    # Sent exactly as published: RFC 9728 section 3.3 identifiers are compared verbatim.
    return resource


def _check_endpoints(http: OAuthHTTP, metadata: dict[str, t.Any]) -> None:
    for name in _ENDPOINTS:
        value = metadata.get(name)
        if value is None:
            continue
        if not isinstance(value, str):
            raise AuthorizationError(f"authorization server metadata {name} is not a URL")
        http.check(value, f"authorization server {name}")


def _string_list(value: t.Any) -> list[str]:
    if not isinstance(value, list):
        return []
    return [item for item in value if isinstance(item, str)]
