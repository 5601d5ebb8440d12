"""Reading an OpenAPI document: a mapping, JSON or YAML text, or a file path.

PyYAML (the ``[openapi]`` extra) is imported only when the document is YAML. A document is
refused (:class:`OpenAPIError`) when it nests deeper than :data:`MAX_DEPTH` levels, refers to
itself, or when its shared parts (YAML aliases, or one dict used twice in a mapping) would make
more than :data:`MAX_SHARED_NODES` extra values once expanded: the conversion to tool schemas walks
every path of the document, so a few hundred bytes of nested aliases would otherwise take hours.
"""

from __future__ import annotations

import importlib
import json
import os
import typing as t

from ..errors import MCPError, MissingExtraError

#: The deepest a document may nest (objects and arrays). Real documents stay under 20 (Discord's:
#: 14); the schemas' conversion and validation recurse about as deep as the document.
MAX_DEPTH = 100
#: How many values a document's shared parts (YAML aliases) may add once expanded.
MAX_SHARED_NODES = 200_000


class OpenAPIError(MCPError):
    """The OpenAPI document cannot be used: unreadable, not OpenAPI 3.0/3.1, too large or deep, or
    a ``$ref`` that leads nowhere."""


def load_document(document: t.Mapping[str, t.Any] | str | bytes | os.PathLike[str]) -> dict[str, t.Any]:
    """Return the OpenAPI document as a dict.

    :param document: a parsed mapping, JSON or YAML text (``str`` or ``bytes``), or the path of a
        ``.json``/``.yaml``/``.yml`` file.
    :returns: the document.
    :raises OpenAPIError: it is not an OpenAPI 3.0 or 3.1 document, or it is too deep, refers to
        itself, or expands too far (see the module's text).
    :raises MissingExtraError: the document is YAML and PyYAML is not installed.
    """
    if isinstance(document, t.Mapping):
        parsed: t.Any = dict(document)
    else:
        if isinstance(document, os.PathLike):
            with open(document, "rb") as file:
                document = file.read()
        text = document.decode("utf-8") if isinstance(document, bytes) else document
        parsed = _parse(text)
    if not isinstance(parsed, dict):
        raise OpenAPIError("an OpenAPI document is a JSON or YAML object (pass a file path as a pathlib.Path)")
    check_shape(parsed)
    version = str(parsed.get("openapi", ""))
    if not (version.startswith("3.0") or version.startswith("3.1")):
        raise OpenAPIError(f"only OpenAPI 3.0 and 3.1 documents are supported, not openapi: {version or 'missing'!r}")
    return parsed


def check_shape(document: t.Any) -> None:
    """Refuse a document nested too deep, holding itself, or whose shared parts expand too far.

    One walk over the document's distinct objects and arrays, without recursion: a shared part is
    measured once, however often it appears.

    :raises OpenAPIError: the document is over :data:`MAX_DEPTH` or :data:`MAX_SHARED_NODES`, or
        contains itself.
    """
    sizes: dict[int, int] = {}  # id of a container -> how many values it holds, expanded
    distinct = 0
    on_path: set[int] = set()
    stack: list[tuple[t.Any, bool]] = [(document, False)]
    while stack:
        node, finished = stack.pop()
        key = id(node)
        children = _children(node)
        if finished:
            on_path.discard(key)
            sizes[key] = 1 + sum(sizes.get(id(child), 1) for child in children)
            if sizes[key] - distinct > MAX_SHARED_NODES:
                raise OpenAPIError(f"the OpenAPI document's shared parts (YAML aliases) expand past {MAX_SHARED_NODES} values")
            continue
        if key in sizes:
            continue
        if key in on_path:
            raise OpenAPIError("the OpenAPI document contains itself (a YAML alias inside its own anchor)")
        if len(on_path) >= MAX_DEPTH:
            raise OpenAPIError(f"the OpenAPI document nests deeper than {MAX_DEPTH} levels")
        on_path.add(key)
        distinct += 1 + sum(1 for child in children if not _children(child))
        stack.append((node, True))
        stack.extend((child, False) for child in children if _children(child) and id(child) not in sizes)


def _children(node: t.Any) -> list[t.Any]:
    if isinstance(node, t.Mapping):
        return list(node.values())
    if isinstance(node, (list, tuple)):
        return list(node)
    return []


def _parse(text: str) -> t.Any:
    if text.lstrip().startswith(("{", "[")):
        try:
            return json.loads(text)
        except RecursionError:
            raise OpenAPIError(f"the OpenAPI document nests deeper than {MAX_DEPTH} levels") from None
        except ValueError as error:
            raise OpenAPIError(f"the OpenAPI document is not valid JSON: {error}") from None
    try:
        yaml = importlib.import_module("yaml")
    except ImportError:
        raise MissingExtraError("a YAML OpenAPI document needs PyYAML: pip install 'mcp_sdk[openapi]'") from None
    try:
        return yaml.safe_load(text)
    except RecursionError:
        raise OpenAPIError(f"the OpenAPI document nests deeper than {MAX_DEPTH} levels") from None
    except yaml.YAMLError as error:
        raise OpenAPIError(f"the OpenAPI document is not valid YAML: {error}") from None
