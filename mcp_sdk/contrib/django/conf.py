"""The ``MCP_SDK`` setting, the configured server and its transport (one per process, built on
first use), and what the app adds to every server it serves.

.. code-block:: python

    MCP_SDK = {
        "SERVER": "library.mcp.server",            # required: the Server, as a dotted path
        "TRANSPORT": {"wsgi_threads": 32},         # StreamableHTTPTransport keyword arguments
        "REDIS_URL": None,                         # share sessions across processes (redis_url=)
        "AUTHENTICATION": ["session"],             # + "rest_framework"; [] lets anyone call
        "PRINCIPAL": "mcp_sdk.contrib.django.auth.user_principal",
        "REQUEST_STATE_KEYS": None,                # None: derived from SECRET_KEY (and its fallbacks)
    }
"""

from __future__ import annotations

import atexit
import contextlib
import threading
import typing as t
import weakref

if t.TYPE_CHECKING:
    from ...server import Server
    from ...server.transports.streamable_http import StreamableHTTPTransport
    from ...server.context import ServerContext

#: The setting's name.
SETTING = "MCP_SDK"
#: Every key of the setting, with its default.
DEFAULTS: dict[str, t.Any] = {
    "SERVER": None,
    "TRANSPORT": {},
    "REDIS_URL": None,
    "AUTHENTICATION": ["session"],
    "PRINCIPAL": "mcp_sdk.contrib.django.auth.user_principal",
    "REQUEST_STATE_KEYS": None,
}
#: The salt of the ``requestState`` keys derived from ``SECRET_KEY``.
KEY_SALT = "mcp_sdk.contrib.django.request_state_keys"


def mcp_settings() -> dict[str, t.Any]:
    """``settings.MCP_SDK`` over :data:`DEFAULTS`.

    :raises django.core.exceptions.ImproperlyConfigured: an unknown key, or an unknown
        ``AUTHENTICATION`` source.
    """
    from django.conf import settings  # type: ignore[import-untyped]
    from django.core.exceptions import ImproperlyConfigured  # type: ignore[import-untyped]

    from .auth import SOURCES

    given = getattr(settings, SETTING, None) or {}
    unknown = sorted(set(given) - set(DEFAULTS))
    if unknown:
        raise ImproperlyConfigured(f"{SETTING} has unknown keys {unknown}; it takes {sorted(DEFAULTS)}")
    values = {**DEFAULTS, **given}
    sources = sorted(set(values["AUTHENTICATION"]) - set(SOURCES))
    if sources:
        raise ImproperlyConfigured(f"{SETTING}['AUTHENTICATION'] takes {sorted(SOURCES)}, not {sources}")
    return values


def derived_request_state_keys() -> list[bytes]:
    """Keys for ``Configuration(request_state_keys=)``, HMAC-SHA256 of ``SECRET_KEY`` and then of
    each ``SECRET_KEY_FALLBACKS`` entry (the first signs, all verify): every process of the site
    shares them, rotating ``SECRET_KEY`` rotates them, and neither secret is ever used itself."""
    from django.conf import settings
    from django.utils.crypto import salted_hmac  # type: ignore[import-untyped]

    secrets = [settings.SECRET_KEY, *getattr(settings, "SECRET_KEY_FALLBACKS", ())]
    return [salted_hmac(KEY_SALT, "v1", secret=secret, algorithm="sha256").digest() for secret in secrets]


@contextlib.contextmanager
def django_connections(server_context: ServerContext) -> t.Iterator[None]:
    """The handler context the app adds: Django's own request-boundary connection handling
    (``close_old_connections``, which Django runs on ``request_started`` and
    ``request_finished``) before and after every handler, on the pool thread that runs it. A
    connection that broke, or outlived ``CONN_MAX_AGE``, is closed rather than reused, so a pool
    thread holds at most one connection per database and none past its age; with the default
    ``CONN_MAX_AGE = 0`` each handler's connection is closed when it ends."""
    from django.db import close_old_connections  # type: ignore[import-untyped]

    close_old_connections()
    try:
        yield
    finally:
        close_old_connections()


_prepared: weakref.WeakSet[Server] = weakref.WeakSet()
_prepared_lock = threading.Lock()


