"""Form elicitation on the client's side: the defaults of the fields an answer leaves out (SEP-1034).

https://modelcontextprotocol.io/specification/2025-11-25/client/elicitation
"""

from __future__ import annotations

import copy
import typing as t


def apply_defaults(requested_schema: t.Any, content: t.Mapping[str, t.Any] | None) -> dict[str, t.Any]:
    """``content`` with the ``default`` of every field it leaves out (SEP-1034).

    Only the top-level ``properties`` of the requested schema are considered
    (elicitation schemas are flat); fields ``content`` sets are kept as they are.
    """
    filled = dict(content or {})
    properties = requested_schema.get("properties") if isinstance(requested_schema, dict) else None
    if isinstance(properties, dict):
        for name, field in properties.items():
            if name not in filled and isinstance(field, dict) and "default" in field:
                filled[name] = copy.deepcopy(field["default"])
    return filled
