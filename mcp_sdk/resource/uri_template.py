"""RFC 6570 URI templates: expanding a template with values, and matching a URI back to them.

Expansion follows RFC 6570 section 3 and its appendix A for every level (1-4: the eight
operators, lists and associative arrays, the ``:n`` prefix and ``*`` explode modifiers).

Matching, the inverse that ``resources/read`` needs, is not specified by the RFC (section 1.4):
it is supported for levels 1-3 (``{var}``, ``{+var}``, ``{#var}``, ``{.var}``, ``{/var}``,
``{;var}``, ``{?a,b}``, ``{&c}``) and the explode modifier of ``{/var*}`` and ``{.var*}``
(giving a list). Matched values are percent-decoded (UTF-8). The rules:

- ``{var}`` and ``{+var}`` need a non-empty value; ``{var}`` stops at ``/`` (and, with a query
  expression after it, at ``?``), ``{+var}`` at ``?`` and ``#``; ``{.var}`` at ``.``, ``/``,
  ``?``, ``#``; ``{/var}`` at ``/``, ``?``, ``#``; ``{#var}`` takes the rest.
- A template ending in ``{?...}`` (optionally followed by ``{&...}``) reads the URI's query
  leniently, as the official Python SDK does: in any order, absent parameters left out (so a
  function's defaults apply), unknown ones ignored, ``+`` kept as ``+`` (RFC 3986, not forms).
- A value holding its own operator's separator unencoded does not round-trip
  (``{.ext}`` with ``"tar.gz"``): section 1.4 of the RFC calls this out.
"""

from __future__ import annotations

import re
import typing as t
from urllib.parse import quote, unquote

from ..errors import MCPError

#: URIs longer than this never match (a guard against pathological input).
MAX_URI_LENGTH = 65_536

_UNRESERVED = "-._~"  # with ALPHA and DIGIT, which quote() never encodes
_RESERVED = ":/?#[]@!$&'()*+,;="
_VARNAME = re.compile(r"(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+(?:\.(?:[A-Za-z0-9_]|%[0-9A-Fa-f]{2})+)*")
_PCT = re.compile(r"%[0-9A-Fa-f]{2}")


class URITemplateError(MCPError, ValueError):
    """A malformed URI template, or one whose form cannot be matched back to values."""


class _Operator(t.NamedTuple):
    first: str  # written before the first defined value
    separator: str  # between values
    named: bool  # name=value pairs
    if_empty: str  # after the name of an empty named value
    allow_reserved: bool  # reserved characters (and pct-triplets) left as they are

    def encode(self, text: str) -> str:
        """``text`` percent-encoded as this operator wants it."""
        return _encode(text, self.allow_reserved)

    def pair(self, name: str, text: str) -> str:
        """A named value: ``name=text``, or for an empty ``text`` the name and what follows it then."""
        return f"{name}={text}" if text else name + self.if_empty


# RFC 6570 appendix A, the table of operator behaviour.
_OPERATORS: dict[str, _Operator] = {
    "": _Operator("", ",", False, "", False),
    "+": _Operator("", ",", False, "", True),
    "#": _Operator("#", ",", False, "", True),
    ".": _Operator(".", ".", False, "", False),
    "/": _Operator("/", "/", False, "", False),
    ";": _Operator(";", ";", True, "", False),
    "?": _Operator("?", "&", True, "=", False),
    "&": _Operator("&", "&", True, "=", False),
}


class Variable(t.NamedTuple):
    """One variable of an expression: ``{name:prefix}`` or ``{name*}``."""

    name: str
    prefix: int | None = None
    explode: bool = False


class _Expression(t.NamedTuple):
    operator: str
    variables: tuple[Variable, ...]


class URITemplate:
    """A parsed RFC 6570 URI template.

    >>> URITemplate("file:///{+path}{?rev}").expand({"path": "src/a b.py", "rev": "2"})
    'file:///src/a%20b.py?rev=2'
    >>> URITemplate("file:///{+path}{?rev}").match("file:///src/a%20b.py")
    {'path': 'src/a b.py'}

    :param template: the template text.
    :raises URITemplateError: an unclosed or empty ``{}``, an unknown operator, a bad name or modifier.
    """

    def __init__(self, template: str) -> None:
        if not isinstance(template, str):
            raise URITemplateError(f"a URI template is a string, not {type(template).__name__}")
        self.template = template
        self._parts = _parse(template)
        self._matcher: _Matcher | None = None

    @property
    def variable_names(self) -> list[str]:
        """The names of the template's variables, in order, each once."""
        names: dict[str, None] = {}
        for part in self._parts:
            if isinstance(part, _Expression):
                names.update((variable.name, None) for variable in part.variables)
        return list(names)

    def is_template(self) -> bool:
        """Whether it has any expression (else it is a literal URI)."""
        return any(isinstance(part, _Expression) for part in self._parts)

    def expand(self, values: t.Mapping[str, t.Any]) -> str:
        """The URI for ``values`` (RFC 6570 section 3.2).

        :param values: name -> a string (numbers are written with ``str``), a list of strings, or
            a mapping or list of pairs (an associative array). Missing names, None, and empty
            lists and mappings are undefined: their expressions write nothing.
        :return: the URI, percent-encoded as each operator requires.
        :raises URITemplateError: a prefix modifier applied to a list or mapping.
        """
        return "".join(part if isinstance(part, str) else _expand(part, values) for part in self._parts)

    def match(self, uri: str) -> dict[str, t.Any] | None:
        """The variables' values if ``uri`` is an expansion of this template, else None.

        :return: name -> percent-decoded string (a list of strings for ``{/var*}`` and
            ``{.var*}``); query variables absent from the URI are left out.
        :raises URITemplateError: the template uses a form matching does not support
            (a prefix modifier, a named explode, a variable twice).
        """
        matcher = self._matcher
        if matcher is None:
            matcher = self._matcher = _Matcher(self.template, self._parts)
        return matcher.match(uri) if len(uri) <= MAX_URI_LENGTH else None

    def check_matchable(self) -> None:
        """Raise :class:`URITemplateError` now if :meth:`match` would (for registration time)."""
        self.match("")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, URITemplate) and other.template == self.template

    def __hash__(self) -> int:
        return hash(self.template)

    def __repr__(self) -> str:
        return f"URITemplate({self.template!r})"

    def __str__(self) -> str:
        return self.template


