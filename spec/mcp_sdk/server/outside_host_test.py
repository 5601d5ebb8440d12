"""mcp_sdk.server.outside_host: Flask's "working outside of context" errors, named with the fix."""

from __future__ import annotations

import flask
import pytest

from mcp_sdk.server.outside_host import OutsideHostContextError, recognize

FIX = (
    "The tool used Flask's {} (current_app, flask.request, db.session, current_user ...), which "
    "tools of this server do not run in: a StreamableHTTPTransport mounted beside the app (DispatcherMiddleware) "
    "runs them on its own threads. Serve the server from the app with mcp_sdk.contrib.flask: MCP(app, server=server)"
)


def raised(use: object) -> BaseException:
    with pytest.raises(RuntimeError) as caught:
        use()  # type: ignore[operator]
    return caught.value


def test_flasks_own_errors_become_the_sdks_message() -> None:
    app_context = raised(lambda: flask.current_app.config)
    request_context = raised(lambda: flask.request.path)
    named = {name: recognize(error) for name, error in (("app", app_context), ("request", request_context))}
    assert {name: (type(error), str(error)) for name, error in named.items()} == {
        "app": (OutsideHostContextError, FIX.format("application context")),
        "request": (OutsideHostContextError, FIX.format("request context")),
    }


def test_other_errors_are_left_alone() -> None:
    assert recognize(RuntimeError("Working outside of the office.")) is None
    assert recognize(ValueError("Working outside of application context.")) is None
