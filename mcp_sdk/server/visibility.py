"""Which registered items clients see: the disabled ones and the tag filters.

A :class:`Visibility` is an immutable value: the :class:`~.registry.Registry` replaces
it under its lock on each change and derives from it the collections it lists and
serves. An item hidden by it is neither listed nor callable: a call answers as for an
unknown name.

The tag filters follow FastMCP's documented behaviour
(https://gofastmcp.com/v2/servers/server, "Tag-Based Filtering"): with ``include_tags``
only items carrying at least one of them are served; an item carrying any of
``exclude_tags`` is hidden; exclusion wins over inclusion.
"""

from __future__ import annotations

import re
import typing as t

from .._tags import tag_set
from ..resource.uri_template import URITemplate, URITemplateError

#: What an item is known by: its kind (``"tools"``, ``"prompts"``, ``"resources"``,
#: ``"resourceTemplates"``) and its name (the URI, the URI template).
ItemKey = t.Tuple[str, str]

_EXPRESSION = re.compile(r"\{[^{}]*\}")


class Visibility:
    """The disabled items and tag filters of one registry (an immutable value).

    :param include_tags: None: no inclusion filter; else only items with one of these tags show.
    :param exclude_tags: items with any of these tags are hidden.
    :param disabled: the items disabled by name.
    :raises TypeError: a tag is not a non-empty string.
    """

    __slots__ = ("include_tags", "exclude_tags", "disabled")

    def __init__(
        self,
        include_tags: t.Iterable[str] | None = None,
        exclude_tags: t.Iterable[str] | None = None,
        disabled: t.AbstractSet[ItemKey] = frozenset(),
    ) -> None:
        self.include_tags: frozenset[str] | None = None if include_tags is None else tag_set(include_tags)
        self.exclude_tags: frozenset[str] = tag_set(exclude_tags)
        self.disabled: frozenset[ItemKey] = frozenset(disabled)

    @property
    def hides_nothing(self) -> bool:
        """Whether every registered item shows (the common case: nothing to filter)."""
        return self.include_tags is None and not self.exclude_tags and not self.disabled

    def shows(self, kind: str, key: str, tags: t.AbstractSet[str]) -> bool:
        """Whether the item ``key`` of ``kind``, carrying ``tags``, is listed and served."""
        if (kind, key) in self.disabled:
            return False
        if self.exclude_tags and not self.exclude_tags.isdisjoint(tags):
            return False
        return self.include_tags is None or not self.include_tags.isdisjoint(tags)

    def with_enabled(self, kind: str, key: str, enabled: bool) -> Visibility:
        """This visibility with the item enabled or disabled."""
        disabled = self.disabled - {(kind, key)} if enabled else self.disabled | {(kind, key)}
        return Visibility(self.include_tags, self.exclude_tags, disabled)

    def forgetting(self, kind: str, key: str) -> Visibility:
        """This visibility without the item's disabled mark (it was removed)."""
        return Visibility(self.include_tags, self.exclude_tags, self.disabled - {(kind, key)})


def template_matcher(uri_template: str) -> t.Callable[[str], bool]:
    """Whether a URI is one that ``uri_template`` answers: its RFC 6570 match (as
    ``@server.resource`` readers match), so a hidden template hides exactly the URIs it
    would have served. A template matching does not support (a prefix modifier, a named
    explode) falls back to a loose pattern, each ``{...}`` standing for any text."""
    template = URITemplate(uri_template)
    try:
        template.check_matchable()
    except URITemplateError:
        parts = _EXPRESSION.split(uri_template)
        loose = re.compile(".*".join(re.escape(part) for part in parts), re.DOTALL)
        return lambda uri: loose.fullmatch(uri) is not None
    return lambda uri: template.match(uri) is not None


__all__ = ["ItemKey", "Visibility", "template_matcher"]
