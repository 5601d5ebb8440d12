"""The package's seams, held as tests: its imports form a tree, no object reaches into another's
private members, each module stays one readable idea and each function one readable piece, and
each module's name finds one file.

Sizes are counted in code lines (``spec/support/architecture.py``): documentation never costs
room, and what grows too big for a reader is caught where it grows.
"""

from __future__ import annotations

from spec.support import architecture

#: Past this many code lines a module says in its docstring why it is still one idea, in a
#: paragraph that starts with ``Why one module:``.
LARGE_MODULE_LINES = 400
#: No module has more code lines than this.
MAX_MODULE_LINES = 1000
#: A function past either bound is split by meaning, or carries ``# noqa: size (the reason)`` on
#: its ``def`` line.
MAX_FUNCTION_LINES = 50
MAX_FUNCTION_BRANCHES = 15
#: The most functions of the package that may carry ``# noqa: size``.
MAX_NOQA_SIZE = 8

#: The package's Django apps (folders from ``mcp_sdk/``): Django imports an app's ``apps``,
#: ``urls``, ``models``, ``admin`` and ``views`` modules by those names, so there they keep them.
DJANGO_APPS = ("contrib/django",)
DJANGO_APP_MODULES = frozenset({"admin", "apps", "models", "urls", "views"})


def test_no_run_time_import_cycles() -> None:
    assert architecture.import_cycles() == []


def test_imports_for_annotations_alone_may_close_a_cycle_under_type_checking() -> None:
    # what the rule above leaves out is only ``if TYPE_CHECKING:`` imports
    run_time = architecture.import_graph()
    everything = architecture.import_graph(type_checking=True)
    assert all(run_time[name] <= everything[name] for name in run_time)


def test_no_object_uses_another_objects_private_members() -> None:
    assert architecture.private_member_uses() == []


def test_no_module_passes_the_largest_size() -> None:
    assert {name: lines for name, lines in architecture.module_sizes().items() if lines > MAX_MODULE_LINES} == {}


def test_a_large_module_says_why_it_is_still_one_idea() -> None:
    docstrings = architecture.module_docstrings()
    unexplained = {
        name: lines
        for name, lines in architecture.module_sizes().items()
        if lines > LARGE_MODULE_LINES and "Why one module:" not in docstrings[name]
    }
    assert unexplained == {}, "split the module by meaning, or say in its docstring why it is one idea"


def _named_by_a_framework(file: str) -> bool:
    """Whether Django finds ``file`` (a path from the repository root) by its name."""
    folder, _, name = file.removeprefix("mcp_sdk/").rpartition("/")
    if folder.endswith("management/commands"):
        return True  # ``manage.py <command>`` runs management/commands/<command>.py
    return folder in DJANGO_APPS and name.removesuffix(".py") in DJANGO_APP_MODULES


def test_each_module_base_name_names_one_file() -> None:
    # ``__init__`` is left out: a package's name is its folder's. Several modules may share a name
    # only when Django requires it of each of them; any other module gives way.
    shared = {
        name: files
        for name, files in architecture.base_names().items()
        if len(files) > 1 and not all(_named_by_a_framework(file) for file in files)
    }
    assert shared == {}, "give one of the modules a name that says what it holds"


def test_a_long_function_is_split_by_meaning_or_says_why_not() -> None:
    sizes = architecture.function_sizes()
    too_long = [
        f"{size.name}: {size.lines} code lines, {size.branches} branch points"
        for size in sizes
        if (size.lines > MAX_FUNCTION_LINES or size.branches > MAX_FUNCTION_BRANCHES) and size.reason is None
    ]
    assert too_long == [], "split these by what their parts mean, or give the def line '# noqa: size (the reason)'"
    excused = [size for size in sizes if size.reason is not None]
    assert all(size.reason for size in excused), "'# noqa: size' names its reason"
    assert len(excused) <= MAX_NOQA_SIZE


def test_code_lines_leave_out_docstrings_comments_and_blank_lines() -> None:
    source = '''"""A module."""

import os  # a comment


class A:
    """A class."""

    #: documented
    x = 1
    """The attribute's docstring."""

    def f(self) -> str:
        """A method.

        More.
        """
        text = """not a
        docstring"""
        return text
'''
    assert sorted(architecture.code_lines(source)) == [3, 6, 10, 13, 18, 19, 20]


def test_no_subclass_of_a_channel_skips_its_parents_init() -> None:
    import ast
    import inspect

    from mcp_sdk.server.channel import Channel
    from mcp_sdk.server.exchange_2026 import ModernExchange
    from mcp_sdk.server.task_exchange import TaskExchange
    from mcp_sdk.server.transports.streamable_http.sessions.request_channel import RequestChannel
    from mcp_sdk.server.session import ServerSession

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
