"""One client request while a server handles it."""

from __future__ import annotations

import typing as t

from ..cancellation import Cancellation
from ..server_context import ServerContext
from .input_required import RoundTripInputs

if t.TYPE_CHECKING:
    from ..channel import Channel
    from .auth import Principal


class Request:
    """The request being handled: its channel (``session``), params, cancellation token and instrumentation data."""

    __slots__ = ("session", "id", "method", "params", "message", "cancellation", "inputs", "http_request", "data", "_context")

    def __init__(
        self,
        session: Channel,
        request_id: t.Any,
        method: str,
        params: t.Any,
        message: dict[str, t.Any],
        cancellation: Cancellation | None,
        inputs: RoundTripInputs | None = None,
        http_request: t.Any = None,
    ) -> None:
        self.session = session
        self.id = request_id
        self.method = method
        self.params = params
        #: The raw JSON-RPC message, for the exception reporter.
        self.message = message
        self.cancellation = cancellation
        #: On the retry of a multi round-trip request: the answers and the handler's state.
        self.inputs = inputs
        #: The HTTP request that carried it (the framework's request object; None on stdio).
        self.http_request = http_request
        #: What ``around_request`` and ``instrumentation_callback`` see.
        self.data: dict[str, t.Any] = {"method": method}
        self._context: ServerContext | None = None

    @property
    def principal(self) -> Principal | None:
        """The authenticated caller (None without authentication)."""
        return self.session.auth

    @property
    def meta(self) -> dict[str, t.Any] | None:
        params = self.params
        if type(params) is dict:
            meta = params.get("_meta")
            if isinstance(meta, dict):
                return meta
        return None

    def server_context(self) -> ServerContext:
        """The :class:`ServerContext` handlers receive (built once, on first use)."""
        context = self._context
        if context is None:
            meta = self.meta
            context = self._context = ServerContext(
                self.session.server.server_context,
                session=self.session,
                request_id=self.id,
                progress_token=meta.get("progressToken") if meta else None,
                cancellation=self.cancellation,
                meta=meta,
                inputs=self.inputs,
                http_request=self.http_request,
            )
        return context


__all__ = ["Request", "RoundTripInputs"]
