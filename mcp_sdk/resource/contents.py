"""What ``resources/read`` returns: text or base64 blob contents of a URI."""

from __future__ import annotations

import typing as t

import attrs

from .._converter import unstructure


@attrs.define
class TextContents:
    """``{"uri": ..., "mimeType": ..., "text": ...}``.

    :param text: the contents, as text.
    :param uri: the URI read.
    :param mime_type: the contents' media type (``mimeType``).
    :param meta: the contents' ``_meta``.
    """

    text: str
    uri: str
    mime_type: str | None = None
    meta: dict[str, t.Any] | None = None

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form."""
        return t.cast("dict[str, t.Any]", unstructure(self))


@attrs.define
class BlobContents:
    """``{"uri": ..., "mimeType": ..., "blob": <base64 data>}``.

    :param data: the contents, base64-encoded (sent as ``blob``).
    :param uri: the URI read.
    :param mime_type: the contents' media type (``mimeType``).
    :param meta: the contents' ``_meta``.
    """

    data: str
    uri: str
    mime_type: str | None = None
    meta: dict[str, t.Any] | None = None

    def to_dict(self) -> dict[str, t.Any]:
        """The wire form (``data`` is sent as ``blob``)."""
        wire = t.cast("dict[str, t.Any]", unstructure(self))
        wire["blob"] = wire.pop("data")
        return wire
