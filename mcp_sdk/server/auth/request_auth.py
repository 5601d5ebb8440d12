"""The one authentication step of the Streamable HTTP transport: who sent this request, may they."""

from __future__ import annotations

import typing as t

from .bearer import BearerAuth
from .principal import Principal
from .refusals import AuthRefusal
from .scopes import Catalog, required_for

WSGIEnvironment = t.Dict[str, t.Any]
Authenticate = t.Callable[[WSGIEnvironment], t.Optional[Principal]]


class RequestAuthenticator:
    """Combines ``auth=`` (bearer tokens) and ``authenticate=`` (the host's own login).

    ``authenticate(environ)`` is asked first (a signed-in Flask-Login or Django user);
    when it answers None, the bearer token decides; with no ``auth`` the request gets 401.
    The ``required_scopes`` of ``auth`` apply to every principal, however it signed in.
    """

    def __init__(self, auth: BearerAuth | None, authenticate: Authenticate | None) -> None:
        if auth is not None and not isinstance(auth, BearerAuth):
            raise TypeError(f"auth must be a BearerAuth, not {type(auth).__name__}")
        if authenticate is not None and not callable(authenticate):
            raise TypeError("authenticate must be callable: authenticate(environ) -> Principal | None")
        self.auth = auth
        self.authenticate = authenticate

    def principal(self, environ: WSGIEnvironment) -> Principal:
        """The request's principal.

        :raises AuthRefusal: when it has none (401), lacks the endpoint's scopes (403),
            or the authorization server cannot be asked (503).
        """
        if self.authenticate is not None:
            principal = self.authenticate(environ)
            if principal is not None:
                if not isinstance(principal, Principal):
                    raise TypeError(f"authenticate returned {type(principal).__name__}, not a Principal or None")
                if self.auth is None:
                    return principal
                principal = self.auth.expand(principal)
                if not principal.has_scopes(self.auth.required_scopes):
                    raise self.auth.forbidden([])
                return principal
            if self.auth is None:
                raise AuthRefusal(401, "Unauthorized: sign in first")
        assert self.auth is not None
        return self.auth.authenticate(environ)

    def check_scopes(self, server: Catalog, message: t.Any, principal: Principal) -> None:
        """Refuse with 403 a request naming a tool, prompt or resource whose scopes ``principal`` lacks."""
        required = required_for(server, message)
        if not required or principal.has_scopes(required):
            return
        if self.auth is not None:
            raise self.auth.forbidden(required)
        raise AuthRefusal(403, f"Forbidden: insufficient scope (requires {' '.join(required)})")


__all__ = ["Authenticate", "RequestAuthenticator"]
