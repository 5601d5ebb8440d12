"""The :mod:`spec.support.hostile_app` server run by waitress or gunicorn gthread, for the hostile-load tests and bench."""

from __future__ import annotations

import contextlib
import json
import typing as t

import requests

from spec.support.http_client import Client
from spec.support.http_server import PYTHON, ServerProcess

ServerKind = t.Literal["waitress", "gunicorn"]


@contextlib.contextmanager
def hostile_server(kind: ServerKind, threads: int, **options: t.Any) -> t.Iterator[ServerProcess]:
    """The hostile app on ``threads`` WSGI threads, its transport built with ``options``."""
    env = {"MCP_TRANSPORT_OPTIONS": json.dumps(options)}
    if kind == "waitress":
        command = [PYTHON, "-m", "spec.support.hostile_app", "{port}", str(threads)]
    else:
        command = [PYTHON, "-m", "gunicorn", "-k", "gthread", "--threads", str(threads), "-w", "1", "--graceful-timeout", "1"]
        command += ["-b", "127.0.0.1:{port}", "spec.support.hostile_app:app"]
    with ServerProcess(command, env=env) as served:
        yield served


def session(url: str, version: str | None = None) -> Client:
    """A client with its own connection pool and an initialized session (``notifications/initialized`` sent).

    :param version: the protocol version to ask for (default the latest).
    """
    client = Client(url, requests.Session())
    if version is None:
        client.initialize()
    else:
        client.initialize(version)
    return client


__all__ = ["ServerKind", "hostile_server", "session"]
