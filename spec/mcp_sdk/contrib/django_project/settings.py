from __future__ import annotations

import os

SECRET_KEY = "spec-secret-key-not-for-production-0123456789"  # noqa: S105
DEBUG = False
ALLOWED_HOSTS = ["127.0.0.1", "localhost"]
ROOT_URLCONF = os.environ.get("MCP_SPEC_URLCONF", "spec.mcp_sdk.contrib.django_project.urls")
INSTALLED_APPS = [
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "rest_framework",
    "rest_framework.authtoken",
    "mcp_sdk.contrib.django",
    "spec.mcp_sdk.contrib.django_project.library",
]
MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
]
DATABASES = {"default": {"ENGINE": "django.db.backends.sqlite3", "NAME": os.environ.get("MCP_SPEC_DB", "spec-django.sqlite3")}}
DEFAULT_AUTO_FIELD = "django.db.models.AutoField"
USE_TZ = True
GREETING = "Hello from Django"
REST_FRAMEWORK = {"DEFAULT_AUTHENTICATION_CLASSES": ["rest_framework.authentication.TokenAuthentication"]}
MCP_SDK = {
    "SERVER": "spec.mcp_sdk.contrib.django_project.mcp.server",
    "TRANSPORT": {"wsgi_threads": 16},
    "AUTHENTICATION": ["session", "rest_framework"],
}
