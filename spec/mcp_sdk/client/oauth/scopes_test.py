from __future__ import annotations

from mcp_sdk.client.oauth import scope_selection


def test_select_order():
    assert scope_selection.select("a b", ["c"], "d") == "a b"
    assert scope_selection.select(None, ["c", "e"], "d") == "c e"
    assert scope_selection.select("  ", [], "d") == "d"
    assert scope_selection.select(None, [], None) is None
    assert scope_selection.select("", [], "  ") is None


def test_union_keeps_order_and_drops_duplicates():
    assert scope_selection.union("a b", "b c", None) == "a b c"
    assert scope_selection.union(None, None) is None


def test_offline_access_policy():
    assert scope_selection.apply_offline_access("a", ["a", "offline_access"], True) == "a offline_access"
    assert scope_selection.apply_offline_access(None, ["offline_access"], True) == "offline_access"
    assert scope_selection.apply_offline_access("offline_access a", ["offline_access"], True) == "a offline_access"
    assert scope_selection.apply_offline_access("a offline_access", ["offline_access"], False) == "a"
    assert scope_selection.apply_offline_access("a offline_access", ["a"], True) == "a"
    assert scope_selection.apply_offline_access("offline_access", [], True) is None


def test_covers():
    assert scope_selection.covers("a b c", "c a")
    assert scope_selection.covers("a", None)
    assert not scope_selection.covers(None, "a")
    assert not scope_selection.covers("a", "a b")
