"""Reads the package as code: its import graph, its calls into other objects' private members,
the size of its modules and functions in code lines, the base names its modules share.
``spec/mcp_sdk/architecture_test.py`` holds the package to what these find;
``python -m spec.support.architecture`` prints the figures.

A *code line* is a line that holds a token of code: blank lines, comments and docstrings (a
module's, class's or function's, and the string that documents an attribute) do not count, so
documenting a name never costs room.
"""

from __future__ import annotations

import ast
import io
import pathlib
import re
import sys
import tokenize
import typing as t

PACKAGE = pathlib.Path(__file__).resolve().parents[2] / "mcp_sdk"

#: Underscore names that are public API of the standard library (namedtuple, sys, os).
#: Underscored names that are public API: namedtuple's, sys's, os's, and Django's documented Model ``_meta``.
PUBLIC_UNDERSCORE = frozenset({"_meta", "_replace", "_asdict", "_fields", "_make", "_field_defaults", "_exit", "_getframe"})


def modules() -> dict[str, pathlib.Path]:
    """Dotted module name -> file, for every module of the package."""
    found = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


def _resolve(module: str, is_package: bool, level: int, name: str | None) -> str:
    if level == 0:
        return name or ""
    base = module.split(".") if is_package else module.split(".")[:-1]
    base = base[: len(base) - (level - 1)]
    return ".".join(base + ([name] if name else []))


def _is_type_checking(node: ast.AST) -> bool:
    test = node.test if isinstance(node, ast.If) else None
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def _run_time_nodes(tree: ast.AST) -> t.Iterator[ast.AST]:
    """Every node of ``tree`` outside ``if TYPE_CHECKING:`` blocks (an ``else:`` of one runs)."""
    stack = [tree]
    while stack:
        node = stack.pop()
        yield node
        if _is_type_checking(node):
            stack.extend(t.cast(ast.If, node).orelse)
        else:
            stack.extend(ast.iter_child_nodes(node))


def import_graph(*, type_checking: bool = False) -> dict[str, set[str]]:
    """module -> the package's modules it imports at run time, at any depth of the file
    (function bodies included); with ``type_checking``, the imports of ``if TYPE_CHECKING:``
    blocks too, which exist for annotations only (as in Flask)."""
    known = modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree) if type_checking else _run_time_nodes(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                base = _resolve(name, is_package, node.level, node.module)
                for alias in node.names:
                    candidate = f"{base}.{alias.name}"
                    targets.append(candidate if candidate in known else base)
            for target in targets:
                while target and target not in known:
                    target = target.rpartition(".")[0]
                if target and target != name:
                    graph[name].add(target)
    return graph


def import_cycles(graph: dict[str, set[str]] | None = None) -> list[list[str]]:
    """Strongly connected groups of more than one module (Tarjan), each sorted.

    A package's ``__init__`` importing its own submodules is an edge like any other: a
    submodule that imports its package back closes a cycle.
    """
    graph = graph if graph is not None else import_graph()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []
    counter = [0]

    def visit(node: str) -> None:
        index[node] = low[node] = counter[0]
        counter[0] += 1
        stack.append(node)
        on_stack.add(node)
        for target in graph.get(node, ()):
            if target not in index:
                visit(target)
                low[node] = min(low[node], low[target])
            elif target in on_stack:
                low[node] = min(low[node], index[target])
        if low[node] == index[node]:
            group = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                group.append(member)
                if member == node:
                    break
            if len(group) > 1:
                groups.append(sorted(group))

    sys.setrecursionlimit(max(sys.getrecursionlimit(), 10_000))
    for node in graph:
        if node not in index:
            visit(node)
    return sorted(groups)


def private_member_uses() -> list[str]:
    """``file:line expression`` for every use of another object's private member: ``x._name``
    where ``x`` is not ``self``, ``cls`` or ``super()`` (modules count as objects too)."""
    found = []
    for name, path in modules().items():
        tree = ast.parse(path.read_text(), str(path))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Attribute):
                continue
            attr = node.attr
            if not attr.startswith("_") or attr.startswith("__") or attr in PUBLIC_UNDERSCORE:
                continue
            owner = node.value
            if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
                continue
            if isinstance(owner, ast.Call) and isinstance(owner.func, ast.Name) and owner.func.id == "super":
                continue
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno} {ast.unparse(node)}")
    return found


