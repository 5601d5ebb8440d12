"""Reads the package as code: its import graph, its calls into other objects' private members,
its module sizes. ``spec/mcp_sdk/architecture_test.py`` holds the package to what these find;
``python -m spec.support.architecture`` prints the figures.
"""

from __future__ import annotations

import ast
import pathlib
import sys
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


def import_graph() -> dict[str, set[str]]:
    """module -> the package's modules it imports, at any depth of the file (``TYPE_CHECKING``
    blocks and function bodies included)."""
    known = modules()
    graph: dict[str, set[str]] = {name: set() for name in known}
    for name, path in known.items():
        is_package = path.name == "__init__.py"
        for node in ast.walk(ast.parse(path.read_text(), str(path))):
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


def module_sizes() -> dict[str, int]:
    """module -> its number of lines."""
    return {name: len(path.read_text().splitlines()) for name, path in modules().items()}


def main() -> None:
    sizes = module_sizes()
    print(f"{len(sizes)} modules, {sum(sizes.values())} lines; over 600:")
    for name, lines in sorted(sizes.items(), key=lambda item: -item[1]):
        if lines > 600:
            print(f"  {lines:5d} {name}")
    cycles = import_cycles()
    print(f"{len(cycles)} import cycles (TYPE_CHECKING imports counted):")
    for group in cycles:
        print(f"  {len(group)} modules: {', '.join(group)}")
    uses = private_member_uses()
    print(f"{len(uses)} uses of another object's private members:")
    for use in uses:
        print(f"  {use}")


if __name__ == "__main__":
    main()


__all__: t.List[str] = ["import_cycles", "import_graph", "module_sizes", "modules", "private_member_uses"]
