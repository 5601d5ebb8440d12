"""What the doc test runs around blocks marked ``<!-- fragment: NAME -->``: ``(before, after)``.

Each module of this package that defines ``COMPLETIONS`` contributes its entries (one module per
part of the documentation, so that pages are written side by side); a name defined twice is an
error. Keep each completion the smallest code that makes the block run as a reader's program
would; ``after`` may exercise what the block built.
"""

from __future__ import annotations

import importlib
import pkgutil


def _collect() -> dict[str, tuple[str, str]]:
    collected: dict[str, tuple[str, str]] = {}
    for module_info in sorted(pkgutil.iter_modules(__path__), key=lambda info: info.name):
        module = importlib.import_module(f"{__name__}.{module_info.name}")
        for name, completion in getattr(module, "COMPLETIONS", {}).items():
            if name in collected:
                raise ValueError(f"fragment {name!r} is completed twice (again in {module.__name__})")
            collected[name] = completion
    return collected


COMPLETIONS = _collect()
