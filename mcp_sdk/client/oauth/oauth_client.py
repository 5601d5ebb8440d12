"""The bridge between the HTTP transport and the OAuth flows."""

from __future__ import annotations

import logging
import threading
import time
import typing as t

import requests

from ...errors import RequestTimeoutError
from . import scope_selection
from ._http import OAuthHTTP
from .authorization_code import authorize
from .authorization_errors import AuthorizationError, InsecureURLError, InvalidClientError, InvalidGrantError
from .client_credentials_provider import ClientCredentialsProvider
from .cross_app_access_provider import CrossAppAccessProvider
from .cross_app_access_provider import authorize as authorize_cross_app_access
from .discovery import AuthorizationServer, discover
from .provider import Provider
from .registration import ensure_client, registered_here
from .token_endpoint import request_tokens
from .url_rules import display_url, ensure_secure_url, same_endpoint
from .workload_identity_provider import JWT_BEARER_GRANT, WorkloadIdentityProvider
from .www_authenticate import parse_www_authenticate, token_challenge

logger = logging.getLogger("mcp_sdk.client.oauth")

AnyProvider = t.Union[Provider, ClientCredentialsProvider, CrossAppAccessProvider, WorkloadIdentityProvider]

#: Seconds during which a rejected, never-accepted new token counts as "just issued".
FRESH_TOKEN_WINDOW = 30.0
#: The most seconds before ``expires_in`` runs out that a token is refreshed.
REFRESH_AHEAD_SECONDS = 60.0


class _Issued(t.NamedTuple):
    # The last token this client obtained and how. While it is fresh (no response
    # has accepted it yet, and it is seconds old), a 401 on it ends in an error
    # instead of another flow.
    access_token: str
    how: str  # "flow" or "refresh"
    requested_scope: str | None
    at: float


