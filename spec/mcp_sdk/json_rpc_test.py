"""json_rpc: message builders, id rules, encoding and decoding."""

from __future__ import annotations

import pytest

from mcp_sdk import error_codes, json_rpc


@pytest.mark.parametrize("value, valid", [(0, True), ("0", True), (-1, True), ("", True), (None, False), (1.0, False), (True, False), ([1], False), ({}, False)])
def test_ids_are_strings_or_integers(value, valid):
    assert json_rpc.is_valid_id(value) is valid


def test_result():
    assert json_rpc.result(0, {"a": 1}) == {"jsonrpc": "2.0", "id": 0, "result": {"a": 1}}


def test_error_defaults_to_the_codes_standard_message():
    assert json_rpc.error("x", error_codes.METHOD_NOT_FOUND) == {
        "jsonrpc": "2.0",
        "id": "x",
        "error": {"code": -32601, "message": "Method not found"},
    }


def test_error_with_message_and_data():
    assert json_rpc.error(None, -32000, "Custom", {"k": 1}) == {
        "jsonrpc": "2.0",
        "id": None,
        "error": {"code": -32000, "message": "Custom", "data": {"k": 1}},
    }


def test_request_and_notification_leave_out_missing_params():
    assert json_rpc.request(1, "ping") == {"jsonrpc": "2.0", "id": 1, "method": "ping"}
    assert json_rpc.request(1, "x", {}) == {"jsonrpc": "2.0", "id": 1, "method": "x", "params": {}}
    assert json_rpc.notification("n") == {"jsonrpc": "2.0", "method": "n"}
    assert json_rpc.notification("n", {"a": 1}) == {"jsonrpc": "2.0", "method": "n", "params": {"a": 1}}


def test_encode_is_compact_and_keeps_unicode():
    assert json_rpc.encode({"a": [1, "é"]}) == '{"a":[1,"é"]}'


def test_encode_refuses_what_json_cannot_represent():
    with pytest.raises(TypeError):
        json_rpc.encode({"a": {1, 2}})


@pytest.mark.parametrize("number", [float("nan"), float("inf"), float("-inf")])
def test_encode_refuses_numbers_json_has_not(number):
    with pytest.raises(ValueError):
        json_rpc.encode({"a": number})


@pytest.mark.parametrize("text", ['{"a":1}', b'{"a":1}', ' {"a":1}\n', bytearray(b'{"a":1}')])
def test_decode_accepts_text_bytes_and_surrounding_whitespace(text):
    assert json_rpc.decode(text) == {"a": 1}


@pytest.mark.parametrize("text", ["", "{", b"\xff", "[" * 100_000, "{} {}"])
def test_decode_raises_value_error_for_anything_else(text):
    with pytest.raises(ValueError):
        json_rpc.decode(text)


def test_parse_error_has_a_null_id():
    assert json_rpc.parse_error() == {"jsonrpc": "2.0", "id": None, "error": {"code": -32700, "message": "Parse error"}}
    assert json_rpc.parse_error("bad")["error"]["message"] == "Parse error: bad"


def test_error_codes():
    assert (
        error_codes.PARSE_ERROR,
        error_codes.INVALID_REQUEST,
        error_codes.METHOD_NOT_FOUND,
        error_codes.INVALID_PARAMS,
        error_codes.INTERNAL_ERROR,
        error_codes.URL_ELICITATION_REQUIRED,
    ) == (-32700, -32600, -32601, -32602, -32603, -32042)


@pytest.mark.parametrize(
    "text, message",
    [
        ("NaN", "NaN is not a JSON number"),
        ('{"a":[-Infinity]}', "-Infinity is not a JSON number"),
        ("1e400", "number too large"),
        ("1" * 5000, "number too long"),
        ('"\\ud800"', "a string holds a lone UTF-16 surrogate"),
        ('{"\\uDC00":1}', "a string holds a lone UTF-16 surrogate"),
        ("[" * 101 + "]" * 101, "JSON nested too deeply"),
        ('{"a":' * 101 + "1" + "}" * 101, "JSON nested too deeply"),
        ('{"a":[' * 51 + "1" + "]}" * 51, "JSON nested too deeply"),  # objects and arrays, counted together
    ],
)
def test_decode_is_strict_in_its_own_words(text, message):
    with pytest.raises(ValueError) as raised:
        json_rpc.decode(text)
    assert str(raised.value) == message


@pytest.mark.parametrize("text", ['"\\ud83d\\ude00"', "[" * 100 + "]" * 100, '{"a":"\\\\ud800"}', "1e308"])
def test_decode_accepts_pairs_depth_100_escaped_backslashes_and_big_doubles(text):
    json_rpc.decode(text)


def test_utf8_escapes_a_lone_surrogate_and_keeps_the_rest():
    assert json_rpc.utf8(json_rpc.encode({"a": "x\ud800é"})) == '{"a":"x\\ud800é"}'.encode()
    assert json_rpc.decode(json_rpc.utf8(json_rpc.encode({"a": "é"}))) == {"a": "é"}
