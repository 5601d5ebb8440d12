"""The hostile API of the ``from_openapi`` security specs, served on 127.0.0.1 (spec/support/openapi_hostile_api.py)."""

from __future__ import annotations

import typing as t

import pytest

from spec.support.openapi_api import serving
from spec.support.openapi_hostile_api import HostileAPI


@pytest.fixture
def api() -> t.Iterator[tuple[HostileAPI, str]]:
    """The API the server calls: the app and its base URL."""
    app = HostileAPI()
    with serving(app) as base:
        yield app, base


@pytest.fixture
def elsewhere() -> t.Iterator[tuple[HostileAPI, str]]:
    """Another origin: the same app on another port."""
    app = HostileAPI()
    with serving(app) as base:
        yield app, base
