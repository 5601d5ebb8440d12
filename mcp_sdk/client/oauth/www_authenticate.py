"""Parsing of the ``WWW-Authenticate`` header (RFC 9110 section 11.6.1, RFC 6750 section 3).

A header can hold several challenges (``Basic realm="x", Bearer scope="a b"``),
and requests joins repeated headers with ``", "``, so commas separate both
parameters and challenges; quoted strings may contain commas and ``\\"`` escapes.
"""

from __future__ import annotations

import re
import typing as t

_TOKEN = r"[!#$%&'*+\-.^_`|~0-9A-Za-z]+"
_SCHEME = re.compile(rf"\s*({_TOKEN})")
# A param value is a quoted-string or a token; unquoted values are read up to the
# next comma or space because servers in the wild send bare URLs there.
_PARAM = re.compile(rf'\s*({_TOKEN})\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^\s,"]+))')
_TOKEN68 = re.compile(r"\s*([A-Za-z0-9\-._~+/]+=*)\s*(?=,|$)")
_QUOTED_PAIR = re.compile(r"\\(.)")
_COMMA = re.compile(r"\s*,")


class Challenge(t.NamedTuple):
    """One challenge: its scheme, its parameters (lower-cased names) and any token68."""

    scheme: str
    params: dict[str, str]
    token68: str | None = None


def parse_www_authenticate(header: str | None) -> list[Challenge]:
    """Every challenge in ``header``, in order; ``[]`` for ``None`` or garbage.

    :param header: the ``WWW-Authenticate`` header's value, or None.
    :returns: the challenges, each with its scheme and parameters.
    """
    if not header:
        return []
    challenges: list[Challenge] = []
    pos = 0
    length = len(header)
    while pos < length:
        while pos < length and header[pos] in " \t,":
            pos += 1
        scheme = _SCHEME.match(header, pos)
        if scheme is None:
            break
        pos = scheme.end()
        params: dict[str, str] = {}
        token68 = None
        found = _TOKEN68.match(header, pos)
        if found is not None and header[pos : pos + 1] in (" ", "\t"):
            token68 = found.group(1)
            pos = found.end()
        else:
            pos = _read_params(header, pos, params)
        challenges.append(Challenge(scheme.group(1), params, token68))
        while pos < length and header[pos] in " \t":
            pos += 1
        if pos < length and header[pos] != ",":
            break  # unparseable rest: keep what was understood
    return challenges


def _read_params(header: str, pos: int, params: dict[str, str]) -> int:
    while True:
        match = _PARAM.match(header, pos)
        if match is None:
            return pos
        name = match.group(1).lower()
        quoted, bare = match.group(2), match.group(3)
        value = _QUOTED_PAIR.sub(r"\1", quoted) if quoted is not None else bare
        # RFC 9110: a parameter name must not repeat; keep the first occurrence.
        params.setdefault(name, value)
        pos = match.end()
        rest = _COMMA.match(header, pos)
        if rest is None:
            return pos
        # After a comma comes either another parameter or the next challenge's scheme.
        if _PARAM.match(header, rest.end()) is None:
            return pos
        pos = rest.end()


def bearer_challenge(header: str | None) -> dict[str, str] | None:
    """The parameters of the first ``Bearer`` challenge in ``header``, or ``None``."""
    for challenge in parse_www_authenticate(header):
        if challenge.scheme.lower() == "bearer":
            return challenge.params
    return None


def token_challenge(header: str | None) -> dict[str, str] | None:
    """The parameters of the first ``Bearer`` or ``DPoP`` challenge in ``header``, or ``None``.

    A DPoP-protected resource (RFC 9449 section 7.1) challenges with the ``DPoP``
    scheme and the same parameters (``error``, ``scope``, ``resource_metadata``).
    """
    for challenge in parse_www_authenticate(header):
        if challenge.scheme.lower() in ("bearer", "dpop"):
            return challenge.params
    return None
