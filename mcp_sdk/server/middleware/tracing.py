"""An OpenTelemetry span per request, as the MCP semantic conventions name it (the ``[otel]`` extra).

The conventions: https://opentelemetry.io/docs/specs/semconv/gen-ai/mcp/ (server span). The
span's parent is the W3C trace context the client put in ``params._meta`` (SEP-414), read with
the configured propagators, when that caller is trusted with it; the span current when the
request arrived (an HTTP server span, say) becomes a link. Without an OpenTelemetry SDK
configured, a request costs a clock read and nothing is recorded.

**Whose context is a parent.** A parent-based sampler (OpenTelemetry's default) samples a span
whose remote parent says "sampled": a caller that may choose the parent chooses the trace id and
whether the operator's backend records its requests, whatever ratio the operator set. So, as
OpenTelemetry advises for untrusted input, the context of a caller not trusted with it is kept
as a *link*: the span starts from the context current in the server (its HTTP span, or none),
and the operator's sampler decides. By default the trusted callers are the authenticated ones
(a :class:`~mcp_sdk.server.auth.Principal`) and the process that runs the server itself (stdio,
in process: no HTTP request); ``trust_remote_parent=`` says otherwise.

**The session id.** An unauthenticated 2025 server's ``Mcp-Session-Id`` is the only thing
standing between a session and anyone who reads it, and spans are read far from the server: the
span carries a keyed digest of it (HMAC-SHA-256, 128 bits in hex) that correlates one session's
requests without revealing the id.
"""

from __future__ import annotations

import hashlib
import hmac
import secrets
import typing as t
from time import monotonic as _monotonic

from ... import error_codes, methods
from ..._otel import import_otel
from ...errors import CancelledError, RequestHandlerError
from ...trace_context import TraceContext
from ...version import VERSION
from .chain import CallNext, Middleware

if t.TYPE_CHECKING:
    from ..request import Request

#: The instrumentation scope of the spans.
TRACER_NAME = "mcp_sdk"
#: While no SDK is configured, seconds between look-ups of the global tracer provider.
LOOK_AGAIN_SECONDS = 1.0
#: Methods whose ``params.uri`` is ``mcp.resource.uri``.
_RESOURCE_METHODS = frozenset({methods.RESOURCES_READ, methods.RESOURCES_SUBSCRIBE, methods.RESOURCES_UNSUBSCRIBE})
_INTERNAL_ERROR = str(error_codes.INTERNAL_ERROR)
#: The fewest bytes a ``session_id_key`` may have.
MIN_SESSION_ID_KEY_BYTES = 16

#: ``trust_remote_parent`` as a function: whether this request's caller may parent its span.
TrustPolicy = t.Callable[["Request"], bool]


def local_or_authenticated(request: Request) -> bool:
    """The default ``trust_remote_parent``: the caller is authenticated, or is the process that runs
    the server (stdio, or in process: the request came with no HTTP request).

    :param request: the request whose ``_meta`` carries a trace context.
    :returns: whether that context may be the span's parent.
    """
    return request.principal is not None or request.http_request is None


