"""Bearer-token authentication of MCP requests (RFC 6750), for an OAuth 2.1 resource server.

https://modelcontextprotocol.io/specification/2025-11-25/basic/authorization
"""

from __future__ import annotations

import re
import time
import typing as t
from urllib.parse import urlsplit, urlunsplit

import attrs

from .refusals import AuthorizationServerUnavailable, AuthRefusal

if t.TYPE_CHECKING:
    from .dpop_verifier import DPoPVerifier
from .principal import AccessToken, Principal, audience_claim

Verifier = t.Callable[[str], t.Optional[AccessToken]]
WSGIEnvironment = t.Dict[str, t.Any]

#: The well-known path of Protected Resource Metadata (RFC 9728 section 3).
WELL_KNOWN = "/.well-known/oauth-protected-resource"
#: RFC 6750 section 2.1: the token's characters.
_B64TOKEN = re.compile(r"[A-Za-z0-9\-._~+/]+=*")
#: The longest bearer token looked at.
MAX_TOKEN_LENGTH = 16 * 1024


def quote(value: str) -> str:
    """An RFC 7230 quoted-string."""
    return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'


def canonical_uri(uri: str) -> str:
    """``uri`` for comparing resource identifiers: scheme and host lowercased, no trailing ``/``
    on an empty path (2025-11-25 authorization, "Canonical Server URI").

    :param uri: an absolute URI (anything else is returned as is).
    :returns: the canonical form.
    """
    parts = urlsplit(uri)
    if not parts.scheme or not parts.netloc:
        return uri
    path = "" if parts.path == "/" else parts.path
    return urlunsplit((parts.scheme.lower(), parts.netloc.lower(), path, parts.query, ""))


def metadata_url_for(resource: str) -> str:
    """Where the Protected Resource Metadata of ``resource`` lives (RFC 9728 section 3.1).

    :param resource: the protected resource's URL (the MCP endpoint).
    :returns: its ``/.well-known/oauth-protected-resource`` URL.
    """
    parts = urlsplit(resource)
    path = parts.path.rstrip("/")
    return urlunsplit((parts.scheme, parts.netloc, WELL_KNOWN + path, "", ""))


