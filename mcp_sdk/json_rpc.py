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
# Undocumented but long-standing: what JSONDecoder.raw_decode and json.dumps call themselves.
_scan_once: t.Callable[[str, int], tuple[t.Any, int]] = getattr(_decoder, "scan_once")  # noqa: B009
_c_make_encoder: t.Any = getattr(json.encoder, "c_make_encoder", None)


def _not_serializable(value: t.Any) -> t.NoReturn:
    raise TypeError(f"Object of type {value.__class__.__name__} is not JSON serializable")


# The hot path: the C encoder json.dumps builds per call, built once, without
# circular-reference markers (a shared markers dict keeps stale ids after a
# failure). Any failure is retried on _encoder, which raises the exact error.
_fast_encode = (
    _c_make_encoder(None, _not_serializable, json.encoder.encode_basestring, None, ":", ",", False, False, False)
    if _c_make_encoder is not None
    else None
)


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
    if _fast_encode is not None:
        try:
            return "".join(_fast_encode(message, 0))
        except (TypeError, ValueError, RecursionError):
            pass
    return _encoder.encode(message)


def decode(text: str | bytes) -> t.Any:
    """Parse JSON text.

    :raises ValueError: for malformed JSON or invalid UTF-8.
    """
    if isinstance(text, (bytes, bytearray)):
        text = bytes(text).decode("utf-8")
    try:
        try:  # the common case, one C call: a value filling the text (trailing whitespace allowed)
            value, end = _scan_once(text, 0)
            if end == len(text) or text[end:].isspace():
                return value
        except StopIteration:
            pass
        # Leading whitespace, extra data or no value: the full decoder says which.
        return _decoder.decode(text.strip()) if text[:1].isspace() or text[-1:].isspace() else _decoder.decode(text)
    except RecursionError:  # "[[[[..." nested past the interpreter's limit is malformed input, not a crash
        raise ValueError("JSON nested too deeply") from None


def parse_error(detail: str | None = None) -> dict[str, t.Any]:
    """The ``-32700`` response for input that is not JSON."""
    return error(None, error_codes.PARSE_ERROR, "Parse error" + (f": {detail}" if detail else ""))
