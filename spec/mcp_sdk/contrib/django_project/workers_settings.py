"""The spec project for two gunicorn workers (spec/mcp_sdk/contrib/django_workers_test.py): no
authentication, the URLconf of :mod:`.workers_urls`, the server of :mod:`.workers_mcp`, and
``MCP_SDK["REDIS_URL"]`` from ``MCP_SPEC_REDIS_URL`` when set. ``REQUEST_STATE_KEYS`` is left
unset: the keys are derived from ``SECRET_KEY``, the same in every worker."""

from __future__ import annotations

import os

from .settings import *  # noqa: F403

ROOT_URLCONF = "spec.mcp_sdk.contrib.django_project.workers_urls"
MCP_SDK = {
    "SERVER": "spec.mcp_sdk.contrib.django_project.workers_mcp.server",
    "TRANSPORT": {"wsgi_threads": 8},
    "AUTHENTICATION": [],
    "REDIS_URL": os.environ.get("MCP_SPEC_REDIS_URL") or None,
}