class BearerAuth:
    """Requires a valid bearer access token on every request to the MCP endpoint.

    :param verifier: ``verifier(token) -> AccessToken | None``: a :class:`JWTVerifier`,
        an :class:`IntrospectionVerifier` or any callable (None: the token is invalid;
        raise :class:`AuthorizationServerUnavailable` to answer 503).
    :param resource: this MCP server's canonical URL (RFC 8707), e.g. ``"https://api.example.com/mcp"``.
    :param authorization_servers: issuer URLs of the authorization servers clients may use.
    :param required_scopes: scopes every request needs (403 ``insufficient_scope`` otherwise).
    :param scopes_supported: scopes advertised in the metadata (default: ``required_scopes``).
    :param audience: the token audiences accepted (default: ``resource`` only, RFC 8707).
        A token whose ``aud`` claim names only other audiences, or is not a string or a
        non-empty list of strings (``[]``, ``{}``), is refused. One without an ``aud`` claim
        passes: a :class:`JWTVerifier` requires ``aud``; an introspection answer or a callable may not know it.
    :param leeway: seconds of clock skew allowed when the token's ``exp`` and ``nbf`` are
        checked again here (default: the verifier's own ``leeway``, as :class:`JWTVerifier`
        and :class:`IntrospectionVerifier` have, so the leeway they accepted a token with holds;
        0 for a verifier without one, such as a callable looking tokens up in your database).
    :param resource_name: a human-readable name for the metadata.
    :param implied_scopes: scope hierarchies: ``{"admin": ["notes:read", "notes:write"]}``
        grants the listed scopes to whoever holds the key (transitively), wherever scopes are checked.
    :param dpop: a :class:`~mcp_sdk.server.auth.dpop_verifier.DPoPVerifier` to accept
        DPoP-bound tokens (``Authorization: DPoP``, RFC 9449): the proof must be
        fresh, unused, for this method and ``resource``, and signed by the key the
        token's ``cnf.jkt`` names; a bound token sent as ``Bearer`` is refused.
    """

    def __init__(
        self,
        verifier: Verifier,
        *,
        resource: str,
        authorization_servers: t.Sequence[str] = (),
        required_scopes: t.Sequence[str] = (),
        scopes_supported: t.Sequence[str] | None = None,
        audience: str | t.Sequence[str] | None = None,
        resource_name: str | None = None,
        implied_scopes: t.Mapping[str, t.Iterable[str]] | None = None,
        dpop: DPoPVerifier | None = None,
        leeway: float | None = None,
    ) -> None:
        if not callable(verifier):
            raise TypeError("verifier must be callable: verifier(token) -> AccessToken | None")
        parts = urlsplit(resource)
        if parts.scheme not in ("https", "http") or not parts.netloc or parts.fragment:
            raise ValueError(f"resource must be an absolute http(s) URL without a fragment, not {resource!r}")
        self.verifier = verifier
        self.resource = resource
        self.authorization_servers = list(authorization_servers)
        self.required_scopes = list(required_scopes)
        self.scopes_supported = list(scopes_supported) if scopes_supported is not None else list(required_scopes)
        accepted = [resource] if audience is None else [audience] if isinstance(audience, str) else list(audience)
        self.audience = frozenset(canonical_uri(value) for value in accepted)
        self.implied_scopes = {scope: tuple(implied) for scope, implied in (implied_scopes or {}).items()}
        self.resource_name = resource_name
        self.dpop = dpop
        if leeway is None:
            own: t.Any = getattr(verifier, "leeway", None)
            leeway = float(own) if type(own) in (int, float) else 0.0
        #: Seconds of clock skew allowed on ``exp`` and ``nbf``.
        self.leeway: float = leeway
        #: The URL of this resource's Protected Resource Metadata, as sent in ``WWW-Authenticate``.
        self.metadata_url = metadata_url_for(resource)
        #: The path to mount :func:`protected_resource_metadata` at, on the host's root.
        self.metadata_path = urlsplit(self.metadata_url).path

    # -- the metadata ----------------------------------------------------------

    def metadata(self) -> dict[str, t.Any]:
        """The Protected Resource Metadata document (RFC 9728 section 2)."""
        document: dict[str, t.Any] = {"resource": self.resource}
        if self.authorization_servers:
            document["authorization_servers"] = self.authorization_servers
        if self.scopes_supported:
            document["scopes_supported"] = self.scopes_supported
        document["bearer_methods_supported"] = ["header"]
        if self.dpop is not None:
            document["dpop_signing_alg_values_supported"] = list(self.dpop.algorithms)
            document["dpop_bound_access_tokens_required"] = self.dpop.required
        if self.resource_name is not None:
            document["resource_name"] = self.resource_name
        return document

    # -- refusals --------------------------------------------------------------

    def challenge(self, error: str | None = None, description: str | None = None, scopes: t.Sequence[str] = ()) -> str:
        """A ``WWW-Authenticate`` value for this resource.

        :param error: the OAuth error code (``invalid_token``, ``insufficient_scope``...), if any.
        :param description: its human-readable ``error_description``.
        :param scopes: the scopes to ask for (``scope``).
        :returns: the header's value: a ``Bearer`` challenge, and a ``DPoP`` one when DPoP is accepted.
        """
        params = []
        if error is not None:
            params.append(f"error={quote(error)}")
        if description is not None:
            params.append(f"error_description={quote(description)}")
        if scopes:
            params.append(f"scope={quote(' '.join(scopes))}")
        params.append(f"resource_metadata={quote(self.metadata_url)}")
        if self.dpop is None:
            return "Bearer " + ", ".join(params)
        # RFC 9449 section 7.1: a DPoP challenge names the proof algorithms accepted.
        dpop = "DPoP " + ", ".join([f"algs={quote(' '.join(self.dpop.algorithms))}", *params])
        return dpop if self.dpop.required else "Bearer " + ", ".join(params) + ", " + dpop

    def unauthorized(self, error: str | None = None, description: str | None = None, status: int = 401) -> AuthRefusal:
        """The 401 (or 400) refusal, asking for the required scopes.

        :param error: the OAuth error code, if any.
        :param description: what is wrong, for the message and ``error_description``.
        :param status: the HTTP status (401, or 400 for a malformed request).
        """
        message = "Unauthorized" if description is None else f"Unauthorized: {description}"
        headers = {"WWW-Authenticate": self.challenge(error, description, self.required_scopes)}
        return AuthRefusal(status, message, headers)

    def forbidden(self, required: t.Sequence[str]) -> AuthRefusal:
        """The 403 ``insufficient_scope`` refusal naming every scope needed, to let a client step up.

        :param required: the scopes the request needs.
        """
        description = "the token lacks a required scope"
        scopes = list(dict.fromkeys([*self.required_scopes, *required]))
        headers = {"WWW-Authenticate": self.challenge("insufficient_scope", description, scopes)}
        return AuthRefusal(403, f"Forbidden: insufficient scope (requires {' '.join(scopes)})", headers)

    # -- authentication --------------------------------------------------------

    def expand(self, principal: Principal) -> Principal:
        """``principal`` with the scopes its scopes imply (see ``implied_scopes``).

        :param principal: the verified caller.
        """
        if not self.implied_scopes:
            return principal
        granted = set(principal.scopes)
        pending = list(granted)
        while pending:
            for implied in self.implied_scopes.get(pending.pop(), ()):
                if implied not in granted:
                    granted.add(implied)
                    pending.append(implied)
        return principal if len(granted) == len(principal.scopes) else attrs.evolve(principal, scopes=granted)

    def authenticate(self, environ: WSGIEnvironment) -> Principal:
        """The principal of the request's bearer token.

        :raises AuthRefusal: 401 without a token or with an invalid one, 400 for a
            malformed ``Authorization`` header, 403 without the required scopes, 503
            when the authorization server cannot be asked.
        :param environ: the request's WSGI environ.
        """
        header = environ.get("HTTP_AUTHORIZATION")
        if not header:
            raise self.unauthorized()
        scheme, _, token = header.strip().partition(" ")
        scheme = scheme.lower()
        dpop = self.dpop
        if not (scheme == "bearer" and (dpop is None or not dpop.required) or scheme == "dpop" and dpop is not None):
            raise self.unauthorized()
        token = token.strip()
        if len(token) > MAX_TOKEN_LENGTH or not _B64TOKEN.fullmatch(token):
            raise self.unauthorized("invalid_request", "malformed Authorization header", status=400)
        try:
            access = self.verifier(token)
        except AuthorizationServerUnavailable:
            raise AuthRefusal(503, "Service Unavailable: the authorization server cannot be reached", {"Retry-After": "5"}) from None
        if access is None:
            raise self.unauthorized("invalid_token", "the access token is invalid or expired")
        if not isinstance(access, Principal):
            raise TypeError(f"the verifier returned {type(access).__name__}, not an AccessToken or None")
        if not access.valid_at(time.time(), self.leeway):
            raise self.unauthorized("invalid_token", "the access token is invalid or expired")
        problem = self._audience_problem(access)
        if problem is not None:
            raise self.unauthorized("invalid_token", problem)
        access = self.expand(access)
        if dpop is not None:
            self._check_binding(environ, dpop, scheme, token, access)
        missing = access.missing_scopes(self.required_scopes)
        if missing:
            raise self.forbidden([])
        return access

    def _audience_problem(self, access: Principal) -> str | None:
        """Why ``access`` is not for this resource (None: it is, or its audience is unknown)."""
        if "aud" in access.claims:
            audience = audience_claim(access.claims["aud"])
            if audience is None:
                return "the access token's aud claim is not a string or a non-empty list of strings"
        elif access.audience:
            audience = access.audience
        else:
            return None  # the verifier cannot know the audience (an introspection answer without aud)
        if self.audience.isdisjoint(canonical_uri(value) for value in audience):
            return "the access token is for another resource"
        return None

    def _check_binding(self, environ: WSGIEnvironment, dpop: DPoPVerifier, scheme: str, token: str, access: Principal) -> None:
        from .dpop_verifier import DPoPNonceRequiredError, InvalidDPoPProofError

        cnf = access.claims.get("cnf")
        jkt = cnf.get("jkt") if isinstance(cnf, t.Mapping) else None
        if scheme == "bearer":
            if jkt is not None:  # RFC 9449 section 7.1: a bound token is no bearer token
                raise self.unauthorized("invalid_token", "a DPoP-bound access token needs the DPoP scheme and a proof")
            return
        try:
            dpop.verify(environ.get("HTTP_DPOP"), str(environ.get("REQUEST_METHOD", "")), self.resource, token, jkt)
        except DPoPNonceRequiredError as error:
            refusal = self.unauthorized("use_dpop_nonce", str(error))
            refusal.headers["DPoP-Nonce"] = error.nonce
            raise refusal from None
        except InvalidDPoPProofError as error:
            raise self.unauthorized("invalid_dpop_proof", str(error)) from None

    def __repr__(self) -> str:
        return f"<BearerAuth resource={self.resource!r}>"


__all__ = ["BearerAuth", "MAX_TOKEN_LENGTH", "Verifier", "WELL_KNOWN", "canonical_uri", "metadata_url_for"]
