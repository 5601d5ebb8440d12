"""Errors the client raises (also reachable as ``Client.ServerError`` and ``Client.ValidationError``).

Transport failures raise :class:`mcp_sdk.TransportError` (and its subclass
:class:`mcp_sdk.SessionExpiredError`), waits that run out raise
:class:`mcp_sdk.RequestTimeoutError`, and cancelled calls
:class:`mcp_sdk.CancelledError`; everything is an :class:`mcp_sdk.MCPError`.
"""

from __future__ import annotations

import typing as t

from .. import errors


class ServerError(errors.JSONRPCError):
    """The server answered a request with a JSON-RPC error.

    :param message: the error's ``message``.
    :param code: the error's ``code`` (e.g. ``-32601``).
    :param data: the error's optional ``data``.
    """

    def __init__(self, message: str, code: int, data: t.Any = None) -> None:
        super().__init__(message, code, data)

    def __str__(self) -> str:
        return f"{self.message} (code {self.code})"


class ServerBusyError(ServerError):
    """The server refused a request for now: HTTP 429 (this client holds too much) or 503 (the
    server is full), usually with ``Retry-After``. Not sent again by the client on its own, but
    a :class:`~mcp_sdk.client.listen.Subscription` waits ``retry_after`` and listens again.

    :param message: the error's ``message`` (from the JSON-RPC body, else the HTTP status line).
    :param code: the JSON-RPC error code of the body (``-32600`` without one).
    :param status: the HTTP status (429 or 503).
    :param retry_after: the seconds ``Retry-After`` asks for (None: no usable header).
    :param data: the error's ``data`` (from the JSON-RPC body), if any.
    """

    def __init__(self, message: str, code: int, data: t.Any = None, *, status: int, retry_after: float | None) -> None:
        super().__init__(message, code, data)
        self.status = status
        self.retry_after = retry_after


def retry_after_seconds(value: str | None) -> float | None:
    """The seconds of a ``Retry-After`` header given in seconds (an HTTP date, or garbage: None)."""
    try:
        seconds = float(value) if value is not None else None
    except ValueError:
        return None
    return seconds if seconds is not None and 0 <= seconds < 86400 else None


class ValidationError(errors.ValidationError):
    """A response does not have the shape the protocol requires.

    Examples: a success response without an object ``result``, a body that is
    not JSON, or (when enabled) ``structuredContent`` that does not match the
    tool's output schema.
    """


class InputRequiredError(errors.MCPError):
    """A 2026-07-28 server asked for input this client cannot give.

    Raised when an ``input_required`` result asks for something no registered
    handler answers (``on_sampling``, ``on_elicitation``, ``on_roots``), or
    when the server keeps asking past ``Client(max_input_rounds=...)``.

    :param message: what was asked, and why it went unanswered.
    :param method: the method of the input request (e.g. ``"elicitation/create"``), if one.
    """

    def __init__(self, message: str, method: str | None = None) -> None:
        super().__init__(message)
        self.method = method


class ConfigError(errors.MCPError, ValueError):
    """An ``mcpServers`` configuration (:meth:`Client.from_config`) is malformed: not a mapping,
    an entry with neither ``command`` nor ``url``, a transport this SDK does not speak...

    Its message says what is wrong, naming the server entry.
    """


class UnknownServerError(errors.MCPError, LookupError):
    """A :class:`~mcp_sdk.client.multi.MultiServerClient` was given a tool or prompt name
    without a configured server's prefix (``<server>_<name>``), or a resource URI without a
    server segment (``scheme://<server>/path``).

    Its message gives the name or URI, and the servers configured.
    """


class NameCollisionError(UnknownServerError):
    """Two servers of a :class:`~mcp_sdk.client.multi.MultiServerClient` list the same prefixed
    name: server ``a`` lists tool ``b_delete_everything`` and server ``a_b`` lists tool
    ``delete_everything``, both ``a_b_delete_everything``. The name is refused: left out of the
    listing, and calls to it raise this error, so neither server gets a call meant for the other.
    Renaming one of the servers in the configuration ends it.

    :param name: the prefixed name.
    :param kind: what it names (``"tool"``, ``"prompt"``).
    :param listed_by: ``(server, the server's own name)`` for each server that lists it.
    """

    def __init__(self, name: str, kind: str, listed_by: t.Sequence[tuple[str, str]]) -> None:
        claims = " and ".join(f"server {server!r} lists {kind} {own!r}" for server, own in listed_by)
        super().__init__(f"{name!r} is refused: {claims}; rename one of the servers in the configuration")
        self.name = name
        #: The servers that list it, in configuration order.
        self.servers = [server for server, _ in listed_by]
        #: ``(server, its own name)`` for each of them.
        self.listed_by = tuple(listed_by)


class ServerUnavailableError(errors.TransportError):
    """A :class:`~mcp_sdk.client.multi.MultiServerClient` cannot reach one of its servers: it
    failed to connect (command not found, process crashed, connection refused, no answer in
    time) or its transport failed later. The other servers are unaffected.

    :param server: the server's name in the configuration.
    :param cause: the error that took the server out (also ``__cause__`` where raised from it).
    """

    def __init__(self, server: str, cause: BaseException | None) -> None:
        detail = f": {cause}" if cause is not None else ""
        super().__init__(f"MCP server {server!r} is unavailable{detail}")
        self.server = server
        self.cause = cause