# -- parsing -------------------------------------------------------------------


def _parse(template: str) -> list[str | _Expression]:
    parts: list[str | _Expression] = []
    position = 0
    while position < len(template):
        opening = template.find("{", position)
        closing = template.find("}", position)
        if closing != -1 and (opening == -1 or closing < opening):
            raise URITemplateError(f"unmatched '}}' at {closing} in URI template {template!r}")
        if opening == -1:
            parts.append(template[position:])
            break
        if opening > position:
            parts.append(template[position:opening])
        closing = template.find("}", opening)
        if closing == -1 or "{" in template[opening + 1 : closing]:
            raise URITemplateError(f"unclosed '{{' at {opening} in URI template {template!r}")
        parts.append(_expression(template, template[opening + 1 : closing]))
        position = closing + 1
    return parts


def _expression(template: str, body: str) -> _Expression:
    operator = body[:1] if body[:1] in _OPERATORS and body[:1] != "" else ""
    if body[:1] and body[:1] in "=,!@|":
        raise URITemplateError(f"operator {body[:1]!r} is reserved (RFC 6570 section 2.2) in {template!r}")
    specs = body[len(operator) :].split(",")
    variables = []
    for spec in specs:
        name, prefix, explode = spec, None, False
        if spec.endswith("*"):
            name, explode = spec[:-1], True
        elif ":" in spec:
            name, _, length = spec.partition(":")
            if not length.isdigit() or length.startswith("0") or len(length) > 4:
                raise URITemplateError(f"bad prefix modifier {spec!r} in URI template {template!r}")
            prefix = int(length)
        if not _VARNAME.fullmatch(name):
            raise URITemplateError(f"bad variable name {name!r} in URI template {template!r}")
        variables.append(Variable(name, prefix, explode))
    return _Expression(operator, tuple(variables))


# -- expansion (RFC 6570 appendix A) -------------------------------------------


def _encode(text: str, allow_reserved: bool) -> str:
    if not allow_reserved:
        return quote(text, safe=_UNRESERVED)
    # Reserved characters stay, and so do pct-encoded triplets already there.
    pieces, last = [], 0
    for triplet in _PCT.finditer(text):
        pieces += [quote(text[last : triplet.start()], safe=_UNRESERVED + _RESERVED), triplet.group()]
        last = triplet.end()
    pieces.append(quote(text[last:], safe=_UNRESERVED + _RESERVED))
    return "".join(pieces)


def _pairs(value: t.Any) -> list[tuple[str, str]] | None:
    if isinstance(value, t.Mapping):
        return [(str(key), _text(item)) for key, item in value.items()]
    if isinstance(value, (list, tuple)) and value and all(isinstance(item, tuple) and len(item) == 2 for item in value):
        return [(str(key), _text(item)) for key, item in value]
    return None


