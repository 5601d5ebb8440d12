"""Workload identity federation: a platform-issued JWT traded for an access token (RFC 7523, SEP-1933).

Kubernetes projected service-account tokens, cloud workload identity and CI
OIDC tokens are JWTs the platform writes to a file (or hands out through an
API). The client presents one to the MCP server's authorization server as the
``assertion`` of a ``urn:ietf:params:oauth:grant-type:jwt-bearer`` grant; no
client secret and no user are involved.
"""

from __future__ import annotations

import os
import typing as t

from ...errors import MCPError
from ._provider_base import StorageBackedProvider
from .authorization_errors import AuthorizationError
from .storage import Storage

if t.TYPE_CHECKING:
    from .dpop import DPoPKey

#: RFC 7523 section 2.1.
JWT_BEARER_GRANT = "urn:ietf:params:oauth:grant-type:jwt-bearer"
#: The largest workload token read from a file.
MAX_TOKEN_BYTES = 64 * 1024


class InvalidWorkloadIdentityError(MCPError, ValueError):
    """The provider's workload token source cannot be used."""


class WorkloadIdentityProvider(StorageBackedProvider):
    """OAuth client configuration for the ``jwt-bearer`` grant with a workload token.

    On a ``401`` the transport discovers the authorization server and posts the
    current workload JWT as ``assertion`` (with ``client_id`` when given). The
    token is read again for every grant, so a rotated file is picked up. A
    refused grant (``invalid_grant``, ``invalid_scope``, ``unauthorized_client``)
    raises at once: it is never retried nor replaced by another grant type.

    :param token_file: path of the file holding the JWT (e.g.
        ``/var/run/secrets/tokens/mcp-token``); surrounding whitespace is ignored.
    :param token: a callable returning the current JWT, instead of ``token_file``.
    :param client_id: this workload's client identifier at the authorization
        server, sent in the form (``token_endpoint_auth_method`` ``none``); omit
        it when the assertion alone identifies the workload.
    :param scope: space-separated scopes used when the server names none.
    :param storage: where tokens are kept; defaults to an in-memory store.
    :param dpop: ``True`` or a :class:`~mcp_sdk.client.oauth.DPoPKey` for DPoP-bound tokens.
    """

    InvalidWorkloadIdentityError = InvalidWorkloadIdentityError

    grant_type: t.ClassVar[str] = JWT_BEARER_GRANT

    def __init__(
        self,
        *,
        token_file: str | os.PathLike[str] | None = None,
        token: t.Callable[[], str] | None = None,
        client_id: str | None = None,
        scope: str | None = None,
        storage: Storage | None = None,
        dpop: bool | DPoPKey | None = None,
    ) -> None:
        super().__init__(scope, storage, dpop)
        if (token_file is None) == (token is None):
            raise InvalidWorkloadIdentityError("give exactly one of token_file and token")
        if token is not None and not callable(token):
            raise InvalidWorkloadIdentityError("token must be a callable returning the workload JWT")
        if client_id is not None and (not isinstance(client_id, str) or not client_id.strip()):
            raise InvalidWorkloadIdentityError("client_id must be a non-empty string")
        self.token_file = os.fspath(token_file) if token_file is not None else None
        self._token = token
        self.client_id = client_id

    def assertion(self) -> str:
        """The current workload JWT.

        :raises AuthorizationError: when the file cannot be read or the value is not a compact JWT.
        """
        if self._token is not None:
            value = self._token()
            source = "the token callable"
        else:
            source = f"token_file {self.token_file}"
            try:
                with open(t.cast(str, self.token_file), "rb") as handle:
                    raw = handle.read(MAX_TOKEN_BYTES + 1)
            except OSError as exc:
                raise AuthorizationError(f"cannot read the workload token from {source} ({type(exc).__name__})") from None
            if len(raw) > MAX_TOKEN_BYTES:
                raise AuthorizationError(f"the workload token in {source} exceeds {MAX_TOKEN_BYTES} bytes")
            value = raw.decode("ascii", "replace")
        if not isinstance(value, str):
            raise AuthorizationError(f"{source} did not give a string")
        value = value.strip()
        parts = value.split(".")
        if len(parts) != 3 or not all(parts[:2]) or any(ch.isspace() for ch in value):
            # The value itself is never echoed: it is a credential.
            raise AuthorizationError(f"the workload token from {source} is not a compact JWT")
        return value

    def client_information(self) -> dict[str, t.Any]:
        """``{"client_id": ..., "token_endpoint_auth_method": "none"}``, or ``{}`` without a client id."""
        if self.client_id is None:
            return {"token_endpoint_auth_method": "none"}
        return {"client_id": self.client_id, "token_endpoint_auth_method": "none"}

    def save_client_information(self, info: dict[str, t.Any] | None) -> None:
        """Workload clients are not registered; this is a no-op.

        :param info: ignored.
        """

    def __repr__(self) -> str:
        source = f"token_file={self.token_file!r}" if self.token_file is not None else "token=<callable>"
        return f"<WorkloadIdentityProvider {source} client_id={self.client_id!r} scope={self.scope!r}>"


__all__ = ["InvalidWorkloadIdentityError", "JWT_BEARER_GRANT", "WorkloadIdentityProvider"]
