"""How much of the public API the reference documents (issue 23): ``python -m spec.docs.api_coverage``.

The public names are the union of the ``__all__`` lists of :data:`PACKAGES`, each counted once
as the object it names (``mcp_sdk.Tool`` and ``mcp_sdk.tool.Tool`` are one class). A name is
documented when a page of ``docs/reference/`` renders it with a ``::: identifier`` directive,
directly or as a member of a documented object, and it has a docstring. The methods are the
public methods and properties of the public classes: their own, and those inherited from a base
that is not itself public (the page renders those with ``inherited_members: true``). Objects are
read statically with Griffe, as mkdocstrings reads them, so nothing is imported but the
packages' ``__all__`` lists (``mcp_sdk.contrib.django.server`` is never evaluated: it needs
Django's settings).
"""

from __future__ import annotations

import importlib
import inspect
import re
import typing as t
from dataclasses import dataclass, field

import griffe

from spec.docs.blocks import ROOT

REFERENCE = ROOT / "docs" / "reference"
EXTENSION = f"{ROOT / 'docs' / 'griffe_roles.py'}:SphinxRoles"
PACKAGES = (
    "mcp_sdk",
    "mcp_sdk.cli",
    "mcp_sdk.client",
    "mcp_sdk.client.oauth",
    "mcp_sdk.contrib.django",
    "mcp_sdk.contrib.flask",
    "mcp_sdk.openapi",
    "mcp_sdk.prompt",
    "mcp_sdk.resource",
    "mcp_sdk.server",
    "mcp_sdk.server.auth",
    "mcp_sdk.server.middleware",
    "mcp_sdk.server.transports",
    "mcp_sdk.server.transports.streamable_http",
    "mcp_sdk.tool",
)
DIRECTIVE = re.compile(r"^::: (?P<identifier>\S+)\n(?P<options>(?:[ ]{4}.*\n)*)", re.MULTILINE)


@dataclass(frozen=True)
class Directive:
    """One ``::: identifier`` of a reference page."""

    page: str
    identifier: str
    inherited_members: bool


@dataclass
class Survey:
    """The public names and methods, and what the reference says of them."""

    #: canonical path -> the import paths naming it (``mcp_sdk.Tool``, ``mcp_sdk.tool.Tool``)
    names: dict[str, list[str]]
    #: canonical path of each public class's public method or property -> its object
    methods: dict[str, griffe.Object]
    #: canonical path -> the directives rendering it (directly or as a member)
    documented_by: dict[str, list[Directive]] = field(default_factory=dict)
    objects: dict[str, griffe.Object] = field(default_factory=dict)
    #: canonical path of a class -> True when its page renders inherited members
    inherits: dict[str, bool] = field(default_factory=dict)
    #: canonical path -> each object a page renders (the directives' objects and their public members)
    rendered: dict[str, griffe.Object] = field(default_factory=dict)
    package: griffe.Module | None = None


def load() -> griffe.Module:
    """The package as mkdocstrings reads it (with the docs' Griffe extension)."""
    return griffe.load(
        "mcp_sdk",
        search_paths=[str(ROOT)],
        resolve_aliases=True,
        resolve_external=False,
        docstring_parser=griffe.Parser.sphinx,
        extensions=griffe.load_extensions(EXTENSION),
    )


def lookup(package: griffe.Module, path: str) -> griffe.Object:
    """The object ``path`` names, aliases followed."""
    found = package if path == package.path else package[path.removeprefix(f"{package.path}.")]
    return t.cast(griffe.Object, found.final_target if found.is_alias else found)


def public_object(package: griffe.Module, module_name: str, name: str) -> griffe.Object:
    """What ``module_name.name`` is; a function re-exported under its module's own name (as
    ``mcp_sdk.configuration``) is the function, not the submodule Griffe sees there."""
    found = lookup(package, f"{module_name}.{name}")
    if found.is_module and name in found.members:
        runtime = vars(importlib.import_module(module_name)).get(name)
        if runtime is not None and not inspect.ismodule(runtime):
            return lookup(package, f"{found.path}.{name}")
    return found


def directives() -> list[Directive]:
    """Every ``:::`` directive of the reference pages."""
    found = []
    for page in sorted(REFERENCE.glob("*.md")):
        for match in DIRECTIVE.finditer(page.read_text(encoding="utf-8")):
            options = match.group("options")
            found.append(Directive(page.name, match.group("identifier"), "inherited_members: true" in options))
    return found


