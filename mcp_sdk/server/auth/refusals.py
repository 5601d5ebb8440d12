"""Why a request is refused: the errors of :mod:`mcp_sdk.server.auth`."""

from __future__ import annotations

from ... import error_codes
from ...errors import MCPError, RequestHandlerError


class AuthorizationServerUnavailable(MCPError):
    """The JWKS or introspection endpoint did not answer usably in time: the request gets 503."""


class AuthRefusal(MCPError):
    """An HTTP request refused by authentication: its status, message and headers.

    :param status: 401, 403 or 503.
    :param message: said in the JSON-RPC error body (never a token).
    :param headers: ``WWW-Authenticate`` and the like.
    """

    def __init__(self, status: int, message: str, headers: dict[str, str] | None = None) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.headers = headers or {}


class InsufficientScopeError(RequestHandlerError):
    """The caller lacks a scope the tool, prompt or resource requires (``data.requiredScopes``).

    :param required: the scopes the item requires, sent as ``data.requiredScopes``.
    """

    code = error_codes.INVALID_REQUEST

    def __init__(self, required: list[str]) -> None:
        super().__init__(f"Forbidden: insufficient scope (requires {' '.join(required)})", data={"requiredScopes": required})
        self.required = required


__all__ = ["AuthRefusal", "AuthorizationServerUnavailable", "InsufficientScopeError"]
