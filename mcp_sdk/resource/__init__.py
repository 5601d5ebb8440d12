"""Resources a server lists (``resources/list``), as value objects."""

from __future__ import annotations

import typing as t

import attrs

from .._converter import unstructure
from .._scopes import scope_tuple
from .._tags import tag_set
from .contents import BlobContents, TextContents


@attrs.define
class Resource:
    """A resource the server exposes: ``Resource(uri=..., name=..., mime_type=...)``.

    Its contents come from the server's ``resources_read_handler``. ``ttl_ms`` and
    ``cache_scope`` are the 2026-07-28 cache hints of its ``resources/read`` result
    (default: the server's); they are not part of the listing. Pass resources to
    ``Server(resources=[...])``; the read handler returns their contents as
    :class:`TextContents`, :class:`BlobContents` or dicts in the wire's shape:

    .. code-block:: python

        from mcp_sdk import Client, Resource, Server
        from mcp_sdk.client import InMemory

        readme = Resource(uri="file:///project/README", name="readme", mime_type="text/plain")
        server = Server(name="files", resources=[readme])


        @server.resources_read_handler
        def read(params, server_context=None):
            return [Resource.TextContents(text="Hello", uri=params["uri"], mime_type="text/plain")]


        with Client(transport=InMemory(server)) as client:
            client.connect()
            assert [listed["uri"] for listed in client.resources()] == ["file:///project/README"]
            contents = client.read_resource("file:///project/README")
            assert contents == [{"text": "Hello", "uri": "file:///project/README", "mimeType": "text/plain"}]

    :param uri: the resource's URI.
    :param name: its name.
    :param title: a display name (protocol 2025-06-18 and later).
    :param description: what the resource is.
    :param mime_type: its media type (``mimeType``).
    :param size: its size in bytes, if known.
    :param annotations: the ``annotations`` of the listing (``audience``, ``priority``, ``lastModified``).
    :param icons: icons (protocol 2025-11-25), each ``{"src": ..., "mimeType": ...}``.
    :param meta: ``_meta`` of the listing.
    :param ttl_ms: the ``ttlMs`` cache hint of its ``resources/read`` result (2026-07-28).
    :param cache_scope: ``"public"`` or ``"private"``, the cache scope of that result (2026-07-28).
    :param required_scopes: OAuth scopes a caller needs to see and read it.
    :param tags: the server's labels for it, for ``Server(include_tags=..., exclude_tags=...)``; never sent.
    """

    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    annotations: dict[str, t.Any] | None = None
    icons: list[dict[str, t.Any]] | None = None
    meta: dict[str, t.Any] | None = None
    ttl_ms: int | None = attrs.field(default=None, kw_only=True)
    cache_scope: str | None = attrs.field(default=None, kw_only=True)
    #: OAuth scopes a caller needs: without them the resource is left out of ``resources/list``
    #: and ``resources/read`` is refused (HTTP 403 ``insufficient_scope``); never sent on the wire.
    required_scopes: tuple[str, ...] = attrs.field(default=(), converter=scope_tuple)
    #: The server's labels for it, for ``Server(include_tags=..., exclude_tags=...)``; never sent on the wire.
    tags: frozenset[str] = attrs.field(factory=frozenset, converter=tag_set, kw_only=True)

    TextContents: t.ClassVar[type[TextContents]] = TextContents
    BlobContents: t.ClassVar[type[BlobContents]] = BlobContents

    def to_dict(self) -> dict[str, t.Any]:
        """The ``resources/list`` entry."""
        entry = t.cast("dict[str, t.Any]", unstructure(self))
        entry.pop("ttlMs", None)
        entry.pop("cacheScope", None)
        entry.pop("requiredScopes", None)
        entry.pop("required_scopes", None)
        entry.pop("tags", None)
        return entry


__all__ = ["Resource", "TextContents", "BlobContents"]
