"""JSON-RPC 2.0 and MCP error codes, in one place.

https://www.jsonrpc.org/specification#error_object and the MCP specification's
schema (``URL_ELICITATION_REQUIRED`` is SEP-1036).
"""

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603

#: A tool needs the user to finish an out-of-band URL elicitation first (2025-11-25 only).
URL_ELICITATION_REQUIRED = -32042

# 2026-07-28: -32020 to -32099 belong to the MCP specification.
#: HTTP headers disagree with the body, or a required one is missing or malformed.
HEADER_MISMATCH = -32020
#: The request needs a client capability its ``_meta`` did not declare.
MISSING_REQUIRED_CLIENT_CAPABILITY = -32021
#: The request's protocol version is not one the server serves.
UNSUPPORTED_PROTOCOL_VERSION = -32022

#: Standard messages for the codes above.
MESSAGES = {
    PARSE_ERROR: "Parse error",
    INVALID_REQUEST: "Invalid Request",
    METHOD_NOT_FOUND: "Method not found",
    INVALID_PARAMS: "Invalid params",
    INTERNAL_ERROR: "Internal error",
    URL_ELICITATION_REQUIRED: "URL elicitation required",
    HEADER_MISMATCH: "Header mismatch",
    MISSING_REQUIRED_CLIENT_CAPABILITY: "Missing required client capability",
    UNSUPPORTED_PROTOCOL_VERSION: "Unsupported protocol version",
}

#: HTTP status of a 2026-07-28 request answered with one of these errors (others: 200).
MODERN_HTTP_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    MISSING_REQUIRED_CLIENT_CAPABILITY: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
}
