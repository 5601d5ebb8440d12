"""Requests to the token endpoint, with the client's authentication method (RFC 6749 section 2.3)."""

from __future__ import annotations

import base64
import typing as t
from urllib.parse import quote_plus

from ._http import OAuthHTTP, Response
from .authorization_errors import AuthorizationError, InvalidClientError, InvalidGrantError
from .discovery import AuthorizationServer

if t.TYPE_CHECKING:
    from .dpop import DPoPKey

#: RFC 7523 section 2.2.
JWT_BEARER_ASSERTION_TYPE = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"

# Error codes registered for token, registration and resource responses
# (RFC 6749, 6750, 7591, 8628, 8707, 9449); anything else is not echoed.
_KNOWN_ERROR_CODES = frozenset(
    {
        "invalid_request",
        "invalid_client",
        "invalid_grant",
        "unauthorized_client",
        "unsupported_grant_type",
        "invalid_scope",
        "invalid_target",
        "access_denied",
        "server_error",
        "temporarily_unavailable",
        "invalid_token",
        "insufficient_scope",
        "invalid_redirect_uri",
        "invalid_client_metadata",
        "invalid_software_statement",
        "unapproved_software_statement",
        "authorization_pending",
        "slow_down",
        "expired_token",
        "invalid_dpop_proof",
        "use_dpop_nonce",
    }
)

ClientAssertion = t.Callable[[str], str]


def client_authentication(
    client_info: t.Mapping[str, t.Any],
    issuer: str,
    client_assertion: ClientAssertion | None = None,
) -> tuple[dict[str, str], dict[str, str]]:
    """The form fields and headers that authenticate the client.

    ``client_secret_basic`` (the RFC 7591 default when a secret is present):
    ``Authorization: Basic`` over the form-urlencoded id and secret.
    ``client_secret_post``: ``client_id`` and ``client_secret`` in the form.
    ``private_key_jwt``: an RFC 7523 assertion whose audience is the issuer.
    ``none``: just ``client_id``.
    """
    client_id = _required_string(client_info, "client_id")
    if client_id is None and client_info.get("token_endpoint_auth_method") == "none":
        return {}, {}  # e.g. a workload whose assertion alone identifies it
    if client_id is None:
        raise AuthorizationError("client information has no client_id")
    secret = _required_string(client_info, "client_secret")
    method = client_info.get("token_endpoint_auth_method")
    if method == "private_key_jwt":
        if client_assertion is None:
            raise AuthorizationError("token_endpoint_auth_method is private_key_jwt but no signing key is configured")
        return {
            "client_assertion_type": JWT_BEARER_ASSERTION_TYPE,
            "client_assertion": client_assertion(issuer),
        }, {}
    if secret is not None and method in (None, "client_secret_basic"):
        # RFC 6749 section 2.3.1: form-urlencode each part before base64.
        raw = f"{quote_plus(client_id)}:{quote_plus(secret)}".encode()
        return {}, {"Authorization": "Basic " + base64.b64encode(raw).decode("ascii")}
    if secret is not None and method == "client_secret_post":
        return {"client_id": client_id, "client_secret": secret}, {}
    return {"client_id": client_id}, {}


def request_tokens(
    http: OAuthHTTP,
    server: AuthorizationServer,
    client_info: t.Mapping[str, t.Any],
    form: t.Mapping[str, str],
    client_assertion: ClientAssertion | None = None,
) -> dict[str, t.Any]:
    """POST ``form`` plus client authentication to the token endpoint; the token response.

    Raises :class:`InvalidGrantError` for ``invalid_grant`` and
    :class:`AuthorizationError` for any other failure.
    """
    token_endpoint = server.endpoint("token_endpoint")
    if token_endpoint is None:
        raise AuthorizationError("authorization server metadata has no token_endpoint")
    fields, headers = client_authentication(client_info, server.issuer, client_assertion)
    grant_type = form.get("grant_type", "")
    label = f"token request ({grant_type})"
    dpop = http.dpop
    if dpop is None:
        response = http.post_form(token_endpoint, {**form, **fields}, label, headers=headers)
    else:
        response = _post_with_proof(http, dpop, token_endpoint, {**form, **fields}, label, headers)
    if not response.ok:
        raise _refusal(response, grant_type)
    tokens = response.json_object("token response")
    _check_token_response(tokens, dpop is not None)
    return tokens


def _refusal(response: Response, grant_type: str) -> AuthorizationError:
    """The error for the token endpoint's refusal of a ``grant_type`` grant, by its OAuth error code."""
    code = _error_code(response)
    if code == "invalid_grant":
        return InvalidGrantError(f"token endpoint refused the {grant_type} grant: invalid_grant")
    if code == "invalid_client":
        return InvalidClientError(f"token endpoint returned HTTP {response.status} for the {grant_type} grant (invalid_client)")
    detail = f" ({code})" if code else ""
    return AuthorizationError(f"token endpoint returned HTTP {response.status} for the {grant_type} grant{detail}")


def _check_token_response(tokens: dict[str, t.Any], dpop: bool) -> None:
    """:raises AuthorizationError: ``tokens`` lacks an access token, or has a token type other than
        Bearer (or DPoP, with ``dpop``), or a refresh token or scope that is not a string."""
    access_token = tokens.get("access_token")
    if not isinstance(access_token, str) or not access_token:
        raise AuthorizationError("token response has no access_token")
    token_type = tokens.get("token_type", "Bearer")
    accepted = ("bearer", "dpop") if dpop else ("bearer",)
    if not isinstance(token_type, str) or token_type.lower() not in accepted:
        raise AuthorizationError(
            "token response token_type is not Bearer" + (" or DPoP" if dpop else "")
        )
    refresh_token = tokens.get("refresh_token")
    if refresh_token is not None and not isinstance(refresh_token, str):
        raise AuthorizationError("token response refresh_token is not a string")
    scope = tokens.get("scope")
    if scope is not None and not isinstance(scope, str):
        raise AuthorizationError("token response scope is not a string")


def _post_with_proof(
    http: OAuthHTTP,
    dpop: DPoPKey,
    url: str,
    form: t.Mapping[str, str],
    label: str,
    headers: t.Mapping[str, str],
) -> Response:
    """POST with a DPoP proof; on a ``use_dpop_nonce`` challenge, once more with the server's nonce (RFC 9449 section 8)."""
    response = http.post_form(url, form, label, headers={**headers, "DPoP": dpop.proof("POST", url)})
    fresh_nonce = dpop.remember_nonce(url, response.headers)
    if response.status in (400, 401) and fresh_nonce and _error_code(response) == "use_dpop_nonce":
        response = http.post_form(url, form, label, headers={**headers, "DPoP": dpop.proof("POST", url)})
        dpop.remember_nonce(url, response.headers)
    return response


def _error_code(response: Response) -> str | None:
    # Only a registered error code is surfaced: descriptions and unknown codes
    # are free text that could echo what the client sent.
    try:
        body = response.json_object("token error response")
    except AuthorizationError:
        return None
    code = body.get("error")
    return code if isinstance(code, str) and code in _KNOWN_ERROR_CODES else None


def _required_string(info: t.Mapping[str, t.Any], key: str) -> str | None:
    value = info.get(key)
    return value if isinstance(value, str) and value.strip() else None
