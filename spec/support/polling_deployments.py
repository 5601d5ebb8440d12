"""The deployments the many-sessions and abuse specs run :mod:`spec.support.polling_server` in,
each with ``StreamableHTTPTransport(server)``'s defaults: one server process per row.

A new worker class (gunicorn ``gevent``, say) is one more row of :data:`DEPLOYMENTS`.
"""

from __future__ import annotations

import typing as t

from spec.support.http_server import PYTHON


def gunicorn(threads: int, app: str, *options: str) -> list[str]:
    """``gunicorn -k gthread --threads threads -w 1 --keep-alive 10`` serving ``app`` (``module:name``) on ``{port}``.

    ``--keep-alive 10``, as docs/topics/http-deployment.md advises: with gunicorn's 2 s, Node's
    fetch (which keeps an idle connection 4 s) now and then sends a request on a connection just as
    gunicorn closes it, and that request fails (``fetch failed``, ``other side closed``).
    """
    return [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", str(threads), "-w", "1", "--graceful-timeout", "1",
            "--keep-alive", "10",
            "--backlog", "512", *options, "-b", "127.0.0.1:{port}", app]


class Deployment(t.NamedTuple):
    """A server command (``{port}`` for its port), the MCP endpoint's path, the environment it needs,
    and the WSGI threads the transport should find there."""

    command: list[str]
    threads: int
    path: str = "/mcp"
    env: dict[str, str] = {}


DJANGO = {"DJANGO_SETTINGS_MODULE": "spec.mcp_sdk.contrib.django_project.polling_settings", "MCP_SPEC_DB": ":memory:"}

DEPLOYMENTS = {
    "waitress": Deployment([PYTHON, "-m", "spec.support.polling_app", "{port}"], threads=4),
    "waitress-16": Deployment([PYTHON, "-m", "spec.support.polling_app", "{port}", "16"], threads=16),
    "gthread-8": Deployment(gunicorn(8, "spec.support.polling_app:app"), threads=8),
    "gthread-16": Deployment(gunicorn(16, "spec.support.polling_app:app"), threads=16),
    "flask-gthread-8": Deployment(gunicorn(8, "spec.support.polling_flask:app"), threads=8),
    "django-gthread-8": Deployment(
        gunicorn(8, "spec.mcp_sdk.contrib.django_project.wsgi:application"), threads=8, path="/mcp/", env=DJANGO
    ),
}

__all__ = ["DEPLOYMENTS", "Deployment", "gunicorn"]
