"""What both providers share: a scope and a storage they delegate to."""

from __future__ import annotations

import typing as t

from .storage import InMemoryStorage, Storage

if t.TYPE_CHECKING:
    from .dpop import DPoPKey


class StorageBackedProvider:
    """Token and client-information access through the provider's ``storage``."""

    #: ``"authorization_code"`` or ``"client_credentials"``: the grant the flow runs.
    grant_type: t.ClassVar[str]

    def __init__(self, scope: str | None, storage: Storage | None, dpop: "bool | DPoPKey | None" = None) -> None:
        if scope is not None and not isinstance(scope, str):
            raise TypeError("scope must be a space-separated string")
        if storage is not None and not isinstance(storage, Storage):
            raise TypeError(
                "storage must provide tokens(), save_tokens(), client_information() and save_client_information()"
            )
        #: Space-separated scopes requested when neither the server nor its metadata names any.
        self.scope = (scope.strip() or None) if scope else None
        #: Where tokens (and, for :class:`Provider`, the client registration) are kept.
        self.storage: Storage = storage if storage is not None else InMemoryStorage()
        #: Whether the OAuth requests (metadata, authorization server, its endpoints) may go to a
        #: loopback address other than the MCP server's own origin. ``None`` (the default): only
        #: when the MCP server is itself loopback. ``True``: always (a local authorization server
        #: in tests or development). ``False``: never. Link-local addresses (cloud metadata at
        #: 169.254.169.254) are always refused. Set it before the provider is passed to ``HTTP``.
        self.allow_loopback_authorization_servers: bool | None = None
        #: The DPoP key proving possession of the tokens (RFC 9449), or ``None`` for bearer tokens.
        self.dpop: DPoPKey | None = None
        if dpop is not None and dpop is not False:
            from .dpop import resolve_dpop  # lazily: DPoP needs the [auth] extra

            self.dpop = resolve_dpop(dpop)

    def tokens(self) -> dict[str, t.Any] | None:
        """The stored tokens (OAuth wire form), or ``None``."""
        tokens = self.storage.tokens()
        return tokens if isinstance(tokens, dict) else None

    def save_tokens(self, tokens: dict[str, t.Any] | None) -> None:
        """Store ``tokens``; ``None`` clears them.

        :param tokens: the token response (``access_token``, ``refresh_token``, ``expires_at``...), or None.
        """
        self.storage.save_tokens(tokens)

    def client_information(self) -> dict[str, t.Any] | None:
        """The stored client registration, or ``None``."""
        info = self.storage.client_information()
        return info if isinstance(info, dict) else None

    def save_client_information(self, info: dict[str, t.Any] | None) -> None:
        """Store the client registration; ``None`` clears it.

        :param info: the client's registration (``client_id``, ``client_secret``...), or None.
        """
        self.storage.save_client_information(info)

    @property
    def access_token(self) -> str | None:
        """The stored access token, or ``None``."""
        tokens = self.tokens() or {}
        token = tokens.get("access_token")
        return token if isinstance(token, str) and token else None
