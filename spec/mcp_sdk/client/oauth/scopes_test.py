from __future__ import annotations

from mcp_sdk.client.oauth import scopes


def test_select_order():
    assert scopes.select("a b", ["c"], "d") == "a b"
    assert scopes.select(None, ["c", "e"], "d") == "c e"
    assert scopes.select("  ", [], "d") == "d"
    assert scopes.select(None, [], None) is None
    assert scopes.select("", [], "  ") is None


def test_union_keeps_order_and_drops_duplicates():
    assert scopes.union("a b", "b c", None) == "a b c"
    assert scopes.union(None, None) is None


def test_offline_access_policy():
    assert scopes.apply_offline_access("a", ["a", "offline_access"], True) == "a offline_access"
    assert scopes.apply_offline_access(None, ["offline_access"], True) == "offline_access"
    assert scopes.apply_offline_access("offline_access a", ["offline_access"], True) == "a offline_access"
    assert scopes.apply_offline_access("a offline_access", ["offline_access"], False) == "a"
    assert scopes.apply_offline_access("a offline_access", ["a"], True) == "a"
    assert scopes.apply_offline_access("offline_access", [], True) is None


def test_covers():
    assert scopes.covers("a b c", "c a")
    assert scopes.covers("a", None)
    assert not scopes.covers(None, "a")
    assert not scopes.covers("a", "a b")
