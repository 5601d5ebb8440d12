"""A Griffe extension: the docstrings' reST markup, rendered by mkdocstrings as Markdown.

The package's docstrings are reST in the Sphinx style (they also serve ``help()``); mkdocstrings
renders them as Markdown, where reST's roles and literals would show as raw text. Before
mkdocstrings parses a docstring, this extension rewrites, in its text only:

- a role (``:class:``, ``:meth:``, ``:attr:``, ``:func:``, ``:mod:``, ``:data:``, ``:exc:``,
  ``:obj:``) into an mkdocs-autorefs cross-reference,
  ``<autoref identifier="mcp_sdk.errors.MCPError" optional><code>MCPError</code></autoref>``.
  A dotted target is taken as written; a short or relative one (``Tool``, ``on_progress``,
  ``.conf``, ``Client.from_config``) is resolved in the scope of the documented object (its
  members, then its module's names, as Python would), and left as written when it does not
  resolve. ``~`` shows only the last component; ``:role:`title <target>``` shows the title. The
  ``optional`` attribute makes a target the site does not document render as plain code
  instead of failing the strict build;
- a ``double-backtick`` literal into a Markdown code span, and ``:raises ~a.b.Error:`` into
  ``:raises a.b.Error:`` (the page shows the exception's type as written: no stray ``~``);
- a method without a docstring that overrides a documented one gets that docstring, as
  ``inspect.getdoc`` gives it;
- an attribute's ``#:`` comment (Sphinx's attribute doc) into its docstring;
- a ``.. code-block:: LANGUAGE`` directive, or a literal block introduced by ``::`` at the end of
  a paragraph (Python, as in Sphinx), into a fenced block.

Loaded by the python handler's ``extensions:`` option in ``mkdocs.yml``.
"""

from __future__ import annotations

import html
import re
import textwrap
import typing as t
from pathlib import Path

import griffe

ROLE = re.compile(r":(?P<role>class|meth|attr|func|mod|data|exc|obj):`(?P<text>[^`]+)`")
LITERAL = re.compile(r"``(?P<code>[^`]+?)``")
DIRECTIVE = re.compile(r"^(?P<indent>[ ]*)\.\. code-block::[ ]*(?P<language>\w+)[ ]*$")
TITLED = re.compile(r"^(?P<title>.*?)\s*<(?P<target>[^<>]+)>$", re.DOTALL)


def _exists(root: griffe.Object, path: str) -> bool:
    head, _, rest = path.partition(".")
    if head != root.name:
        return False
    try:
        root[rest] if rest else root
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return False
    return True


def _root(obj: griffe.Object | griffe.Alias) -> griffe.Object:
    while obj.parent is not None:
        obj = obj.parent
    return t.cast(griffe.Object, obj)


def _followed(root: griffe.Object, path: str) -> str:
    """``path``, or what it aliases when it is an attribute naming another object
    (``Tool.Response: TypeAlias = Response``: the class, which the reference documents)."""
    try:
        found = root[path.partition(".")[2]]
    except (KeyError, ValueError, griffe.AliasResolutionError, griffe.CyclicAliasError):
        return path
    if found.is_alias or not found.is_attribute:
        return path
    value = found.value
    if isinstance(value, griffe.ExprName) and _exists(root, value.canonical_path):
        return value.canonical_path
    return path


def resolve(obj: griffe.Object, target: str) -> str:
    """The full path ``target`` names from the docstring of ``obj``; ``target`` itself if none."""
    return _followed(_root(obj), _resolve(obj, target.rstrip("()")))


def _resolve(obj: griffe.Object, target: str) -> str:
    root = _root(obj)
    if target.startswith("."):
        module = obj if obj.is_module else obj.module
        dots = len(target) - len(target.lstrip("."))
        base = module.path if module.is_init_module else module.parent.path if module.parent else module.path
        for _ in range(dots - 1):
            base = base.rpartition(".")[0]
        candidate = f"{base}.{target.lstrip('.')}"
        return candidate if _exists(root, candidate) else target
    if _exists(root, target):
        return target
    head, _, rest = target.partition(".")
    scope: griffe.Object | griffe.Alias | None = obj
    while scope is not None:
        try:
            found = scope.resolve(head)
        except (griffe.NameResolutionError, ValueError, KeyError):
            found = None
        if found is not None:
            candidate = f"{found}.{rest}" if rest else found
            if _exists(root, candidate) or not rest:
                return candidate
        scope = scope.parent
    return target


