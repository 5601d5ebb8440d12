"""JSON-RPC 2.0 message helpers: building responses, checking ids, encoding.

https://www.jsonrpc.org/specification
"""

from __future__ import annotations

import json
import typing as t

from . import error_codes

RequestId = t.Union[str, int]

# allow_nan=False: NaN and Infinity are not JSON; a strict peer could not parse the message.
_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
_decoder = json.JSONDecoder()


def is_valid_id(value: t.Any) -> bool:
    """Whether ``value`` may be a request id: a string or an integer (never bool, float or null)."""
    kind = type(value)
    return kind is str or kind is int


def result(request_id: RequestId, value: t.Any) -> dict[str, t.Any]:
    """A success response."""
    return {"jsonrpc": "2.0", "id": request_id, "result": value}


def error(
    request_id: RequestId | None, code: int, message: str | None = None, data: t.Any = None
) -> dict[str, t.Any]:
    """An error response; ``message`` defaults to the code's standard one."""
    body: dict[str, t.Any] = {"code": code, "message": message or error_codes.MESSAGES.get(code, "Error")}
    if data is not None:
        body["data"] = data
    return {"jsonrpc": "2.0", "id": request_id, "error": body}


def request(request_id: RequestId, method: str, params: t.Any = None) -> dict[str, t.Any]:
    """A request message."""
    message: dict[str, t.Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params is not None:
        message["params"] = params
    return message


def notification(method: str, params: t.Any = None) -> dict[str, t.Any]:
    """A notification message (no id, no response)."""
    message: dict[str, t.Any] = {"jsonrpc": "2.0", "method": method}
    if params is not None:
        message["params"] = params
    return message


def encode(message: t.Any) -> str:
    """Compact JSON text of a message (UTF-8 kept as is).

    :raises TypeError: for values JSON cannot represent.
    """
    return _encoder.encode(message)


def decode(text: str | bytes) -> t.Any:
    """Parse JSON text.

    :raises ValueError: for malformed JSON or invalid UTF-8.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    try:
        return _decoder.decode(text.strip()) if text[:1].isspace() or text[-1:].isspace() else _decoder.decode(text)
    except RecursionError:  # "[[[[..." nested past the interpreter's limit is malformed input, not a crash
        raise ValueError("JSON nested too deeply") from None


def parse_error(detail: str | None = None) -> dict[str, t.Any]:
    """The ``-32700`` response for input that is not JSON."""
    return error(None, error_codes.PARSE_ERROR, "Parse error" + (f": {detail}" if detail else ""))
