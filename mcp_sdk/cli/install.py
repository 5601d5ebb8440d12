"""``mcp-sdk install claude-desktop FILE``: the ``mcpServers`` entry that runs a server file."""

from __future__ import annotations

import json
import os
import sys
import tempfile
import typing as t

from .errors import CLIError
from .loading import split_target


def claude_desktop_config_path() -> str:
    """Where Claude Desktop reads its configuration on this system."""
    home = os.path.expanduser("~")
    if sys.platform == "darwin":
        return os.path.join(home, "Library", "Application Support", "Claude", "claude_desktop_config.json")
    if sys.platform == "win32":
        return os.path.join(os.environ.get("APPDATA", home), "Claude", "claude_desktop_config.json")
    return os.path.join(os.environ.get("XDG_CONFIG_HOME", os.path.join(home, ".config")), "Claude", "claude_desktop_config.json")


def server_entry(target: str) -> dict[str, t.Any]:
    """The entry: this interpreter (a venv's, when run from one) running ``-m mcp_sdk run FILE``."""
    path, name = split_target(target)
    if not os.path.isfile(path):
        raise CLIError(f"no such file: {path}")
    absolute = os.path.abspath(path) + (f":{name}" if name else "")
    return {"command": sys.executable, "args": ["-m", "mcp_sdk", "run", absolute]}


def install(target: str, name: str | None, config_path: str | None, dry_run: bool) -> str:
    """Add (or replace) the server's entry in the configuration; return what was written or would be.

    :raises CLIError: the configuration exists but is not a JSON object.
    """
    path, _ = split_target(target)
    key = name or os.path.splitext(os.path.basename(path))[0]
    entry = server_entry(target)
    if dry_run:
        return json.dumps({"mcpServers": {key: entry}}, indent=2)
    config_path = config_path or claude_desktop_config_path()
    config: t.Any = {}
    if os.path.exists(config_path):
        try:
            with open(config_path, encoding="utf-8") as file:
                config = json.load(file)
        except (OSError, ValueError) as error:
            raise CLIError(f"cannot read {config_path}: {error}") from None
        if not isinstance(config, dict) or not isinstance(config.get("mcpServers", {}), dict):
            raise CLIError(f"{config_path} is not a Claude Desktop configuration (a JSON object with mcpServers)")
    config.setdefault("mcpServers", {})[key] = entry
    os.makedirs(os.path.dirname(config_path) or ".", exist_ok=True)
    handle, temporary = tempfile.mkstemp(dir=os.path.dirname(config_path) or ".", suffix=".json")
    with os.fdopen(handle, "w", encoding="utf-8") as file:  # whole or not at all
        json.dump(config, file, indent=2)
        file.write("\n")
    os.replace(temporary, config_path)
    return f"Added {key!r} to {config_path}; restart Claude Desktop to load it"


__all__ = ["claude_desktop_config_path", "install", "server_entry"]
