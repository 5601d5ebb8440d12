"""The OAuth client's exceptions: :class:`AuthorizationError` and its kinds, all :class:`mcp_sdk.MCPError`.

Messages name URLs (without userinfo or query) and OAuth error codes, never an
access token, refresh token or client secret.
"""

from __future__ import annotations

from ...errors import MCPError


class AuthorizationError(MCPError):
    """The OAuth flow failed: discovery, registration, authorization or token exchange."""


class InvalidClientError(AuthorizationError):
    """The token endpoint refused the client with ``invalid_client`` (RFC 6749 section 5.2).

    A registration the authorization server has forgotten or revoked: the
    client registers again and retries once.
    """


class InvalidGrantError(AuthorizationError):
    """The token endpoint refused the grant with ``invalid_grant`` (RFC 6749 section 5.2).

    Raised for a dead refresh token or an authorization code that was already used.
    """


class InsecureURLError(AuthorizationError, ValueError):
    """A URL is neither HTTPS nor loopback, or is not the MCP server's URL.

    The MCP authorization spec's Communication Security section: every OAuth URL
    (metadata, endpoints, redirect URI) and the MCP URL itself must use HTTPS
    unless the host is loopback, so a bearer token never crosses plain HTTP.
    """