class OAuthClient:
    """Authorizes requests to one MCP server URL on behalf of a provider.

    The HTTP transport calls :meth:`check_url` before sending, adds
    :meth:`auth_headers` to every request, and passes every response from the
    MCP URL to :meth:`handle_response`, retrying the request once when it
    returns ``True``. OAuth requests go through ``session`` and never carry the
    bearer token.

    :param provider: a :class:`Provider`, :class:`ClientCredentialsProvider`,
        :class:`CrossAppAccessProvider` or :class:`WorkloadIdentityProvider`.
    :param server_url: the MCP endpoint URL; HTTPS or loopback, else
        :class:`InsecureURLError`.
    :param session: the ``requests.Session`` used for OAuth calls.
    :param timeout: seconds allowed for each OAuth HTTP call.
    """

    def __init__(
        self,
        provider: AnyProvider,
        server_url: str,
        session: requests.Session,
        *,
        timeout: float | None = 30.0,
    ) -> None:
        if not isinstance(provider, (Provider, ClientCredentialsProvider, CrossAppAccessProvider, WorkloadIdentityProvider)):
            raise TypeError(
                "provider must be a Provider, a ClientCredentialsProvider, a CrossAppAccessProvider "
                "or a WorkloadIdentityProvider"
            )
        ensure_secure_url(server_url, "MCP server URL")
        self.provider = provider
        self.server_url = server_url
        self.session = session
        self._http = OAuthHTTP(
            session, timeout, server_url=server_url, allow_loopback=provider.allow_loopback_authorization_servers
        )
        self._http.dpop = provider.dpop
        # Held for a whole flow, user callbacks included, so concurrent 401s
        # produce one flow; auth_headers() never takes it.
        self._lock = threading.Lock()
        self._server: AuthorizationServer | None = None
        self._issued: _Issued | None = None
        self._accepted_token: str | None = None
        #: When (time.monotonic) to refresh the token ahead of its expiry; None: never.
        self._expires_at: float | None = None

    def check_url(self, url: str) -> None:
        """Raise :class:`InsecureURLError` unless ``url`` is secure and is the MCP server URL.

        Origin, path and query are compared after canonicalization, so the bearer
        token never goes to another host, path or tenant.

        :param url: the URL a token is about to be sent to.
        """
        ensure_secure_url(url, "MCP request URL")
        if not same_endpoint(url, self.server_url):
            raise InsecureURLError(
                f"request URL {display_url(url)} is not the MCP server URL {display_url(self.server_url)}; "
                "refusing to send the bearer token"
            )

    def auth_headers(self, method: str | None = None, url: str | None = None) -> dict[str, str]:
        """``{"Authorization": "Bearer <token>"}`` when a token is stored, else ``{}``.

        A DPoP-bound token (``token_type`` ``DPoP``) goes as ``Authorization: DPoP
        <token>``, with a fresh ``DPoP`` proof for ``method`` and ``url`` when both
        are given. A token about to run out (``expires_in``) is refreshed first,
        when a refresh token is stored.

        :param method: the request's HTTP method (for a DPoP proof).
        :param url: the request's URL (for a DPoP proof).
        :returns: the headers to add to the request.
        """
        expires_at = self._expires_at
        if expires_at is not None and time.monotonic() >= expires_at:
            self._refresh_ahead()
        tokens = self.provider.tokens() or {}
        token = self.provider.access_token
        if not token:
            return {}
        dpop = self.provider.dpop
        token_type = tokens.get("token_type")
        if dpop is None or not isinstance(token_type, str) or token_type.lower() != "dpop":
            return {"Authorization": f"Bearer {token}"}
        headers = {"Authorization": f"DPoP {token}"}
        if method is not None and url is not None:
            headers["DPoP"] = dpop.proof(method, url, access_token=token)
        return headers

    def wants_nonce_retry(self, response: requests.Response) -> bool:
        """Whether ``response`` is a DPoP ``use_dpop_nonce`` challenge with a new nonce (RFC 9449 section 9).

        Any ``DPoP-Nonce`` the MCP server sends is kept for the next proofs.

        :param response: the MCP server's response.
        """
        dpop = self.provider.dpop
        if dpop is None:
            return False
        fresh = dpop.remember_nonce(self.server_url, response.headers)
        if not fresh or response.status_code != 401:
            return False
        for challenge in parse_www_authenticate(response.headers.get("WWW-Authenticate")):
            if challenge.scheme.lower() == "dpop" and challenge.params.get("error") == "use_dpop_nonce":
                return True
        return False

    def _refresh_ahead(self) -> None:
        # Never wait for the lock: a flow holding it may be waiting for a user.
        if not self._lock.acquire(blocking=False):
            return
        try:
            self._expires_at = None
            tokens = self.provider.tokens() or {}
            if _string(tokens.get("refresh_token")):
                self._refresh(tokens, None)
        except AuthorizationError as error:  # the server's 401 will start a flow
            logger.info("OAuth: refreshing ahead of expiry failed (%s)", error)
        finally:
            self._lock.release()

    def handle_response(self, response: requests.Response, *, wait: float | None = None) -> bool:
        """Run whatever flow ``response`` calls for; ``True`` means retry the request once.

        A ``401`` refreshes the token when a refresh token is stored, else runs
        discovery, registration, authorization and the token exchange. A ``403``
        whose Bearer challenge says ``insufficient_scope`` re-authorizes for the
        granted plus the challenged scopes. Anything else returns ``False``.

        Raises :class:`AuthorizationError` when a flow fails, or when the server
        rejects a token a full flow has just issued (instead of looping).

        :param wait: seconds to wait for another thread's flow to finish (``None``:
            as long as it takes); past it, :class:`~mcp_sdk.RequestTimeoutError`.
        :param response: the MCP server's response to a request.
        """
        status = response.status_code
        if status not in (401, 403):
            self._accepted(_sent_token(response))
            return False
        challenge = token_challenge(response.headers.get("WWW-Authenticate")) or {}
        if status == 403 and challenge.get("error") != "insufficient_scope":
            return False
        sent = _sent_token(response)
        if not self._lock.acquire(timeout=-1 if wait is None else max(wait, 0)):
            raise RequestTimeoutError(
                f"waited {wait:g} seconds for another request's OAuth flow to finish (it may be waiting for the user); giving up"
            )
        try:
            current = self.provider.access_token
            if current is not None and current != sent:
                # Another thread obtained a token after this request went out.
                return True
            if status == 403:
                return self._step_up(challenge, sent)
            return self._unauthorized(challenge, sent)
        finally:
            self._lock.release()

    def _accepted(self, sent: str | None) -> None:
        # A plain assignment, not the lock: a flow may hold the lock for minutes.
        if sent is not None:
            self._accepted_token = sent

    def _fresh(self, sent: str | None, how: str) -> bool:
        issued = self._issued
        return (
            sent is not None
            and issued is not None
            and issued.access_token == sent
            and issued.how == how
            and self._accepted_token != sent
            and time.monotonic() - issued.at < FRESH_TOKEN_WINDOW
        )

    def _unauthorized(self, challenge: dict[str, str], sent: str | None) -> bool:
        challenge_scope = challenge.get("scope")
        issued = self._issued
        # Asking again for scopes a flow has just obtained would loop; a
        # challenge for more scopes is a step-up, and the scope set only grows.
        if self._fresh(sent, "flow") and issued is not None and scope_selection.covers(issued.requested_scope, challenge_scope):
            raise AuthorizationError(
                f"the MCP server at {display_url(self.server_url)} rejected a token that was just issued"
            )
        tokens = self.provider.tokens() or {}
        granted = _string(tokens.get("scope"))
        # A 401 naming scopes the token lacks is a step-up: refreshing would
        # re-issue the same scopes.
        needs_more = sent is not None and bool(challenge_scope) and not scope_selection.covers(granted, challenge_scope)
        just_refreshed = self._fresh(sent, "refresh")
        if _string(tokens.get("refresh_token")) and not needs_more and not just_refreshed:
            try:
                self._refresh(tokens, challenge.get("resource_metadata"))
                return True
            except InsecureURLError:
                raise
            except InvalidGrantError:
                logger.info("OAuth refresh token was refused; starting a new authorization")
                self.provider.save_tokens(None)
            except AuthorizationError as exc:
                logger.info("OAuth refresh failed (%s); starting a new authorization", exc)
        scope = scope_selection.union(granted, challenge_scope) if needs_more else challenge_scope
        self._full_flow(challenge.get("resource_metadata"), scope)
        return True

    def _step_up(self, challenge: dict[str, str], sent: str | None) -> bool:
        challenge_scope = challenge.get("scope")
        issued = self._issued
        if (
            issued is not None
            and issued.access_token == sent
            and issued.how == "flow"
            and scope_selection.covers(issued.requested_scope, challenge_scope)
        ):
            # This token came from asking for these very scopes and is still
            # refused: surface the 403 rather than ask the user again.
            return False
        granted = _string((self.provider.tokens() or {}).get("scope"))
        self._full_flow(challenge.get("resource_metadata"), scope_selection.union(granted, challenge_scope))
        return True

    def _full_flow(self, resource_metadata_url: str | None, challenge_scope: str | None) -> None:
        logger.info("OAuth: authorizing for %s", display_url(self.server_url))
        server = discover(self._http, self.server_url, resource_metadata_url)
        self._server = server
        prm_scopes = _string_list((server.protected_resource_metadata or {}).get("scopes_supported"))
        scope = scope_selection.select(challenge_scope, prm_scopes, self.provider.scope)
        provider = self.provider
        if isinstance(provider, ClientCredentialsProvider):
            scope = scope_selection.apply_offline_access(scope, server.scopes_supported(), False)
            form = {"grant_type": "client_credentials", "resource": server.resource}
            if scope:
                form["scope"] = scope
            tokens = request_tokens(self._http, server, provider.client_information(), form, self._assertion())
        elif isinstance(provider, WorkloadIdentityProvider):
            scope = scope_selection.apply_offline_access(scope, server.scopes_supported(), False)
            form = {"grant_type": JWT_BEARER_GRANT, "assertion": provider.assertion(), "resource": server.resource}
            if scope:
                form["scope"] = scope
            tokens = request_tokens(self._http, server, provider.client_information(), form)
        elif isinstance(provider, CrossAppAccessProvider):
            scope = scope_selection.apply_offline_access(scope, server.scopes_supported(), False)
            tokens = authorize_cross_app_access(self._http, provider, server, scope)
        else:
            scope = scope_selection.apply_offline_access(scope, server.scopes_supported(), provider.wants_refresh_token())
            client_info = ensure_client(self._http, provider, server)
            try:
                tokens = authorize(self._http, provider, server, client_info, scope)
            except InvalidClientError:
                if not registered_here(client_info, server):
                    raise
                # The authorization server forgot our registration: register again, once.
                logger.info("OAuth: the authorization server refused our registration; registering again")
                provider.save_client_information(None)
                client_info = ensure_client(self._http, provider, server)
                tokens = authorize(self._http, provider, server, client_info, scope)
        self._store(tokens, scope, "flow")

    def _refresh(self, tokens: dict[str, t.Any], resource_metadata_url: str | None) -> None:
        """Exchange the stored refresh token (RFC 6749 section 6)."""
        server = self._server or discover(self._http, self.server_url, resource_metadata_url)
        self._server = server
        client_info = self.provider.client_information()
        if client_info is None:
            provider = self.provider
            cimd_url = getattr(provider, "client_id_metadata_document_url", None)
            if cimd_url is None or server.metadata.get("client_id_metadata_document_supported") is not True:
                raise AuthorizationError("cannot refresh: no client information is stored")
            client_info = {"client_id": cimd_url, "token_endpoint_auth_method": "none"}
        refresh_token = str(tokens["refresh_token"])
        form = {"grant_type": "refresh_token", "refresh_token": refresh_token, "resource": server.resource}
        new_tokens = request_tokens(self._http, server, client_info, form, self._assertion())
        # RFC 6749 section 6: a response without refresh_token keeps the old one valid.
        new_tokens.setdefault("refresh_token", refresh_token)
        self._store(new_tokens, _string(tokens.get("scope")), "refresh")

    def _assertion(self) -> t.Callable[[str], str] | None:
        provider = self.provider
        if isinstance(provider, ClientCredentialsProvider) and provider.token_endpoint_auth_method == "private_key_jwt":
            return provider.client_assertion
        return None

    def _store(self, tokens: dict[str, t.Any], requested_scope: str | None, how: str) -> None:
        tokens = dict(tokens)
        if "scope" not in tokens and requested_scope:
            # RFC 6749 section 5.1: an omitted scope is the scope requested.
            tokens["scope"] = requested_scope
        self.provider.save_tokens(tokens)
        access_token = tokens["access_token"]
        if self.provider.access_token != access_token:
            # Without this, a storage that drops tokens would restart the flow on every request.
            raise AuthorizationError("the provider's storage did not keep the new tokens")
        self._issued = _Issued(access_token, how, requested_scope, time.monotonic())
        expires_in = tokens.get("expires_in")
        if isinstance(expires_in, (int, float)) and not isinstance(expires_in, bool) and expires_in > 0:
            # Refresh shortly before it runs out: a tenth of its life early, at most a minute.
            self._expires_at = time.monotonic() + expires_in - min(expires_in * 0.1, REFRESH_AHEAD_SECONDS)
        else:
            self._expires_at = None

    def __repr__(self) -> str:
        return f"<OAuthClient server_url={display_url(self.server_url)!r} provider={self.provider!r}>"


def _sent_token(response: requests.Response) -> str | None:
    request = getattr(response, "request", None)
    header = request.headers.get("Authorization") if request is not None else None
    if isinstance(header, str):
        scheme, _, token = header.partition(" ")
        if scheme.lower() in ("bearer", "dpop"):
            return token.strip() or None
    return None


def _string(value: t.Any) -> str | None:
    return value if isinstance(value, str) and value else None


def _string_list(value: t.Any) -> list[str]:
    return [item for item in value if isinstance(item, str)] if isinstance(value, list) else []
