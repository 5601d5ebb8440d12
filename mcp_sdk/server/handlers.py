"""The protocol's request methods: :class:`ProtocolHandlers`, one method per MCP request.

Each handler takes the :class:`~mcp_sdk.server.request.Request` and returns the
JSON-RPC ``result``; raising a :class:`~mcp_sdk.errors.RequestHandlerError`
answers with that error instead.

Why one module: it is the table of the protocol's requests, one short method for each, and a
reader looking for what ``tools/call`` or ``completion/complete`` does finds it here beside its
siblings; the machinery they share (dispatch, tasks, the registry) lives elsewhere.
"""

from __future__ import annotations

import copy
import types
import typing as t

from .. import methods
from .. import protocol_version as versions
from .._converter import to_wire
from ..errors import (
    CancelledError,
    CapabilityError,
    ClientRequestsUnavailableError,
    ElicitationContentError,
    InvalidParamsError,
    MethodNotFoundError,
    RequestHandlerError,
    ResourceNotFoundError,
    ToolResultError,
)
from ..mcp_apps import UIResource
from ..resource.uri_template import URITemplate, URITemplateError
from ..tool import Tool
from ..tool.arguments import InvalidArgumentsError
from ..tool.call_result import tool_result
from ..tool.response import Response
from .auth.scopes import completion_scopes, listen_scopes, require_scopes, resource_scopes, visible
from .input_required import InputRequiredResult
from .outside_host import recognize
from .pagination import paginate
from .request import Request
from .subscriptions import listen
from .tasks import RunAsTask, TaskManager

if t.TYPE_CHECKING:
    from .context import ServerContext
    from .core import ServerCore
    from .dispatch import Handler

#: ``completion/complete`` returns at most this many values (specification limit).
MAX_COMPLETION_VALUES = 100
#: What a client sees when a tool raises: nothing internal.
TOOL_INTERNAL_ERROR_TEXT = "Internal error occurred"
#: The answer to ``logging/setLevel`` where the level cannot outlast the request (stateless HTTP).
STATELESS_SET_LEVEL_TEXT = (
    "Method not available: logging/setLevel: this transport is stateless (StreamableHTTPTransport(stateless=True)): "
    "a level set in one request cannot reach the next; send it in each request's params._meta "
    "'io.modelcontextprotocol/logLevel'"
)


#: The arguments of a call that runs a tool's continuation rather than the tool itself (never read).
_NO_ARGUMENTS: t.Mapping[str, t.Any] = types.MappingProxyType({})


def _params(request: Request) -> dict[str, t.Any]:
    params = request.params
    if params is None:
        return {}
    if type(params) is not dict:
        raise InvalidParamsError("Invalid params: expected an object")
    return params


def _string_param(params: dict[str, t.Any], name: str) -> str:
    value = params.get(name)
    if type(value) is not str:
        raise InvalidParamsError(f"Invalid params: missing string '{name}'" if value is None else f"Invalid params: '{name}' must be a string")
    return value


