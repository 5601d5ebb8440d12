"""A real Flask app served with ``mcp_sdk.contrib.flask``: Flask-SQLAlchemy on SQLite, Flask-Login,
a ``before_request`` hook guarding the MCP endpoint. ``flask --app 'spec.mcp_sdk.contrib.flask_app:create_app()'``.
"""

from __future__ import annotations

import threading
import typing as t

from flask import Flask, current_app, g, has_request_context, request
from flask_login import LoginManager, UserMixin, current_user, login_user
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy import select
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from mcp_sdk import Server
from mcp_sdk.contrib.flask import MCP


class Base(DeclarativeBase):
    pass


db = SQLAlchemy(model_class=Base)
login_manager = LoginManager()
server = Server(name="library", version="1.0.0")
mcp = MCP(server=server, wsgi_threads=16)
#: Set by the test that wants a tool to wait for it (proof that the SSE answer streams).
release = threading.Event()


class Book(db.Model):  # type: ignore[name-defined,misc]
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str]
    author: Mapped[str]


class User(UserMixin):
    def __init__(self, user_id: str) -> None:
        self.id = user_id


@login_manager.user_loader
def load_user(user_id: str) -> User | None:
    return User(user_id) if user_id in ("ada", "bob") else None


@server.tool
def books(author: str) -> list[str]:
    """Titles by an author, from the database."""
    return list(db.session.scalars(select(Book.title).where(Book.author == author).order_by(Book.title)))


@server.tool
def setting(key: str) -> str:
    """A value of the app's config."""
    return str(current_app.config[key])


@server.tool
def whoami(server_context: t.Any = None) -> dict[str, t.Any]:
    """Who is asking, as the Flask app sees it."""
    g.calls = g.get("calls", 0) + 1
    return {
        "user": current_user.id if current_user.is_authenticated else None,
        "agent": request.headers.get("X-Agent"),
        "remote": request.remote_addr,
        "path": request.path,
        "endpoint": request.endpoint,
        "view_g": g.get("view_user"),
        "g_calls": g.calls,
        "carrier": f"{type(server_context.request).__module__}.{type(server_context.request).__name__}",
        "carrier_agent": server_context.request.headers.get("X-Agent"),
    }


@server.tool
def context() -> dict[str, t.Any]:
    """The Flask contexts the tool runs in."""
    return {"app": current_app.import_name, "request": has_request_context()}


@server.tool
def count(to: int, server_context: t.Any = None) -> str:
    """Counts, reporting progress and logging each step."""
    for step in range(1, to + 1):
        server_context.report_progress(step, total=to)
        server_context.notify_log_message(data=f"step {step} for {current_user.id}", level="info", logger="library")
    if current_app.config.get("WAIT_FOR_RELEASE"):
        release.wait(10)
    return f"counted to {to}"


def create_app(database_uri: str = "sqlite://") -> Flask:
    """A new app, its database filled with three books."""
    app = Flask(__name__)
    app.config.update(SECRET_KEY="spec-secret", SQLALCHEMY_DATABASE_URI=database_uri, GREETING="Hello")
    db.init_app(app)
    login_manager.init_app(app)
    mcp.init_app(app)
    with app.app_context():
        db.create_all()
        db.session.add_all(
            [Book(title="Emma", author="Austen"), Book(title="Persuasion", author="Austen"), Book(title="Dune", author="Herbert")]
        )
        db.session.commit()

    @app.post("/login")
    def login() -> tuple[str, int]:
        user = load_user(request.form.get("username", ""))
        if user is None:
            return "who?", 403
        login_user(user)
        return "signed in", 200

    @app.before_request
    def sign_in_first() -> tuple[dict[str, str], int] | None:
        if request.path.startswith("/mcp"):
            if not current_user.is_authenticated:
                return {"error": "sign in first"}, 401
            g.view_user = current_user.id
        return None

    return app
