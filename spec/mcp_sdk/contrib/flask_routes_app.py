"""The spec Flask app's JSON API (a ``shelf`` blueprint) exposed as tools with
``mcp_sdk.contrib.flask.tools_from_routes``, on a server of its own per app.
``create_app()`` reuses flask_app's database, models and Flask-Login setup; anyone may call the
MCP endpoint, the routes decide who may do what."""

from __future__ import annotations

import typing as t

from flask import Blueprint, Flask, abort, request
from flask_login import current_user, login_user
from sqlalchemy import select

from mcp_sdk import Server
from mcp_sdk.contrib.flask import MCP, tools_from_routes

from .flask_app import Book, db, load_user, login_manager

shelf = Blueprint("shelf", __name__)


def book_dict(book: Book) -> dict[str, t.Any]:
    return {"id": book.id, "title": book.title, "author": book.author}


@shelf.get("/api/books")
def list_books() -> list[dict[str, t.Any]]:
    """The books, by one author when ``author`` is given."""
    query = select(Book).order_by(Book.id)
    if "author" in request.args:
        query = query.where(Book.author == request.args["author"])
    return [book_dict(book) for book in db.session.scalars(query)]


@shelf.get("/api/books/<int:book_id>")
def show_book(book_id: int) -> dict[str, t.Any]:
    """One book, by its id."""
    book = db.session.get(Book, book_id)
    if book is None:
        abort(404)
    return book_dict(book)


@shelf.post("/api/books")
def add_book() -> tuple[dict[str, t.Any], int]:
    """Add a book (the librarian, ada, only)."""
    if not current_user.is_authenticated or current_user.id != "ada":
        return {"error": "only the librarian adds books"}, 403
    data = request.get_json()
    book = Book(title=data["title"], author=data["author"])
    db.session.add(book)
    db.session.commit()
    return {**book_dict(book), "added_by": current_user.id}, 201


@shelf.get("/api/whoami")
def whoami() -> dict[str, t.Any]:
    """Who the route sees."""
    return {
        "user": current_user.id if current_user.is_authenticated else None,
        "agent": request.headers.get("X-Agent"),
        "path": request.path,
        "endpoint": request.endpoint,
    }


ADD_BOOK_SCHEMA = {
    "type": "object",
    "properties": {"title": {"type": "string", "minLength": 1}, "author": {"type": "string", "minLength": 1}},
    "required": ["title", "author"],
}


def create_app(database_uri: str = "sqlite://") -> Flask:
    """A new app with the shelf API, its database filled with three books, the API's routes as
    the tools of its MCP server at ``/mcp`` (``/login`` is not exposed: it is not listed)."""
    app = Flask(__name__)
    app.config.update(SECRET_KEY="spec-secret", SQLALCHEMY_DATABASE_URI=database_uri)
    db.init_app(app)
    login_manager.init_app(app)
    app.register_blueprint(shelf)

    @app.post("/login")
    def login() -> tuple[str, int]:
        user = load_user(request.form.get("username", ""))
        if user is None:
            return "who?", 403
        login_user(user)
        return "signed in", 200

    server = Server(name="shelf", version="1.0.0")
    for tool in tools_from_routes(app, blueprints=["shelf"], input_schemas={"shelf.list_books": {"properties": {"author": {"type": "string"}}}, "shelf.add_book": ADD_BOOK_SCHEMA}):
        server.add_tool(tool)
    MCP(app, server=server, wsgi_threads=8)
    with app.app_context():
        db.create_all()
        db.session.add_all([Book(title="Emma", author="Austen"), Book(title="Persuasion", author="Austen"), Book(title="Dune", author="Herbert")])
        db.session.commit()
    return app
