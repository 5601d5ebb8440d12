"""Just enough Django to serve an MCP endpoint with mcp_sdk.contrib.django (no database, no users)."""

from __future__ import annotations

SECRET_KEY = "example-only-not-secret"  # noqa: S105 - an example project
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
ROOT_URLCONF = "django_project.urls"
WSGI_APPLICATION = "django_project.wsgi.application"
INSTALLED_APPS = ["mcp_sdk.contrib.django"]
MIDDLEWARE = ["django.middleware.security.SecurityMiddleware"]  # no GZipMiddleware: it would buffer SSE
DATABASES: dict[str, dict[str, str]] = {}
USE_TZ = True
MCP_SDK = {
    "SERVER": "django_project.mcp.server",
    # wsgi_threads: the thread count of the WSGI server running this (gunicorn -k gthread --threads 32);
    # it sizes the caps on open SSE streams, so one client can never hold every thread.
    "TRANSPORT": {"wsgi_threads": 32},
    "AUTHENTICATION": [],  # anyone may call: this project has no users
}
