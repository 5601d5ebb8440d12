"""settings.py: a Django project whose MCP tools query its database as its signed-in user."""

import os
from pathlib import Path

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "dev only")  # also derives the MCP requestState keys
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = "urls"
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "mcp_sdk.contrib.django",  # the endpoint, mcp.py autodiscovery, manage.py mcp
    "library",
]
MIDDLEWARE = [  # no GZipMiddleware: it would buffer the SSE answers
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("LIBRARY_DB", Path(__file__).resolve().parent / "db.sqlite3"),
    }
}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
MCP_SDK = {
    "SERVER": "library.mcp.server",
    "TRANSPORT": {"wsgi_threads": 32},  # gunicorn's --threads
}