def _members(cls: griffe.Class, public_classes: set[str]) -> t.Iterator[griffe.Object]:
    for name, member in cls.all_members.items():
        if name.startswith("_"):
            continue
        try:
            target = t.cast(griffe.Object, member.final_target if member.is_alias else member)
        except (griffe.AliasResolutionError, griffe.CyclicAliasError):
            continue
        if not (target.is_function or (target.is_attribute and "property" in target.labels)):
            continue
        owner = target.parent
        if owner is None or (name not in cls.members and owner.path in public_classes):
            continue  # documented with its own (public) class
        yield target


def survey() -> Survey:
    """The public names and methods of :data:`PACKAGES`, and the directives documenting them."""
    package = load()
    names: dict[str, list[str]] = {}
    objects: dict[str, griffe.Object] = {}
    for module_name in PACKAGES:
        for name in importlib.import_module(module_name).__all__:
            found = public_object(package, module_name, name)
            names.setdefault(found.path, []).append(f"{module_name}.{name}")
            objects[found.path] = found
    classes = {path for path, found in objects.items() if found.is_class}
    methods: dict[str, griffe.Object] = {}
    for path in sorted(classes):
        for member in _members(t.cast(griffe.Class, objects[path]), classes):
            methods.setdefault(f"{path}.{member.name}", member)
    result = Survey(names=names, methods=methods, objects=objects, package=package)
    for directive in directives():
        rendered = lookup(package, directive.identifier)
        result.inherits[rendered.path] = directive.inherited_members
        result.rendered[rendered.path] = rendered
        if rendered.is_class:
            members = rendered.all_members if directive.inherited_members else rendered.members
            for name, member in members.items():
                try:
                    target = t.cast(griffe.Object, member.final_target if member.is_alias else member)
                except (griffe.AliasResolutionError, griffe.CyclicAliasError):
                    continue
                if not name.startswith("_"):
                    result.rendered[target.path] = target
        for path in [*names, *methods]:
            if path == rendered.path or path.startswith(f"{rendered.path}."):
                result.documented_by.setdefault(path, []).append(directive)
    return result


def described_parameters(function: griffe.Function, extra: griffe.Object | None = None) -> tuple[list[str], list[str]]:
    """``(parameters, undescribed)`` of ``function`` (``self``/``cls`` aside); ``extra`` is the
    class whose docstring describes its constructor's parameters. A parameter is described by a
    ``:param name:`` field.
    """
    names = [parameter.name for parameter in function.parameters if parameter.name not in ("self", "cls")]
    described: set[str] = set()
    for owner in (function, extra):
        if owner is not None and owner.docstring is not None:
            for section in owner.docstring.parse(griffe.Parser.sphinx, warnings=False):
                if section.kind is griffe.DocstringSectionKind.parameters:
                    described |= {parameter.name.lstrip("*") for parameter in section.value}
    return names, [name for name in names if name not in described]


def figures(result: Survey) -> dict[str, tuple[int, int]]:
    """``{figure: (count, total)}``: names documented, methods with a docstring, parameters described,
    and the docstrings' cross-references (reST roles) that name an object the reference renders
    (the others name modules and helpers outside it, and show as code)."""
    names_documented = sum(1 for path in result.names if path in result.documented_by and result.objects[path].docstring)
    methods_documented = sum(1 for path, method in result.methods.items() if path in result.documented_by and method.docstring)
    callables = []
    for path, found in result.objects.items():
        if found.is_function:
            callables.append((t.cast(griffe.Function, found), None))
        elif found.is_class and isinstance(found.members.get("__init__"), griffe.Function):
            callables.append((t.cast(griffe.Function, found.members["__init__"]), found))
    names_parameters = [described_parameters(function, extra) for function, extra in callables]
    method_parameters = [described_parameters(t.cast(griffe.Function, method)) for method in result.methods.values() if method.is_function]
    references = [
        identifier
        for found in result.rendered.values()
        if found.docstring is not None
        for identifier in re.findall(r'<autoref identifier="([^"]+)"', found.docstring.value)
    ]
    return {
        "public names documented": (names_documented, len(result.names)),
        "public methods and properties documented": (methods_documented, len(result.methods)),
        "parameters of public functions and constructors described": (
            sum(len(names) - len(missing) for names, missing in names_parameters),
            sum(len(names) for names, _ in names_parameters),
        ),
        "parameters of public methods described": (
            sum(len(names) - len(missing) for names, missing in method_parameters),
            sum(len(names) for names, _ in method_parameters),
        ),
        "cross-references of the rendered docstrings that link": (
            sum(1 for identifier in references if _canonical(result, identifier) in result.rendered),
            len(references),
        ),
    }


def _canonical(result: Survey, identifier: str) -> str:
    assert result.package is not None
    try:
        return lookup(result.package, identifier).path
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return identifier


def main() -> None:
    result = survey()
    for label, (count, total) in figures(result).items():
        print(f"{label}: {count} / {total}")


if __name__ == "__main__":
    main()
