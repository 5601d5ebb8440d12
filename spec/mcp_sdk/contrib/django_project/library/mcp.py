"""The library app's tools, on the project's server (autodiscovered by mcp_sdk.contrib.django)."""

from __future__ import annotations

import pathlib
import time
import typing as t

from django.conf import settings
from django.db import connection

from mcp_sdk.contrib.django import server

from .models import Book

@server.tool
def books(author: str) -> list[str]:
    """Titles by an author, from the database."""
    return list(Book.objects.filter(author=author).order_by("title").values_list("title", flat=True))


@server.tool
def setting(key: str) -> str:
    """A value of the project's settings."""
    return str(getattr(settings, key))


@server.tool
def whoami(server_context: t.Any = None) -> dict[str, t.Any]:
    """Who is asking, as Django sees it."""
    request = server_context.request
    return {
        "principal": server_context.auth.subject,
        "scopes": sorted(server_context.auth.scopes),
        "request_user": request.user.get_username(),
        "agent": request.headers.get("X-Agent"),
        "path": request.path,
        "carrier": f"{type(request).__module__}.{type(request).__name__}",
        "in_atomic_block": connection.in_atomic_block,
    }


@server.define_tool(name="shelf_count", description="How many books there are (needs library.view_book).", required_scopes=["library.view_book"])
def shelf_count(args: dict[str, t.Any]) -> str:
    return f"{Book.objects.count()} books"


@server.tool
def count(to: int, release: str = "", server_context: t.Any = None) -> str:
    """Counts, reporting progress and logging each step."""
    for step in range(1, to + 1):
        server_context.report_progress(step, total=to)
        server_context.notify_log_message(data=f"step {step} for {server_context.auth.subject}", level="info", logger="library")
    deadline = time.monotonic() + 10
    while release and not pathlib.Path(release).exists() and time.monotonic() < deadline:
        time.sleep(0.02)  # the spec creates the file once it has seen the progress
    return f"counted to {to}"
