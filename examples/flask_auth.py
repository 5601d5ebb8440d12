"""An MCP server for the users of a Flask app: Flask-Login sessions and OAuth bearer tokens.

- A signed-in browser user (Flask-Login) reaches ``/mcp`` with their session cookie:
  ``authenticate=`` turns ``current_user`` into the MCP principal.
- An MCP client without a cookie (Claude, an IDE, the SDK's ``Client`` with an OAuth
  ``Provider``) gets ``401`` pointing at ``/.well-known/oauth-protected-resource/mcp``,
  signs in at the authorization server (``--issuer``) and comes back with a JWT access token.
- ``save_note`` needs the ``notes:write`` scope: hidden from ``tools/list`` and refused
  with ``403 insufficient_scope`` for a caller without it.
- Cookies and cross-site requests: a page on another site cannot send JSON to ``/mcp`` without
  a CORS preflight, and the transport refuses a foreign ``Origin`` (403); the session cookie is
  also ``SameSite=Lax`` and ``HttpOnly``.

    pip install 'mcp_sdk[auth]' flask flask-login
    python examples/flask_auth.py --issuer https://auth.example.com [--port 5000]

Demo users: ``ada`` / ``ada-password`` (may write notes), ``bob`` / ``bob-password``.
"""

from __future__ import annotations

import argparse
import os
import typing as t

from flask import Flask, abort, request
from flask_login import LoginManager, UserMixin, current_user, login_user, logout_user
from werkzeug.middleware.dispatcher import DispatcherMiddleware
from werkzeug.security import check_password_hash, generate_password_hash
from werkzeug.wrappers import Response

from mcp_sdk import Server
from mcp_sdk.server.auth import BearerAuth, JWTVerifier, Principal, protected_resource_metadata
from mcp_sdk.server.transports import StreamableHTTPTransport


class User(UserMixin):
    def __init__(self, user_id: str, password: str, scopes: list[str]) -> None:
        self.id = user_id
        self.password_hash = generate_password_hash(password)
        self.scopes = scopes


USERS = {
    "ada": User("ada", "ada-password", ["mcp", "notes:write"]),
    "bob": User("bob", "bob-password", ["mcp"]),
}
NOTES: list[str] = []


def build_server() -> Server:
    server = Server(name="flask_auth_example", version="1.0.0")

    @server.define_tool(name="whoami", description="Who is calling, and with which scopes")
    def whoami(args: dict[str, t.Any], server_context: t.Any = None) -> dict[str, t.Any]:
        auth = server_context.auth
        return {"subject": auth.subject, "scopes": sorted(auth.scopes)}

    @server.define_tool(
        name="save_note",
        description="Saves a note",
        input_schema={"properties": {"text": {"type": "string"}}, "required": ["text"]},
        required_scopes=["notes:write"],
    )
    def save_note(args: dict[str, t.Any]) -> str:
        NOTES.append(args["text"])
        return f"{len(NOTES)} notes"

    return server


def flask_login_principal(environ: dict[str, t.Any]) -> Principal | None:
    """The bridge: the signed-in Flask-Login user (this runs inside the Flask view)."""
    if not current_user.is_authenticated:
        return None
    return Principal(subject=current_user.id, client_id="flask-session", scopes=current_user.scopes)


def create_app(issuer: str | None, resource: str, jwks_uri: str | None = None) -> tuple[t.Any, StreamableHTTPTransport]:
    """The WSGI app: Flask with the MCP endpoint at /mcp and, with an ``issuer``, its OAuth metadata."""
    flask_app = Flask(__name__)
    flask_app.config.update(
        SECRET_KEY=os.environ.get("FLASK_SECRET_KEY") or os.urandom(32),
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
    )
    login_manager = LoginManager(flask_app)
    login_manager.user_loader(USERS.get)

    @flask_app.post("/login")
    def login() -> str:
        # A real app has its own sign-in page (and CSRF protection on it); this one takes a form post.
        user = USERS.get(request.form.get("username", ""))
        if user is None or not check_password_hash(user.password_hash, request.form.get("password", "")):
            abort(401)
        login_user(user)
        return f"signed in as {user.id}"

    @flask_app.post("/logout")
    def logout() -> str:
        logout_user()
        return "signed out"

    auth = None
    if issuer is not None:
        verifier = JWTVerifier(jwks_uri=jwks_uri or issuer.rstrip("/") + "/jwks", issuer=issuer)
        auth = BearerAuth(
            verifier, resource=resource, authorization_servers=[issuer], required_scopes=["mcp"], scopes_supported=["mcp", "notes:write"]
        )
    transport = StreamableHTTPTransport(build_server(), auth=auth, authenticate=flask_login_principal)

    @flask_app.route("/mcp", methods=["GET", "POST", "DELETE"])
    def mcp() -> Response:
        # Through a Flask view, so Flask-Login's current_user is there for the bridge.
        return transport.handle_request(request)

    if auth is None:
        return flask_app, transport
    # RFC 9728 metadata at the host's root, beside the Flask app.
    return DispatcherMiddleware(flask_app, {auth.metadata_path: protected_resource_metadata(auth)}), transport


def main(argv: list[str] | None = None) -> None:
    from werkzeug.serving import run_simple

    parser = argparse.ArgumentParser(description="Flask app with an authenticated MCP endpoint")
    parser.add_argument("--port", type=int, default=5000)
    parser.add_argument("--issuer", help="the OAuth authorization server (issuer URL) for bearer tokens")
    parser.add_argument("--jwks-uri", help="its JWKS (default: <issuer>/jwks)")
    parser.add_argument("--resource", help="this endpoint's public URL (default: http://127.0.0.1:<port>/mcp)")
    args = parser.parse_args(argv)
    app, transport = create_app(args.issuer, args.resource or f"http://127.0.0.1:{args.port}/mcp", args.jwks_uri)
    try:
        run_simple("127.0.0.1", args.port, app, threaded=True)
    finally:
        transport.close()


if __name__ == "__main__":
    main()
