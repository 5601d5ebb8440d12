"""A Flask app whose MCP tools query its database as its signed-in user.

    gunicorn -k gthread --threads 32 -w 1 'examples.flask_library:app'
"""

import os

from flask import Flask, request
from flask_login import LoginManager, UserMixin, current_user, login_user
from flask_sqlalchemy import SQLAlchemy
from sqlalchemy.orm import Mapped, mapped_column
from werkzeug.security import check_password_hash, generate_password_hash

from mcp_sdk import Server
from mcp_sdk.contrib.flask import MCP

app = Flask(__name__)
app.config["SECRET_KEY"] = os.environ.get("SECRET_KEY", "dev only")
app.config["SQLALCHEMY_DATABASE_URI"] = os.environ.get("DATABASE_URL", "sqlite://")
db = SQLAlchemy(app)
login_manager = LoginManager(app)


class User(UserMixin, db.Model):
    id: Mapped[str] = mapped_column(primary_key=True)
    password_hash: Mapped[str]


class Book(db.Model):
    id: Mapped[int] = mapped_column(primary_key=True)
    title: Mapped[str]
    owner_id: Mapped[str]


@login_manager.user_loader
def load_user(user_id):
    return db.session.get(User, user_id)


@app.post("/login")
def login():
    user = db.session.get(User, request.form["username"])
    if user is None or not check_password_hash(user.password_hash, request.form["password"]):
        return "wrong username or password", 401
    login_user(user)
    return "signed in"


@app.before_request
def sign_in_first():
    if request.path.startswith("/mcp") and not current_user.is_authenticated:
        return {"error": "sign in at /login first"}, 401


server = Server(name="library")


@server.tool
def my_books() -> list[str]:
    """The titles of the signed-in user's books."""
    query = db.select(Book.title).where(Book.owner_id == current_user.id).order_by(Book.title)
    return list(db.session.scalars(query))


mcp = MCP(app, server=server, wsgi_threads=32)  # at /mcp; wsgi_threads: gunicorn's --threads

with app.app_context():  # demo data
    db.create_all()
    db.session.add(User(id="ada", password_hash=generate_password_hash("lovelace")))
    db.session.add_all([Book(title="Sketch of the Analytical Engine", owner_id="ada"), Book(title="Notes", owner_id="ada")])
    db.session.commit()
