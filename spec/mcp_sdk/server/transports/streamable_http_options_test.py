"""StreamableHTTPTransport's options in groups: ``limits=``, ``security=``, ``storage=``, or their keywords."""

from __future__ import annotations

import typing as t

import attrs
import pytest
from werkzeug.test import Client as WSGIClient

from mcp_sdk import Server
from mcp_sdk.server.transports import StreamableHTTPTransport
from mcp_sdk.server.transports.streamable_http import EventStore, InMemoryEventStore, Limits, Security, Storage
from mcp_sdk.server.transports.streamable_http.options import DEFAULT_MAX_BODY_BYTES
from spec.support.http_client import ACCEPT_BOTH, initialize_message

DEFAULT_LIMITS = {
    "max_body_bytes": 4 * 1024 * 1024,
    "body_timeout": 10.0,
    "max_sessions": 10_000,
    "session_idle_timeout": 30 * 60,
    "unused_session_timeout": 30,
    "max_workers": 64,
    "wsgi_threads": None,
    "max_streams": None,
    "max_streams_per_session": None,
    "max_requests_per_session": 8,
    "stream_hold": 10.0,
    "listen_hold": 300.0,
}


def events(session_id: str) -> EventStore:
    return InMemoryEventStore(session_id)


def test_without_options_the_groups_hold_the_defaults() -> None:
    with StreamableHTTPTransport(Server(name="s")) as transport:
        assert attrs.asdict(transport.limits) == DEFAULT_LIMITS
        assert attrs.asdict(transport.security) == {
            "allowed_hosts": None,
            "allowed_origins": None,
            "dns_rebinding_protection": True,
            "auth": None,
            "authenticate": None,
        }
        assert attrs.asdict(transport.storage) == {"event_store": None, "redis_url": None, "redis": None, "redis_prefix": "mcp:"}
        assert (transport.limits.total_streams, transport.limits.streams_per_session) == (2, 2)


def test_keywords_build_the_same_groups_as_the_grouped_form() -> None:
    keywords = StreamableHTTPTransport(
        Server(name="s"),
        max_body_bytes=64,
        wsgi_threads=32,
        max_requests_per_session=3,
        body_timeout=None,
        allowed_hosts=["mcp.example.com"],
        dns_rebinding_protection=True,
        event_store=events,
        redis_prefix="other:",
    )
    grouped = StreamableHTTPTransport(
        Server(name="s"),
        limits=Limits(max_body_bytes=64, wsgi_threads=32, max_requests_per_session=3, body_timeout=None),
        security=Security(allowed_hosts=["mcp.example.com"]),
        storage=Storage(event_store=events, redis_prefix="other:"),
    )
    for transport in (keywords, grouped):
        assert attrs.asdict(transport.limits) == {
            **DEFAULT_LIMITS,
            "max_body_bytes": 64,
            "wsgi_threads": 32,
            "max_requests_per_session": 3,
            "body_timeout": None,
        }
        assert transport.security == Security(allowed_hosts=("mcp.example.com",))
        assert transport.storage == Storage(event_store=events, redis_prefix="other:")
        assert (transport.limits.total_streams, transport.limits.streams_per_session) == (24, 12)
        assert (transport.max_body_bytes, transport.max_requests_per_session) == (64, 3)
        client = WSGIClient(transport)
        too_big = client.post("/", json=initialize_message(), headers={"Accept": ACCEPT_BOTH, "Host": "mcp.example.com"})
        assert too_big.status_code == 413
        foreign = client.post("/", json={}, headers={"Accept": ACCEPT_BOTH, "Host": "evil.example.com"})
        assert foreign.status_code == 403
        transport.close()


def test_a_group_serves_several_transports_and_evolves() -> None:
    limits = Limits(wsgi_threads=32)
    first = StreamableHTTPTransport(Server(name="a"), limits=limits)
    second = StreamableHTTPTransport(Server(name="b"), limits=attrs.evolve(limits, max_body_bytes=64))
    assert (first.limits is limits, first.max_body_bytes, second.max_body_bytes) == (True, DEFAULT_MAX_BODY_BYTES, 64)
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        limits.wsgi_threads = 8  # type: ignore[misc]
    first.close()
    second.close()


def test_the_group_classes_are_on_the_transport() -> None:
    assert (StreamableHTTPTransport.Limits, StreamableHTTPTransport.Security, StreamableHTTPTransport.Storage) == (
        Limits,
        Security,
        Storage,
    )


@pytest.mark.parametrize(
    ("options", "message"),
    [
        (
            {"limits": Limits(), "wsgi_threads": 32},
            "StreamableHTTPTransport got wsgi_threads both as a keyword and in limits=; set it in one place "
            "(limits=attrs.evolve(limits, ...) changes a field of a group)",
        ),
        (
            {"limits": Limits(max_body_bytes=64), "max_body_bytes": DEFAULT_MAX_BODY_BYTES, "body_timeout": None},
            "StreamableHTTPTransport got max_body_bytes, body_timeout both as a keyword and in limits=; set it in one place "
            "(limits=attrs.evolve(limits, ...) changes a field of a group)",
        ),
        (
            {"security": Security(), "allowed_origins": ["https://app.example.com"]},
            "StreamableHTTPTransport got allowed_origins both as a keyword and in security=; set it in one place "
            "(security=attrs.evolve(security, ...) changes a field of a group)",
        ),
        (
            {"storage": Storage(), "event_store": None},
            "StreamableHTTPTransport got event_store both as a keyword and in storage=; set it in one place "
            "(storage=attrs.evolve(storage, ...) changes a field of a group)",
        ),
        ({"limits": Security()}, "limits must be a Limits, not Security"),
    ],
)
def test_a_group_and_one_of_its_keywords_together_are_a_type_error(options: dict[str, t.Any], message: str) -> None:
    with pytest.raises(TypeError) as raised:
        StreamableHTTPTransport(Server(name="s"), **options)
    assert str(raised.value) == message


def test_keywords_of_other_groups_go_with_a_group() -> None:
    transport = StreamableHTTPTransport(Server(name="s"), limits=Limits(max_body_bytes=64), allowed_hosts=["mcp.example.com"])
    assert (transport.max_body_bytes, transport.security.allowed_hosts) == (64, ("mcp.example.com",))
    transport.close()


def test_groups_are_validated_when_built() -> None:
    for options in [
        {"session_idle_timeout": 0},
        {"wsgi_threads": 0},
        {"max_streams": 0},
        {"max_streams_per_session": True},
        {"max_body_bytes": 0},
        {"max_sessions": 0},
        {"body_timeout": -1},
        {"listen_hold": 0},
    ]:
        with pytest.raises(ValueError):
            Limits(**options)
    with pytest.raises(ValueError, match="max_streams must be a positive integer, not 0"):
        Limits(max_streams=0)
    with pytest.raises(TypeError, match="BearerAuth"):
        Security(auth=lambda token: None)  # type: ignore[arg-type]
    with pytest.raises(TypeError, match="callable"):
        Security(authenticate="nope")  # type: ignore[arg-type]