_NOT_CODE = {tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.ENCODING, tokenize.ENDMARKER}
_SCOPES = (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: ``# noqa: size (the reason)`` on a ``def`` line lets that function past the size rule.
NOQA_SIZE = re.compile(r"#\s*noqa:\s*size\b\s*(.*)")


def _is_string(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Expr) and isinstance(statement.value, ast.Constant) and isinstance(statement.value.value, str)


def code_lines(source: str) -> set[int]:
    """The numbers of the lines of ``source`` that hold code (see the module's docstring)."""
    documentation: set[int] = set()
    for node in ast.walk(ast.parse(source)):
        if not isinstance(node, _SCOPES):
            continue
        for position, statement in enumerate(node.body):
            # the first string of a scope is its docstring; a later one (module or class) documents an attribute
            if _is_string(statement) and (position == 0 or not isinstance(node, _FUNCTIONS)):
                documentation.update(range(statement.lineno, (statement.end_lineno or statement.lineno) + 1))
    lines: set[int] = set()
    for token in tokenize.generate_tokens(io.StringIO(source).readline):
        if token.type not in _NOT_CODE:
            lines.update(range(token.start[0], token.end[0] + 1))
    return lines - documentation


def module_sizes() -> dict[str, int]:
    """module -> its number of code lines."""
    return {name: len(code_lines(path.read_text())) for name, path in modules().items()}


def module_docstrings() -> dict[str, str]:
    """module -> its docstring ("" for none)."""
    return {name: ast.get_docstring(ast.parse(path.read_text())) or "" for name, path in modules().items()}


def base_names() -> dict[str, list[str]]:
    """Each module's base name (its file's name without ``.py``) -> the files that carry it,
    as paths from the repository root; a package's ``__init__`` is left out."""
    found: dict[str, list[str]] = {}
    for path in modules().values():
        if path.stem != "__init__":
            found.setdefault(path.stem, []).append(path.relative_to(PACKAGE.parent).as_posix())
    return found


def branch_points(function: ast.AST) -> int:
    """The places where ``function``'s own code (not the functions and classes it defines) can go
    two ways: each ``if``, conditional expression, loop, ``except``, ``case``, comprehension and
    its conditions, and each ``and``/``or`` past the first operand."""
    count = 0
    stack = list(ast.iter_child_nodes(function))
    while stack:
        node = stack.pop()
        if isinstance(node, (*_FUNCTIONS, ast.ClassDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.If, ast.IfExp, ast.For, ast.AsyncFor, ast.While, ast.ExceptHandler, ast.match_case)):
            count += 1
        elif isinstance(node, ast.BoolOp):
            count += len(node.values) - 1
        elif isinstance(node, ast.comprehension):
            count += 1 + len(node.ifs)
        stack.extend(ast.iter_child_nodes(node))
    return count


class FunctionSize(t.NamedTuple):
    """One function's size: ``name`` is ``module:Qualified.name``; ``lines`` its code lines (the
    functions it defines included); ``reason`` the text after ``# noqa: size`` on its ``def`` line,
    None without one."""

    name: str
    lines: int
    branches: int
    reason: str | None


def function_sizes() -> list[FunctionSize]:
    """The size of every function and method of the package."""
    found = []
    for name, path in modules().items():
        source = path.read_text()
        counted = sorted(code_lines(source))
        text = source.splitlines()

        def visit(scope: ast.AST, prefix: str) -> None:
            for node in ast.iter_child_nodes(scope):
                if isinstance(node, (*_FUNCTIONS, ast.ClassDef)):
                    qualified = f"{prefix}{node.name}"
                    if isinstance(node, _FUNCTIONS):
                        end = node.end_lineno or node.lineno
                        lines = sum(1 for number in counted if node.lineno <= number <= end)
                        header = " ".join(text[node.lineno - 1 : node.body[0].lineno - 1] or [text[node.lineno - 1]])
                        noqa = NOQA_SIZE.search(header)
                        found.append(FunctionSize(f"{name}:{qualified}", lines, branch_points(node), noqa.group(1).strip() if noqa else None))
                    visit(node, f"{qualified}.")
                elif not isinstance(node, ast.Lambda):
                    visit(node, prefix)

        visit(ast.parse(source), "")
    return found


def main() -> None:
    sizes = module_sizes()
    print(f"{len(sizes)} modules, {sum(sizes.values())} code lines; the largest:")
    for name, lines in sorted(sizes.items(), key=lambda item: -item[1])[:10]:
        print(f"  {lines:5d} {name}")
    long = [size for size in function_sizes() if size.lines > 50 or size.branches > 15]
    print(f"{len(long)} functions over 50 code lines or 15 branch points:")
    for size in sorted(long, key=lambda size: (-size.lines, -size.branches)):
        print(f"  {size.lines:4d} lines {size.branches:3d} branches  {size.name}" + ("  (noqa: size)" if size.reason is not None else ""))
    cycles = import_cycles()
    print(f"{len(cycles)} run-time import cycles:")
    for group in cycles:
        print(f"  {len(group)} modules: {', '.join(group)}")
    uses = private_member_uses()
    print(f"{len(uses)} uses of another object's private members:")
    for use in uses:
        print(f"  {use}")
    shared = {name: files for name, files in base_names().items() if len(files) > 1}
    print(f"{len(shared)} base names carried by several modules:")
    for name, files in sorted(shared.items()):
        print(f"  {name}: {', '.join(files)}")


if __name__ == "__main__":
    main()


__all__: t.List[str] = [
    "FunctionSize",
    "branch_points",
    "code_lines",
    "function_sizes",
    "import_cycles",
    "import_graph",
    "module_docstrings",
    "module_sizes",
    "modules",
    "private_member_uses",
]
