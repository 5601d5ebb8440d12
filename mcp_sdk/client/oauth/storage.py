"""Where a provider keeps its tokens and client registration."""

from __future__ import annotations

import copy
import threading
import typing as t


@t.runtime_checkable
class Storage(t.Protocol):
    """What a provider's ``storage`` must answer.

    Both values are plain dicts in OAuth wire form: tokens as the token endpoint
    returned them (``access_token``, ``token_type``, ``refresh_token``, ``scope``,
    ...), client information as the registration endpoint returned it
    (``client_id``, ``client_secret``, ``token_endpoint_auth_method``, ...).
    ``None`` means nothing is stored, and saving ``None`` clears the value.
    """

    def tokens(self) -> dict[str, t.Any] | None:
        """The stored tokens, or ``None``."""
        ...

    def save_tokens(self, tokens: dict[str, t.Any] | None) -> None:
        """Store ``tokens`` (``None`` clears them).

        :param tokens: the token response (``access_token``, ``refresh_token``, ``expires_at``...), or None.
        """
        ...

    def client_information(self) -> dict[str, t.Any] | None:
        """The stored client registration, or ``None``."""
        ...

    def save_client_information(self, info: dict[str, t.Any] | None) -> None:
        """Store the client registration (``None`` clears it).

        :param info: the client's registration (``client_id``, ``client_secret``...), or None.
        """
        ...


class InMemoryStorage:
    """Keeps tokens and client information in process memory only (thread-safe).

    Values are copied in and out, so callers cannot mutate what is stored.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._tokens: dict[str, t.Any] | None = None
        self._client_information: dict[str, t.Any] | None = None

    def tokens(self) -> dict[str, t.Any] | None:
        """The stored tokens, or ``None``."""
        with self._lock:
            return copy.deepcopy(self._tokens)

    def save_tokens(self, tokens: dict[str, t.Any] | None) -> None:
        """Store ``tokens`` (``None`` clears them).

        :param tokens: the token response (``access_token``, ``refresh_token``, ``expires_at``...), or None.
        """
        with self._lock:
            self._tokens = copy.deepcopy(tokens)

    def client_information(self) -> dict[str, t.Any] | None:
        """The stored client registration, or ``None``."""
        with self._lock:
            return copy.deepcopy(self._client_information)

    def save_client_information(self, info: dict[str, t.Any] | None) -> None:
        """Store the client registration (``None`` clears it).

        :param info: the client's registration (``client_id``, ``client_secret``...), or None.
        """
        with self._lock:
            self._client_information = copy.deepcopy(info)

    def __repr__(self) -> str:
        # Never the values: they hold bearer tokens and client secrets.
        with self._lock:
            tokens = "set" if self._tokens else "unset"
            client = "set" if self._client_information else "unset"
        return f"<InMemoryStorage tokens={tokens} client_information={client}>"
