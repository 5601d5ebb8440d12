"""Django's users as MCP principals: the session's signed-in user, and optionally Django REST
framework's authentication classes (``MCP_SDK["AUTHENTICATION"]``)."""

from __future__ import annotations

import typing as t

from ...server.auth import Principal
from ...server.transports.streamable_http import FRAMEWORK_REQUEST_KEY

if t.TYPE_CHECKING:
    from ...server.auth.request_auth import Authenticate

#: ``source(http_request) -> user | None``: one way of finding who sent a request.
UserSource = t.Callable[[t.Any], t.Any]
#: ``fn(user) -> Principal | None``: what ``MCP_SDK["PRINCIPAL"]`` names.
PrincipalFor = t.Callable[[t.Any], t.Optional[Principal]]


#: The ``HttpRequest`` attribute :func:`authenticator` leaves the signed-in user in, for tools
#: that run views as that user (:mod:`mcp_sdk.contrib.django.rest_tools`).
USER_ATTRIBUTE = "mcp_user"


def user_principal(user: t.Any) -> Principal | None:
    """The default ``MCP_SDK["PRINCIPAL"]``: an active, signed-in user as a principal whose
    subject is the username and whose scopes are the user's permissions
    (``user.get_all_permissions()``: ``"library.view_book"`` ...), so a tool declares
    ``required_scopes=["library.view_book"]``.

    :param user: a Django user (``AnonymousUser`` included).
    :return: the principal, or None for an anonymous or inactive user.
    """
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    return Principal(subject=user.get_username(), client_id="django", scopes=user.get_all_permissions())


def session_user(request: t.Any) -> t.Any:
    """The user ``AuthenticationMiddleware`` signed in from the session cookie, unless the
    request carries an ``Authorization`` header: a request with credentials of its own is never
    taken for the cookie's user (and so needs no CSRF token)."""
    if "HTTP_AUTHORIZATION" in request.META:
        return None
    return getattr(request, "user", None)


def rest_framework_user(request: t.Any) -> t.Any:
    """The user Django REST framework's ``DEFAULT_AUTHENTICATION_CLASSES`` find (tokens, JWT,
    basic, session ...), or None when none does or one refuses the credentials."""
    from rest_framework.exceptions import APIException  # type: ignore[import-untyped]
    from rest_framework.request import Request  # type: ignore[import-untyped]
    from rest_framework.settings import api_settings  # type: ignore[import-untyped]

    wrapped = Request(request, authenticators=[cls() for cls in api_settings.DEFAULT_AUTHENTICATION_CLASSES])
    try:
        return wrapped.user
    except APIException:
        return None


#: The names ``MCP_SDK["AUTHENTICATION"]`` takes, and the source each means.
SOURCES: dict[str, UserSource] = {"session": session_user, "rest_framework": rest_framework_user}


def authenticator(sources: t.Sequence[UserSource], principal_for: PrincipalFor) -> Authenticate | None:
    """The transport's ``authenticate=``: the first source's user that ``principal_for`` makes a
    principal of (left on the request as ``request.mcp_user``); None (no authentication at all)
    without sources."""
    if not sources:
        return None

    def authenticate(environ: t.Dict[str, t.Any]) -> Principal | None:
        request = environ.get(FRAMEWORK_REQUEST_KEY)
        if request is None:
            return None
        for source in sources:
            user = source(request)
            principal = principal_for(user)
            if principal is not None:
                setattr(request, USER_ATTRIBUTE, user)
                return principal
        return None

    return authenticate


__all__ = ["SOURCES", "USER_ATTRIBUTE", "PrincipalFor", "UserSource", "authenticator", "rest_framework_user", "session_user", "user_principal"]