def _role(obj: griffe.Object, match: re.Match[str]) -> str:
    text = " ".join(match.group("text").split())
    titled = TITLED.match(text)
    title, target = (titled.group("title"), titled.group("target")) if titled else (None, text)
    short = target.startswith("~")
    target = target.lstrip("~")
    identifier = resolve(obj, target)
    shown = title or (target.rstrip("()").rpartition(".")[2] + ("()" if target.endswith("()") else "") if short else target)
    code = f"<code>{html.escape(shown)}</code>"
    if not identifier.startswith(_root(obj).name + ".") and identifier != _root(obj).name:
        return f"`{shown}`"
    return f'<autoref identifier="{html.escape(identifier)}" optional>{code}</autoref>'


def _blocks(text: str) -> str:
    """``text`` with its code-block directives and ``::`` literal blocks as fenced blocks."""
    lines = text.split("\n")
    out: list[str] = []
    index = 0
    while index < len(lines):
        line = lines[index]
        directive = DIRECTIVE.match(line)
        literal = line.rstrip().endswith("::") and not line.lstrip().startswith(":") and line.strip() != "::"
        if not (directive or literal):
            out.append(line)
            index += 1
            continue
        indent = len(line) - len(line.lstrip())
        if directive:
            language = directive.group("language")
        else:
            language = "python"
            out.append(line.rstrip()[:-1])  # "Example::" reads "Example:"
        index += 1
        body: list[str] = []
        while index < len(lines) and (not lines[index].strip() or len(lines[index]) - len(lines[index].lstrip()) > indent):
            body.append(lines[index])
            index += 1
        while body and not body[-1].strip():
            body.pop()
        code = textwrap.dedent("\n".join(body)).strip("\n")
        pad = " " * indent
        out.extend(["", f"{pad}```{language}", *(pad + row if row else row for row in code.split("\n")), f"{pad}```", ""])
    return "\n".join(out)


RAISES_TILDE = re.compile(r"^(?P<field>[ ]*:raises[ ]+)~(?=[\w.]+:)", re.MULTILINE)


def markdown(obj: griffe.Object, text: str) -> str:
    """The Markdown mkdocstrings should read for the reST docstring ``text`` of ``obj``."""
    text = RAISES_TILDE.sub(lambda match: match.group("field"), text)
    parts = re.split(r"(^[ ]*```.*?^[ ]*```$)", _blocks(text), flags=re.MULTILINE | re.DOTALL)
    for number in range(0, len(parts), 2):  # prose only, never the fenced code
        prose = ROLE.sub(lambda match: _role(obj, match), parts[number])
        parts[number] = LITERAL.sub(lambda match: f"`{match.group('code')}`", prose)
    return "".join(parts)


def _attrs_arguments(decorator: griffe.Decorator) -> dict[str, str]:
    value = decorator.value
    if not isinstance(value, griffe.ExprCall):
        return {}
    return {argument.name: str(argument.value) for argument in value.arguments if isinstance(argument, griffe.ExprKeyword)}


def _is_attrs(decorator: griffe.Decorator) -> bool:
    value = decorator.value.function if isinstance(decorator.value, griffe.ExprCall) else decorator.value
    return isinstance(value, griffe.Expr) and value.canonical_path.split(".")[0] in ("attrs", "attr")


