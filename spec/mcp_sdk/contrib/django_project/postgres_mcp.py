"""The project's server (the library app's tools) and one more tool for the PostgreSQL spec: one
that declares ``server_context``, so it runs on the transport's worker pool, not on the WSGI thread
(where ``books`` runs), and queries the ORM there."""

from __future__ import annotations

import typing as t

from spec.mcp_sdk.contrib.django_project.mcp import server


@server.tool
def shelf(author: str, server_context: t.Any = None) -> list[str]:
    """Titles by an author, from the database, on a worker thread of the transport."""
    from spec.mcp_sdk.contrib.django_project.library.models import Book

    return list(Book.objects.filter(author=author).order_by("title").values_list("title", flat=True))


__all__ = ["server"]
