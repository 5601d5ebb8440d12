"""Authorization for the Streamable HTTP transport: the resource-server half of MCP authorization.

- :class:`BearerAuth` requires an OAuth access token, checked by a verifier:
  :class:`JWTVerifier` (JWKS), :class:`IntrospectionVerifier` (RFC 7662) or any
  callable ``verify(token) -> AccessToken | None``.
- ``BearerAuth(..., dpop=DPoPVerifier())`` also accepts DPoP-bound tokens (RFC 9449) and checks their proofs.
- :func:`protected_resource_metadata` serves RFC 9728 metadata telling clients where to get a token.
- ``StreamableHTTPTransport(server, authenticate=fn)`` with ``fn(environ) -> Principal | None``
  reuses the host application's own login instead (or as well).

Handlers read the caller as ``server_context.auth`` (a :class:`Principal`).
JWT verification needs the ``mcp_sdk[auth]`` extra (PyJWT and cryptography).
"""

from __future__ import annotations

import typing as t

from ..._lazy_names import lazy_names

if t.TYPE_CHECKING:
    from .bearer import BearerAuth, canonical_uri, metadata_url_for
    from .dpop_verifier import DPoPNonceRequiredError, DPoPVerifier, InvalidDPoPProofError
    from .introspection import IntrospectionVerifier
    from .jwt_verifier import JWTVerifier
    from .metadata import protected_resource_metadata
    from .principal import AccessToken, Principal
    from .refusals import AuthorizationServerUnavailable, AuthRefusal, InsufficientScopeError

#: Where each public name lives. They load when first asked for: the server imports
#: ``auth.scopes`` (a stdio server too), which must not pull in the verifiers.
_HOMES = {
    "AccessToken": "principal",
    "AuthRefusal": "refusals",
    "AuthorizationServerUnavailable": "refusals",
    "BearerAuth": "bearer",
    "DPoPNonceRequiredError": "dpop_verifier",
    "DPoPVerifier": "dpop_verifier",
    "InsufficientScopeError": "refusals",
    "InvalidDPoPProofError": "dpop_verifier",
    "IntrospectionVerifier": "introspection",
    "JWTVerifier": "jwt_verifier",
    "Principal": "principal",
    "canonical_uri": "bearer",
    "metadata_url_for": "bearer",
    "protected_resource_metadata": "metadata",
}

__getattr__ = lazy_names(__name__, _HOMES, globals())

__all__ = [
    "AccessToken",
    "AuthRefusal",
    "AuthorizationServerUnavailable",
    "BearerAuth",
    "DPoPNonceRequiredError",
    "DPoPVerifier",
    "InsufficientScopeError",
    "InvalidDPoPProofError",
    "IntrospectionVerifier",
    "JWTVerifier",
    "Principal",
    "canonical_uri",
    "metadata_url_for",
    "protected_resource_metadata",
]
