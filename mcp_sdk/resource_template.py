"""Resource templates a server lists (``resources/templates/list``)."""

from __future__ import annotations

import typing as t

import attrs

from ._converter import unstructure
from ._tags import tag_set


@attrs.define
class ResourceTemplate:
    """A parameterized resource: ``ResourceTemplate(uri_template="file:///{path}", name=...)`` (RFC 6570)."""

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