class ProtocolHandlers:
    """The handlers of the protocol's requests for one server.

    :param core: the server.
    :param tasks: the server's tasks (``tools/call`` may start one; ``tasks/*`` read them).
    """

    def __init__(self, core: ServerCore, tasks: TaskManager) -> None:
        self.core = core
        self.tasks = tasks

    def methods(self) -> dict[str, Handler]:
        """Method -> handler, for every request the protocol defines."""
        return {
            methods.INITIALIZE: self._initialize,
            methods.PING: self._ping,
            methods.LOGGING_SET_LEVEL: self._set_log_level,
            methods.TOOLS_LIST: self._list_tools,
            methods.TOOLS_CALL: self._call_tool,
            methods.PROMPTS_LIST: self._list_prompts,
            methods.PROMPTS_GET: self._get_prompt,
            methods.RESOURCES_LIST: self._list_resources,
            methods.RESOURCES_READ: self._read_resource,
            methods.RESOURCES_TEMPLATES_LIST: self._list_resource_templates,
            methods.RESOURCES_SUBSCRIBE: self._subscribe,
            methods.RESOURCES_UNSUBSCRIBE: self._unsubscribe,
            methods.COMPLETION_COMPLETE: self._complete,
            methods.SERVER_DISCOVER: self._discover,
            methods.SUBSCRIPTIONS_LISTEN: self._listen,
            methods.TASKS_GET: self.tasks.get,
            methods.TASKS_UPDATE: self.tasks.update,
            methods.TASKS_CANCEL: self.tasks.cancel,
        }

    def _initialize(self, request: Request) -> dict[str, t.Any]:
        params = _params(request)
        requested = params.get("protocolVersion")
        if type(requested) is not str:
            raise InvalidParamsError("Invalid params: missing string 'protocolVersion'")
        latest = self.core.configuration.protocol_version
        supported = versions.SUPPORTED_VERSIONS
        negotiated = requested if requested in supported and supported.index(requested) <= supported.index(latest) else latest
        session = request.session
        session.protocol_version = negotiated
        client_info = params.get("clientInfo")
        session.client_info = client_info if isinstance(client_info, dict) else None
        client_capabilities = params.get("capabilities")
        session.client_capabilities = client_capabilities if isinstance(client_capabilities, dict) else {}
        capabilities = self.core.capabilities_for(negotiated)
        if not session.keeps_log_level and "logging" in capabilities:
            # Stateless HTTP: a 2025 client sends logging/setLevel once, in a POST of its own, and
            # that level can never reach a later request: advertising logging would promise logs
            # that never come. (A request may still ask for them in its _meta: requested_log_level.)
            capabilities = {key: value for key, value in capabilities.items() if key != "logging"}
        result: dict[str, t.Any] = {
            "protocolVersion": negotiated,
            "capabilities": capabilities,
            "serverInfo": versions.filter_fields("implementation", self.core.server_info(), negotiated),
        }
        if self.core.instructions is not None:
            result["instructions"] = self.core.instructions
        return result

    def _ping(self, request: Request) -> dict[str, t.Any]:
        return {}

    def _discover(self, request: Request) -> dict[str, t.Any]:
        """``server/discover`` (2026-07-28): versions, capabilities, identity (in ``_meta``), instructions."""
        result: dict[str, t.Any] = {
            "supportedVersions": list(versions.MODERN_VERSIONS),
            "capabilities": self.core.capabilities_for(request.session.version),
        }
        if self.core.instructions is not None:
            result["instructions"] = self.core.instructions
        return result

    def _set_log_level(self, request: Request) -> dict[str, t.Any]:
        level = _params(request).get("level")
        if type(level) is not str or level not in methods.LOG_SEVERITY:
            raise InvalidParamsError(f"Invalid log level {level!r}: use one of {', '.join(methods.LOG_LEVELS)}")
        if not request.session.keeps_log_level:
            raise MethodNotFoundError(STATELESS_SET_LEVEL_TEXT)
        request.session.log_level = level
        return {}

    def _listen(self, request: Request) -> dict[str, t.Any]:
        principal = request.session.auth
        registry = self.core.registry
        require_scopes(principal, listen_scopes(registry, request.params))

        def may_see(uri: str) -> bool:  # checked again per update: a scoped resource may be added later
            return principal is None or principal.has_scopes(resource_scopes(registry, uri))

        return listen(request, self.core.subscriptions, self.tasks, may_see)

    # -- tools ---------------------------------------------------------------

    def _list_tools(self, request: Request) -> dict[str, t.Any]:
        return self._list_page(request, "tools")

    def _call_tool(self, request: Request) -> dict[str, t.Any]:
        params = request.params
        if type(params) is not dict:
            params = _params(request)
        name = params.get("name")
        if type(name) is not str:
            name = _string_param(params, "name")
        data = request.data
        data["tool_name"] = name
        core = self.core
        tool = core.registry.tools.get(name)
        if tool is None:
            data["error"] = "tool_not_found"
            raise InvalidParamsError(f"Tool not found: {name}", data={"name": name})
        if tool.required_scopes:
            require_scopes(request.session.auth, tool.required_scopes)
        validate = core.configuration.validate_tool_call_arguments
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        elif type(arguments) is not dict:
            data["error"] = "invalid_params"
            raise InvalidParamsError("Invalid params: 'arguments' must be an object")
        elif validate and tool.input_schema.fills_defaults:
            # validation fills in the schema's defaults: into a copy, not the request (a requestState binds its arguments)
            arguments = copy.deepcopy(arguments)
        data["tool_arguments"] = arguments
        if validate:
            problem = tool.input_schema.errors(arguments)
            if problem is not None:
                data["error"] = "invalid_arguments"
                return _tool_error(f"Invalid arguments: {problem}")
        if tool.task is not None and self.tasks.should_run(request.session, tool.task == "required"):
            return self._start_task(request, tool, arguments)
        context = request.server_context() if tool.accepts_server_context() else None
        return self._tool_outcome(request, tool, context, arguments)

    # The closures that run a tool as a task are made in methods of their own: a closure in
    # _call_tool or _tool_outcome would make cells of their variables on every call.

    def _start_task(self, request: Request, tool: type[Tool], arguments: t.Mapping[str, t.Any]) -> dict[str, t.Any]:
        return self.tasks.start(request, lambda context: self._tool_outcome(request, tool, context, arguments))

    def _continue_as_task(self, request: Request, tool: type[Tool], then: t.Callable[[t.Any], t.Any]) -> dict[str, t.Any]:
        return self.tasks.start(request, lambda task: self._tool_outcome(request, tool, task, work=then))

    def _tool_outcome(
        self,
        request: Request,
        tool: type[Tool],
        context: ServerContext | None,
        arguments: t.Mapping[str, t.Any] = _NO_ARGUMENTS,
        work: t.Callable[[t.Any], t.Any] | None = None,
    ) -> dict[str, t.Any]:
        """The ``tools/call`` result of ``tool`` invoked with ``arguments`` (or of ``work(context)``, the
        continuation it returned as :class:`RunAsTask`): a result, an :class:`InputRequiredResult`,
        or a ``CreateTaskResult`` when it returns :class:`RunAsTask` (a task's own context runs the
        continuation at once)."""
        version = request.session.version
        try:
            returned = tool.invoke(arguments, context) if work is None else work(context)
            kind = type(returned)
            if kind is not Response and kind is not str:  # the usual returns are neither of these: two tests fewer
                if isinstance(returned, RunAsTask):
                    then = returned.function
                    if self._runs_as_task(request, context, returned):
                        return self._continue_as_task(request, tool, then)
                    returned = then(context if context is not None else request.server_context())
                if isinstance(returned, InputRequiredResult):
                    return returned  # type: ignore[return-value]  # the caller asks the client (MRTR)
            result = tool_result(tool.tool_name, returned)
        except (RequestHandlerError, CancelledError):
            raise
        except Exception as error:
            return self._tool_failure(request, error)
        if tool.output_schema is not None and self.core.configuration.validate_tool_call_results and not result.get("isError"):
            self._check_structured_content(tool, result)
        if version in versions.FILTERED_VERSIONS:  # the latest version keeps every field
            result = versions.filter_fields("call_tool_result", result, version)
            if version in versions.OLDER_CONTENT_VERSIONS and type(result.get("content")) is list:
                result["content"] = versions.content_for(result["content"], version)
        return result

    def _runs_as_task(self, request: Request, context: ServerContext | None, returned: RunAsTask) -> bool:
        """Whether the continuation a tool returned runs as a task of the session it belongs to
        (the client asked for one, or the tool requires one) rather than at once."""
        session = context.session if context is not None and context.session is not None else request.session
        return self.tasks.should_run(session, returned.required)

    def _tool_failure(self, request: Request, error: Exception) -> dict[str, t.Any]:
        """The ``isError`` result of a tool call that raised ``error``, its kind noted in
        ``request.data["error"]`` and, unless the arguments were at fault, reported."""
        data = request.data
        if isinstance(error, InvalidArgumentsError):  # a parameter's model refused its argument: as a schema failure
            data["error"] = "invalid_arguments"
            return _tool_error(str(error))
        if isinstance(error, ElicitationContentError):  # the client's answer did not fit the form: its words name the field
            data["error"] = "invalid_elicitation_content"
            self.core.report_exception(error, {"request": request.message})
            return _tool_error(str(error))
        if isinstance(error, ClientRequestsUnavailableError):  # the transport's lack: its words say why (no secrets in them)
            data["error"] = "client_requests_unavailable"
            self.core.report_exception(error, {"request": request.message})
            return _tool_error(str(error))
        if isinstance(error, CapabilityError):  # the client's lack, not a bug: say which capability (no secrets in it)
            data["error"] = "missing_client_capability"
            self.core.report_exception(error, {"request": request.message})
            return _tool_error(f"{error}: this tool needs a capability the client did not declare")
        if isinstance(error, ToolResultError):  # the SDK found the tool's mistake: say it in the SDK's words
            data["error"] = "invalid_tool_result"
            self.core.report_exception(error, {"request": request.message})
            return _tool_error(error.client_message)
        # The tool's own failure: report it, tell the client nothing internal.
        outside = recognize(error)
        if outside is not None:  # a mounting mistake the SDK can name: its words, to both
            outside.__cause__ = error
            data["error"] = "outside_host_context"
            self.core.report_exception(outside, {"request": request.message})
            return _tool_error(str(outside))
        data["error"] = "internal_error"
        self.core.report_exception(error, {"request": request.message})
        return _tool_error(TOOL_INTERNAL_ERROR_TEXT)

    def _check_structured_content(self, tool: type[Tool], result: dict[str, t.Any]) -> None:
        assert tool.output_schema is not None
        problem: str | None
        if "structuredContent" not in result:
            problem = "the tool has an output schema but returned no structuredContent"
        else:
            problem = tool.output_schema.errors(result["structuredContent"])
        if problem is not None:
            raise RequestHandlerError(f"Invalid structured content from tool {tool.tool_name}: {problem}")

    # -- prompts -------------------------------------------------------------

    def _list_prompts(self, request: Request) -> dict[str, t.Any]:
        return self._list_page(request, "prompts")

    def _get_prompt(self, request: Request) -> dict[str, t.Any]:
        params = _params(request)
        name = _string_param(params, "name")
        prompt = self.core.registry.prompts.get(name)
        if prompt is None:
            request.data["error"] = "prompt_not_found"
            raise InvalidParamsError(f"Prompt not found: {name}", data={"name": name})
        request.data["prompt_name"] = name
        require_scopes(request.session.auth, prompt.required_scopes)
        arguments = params.get("arguments")
        if arguments is None:
            arguments = {}
        elif type(arguments) is not dict:
            raise InvalidParamsError("Invalid params: 'arguments' must be an object")
        missing = prompt.missing_arguments(arguments)
        if missing:
            request.data["error"] = "missing_required_arguments"
            raise InvalidParamsError(f"Missing required arguments: {', '.join(missing)}", data={"missing": missing})
        context = request.server_context() if prompt.accepts_server_context() else None
        returned = prompt.invoke(arguments, context)
        if isinstance(returned, InputRequiredResult):
            return returned  # type: ignore[return-value]  # the caller asks the client (MRTR)
        result = to_wire(returned)
        if not isinstance(result, dict) or not isinstance(result.get("messages"), list):
            raise TypeError(f"prompt {name} returned {type(result).__name__}, not a Prompt.Result")
        version = request.session.version
        if version in versions.OLDER_CONTENT_VERSIONS:
            result = {  # a new dict: the prompt's own value is never changed
                **result,
                "messages": [
                    {**message, "content": versions.content_for([message["content"]], version)[0]}
                    if isinstance(message, dict) and "content" in message
                    else message
                    for message in result["messages"]
                ],
            }
        return t.cast("dict[str, t.Any]", result)

    # -- resources -----------------------------------------------------------

    def _list_resources(self, request: Request) -> dict[str, t.Any]:
        return self._list_page(request, "resources")

    def _list_resource_templates(self, request: Request) -> dict[str, t.Any]:
        return self._list_page(request, "resourceTemplates")

    def _read_resource(self, request: Request) -> dict[str, t.Any]:
        params = _params(request)
        uri = _string_param(params, "uri")
        request.data["resource_uri"] = uri
        if self.core.registry.hides(uri):  # disabled, removed from view by the tag filters: as if unknown
            request.data["error"] = "resource_not_found"
            raise ResourceNotFoundError(uri, params)
        require_scopes(request.session.auth, resource_scopes(self.core.registry, uri))
        listed = next((r for r in self.core.registry.resources if r.uri == uri), None)
        if isinstance(listed, UIResource):  # an MCP Apps view carries its own contents
            return {"contents": [item.to_dict() for item in listed.contents()]}
        handler = self.core.registry.handlers.get("resources_read")
        if handler is None:
            if uri in self.core.registry.resource_uris():
                return {"contents": []}
            request.data["error"] = "resource_not_found"
            raise ResourceNotFoundError(uri, params)
        try:
            returned = self._call_handler("resources_read", request, params)
        except ResourceNotFoundError:
            request.data["error"] = "resource_not_found"
            raise
        if isinstance(returned, InputRequiredResult):
            return returned  # type: ignore[return-value]  # the caller asks the client (MRTR)
        return {"contents": _resource_contents(returned)}

    def _subscribe(self, request: Request) -> dict[str, t.Any]:
        return self._subscription(request, "resources_subscribe")

    def _unsubscribe(self, request: Request) -> dict[str, t.Any]:
        return self._subscription(request, "resources_unsubscribe")

    def _subscription(self, request: Request, handler_name: str) -> dict[str, t.Any]:
        """``resources/(un)subscribe``: the user's handler, if any, is told; the answer is empty."""
        params = _params(request)
        request.data["resource_uri"] = uri = _string_param(params, "uri")
        if handler_name == "resources_subscribe":
            if self.core.registry.hides(uri):  # as resources/read answers it: as if unknown
                request.data["error"] = "resource_not_found"
                raise ResourceNotFoundError(uri, params)
            require_scopes(request.session.auth, resource_scopes(self.core.registry, uri))
        if self.core.registry.handlers.get(handler_name) is not None:
            self._call_handler(handler_name, request, params)
        return {}

    # -- completion ----------------------------------------------------------

    def _complete(self, request: Request) -> dict[str, t.Any]:
        params = _params(request)
        ref = params.get("ref")
        argument = params.get("argument")
        if not isinstance(ref, dict) or not isinstance(argument, dict):
            raise InvalidParamsError("Invalid params: 'ref' and 'argument' must be objects")
        if type(argument.get("name")) is not str or type(argument.get("value")) is not str:
            raise InvalidParamsError("Invalid params: 'argument' needs string 'name' and 'value'")
        self._check_completion_ref(ref, argument["name"])
        require_scopes(request.session.auth, completion_scopes(self.core.registry, ref))
        if self.core.registry.handlers.get("completion") is None:
            return {"completion": {"values": [], "hasMore": False}}
        return {"completion": _completion(self._call_handler("completion", request, params))}

    def _check_completion_ref(self, ref: dict[str, t.Any], argument: str) -> None:
        """Refuse a ``completion/complete`` whose ``ref`` names no prompt, resource or template
        here, or a template without the variable ``argument``.

        :raises InvalidParamsError: saying which.
        """
        kind = ref.get("type")
        if kind == "ref/prompt":
            name = ref.get("name")
            if type(name) is not str or name not in self.core.registry.prompts:
                raise InvalidParamsError(f"Prompt not found: {name}", data={"name": name})
        elif kind == "ref/resource":
            uri = ref.get("uri")
            if type(uri) is not str or (
                uri not in self.core.registry.resource_uris() and uri not in {tpl.uri_template for tpl in self.core.registry.resource_templates}
            ):
                raise InvalidParamsError(f"Resource not found: {uri}", data={"uri": uri})
            variables = _template_variables(uri)
            if variables is not None and argument not in variables:
                raise InvalidParamsError(
                    f"Invalid params: resource template {uri} has no variable {argument!r}",
                    data={"uri": uri, "argument": argument},
                )
        else:
            raise InvalidParamsError(f"Invalid params: unknown ref type {kind!r}")


    # -- shared --------------------------------------------------------------

    def _list_page(self, request: Request, kind: str) -> dict[str, t.Any]:
        items = visible(self.core.registry, kind, self.core.registry.listing(kind, request.session.version), request.session.auth)
        page, next_cursor = paginate(items, request.params, self.core.page_size)
        result: dict[str, t.Any] = {kind: page}
        if next_cursor is not None:
            result["nextCursor"] = next_cursor
        return result

    def _call_handler(self, name: str, request: Request, params: dict[str, t.Any]) -> t.Any:
        handler, signature = self.core.registry.handlers[name]
        if signature.accepts_server_context:
            return handler(params, server_context=request.server_context())
        return handler(params)


