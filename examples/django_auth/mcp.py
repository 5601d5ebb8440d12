"""The MCP server and its transport: Django users by session, OAuth clients by bearer token."""

from __future__ import annotations

import atexit
import os
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.auth import BearerAuth, JWTVerifier, Principal
from mcp_sdk.server.transports import StreamableHTTPTransport

server = Server(name="django_auth_example", version="1.0.0")


@server.define_tool(name="whoami", description="Who is calling, and with which scopes")
def whoami(args: dict[str, t.Any], server_context: t.Any = None) -> dict[str, t.Any]:
    auth = server_context.auth
    return {"subject": auth.subject, "scopes": sorted(auth.scopes)}


@server.define_tool(name="staff_report", description="For staff only", required_scopes=["staff"])
def staff_report(args: dict[str, t.Any]) -> str:
    from django.contrib.auth import get_user_model

    return f"{get_user_model().objects.count()} users"


def django_user(environ: dict[str, t.Any]) -> Principal | None:
    """The bridge: the request's signed-in Django user (``wsgi_view`` puts the request in ``environ``)."""
    request = environ.get("django.request")
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated or not user.is_active:
        return None
    scopes = ["mcp", "staff"] if user.is_staff else ["mcp"]
    return Principal(subject=user.get_username(), client_id="django-session", scopes=scopes)


def bearer_auth() -> BearerAuth | None:
    issuer = os.environ.get("MCP_ISSUER")
    if not issuer:
        return None
    verifier = JWTVerifier(jwks_uri=os.environ.get("MCP_JWKS_URI") or issuer.rstrip("/") + "/jwks", issuer=issuer)
    return BearerAuth(
        verifier,
        resource=os.environ.get("MCP_RESOURCE", "http://127.0.0.1:8000/mcp"),
        authorization_servers=[issuer],
        required_scopes=["mcp"],
        scopes_supported=["mcp", "staff"],
    )


auth = bearer_auth()
transport = StreamableHTTPTransport(server, auth=auth, authenticate=django_user)
atexit.register(transport.close)
