"""Resource templates a server lists (``resources/templates/list``)."""

from __future__ import annotations

import typing as t

import attrs

from ._converter import unstructure
from ._tags import tag_set


@attrs.define
class ResourceTemplate:
    """A parameterized resource: ``ResourceTemplate(uri_template="file:///{path}", name=...)`` (RFC 6570).

    :param uri_template: the RFC 6570 URI template (``uriTemplate``).
    :param name: the template's name.
    :param title: a display name (protocol 2025-06-18 and later).
    :param description: what the resources are.
    :param mime_type: the resources' media type (``mimeType``), when they all share one.
    :param annotations: the ``annotations`` of the listing (``audience``, ``priority``...).
    :param icons: icons (protocol 2025-11-25), each ``{"src": ..., "mimeType": ...}``.
    :param meta: ``_meta`` of the listing.
    :param tags: the server's labels for it, for ``Server(include_tags=..., exclude_tags=...)``; never sent.
    """

    uri_template: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    annotations: dict[str, t.Any] | None = None
    icons: list[dict[str, t.Any]] | None = None
    meta: dict[str, t.Any] | None = None
    #: The server's labels for it, for ``Server(include_tags=..., exclude_tags=...)``; never sent on the wire.
    tags: frozenset[str] = attrs.field(factory=frozenset, converter=tag_set, kw_only=True)

    def to_dict(self) -> dict[str, t.Any]:
        """The ``resources/templates/list`` entry."""
        entry = t.cast("dict[str, t.Any]", unstructure(self))
        entry.pop("tags", None)
        return entry