def _completion(returned: t.Any) -> dict[str, t.Any]:
    """The ``completion`` of a ``completion/complete`` result, from what the handler returned
    (a ``{"completion": ...}`` result, the completion itself, or its list of values).

    :raises TypeError: the handler's mistakes, reported as ``-32603``, never a result the client
        cannot parse.
    """
    completion = returned.get("completion", returned) if isinstance(returned, dict) else {"values": returned}
    if not isinstance(completion, dict):
        raise TypeError(f"completion handler returned {type(completion).__name__}, not a dict")
    raw_values = completion.get("values")
    if raw_values is not None and not isinstance(raw_values, (list, tuple)):
        raise TypeError(f"completion values must be a list of strings, not {type(raw_values).__name__}")
    values = list(raw_values or [])
    if not all(type(value) is str for value in values):
        raise TypeError("completion values must be a list of strings")
    result: dict[str, t.Any] = {"values": values[:MAX_COMPLETION_VALUES]}
    total = completion.get("total")
    if total is not None and (type(total) is not int or total < 0):
        raise TypeError(f"completion total must be a non-negative integer, not {total!r}")
    if len(values) > MAX_COMPLETION_VALUES:
        result["total"] = total if total is not None else len(values)
        result["hasMore"] = True
    else:
        if total is not None:
            result["total"] = total
        has_more = completion.get("hasMore", False)
        if type(has_more) is not bool:
            raise TypeError(f"completion hasMore must be a boolean, not {has_more!r}")
        result["hasMore"] = has_more
    return result


