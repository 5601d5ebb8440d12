"""JSON-RPC 2.0 and MCP error codes, in one place.

https://www.jsonrpc.org/specification#error_object and the MCP specification's
schema (``URL_ELICITATION_REQUIRED`` is SEP-1036).
"""

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: A tool needs the user to finish an out-of-band URL elicitation first.
URL_ELICITATION_REQUIRED = -32042

#: Standard messages for the codes above.
MESSAGES = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid Request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    URL_ELICITATION_REQUIRED: "URL elicitation required",
}
