"""The transport under uWSGI's gevent loop engine (issue 17, item 3): ``uwsgi --gevent N`` as a deployment.

uWSGI (the ``pyuwsgi`` wheel) serves ``StreamableHTTPTransport(server)`` with its defaults on
``--http-socket`` (HTTP/1.1 in the worker itself, no router process), ``--gevent`` async cores and
``--gevent-early-monkey-patch``, so the transport sees gevent when it is built and reads the core
count from uWSGI as its connection count (as it reads gunicorn's ``--worker-connections``):

- the detection, inside the server: gevent's greenlets, and the cores given (``--threads N``: N);
- 50 sessions of our :class:`~mcp_sdk.Client` and 50 of the official client at once, each with its GET
  stream and a streamed tool call with progress and logs (the drivers of ``streamable_http_polling_test``):
  no 503, every notification reaches its own session exactly once, in order;
- one abusive client holding every stream it may gets 429/503, and another client's ping answers.
"""

from __future__ import annotations

import concurrent.futures
import pathlib

import requests

from spec.mcp_sdk.server.transports.streamable_http_polling_test import SESSIONS, expected, official, ours
from spec.support.hostile_servers import assert_forty_connection_caps
from spec.support.http_client import TIMEOUT
from spec.support.http_server import PYTHON, ServerProcess

#: The ``uwsgi`` command the ``pyuwsgi`` wheel installs beside this Python.
UWSGI = [str(pathlib.Path(PYTHON).parent / "uwsgi")]


def uwsgi_server(app: str, *options: str, cores: int = 1000) -> ServerProcess:
    """``app`` (``module:attribute``) under uWSGI, one worker with ``cores`` gevent cores (plus ``options``).

    ``--die-on-term``: uWSGI's master reloads its workers on SIGTERM otherwise. ``--http-socket`` closes
    the connection after every response without saying so (no keep-alive; a stream of unknown length
    ends with the connection, not chunked), so a client reusing a pooled connection meets a reset:
    ``Connection: close`` on every answer tells it not to.
    """
    engine = ["--gevent", str(cores), "--gevent-early-monkey-patch"] if cores else []
    command = [*UWSGI, "--http-socket", "127.0.0.1:{port}", *engine, "--master", "--processes", "1", "--die-on-term",
               "--add-header", "Connection: close", "--disable-logging", *options, "--module", "spec.support.uwsgi_app:app"]
    return ServerProcess(command, env={"MCP_UWSGI_APP": app})


def detected(served: ServerProcess) -> dict[str, object]:
    answer = requests.get(served.base + "/detected", timeout=TIMEOUT)
    answer.raise_for_status()
    return dict(answer.json())


# -- detection ---------------------------------------------------------------------


def test_the_gevent_cores_are_the_connection_count() -> None:
    with uwsgi_server("spec.support.gevent_app:app", cores=250) as served:
        assert detected(served) == {"connections": 250, "green": True, "multithread": False}


def test_uwsgi_threads_are_the_thread_count() -> None:
    with uwsgi_server("spec.support.gevent_app:app", "--threads", "8", cores=0) as served:
        assert detected(served) == {"connections": 8, "green": False, "multithread": True}


# -- many sessions -----------------------------------------------------------------


def test_fifty_sessions_of_each_client_are_served_exactly_once_under_uwsgi_gevent() -> None:
    with uwsgi_server("spec.support.polling_app:app") as served:
        assert detected(served) == {"connections": 1000, "green": True, "multithread": False}
        tags = [f"ours{n}" for n in range(SESSIONS)]
        official_tags = [f"official{n}" for n in range(SESSIONS)]
        with concurrent.futures.ThreadPoolExecutor(SESSIONS + 1, thread_name_prefix="uwsgi-spec") as pool:
            theirs = pool.submit(official, served.url, official_tags)
            mine = {tag: pool.submit(ours, served.url, tag) for tag in tags}
            seen = {tag: future.result(timeout=180) for tag, future in mine.items()}
            seen.update(theirs.result(timeout=180))
        assert seen == {tag: expected(tag) for tag in tags + official_tags}


# -- one abusive client ------------------------------------------------------------


def test_an_abusive_client_is_refused_at_the_caps_and_another_clients_ping_answers() -> None:
    # 40 gevent cores (uWSGI tells the transport): 36 streams in all, at most 8 requests a session.
    with uwsgi_server("spec.support.hostile_app:app", cores=40) as served:
        assert_forty_connection_caps(served.url)
