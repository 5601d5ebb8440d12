"""What a server sends the client on its own: requests to answer, notifications to deliver.

:class:`ServerMessages` is the part of :class:`~mcp_sdk.Client` that holds the
``on_*`` handlers. The same handlers answer a 2025 server's requests
(``sampling/createMessage``, ``elicitation/create``, ``roots/list``) and a
2026-07-28 server's ``input_required`` rounds (see :mod:`.mrtr`).
"""

from __future__ import annotations

import logging
import typing as t

from .. import error_codes, json_rpc, methods
from ..deprecations import warn_deprecated
from ..errors import JSONRPCError
from . import modern
from .elicitation import apply_defaults
from .transport import Message

if t.TYPE_CHECKING:
    from .cache import ResultCache
    from .listen import Subscriptions

logger = logging.getLogger("mcp_sdk.client")

F = t.TypeVar("F", bound=t.Callable[..., t.Any])


class ServerMessages:
    """The ``on_*`` registrations of :class:`~mcp_sdk.Client`, and the routing of what the server sends."""

    _cache: ResultCache | None
    _subscriptions: Subscriptions
    _sampling_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
    _elicitation_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
    _elicitation_url = False
    _roots_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
    _progress_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
    _log_handler: t.Callable[[dict[str, t.Any]], t.Any] | None = None
    _notification_handler: t.Callable[[str, t.Any], t.Any] | None = None

    def capabilities(self) -> dict[str, t.Any]:
        """The client capabilities the registered handlers imply (what :meth:`connect` declares)."""
        capabilities: dict[str, t.Any] = {}
        if self._sampling_handler is not None:
            capabilities["sampling"] = {}
        if self._elicitation_handler is not None:
            capabilities["elicitation"] = {"form": {}, **({"url": {}} if self._elicitation_url else {})}
        if self._roots_handler is not None:
            capabilities["roots"] = {"listChanged": True}
        return capabilities

    @t.overload
    def on_sampling(self, handler: F) -> F: ...
    @t.overload
    def on_sampling(self, handler: None = None) -> t.Callable[[F], F]: ...

    def on_sampling(self, handler: F | None = None) -> F | t.Callable[[F], F]:
        """Answer ``sampling/createMessage``: ``handler(params)`` returns a ``CreateMessageResult`` dict.

        Works as a call and as a decorator; returns ``handler``. Declares the
        ``sampling`` capability on :meth:`connect`. Raise a
        :class:`~mcp_sdk.JSONRPCError` to answer with that error (the
        specification uses code ``-1`` for a user's refusal).
        Sampling is deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        warn_deprecated("sampling")
        return self._register("_sampling_handler", handler)

    def on_elicitation(self, handler: F | None = None, *, url: bool = False) -> t.Any:
        """Answer ``elicitation/create``: ``handler(params)`` returns ``{"action": ..., "content": {...}}``.

        For a form, an ``accept`` gets the ``default`` of every field the
        handler left out (SEP-1034). Declares ``elicitation: {"form": {}}``, plus
        ``"url": {}`` when ``url=True`` (the handler also handles ``mode: "url"``).
        Works as a call and as a decorator (``@client.on_elicitation(url=True)`` too).

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :param url: also declare (and handle) URL elicitations.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        self._elicitation_url = url
        return self._register("_elicitation_handler", handler)

    def on_roots(self, handler: F | None = None) -> t.Any:
        """Answer ``roots/list``: ``handler(params)`` returns a list of roots (``{"uri": "file://...", "name": ...}``).

        Declares ``roots: {"listChanged": true}``; call
        :meth:`notify_roots_list_changed` when they change.
        Roots are deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        warn_deprecated("roots")
        return self._register("_roots_handler", handler)

    def on_progress(self, handler: F | None = None) -> t.Any:
        """Receive every ``notifications/progress``: ``handler(params)`` (``progressToken``, ``progress``...).

        Notification handlers run on the transport's reader thread, in order:
        keep them quick (hand long work to a thread of your own).

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        return self._register("_progress_handler", handler)

    def on_log_message(self, handler: F | None = None) -> t.Any:
        """Receive every ``notifications/message``: ``handler(params)`` (``level``, ``data``, ``logger``).

        :param handler: ``handler(params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        return self._register("_log_handler", handler)

    def on_notification(self, handler: F | None = None) -> t.Any:
        """Receive the other notifications (list changes, resource updates...): ``handler(method, params)``.

        :param handler: ``handler(method, params)``, or None to use this method as a decorator.
        :returns: ``handler``; without it, a decorator that registers the function it decorates.
        """
        return self._register("_notification_handler", handler)

    def _register(self, attribute: str, handler: F | None) -> F | t.Callable[[F], F]:
        if handler is None:
            def decorator(function: F) -> F:
                setattr(self, attribute, function)
                return function

            return decorator
        setattr(self, attribute, handler)
        return handler

    def _handle_message(self, message: Message) -> Message | None:
        """The transport's message handler: answer a server request, or route a notification."""
        method = message.get("method")
        params = message.get("params")
        if not isinstance(params, dict):
            params = {}
        if "id" not in message:
            self._handle_notification(str(method), params)
            return None
        request_id = message["id"]
        try:
            return json_rpc.result(request_id, self._answer(str(method), params))
        except JSONRPCError as error:
            return json_rpc.error(request_id, error.code, error.message, error.data)
        except Exception:
            logger.exception("handler for %s failed", method)
            return json_rpc.error(request_id, error_codes.INTERNAL_ERROR)

    def _answer(self, method: str, params: dict[str, t.Any]) -> t.Any:
        if method == methods.PING:
            return {}
        if method == methods.SAMPLING_CREATE_MESSAGE and self._sampling_handler is not None:
            return _object(self._sampling_handler(params), method)
        if method == methods.ELICITATION_CREATE and self._elicitation_handler is not None:
            result = _object(self._elicitation_handler(params), method)
            if result.get("action") == "accept" and params.get("mode", "form") == "form":
                result = {**result, "content": apply_defaults(params.get("requestedSchema"), result.get("content"))}
            return result
        if method == methods.ROOTS_LIST and self._roots_handler is not None:
            roots = self._roots_handler(params)
            return {"roots": list(roots)} if isinstance(roots, (list, tuple)) else _object(roots, method)
        raise JSONRPCError(f"Method not found: {method}", error_codes.METHOD_NOT_FOUND)

    def _handle_notification(self, method: str, params: dict[str, t.Any]) -> None:
        if self._cache is not None:
            self._cache.invalidate(method, params)
        meta = params.get("_meta")
        subscription_id = meta.get(modern.META_SUBSCRIPTION_ID) if isinstance(meta, dict) else None
        if subscription_id is not None:
            self._subscriptions.receive(subscription_id, method, params)
            if method == modern.NOTIFICATIONS_SUBSCRIPTIONS_ACKNOWLEDGED:
                return
        if method == methods.NOTIFICATIONS_PROGRESS:
            handler = self._progress_handler
            if handler is not None:
                handler(params)
        elif method == methods.NOTIFICATIONS_MESSAGE:
            log_handler = self._log_handler
            if log_handler is not None:
                log_handler(params)
        else:
            other = self._notification_handler
            if other is not None:
                other(method, params)


def _object(value: t.Any, method: str) -> dict[str, t.Any]:
    if not isinstance(value, dict):
        raise TypeError(f"the {method} handler must return a dict, not {type(value).__name__}")
    return value


__all__ = ["ServerMessages"]
