"""Authorization for the Streamable HTTP transport: the resource-server half of MCP authorization.

- :class:`BearerAuth` requires an OAuth access token, checked by a verifier:
  :class:`JWTVerifier` (JWKS), :class:`IntrospectionVerifier` (RFC 7662) or any
  callable ``verify(token) -> AccessToken | None``.
- :func:`protected_resource_metadata` serves RFC 9728 metadata telling clients where to get a token.
- ``StreamableHTTPTransport(server, authenticate=fn)`` with ``fn(environ) -> Principal | None``
  reuses the host application's own login instead (or as well).

Handlers read the caller as ``server_context.auth`` (a :class:`Principal`).
JWT verification needs the ``mcp_sdk[auth]`` extra (PyJWT and cryptography).
"""

from __future__ import annotations

from .bearer import BearerAuth, canonical_uri, metadata_url_for
from .errors import AuthorizationServerUnavailable, AuthRefusal, InsufficientScopeError
from .introspection import IntrospectionVerifier
from .jwt_verifier import JWTVerifier
from .metadata import protected_resource_metadata
from .principal import AccessToken, Principal

__all__ = [
    "AccessToken",
    "AuthRefusal",
    "AuthorizationServerUnavailable",
    "BearerAuth",
    "InsufficientScopeError",
    "IntrospectionVerifier",
    "JWTVerifier",
    "Principal",
    "canonical_uri",
    "metadata_url_for",
    "protected_resource_metadata",
]