class Tracing(Middleware):
    """Records one ``SERVER`` span per request, named ``"{method} {tool or prompt}"``.

    Attributes (when they apply): ``mcp.method.name``, ``gen_ai.tool.name`` and
    ``gen_ai.operation.name`` (``execute_tool``) for ``tools/call``, ``gen_ai.prompt.name`` for
    ``prompts/get``, ``mcp.resource.uri``, ``jsonrpc.request.id``, ``mcp.protocol.version``,
    ``mcp.session.id`` (a keyed digest of the 2025 session id, never the id), ``network.transport`` (``tcp`` over HTTP, else ``pipe``) and
    ``network.protocol.name`` (``http``). A JSON-RPC error sets ``error.type`` and
    ``rpc.response.status_code`` to its code and the span's status to ``ERROR`` with its
    message; a tool's ``isError`` result sets ``error.type`` to ``tool_error``; an unexpected
    exception is recorded on the span and answered -32603.

    Add it first, so that it sees what the other middleware answers.

    :param tracer_provider: where spans go (default: the global one; while none is configured,
        nothing is done, and one configured later is found within :data:`LOOK_AGAIN_SECONDS`).
    :param resource_uri_in_name: name ``resources/*`` spans ``"{method} {uri}"`` (off by default,
        as the conventions advise: URIs make many span names).
    :param trust_remote_parent: whose ``_meta`` trace context becomes the span's parent (and so
        decides, through a parent-based sampler, whether the span is recorded): True for every
        caller, False for none, or ``fn(request) -> bool``. Default
        :func:`local_or_authenticated`. An untrusted caller's context is a link of the span.
    :param session_id_key: the key of the session id's digest (``mcp.session.id``), at least
        :data:`MIN_SESSION_ID_KEY_BYTES` bytes. Default: random, this process's own; give every
        process the same key to correlate a session's spans across processes.
    :raises ~mcp_sdk.MissingExtraError: opentelemetry-api is not installed (``mcp_sdk[otel]``).
    :raises TypeError: ``trust_remote_parent`` neither a bool nor callable; ``session_id_key`` not bytes.
    :raises ValueError: ``session_id_key`` shorter than :data:`MIN_SESSION_ID_KEY_BYTES`.
    """

    def __init__(
        self,
        tracer_provider: t.Any = None,
        resource_uri_in_name: bool = False,
        *,
        trust_remote_parent: bool | TrustPolicy = local_or_authenticated,
        session_id_key: bytes | None = None,
    ) -> None:
        if type(trust_remote_parent) is not bool and not callable(trust_remote_parent):
            raise TypeError(f"trust_remote_parent must be a bool or fn(request) -> bool, not {trust_remote_parent!r}")
        if session_id_key is None:
            session_id_key = secrets.token_bytes(32)
        elif not isinstance(session_id_key, bytes):
            raise TypeError(f"session_id_key must be bytes, not {type(session_id_key).__name__}")
        elif len(session_id_key) < MIN_SESSION_ID_KEY_BYTES:
            raise ValueError(f"session_id_key must have at least {MIN_SESSION_ID_KEY_BYTES} bytes")
        self._trace, self._propagate = import_otel()
        self.resource_uri_in_name = resource_uri_in_name
        #: Whose ``_meta`` trace context may parent a span (see the class's parameters).
        self.trust_remote_parent = trust_remote_parent
        self._session_id_key = session_id_key
        self._inactive = (self._trace.ProxyTracerProvider, self._trace.NoOpTracerProvider)
        # The tracer once a provider is in use (the global one is set once and never replaced);
        # until then, when to look for one again: a look-up reads os.environ.
        self._tracer: t.Any = None if tracer_provider is None else tracer_provider.get_tracer(TRACER_NAME, VERSION)
        self._next_look = 0.0

    def __call__(self, request: Request, call_next: CallNext) -> t.Any:
        tracer = self._tracer
        if tracer is None and (self._next_look > _monotonic() or (tracer := self._find_tracer()) is None):
            return call_next(request)  # no SDK configured: the path a request takes is kept short
        name, attributes = self._describe(request)
        parent, links = self._parent(request)
        trace = self._trace
        with tracer.start_as_current_span(
            name,
            context=parent,
            kind=trace.SpanKind.SERVER,
            attributes=attributes,
            links=links,
            record_exception=False,
            set_status_on_exception=False,
        ) as span:
            try:
                result = call_next(request)
            except RequestHandlerError as error:
                self._fail(span, str(error.code), error.message)
                raise
            except CancelledError:
                span.set_attribute("error.type", "cancelled")
                raise
            except Exception as error:  # the dispatcher answers it -32603
                span.record_exception(error)
                self._fail(span, _INTERNAL_ERROR, error_codes.MESSAGES[error_codes.INTERNAL_ERROR])
                raise
            if type(result) is dict:
                if request.method == methods.TOOLS_CALL and result.get("isError") is True:
                    span.set_attribute("error.type", "tool_error")
                    span.set_status(trace.Status(trace.StatusCode.ERROR))
                elif request.method == methods.INITIALIZE and "mcp.protocol.version" not in attributes:
                    version = result.get("protocolVersion")
                    if type(version) is str:
                        span.set_attribute("mcp.protocol.version", version)
            return result

    def _find_tracer(self) -> t.Any:
        """The global provider's tracer, once an SDK is configured (else None, until the next look)."""
        self._next_look = _monotonic() + LOOK_AGAIN_SECONDS
        provider = self._trace.get_tracer_provider()
        if isinstance(provider, self._inactive):
            return None
        tracer = self._tracer = provider.get_tracer(TRACER_NAME, VERSION)
        return tracer

    def _describe(self, request: Request) -> tuple[str, dict[str, t.Any]]:
        """The span's name and attributes at its start."""
        method = request.method
        attributes: dict[str, t.Any] = {"mcp.method.name": method}
        name = method
        params = request.params if type(request.params) is dict else {}
        target = params.get("name")
        if method == methods.TOOLS_CALL and type(target) is str:
            attributes["gen_ai.tool.name"] = target
            attributes["gen_ai.operation.name"] = "execute_tool"
            name = f"{method} {target}"
        elif method == methods.PROMPTS_GET and type(target) is str:
            attributes["gen_ai.prompt.name"] = target
            name = f"{method} {target}"
        elif method in _RESOURCE_METHODS and type(params.get("uri")) is str:
            attributes["mcp.resource.uri"] = params["uri"]
            if self.resource_uri_in_name:
                name = f"{method} {params['uri']}"
        if request.id is not None:
            attributes["jsonrpc.request.id"] = str(request.id)
        session = request.session
        if session.protocol_version is not None:
            attributes["mcp.protocol.version"] = session.protocol_version
        if session.session_id is not None:
            attributes["mcp.session.id"] = self.session_digest(session.session_id)
        if request.http_request is not None:
            attributes["network.transport"] = "tcp"
            attributes["network.protocol.name"] = "http"
        else:
            attributes["network.transport"] = "pipe"
        return name, attributes

    def session_digest(self, session_id: str) -> str:
        """What spans say for ``session_id``: its HMAC-SHA-256 under ``session_id_key``, 32 hex digits.

        :param session_id: a 2025 session's ``Mcp-Session-Id``.
        :returns: the same digest for the same id (and key), revealing nothing of the id.
        """
        text = session_id.encode("utf-8", "surrogatepass")
        return hmac.new(self._session_id_key, text, hashlib.sha256).hexdigest()[:32]

    def _trusts(self, request: Request) -> bool:
        """Whether ``request``'s caller may choose its span's parent (``trust_remote_parent``)."""
        policy = self.trust_remote_parent
        return policy if type(policy) is bool else bool(policy(request))

    def _parent(self, request: Request) -> tuple[t.Any, t.Any]:
        """The span's parent context and links: a trusted caller's ``_meta`` context is the parent
        (the ambient span a link); an untrusted one's only a link (the ambient context the parent).
        (None, None) without a valid context in ``_meta``."""
        meta = request.meta
        if not meta or type(meta.get(TraceContext.TRACEPARENT_META_KEY)) is not str:
            return None, None
        carrier = {key: meta[key] for key in TraceContext.META_KEYS if type(meta.get(key)) is str}
        trace = self._trace
        try:
            context = self._propagate.extract(carrier)
        except (TypeError, ValueError):  # a propagator that chokes on a malformed header
            return None, None
        remote = trace.get_current_span(context).get_span_context()
        if not remote.is_valid:
            return None, None
        if not self._trusts(request):
            return None, [trace.Link(remote)]
        ambient = trace.get_current_span().get_span_context()
        return context, ([trace.Link(ambient)] if ambient.is_valid else None)

    def _fail(self, span: t.Any, code: str, message: str) -> None:
        span.set_attribute("error.type", code)
        span.set_attribute("rpc.response.status_code", code)
        span.set_status(self._trace.Status(self._trace.StatusCode.ERROR, message))


__all__ = ["LOOK_AGAIN_SECONDS", "MIN_SESSION_ID_KEY_BYTES", "TRACER_NAME", "Tracing", "TrustPolicy", "local_or_authenticated"]
