"""Getting a client identity at the authorization server.

The MCP spec's priority order: pre-registered credentials (from storage), then
a Client ID Metadata Document when the server supports it, then Dynamic Client
Registration (RFC 7591).
"""

from __future__ import annotations

import typing as t

from urllib.parse import urlsplit

from ._http import OAuthHTTP
from .authorization_errors import AuthorizationError
from .discovery import AuthorizationServer
from .provider import Provider
from .url_rules import is_loopback_host


#: Where a registration records the issuer of the authorization server it was made at.
ISSUER_KEY = "issuer"


def registered_here(info: t.Mapping[str, t.Any] | None, server: AuthorizationServer) -> bool:
    """Whether ``info`` came from dynamic registration at ``server`` (and may be thrown away and redone)."""
    return info is not None and info.get(ISSUER_KEY) == server.issuer


def ensure_client(http: OAuthHTTP, provider: Provider, server: AuthorizationServer) -> dict[str, t.Any]:
    """The client information to use with ``server``, registering when needed."""
    stored = provider.client_information()
    # SEP-2352: credentials belong to the authorization server that issued them;
    # after the resource moves to another one, register there (pre-registered
    # credentials carry no issuer and are the user's call).
    if stored is not None and _has_client_id(stored) and stored.get(ISSUER_KEY, server.issuer) == server.issuer:
        return stored

    cimd_url = provider.client_id_metadata_document_url
    # Only a JSON ``true`` opts in; the CIMD client_id is not stored, so a server
    # that later drops CIMD support is noticed on the next flow.
    if cimd_url is not None and server.metadata.get("client_id_metadata_document_supported") is True:
        return {"client_id": cimd_url, "token_endpoint_auth_method": "none"}

    registration_endpoint = server.endpoint("registration_endpoint")
    if registration_endpoint is None:
        raise AuthorizationError(
            "the authorization server has no registration_endpoint, does not support Client ID "
            "Metadata Documents for this client, and no client information is stored"
        )
    response = http.post_json(registration_endpoint, registration_metadata(provider.client_metadata),
                              "dynamic client registration")
    if not response.ok:
        raise AuthorizationError(f"dynamic client registration failed with HTTP {response.status}")
    info = response.json_object("dynamic client registration response")
    if not _has_client_id(info):
        raise AuthorizationError("dynamic client registration response has no client_id")
    requested_method = provider.client_metadata.get("token_endpoint_auth_method")
    if "token_endpoint_auth_method" not in info and isinstance(requested_method, str):
        # RFC 7591 section 3.2.1 echoes registered metadata; a server that omits
        # it accepted what was requested.
        info["token_endpoint_auth_method"] = requested_method
    info[ISSUER_KEY] = server.issuer
    provider.save_client_information(info)
    return info


def registration_metadata(metadata: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
    """What is sent to the registration endpoint: ``metadata`` with an ``application_type`` (SEP-837).

    Unless the caller chose one: ``"native"`` when every redirect URI is on a
    loopback host (an app on the user's machine), ``"web"`` otherwise.
    """
    body = dict(metadata)
    if "application_type" not in body:
        uris = body.get("redirect_uris")
        loopback = isinstance(uris, (list, tuple)) and bool(uris) and all(
            isinstance(uri, str) and is_loopback_host(urlsplit(uri).hostname) for uri in uris
        )
        body["application_type"] = "native" if loopback else "web"
    return body


def _has_client_id(info: t.Mapping[str, t.Any]) -> bool:
    client_id = info.get("client_id")
    return isinstance(client_id, str) and bool(client_id.strip())
