"""Content blocks: what tools return and prompt messages carry.

``Content.Text("hi").to_dict() == {"type": "text", "text": "hi"}``. Plain dicts in
wire form are accepted wherever content is, too.
"""

from __future__ import annotations

import typing as t

import attrs

from ._converter import to_wire, unstructure


class _Block:
    TYPE: t.ClassVar[str]

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form, with ``type`` first and ``None`` fields left out."""
        data = {"type": self.TYPE}
        data.update(unstructure(self))
        return data


@attrs.define
class Text(_Block):
    """``{"type": "text", "text": ...}``."""

    TYPE = "text"
    text: str
    annotations: dict[str, t.Any] | None = None
    meta: dict[str, t.Any] | None = None


@attrs.define
class Image(_Block):
    """Base64 image data with its MIME type."""

    TYPE = "image"
    data: str
    mime_type: str
    annotations: dict[str, t.Any] | None = None
    meta: dict[str, t.Any] | None = None


@attrs.define
class Audio(_Block):
    """Base64 audio data with its MIME type (protocol 2025-03-26 and later)."""

    TYPE = "audio"
    data: str
    mime_type: str
    annotations: dict[str, t.Any] | None = None
    meta: dict[str, t.Any] | None = None


@attrs.define
class EmbeddedResource(_Block):
    """A resource's contents inline: ``resource`` is a ``Resource.TextContents``/``BlobContents`` or a dict."""

    TYPE = "resource"
    resource: t.Any
    annotations: dict[str, t.Any] | None = None
    meta: dict[str, t.Any] | None = None

    def to_dict(self) -> dict[str, t.Any]:
        data: dict[str, t.Any] = {"type": self.TYPE, "resource": to_wire(self.resource)}
        if self.annotations is not None:
            data["annotations"] = self.annotations
        if self.meta is not None:
            data["_meta"] = self.meta
        return data


@attrs.define
class ResourceLink(_Block):
    """A link to a resource the client may read (protocol 2025-06-18 and later)."""

    TYPE = "resource_link"
    uri: str
    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    size: int | None = None
    icons: list[dict[str, t.Any]] | None = None
    annotations: dict[str, t.Any] | None = None
    meta: dict[str, t.Any] | None = None


class Content:
    """Namespace of the content block types, as ``MCP::Content`` in the Ruby gem."""

    Text = Text
    Image = Image
    Audio = Audio
    EmbeddedResource = EmbeddedResource
    ResourceLink = ResourceLink
