"""A package's public names, each imported from its submodule when first asked for (PEP 562).

``__getattr__ = lazy_names(__name__, {"RateLimit": "rate_limit"}, globals())`` in a package's
``__init__`` makes ``from package import RateLimit`` load ``package.rate_limit`` then, not when the
package is imported, so what a server does not use costs it nothing at start-up.
"""

from __future__ import annotations

import importlib
import typing as t


def lazy_names(package: str, homes: t.Mapping[str, str], namespace: dict[str, t.Any]) -> t.Callable[[str], t.Any]:
    """A module ``__getattr__`` for ``package``: each name of ``homes`` from its submodule.

    :param package: the package's ``__name__``.
    :param homes: public name -> the submodule (relative to ``package``) that defines it.
    :param namespace: the package's ``globals()``: a name found once is kept there, so the
        next lookup does not come back here.
    :returns: the function to assign to the package's ``__getattr__``; for any other name it
        raises :class:`AttributeError`, as a module does.
    """

    def __getattr__(name: str) -> t.Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f"{package}.{home}"), name)
        namespace[name] = value
        return value

    return __getattr__


__all__ = ["lazy_names"]
