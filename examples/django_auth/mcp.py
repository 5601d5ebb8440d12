"""The MCP server, served by mcp_sdk.contrib.django (urls.py): Django users by session, OAuth clients
by bearer token."""

from __future__ import annotations

import os
import typing as t

from mcp_sdk import Server
from mcp_sdk.server.auth import BearerAuth, JWTVerifier, Principal

server = Server(name="django_auth_example", version="1.0.0")


@server.define_tool(name="whoami", description="Who is calling, and with which scopes")
def whoami(args: dict[str, t.Any], server_context: t.Any = None) -> dict[str, t.Any]:
    auth = server_context.auth
    return {"subject": auth.subject, "scopes": sorted(auth.scopes)}


@server.define_tool(name="staff_report", description="For staff only", required_scopes=["staff"])
def staff_report(args: dict[str, t.Any]) -> str:
    from django.contrib.auth import get_user_model

    return f"{get_user_model().objects.count()} users"


def principal(user: t.Any) -> Principal | None:
    """``MCP_SDK["PRINCIPAL"]``: the session's signed-in Django user as the MCP caller; staff get ``staff``."""
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


#: The transport's ``auth=`` (urls.py): OAuth clients' bearer tokens, when MCP_ISSUER is set.
auth = bearer_auth()
