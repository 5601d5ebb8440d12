"""Enterprise-managed authorization: Cross App Access (SEP-990, the ID-JAG grant).

The user signed in to an enterprise identity provider (IdP) and the application
holds their OpenID Connect ID token. Instead of a browser redirect, the client

1. exchanges that ID token at the IdP for an Identity Assertion JWT
   Authorization Grant (ID-JAG), RFC 8693 token exchange, naming the MCP
   server's authorization server as ``audience`` and the MCP server as ``resource``;
2. presents the ID-JAG to the MCP server's authorization server as an RFC 7523
   ``jwt-bearer`` grant, authenticating as its pre-registered client.

https://github.com/modelcontextprotocol/ext-auth/blob/main/specification/draft/enterprise-managed-authorization.mdx
draft-ietf-oauth-identity-assertion-authz-grant
"""

from __future__ import annotations

import typing as t

from ...errors import MCPError
from ._http import OAuthHTTP
from ._provider_base import StorageBackedProvider
from .authorization_errors import AuthorizationError
from .discovery import AuthorizationServer
from .storage import Storage

if t.TYPE_CHECKING:
    from .dpop import DPoPKey
from .token_endpoint import _error_code, client_authentication, request_tokens
from .url_rules import display_url, ensure_secure_url

#: RFC 8693 section 2.1.
TOKEN_EXCHANGE_GRANT = "urn:ietf:params:oauth:grant-type:token-exchange"
#: RFC 7523 section 2.1.
JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
#: draft-ietf-oauth-identity-assertion-authz-grant: the token type of an ID-JAG.
ID_JAG_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id-jag"
#: RFC 8693 section 3.
ID_TOKEN_TYPE = "urn:ietf:params:oauth:token-type:id_token"


class InvalidCrossAppAccessConfigurationError(MCPError, ValueError):
    """The provider's credentials or IdP settings cannot run the Cross App Access flow."""


class CrossAppAccessProvider(StorageBackedProvider):
    """OAuth client configuration for Cross App Access (SEP-990), no browser involved.

    On a ``401`` the transport discovers the MCP server's authorization server as
    usual, exchanges the user's ID token at the IdP for an ID-JAG, and trades the
    ID-JAG for an access token with the ``jwt-bearer`` grant. The ID token is
    never sent to the MCP server or its authorization server.

    :param client_id: this client's identifier at the MCP server's authorization server.
    :param client_secret: its secret there (the grant is for confidential clients).
    :param id_token: the user's OpenID Connect ID token from the IdP, or a
        callable returning a current one (called once per authorization, so an
        expired token can be renewed).
    :param idp_token_endpoint: the IdP's token endpoint; HTTPS or loopback.
    :param idp_client_id: this client's identifier at the IdP.
    :param idp_client_secret: its secret at the IdP, sent as ``client_secret``
        in the form; omit it for a public client at the IdP.
    :param token_endpoint_auth_method: ``"client_secret_basic"`` (default) or
        ``"client_secret_post"`` at the MCP server's authorization server.
    :param scope: space-separated scopes used when the server names none.
    :param dpop: ``True`` (a fresh ES256 key) or a :class:`~mcp_sdk.client.oauth.DPoPKey`:
        ask for DPoP-bound tokens (RFC 9449) and prove possession on every request.
    :param storage: where tokens are kept; defaults to an
        :class:`~mcp_sdk.client.oauth.InMemoryStorage`. Credentials and the ID
        token stay on the provider and are never written to it.
    """

    InvalidConfigurationError = InvalidCrossAppAccessConfigurationError

    SUPPORTED_AUTH_METHODS: t.ClassVar[tuple[str, ...]] = ("client_secret_basic", "client_secret_post")

    grant_type: t.ClassVar[str] = JWT_BEARER_GRANT

    def __init__(
        self,
        *,
        client_id: str,
        client_secret: str,
        id_token: str | t.Callable[[], str],
        idp_token_endpoint: str,
        idp_client_id: str,
        idp_client_secret: str | None = None,
        token_endpoint_auth_method: str = "client_secret_basic",
        scope: str | None = None,
        storage: Storage | None = None,
        dpop: bool | DPoPKey | None = None,
    ) -> None:
        super().__init__(scope, storage, dpop)
        for name, value in (("client_id", client_id), ("client_secret", client_secret), ("idp_client_id", idp_client_id)):
            if not isinstance(value, str) or not value.strip():
                raise InvalidCrossAppAccessConfigurationError(f"{name} is required for Cross App Access")
        if idp_client_secret is not None and (not isinstance(idp_client_secret, str) or not idp_client_secret.strip()):
            raise InvalidCrossAppAccessConfigurationError("idp_client_secret must be a non-empty string or None")
        if token_endpoint_auth_method not in self.SUPPORTED_AUTH_METHODS:
            raise InvalidCrossAppAccessConfigurationError(
                f"token_endpoint_auth_method must be one of {', '.join(self.SUPPORTED_AUTH_METHODS)}, "
                f"not {token_endpoint_auth_method!r}"
            )
        if not callable(id_token) and (not isinstance(id_token, str) or not id_token.strip()):
            raise InvalidCrossAppAccessConfigurationError("id_token must be a non-empty string or a callable returning one")
        if not isinstance(idp_token_endpoint, str):
            raise InvalidCrossAppAccessConfigurationError("idp_token_endpoint must be a URL")
        ensure_secure_url(idp_token_endpoint, "IdP token endpoint")
        self.client_id = client_id
        self.token_endpoint_auth_method = token_endpoint_auth_method
        self.idp_token_endpoint = idp_token_endpoint
        self.idp_client_id = idp_client_id
        self._client_secret = client_secret
        self._idp_client_secret = idp_client_secret
        self._id_token = id_token

    def client_information(self) -> dict[str, t.Any]:
        """The credentials at the MCP server's authorization server, in RFC 7591 form."""
        return {
            "client_id": self.client_id,
            "client_secret": self._client_secret,
            "token_endpoint_auth_method": self.token_endpoint_auth_method,
        }

    def save_client_information(self, info: dict[str, t.Any] | None) -> None:
        """Pre-registered credentials are fixed; this is a no-op.

        :param info: ignored.
        """

    def id_token(self) -> str:
        """The ID token to exchange: the one given, or a fresh one from the callable."""
        token = self._id_token() if callable(self._id_token) else self._id_token
        if not isinstance(token, str) or not token.strip():
            raise AuthorizationError("the id_token callable returned no ID token")
        return token

    def idp_client_information(self) -> dict[str, t.Any]:
        """The credentials at the IdP: ``client_secret_post`` with a secret, else a public client."""
        if self._idp_client_secret is None:
            return {"client_id": self.idp_client_id, "token_endpoint_auth_method": "none"}
        return {
            "client_id": self.idp_client_id,
            "client_secret": self._idp_client_secret,
            "token_endpoint_auth_method": "client_secret_post",
        }

    def __repr__(self) -> str:
        return (
            f"<CrossAppAccessProvider client_id={self.client_id!r} idp_client_id={self.idp_client_id!r} "
            f"idp_token_endpoint={display_url(self.idp_token_endpoint)!r} scope={self.scope!r}>"
        )


