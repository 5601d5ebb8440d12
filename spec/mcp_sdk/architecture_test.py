"""The package's seams, held as tests: its imports form a tree, no object reaches into another's
private members, and each module stays one readable idea."""

from __future__ import annotations

from spec.support import architecture

#: The most lines a module of the package may have.
MAX_MODULE_LINES = 600


def test_no_import_cycles_counting_type_checking_imports() -> None:
    assert architecture.import_cycles() == []


def test_no_object_uses_another_objects_private_members() -> None:
    assert architecture.private_member_uses() == []


def test_every_module_stays_under_the_size_limit() -> None:
    assert {name: lines for name, lines in architecture.module_sizes().items() if lines > MAX_MODULE_LINES} == {}


def test_no_subclass_of_a_channel_skips_its_parents_init() -> None:
    import ast
    import inspect

    from mcp_sdk.channel import Channel
    from mcp_sdk.server.modern_exchange import ModernExchange
    from mcp_sdk.server.task_exchange import TaskExchange
    from mcp_sdk.server.transports.streamable_http.request_channel import RequestChannel
    from mcp_sdk.server_session import ServerSession

    for channel in (ServerSession, ModernExchange, TaskExchange, RequestChannel):
        assert issubclass(channel, Channel)
        init = ast.parse(inspect.getsource(channel.__init__).strip())
        calls = [
            node
            for node in ast.walk(init)
            if isinstance(node, ast.Call)
            and isinstance(node.func, ast.Attribute)
            and node.func.attr == "__init__"
            and isinstance(node.func.value, ast.Call)
            and getattr(node.func.value.func, "id", None) == "super"
        ]
        assert len(calls) == 1, f"{channel.__name__}.__init__ must call super().__init__ once"


def test_the_cycle_finder_sees_a_cycle() -> None:
    assert architecture.import_cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
