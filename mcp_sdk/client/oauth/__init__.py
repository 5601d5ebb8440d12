"""OAuth 2.1 authorization for the MCP HTTP client (MCP authorization spec 2025-11-25).

Pass a :class:`Provider` (authorization code + PKCE, interactive), a
:class:`ClientCredentialsProvider` (machine to machine) or a
:class:`CrossAppAccessProvider` (enterprise IdP, SEP-990) or a
:class:`WorkloadIdentityProvider` (a platform-issued JWT, RFC 7523) to the HTTP transport as
``HTTP(url=..., oauth=provider)``; the transport drives an :class:`OAuthClient`.
"""

from __future__ import annotations

from .authorization_errors import AuthorizationError as AuthorizationError
from .authorization_errors import InsecureURLError as InsecureURLError
from .authorization_errors import InvalidClientError as InvalidClientError
from .authorization_errors import InvalidGrantError as InvalidGrantError
from .client_credentials_provider import ClientCredentialsProvider as ClientCredentialsProvider
from .cross_app_access_provider import CrossAppAccessProvider as CrossAppAccessProvider
from .discovery import AuthorizationServer as AuthorizationServer
from .dpop import DPoPKey as DPoPKey
from .oauth_client import OAuthClient as OAuthClient
from .provider import Provider as Provider
from .storage import InMemoryStorage as InMemoryStorage
from .storage import Storage as Storage
from .workload_identity_provider import WorkloadIdentityProvider as WorkloadIdentityProvider
from .www_authenticate import parse_www_authenticate as parse_www_authenticate

__all__ = [
    "AuthorizationError",
    "AuthorizationServer",
    "ClientCredentialsProvider",
    "CrossAppAccessProvider",
    "DPoPKey",
    "InMemoryStorage",
    "InsecureURLError",
    "InvalidClientError",
    "InvalidGrantError",
    "OAuthClient",
    "Provider",
    "Storage",
    "WorkloadIdentityProvider",
    "parse_www_authenticate",
]
