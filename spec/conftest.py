"""Shared fixtures for the whole suite. Helpers live in spec/support/."""

from __future__ import annotations

import importlib
import typing as t

import pytest


# `mcp_sdk.configuration` is the function configuration(); the module is in sys.modules.
configuration_module = importlib.import_module("mcp_sdk.configuration")


@pytest.fixture(autouse=True)
def _fresh_default_configuration(monkeypatch: pytest.MonkeyPatch) -> t.Iterator[None]:
    """Every test starts from a pristine process-wide configuration (``mcp_sdk.configure``)."""
    monkeypatch.setattr(configuration_module, "_default", configuration_module.Configuration())
    yield
