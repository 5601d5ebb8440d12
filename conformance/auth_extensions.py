"""Client scenarios of the auth extensions: DPoP (SEP-1932) and workload identity (SEP-1933).

Kept apart from ``client.py`` so each extension's scenarios live in one small
place; ``client.py`` calls :func:`register` with its own helpers.
"""

from __future__ import annotations

import typing as t

from mcp_sdk.client.oauth import DPoPKey, Provider, WorkloadIdentityProvider

Scenario = t.Callable[[str, t.Dict[str, t.Any]], None]


def register(
    scenario: t.Callable[..., t.Callable[[Scenario], Scenario]],
    authorization_code_provider: t.Callable[[dict[str, t.Any]], Provider],
    use_protected_server: t.Callable[[str, t.Any], None],
) -> None:
    """Add the ``auth/dpop``, ``auth/dpop-nonce`` and ``auth/wif-jwt-bearer`` scenarios."""

    @scenario("auth/dpop", "auth/dpop-nonce")
    def dpop(url: str, context: dict[str, t.Any]) -> None:
        """The authorization code flow asking for a DPoP-bound token (ES256 key), then DPoP-proved MCP requests."""
        provider = authorization_code_provider(context)
        provider.dpop = DPoPKey()
        use_protected_server(url, provider)

    @scenario("auth/wif-jwt-bearer")
    def workload_identity(url: str, context: dict[str, t.Any]) -> None:
        """Workload identity federation: the platform's JWT as a jwt-bearer grant (RFC 7523)."""
        valid_jwt = context["valid_jwt"]
        provider = WorkloadIdentityProvider(token=lambda: valid_jwt, client_id=context.get("client_id"))
        use_protected_server(url, provider)
