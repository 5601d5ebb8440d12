"""The machine-to-machine OAuth client: the ``client_credentials`` grant."""

from __future__ import annotations

import typing as t

from ...errors import MCPError
from ._provider_base import StorageBackedProvider
from .storage import Storage

if t.TYPE_CHECKING:
    from .dpop import DPoPKey


class InvalidCredentialsError(MCPError, ValueError):
    """The credentials cannot authenticate a ``client_credentials`` request."""


class ClientCredentialsProvider(StorageBackedProvider):
    """OAuth client configuration for the ``client_credentials`` grant (RFC 6749 section 4.4).

    No user and no redirect: on a ``401`` the transport discovers the
    authorization server and exchanges the pre-registered credentials for a
    token. There is no PKCE, refresh token or ``offline_access``.

    :param client_id: the pre-registered client identifier.
    :param client_secret: its secret; required unless ``private_key_jwt`` is used.
    :param token_endpoint_auth_method: ``"client_secret_basic"`` (default),
        ``"client_secret_post"`` or ``"private_key_jwt"`` (RFC 7523, SEP-1046);
        ``"none"`` is refused.
    :param scope: space-separated scopes used when the server names none.
    :param dpop: ``True`` (a fresh ES256 key) or a :class:`~mcp_sdk.client.oauth.DPoPKey`:
        ask for DPoP-bound tokens (RFC 9449) and prove possession on every request.
    :param storage: where tokens are kept; defaults to an
        :class:`~mcp_sdk.client.oauth.InMemoryStorage`. The credentials stay on
        the provider and are never written to it.
    :param private_key: PEM (PKCS#8, PKCS#1 RSA or SEC1 EC) signing the
        ``private_key_jwt`` assertion.
    :param signing_algorithm: ``"ES256"`` or ``"RS256"``, with ``private_key``.
    """

    InvalidCredentialsError = InvalidCredentialsError

    SUPPORTED_AUTH_METHODS: t.ClassVar[tuple[str, ...]] = (
        "client_secret_basic",
        "client_secret_post",
        "private_key_jwt",
    )

    grant_type: t.ClassVar[str] = "client_credentials"

    def __init__(
        self,
        *,
        client_id: str,
        client_secret: str | None = None,
        token_endpoint_auth_method: str = "client_secret_basic",
        scope: str | None = None,
        storage: Storage | None = None,
        dpop: bool | DPoPKey | None = None,
        private_key: str | bytes | None = None,
        signing_algorithm: str | None = None,
    ) -> None:
        super().__init__(scope, storage, dpop)
        if not isinstance(client_id, str) or not client_id.strip():
            raise InvalidCredentialsError("client_id is required for the client_credentials grant")
        if token_endpoint_auth_method not in self.SUPPORTED_AUTH_METHODS:
            raise InvalidCredentialsError(
                f"token_endpoint_auth_method must be one of {', '.join(self.SUPPORTED_AUTH_METHODS)} "
                f"for the client_credentials grant, not {token_endpoint_auth_method!r}: "
                "an unauthenticated client_credentials request is not allowed"
            )
        self._signer = None
        if token_endpoint_auth_method == "private_key_jwt":
            if client_secret is not None:
                raise InvalidCredentialsError("client_secret must not be set with private_key_jwt")
            if private_key is None or not signing_algorithm:
                raise InvalidCredentialsError("private_key_jwt needs private_key and signing_algorithm (ES256 or RS256)")
            from .jwt_assertion import InvalidKeyError, JWTSigner

            try:
                self._signer = JWTSigner(private_key, signing_algorithm)
            except InvalidKeyError as exc:
                raise InvalidCredentialsError(str(exc)) from None
        elif not isinstance(client_secret, str) or not client_secret.strip():
            raise InvalidCredentialsError(
                f"client_secret is required for the client_credentials grant with {token_endpoint_auth_method}"
            )
        self.client_id = client_id
        self.token_endpoint_auth_method = token_endpoint_auth_method
        self._client_secret = client_secret

    def client_information(self) -> dict[str, t.Any]:
        """The credentials in RFC 7591 form (``client_id``, ``client_secret``, auth method)."""
        info: dict[str, t.Any] = {
            "client_id": self.client_id,
            "token_endpoint_auth_method": self.token_endpoint_auth_method,
        }
        if self._client_secret is not None:
            info["client_secret"] = self._client_secret
        return info

    def save_client_information(self, info: dict[str, t.Any] | None) -> None:
        """Pre-registered credentials are fixed; this is a no-op.

        :param info: ignored.
        """

    def client_assertion(self, audience: str) -> str:
        """A freshly signed RFC 7523 client assertion for ``audience`` (the issuer).

        :param audience: the authorization server's issuer.
        """
        if self._signer is None:
            raise InvalidCredentialsError("client_assertion needs token_endpoint_auth_method='private_key_jwt'")
        return self._signer.client_assertion(client_id=self.client_id, audience=audience)

    def __repr__(self) -> str:
        return (
            f"<ClientCredentialsProvider client_id={self.client_id!r} "
            f"token_endpoint_auth_method={self.token_endpoint_auth_method!r} scope={self.scope!r}>"
        )
