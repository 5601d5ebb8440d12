"""Several MCP servers behind one client: :class:`MultiServerClient`, usually made by :meth:`Client.from_config`.

.. code-block:: python

    from mcp_sdk import Client

    with Client.from_config("mcp.json") as servers:      # {"mcpServers": {"weather": {...}, "search": {...}}}
        servers.connect()                                  # in parallel; a server that is down is left out
        servers.failures                                   # {"search": TransportError(...)}
        servers.tools()                                    # [Tool(name="weather_get_alerts"), ...]
        servers.call_tool("weather_get_alerts", {"state": "CA"})

Names follow FastMCP's multi-server client: tools and prompts become ``<server>_<name>``,
resources and templates ``scheme://<server>/path`` (``weather://alerts/CA`` from server
``weather`` is ``weather://weather/alerts/CA``). Unlike FastMCP, a configuration of one server is
prefixed too, so names do not change when a second one is added.

Each server keeps its own :class:`~mcp_sdk.Client` (:attr:`MultiServerClient.clients`), so each
negotiates its own era (2025 sessions or 2026-07-28) and keeps its own handlers and cache.
"""

from __future__ import annotations

import logging
import threading
import time
import typing as t

from ..cancellation import Cancellation
from ..errors import MCPError, RequestTimeoutError, TransportError
from .errors import ConfigError, ServerError, ServerUnavailableError, UnknownServerError
from .tool import Tool

logger = logging.getLogger("mcp_sdk.client.multi")

_T = t.TypeVar("_T")

#: JSON-RPC "method not found": a server without prompts (or resources) may answer their list so.
_METHOD_NOT_FOUND = -32601


class ServerClient(t.Protocol):
    """What :class:`MultiServerClient` asks of the client of each server (a :class:`~mcp_sdk.Client`)."""

    @property
    def server_capabilities(self) -> dict[str, t.Any] | None: ...

    def connect(self, client_info: dict[str, t.Any] | None = None, protocol_version: str | None = None,
                capabilities: dict[str, t.Any] | None = None, *, mode: str = "auto", timeout: float | None = None,
                probe_timeout: float | None = 10.0) -> dict[str, t.Any]: ...

    def tools(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[Tool]: ...

    def prompts(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]: ...

    def resources(self, *, cancellation: Cancellation | None = None, timeout: float | None = None) -> list[dict[str, t.Any]]: ...

    def resource_templates(self, *, cancellation: Cancellation | None = None,
                           timeout: float | None = None) -> list[dict[str, t.Any]]: ...

    def call_tool(self, name: str | None = None, arguments: dict[str, t.Any] | None = None, *, tool: Tool | None = None,
                  progress_token: str | int | None = None, meta: dict[str, t.Any] | None = None,
                  cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]: ...

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]: ...

    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
                      timeout: float | None = None) -> list[dict[str, t.Any]]: ...

    def close(self) -> None: ...


_C = t.TypeVar("_C", bound=ServerClient)


