"""Route maps: which OpenAPI operations become tools, resources, resource templates, or nothing.

As FastMCP's: the maps are tried in order and the first that matches an operation decides its
component type; an operation no map matches becomes a tool.
"""

from __future__ import annotations

import enum
import re
import typing as t

import attrs

HTTP_METHODS = ("get", "put", "post", "delete", "options", "head", "patch", "trace")


class MCPType(enum.Enum):
    """What an operation becomes."""

    TOOL = "tool"
    RESOURCE = "resource"
    RESOURCE_TEMPLATE = "resource_template"
    EXCLUDE = "exclude"


@attrs.frozen
class Route:
    """One operation of the document, its ``$ref``'d parameters already followed."""

    method: str  #: upper case: ``"GET"``
    path: str  #: as written: ``"/pet/{petId}"``
    operation: t.Mapping[str, t.Any]
    parameters: tuple[t.Mapping[str, t.Any], ...]  #: path-level and operation-level, operation winning
    tags: frozenset[str]

    @property
    def path_parameters(self) -> list[str]:
        return [parameter["name"] for parameter in self.parameters if parameter.get("in") == "path"]


@attrs.frozen
class RouteMap:
    """A rule choosing the component type of the operations it matches.

    :param methods: HTTP methods matched (any case; one may be given as a string), or ``"*"`` for all.
    :param pattern: a regular expression searched (``re.search``) in the path as written (``/pet/{petId}``).
    :param tags: the operation must have all of these tags (empty: any operation).
    :param mcp_type: what a matched operation becomes.
    :param mcp_tags: ``tags`` given to the component made from a matched operation.
    """

    methods: t.Union[t.Sequence[str], str] = "*"
    pattern: t.Union[str, "re.Pattern[str]"] = r".*"
    tags: t.AbstractSet[str] = frozenset()
    mcp_type: MCPType = MCPType.TOOL
    mcp_tags: t.AbstractSet[str] = frozenset()

    def matches(self, route: Route) -> bool:
        """True when ``route`` has one of the methods, a path matching the pattern, and all the tags.

        :param route: an operation of the document.
        """
        methods = [self.methods] if isinstance(self.methods, str) else self.methods
        if "*" not in methods and route.method not in {method.upper() for method in methods}:
            return False
        if not re.search(self.pattern, route.path):
            return False
        return set(self.tags) <= route.tags


def choose(route_maps: t.Sequence[RouteMap], route: Route) -> RouteMap:
    """The first map matching ``route``; a tool when none does."""
    for route_map in route_maps:
        if route_map.matches(route):
            return route_map
    return RouteMap()


def routes(document: t.Mapping[str, t.Any], deref: t.Callable[[t.Any], t.Any]) -> list[Route]:
    """Every operation of ``document``'s ``paths``, in document order."""
    found: list[Route] = []
    for path, item in (document.get("paths") or {}).items():
        item = deref(item)
        if not isinstance(item, t.Mapping):
            continue
        shared = [deref(parameter) for parameter in item.get("parameters") or ()]
        for method in HTTP_METHODS:
            operation = item.get(method)
            if not isinstance(operation, t.Mapping):
                continue
            own = [deref(parameter) for parameter in operation.get("parameters") or ()]
            keys = {(parameter.get("name"), parameter.get("in")) for parameter in own}
            merged = [p for p in shared if (p.get("name"), p.get("in")) not in keys] + own
            found.append(Route(method.upper(), path, operation, tuple(merged), frozenset(operation.get("tags") or ())))
    return found
