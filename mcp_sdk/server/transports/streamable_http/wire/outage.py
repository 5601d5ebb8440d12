"""A shared store that cannot serve a request: ``503`` with ``Retry-After``, whichever store, in either era.

Redis down, too slow, or full (``maxmemory`` with policy ``noeviction``) refuses what a request
needs, and the client is told to come back rather than shown an error of its own request. A
refusal reaches the transport in one of two ways, and gets one answer:

- raised where the transport itself reads or writes the store (a session's record, its GET
  stream's claim, the ``requestState`` keys): a redis-py error (see :func:`mcp_sdk._redis.outage_errors`)
  or a :class:`~mcp_sdk.errors.StoreFullError`, which :func:`outage_refusal` answers;
- answered by the server: a handler's store refused a write (a task's creation, ``tasks/update``,
  ``tasks/cancel``) and the dispatcher answered with an
  :class:`~mcp_sdk.server.unavailable.UnavailableResponse`, which
  :func:`~.http_io.response_answer` sends as the 503 carrying that JSON-RPC error, its request's
  id included.
"""

from __future__ import annotations

import typing as t

from ....._redis import is_full
from .....errors import StoreFullError
from .http_io import HTTPRequestError

if t.TYPE_CHECKING:
    from .....server import Server

#: ``Retry-After`` seconds when the store is full: room comes back as sessions and events expire, not at once.
FULL_RETRY_AFTER = StoreFullError.retry_after
#: ``Retry-After`` seconds when the store is unreachable or too slow: the workers reconnect at once.
UNREACHABLE_RETRY_AFTER = 1
#: What a client is told when the store is full.
FULL = "Service Unavailable: the shared session store (Redis) is full; retry later"
#: What a client is told when the store cannot be reached in time.
UNREACHABLE = "Service Unavailable: the shared session store (Redis) is unreachable; retry shortly"


def outage_refusal(server: Server, error: BaseException) -> HTTPRequestError:
    """The refusal of a request the shared store could not serve, reported to the server's
    exception reporter (context ``{"shared_store": "full" | "unreachable"}``).

    :param server: whose exception reporter hears of it.
    :param error: a redis-py outage error, or a :class:`~mcp_sdk.errors.StoreFullError`.
    :returns: ``503`` with ``Retry-After`` (:data:`FULL_RETRY_AFTER` when full, else :data:`UNREACHABLE_RETRY_AFTER`).
    """
    if isinstance(error, StoreFullError) or is_full(error):
        server.report_exception(error, {"shared_store": "full"})
        return HTTPRequestError(503, FULL, headers={"Retry-After": str(FULL_RETRY_AFTER)})
    server.report_exception(error, {"shared_store": "unreachable"})
    return HTTPRequestError(503, UNREACHABLE, headers={"Retry-After": str(UNREACHABLE_RETRY_AFTER)})


__all__ = ["FULL", "FULL_RETRY_AFTER", "UNREACHABLE", "UNREACHABLE_RETRY_AFTER", "outage_refusal"]