def _resource_contents(returned: t.Any) -> list[t.Any]:
    """The ``contents`` of a ``resources/read`` result, from what the handler returned (a result
    with ``contents``, a list of contents, one content, or None).

    :raises TypeError: an item without a string ``uri``: the handler's mistake, reported as
        ``-32603``, never an invalid result.
    """
    if isinstance(returned, dict) and "contents" in returned:
        returned = returned["contents"]
    if returned is None:
        returned = []
    if not isinstance(returned, (list, tuple)):
        returned = [returned]
    contents = [to_wire(item) for item in returned]
    for item in contents:
        if not isinstance(item, dict) or type(item.get("uri")) is not str:
            raise TypeError(f"resources_read handler gave {type(item).__name__} content without a string 'uri'")
    return contents


def _template_variables(uri: str) -> list[str] | None:
    """The variables of ``uri`` as an RFC 6570 template; None for a plain URI or a malformed template."""
    try:
        template = URITemplate(uri)
    except URITemplateError:
        return None
    return template.variable_names if template.is_template() else None


def _tool_error(text: str) -> dict[str, t.Any]:
    return {"content": [{"type": "text", "text": text}], "isError": True}


__all__ = ["MAX_COMPLETION_VALUES", "STATELESS_SET_LEVEL_TEXT", "TOOL_INTERNAL_ERROR_TEXT", "ProtocolHandlers"]
