"""Fixtures shared by the transport tests."""

from spec.support.http_fixtures import serve  # noqa: F401 - the `serve` fixture: a transport on a real HTTP server
