"""``mcp-sdk install claude-desktop FILE``: the ``mcpServers`` entry that runs a server file."""

from __future__ import annotations

import contextlib
import json
import os
import stat
import sys
import tempfile
import typing as t

from .command_error import CLIError
from .loading import split_target

#: The mode of a configuration file ``install`` creates: its owner's alone (it may hold API keys).
NEW_FILE_MODE = 0o600


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


def install(target: str, name: str | None, config_path: str | None, dry_run: bool, force: bool = False) -> str:
    """Add the server's entry to the configuration; return what was written or would be.

    An entry of the same name is replaced only with ``force`` (the same entry again changes nothing).
    The file is written as :func:`write_config` says: through a symlink, keeping its mode.

    :raises CLIError: the configuration exists but is not a JSON object, or already has another
        entry of this name and ``force`` is false.
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
    servers = config.setdefault("mcpServers", {})
    previous = servers.get(key)
    if previous == entry:
        return f"{key!r} is already in {config_path}; nothing changed"
    if previous is not None and not force:
        raise CLIError(f"{config_path} already has a server named {key!r}; pass --force to replace it, or --name to add another")
    servers[key] = entry
    write_config(config_path, json.dumps(config, indent=2) + "\n")
    done = f"Replaced {key!r} in" if previous is not None else f"Added {key!r} to"
    return f"{done} {config_path}; restart Claude Desktop to load it"


def write_config(config_path: str, text: str) -> None:
    """Replace the file's content all at once, so Claude Desktop never reads half a file.

    A symlink is followed: the file it points at is the one replaced, and the link stays. The file
    keeps its mode (and, where allowed, its owner); a new file is ``0600``, readable by its owner
    only, because ``env`` entries often hold API keys. The text goes to a temporary file in the
    same directory, is flushed to disk, then renamed over the file (:func:`os.replace`).
    """
    real_path = os.path.realpath(config_path)
    directory = os.path.dirname(real_path)
    os.makedirs(directory, exist_ok=True)
    try:
        existing: os.stat_result | None = os.stat(real_path)
    except FileNotFoundError:
        existing = None
    mode = stat.S_IMODE(existing.st_mode) if existing is not None else NEW_FILE_MODE
    handle, temporary = tempfile.mkstemp(dir=directory, prefix=f".{os.path.basename(real_path)}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as file:
            file.write(text)
            file.flush()
            os.fsync(file.fileno())
        os.chmod(temporary, mode)
        if existing is not None and hasattr(os, "chown"):
            try:
                os.chown(temporary, existing.st_uid, existing.st_gid)  # e.g. under sudo: stays the user's
            except PermissionError:
                pass
        os.replace(temporary, real_path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(temporary)
        raise
    _fsync_directory(directory)


def _fsync_directory(directory: str) -> None:
    """Make the rename itself durable (POSIX; Windows cannot open a directory)."""
    try:
        descriptor = os.open(directory, os.O_RDONLY)
    except OSError:
        return
    with contextlib.suppress(OSError):
        os.fsync(descriptor)
    os.close(descriptor)


__all__ = ["NEW_FILE_MODE", "claude_desktop_config_path", "install", "server_entry", "write_config"]
