"""A connected :class:`~mcp_sdk.Client` for a TARGET: an URL, a server file, or a command line."""

from __future__ import annotations

import os
import shlex
import sys

from ..client import Client
from ..client.stdio import Stdio
from .command_error import CLIError
from .loading import split_target

#: ``python -c RUN_COMMAND run FILE`` is ``python -m mcp_sdk run FILE`` without the current
#: directory ahead of the standard library: ``-m`` puts it first, and ``import mcp_sdk`` would then
#: import a ``secrets.py`` there instead of the standard library's.
RUN_COMMAND = "import sys; sys.path[:1] = [p for p in sys.path[:1] if p]; from mcp_sdk.cli import main; sys.exit(main())"


def client_for(target: str, timeout: float = 30.0) -> Client:
    """Connect to ``target`` (see :func:`unconnected_client_for`).

    :raises CLIError: the target cannot be reached or refuses the handshake.
    """
    client = unconnected_client_for(target, timeout)
    try:
        client.connect(client_info={"name": "mcp-sdk-cli", "version": "1"})
    except Exception:
        client.transport.close()
        raise
    return client


def unconnected_client_for(target: str, timeout: float = 30.0) -> Client:
    """A client of ``target``, not connected yet: ``http(s)://...`` over Streamable HTTP;
    ``FILE.py[:server]`` run with ``mcp-sdk run`` (:data:`RUN_COMMAND`) over stdio; anything else as
    a command line over stdio.

    :raises CLIError: no such file, or an empty target.
    """
    if target.startswith(("http://", "https://")):
        from ..client.http import HTTP

        transport: Stdio | HTTP = HTTP(url=target, timeout=timeout)
    else:
        path, _ = split_target(target)
        if path.endswith(".py") and " " not in path:
            if not os.path.isfile(path):
                raise CLIError(f"no such file: {path}")
            command, args = sys.executable, ["-c", RUN_COMMAND, "run", target]
        else:
            words = shlex.split(target)
            if not words:
                raise CLIError("the target is empty: give an URL, a server file or a command line")
            command, args = words[0], words[1:]
        # The command is the user's own, typed at their shell: it runs with their environment, as
        # it would run there.
        transport = Stdio(command=command, args=args, read_timeout=timeout, inherit_env=True)
    return Client(transport=transport, timeout=timeout)


__all__ = ["RUN_COMMAND", "client_for", "unconnected_client_for"]
