"""The API reference documents every public name once, with its methods (issue 23).

The public names, the methods and what documents them are surveyed by ``spec/docs/api_coverage.py``
(``python -m spec.docs.api_coverage`` prints the figures). The last tests build the site and read
the reference's HTML: the docstrings' reST roles became links (``docs/griffe_roles.py``).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import typing as t

import griffe
import pytest

from spec.docs.api_coverage import REFERENCE, ROOT, Survey, described_parameters, directives, figures, lookup, survey

sys.path.insert(0, str(ROOT / "docs"))
import griffe_roles  # noqa: E402  (docs/ is not a package: the extension mkdocs.yml loads by path)


@pytest.fixture(scope="module")
def result() -> Survey:
    return survey()


def test_every_public_name_is_rendered_once_by_a_reference_page_and_has_a_docstring(result: Survey) -> None:
    undocumented = sorted(path for path in result.names if path not in result.documented_by)
    assert undocumented == [], "add a ::: directive for these to the page of the package they are imported from"
    twice = {path: [d.identifier for d in found] for path, found in result.documented_by.items() if path in result.names and len(found) > 1}
    assert twice == {}, "a name is documented once, where it is imported from"
    no_docstring = sorted(path for path, found in result.objects.items() if not (found.docstring and found.docstring.value.strip()))
    assert no_docstring == []


def test_every_public_method_and_property_is_rendered_with_a_docstring(result: Survey) -> None:
    assert sorted(path for path in result.methods if path not in result.documented_by) == []
    assert sorted(path for path, method in result.methods.items() if not (method.docstring and method.docstring.value.strip())) == []
    # a method inherited from a base that is not public shows only where the page asks for it
    for path, method in result.methods.items():
        owner = path.rpartition(".")[0]
        if method.parent is not None and method.parent.path != owner:
            assert result.inherits.get(owner), f"{owner}: render it with `options: inherited_members: true` (for {path})"


def test_the_figures_are_complete_for_names_and_methods(result: Survey) -> None:
    counted = figures(result)
    for label in ("public names documented", "public methods and properties documented"):
        count, total = counted[label]
        assert count == total > 0, label
    assert counted["public names documented"][1] == len(result.names) >= 140


def test_every_parameter_of_every_public_function_constructor_and_method_is_described(result: Survey) -> None:
    # a constructor's parameters may be described in its class's docstring (as mkdocstrings merges them)
    undescribed: dict[str, list[str]] = {}
    for path, found in result.objects.items():
        if found.is_function:
            _, missing = described_parameters(t.cast(griffe.Function, found))
        elif found.is_class and isinstance(found.members.get("__init__"), griffe.Function):
            _, missing = described_parameters(t.cast(griffe.Function, found.members["__init__"]), found)
        else:
            continue
        if missing:
            undescribed[path] = missing
    for path, method in result.methods.items():
        if method.is_function:
            _, missing = described_parameters(t.cast(griffe.Function, method))
            if missing:
                undescribed[path] = missing
    assert undescribed == {}, "give each parameter a `:param name:` line"
    counted = figures(result)
    for label in ("parameters of public functions and constructors described", "parameters of public methods described"):
        count, total = counted[label]
        assert count == total > 0, label


def test_every_directive_names_a_public_object_and_every_page_opens_with_a_paragraph() -> None:
    package = griffe.load("mcp_sdk", search_paths=[str(ROOT)], resolve_aliases=True, resolve_external=False)
    for directive in directives():
        assert lookup(package, directive.identifier) is not None
    for page in REFERENCE.glob("*.md"):
        lines = page.read_text(encoding="utf-8").splitlines()
        assert lines[0].startswith("# ") and lines[1] == "", page.name
        assert lines[2] and not lines[2].startswith((":::", "#", "|", "<!--")), f"{page.name}: start with what the package is for"


def test_the_reference_index_links_every_page() -> None:
    index = (REFERENCE / "index.md").read_text(encoding="utf-8")
    pages = {page.name for page in REFERENCE.glob("*.md")} - {"index.md"}
    assert {page for page in pages if f"]({page})" not in index} == set()


# -- the Griffe extension --------------------------------------------------------------------


@pytest.fixture(scope="module")
def package() -> griffe.Module:
    return griffe.load("mcp_sdk", search_paths=[str(ROOT)], resolve_aliases=True, resolve_external=False)


def test_roles_become_optional_autorefs_to_full_paths(package: griffe.Module) -> None:
    client = package["client.Client"]
    text = griffe_roles.markdown(client, "A :class:`~mcp_sdk.MCPError`, a :class:`mcp_sdk.Server`, :meth:`connect`, ``x=1``.")
    assert text == (
        'A <autoref identifier="mcp_sdk.MCPError" optional><code>MCPError</code></autoref>, '
        'a <autoref identifier="mcp_sdk.Server" optional><code>mcp_sdk.Server</code></autoref>, '
        '<autoref identifier="mcp_sdk.client.Client.connect" optional><code>connect</code></autoref>, `x=1`.'
    )


def test_short_and_relative_targets_resolve_in_the_documented_objects_scope(package: griffe.Module) -> None:
    django = package["contrib.django"]
    assert griffe_roles.resolve(django, ".conf") == "mcp_sdk.contrib.django.conf"
    assert griffe_roles.resolve(package["client.Client"], "Client.from_config") == "mcp_sdk.client.Client.from_config"
    assert griffe_roles.resolve(package["server"], "ServerSession") == "mcp_sdk.server.session.ServerSession"
    assert griffe_roles.resolve(package["client.Client"], "no_such_name") == "no_such_name"
    titled = griffe_roles.markdown(package["client.Client"], ":meth:`the handshake <connect>`")
    assert titled == '<autoref identifier="mcp_sdk.client.Client.connect" optional><code>the handshake</code></autoref>'


def test_code_blocks_become_fences_and_their_code_is_left_alone(package: griffe.Module) -> None:
    text = "Example::\n\n    x = ``1``\n\nThen:\n\n.. code-block:: json\n\n    {\"a\": 1}\n"
    assert griffe_roles.markdown(package, text) == 'Example:\n\n```python\nx = ``1``\n```\n\nThen:\n\n\n```json\n{"a": 1}\n```\n'


def test_an_attrs_class_gets_its_generated_signature_and_a_comment_documents_an_attribute() -> None:
    loaded = griffe.load(
        "mcp_sdk",
        search_paths=[str(ROOT)],
        resolve_aliases=True,
        resolve_external=False,
        extensions=griffe.load_extensions(griffe_roles.SphinxRoles),
    )
    init = loaded["server.transports.streamable_http.options.Limits.__init__"]
    names = [parameter.name for parameter in init.parameters]
    assert names[0] == "self" and {"wsgi_threads", "max_sessions", "body_timeout"} <= set(names)
    assert all(parameter.kind is griffe.ParameterKind.keyword_only for parameter in init.parameters if parameter.name != "self")
    assert loaded["protocol_version.LATEST_VERSION"].docstring.value == "The default and latest version of the session-based era."
    # an override without a docstring reads the one it overrides, as inspect.getdoc does
    overriding = loaded["server.transports.streamable_http.streams.event_store.InMemoryEventStore.store_event"]
    overridden = loaded["server.transports.streamable_http.streams.event_store.EventStore.store_event"]
    assert overriding.docstring.value.split("\n")[0] == overridden.docstring.value.split("\n")[0]
    # ... with its roles resolved in the overriding class's scope
    assert "event_store.InMemoryEventStore.replay_events_after" in overriding.docstring.value


# -- the built site ----------------------------------------------------------------------------


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    directory = tmp_path_factory.mktemp("site")
    completed = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(directory)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert completed.returncode == 0, completed.stderr[-5000:]
    return directory / "reference"


def test_the_built_reference_shows_no_raw_rest(site: Path) -> None:
    for page in site.glob("*/index.html"):
        text = page.read_text(encoding="utf-8")
        assert re.findall(r":(?:class|meth|attr|func|mod|data|exc|obj):`", text) == [], page
        assert re.findall(r"^\s*:(?:param|returns?|raises|ivar)\b", text, re.MULTILINE) == [], page  # fields parsed
        assert "``" not in text, page
        assert "<autoref" not in text, page
        assert "<code>~" not in text, page


def test_roles_naming_documented_objects_link_to_them(site: Path) -> None:
    client = (site / "client" / "index.html").read_text(encoding="utf-8")
    assert client.count('class="autorefs autorefs-internal"') > 50
    # Client's docstring: :class:`~mcp_sdk.MCPError` (another page), :meth:`connect` (a member, short name)
    assert re.search(r'href="\.\./mcp_sdk/#mcp_sdk\.MCPError"><code>MCPError</code></a>', client)
    assert re.search(r'href="#mcp_sdk\.Client\.connect"><code>connect</code></a>', client)
    transports = (site / "transports" / "index.html").read_text(encoding="utf-8")
    # a relative target, :class:`~.Limits` in the transport's package, links to the page of the package it is imported from
    assert re.search(r'href="\.\./streamable-http/#mcp_sdk\.server\.transports\.streamable_http\.Limits"><code>Limits</code></a>', transports)


def test_every_param_field_names_a_parameter_of_its_function_once() -> None:
    # A ``:param x:`` under the wrong function, or twice, would render a wrong table.
    import ast

    def parameters(function: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
        arguments = function.args
        found = {argument.arg for argument in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
        return found | {argument.arg for argument in (arguments.vararg, arguments.kwarg) if argument is not None}

    wrong = []
    for path in sorted((ROOT / "mcp_sdk").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
                continue
            names = re.findall(r"^\s*:param (?:[\w\[\], .|]+ )?\**(\w+):", ast.get_docstring(node, clean=False) or "", re.MULTILINE)
            if isinstance(node, ast.ClassDef):
                inits = [item for item in node.body if isinstance(item, ast.FunctionDef) and item.name == "__init__"]
                fields = {item.target.id.lstrip("_") for item in node.body if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name)}
                if not inits and not fields:
                    continue  # its constructor is inherited
                known = fields.union(*(parameters(init) for init in inits))
            else:
                known = parameters(node)
            if len(names) != len(set(names)) or set(names) - known:
                wrong.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name}: {sorted(set(names) - known)} {names}")
    assert wrong == []