def prepare(server: Server) -> Server:
    """Add the app's parts to ``server``, once: the :func:`django_connections` handler context,
    and ``request_state_keys`` (``MCP_SDK["REQUEST_STATE_KEYS"]``, else
    :func:`derived_request_state_keys`) unless its configuration sets its own."""
    with _prepared_lock:
        if server in _prepared:
            return server
        server.handler_context(django_connections)
        if server.configuration.request_state_keys is None:
            server.configuration.request_state_keys = mcp_settings()["REQUEST_STATE_KEYS"] or derived_request_state_keys()
        _prepared.add(server)
    return server


def transport_options(given: t.Mapping[str, t.Any] | None = None) -> dict[str, t.Any]:
    """The keyword arguments of a transport: ``MCP_SDK["TRANSPORT"]`` (or ``given``), with
    ``redis_url`` from ``REDIS_URL`` and ``authenticate`` from ``AUTHENTICATION`` and
    ``PRINCIPAL`` where they do not name their own."""
    from django.utils.module_loading import import_string  # type: ignore[import-untyped]

    from .auth import SOURCES, authenticator

    values = mcp_settings()
    options = dict(values["TRANSPORT"] if given is None else given)
    if values["REDIS_URL"] and not {"redis_url", "redis", "storage"} & set(options):
        options["redis_url"] = values["REDIS_URL"]
    if not {"authenticate", "security"} & set(options):
        principal_for = import_string(values["PRINCIPAL"]) if isinstance(values["PRINCIPAL"], str) else values["PRINCIPAL"]
        authenticate = authenticator([SOURCES[name] for name in values["AUTHENTICATION"]], principal_for)
        if authenticate is not None:
            options["authenticate"] = authenticate
    return options


class Endpoint:
    """A server and the transport serving it in this process, built on first use.

    :param server: the server, or a function giving it (the configured one is imported late).
    :param options: transport keyword arguments; None: ``MCP_SDK["TRANSPORT"]``.
    """

    def __init__(self, server: Server | t.Callable[[], Server], options: t.Mapping[str, t.Any] | None = None) -> None:
        self._server = server
        self._options = options
        self._transport: StreamableHTTPTransport | None = None
        self._lock = threading.Lock()

    def server(self) -> Server:
        """The server, prepared (:func:`prepare`)."""
        from ...server import Server

        server = self._server if isinstance(self._server, Server) else self._server()
        return prepare(server)

    def transport(self) -> StreamableHTTPTransport:
        """The transport, built the first time (and closed when the process exits)."""
        with self._lock:
            if self._transport is None:
                from ...server.transports import StreamableHTTPTransport

                self._transport = StreamableHTTPTransport(self.server(), **transport_options(self._options))
                atexit.register(self._transport.close)
            return self._transport


def _import_server() -> Server:
    from django.core.exceptions import ImproperlyConfigured
    from django.utils.module_loading import import_string

    from ...server import Server

    path = mcp_settings()["SERVER"]
    if not path:
        raise ImproperlyConfigured(f"{SETTING}['SERVER'] is not set: name your Server as a dotted path, {SETTING} = {{'SERVER': 'myapp.mcp.server'}}")
    server = import_string(path)
    if not isinstance(server, Server):
        raise ImproperlyConfigured(f"{SETTING}['SERVER'] names {path!r}, a {type(server).__name__}, not an mcp_sdk.Server")
    return server


#: The endpoint of ``MCP_SDK["SERVER"]``, which ``mcp_sdk.contrib.django.urls`` serves.
configured = Endpoint(_import_server)


def configured_server() -> Server:
    """The server ``MCP_SDK["SERVER"]`` names, prepared (:func:`prepare`).

    :raises django.core.exceptions.ImproperlyConfigured: it is not set, or names no ``Server``.
    """
    return configured.server()


def configured_transport() -> StreamableHTTPTransport:
    """The transport serving :func:`configured_server` in this process (built on first use)."""
    return configured.transport()


__all__ = [
    "DEFAULTS",
    "SETTING",
    "Endpoint",
    "configured",
    "configured_server",
    "configured_transport",
    "derived_request_state_keys",
    "django_connections",
    "mcp_settings",
    "prepare",
    "transport_options",
]
