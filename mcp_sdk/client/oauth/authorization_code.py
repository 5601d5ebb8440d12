"""The authorization code grant with PKCE (OAuth 2.1 section 4.1, RFC 7636)."""

from __future__ import annotations

import base64
import hashlib
import hmac
import secrets
import typing as t
from urllib.parse import parse_qsl, urlencode, urlsplit, urlunsplit

from ._http import OAuthHTTP
from .authorization_errors import AuthorizationError
from .discovery import AuthorizationServer
from .provider import Provider
from .token_endpoint import request_tokens


class PKCE(t.NamedTuple):
    """A PKCE verifier and its S256 challenge."""

    verifier: str
    challenge: str

    @classmethod
    def generate(cls) -> PKCE:
        """A fresh pair: a 64-character verifier (RFC 7636 allows 43 to 128)."""
        verifier = secrets.token_urlsafe(48)
        digest = hashlib.sha256(verifier.encode("ascii")).digest()
        return cls(verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii"))


def authorization_url(
    endpoint: str,
    *,
    client_id: str,
    redirect_uri: str,
    code_challenge: str,
    state: str,
    scope: str | None,
    resource: str,
) -> str:
    """The authorization request URL: ``endpoint``'s own query plus the OAuth parameters."""
    parts = urlsplit(endpoint)
    params = parse_qsl(parts.query, keep_blank_values=True)
    params += [
        ("response_type", "code"),
        ("client_id", client_id),
        ("redirect_uri", redirect_uri),
        ("code_challenge", code_challenge),
        ("code_challenge_method", "S256"),
        ("state", state),
    ]
    if scope:
        params.append(("scope", scope))
    params.append(("resource", resource))
    return urlunsplit((parts.scheme, parts.netloc, parts.path, urlencode(params), ""))


def authorize(
    http: OAuthHTTP,
    provider: Provider,
    server: AuthorizationServer,
    client_info: t.Mapping[str, t.Any],
    scope: str | None,
) -> dict[str, t.Any]:
    """Send the user to the authorization server, check the answer, exchange the code.

    Calls ``provider.redirect_handler`` and ``provider.callback_handler``; returns
    the token response.
    """
    methods = server.metadata.get("code_challenge_methods_supported")
    if not isinstance(methods, list) or "S256" not in methods:
        # MCP 2025-11-25: without advertised PKCE support the client must refuse.
        raise AuthorizationError("the authorization server does not advertise S256 PKCE support; refusing to proceed")
    endpoint = server.endpoint("authorization_endpoint")
    if endpoint is None:
        raise AuthorizationError("authorization server metadata has no authorization_endpoint")

    pkce = PKCE.generate()
    state = secrets.token_urlsafe(32)
    url = authorization_url(
        endpoint,
        client_id=str(client_info["client_id"]),
        redirect_uri=provider.redirect_uri,
        code_challenge=pkce.challenge,
        state=state,
        scope=scope,
        resource=server.resource,
    )
    provider.redirect_handler(url)
    code = _check_callback(provider.callback_handler(), state, server)

    form = {
        "grant_type": "authorization_code",
        "code": code,
        "redirect_uri": provider.redirect_uri,
        "code_verifier": pkce.verifier,
        "resource": server.resource,
    }
    return request_tokens(http, server, client_info, form)


def _check_callback(result: t.Any, expected_state: str, server: AuthorizationServer) -> str:
    if not isinstance(result, (tuple, list)) or len(result) not in (2, 3):
        raise AuthorizationError("callback_handler must return (code, state) or (code, state, iss)")
    code, state = result[0], result[1]
    if not isinstance(code, str) or not code:
        raise AuthorizationError("the authorization response carried no code")
    # Constant-time comparison: the state is the CSRF defence of the redirect.
    if not isinstance(state, str) or not hmac.compare_digest(state.encode(), expected_state.encode()):
        raise AuthorizationError("the authorization response state does not match the request (CSRF protection)")
    if len(result) == 3:
        # RFC 9207: an ``iss`` must name the issuer we talked to; a handler that
        # looked and found none fails only when the server promised to send it.
        iss = result[2]
        if iss:
            if iss != server.issuer:
                raise AuthorizationError("the authorization response iss does not match the issuer (RFC 9207)")
        elif server.metadata.get("authorization_response_iss_parameter_supported") is True:
            raise AuthorizationError("the authorization response lacks the iss parameter the server advertises (RFC 9207)")
    return code
