"""The environment a stdio server starts with: a short list of this process's variables, not all of them.

A server run over stdio is a program named by a configuration, often someone else's. Handing it
this process's whole environment would hand it every credential kept there (cloud keys, API
tokens, the SSH agent's socket). As the official Python and TypeScript SDKs do, it gets the few
variables a program needs to run (the list ``sudo`` keeps by default), plus the ``env`` it is
given; :class:`~mcp_sdk.client.Stdio` (``inherit_env=True``) and :meth:`~mcp_sdk.Client.from_config`
(``inherit_env=True``) can still pass everything on, for a server you trust with it.
"""

from __future__ import annotations

import os
import sys
import typing as t

#: This process's variables a stdio server inherits by default.
DEFAULT_INHERITED_ENV_VARS: tuple[str, ...] = (
    (
        "APPDATA",
        "HOMEDRIVE",
        "HOMEPATH",
        "LOCALAPPDATA",
        "PATH",
        "PATHEXT",
        "PROCESSOR_ARCHITECTURE",
        "SYSTEMDRIVE",
        "SYSTEMROOT",
        "TEMP",
        "USERNAME",
        "USERPROFILE",
    )
    if sys.platform == "win32"
    else ("HOME", "LOGNAME", "PATH", "SHELL", "TERM", "USER")
)


def default_environment() -> dict[str, str]:
    """The variables of :data:`DEFAULT_INHERITED_ENV_VARS` this process has.

    A value starting with ``()`` is left out: it is a shell function exported by bash, code a
    shell started by the server would run.

    :return: name -> value, for the names this process has.
    """
    inherited = {}
    for name in DEFAULT_INHERITED_ENV_VARS:
        value = os.environ.get(name)
        if value is not None and not value.startswith("()"):
            inherited[name] = value
    return inherited


def server_environment(env: t.Mapping[str, str] | None, *, inherit_env: bool = False) -> dict[str, str]:
    """The whole environment a stdio server starts with.

    :param env: variables to set, over the inherited ones.
    :param inherit_env: inherit every variable of this process, not only :func:`default_environment`.
    :return: name -> value.
    """
    inherited = dict(os.environ) if inherit_env else default_environment()
    inherited.update(env or {})
    return inherited


__all__ = ["DEFAULT_INHERITED_ENV_VARS", "default_environment", "server_environment"]
