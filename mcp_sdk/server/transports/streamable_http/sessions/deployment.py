"""Deployment mistakes the HTTP transport can see, answered with what to do instead of a hang.

- A single-threaded WSGI server (``wsgi.multithread`` false: gunicorn's default ``sync``
  worker; gevent's ``pywsgi`` says false too, but runs each request on a greenlet) cannot hold an SSE stream and take the next POST. Plain requests still work (test
  clients are single-threaded too), but the standalone GET stream, which would hold the only
  thread for the whole session, is refused with 405 and the fix, and a server-to-client request
  (sampling, elicitation, roots), whose answer would need a second thread, fails at once with the
  fix instead of waiting out its timeout. The fix is logged once.
- A session id this process never issued, while sessions live in this process's memory, most
  likely came from another process of the same server (``gunicorn -w 4``).
- Several processes (``wsgi.multiprocess`` true, as PEP 3333 asks servers to say: gunicorn sets it
  with ``-w`` over 1, mod_wsgi and uWSGI with several processes; waitress and threaded werkzeug
  never) while ``requestState`` keys are per process: a 2026-07-28 multi round-trip request
  retried on another process would be refused. Logged once, at the first such request.
- The transport routed as a view (Django's ``path("mcp", transport)``): called with a request and
  no ``start_response``, it raises a ``TypeError`` naming ``mcp_sdk.contrib.django``.
"""

from __future__ import annotations

import collections
import logging
import threading
import typing as t

from ....._gevent import green_threads
from ..wire.http_io import HTTPRequestError

if t.TYPE_CHECKING:
    from ....session import ServerSession

logger = logging.getLogger("mcp_sdk.server")

#: Session ids remembered after they end, to tell "expired" from "issued elsewhere".
REMEMBERED_SESSION_IDS = 100_000

FIX_THREADS = (
    "the WSGI server is single-threaded (wsgi.multithread is false): run gunicorn with "
    "-k gthread --threads 32 -w 1, or waitress, or werkzeug with threaded=True"
)
SINGLE_THREADED = f"Method Not Allowed: no GET stream, because {FIX_THREADS}"
ISSUED_ELSEWHERE = (
    "Not Found: unknown session. Sessions live in the memory of the process that created them: "
    "several server processes (gunicorn -w N) are the likely cause. Run one process with threads "
    "(gunicorn -w 1 -k gthread), share sessions on Redis (redis_url=), or pass stateless=True"
)
SEVERAL_PROCESSES = (
    "the WSGI server runs several processes (wsgi.multiprocess) but each signs 2026-07-28 requestState "
    "with its own random key, so a multi round-trip request retried on another process is refused: set "
    "Configuration(request_state_keys=[...]) the same in every process, or share them on Redis (redis_url=)"
)
ENDED = "Not Found: the session expired or was ended; send initialize to start a new one"
NOT_A_VIEW = (
    "StreamableHTTPTransport is a WSGI application, called with (environ, start_response), not a view called "
    'with a request. In Django, route it through mcp_sdk.contrib.django: path("mcp/", include("mcp_sdk.contrib.django.urls")), '
    'or path("mcp/", mcp_view(server)) for a server of your own; in Flask, serve it with mcp_sdk.contrib.flask: MCP(app, server=server)'
)


class DeploymentCheck:
    """Per transport: the single-threaded check (logged once) and the ids this process issued."""

    def __init__(self, shared: bool = False) -> None:
        #: Sessions are shared by every process (Redis): an unknown id is never another process's.
        self.shared = shared
        self._lock = threading.Lock()
        self._warned = False
        self._warned_processes = False
        self._issued: collections.OrderedDict[str, None] = collections.OrderedDict()

    def refuse_standalone_stream(self, environ: t.Mapping[str, t.Any]) -> None:
        """Raise a 405 :class:`HTTPRequestError` saying how to fix it when the WSGI server has one thread."""
        if self._single_threaded(environ):
            raise HTTPRequestError(405, SINGLE_THREADED, headers={"Allow": "POST, DELETE"})

    def limit_single_threaded(self, environ: t.Mapping[str, t.Any], session: ServerSession) -> None:
        """Make a new session's server-to-client requests fail at once under a single-threaded server."""
        if self._single_threaded(environ):
            session.can_send_requests = False
            session.no_requests_reason = FIX_THREADS

    def _single_threaded(self, environ: t.Mapping[str, t.Any]) -> bool:
        if environ.get("wsgi.multithread", True) is not False or green_threads():
            return False  # gevent's pywsgi says multithread false, but serves each request on a greenlet
        with self._lock:
            first, self._warned = not self._warned, True
        if first:
            logger.warning("MCP Streamable HTTP: %s; GET streams and server-to-client requests are refused", FIX_THREADS)
        return True

    def warn_several_processes(self, environ: t.Mapping[str, t.Any], keys_shared: bool) -> None:
        """Log :data:`SEVERAL_PROCESSES` once when the WSGI server says it runs several processes and
        ``requestState`` keys are not shared (``keys_shared``: configured, or on Redis)."""
        if keys_shared or environ.get("wsgi.multiprocess") is not True:
            return
        with self._lock:
            first, self._warned_processes = not self._warned_processes, True
        if first:
            logger.warning("MCP Streamable HTTP: %s", SEVERAL_PROCESSES)

    def issued(self, session_id: str) -> None:
        """Note a session id this process created."""
        with self._lock:
            self._issued[session_id] = None
            if len(self._issued) > REMEMBERED_SESSION_IDS:
                self._issued.popitem(last=False)

    def unknown_session(self, session_id: str) -> HTTPRequestError:
        """The 404 for a session id no open session has: ended here, or issued by another process."""
        with self._lock:
            ours = self.shared or session_id in self._issued
        return HTTPRequestError(404, ENDED if ours else ISSUED_ELSEWHERE)


__all__ = ["DeploymentCheck", "ENDED", "FIX_THREADS", "ISSUED_ELSEWHERE", "NOT_A_VIEW", "SEVERAL_PROCESSES", "SINGLE_THREADED"]
