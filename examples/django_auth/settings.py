"""A Django project whose users (django.contrib.auth) reach an MCP endpoint, plus OAuth bearer tokens.

Environment: ``DJANGO_AUTH_DB`` (the SQLite file), ``MCP_ISSUER`` (an OAuth authorization
server; unset: signed-in Django users only), ``MCP_RESOURCE`` (this endpoint's public URL).
"""

from __future__ import annotations

import os
import pathlib

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "example-only-not-secret")
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
ROOT_URLCONF = "django_auth.urls"
WSGI_APPLICATION = "django_auth.wsgi.application"
INSTALLED_APPS = ["django.contrib.auth", "django.contrib.contenttypes", "django.contrib.sessions", "mcp_sdk.contrib.django"]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",  # session callers of /mcp send the csrftoken cookie's value in X-CSRFToken
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.sqlite3",
        "NAME": os.environ.get("DJANGO_AUTH_DB", str(pathlib.Path(__file__).resolve().parent / "db.sqlite3")),
    }
}
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
USE_TZ = True
MCP_SDK = {
    "SERVER": "django_auth.mcp.server",  # also for python -m django mcp tools|call|stdio
    "AUTHENTICATION": ["session"],
    "PRINCIPAL": "django_auth.mcp.principal",
}
