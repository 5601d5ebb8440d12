"""Reading an OpenAPI document: a mapping, JSON or YAML text, or a file path.

PyYAML (the ``[openapi]`` extra) is imported only when the document is YAML.
"""

from __future__ import annotations

import importlib
import json
import os
import typing as t

from ..errors import MissingExtraError
from .errors import OpenAPIError as OpenAPIError


def load_document(document: t.Mapping[str, t.Any] | str | bytes | os.PathLike[str]) -> dict[str, t.Any]:
    """Return the OpenAPI document as a dict.

    :param document: a parsed mapping, JSON or YAML text (``str`` or ``bytes``), or the path of a
        ``.json``/``.yaml``/``.yml`` file.
    :returns: the document.
    :raises OpenAPIError: it is not an OpenAPI 3.0 or 3.1 document.
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
    version = str(parsed.get("openapi", ""))
    if not (version.startswith("3.0") or version.startswith("3.1")):
        raise OpenAPIError(f"only OpenAPI 3.0 and 3.1 documents are supported, not openapi: {version or 'missing'!r}")
    return parsed


def _parse(text: str) -> t.Any:
    if text.lstrip().startswith(("{", "[")):
        try:
            return json.loads(text)
        except ValueError as error:
            raise OpenAPIError(f"the OpenAPI document is not valid JSON: {error}") from None
    try:
        yaml = importlib.import_module("yaml")
    except ImportError:
        raise MissingExtraError("a YAML OpenAPI document needs PyYAML: pip install 'mcp_sdk[openapi]'") from None
    try:
        return yaml.safe_load(text)
    except yaml.YAMLError as error:
        raise OpenAPIError(f"the OpenAPI document is not valid YAML: {error}") from None