def request_authorization_grant(
    http: OAuthHTTP, provider: CrossAppAccessProvider, server: AuthorizationServer, scope: str | None
) -> str:
    """Exchange the ID token at the IdP for an ID-JAG (RFC 8693); returns the ID-JAG."""
    form = {
        "grant_type": TOKEN_EXCHANGE_GRANT,
        "requested_token_type": ID_JAG_TOKEN_TYPE,
        # The ID-JAG is for the MCP server's authorization server, about the MCP server.
        "audience": server.issuer,
        "resource": server.resource,
        "subject_token": provider.id_token(),
        "subject_token_type": ID_TOKEN_TYPE,
    }
    if scope:
        form["scope"] = scope
    fields, headers = client_authentication(provider.idp_client_information(), provider.idp_token_endpoint)
    response = http.post_form(provider.idp_token_endpoint, {**form, **fields}, "IdP token exchange", headers=headers)
    if not response.ok:
        code = _error_code(response)
        detail = f" ({code})" if code else ""
        raise AuthorizationError(f"IdP token exchange returned HTTP {response.status}{detail}")
    body = response.json_object("IdP token exchange response")
    grant = body.get("access_token")
    if not isinstance(grant, str) or not grant:
        raise AuthorizationError("IdP token exchange response has no access_token")
    if body.get("issued_token_type") != ID_JAG_TOKEN_TYPE:
        raise AuthorizationError(f"IdP token exchange did not issue an ID-JAG (issued_token_type must be {ID_JAG_TOKEN_TYPE})")
    return grant


def authorize(
    http: OAuthHTTP, provider: CrossAppAccessProvider, server: AuthorizationServer, scope: str | None
) -> dict[str, t.Any]:
    """The whole flow: ID token -> ID-JAG at the IdP -> access token at the authorization server."""
    grant = request_authorization_grant(http, provider, server, scope)
    form = {"grant_type": JWT_BEARER_GRANT, "assertion": grant, "resource": server.resource}
    if scope:
        form["scope"] = scope
    return request_tokens(http, server, provider.client_information(), form)