def attrs_init(cls: griffe.Class) -> None:
    """Give an attrs class the ``__init__`` attrs generates, so its ``:param:`` fields match a signature."""
    decorator = next((decorator for decorator in cls.decorators if _is_attrs(decorator)), None)
    if decorator is None or "__init__" in cls.members:
        return
    kw_only = _attrs_arguments(decorator).get("kw_only") == "True"
    parameters = [griffe.Parameter("self", kind=griffe.ParameterKind.positional_or_keyword)]
    for member in cls.members.values():
        if not isinstance(member, griffe.Attribute) or member.annotation is None or "property" in member.labels:
            continue
        if "class-attribute" in member.labels and "instance-attribute" not in member.labels:
            continue  # a ClassVar (griffe unwraps its annotation)
        default: str | griffe.Expr | None = member.value
        if isinstance(member.value, griffe.ExprCall) and member.value.function.canonical_path.split(".")[-1] in ("field", "ib"):
            arguments = _attrs_arguments(griffe.Decorator(member.value, lineno=0, endlineno=0))
            if arguments.get("init") == "False":
                continue
            default = arguments.get("default", f"{arguments['factory']}()" if "factory" in arguments else None)
        kind = griffe.ParameterKind.keyword_only if kw_only else griffe.ParameterKind.positional_or_keyword
        parameters.append(griffe.Parameter(member.name.lstrip("_"), annotation=member.annotation, kind=kind, default=default))
    init = griffe.Function("__init__", lineno=0, endlineno=0, parent=cls, parameters=griffe.Parameters(*parameters), returns="None")
    cls.set_member("__init__", init)


def comment_docstring(obj: griffe.Object, loader: griffe.GriffeLoader) -> None:
    """Give an attribute documented Sphinx's way, by ``#:`` comment lines right above it, that
    comment as its docstring (Griffe reads only a string literal after the assignment)."""
    if obj.lineno is None or not isinstance(obj.filepath, Path):
        return
    lines = obj.lines_collection[obj.filepath] if obj.filepath in obj.lines_collection else []
    comment: list[str] = []
    number = obj.lineno - 2
    while number >= 0 and lines[number].strip().startswith("#:"):
        comment.insert(0, lines[number].strip()[2:].strip())
        number -= 1
    if comment:
        obj.docstring = griffe.Docstring(
            "\n".join(comment),
            lineno=number + 2,
            parser=loader.docstring_parser,
            parser_options=loader.docstring_options,
            parent=obj,
        )


class SphinxRoles(griffe.Extension):
    """Rewrite each docstring's reST roles, literals and code blocks into Markdown (module doc);
    give attrs classes their generated ``__init__`` signature."""

    def on_object(self, *, obj: griffe.Object, loader: griffe.GriffeLoader, **kwargs: t.Any) -> None:
        if obj.is_attribute and obj.docstring is None:
            comment_docstring(obj, loader)
        if obj.docstring is not None and obj.docstring.value:
            obj.docstring.value = markdown(obj, obj.docstring.value)

    def on_class(self, *, cls: griffe.Class, loader: griffe.GriffeLoader, **kwargs: t.Any) -> None:
        attrs_init(cls)

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: t.Any) -> None:
        inherit_docstrings(pkg)


def inherit_docstrings(obj: griffe.Object) -> None:
    """Give a method that overrides a documented one, and has no docstring of its own, the
    docstring it overrides, as ``inspect.getdoc`` (and so ``help()``) does."""
    for member in list(obj.members.values()):
        if member.is_alias:
            continue
        if member.is_class:
            cls = t.cast(griffe.Class, member)
            try:
                bases = cls.mro()
            except ValueError:
                bases = []
            for name, method in cls.members.items():
                if method.is_alias or method.docstring is not None or not (method.is_function or method.is_attribute):
                    continue
                for base in bases:
                    overridden = base.members.get(name)
                    if overridden is not None and not overridden.is_alias and overridden.docstring is not None:
                        docstring = overridden.docstring
                        method.docstring = griffe.Docstring(
                            docstring.value,
                            lineno=docstring.lineno,
                            parser=docstring.parser,
                            parser_options=docstring.parser_options,
                            parent=method,
                        )
                        break
        if member.is_module or member.is_class:
            inherit_docstrings(t.cast(griffe.Object, member))
