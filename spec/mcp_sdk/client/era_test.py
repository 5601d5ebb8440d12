"""The era seam: the Era base class documents its contract, and the two eras fill it in."""

from __future__ import annotations

import typing as t

import pytest

from mcp_sdk.client.era import Era
from mcp_sdk.client.era_2025 import LegacyEra
from mcp_sdk.client.era_2026 import ModernEra
from mcp_sdk.client.exceptions import ServerError, ValidationError


def test_every_method_of_the_base_raises_not_implemented() -> None:
    era = Era()
    calls: list[t.Callable[[], t.Any]] = [
        lambda: era.prepare(t.cast(t.Any, None), "ping", None, None),
        lambda: era.check_result("ping", {}),
        lambda: era.resends_lost("ping"),
        lambda: era.resends_after({}),
        lambda: era.complete(lambda params: {}, lambda method, params: {}, "tools/call", {}, 1),
        lambda: era.ping(t.cast(t.Any, None), meta=None, cancellation=None, timeout=None),
        lambda: era.set_logging_level(t.cast(t.Any, None), "info", None),
        lambda: era.notify_roots_list_changed(lambda method: None),
        lambda: era.usable_tools(t.cast(t.Any, None), []),
        lambda: era.relist_fixes(ServerError("x", -32001)),
        lambda: era.open_subscription(t.cast(t.Any, None), {}, None, 1.0),
    ]
    for call in calls:
        with pytest.raises(NotImplementedError):
            call()


def test_legacy_passes_meta_through_and_resends_nothing() -> None:
    era = LegacyEra("2025-11-25")
    assert (era.name, era.protocol_version) == ("legacy", "2025-11-25")
    assert era.prepare(t.cast(t.Any, None), "ping", None, None) == (None, None)
    assert era.prepare(t.cast(t.Any, None), "tools/call", {"name": "a"}, {"k": 1}) == (
        {"name": "a", "_meta": {"k": 1}}, None
    )
    assert not era.resends_lost("tools/call")
    assert not era.resends_after({"error": {"code": -32004, "data": {"supported": ["2026-07-28"]}}})
    with pytest.raises(ValidationError, match="listen\\(\\) needs a 2026-07-28 server"):
        era.open_subscription(t.cast(t.Any, None), {}, None, 1.0)


def test_modern_resends_a_lost_request_but_never_a_probe_or_a_listen() -> None:
    era = ModernEra("2026-07-28")
    assert era.name == "modern"
    assert era.resends_lost("tools/call")
    assert not era.resends_lost("server/discover")
    assert not era.resends_lost("subscriptions/listen")


def test_modern_checks_result_type() -> None:
    era = ModernEra("2026-07-28")
    era.check_result("tools/list", {"result": {"resultType": "complete", "tools": []}})
    with pytest.raises(ValidationError, match="unknown resultType"):
        era.check_result("tools/list", {"result": {"resultType": "odd"}})