def _text(value: t.Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return value if isinstance(value, str) else str(value)


def _expand(expression: _Expression, values: t.Mapping[str, t.Any]) -> str:
    operator = _OPERATORS[expression.operator]
    written: list[str] = []
    for variable in expression.variables:
        value = values.get(variable.name)
        if value is None or (isinstance(value, (list, tuple, t.Mapping)) and not value):
            continue  # undefined
        written.append(_expand_variable(operator, variable, value))
    return operator.first + operator.separator.join(written) if written else ""


def _expand_variable(operator: _Operator, variable: Variable, value: t.Any) -> str:
    encode = operator.encode
    pairs = _pairs(value)
    if pairs is None and not isinstance(value, (list, tuple)):
        text = _text(value)
        if variable.prefix is not None:
            text = text[: variable.prefix]
        return operator.pair(variable.name, encode(text)) if operator.named else encode(text)
    if variable.prefix is not None:
        raise URITemplateError(f"the prefix modifier of {variable.name!r} does not apply to a list or mapping (RFC 6570 section 2.4.1)")
    if variable.explode:
        return _expand_exploded(operator, variable, value, pairs)
    if pairs is not None:
        joined = ",".join(f"{encode(key)},{encode(item)}" for key, item in pairs)
    else:
        joined = ",".join(encode(_text(item)) for item in value)
    return operator.pair(variable.name, joined) if operator.named else joined


def _expand_exploded(operator: _Operator, variable: Variable, value: t.Any, pairs: list[tuple[str, str]] | None) -> str:
    """A list or a mapping (``pairs``) exploded (``{name*}``): each item a value of its own, a
    mapping's as ``key=value``."""
    encode = operator.encode
    if pairs is not None:
        return operator.separator.join(
            operator.pair(encode(key), encode(item)) if operator.named else f"{encode(key)}={encode(item)}" for key, item in pairs
        )
    items = [_text(item) for item in value]
    return operator.separator.join(operator.pair(variable.name, encode(item)) if operator.named else encode(item) for item in items)


# -- matching -------------------------------------------------------------------

# What one value may hold, by operator: the characters that end it are left out.
_VALUE_PATTERNS = {"": "[^/]+", "+": "[^?#]+", "#": ".*", ".": "[^/?#.]*", "/": "[^/?#]*", ";": "[^;/?#]*", "?": "[^&#]*", "&": "[^&#]*"}


class _Matcher:
    """A template compiled to a regular expression, plus its lenient query tail."""

    def __init__(self, template: str, parts: list[str | _Expression]) -> None:
        seen: set[str] = set()
        for part in parts:
            if isinstance(part, str):
                continue
            for variable in part.variables:
                if variable.prefix is not None or (variable.explode and (part.operator not in (".", "/") or len(part.variables) > 1)):
                    raise URITemplateError(f"matching does not support {{{part.operator}{variable.name}...}} modifiers in {template!r}")
                if variable.name in seen:
                    raise URITemplateError(f"variable {variable.name!r} appears twice in {template!r}: it cannot be matched")
                seen.add(variable.name)
        path, self.query = _split_query_tail(parts)
        self.groups: list[Variable] = []
        regex = "".join(re.escape(part) if isinstance(part, str) else self._expression(part, bool(self.query)) for part in path)
        self.pattern = re.compile(regex, re.DOTALL)

    def _expression(self, expression: _Expression, query_follows: bool) -> str:
        operator = _OPERATORS[expression.operator]
        value = _VALUE_PATTERNS[expression.operator]
        if expression.operator == "" and (query_follows or len(expression.variables) > 1):
            value = "[^/?#,]+" if len(expression.variables) > 1 else "[^/?#]+"
        pieces = []
        for variable in expression.variables:
            group = f"g{len(self.groups)}"
            self.groups.append(variable)
            if variable.explode:
                pieces.append(f"(?P<{group}>(?:{re.escape(operator.separator)}{value})*)")
                continue
            captured = f"(?P<{group}>{value})"
            if operator.named:
                name = re.escape(variable.name)
                captured = f"{name}(?:={captured})?" if expression.operator == ";" else f"{name}={captured}"
            pieces.append(captured)
        if expression.variables[0].explode:
            return "".join(pieces)  # the explode group writes its own separators
        return re.escape(operator.first) + re.escape(operator.separator).join(pieces)

    def match(self, uri: str) -> dict[str, t.Any] | None:
        path, query = uri, ""
        if self.query:
            path, _, query = uri.partition("#")[0].partition("?")
        found = self.pattern.fullmatch(path)
        if found is None:
            return None
        values: dict[str, t.Any] = {}
        for index, variable in enumerate(self.groups):
            raw = found.group(f"g{index}")
            if variable.explode:
                values[variable.name] = [unquote(item) for item in raw.split(raw[:1])[1:]] if raw else []
            else:
                values[variable.name] = unquote(raw or "")
        if query:
            given: dict[str, str] = {}
            for pair in query.split("&"):
                name, _, text = pair.partition("=")
                given.setdefault(name, unquote(text))  # names are never encoded by expansion: not decoded
            values.update((name, given[name]) for name in self.query if name in given)
        return values


def _split_query_tail(parts: list[str | _Expression]) -> tuple[list[str | _Expression], list[str]]:
    """The parts before a trailing ``{?...}{&...}`` run, and that run's variable names (matched
    leniently); no run when the path part could itself hold a ``?`` or ``#``."""
    split = len(parts)
    while split > 0 and isinstance(parts[split - 1], _Expression) and t.cast(_Expression, parts[split - 1]).operator in ("?", "&"):
        split -= 1
    tail = t.cast("list[_Expression]", parts[split:])
    if not tail or tail[0].operator != "?":
        return parts, []
    for part in parts[:split]:
        if ("?" in part or "#" in part) if isinstance(part, str) else part.operator in ("?", "#"):
            return parts, []
    return parts[:split], [variable.name for expression in tail for variable in expression.variables]


__all__ = ["MAX_URI_LENGTH", "URITemplate", "URITemplateError", "Variable"]
