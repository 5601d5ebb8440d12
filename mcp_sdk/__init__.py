"""mcp_sdk: a synchronous, WSGI-friendly SDK for the Model Context Protocol.

Server side: subclass :class:`Tool` and :class:`Prompt`, build a :class:`Server`,
serve it with :class:`~mcp_sdk.server.transports.StdioTransport` or mount
:class:`~mcp_sdk.server.transports.StreamableHTTPTransport` in any WSGI app.
Client side: :class:`Client` over :mod:`mcp_sdk.client` transports.

``import mcp_sdk`` stays light: werkzeug and requests load only with the
transports that use them.
"""

from __future__ import annotations

import typing as t

from .cancellation import Cancellation as Cancellation
from .configuration import Configuration as Configuration
from .configuration import configure as configure
# The function shadows the submodule's name on the package, as Ruby's MCP.configuration;
# the module itself stays reachable as sys.modules["mcp_sdk.configuration"].
from .configuration import configuration as configuration
from .content import Content as Content
from .errors import CancelledError as CancelledError
from .errors import CapabilityError as CapabilityError
from .errors import DefinitionError as DefinitionError
from .errors import InvalidNameError as InvalidNameError
from .errors import JSONRPCError as JSONRPCError
from .errors import MCPDeprecationWarning as MCPDeprecationWarning
from .errors import MCPError as MCPError
from .errors import MethodAlreadyDefinedError as MethodAlreadyDefinedError
from .errors import MissingExtraError as MissingExtraError
from .errors import NotRegisteredError as NotRegisteredError
from .errors import PromptNotUnique as PromptNotUnique
from .errors import RequestHandlerError as RequestHandlerError
from .errors import RequestTimeoutError as RequestTimeoutError
from .errors import ResourceNotFoundError as ResourceNotFoundError
from .errors import SchemaError as SchemaError
from .errors import SessionExpiredError as SessionExpiredError
from .errors import ToolNotUnique as ToolNotUnique
from .errors import TransportError as TransportError
from .errors import URLElicitationRequiredError as URLElicitationRequiredError
from .errors import ValidationError as ValidationError
from .prompt import Prompt as Prompt
from .protocol_version import LATEST_VERSION as LATEST_PROTOCOL_VERSION
from .protocol_version import SUPPORTED_VERSIONS as SUPPORTED_PROTOCOL_VERSIONS
from .resource import Resource as Resource
from .resource_template import ResourceTemplate as ResourceTemplate
from .server import Server as Server
from .server.input_required import InputRequiredResult as InputRequiredResult
from .server.tasks import RunAsTask as RunAsTask
from .server.context import ServerContext as ServerContext
from .server.session import ServerSession as ServerSession
from .tool import Tool as Tool
from .trace_context import TraceContext as TraceContext
from .version import VERSION

__version__ = VERSION

if t.TYPE_CHECKING:
    from .client import Client as Client


def __getattr__(name: str) -> t.Any:
    # The client pulls in requests; load it only when asked for.
    if name == "Client":
        from .client import Client

        return Client
    raise AttributeError(f"module 'mcp_sdk' has no attribute {name!r}")


__all__ = [
    "Cancellation",
    "CancelledError",
    "CapabilityError",
    "Client",
    "Configuration",
    "Content",
    "DefinitionError",
    "InputRequiredResult",
    "RunAsTask",
    "InvalidNameError",
    "JSONRPCError",
    "LATEST_PROTOCOL_VERSION",
    "MCPDeprecationWarning",
    "MCPError",
    "MethodAlreadyDefinedError",
    "MissingExtraError",
    "NotRegisteredError",
    "Prompt",
    "PromptNotUnique",
    "RequestHandlerError",
    "RequestTimeoutError",
    "Resource",
    "ResourceNotFoundError",
    "ResourceTemplate",
    "SUPPORTED_PROTOCOL_VERSIONS",
    "SchemaError",
    "Server",
    "ServerContext",
    "ServerSession",
    "SessionExpiredError",
    "Tool",
    "ToolNotUnique",
    "TraceContext",
    "TransportError",
    "URLElicitationRequiredError",
    "ValidationError",
    "configuration",
    "configure",
]
