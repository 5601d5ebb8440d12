"""The connection one stateless (2026-07-28) HTTP request runs on."""

from __future__ import annotations

import typing as t

from .... import json_rpc
from ....server_session import ServerSession
from .sse import Stream

if t.TYPE_CHECKING:
    from ....server import Server


class RequestChannel(ServerSession):
    """The connection one stateless request (2026-07-28) runs on: it carries what relates to
    the request on the request's own stream, and counts it."""

    def __init__(self, server: Server) -> None:
        super().__init__(server, self._put)
        #: The request's SSE stream, once it has one.
        self.stream: Stream | None = None
        #: Messages written before the answer.
        self.messages_sent = 0

    def _put(self, outgoing: dict[str, t.Any], related_request_id: t.Any) -> None:
        stream = self.stream
        if related_request_id is None or stream is None:
            return  # session-scoped messages have nowhere to go
        try:
            text = json_rpc.encode(outgoing)
        except (TypeError, ValueError) as error:
            self.server.report_exception(error, {"notification": outgoing.get("method")})
            return
        self.messages_sent += 1
        stream.put(outgoing, text)


__all__ = ["RequestChannel"]
