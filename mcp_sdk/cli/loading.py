"""Find the :class:`~mcp_sdk.Server` a ``FILE[:name]`` argument names."""

from __future__ import annotations

import importlib
import importlib.util
import os
import sys
import typing as t

from ..server import Server
from .command_error import CLIError

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
        return _import_file(path)
    try:
        return importlib.import_module(path)
    except Exception as error:
        raise CLIError(f"importing {path} failed: {type(error).__name__}: {error}") from error


def _import_file(path: str) -> t.Any:
    """Import a file as ``python FILE`` would, except that its folder is searched last.

    The folder goes at the end of :data:`sys.path`, after the standard library and installed
    packages: the file's own modules (a ``helpers.py`` beside it) import as usual, but a
    ``queue.py`` there cannot replace :mod:`queue`. The file itself is registered under its own
    name unless that name is already another module's (a server file called ``secrets.py``), in
    which case it is ``mcp_sdk_run_secrets``.
    """
    if not os.path.isfile(path):
        raise CLIError(f"no such file: {path}")
    directory = os.path.dirname(os.path.abspath(path))
    if directory not in sys.path:
        sys.path.append(directory)
    module_name = _module_name(path)
    spec = importlib.util.spec_from_file_location(module_name, path)
    if spec is None or spec.loader is None:
        raise CLIError(f"cannot import {path}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except (Exception, SystemExit) as error:
        message = f"importing {path} failed: {type(error).__name__}: {error}"
        raise CLIError(message + _hidden_siblings(directory, message)) from error
    return module


def _module_name(path: str) -> str:
    """The file's own name, unless importing that name finds something else."""
    stem = os.path.splitext(os.path.basename(path))[0]
    if not stem.isidentifier():
        return stem  # no import statement can name it, so it takes no one's place
    if stem not in sys.modules and stem not in sys.stdlib_module_names:
        found = importlib.util.find_spec(stem)
        if found is None or (found.origin is not None and os.path.abspath(found.origin) == os.path.abspath(path)):
            return stem
    return f"mcp_sdk_run_{stem}"


def _hidden_siblings(directory: str, message: str) -> str:
    """``"; queue.py next to it is not imported, ..."`` when the error names a module the folder
    has a file for that the standard library (or an installed package) provides first."""
    notes = []
    for entry in sorted(os.listdir(directory)):
        stem, extension = os.path.splitext(entry)
        named = f"'{stem}'" in message or f"'{stem}." in message
        if extension != ".py" or not stem.isidentifier() or not named:
            continue
        try:
            found = importlib.util.find_spec(stem)
        except (ImportError, ValueError):
            continue
        if found is None or found.origin is None:
            continue
        if found.has_location and os.path.dirname(os.path.abspath(found.origin)) == directory:
            continue  # the folder's own file is the one imported: nothing hides it
        owner = "the standard library's" if stem in sys.stdlib_module_names else "the installed"
        notes.append(f"; {entry} next to it is not imported, {owner} {stem} comes first: rename it")
    return "".join(notes)


__all__ = ["CONVENTIONAL_NAMES", "load_server", "split_target"]
