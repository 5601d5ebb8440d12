"""What handlers receive as ``server_context``: the user's context plus the request's powers.

It reads like the ``server_context`` dict given to :class:`~mcp_sdk.Server`
(with the request's ``_meta`` under ``"_meta"``), and it can report progress,
log, and ask the client things (roots, sampling, elicitation) on behalf of the
request that is running.
"""

from __future__ import annotations

import typing as t

from .. import methods
from .. import protocol_version as versions
from ..cancellation import Cancellation
from ..deprecations import warn_deprecated
from ..errors import CapabilityError

if t.TYPE_CHECKING:
    from .channel import Channel
    from ..elicitation import ElicitationResult
    from .auth import Principal
    from .input_required import RoundTripInputs


class ServerContext(t.Mapping[str, t.Any]):
    """A read-only mapping over the server's context, bound to one in-flight request.

    A tool, prompt or resource handler that declares a ``server_context`` parameter gets one:
    ``server_context["key"]`` reads the ``server_context`` dict given to the
    :class:`~mcp_sdk.Server`, and its methods act for the request: :meth:`report_progress`,
    :meth:`raise_if_cancelled`, :meth:`elicit`, :meth:`create_sampling_message`,
    :meth:`list_roots`; :attr:`auth` is the caller and :attr:`request` the HTTP request.

    .. code-block:: python

        from mcp_sdk import Client, Server, ServerContext
        from mcp_sdk.client import InMemory

        server = Server(name="importer", server_context={"source": "inventory.csv"})


        @server.tool
        def import_rows(rows: int, server_context: ServerContext) -> str:
            for done in range(1, rows + 1):
                server_context.report_progress(done, total=rows)
            return f"{rows} rows from {server_context['source']}"


        with Client(transport=InMemory(server)) as client:
            progress = []
            client.on_progress(lambda params: progress.append(params["progress"]))
            client.connect()
            response = client.call_tool(name="import_rows", arguments={"rows": 2}, meta={"progressToken": 1})
            assert response["result"]["content"][0]["text"] == "2 rows from inventory.csv"
            assert progress == [1, 2]

    :param context: the ``server_context`` given to the server (a mapping, or None).
    :param session: the connection the request came on.
    :param request_id: the JSON-RPC id of the request being handled (None for a notification).
    :param progress_token: ``params._meta.progressToken`` of the request, if the client sent one.
    :param cancellation: the request's cancellation token (default: a new one).
    :param meta: the request's ``_meta``, seen under ``"_meta"``.
    :param inputs: the answers and ``requestState`` of a 2026-07-28 multi round-trip request.
    :param http_request: the HTTP request that carried the message (see :attr:`request`).

    The server builds one for each request; handlers never construct it.
    """

    __slots__ = (
        "context",
        "session",
        "request_id",
        "progress_token",
        "cancellation",
        "meta",
        "inputs",
        "http_request",
        "_view",
    )

    def __init__(
        self,
        context: t.Any,
        *,
        session: Channel | None = None,
        request_id: t.Any = None,
        progress_token: t.Any = None,
        cancellation: Cancellation | None = None,
        meta: dict[str, t.Any] | None = None,
        inputs: RoundTripInputs | None = None,
        http_request: t.Any = None,
    ) -> None:
        #: The ``server_context`` given to the server, as given.
        self.context = context
        #: The connection the request came on.
        self.session = session
        #: The JSON-RPC id of the request being handled (None for a notification).
        self.request_id = request_id
        #: ``params._meta.progressToken`` of the request, if the client sent one.
        self.progress_token = progress_token
        #: The request's cancellation token.
        self.cancellation = cancellation if cancellation is not None else Cancellation()
        #: The request's ``_meta`` (trace context keys pass through untouched).
        self.meta = meta
        self.inputs = inputs
        self.http_request = http_request
        view: t.Mapping[str, t.Any]
        if context is None:  # the usual case, tested first: isinstance against t.Mapping runs Python code
            view = {"_meta": meta} if meta is not None else {}
        elif isinstance(context, t.Mapping):
            view = {**context, "_meta": meta} if meta is not None else context
        else:
            view = {}  # a non-dict context is reachable as .context; _meta is not merged (as in the gem)
        self._view = view

    # -- the mapping ---------------------------------------------------------

    def __getitem__(self, key: str) -> t.Any:
        return self._view[key]

    def __iter__(self) -> t.Iterator[str]:
        return iter(self._view)

    def __len__(self) -> int:
        return len(self._view)

    def __getattr__(self, name: str) -> t.Any:
        # A non-dict user context (an object) still answers its own attributes.
        context = object.__getattribute__(self, "context")
        if context is not None and not isinstance(context, t.Mapping):
            return getattr(context, name)
        raise AttributeError(name)

    def __repr__(self) -> str:
        return f"<ServerContext request_id={self.request_id!r} keys={list(self._view)!r}>"

    # -- multi round-trip requests (2026-07-28) -----------------------------

    @property
    def input_responses(self) -> dict[str, t.Any] | None:
        """On the retry of a request whose handler returned an :class:`InputRequiredResult`:
        the client's answers, by the keys of its ``input_requests``; None otherwise."""
        return self.inputs.input_responses if self.inputs is not None else None

    @property
    def request_state(self) -> str | None:
        """On such a retry: the ``request_state`` the handler put in its
        :class:`InputRequiredResult` (verified: the client cannot change it)."""
        return self.inputs.request_state if self.inputs is not None else None

    def client_supports(self, capability: str) -> bool:
        """Whether the client declared ``capability`` for this request (dotted:
        ``"sampling"``, ``"elicitation.url"``, ``"extensions.io.modelcontextprotocol/ui"``).

        :param capability: a capability's dotted path.
        :returns: True when the client declared it.
        """
        return self.session is not None and self.session.client_supports(capability)

    @property
    def protocol_version(self) -> str | None:
        """The protocol version of the request being handled."""
        return self.session.version if self.session is not None else None

    @property
    def auth(self) -> Principal | None:
        """Who made the request (subject, client id, scopes, expiry, claims; never the token);
        None without authentication (stdio, or HTTP without ``auth=``/``authenticate=``)."""
        return self.session.auth if self.session is not None else None

    @property
    def request(self) -> t.Any:
        """The HTTP request that carried this call, as the web framework knows it: a Flask or
        Django request when the endpoint is served through ``mcp_sdk.contrib``, else a werkzeug
        ``Request`` over the WSGI environ (its body already read); None on stdio.

        Its headers, the client's address and the framework's user are there; for a task, it is
        the request that started the task.
        """
        http_request = self.http_request
        return http_request() if callable(http_request) else http_request

    @property
    def lifespan(self) -> t.Any:
        """What the server's lifespan yielded (``Server(lifespan=fn)``, see
        :mod:`mcp_sdk.server.lifespan`) while it runs in this process; None otherwise."""
        return self.session.server.lifespan.value if self.session is not None else None

    # -- cancellation --------------------------------------------------------

    def cancelled(self) -> bool:
        """Whether the client cancelled this request."""
        return self.cancellation.cancelled()

    def raise_if_cancelled(self) -> None:
        """Raise :class:`~mcp_sdk.CancelledError` if the client cancelled this request."""
        self.cancellation.raise_if_cancelled()

    # -- notifications -------------------------------------------------------

    def report_progress(self, progress: float, total: float | None = None, message: str | None = None) -> None:
        """Send ``notifications/progress`` for this request; a no-op without a progress token.

        :param progress: the progress so far (it must grow with each call).
        :param total: the total, when known.
        :param message: a human-readable status (sent to clients of 2025-03-26 and later).
        """
        if self.progress_token is None or self.session is None:
            return
        params: dict[str, t.Any] = {"progressToken": self.progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None and self.session.supports("progress_message"):
            params["message"] = message
        self.session.send_notification(methods.NOTIFICATIONS_PROGRESS, params, related_request_id=self.request_id)

    def notify_log_message(self, data: t.Any, level: str, logger: str | None = None) -> None:
        """Send ``notifications/message`` to this client if ``level`` passes its ``logging/setLevel``.

        Logging is deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :param data: the message: a string or any JSON value.
        :param level: its syslog level: ``"debug"``, ``"info"``, ``"warning"``, ``"error"``...
        :param logger: the name of the logger that produced it, if any.
        """
        warn_deprecated("logging")
        if self.session is not None:
            self.session.notify_log_message(data=data, level=level, logger=logger, related_request_id=self.request_id)

    def notify_resources_updated(self, uri: str) -> None:
        """Tell this client a resource it may have subscribed to changed, and every
        ``subscriptions/listen`` request (2026-07-28) subscribed to ``uri``.

        :param uri: the URI of the resource that changed.
        """
        session = self.session
        if session is None:
            return
        if session.supports("resource_updated_notification"):
            session.send_notification(methods.NOTIFICATIONS_RESOURCES_UPDATED, {"uri": uri})
        session.server.notify_resources_updated(uri)

    def notify_elicitation_complete(self, elicitation_id: str) -> None:
        """Tell this client a URL elicitation finished (protocol 2025-11-25).

        :param elicitation_id: the ``elicitationId`` of the URL elicitation.
        """
        if self.session is not None and self.session.supports("elicitation_complete"):
            self.session.send_notification(
                methods.NOTIFICATIONS_ELICITATION_COMPLETE, {"elicitationId": elicitation_id}
            )

    def close_sse_stream(self) -> bool:
        """Streamable HTTP: close this request's SSE connection now, to free it during long work;
        the client reconnects and receives what follows, the response included (SEP-1699).

        :return: False (and nothing happens) on other transports and for clients older than 2025-11-25.
        """
        return self.session.close_sse_stream(self.request_id) if self.session is not None else False

    # -- server-to-client requests ------------------------------------------

    def _request(self, method: str, params: dict[str, t.Any] | None, timeout: float | None) -> t.Any:
        if self.session is None:
            raise CapabilityError(f"{method} needs a client connection; this context has none")
        return self.session.send_request(
            method,
            params,
            related_request_id=self.request_id,
            cancellation=self.cancellation,
            timeout=timeout,
        )

    def _require(self, capability: str, method: str) -> None:
        if self.session is None:
            raise CapabilityError(f"Client does not support {capability} (needed for {method})")
        self.session.require_capability(capability, method)

    def list_roots(self, timeout: float | None = None) -> dict[str, t.Any]:
        """Ask the client for its roots (``roots/list``); returns ``{"roots": [...]}``.

        Roots are deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :raises CapabilityError: the client did not declare ``roots``.
        :raises JSONRPCError: the client answered with an error.
        :param timeout: seconds to wait for the client's answer (default: the configuration's ``server_request_timeout``).
        """
        warn_deprecated("roots")
        self._require("roots", methods.ROOTS_LIST)
        return t.cast("dict[str, t.Any]", self._request(methods.ROOTS_LIST, None, timeout))

    def ping(self, timeout: float | None = None) -> dict[str, t.Any]:
        """Ping the client; returns ``{}``.

        :raises ValidationError: the client's result is not an object.
        :param timeout: seconds to wait for the client's answer (default: the configuration's ``server_request_timeout``).
        :raises RequestTimeoutError: no answer within ``timeout``.
        """
        if self.session is None:
            raise CapabilityError(f"{methods.PING} needs a client connection; this context has none")
        return self.session.ping(timeout, related_request_id=self.request_id, cancellation=self.cancellation)

    def create_sampling_message(
        self,
        messages: list[dict[str, t.Any]],
        max_tokens: int,
        system_prompt: str | None = None,
        model_preferences: dict[str, t.Any] | None = None,
        include_context: str | None = None,
        temperature: float | None = None,
        stop_sequences: list[str] | None = None,
        metadata: dict[str, t.Any] | None = None,
        tools: list[dict[str, t.Any]] | None = None,
        tool_choice: dict[str, t.Any] | None = None,
        timeout: float | None = None,
    ) -> dict[str, t.Any]:
        """Ask the client's LLM for a completion (``sampling/createMessage``); returns its result.

        Sampling is deprecated as of MCP 2026-07-28 (SEP-2577): warns with :class:`~mcp_sdk.MCPDeprecationWarning`.

        :raises CapabilityError: the client lacks ``sampling`` (or ``sampling.tools`` when ``tools`` is given).
        :param messages: the conversation, as ``SamplingMessage`` dicts (``{"role": ..., "content": ...}``).
        :param max_tokens: the most tokens to generate (``maxTokens``).
        :param system_prompt: the system prompt the client may use (``systemPrompt``).
        :param model_preferences: hints and priorities for the client's choice of model (``modelPreferences``).
        :param include_context: ``"none"``, ``"thisServer"`` or ``"allServers"`` (``includeContext``).
        :param temperature: the sampling temperature.
        :param stop_sequences: sequences that end the generation (``stopSequences``).
        :param metadata: provider-specific metadata, passed through.
        :param tools: tools the model may call (protocol 2025-11-25; needs ``sampling.tools``).
        :param tool_choice: how the model may use them (``toolChoice``).
        :param timeout: seconds to wait for the client's answer (default: the configuration's ``server_request_timeout``).
        """
        warn_deprecated("sampling")
        self._require("sampling", methods.SAMPLING_CREATE_MESSAGE)
        if tools is not None or tool_choice is not None:
            self._require("sampling.tools", methods.SAMPLING_CREATE_MESSAGE)
        params: dict[str, t.Any] = {"messages": messages, "maxTokens": max_tokens}
        optional = {
            "systemPrompt": system_prompt,
            "modelPreferences": model_preferences,
            "includeContext": include_context,
            "temperature": temperature,
            "stopSequences": stop_sequences,
            "metadata": metadata,
            "tools": tools,
            "toolChoice": tool_choice,
        }
        params.update((key, value) for key, value in optional.items() if value is not None)
        return t.cast("dict[str, t.Any]", self._request(methods.SAMPLING_CREATE_MESSAGE, params, timeout))

    def create_form_elicitation(
        self, message: str, requested_schema: dict[str, t.Any], timeout: float | None = None
    ) -> dict[str, t.Any]:
        """Ask the user for structured input through the client; returns ``{"action": ..., "content": ...}``.

        :raises CapabilityError: the client lacks form elicitation.
        :param message: what to ask the user.
        :param requested_schema: the form, a flat JSON Schema object of primitive properties (``requestedSchema``).
        :param timeout: seconds to wait for the client's answer (default: the configuration's ``server_request_timeout``).
        """
        self._require("elicitation.form", methods.ELICITATION_CREATE)
        params: dict[str, t.Any] = {"message": message, "requestedSchema": requested_schema}
        if self.session is not None and self.session.supports("url_elicitation"):
            params = {"mode": "form", **params}
        return t.cast("dict[str, t.Any]", self._request(methods.ELICITATION_CREATE, params, timeout))

    def elicit(self, message: str, schema: t.Any, timeout: float | None = None) -> ElicitationResult[t.Any]:
        """Ask the user to fill a form (``elicitation/create``) and get the answer as a typed value.

        :param schema: a Pydantic model, a dataclass, an attrs class or a ``TypedDict`` (flat,
            primitive fields: MCP forms allow nothing else), or a JSON Schema dict.
        :return: an :class:`~mcp_sdk.elicitation.ElicitationResult`: ``action``, and when the user
            accepted, ``data`` (a model instance, a dataclass or attrs instance, or the dict).
        :raises TypeError: ``schema`` is not a flat form (naming the field), before anything is sent.
        :raises ElicitationContentError: the client's answer does not match the schema (naming the field);
            a tool that lets it escape answers ``isError`` with its message.
        :raises CapabilityError: the client lacks form elicitation.
        :param message: what to ask the user.
        :param timeout: seconds to wait for the client's answer (default: the configuration's ``server_request_timeout``).
        """
        from ..elicitation import elicit

        return elicit(self, message, schema, timeout)

    def create_url_elicitation(
        self, message: str, url: str, elicitation_id: str, timeout: float | None = None
    ) -> dict[str, t.Any]:
        """Send the user to ``url`` for an out-of-band interaction (protocol 2025-11-25).

        :raises CapabilityError: the client lacks ``elicitation.url``.
        :param message: why the user should visit ``url``.
        :param url: the page to send the user to.
        :param elicitation_id: an id for the elicitation, sent as ``elicitationId`` (MCP 2026-07-28 dropped
            it) and given to :meth:`notify_elicitation_complete` when it is done.
        :param timeout: seconds to wait for the client's answer (default: the configuration's ``server_request_timeout``).
        :returns: the client's answer, ``{"action": ...}``.
        """
        self._require("elicitation.url", methods.ELICITATION_CREATE)
        params = {"mode": "url", "message": message, "url": url}
        if versions.supports(self.session.version if self.session is not None else None, "elicitation_id"):
            params["elicitationId"] = elicitation_id
        return t.cast("dict[str, t.Any]", self._request(methods.ELICITATION_CREATE, params, timeout))
