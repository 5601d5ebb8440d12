"""The interactive OAuth 2.1 client: authorization code with PKCE."""

from __future__ import annotations

import typing as t

from ...errors import MCPError
from ._provider_base import StorageBackedProvider
from .authorization_errors import InsecureURLError
from .storage import Storage

if t.TYPE_CHECKING:
    from .dpop import DPoPKey
from .url_rules import display_url, is_secure_url, validate_client_id_metadata_document_url


class UnregisteredRedirectURIError(MCPError, ValueError):
    """``redirect_uri`` is not listed in ``client_metadata["redirect_uris"]``."""


class InsecureRedirectURIError(InsecureURLError):
    """``redirect_uri`` is neither HTTPS nor a loopback URL."""


class InvalidClientIDMetadataDocumentURLError(MCPError, ValueError):
    """``client_id_metadata_document_url`` breaks the Client ID Metadata Document rules."""


class Provider(StorageBackedProvider):
    """OAuth client configuration for the authorization code grant with PKCE (S256).

    Hand it to the HTTP transport as ``HTTP(url=..., oauth=provider)``. On a ``401``
    the transport discovers the authorization server, registers the client if
    needed, sends the user to ``redirect_handler(url)``, reads ``(code, state)``
    from ``callback_handler()`` and exchanges the code for tokens.

    :param client_metadata: RFC 7591 client metadata sent to the registration
        endpoint; ``redirect_uris`` must list ``redirect_uri``. Listing
        ``refresh_token`` in ``grant_types`` makes the client ask for
        ``offline_access`` when the authorization server offers it.
    :param redirect_uri: where the authorization server sends the user back;
        HTTPS or loopback.
    :param redirect_handler: called with the authorization URL (a ``str``);
        typically opens a browser.
    :param callback_handler: called with no argument after the redirect; returns
        ``(code, state)``, or ``(code, state, iss)`` when it read the RFC 9207
        ``iss`` parameter.
    :param scope: space-separated scopes used when the server names none.
    :param dpop: ``True`` (a fresh ES256 key) or a :class:`~mcp_sdk.client.oauth.DPoPKey`:
        ask for DPoP-bound tokens (RFC 9449) and prove possession on every request.
    :param storage: a :class:`~mcp_sdk.client.oauth.Storage`; defaults to
        :class:`~mcp_sdk.client.oauth.InMemoryStorage`.
    :param client_id_metadata_document_url: the HTTPS URL of this client's Client
        ID Metadata Document, used as ``client_id`` when the authorization server
        advertises ``client_id_metadata_document_supported``.
    """

    UnregisteredRedirectURIError = UnregisteredRedirectURIError
    InsecureRedirectURIError = InsecureRedirectURIError
    InvalidClientIDMetadataDocumentURLError = InvalidClientIDMetadataDocumentURLError

    grant_type: t.ClassVar[str] = "authorization_code"

    def __init__(
        self,
        *,
        client_metadata: t.Mapping[str, t.Any],
        redirect_uri: str,
        redirect_handler: t.Callable[[str], t.Any],
        callback_handler: t.Callable[[], t.Sequence[t.Any]],
        scope: str | None = None,
        storage: Storage | None = None,
        dpop: bool | DPoPKey | None = None,
        client_id_metadata_document_url: str | None = None,
    ) -> None:
        super().__init__(scope, storage, dpop)
        if not isinstance(client_metadata, t.Mapping):
            raise TypeError("client_metadata must be a mapping of RFC 7591 client metadata")
        if not callable(redirect_handler) or not callable(callback_handler):
            raise TypeError("redirect_handler and callback_handler must be callables")
        if not is_secure_url(redirect_uri):
            raise InsecureRedirectURIError(
                f"redirect_uri {display_url(redirect_uri) if isinstance(redirect_uri, str) else redirect_uri!r} "
                "must use HTTPS or a loopback host (localhost, 127.0.0.0/8, ::1)"
            )
        redirect_uris = client_metadata.get("redirect_uris")
        if not isinstance(redirect_uris, (list, tuple)) or redirect_uri not in redirect_uris:
            raise UnregisteredRedirectURIError(
                "redirect_uri must be one of client_metadata['redirect_uris']"
            )
        if client_id_metadata_document_url is not None:
            problem = validate_client_id_metadata_document_url(client_id_metadata_document_url)
            if problem:
                raise InvalidClientIDMetadataDocumentURLError(
                    f"client_id_metadata_document_url is not a valid Client ID Metadata Document URL: {problem}"
                )
        #: RFC 7591 client metadata (a copy of what was passed).
        self.client_metadata: dict[str, t.Any] = dict(client_metadata)
        self.redirect_uri = redirect_uri
        self.redirect_handler = redirect_handler
        self.callback_handler = callback_handler
        self.client_id_metadata_document_url = client_id_metadata_document_url

    def wants_refresh_token(self) -> bool:
        """Whether ``client_metadata["grant_types"]`` lists ``refresh_token``."""
        grant_types = self.client_metadata.get("grant_types") or ()
        return isinstance(grant_types, (list, tuple)) and "refresh_token" in grant_types

    def __repr__(self) -> str:
        return f"<Provider redirect_uri={self.redirect_uri!r} scope={self.scope!r}>"
