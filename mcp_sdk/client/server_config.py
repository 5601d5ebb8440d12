"""Reading an ``mcpServers`` configuration (the Claude Desktop format) into one transport per server.

.. code-block:: json

    {"mcpServers": {
        "weather": {"command": "python", "args": ["weather.py"], "env": {"API_KEY": "..."}, "cwd": "/srv"},
        "search": {"url": "https://example.com/mcp", "headers": {"Authorization": "Bearer ..."}}
    }}

An entry with ``command`` runs over :class:`~mcp_sdk.client.stdio.Stdio`, with its ``env`` and only
a few of this process's variables (``HOME``, ``PATH``...: see :mod:`~mcp_sdk.client.stdio_environment`),
so a configured server reads no credential it was not given; one with ``url`` over
:class:`~mcp_sdk.client.http.HTTP` (Streamable HTTP). ``transport`` (or ``type``), when present,
must agree: ``"stdio"``, or ``"http"`` / ``"streamable-http"`` / ``"streamableHttp"``. Other keys
(``disabled``, ``alwaysAllow``, ...: other clients' settings) are ignored.
"""

from __future__ import annotations

import json
import os
import re
import typing as t

from .exceptions import ConfigError
from .stdio import Stdio
from .transport import Transport

#: ``transport`` / ``type`` values that mean Streamable HTTP (compared without ``-`` and ``_``).
HTTP_TRANSPORTS = frozenset({"http", "streamablehttp"})
#: What a server's name may hold: it becomes a tool-name prefix and a URI path segment.
SERVER_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")

Config = t.Union[t.Mapping[str, t.Any], str, "os.PathLike[str]"]


def load(config: Config) -> dict[str, dict[str, t.Any]]:
    """The ``mcpServers`` entries of ``config`` (a mapping, or the path of a JSON file), by server name.

    :raises ConfigError: the file is not JSON, there is no ``mcpServers`` object, it is empty,
        or a name or entry is not usable.
    """
    if isinstance(config, (str, os.PathLike)):
        path = os.fspath(config)
        try:
            with open(path, encoding="utf-8") as file:
                config = json.load(file)
        except (OSError, ValueError) as error:
            raise ConfigError(f"cannot read the MCP configuration {path!r}: {error}") from error
    if not isinstance(config, t.Mapping) or not isinstance(config.get("mcpServers"), t.Mapping):
        raise ConfigError('an MCP configuration needs an "mcpServers" object')
    servers = config["mcpServers"]
    if not servers:
        raise ConfigError('"mcpServers" names no server')
    entries: dict[str, dict[str, t.Any]] = {}
    for name, entry in servers.items():
        if not isinstance(name, str) or not SERVER_NAME.fullmatch(name):
            raise ConfigError(
                f"server name {name!r}: use letters, digits, '.', '-' and '_'"
                " (it prefixes tool names and goes in resource URIs)"
            )
        if not isinstance(entry, t.Mapping):
            raise ConfigError(f"server {name!r}: the entry must be an object")
        entries[name] = dict(entry)
    return entries


def transports_for(config: Config, *, timeout: float | None = None, inherit_env: bool = False) -> dict[str, Transport]:
    """One transport per server of ``config`` (see :func:`load`), by server name; nothing is started yet.

    :param timeout: seconds to wait for each response (None: each transport's default).
    :param inherit_env: stdio servers inherit every variable of this process (see :func:`transport_for`).
    :raises ConfigError: the configuration, or one of its entries, is malformed.
    """
    return {name: transport_for(name, entry, timeout=timeout, inherit_env=inherit_env) for name, entry in load(config).items()}


def transport_for(name: str, entry: t.Mapping[str, t.Any], *, timeout: float | None = None,
                  inherit_env: bool = False) -> Transport:
    """The transport an entry describes (nothing is started or connected yet).

    :param name: the server's name, for messages.
    :param timeout: seconds to wait for each response (None: each transport's default).
    :param inherit_env: a stdio server inherits every variable of this process, not only the few
        of :data:`~mcp_sdk.client.stdio_environment.DEFAULT_INHERITED_ENV_VARS` (its ``env`` is
        added either way).
    :raises ConfigError: neither ``command`` nor ``url``, both, a wrong type, or an unknown ``transport``.
    """
    kind = entry.get("transport", entry.get("type"))
    if kind is not None and not isinstance(kind, str):
        raise ConfigError(f"server {name!r}: transport must be a string")
    kind = kind.lower() if kind is not None else None
    if "command" in entry and "url" in entry:
        raise ConfigError(f"server {name!r}: give either command (stdio) or url (HTTP), not both")
    if "command" in entry:
        if kind not in (None, "stdio"):
            raise ConfigError(f"server {name!r}: command runs over stdio, not {kind!r}")
        return Stdio(
            command=_string(name, entry, "command"),
            args=_strings(name, entry, "args"),
            env=_string_map(name, entry, "env"),
            cwd=entry.get("cwd") and _string(name, entry, "cwd"),
            read_timeout=timeout,
            inherit_env=inherit_env,
        )
    if "url" in entry:
        if kind == "sse":
            raise ConfigError(f"server {name!r}: the HTTP+SSE transport of MCP 2024-11-05 is not supported; use Streamable HTTP")
        if kind is not None and kind.replace("-", "").replace("_", "") not in HTTP_TRANSPORTS:
            raise ConfigError(f"server {name!r}: unknown transport {kind!r} for a url")
        from .http import HTTP  # requests loads only for HTTP servers

        http_options: dict[str, t.Any] = {} if timeout is None else {"timeout": timeout}
        return HTTP(url=_string(name, entry, "url"), headers=_string_map(name, entry, "headers"), **http_options)
    raise ConfigError(f"server {name!r}: give command (stdio) or url (HTTP)")


def _string(name: str, entry: t.Mapping[str, t.Any], key: str) -> str:
    value = entry[key]
    if not isinstance(value, str) or not value:
        raise ConfigError(f"server {name!r}: {key} must be a non-empty string")
    return value


def _strings(name: str, entry: t.Mapping[str, t.Any], key: str) -> list[str]:
    value = entry.get(key, [])
    if not isinstance(value, list) or not all(isinstance(item, str) for item in value):
        raise ConfigError(f"server {name!r}: {key} must be a list of strings")
    return value


def _string_map(name: str, entry: t.Mapping[str, t.Any], key: str) -> dict[str, str] | None:
    value = entry.get(key)
    if value is None:
        return None
    if not isinstance(value, t.Mapping) or not all(isinstance(k, str) and isinstance(v, str) for k, v in value.items()):
        raise ConfigError(f"server {name!r}: {key} must map strings to strings")
    return dict(value)
