"""Find the :class:`~mcp_sdk.Server` a ``FILE[:name]`` argument names."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import typing as t

from ..server import Server
from .errors import CLIError

#: Names tried, in order, when ``FILE`` gives none and the module has several servers.
CONVENTIONAL_NAMES = ("server", "mcp", "app")


def split_target(spec: str) -> tuple[str, str | None]:
    """``"weather.py:server"`` -> ``("weather.py", "server")``; a Windows drive letter is not a name."""
    path, sep, name = spec.rpartition(":")
    if not sep or not path or os.sep in name or "/" in name or (len(path) == 1 and path.isalpha()):
        return spec, None
    return path, name


def load_server(spec: str) -> Server:
    """Import ``FILE`` (or a dotted module) without running its ``__main__`` block; return its server.

    :raises CLIError: the file is missing, fails to import, or has no (or several) servers.
    """
    path, name = split_target(spec)
    module = _import(path)
    if name is not None:
        found = getattr(module, name, None)
        if not isinstance(found, Server):
            raise CLIError(f"{path} has no Server named {name!r}")
        return found
    servers = {key: value for key, value in vars(module).items() if isinstance(value, Server)}
    if len(servers) == 1:
        return next(iter(servers.values()))
    for conventional in CONVENTIONAL_NAMES:
        if isinstance(servers.get(conventional), Server):
            return servers[conventional]
    if not servers:
        raise CLIError(f"{path} defines no mcp_sdk.Server at module level (e.g. server = Server(name=...))")
    raise CLIError(f"{path} defines several servers ({', '.join(sorted(servers))}): name one, as {path}:{sorted(servers)[0]}")


def _import(path: str) -> t.Any:
    if path.endswith(".py") or os.sep in path or "/" in path:
        if not os.path.isfile(path):
            raise CLIError(f"no such file: {path}")
        directory = os.path.dirname(os.path.abspath(path))
        if directory not in sys.path:
            sys.path.insert(0, directory)  # as `python FILE` would, for the file's own imports
        module_name = os.path.splitext(os.path.basename(path))[0]
        spec = importlib.util.spec_from_file_location(module_name, path)
        if spec is None or spec.loader is None:
            raise CLIError(f"cannot import {path}")
        module = importlib.util.module_from_spec(spec)
        sys.modules[module_name] = module
        try:
            spec.loader.exec_module(module)
        except (Exception, SystemExit) as error:
            raise CLIError(f"importing {path} failed: {type(error).__name__}: {error}") from error
        return module
    try:
        return importlib.import_module(path)
    except Exception as error:
        raise CLIError(f"importing {path} failed: {type(error).__name__}: {error}") from error


__all__ = ["load_server", "split_target", "CONVENTIONAL_NAMES"]
