"""Our SDK's client with an OAuth ``Provider``, signing in headlessly at a fixture authorization server."""

from __future__ import annotations

from mcp_sdk.client import HTTP, Client
from mcp_sdk.client.oauth import Provider

from .oauth_fixture import browser

REDIRECT_URI = "http://127.0.0.1:9/callback"


def oauth_client(url: str) -> tuple[Client, list[str]]:
    """A :class:`Client` for ``url`` whose provider signs in through a fake browser; also the URLs it visited."""
    redirect_handler, callback_handler, visited = browser()
    provider = Provider(
        client_metadata={
            "client_name": "spec client",
            "redirect_uris": [REDIRECT_URI],
            "grant_types": ["authorization_code", "refresh_token"],
            "response_types": ["code"],
            "token_endpoint_auth_method": "none",
        },
        redirect_uri=REDIRECT_URI,
        redirect_handler=redirect_handler,
        callback_handler=callback_handler,
    )
    return Client(HTTP(url=url, oauth=provider, timeout=30, standalone_stream=False)), visited
