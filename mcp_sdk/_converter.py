"""The package's own cattrs converter: camelCase keys on the wire, ``None`` left out.

Value types are attrs classes whose field names are snake_case; ``meta``
becomes ``_meta``. Never the global converter (cattrs advises a private one).
"""

from __future__ import annotations

import functools
import typing as t

import attrs

from .string_utils import camelize

if t.TYPE_CHECKING:
    import cattrs


@functools.cache
def _converter() -> cattrs.Converter:
    # Built on first use: cattrs is the largest import of the package, and a server that
    # answers with plain dicts (most do) never needs it.
    import cattrs
    from cattrs.gen import make_dict_unstructure_fn, override

    converter = cattrs.Converter()

    def unstructure_factory(cls: type) -> t.Callable[[t.Any], dict[str, t.Any]]:
        # Typed Any: the keywords are field names, known only at run time, and cattrs' signature
        # types its own `_cattrs_*` flags as bool, which a dict of overrides cannot be checked against.
        overrides: dict[str, t.Any] = {
            f.name: override(rename=camelize(f.name), omit_if_default=f.default is None) for f in attrs.fields(cls)
        }
        return make_dict_unstructure_fn(cls, converter, **overrides)

    converter.register_unstructure_hook_factory(attrs.has, unstructure_factory)
    return converter


def unstructure(value: t.Any) -> t.Any:
    """An attrs object as its wire dict: camelCase keys, ``None`` fields left out, ``meta`` as ``_meta``."""
    return _converter().unstructure(value)


def to_wire(value: t.Any) -> t.Any:
    """The wire form of a value: attrs objects unstructured, objects with ``to_dict`` asked, the rest as is."""
    if isinstance(value, (dict, str, int, float, bool)) or value is None:
        return value
    to_dict = getattr(value, "to_dict", None)
    if to_dict is not None:
        return to_dict()
    if isinstance(value, (list, tuple)):
        return [to_wire(item) for item in value]
    return unstructure(value)
