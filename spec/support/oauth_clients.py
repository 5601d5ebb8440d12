"""Our SDK's client with an OAuth ``Provider``, signing in headlessly at a fixture authorization server."""

from __future__ import annotations

import json
import subprocess
import typing as t

import requests

from mcp_sdk.client import HTTP, Client

from . import http_client
from .http_server import PYTHON, ROOT
from .oauth_fixture import browser_provider

def oauth_client(url: str) -> tuple[Client, list[str]]:
    """A :class:`Client` for ``url`` whose provider signs in through a fake browser; also the URLs it visited."""
    provider, visited = browser_provider()
    return Client(HTTP(url=url, oauth=provider, timeout=30, standalone_stream=False)), visited


def signed_in(base: str, url: str, user: str) -> http_client.Client:
    """A wire-level client carrying the session cookie of ``user`` (password ``<user>-password``), from
    ``base/login``, and the value of Django's ``csrftoken`` cookie in ``X-CSRFToken`` where the site set one."""
    http = requests.Session()
    with http.post(base + "/login", data={"username": user, "password": f"{user}-password"}, timeout=30) as response:
        assert response.status_code == 200, response.text
    if "csrftoken" in http.cookies:
        http.headers["X-CSRFToken"] = http.cookies["csrftoken"]
    return http_client.Client(url, http)


def official_client(url: str, *calls: str) -> dict[str, t.Any]:
    """Run :mod:`spec.support.official_oauth_client` against ``url``; its JSON summary."""
    command = [PYTHON, "-m", "spec.support.official_oauth_client", url, *calls]
    completed = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert completed.returncode == 0, completed.stderr[-3000:]
    return t.cast("dict[str, t.Any]", json.loads(completed.stdout.strip().splitlines()[-1]))
