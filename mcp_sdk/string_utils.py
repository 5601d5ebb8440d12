"""Name conversions between Python and the wire."""

from __future__ import annotations

import functools
import re

_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")
_NON_ALPHANUMERIC = re.compile(r"[^A-Za-z0-9]+")


def underscore(name: str) -> str:
    """``"ExampleTool"`` -> ``"example_tool"``; ``"HTTPTool"`` -> ``"http_tool"``."""
    return _BOUNDARY.sub("_", name).replace("-", "_").lower()


def class_name(name: str, default: str) -> str:
    """A class name for a wire name: ``"add_numbers"`` -> ``"AddNumbers"``; ``default`` when nothing is left."""
    return "".join(part.capitalize() for part in _NON_ALPHANUMERIC.split(name) if part) or default


@functools.lru_cache(maxsize=None)
def camelize(name: str) -> str:
    """``"read_only_hint"`` -> ``"readOnlyHint"``; ``"meta"`` -> ``"_meta"`` (the wire's name)."""
    if name == "meta":
        return "_meta"
    head, *rest = name.split("_")
    return head + "".join(part[:1].upper() + part[1:] for part in rest)
