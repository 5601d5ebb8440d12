"""How the CLI prints what a server answered: readable text, or JSON with ``--json``."""

from __future__ import annotations

import json
import typing as t


def as_json(value: t.Any) -> str:
    return json.dumps(value, indent=2, ensure_ascii=False)


def describe_tools(tools: list[dict[str, t.Any]]) -> str:
    """One paragraph per tool: name, description, then its arguments."""
    blocks = []
    for tool in tools:
        lines = [tool["name"] + (f": {_first_line(tool.get('description'))}" if tool.get("description") else "")]
        schema = tool.get("inputSchema") or {}
        required = set(schema.get("required") or ())
        for name, spec in (schema.get("properties") or {}).items():
            kind = spec.get("type", "any") if isinstance(spec, dict) else "any"
            kind = "|".join(kind) if isinstance(kind, list) else kind
            flag = "required" if name in required else "optional"
            about = f"  {spec['description']}" if isinstance(spec, dict) and spec.get("description") else ""
            lines.append(f"    {name} ({kind}, {flag}){about}")
        blocks.append("\n".join(lines))
    return "\n".join(blocks) if blocks else "(no tools)"


def describe_prompts(prompts: list[dict[str, t.Any]]) -> str:
    lines = []
    for prompt in prompts:
        arguments = ", ".join(a["name"] + ("" if a.get("required") else "?") for a in prompt.get("arguments") or ())
        about = f": {_first_line(prompt.get('description'))}" if prompt.get("description") else ""
        lines.append(f"{prompt['name']}({arguments}){about}")
    return "\n".join(lines) if lines else "(no prompts)"


def describe_resources(resources: list[dict[str, t.Any]], templates: list[dict[str, t.Any]]) -> str:
    lines = [f"{r['uri']}  {r.get('name', '')}" + (f" ({r['mimeType']})" if r.get("mimeType") else "") for r in resources]
    lines += [f"{r['uriTemplate']}  {r.get('name', '')} (template)" for r in templates]
    return "\n".join(lines) if lines else "(no resources)"


def describe_result(result: dict[str, t.Any]) -> str:
    """A tool result: its text blocks, other blocks as JSON, then structured content."""
    parts = []
    for block in result.get("content") or ():
        if isinstance(block, dict) and block.get("type") == "text":
            parts.append(str(block.get("text", "")))
        else:
            parts.append(as_json(block))
    if "structuredContent" in result and not parts:
        parts.append(as_json(result["structuredContent"]))
    return "\n".join(parts)


def _first_line(text: t.Any) -> str:
    return str(text).strip().splitlines()[0] if str(text).strip() else ""


__all__ = ["as_json", "describe_prompts", "describe_resources", "describe_result", "describe_tools"]