class MultiServerClient(t.Generic[_C]):
    """One client for several MCP servers, each reached through its own client, named by the configuration.

    Thread-safe. A server that cannot be reached (its command does not exist, its process
    crashes, its URL refuses connections, it does not answer within ``connect_timeout``) is left
    out: its tools, prompts and resources are absent, :attr:`failures` says why (and the
    ``mcp_sdk.client.multi`` logger warns), and using one of its names raises
    :class:`~mcp_sdk.client.errors.ServerUnavailableError`. A server whose transport fails later
    is taken out the same way.

    :param clients: server name -> its client (not yet connected); names must not contain ``/``.
    :param connect_timeout: seconds :meth:`connect` waits for all the servers together.
    :param mode: the ``mode`` each client connects with (``"auto"``, ``"modern"``, ``"legacy"``).
    :raises ConfigError: no client, or a name that is empty or holds ``/``.
    """

    def __init__(self, clients: t.Mapping[str, _C], *, connect_timeout: float = 30.0, mode: str = "auto") -> None:
        if not clients:
            raise ConfigError("MultiServerClient needs at least one server")
        for name in clients:
            if not name or "/" in name:
                raise ConfigError(f"server name {name!r} cannot be a prefix")
        #: Server name -> its own client (for what this class does not forward: handlers, ``listen``, tasks...).
        self.clients: dict[str, _C] = dict(clients)
        self.connect_timeout = connect_timeout
        self.mode = mode
        self._lock = threading.Lock()
        self._failures: dict[str, Exception] = {}
        self._connected: set[str] = set()
        # Longest names first, so "a_b_tool" goes to server "a_b" before "a".
        self._by_length = sorted(self.clients, key=len, reverse=True)

    # -- lifecycle -----------------------------------------------------------

    def connect(self) -> dict[str, Exception]:
        """Connect every server, in parallel, waiting at most :attr:`connect_timeout` seconds in all.

        A server already connected, or already failed, is left as it is (a failed server's transport
        is spent: build a new client to try it again), so calling this again does nothing more.

        :return: :attr:`failures`, the servers that could not be reached (empty when all could).
        """
        with self._lock:
            pending = {name: client for name, client in self.clients.items()
                       if name not in self._connected and name not in self._failures}
        outcomes: dict[str, Exception | None] = {}
        settled = threading.Lock()

        def run(name: str, client: ServerClient) -> None:
            try:
                client.connect(mode=self.mode, timeout=self.connect_timeout,
                               probe_timeout=min(10.0, self.connect_timeout))
                outcome: Exception | None = None
            except Exception as error:  # noqa: BLE001 - isolation: any failure takes out this server only
                outcome = error
            with settled:
                outcomes.setdefault(name, outcome)

        threads = [
            threading.Thread(target=run, args=(name, client), name=f"mcp-multi-connect-{name}", daemon=True)
            for name, client in pending.items()
        ]
        for thread in threads:
            thread.start()
        deadline = time.monotonic() + self.connect_timeout
        for thread in threads:
            thread.join(max(0.0, deadline - time.monotonic()))
        late: list[str] = []
        with settled:
            for name in pending:
                if name not in outcomes:
                    outcomes[name] = RequestTimeoutError(f"no connection within {self.connect_timeout} s")
                    late.append(name)
        for name in late:
            self._close_quietly(name)  # ends its transport, so its thread's connect fails and the thread ends
        for name in pending:  # configuration order, whatever order they finished in
            outcome = outcomes[name]
            if outcome is None:
                with self._lock:
                    self._connected.add(name)
            else:
                self._fail(name, outcome)
        return self.failures

    @property
    def failures(self) -> dict[str, Exception]:
        """Server name -> the error that took it out (connecting, or a transport failure since)."""
        with self._lock:
            return dict(self._failures)

    @property
    def connected(self) -> list[str]:
        """The servers connected and not failed since, in configuration order."""
        with self._lock:
            return [name for name in self.clients if name in self._connected]

    def close(self) -> None:
        """Close every server's client (ends stdio processes and HTTP sessions); idempotent."""
        with self._lock:
            self._connected.clear()
        for name in self.clients:
            self._close_quietly(name)

    def __enter__(self) -> MultiServerClient[_C]:
        return self

    def __exit__(self, *exc_info: t.Any) -> None:
        self.close()

    # -- lists ---------------------------------------------------------------

    def tools(self, *, timeout: float | None = None) -> list[Tool]:
        """Every tool of every connected server, named ``<server>_<tool>``, in configuration order.

        :param timeout: seconds to wait for each server's answer (default: each client's).
        """
        found: list[Tool] = []
        for server, tools in self._each("tools", None, lambda client: client.tools(timeout=timeout)):
            for tool in tools:
                entry = tool.to_dict()
                entry["name"] = f"{server}_{tool.name}"
                found.append(Tool.from_dict(entry))
        return found

    def prompts(self, *, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every prompt of every connected server, named ``<server>_<prompt>``.

        :param timeout: seconds to wait for each server's answer (default: each client's).
        """
        return [
            {**prompt, "name": f"{server}_{prompt.get('name')}"}
            for server, prompts in self._each("prompts", "prompts", lambda client: client.prompts(timeout=timeout))
            for prompt in prompts
        ]

    def resources(self, *, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every resource of every connected server, its ``uri`` as ``scheme://<server>/path``.

        :param timeout: seconds to wait for each server's answer (default: each client's).
        """
        return self._prefixed_uris("resources", "uri", lambda client: client.resources(timeout=timeout))

    def resource_templates(self, *, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every resource template of every connected server, its ``uriTemplate`` as ``scheme://<server>/path``.

        :param timeout: seconds to wait for each server's answer (default: each client's).
        """
        return self._prefixed_uris("resource templates", "uriTemplate", lambda client: client.resource_templates(timeout=timeout))

    # -- calls ---------------------------------------------------------------

    def call_tool(
        self,
        name: str | None = None,
        arguments: dict[str, t.Any] | None = None,
        *,
        tool: Tool | None = None,
        progress_token: str | int | None = None,
        meta: dict[str, t.Any] | None = None,
        cancellation: Cancellation | None = None,
        timeout: float | None = None,
    ) -> dict[str, t.Any]:
        """Call ``<server>_<tool>`` on its server (as ``<tool>``); returns the full JSON-RPC response.

        :raises TypeError: neither ``name`` nor ``tool`` was given.
        :raises UnknownServerError: the name has no configured server's prefix.
        :raises ServerUnavailableError: that server failed (now, or before).
        :raises ServerError: the server answered with a JSON-RPC error.
        :param name: the prefixed name, ``<server>_<tool>``.
        :param arguments: the tool's arguments.
        :param tool: a :class:`~mcp_sdk.client.Tool` from :meth:`tools`, instead of ``name``.
        :param progress_token: asks the server for ``notifications/progress`` under this token.
        :param meta: extra ``_meta`` entries for the request.
        :param cancellation: a :class:`~mcp_sdk.Cancellation`; cancelling it cancels the call.
        :param timeout: seconds to wait for the answer (default: the client's).
        """
        prefixed = tool.name if tool is not None else name
        if not prefixed:
            raise TypeError("call_tool() needs name= or tool=")
        server, inner = self._route_name(prefixed)
        return self._call(server, lambda client: client.call_tool(
            inner, arguments, progress_token=progress_token, meta=meta, cancellation=cancellation, timeout=timeout))

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Get ``<server>_<prompt>`` from its server; returns the result (``messages``, ``description``).

        :raises UnknownServerError: the name has no configured server's prefix.
        :raises ServerUnavailableError: that server failed.
        :param name: the prefixed name, ``<server>_<prompt>``.
        :param arguments: the prompt's arguments (strings).
        :param meta: extra ``_meta`` entries for the request.
        :param cancellation: a :class:`~mcp_sdk.Cancellation`; cancelling it cancels the call.
        :param timeout: seconds to wait for the answer (default: the client's).
        """
        server, inner = self._route_name(name)
        return self._call(server, lambda client: client.get_prompt(
            inner, arguments, meta=meta, cancellation=cancellation, timeout=timeout))

    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
                      timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Read ``scheme://<server>/path`` from its server (as ``scheme://path``); returns its ``contents``,
        their ``uri`` prefixed as in :meth:`resources`.

        :raises UnknownServerError: the URI has no configured server's segment.
        :raises ServerUnavailableError: that server failed.
        :param uri: the URI with the server's segment, ``scheme://<server>/path``.
        :param meta: extra ``_meta`` entries for the request.
        :param cancellation: a :class:`~mcp_sdk.Cancellation`; cancelling it cancels the call.
        :param timeout: seconds to wait for the answer (default: the client's).
        """
        parts = split_uri(uri)
        if parts is None or parts[1] not in self.clients:
            raise UnknownServerError(f"{uri!r} names none of the servers {', '.join(self.clients)} (scheme://<server>/path)")
        server, inner = parts[1], parts[0]
        contents = self._call(server, lambda client: client.read_resource(
            inner, meta=meta, cancellation=cancellation, timeout=timeout))
        return [_with_prefixed_uri(content, "uri", server) for content in contents]

    # -- plumbing ------------------------------------------------------------

    def _route_name(self, name: str) -> tuple[str, str]:
        for server in self._by_length:
            if name.startswith(f"{server}_") and len(name) > len(server) + 1:
                return server, name[len(server) + 1:]
        raise UnknownServerError(f"{name!r} names none of the servers {', '.join(self.clients)} (<server>_<name>)")

    def _usable(self, server: str) -> ServerClient:
        with self._lock:
            failure = self._failures.get(server)
            connected = server in self._connected
        if failure is not None:
            raise ServerUnavailableError(server, failure) from failure
        if not connected:
            raise ServerUnavailableError(server, None)
        return self.clients[server]

    def _call(self, server: str, call: t.Callable[[ServerClient], _T]) -> _T:
        client = self._usable(server)
        try:
            return call(client)
        except TransportError as error:
            self._fail(server, error)
            raise ServerUnavailableError(server, error) from error

    def _each(self, what: str, capability: str | None, fetch: t.Callable[[ServerClient], _T]) -> list[tuple[str, _T]]:
        """``fetch`` on each connected server (that declares ``capability``), leaving out the ones that fail."""
        results: list[tuple[str, _T]] = []
        for server in self.connected:
            client = self.clients[server]
            if capability is not None and capability not in (client.server_capabilities or {}):
                continue
            try:
                results.append((server, fetch(client)))
            except TransportError as error:
                self._fail(server, error)
            except ServerError as error:
                if error.code != _METHOD_NOT_FOUND:
                    logger.warning("MCP server %r: listing its %s failed, left out: %s", server, what, error)
            except MCPError as error:
                logger.warning("MCP server %r: listing its %s failed, left out: %s", server, what, error)
        return results

    def _prefixed_uris(self, what: str, key: str, fetch: t.Callable[[ServerClient], list[dict[str, t.Any]]]) -> list[dict[str, t.Any]]:
        found = []
        for server, entries in self._each(what, "resources", fetch):
            for entry in entries:
                if isinstance(entry.get(key), str) and prefix_uri(entry[key], server) is not None:
                    found.append(_with_prefixed_uri(entry, key, server))
                else:
                    logger.warning("MCP server %r: %s %r is not a URI, left out", server, key, entry.get(key))
        return found

    def _fail(self, server: str, error: Exception) -> None:
        with self._lock:
            self._connected.discard(server)
            self._failures[server] = error
        logger.warning("MCP server %r is unavailable, its tools, prompts and resources left out: %s", server, error)

    def _close_quietly(self, server: str) -> None:
        try:
            self.clients[server].close()
        except Exception as error:  # noqa: BLE001 - closing one server must not stop closing the others
            logger.warning("MCP server %r: closing failed: %s", server, error)

    def __repr__(self) -> str:
        return f"<MultiServerClient servers={list(self.clients)!r} failures={list(self.failures)!r}>"


def prefix_uri(uri: str, server: str) -> str | None:
    """``scheme://path`` -> ``scheme://<server>/path`` (FastMCP's rule; ``scheme:path`` -> ``scheme:<server>/path``);
    None for a string without a scheme."""
    scheme, colon, rest = uri.partition(":")
    if not colon or not scheme:
        return None
    slashes = "//" if rest.startswith("//") else ""
    return f"{scheme}:{slashes}{server}/{rest[len(slashes):]}"


def split_uri(uri: str) -> tuple[str, str] | None:
    """The inverse of :func:`prefix_uri`: ``(original URI, server)``, or None when ``uri`` has no server segment."""
    scheme, colon, rest = uri.partition(":")
    if not colon or not scheme:
        return None
    slashes = "//" if rest.startswith("//") else ""
    server, slash, path = rest[len(slashes):].partition("/")
    if not slash or not server:
        return None
    return f"{scheme}:{slashes}{path}", server


def _with_prefixed_uri(entry: dict[str, t.Any], key: str, server: str) -> dict[str, t.Any]:
    value = entry.get(key)
    prefixed = prefix_uri(value, server) if isinstance(value, str) else None
    return {**entry, key: prefixed} if prefixed is not None else entry
