"""The exception hierarchy: one root, JSON-RPC codes carried by handler errors."""

from __future__ import annotations

import pytest

import mcp_sdk
from mcp_sdk import errors


@pytest.mark.parametrize(
    "error_class",
    [
        errors.CancelledError,
        errors.RequestTimeoutError,
        errors.CapabilityError,
        errors.ValidationError,
        errors.InvalidNameError,
        errors.ToolNotUnique,
        errors.PromptNotUnique,
        errors.MethodAlreadyDefinedError,
        errors.TransportError,
        errors.SessionExpiredError,
        errors.JSONRPCError,
        errors.RequestHandlerError,
        errors.ResourceNotFoundError,
        errors.URLElicitationRequiredError,
    ],
)
def test_everything_the_sdk_raises_is_an_mcp_error(error_class):
    assert issubclass(error_class, mcp_sdk.MCPError)


@pytest.mark.parametrize(
    "error_class, builtin",
    [
        (errors.RequestTimeoutError, TimeoutError),
        (errors.CapabilityError, RuntimeError),
        (errors.ValidationError, ValueError),
        (errors.InvalidNameError, ValueError),
        (errors.ToolNotUnique, ValueError),
        (errors.MethodAlreadyDefinedError, ValueError),
    ],
)
def test_errors_also_subclass_the_natural_builtin(error_class, builtin):
    assert issubclass(error_class, builtin)


@pytest.mark.parametrize(
    "error_class, code, message",
    [
        (errors.ParseError, -32700, "Parse error"),
        (errors.InvalidRequestError, -32600, "Invalid Request"),
        (errors.MethodNotFoundError, -32601, "Method not found"),
        (errors.InvalidParamsError, -32602, "Invalid params"),
        (errors.InternalError, -32603, "Internal error"),
        (errors.RequestHandlerError, -32603, "Internal error"),
    ],
)
def test_handler_errors_carry_their_code_and_standard_message(error_class, code, message):
    error = error_class()
    assert (error.code, error.message, error.data) == (code, message, None)
    assert error.to_dict() == {"code": code, "message": message}


def test_a_handler_error_may_override_message_code_and_data():
    error = errors.RequestHandlerError("Rate limited", data={"retryAfter": 5}, code=-32000)
    assert error.to_dict() == {"code": -32000, "message": "Rate limited", "data": {"retryAfter": 5}}
    assert str(error) == "Rate limited"


def test_resource_not_found_is_invalid_params_with_the_uri():
    params = {"uri": "file:///x"}
    error = mcp_sdk.ResourceNotFoundError("file:///x", params)
    assert isinstance(error, errors.InvalidParamsError)
    assert error.to_dict() == {"code": -32602, "message": "Resource not found: file:///x", "data": {"uri": "file:///x"}}
    assert (error.uri, error.params) == ("file:///x", params)


def test_url_elicitation_required_carries_the_elicitations():
    elicitations = [{"mode": "url", "elicitationId": "e", "url": "https://example.com", "message": "Go"}]
    error = mcp_sdk.URLElicitationRequiredError(elicitations)
    assert error.to_dict() == {"code": -32042, "message": "URL elicitation required", "data": {"elicitations": elicitations}}
    assert error.elicitations == elicitations


def test_cancelled_error_keeps_its_reason():
    error = mcp_sdk.CancelledError(reason="user")
    assert (str(error), error.reason) == ("Request was cancelled", "user")


def test_method_already_defined_names_the_method():
    error = mcp_sdk.MethodAlreadyDefinedError("tools/list")
    assert (str(error), error.method_name) == ("Method tools/list already defined", "tools/list")


def test_session_expired_is_a_transport_error():
    assert issubclass(mcp_sdk.SessionExpiredError, mcp_sdk.TransportError)


def test_the_deprecation_warning_is_a_deprecation_warning():
    assert issubclass(mcp_sdk.MCPDeprecationWarning, DeprecationWarning)
