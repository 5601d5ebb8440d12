"""Just enough Django to route /mcp to the MCP transport."""

from __future__ import annotations

SECRET_KEY = "example-only-not-secret"  # noqa: S105 - an example project
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost", "[::1]"]
ROOT_URLCONF = "django_project.urls"
WSGI_APPLICATION = "django_project.wsgi.application"
INSTALLED_APPS: list[str] = []
MIDDLEWARE = ["django.middleware.security.SecurityMiddleware"]  # no GZipMiddleware: it would buffer SSE
DATABASES: dict[str, dict[str, str]] = {}
USE_TZ = True
