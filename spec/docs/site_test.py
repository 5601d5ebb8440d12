"""The documentation site is whole: every page in mkdocs.yml's nav exists and is written, and every
page under docs/ is in the nav (the strict build in .ci/run checks links and references)."""

from __future__ import annotations

import yaml

from spec.docs.blocks import ROOT


def _nav_pages(entry: object) -> list[str]:
    if isinstance(entry, str):
        return [entry]
    if isinstance(entry, list):
        return [page for item in entry for page in _nav_pages(item)]
    if isinstance(entry, dict):
        return [page for value in entry.values() for page in _nav_pages(value)]
    return []


def nav_pages() -> list[str]:
    """The pages mkdocs.yml's nav lists, relative to docs/."""
    # mkdocs.yml may hold !!python/name tags (pymdownx options); the nav needs none of them.
    config = yaml.load((ROOT / "mkdocs.yml").read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    return _nav_pages(config["nav"])


def test_every_page_of_the_nav_exists_and_none_is_a_stub() -> None:
    pages = nav_pages()
    assert len(pages) == len(set(pages))
    stubs = [page for page in pages if "<!-- stub" in (ROOT / "docs" / page).read_text(encoding="utf-8")]
    assert stubs == []


def test_every_page_under_docs_is_in_the_nav() -> None:
    written = sorted(str(path.relative_to(ROOT / "docs")) for path in (ROOT / "docs").rglob("*.md"))
    assert written == sorted(nav_pages())
