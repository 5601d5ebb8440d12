"""Shared fixtures for the whole suite. Helpers live in spec/support/."""

from __future__ import annotations

import importlib
import pathlib
import typing as t

import pytest

#: The deployment proofs: specs that run the SDK as it is deployed (real gunicorn gthread and
#: gevent workers, uWSGI, several processes on a real Redis or PostgreSQL), minutes of the suite
#: between them. They are marked ``deployment``, so that a contributor can leave them out locally
#: (``pytest -m "not deployment"``); the README's test command and CI run them all.
DEPLOYMENT_PROOFS = frozenset(
    {
        "mcp_sdk/contrib/django_postgres_test.py",
        "mcp_sdk/contrib/django_workers_test.py",
        "mcp_sdk/contrib/flask_gunicorn_test.py",
        "mcp_sdk/server/redis_task_store_test.py",
        "mcp_sdk/server/transports/streamable_http_abuse_test.py",
        "mcp_sdk/server/transports/streamable_http_deployment_test.py",
        "mcp_sdk/server/transports/streamable_http_gevent_test.py",
        "mcp_sdk/server/transports/streamable_http_hostile_test.py",
        "mcp_sdk/server/transports/streamable_http_polling_redis_test.py",
        "mcp_sdk/server/transports/streamable_http_polling_test.py",
        "mcp_sdk/server/transports/streamable_http_redis_full_test.py",
        "mcp_sdk/server/transports/streamable_http_redis_input_test.py",
        "mcp_sdk/server/transports/streamable_http_redis_request_state_test.py",
        "mcp_sdk/server/transports/streamable_http_redis_runtime_test.py",
        "mcp_sdk/server/transports/streamable_http_redis_test.py",
        "mcp_sdk/server/transports/streamable_http_uwsgi_test.py",
    }
)
SPEC = pathlib.Path(__file__).parent


def pytest_configure(config: pytest.Config) -> None:
    config.addinivalue_line("markers", "deployment: runs the SDK as deployed (gunicorn, uWSGI, Redis, PostgreSQL); slow")
    missing = sorted(name for name in DEPLOYMENT_PROOFS if not (SPEC / name).is_file())
    if missing:
        raise pytest.UsageError(f"spec/conftest.py names deployment proofs that do not exist: {missing}")


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    for item in items:
        if item.path.relative_to(SPEC).as_posix() in DEPLOYMENT_PROOFS:
            item.add_marker(pytest.mark.deployment)


# `mcp_sdk.configuration` is the function configuration(); the module is in sys.modules.
configuration_module = importlib.import_module("mcp_sdk.configuration")


@pytest.fixture(autouse=True)
def _fresh_default_configuration(monkeypatch: pytest.MonkeyPatch) -> t.Iterator[None]:
    """Every test starts from a pristine process-wide configuration (``mcp_sdk.configure``)."""
    monkeypatch.setattr(configuration_module, "_default", configuration_module.Configuration())
    yield
