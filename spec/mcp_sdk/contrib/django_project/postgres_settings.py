"""The spec project on PostgreSQL (spec/mcp_sdk/contrib/django_postgres_test.py): its settings with
``DATABASES`` on the server spec.support.postgres_server starts, Django's default
``CONN_MAX_AGE = 0``, 32 WSGI threads, no authentication (no session or token look-up on the WSGI
thread: every database connection is a tool's), and the server of :mod:`.postgres_mcp`."""

from __future__ import annotations

import os

from .settings import *  # noqa: F403

DATABASES = {
    "default": {
        "ENGINE": "django.db.backends.postgresql",
        "HOST": os.environ["MCP_SPEC_PG_HOST"],
        "PORT": os.environ["MCP_SPEC_PG_PORT"],
        "USER": os.environ["MCP_SPEC_PG_USER"],
        "NAME": os.environ["MCP_SPEC_PG_NAME"],
        "CONN_MAX_AGE": 0,
    }
}
MCP_SDK = {
    "SERVER": "spec.mcp_sdk.contrib.django_project.postgres_mcp.server",
    "TRANSPORT": {"wsgi_threads": 32},
    "AUTHENTICATION": [],
}
