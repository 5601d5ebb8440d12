"""JSON-RPC 2.0 message helpers: building responses, checking ids, encoding.

https://www.jsonrpc.org/specification
"""

from __future__ import annotations

import json
import math
import re
import typing as t

from . import error_codes

RequestId = t.Union[str, int]

# allow_nan=False: NaN and Infinity are not JSON; a strict peer could not parse the message.
_encoder = json.JSONEncoder(separators=(",", ":"), ensure_ascii=False, allow_nan=False)
#: Most messages a batch (protocol 2025-03-26) may hold; a larger one is refused whole (-32600).
MAX_BATCH_ITEMS = 256
#: Most bytes of JSON a batch's answer may reach; the requests past it are answered
#: with an error instead of being handled.
MAX_BATCH_ANSWER_BYTES = 16 * 1024 * 1024
#: Deepest nesting of arrays and objects :func:`decode` accepts: far beyond any real
#: message, far below what recursive code (validation, ``repr``, encoding) survives.
MAX_DEPTH = 100


def _refuse_constant(name: str) -> t.NoReturn:
    raise ValueError(f"{name} is not a JSON number")


def _finite_float(text: str) -> float:
    value = float(text)
    if math.isinf(value):  # 1e400: a JSON number, but one no double holds, and no encoder writes
        raise ValueError("number too large")
    return value


# parse_constant: NaN, Infinity and -Infinity are Python's extensions, not JSON (RFC 8259 section 6).
_decoder = json.JSONDecoder(parse_constant=_refuse_constant, parse_float=_finite_float)
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


def utf8(text: str) -> bytes:
    """UTF-8 of JSON text from :func:`encode`; a lone surrogate (which UTF-8 cannot hold, and
    which only a handler's own string can bring) is written as its ``\\u`` escape, the same JSON."""
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError:
        return _SURROGATE.sub(lambda match: f"\\u{ord(match.group()):04x}", text).encode("utf-8")


def decode(text: str | bytes) -> t.Any:
    """Parse JSON text, strictly: no ``NaN``/``Infinity``, no lone surrogate (``"\\ud800"``),
    nothing nested deeper than :data:`MAX_DEPTH`.

    :raises ValueError: for malformed JSON or invalid UTF-8, with a message of
        our own (safe to send back to the peer).
    """
    if not isinstance(text, str):
        text = text.decode("utf-8")  # bytes or bytearray; UnicodeDecodeError is a ValueError saying where
    try:
        try:  # the common case, one C call: a value filling the text (trailing whitespace allowed)
            value, end = _scan_once(text, 0)
            if end != len(text) and not text[end:].isspace():
                value = _parse(text)
        except StopIteration:
            value = _parse(text)
    except (ValueError, RecursionError) as error:
        replacement = _in_own_words(error)
        if replacement is None:
            raise
        raise replacement from None
    # Cheap pre-checks: only text that could hold a deep value or a surrogate escape is walked.
    # (Valid JSON nested past MAX_DEPTH opens and closes more than MAX_DEPTH brackets each.)
    # ("[" in text, a memchr, spares the second count for the many messages without an array.)
    if (
        len(text) > 2 * MAX_DEPTH
        and text.count("{") + (text.count("[") if "[" in text else 0) > MAX_DEPTH
        and type(value) in (dict, list)
        and _too_deep(value)
    ):
        raise ValueError("JSON nested too deeply")
    if "\\u" in text and ("\\ud" in text or "\\uD" in text) and _has_lone_surrogate(value):
        raise ValueError("a string holds a lone UTF-16 surrogate")
    return value


def _in_own_words(error: ValueError | RecursionError) -> ValueError | None:
    """The error :func:`decode` raises for the parser's ``error``: None to let it through as it
    is (a message safe to send back to the peer), else one of our own."""
    if isinstance(error, json.JSONDecodeError):  # says where the JSON broke, nothing else
        return None
    if isinstance(error, RecursionError):  # "[[[[..." nested past the interpreter's limit
        return ValueError("JSON nested too deeply")
    message = str(error)
    if message.endswith("is not a JSON number") or message == "number too large":
        return None
    # int() refusing a very long number: its message names sys.set_int_max_str_digits().
    return ValueError("number too long" if "digits" in message else "malformed JSON")


def _parse(text: str) -> t.Any:
    """Text the scanner alone did not read whole (leading whitespace, extra data or no value):
    the full decoder parses it or says which."""
    return _decoder.decode(text.strip()) if text[:1].isspace() or text[-1:].isspace() else _decoder.decode(text)


_SURROGATE = re.compile("[\ud800-\udfff]")


def _too_deep(value: t.Any) -> bool:
    """Whether ``value`` nests arrays and objects deeper than :data:`MAX_DEPTH`; a level at a time, no recursion."""
    level = [value]
    for _ in range(MAX_DEPTH):
        children: list[t.Any] = []
        for node in level:
            children.extend(node.values() if type(node) is dict else node)
        level = [child for child in children if type(child) is dict or type(child) is list]
        if not level:
            return False
    return True


def _has_lone_surrogate(value: t.Any) -> bool:
    """Whether a string (or key) in ``value`` holds a surrogate: json decodes a valid escaped
    pair into one character, so any surrogate left is alone."""
    stack = [value]
    while stack:
        node = stack.pop()
        kind = type(node)
        if kind is str:
            if _SURROGATE.search(node):
                return True
        elif kind is dict:
            stack.extend(node)
            stack.extend(node.values())
        elif kind is list:
            stack.extend(node)
    return False


def parse_error(detail: str | None = None) -> dict[str, t.Any]:
    """The ``-32700`` response for input that is not JSON."""
    return error(None, error_codes.PARSE_ERROR, "Parse error" + (f": {detail}" if detail else ""))
