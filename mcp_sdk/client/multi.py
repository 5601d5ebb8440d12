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
prefixed too, so names do not change when a second one is added. A call goes where the listings
say, never where a prefix guesses (see :mod:`~mcp_sdk.client.multi_names`): a name two servers
both list is refused.

Listings ask every server at once and wait at most :attr:`MultiServerClient.list_timeout`; a server
that does not answer in time is left out and sits out the next listings for a while (see
:mod:`~mcp_sdk.client.multi_backoff`), so a silent server does not slow the others.

Each server keeps its own :class:`~mcp_sdk.Client` (:attr:`MultiServerClient.clients`), so each
negotiates its own era (2025 sessions or 2026-07-28) and keeps its own handlers and cache.
"""

from __future__ import annotations

import logging
import threading
import typing as t

from ..cancellation import Cancellation
from ..errors import RequestTimeoutError, TransportError
from .exceptions import ConfigError, NameCollisionError, ServerError, ServerUnavailableError, UnknownServerError
from .multi_backoff import Backoff
from .multi_names import NameRoutes, Target, claimants, prefixed
from .multi_parallel import gather
from .tool import Tool

logger = logging.getLogger("mcp_sdk.client.multi")

_T = t.TypeVar("_T")
_E = t.TypeVar("_E")

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
#: A listing of one server: ``fetch(client, cancellation, timeout)``.
_Fetch = t.Callable[[ServerClient, Cancellation, float], _T]


def _job(fetch: _Fetch[_T], client: ServerClient, seconds: float) -> t.Callable[[Cancellation], _T]:
    return lambda cancellation: fetch(client, cancellation, seconds)


class MultiServerClient(t.Generic[_C]):
    """One client for several MCP servers, each reached through its own client, named by the configuration.

    Thread-safe. A server that cannot be reached (its command does not exist, its process
    crashes, its URL refuses connections, it does not answer within ``connect_timeout``) is left
    out: its tools, prompts and resources are absent, :attr:`failures` says why (and the
    ``mcp_sdk.client.multi`` logger warns), and using one of its names raises
    :class:`~mcp_sdk.client.exceptions.ServerUnavailableError`. A server whose transport fails later
    is taken out the same way.

    Listings (:meth:`tools`, :meth:`prompts`...) ask the servers in parallel and wait at most
    :attr:`list_timeout` seconds. A server that has not answered by then is left out, and sits out
    (unless the listing's own ``timeout=`` was shorter: one caller's haste does not put a server out
    for the others)
    (:attr:`sitting_out`): the next listings skip it and calls to it raise
    :class:`~mcp_sdk.client.exceptions.ServerUnavailableError` at once, for ``backoff`` seconds, then
    twice as long each time it is silent again (at most ``max_backoff``); a listing it answers in
    time brings it back.

    :param clients: server name -> its client (not yet connected); names must not contain ``/``.
    :param connect_timeout: seconds :meth:`connect` waits for all the servers together.
    :param mode: the ``mode`` each client connects with (``"auto"``, ``"modern"``, ``"legacy"``).
    :param list_timeout: seconds a listing waits for all the servers together (:attr:`list_timeout`).
    :param backoff: seconds a server sits out after its first listing that ran out of time.
    :param max_backoff: the longest a server sits out.
    :raises ConfigError: no client, or a name that is empty or holds ``/``.
    :raises ValueError: ``backoff`` is negative or over ``max_backoff``.
    """

    def __init__(self, clients: t.Mapping[str, _C], *, connect_timeout: float = 30.0, mode: str = "auto",
                 list_timeout: float = 10.0, backoff: float = 5.0, max_backoff: float = 300.0) -> None:
        if not clients:
            raise ConfigError("MultiServerClient needs at least one server")
        for name in clients:
            if not name or "/" in name:
                raise ConfigError(f"server name {name!r} cannot be a prefix")
        #: Server name -> its own client (for what this class does not forward: handlers, ``listen``, tasks...).
        self.clients: dict[str, _C] = dict(clients)
        self.connect_timeout = connect_timeout
        self.mode = mode
        #: Seconds a listing waits for all the servers together (each listing's ``timeout=`` overrides it).
        self.list_timeout = list_timeout
        self._lock = threading.Lock()
        self._failures: dict[str, Exception] = {}
        self._connected: set[str] = set()
        self._backoff = Backoff(backoff, max_backoff)
        self._tool_names = NameRoutes("tool", list(self.clients))
        self._prompt_names = NameRoutes("prompt", list(self.clients))

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

        def job(client: ServerClient) -> t.Callable[[Cancellation], object]:
            return lambda cancellation: client.connect(mode=self.mode, timeout=self.connect_timeout,
                                                       probe_timeout=min(10.0, self.connect_timeout))

        gathered = gather({name: job(client) for name, client in pending.items()}, self.connect_timeout, "connect")
        for name in gathered.late:
            self._close_quietly(name)  # ends its transport, so its thread's connect fails and the thread ends
        for name in pending:  # configuration order, whatever order they finished in
            if name in gathered.values:
                with self._lock:
                    self._connected.add(name)
            else:
                late = RequestTimeoutError(f"no connection within {self.connect_timeout} s")
                self._fail(name, gathered.errors[name] if name in gathered.errors else late)
        return self.failures

    @property
    def failures(self) -> dict[str, Exception]:
        """Server name -> the error that took it out (connecting, or a transport failure since)."""
        with self._lock:
            return dict(self._failures)

    @property
    def sitting_out(self) -> dict[str, Exception]:
        """Server name -> the timeout that keeps it out of listings and calls for now (see the class)."""
        return {server: error for server, (error, _) in self._backoff.sitting().items()}

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

        A name two servers both list is left out (see :class:`~mcp_sdk.client.exceptions.NameCollisionError`).

        :param timeout: seconds to wait for all the servers' answers (default: :attr:`list_timeout`).
        """
        return [Tool.from_dict({**tool.to_dict(), "name": name}) for tool, name in self._list_tools(timeout, self.clients)]

    def prompts(self, *, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every prompt of every connected server, named ``<server>_<prompt>``.

        A name two servers both list is left out (see :class:`~mcp_sdk.client.exceptions.NameCollisionError`).

        :param timeout: seconds to wait for all the servers' answers (default: :attr:`list_timeout`).
        """
        return [{**prompt, "name": name} for prompt, name in self._list_prompts(timeout, self.clients)]

    def resources(self, *, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every resource of every connected server, its ``uri`` as ``scheme://<server>/path``.

        :param timeout: seconds to wait for all the servers' answers (default: :attr:`list_timeout`).
        """
        return self._prefixed_uris("resources", "uri", lambda client, cancellation, seconds: client.resources(
            cancellation=cancellation, timeout=seconds), timeout)

    def resource_templates(self, *, timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Every resource template of every connected server, its ``uriTemplate`` as ``scheme://<server>/path``.

        :param timeout: seconds to wait for all the servers' answers (default: :attr:`list_timeout`).
        """
        return self._prefixed_uris("resource templates", "uriTemplate", lambda client, cancellation, seconds: client.resource_templates(
            cancellation=cancellation, timeout=seconds), timeout)

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

        The server is the one whose listing gave the name; a name no listing gave yet has the servers
        whose prefix it carries listed again first.

        :raises TypeError: neither ``name`` nor ``tool`` was given.
        :raises UnknownServerError: no server lists that tool.
        :raises NameCollisionError: two servers list that name (an :class:`UnknownServerError`).
        :raises ServerUnavailableError: that server failed (now, or before), or sits out.
        :raises ServerError: the server answered with a JSON-RPC error.
        :param name: the prefixed name, ``<server>_<tool>``.
        :param arguments: the tool's arguments.
        :param tool: a :class:`~mcp_sdk.client.Tool` from :meth:`tools`, instead of ``name``.
        :param progress_token: asks the server for ``notifications/progress`` under this token.
        :param meta: extra ``_meta`` entries for the request.
        :param cancellation: a :class:`~mcp_sdk.Cancellation`; cancelling it cancels the call.
        :param timeout: seconds to wait for the answer (default: the client's).
        """
        full_name = tool.name if tool is not None else name
        if not full_name:
            raise TypeError("call_tool() needs name= or tool=")
        server, inner = self._route(self._tool_names, full_name, lambda servers: self._list_tools(None, servers))
        return self._call(server, lambda client: client.call_tool(
            inner, arguments, progress_token=progress_token, meta=meta, cancellation=cancellation, timeout=timeout))

    def get_prompt(self, name: str, arguments: dict[str, str] | None = None, *, meta: dict[str, t.Any] | None = None,
                   cancellation: Cancellation | None = None, timeout: float | None = None) -> dict[str, t.Any]:
        """Get ``<server>_<prompt>`` from its server; returns the result (``messages``, ``description``).

        Routed as :meth:`call_tool` routes a tool's name.

        :raises UnknownServerError: no server lists that prompt.
        :raises NameCollisionError: two servers list that name (an :class:`UnknownServerError`).
        :raises ServerUnavailableError: that server failed, or sits out.
        :param name: the prefixed name, ``<server>_<prompt>``.
        :param arguments: the prompt's arguments (strings).
        :param meta: extra ``_meta`` entries for the request.
        :param cancellation: a :class:`~mcp_sdk.Cancellation`; cancelling it cancels the call.
        :param timeout: seconds to wait for the answer (default: the client's).
        """
        server, inner = self._route(self._prompt_names, name, lambda servers: self._list_prompts(None, servers))
        return self._call(server, lambda client: client.get_prompt(
            inner, arguments, meta=meta, cancellation=cancellation, timeout=timeout))

    def read_resource(self, uri: str, *, meta: dict[str, t.Any] | None = None, cancellation: Cancellation | None = None,
                      timeout: float | None = None) -> list[dict[str, t.Any]]:
        """Read ``scheme://<server>/path`` from its server (as ``scheme://path``); returns its ``contents``,
        their ``uri`` prefixed as in :meth:`resources`.

        :raises UnknownServerError: the URI has no configured server's segment.
        :raises ServerUnavailableError: that server failed, or sits out.
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

    def _route(self, routes: NameRoutes, name: str, relist: t.Callable[[list[str]], object]) -> Target:
        """Where the listings send ``name``; a name none gave yet has the servers that could list it
        (by their prefix) listed again, as it may be new (or nothing was listed yet)."""
        target = routes.route(name)
        candidates = claimants(name, self.clients)
        if target is None and routes.collision(name) is None and candidates:
            relist(candidates)
            target = routes.route(name)
        if target is not None:
            return target
        collision = routes.collision(name)
        if collision is not None:
            raise NameCollisionError(name, routes.kind, collision)
        for server in candidates:
            self._usable(server)  # a server that is out may list it: say so rather than "unknown"
        if not candidates:
            raise UnknownServerError(f"{name!r} names none of the servers {', '.join(self.clients)} (<server>_<name>)")
        raise UnknownServerError(f"{name!r} is no {routes.kind} listed by server {' or '.join(map(repr, candidates))}")

    def _list_tools(self, timeout: float | None, servers: t.Iterable[str]) -> list[tuple[Tool, str]]:
        return self._named(self._tool_names, "tools", None, lambda client, cancellation, seconds: client.tools(
            cancellation=cancellation, timeout=seconds), lambda tool: tool.name, timeout, servers)

    def _list_prompts(self, timeout: float | None, servers: t.Iterable[str]) -> list[tuple[dict[str, t.Any], str]]:
        return self._named(self._prompt_names, "prompts", "prompts", lambda client, cancellation, seconds: client.prompts(
            cancellation=cancellation, timeout=seconds), lambda prompt: prompt.get("name"), timeout, servers)

    def _named(self, routes: NameRoutes, what: str, capability: str | None, fetch: _Fetch[list[_E]],
               name_of: t.Callable[[_E], object], timeout: float | None, servers: t.Iterable[str]) -> list[tuple[_E, str]]:
        """List ``servers``, record who listed which name in ``routes``, and return each entry with
        its prefixed name, leaving out the names two servers list."""
        covering = list(servers)
        names: dict[str, list[str]] = {}
        entries: list[tuple[_E, str]] = []
        for server, listed in self._list(what, capability, fetch, timeout, covering).items():
            names[server] = []
            for entry in listed:
                own = name_of(entry)
                if not isinstance(own, str) or not own:
                    logger.warning("MCP server %r listed one of its %s without a name: left out", server, what)
                    continue
                names[server].append(own)
                entries.append((entry, prefixed(server, own)))
        refused = routes.record(names, covering)
        return [(entry, name) for entry, name in entries if name not in refused]

    def _list(self, what: str, capability: str | None, fetch: _Fetch[_T], timeout: float | None,
              servers: t.Iterable[str]) -> dict[str, _T]:
        """``fetch`` on each of ``servers`` that is connected, declares ``capability`` and does not sit
        out, all at once; returns the answers that came within the deadline, in configuration order."""
        seconds = self.list_timeout if timeout is None else timeout
        wanted = set(servers)
        jobs: dict[str, t.Callable[[Cancellation], _T]] = {}
        for server in self.connected:
            client = self.clients[server]
            if server not in wanted or not self._backoff.due(server):
                continue
            if capability is not None and capability not in (client.server_capabilities or {}):
                continue
            jobs[server] = _job(fetch, client, seconds)
        gathered = gather(jobs, seconds, what.replace(" ", "-"))
        listings: dict[str, _T] = {}
        for server in jobs:
            if server in gathered.values:
                self._backoff.answered(server)
                listings[server] = gathered.values[server]
            elif (server in gathered.late or isinstance(gathered.errors[server], RequestTimeoutError)) and seconds < self.list_timeout:
                # A caller's own shorter deadline says nothing about the server: it must not put it
                # out for every other caller.
                logger.warning("MCP server %r listed no %s within %s s: left out of this listing", server, what, seconds)
            elif server in gathered.late or isinstance(gathered.errors[server], RequestTimeoutError):
                delay = self._backoff.timed_out(server, RequestTimeoutError(f"no {what} listed within {seconds} s"))
                logger.warning("MCP server %r listed no %s within %s s: left out, and out of listings and calls for %.3g s",
                               server, what, seconds, delay)
            else:
                self._listing_failed(server, what, gathered.errors[server])
        return listings

    def _listing_failed(self, server: str, what: str, error: Exception) -> None:
        if isinstance(error, TransportError):
            self._fail(server, error)
        elif not (isinstance(error, ServerError) and error.code == _METHOD_NOT_FOUND):
            logger.warning("MCP server %r: listing its %s failed, left out: %s", server, what, error)

    def _usable(self, server: str) -> ServerClient:
        with self._lock:
            failure = self._failures.get(server)
            connected = server in self._connected
        if failure is not None:
            raise ServerUnavailableError(server, failure) from failure
        if not connected:
            raise ServerUnavailableError(server, None)
        timeout = self._backoff.sitting_out(server)
        if timeout is not None:
            raise ServerUnavailableError(server, timeout) from timeout
        return self.clients[server]

    def _call(self, server: str, call: t.Callable[[ServerClient], _T]) -> _T:
        client = self._usable(server)
        try:
            return call(client)
        except TransportError as error:
            self._fail(server, error)
            raise ServerUnavailableError(server, error) from error

    def _prefixed_uris(self, what: str, key: str, fetch: _Fetch[list[dict[str, t.Any]]],
                       timeout: float | None) -> list[dict[str, t.Any]]:
        found = []
        for server, entries in self._list(what, "resources", fetch, timeout, self.clients).items():
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
