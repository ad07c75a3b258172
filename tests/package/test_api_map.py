"""The API reference's overview is its map: every page of the navigation, every module.

``docs/api/index.md`` lists the pages in tables; ``mkdocs.yml`` puts the pages in the
navigation. A page in the navigation but not in the overview, or a public module of the
package on no page, is a module a reader cannot find from the overview.
"""

from __future__ import annotations

import pkgutil
import re

import pickomino_rules
from support import ROOT

API = ROOT / "docs" / "api"
NAV_ENTRY = re.compile(r"^\s*- (?P<title>[^:\n]+): (?P<page>api/[\w/]+\.md)\s*$", re.MULTILINE)
OVERVIEW_LINK = re.compile(r"^\| \[[^]]+\]\((?P<page>[\w/]+\.md)\) \|", re.MULTILINE)


def navigation() -> dict[str, str]:
    """The API reference's pages in the navigation: file name (under docs/api) -> title."""
    text = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    return {m["page"].removeprefix("api/"): m["title"] for m in NAV_ENTRY.finditer(text)}


def overview() -> list[str]:
    """The pages the overview's tables link to, in order."""
    return OVERVIEW_LINK.findall((API / "index.md").read_text(encoding="utf-8"))


def public_modules() -> list[str]:
    """The package's own public modules: ``pickomino_rules.X``, X not starting with ``_``."""
    return sorted(
        f"pickomino_rules.{found.name}"
        for found in pkgutil.iter_modules(pickomino_rules.__path__)
        if not found.name.startswith("_")
    )


def documented_on(page: str) -> set[str]:
    """The modules a page documents (its mkdocstrings ``::: module`` blocks)."""
    text = (API / page).read_text(encoding="utf-8")
    return set(re.findall(r"^::: *(pickomino_rules[\w.]*)", text, re.MULTILINE))


def test_every_page_of_the_navigation_is_in_the_overview() -> None:
    pages = navigation()
    assert len(pages) > 30  # the navigation was read
    listed = overview()
    missing = sorted(page for page in pages if page != "index.md" and page not in listed)
    assert not missing, f"in the navigation, not in docs/api/index.md: {missing}"
    unknown = sorted(set(listed) - set(pages))
    assert not unknown, f"in docs/api/index.md, not in the navigation: {unknown}"
    assert len(listed) == len(set(listed)), "a page listed twice in the overview"


def test_every_public_module_has_a_page_in_the_navigation() -> None:
    pages = navigation()
    modules = public_modules()
    assert "pickomino_rules.game" in modules
    assert "pickomino_rules.variants" in modules  # the built-in variants, installed inside
    documented = {module for page in pages for module in documented_on(page)}
    for module in modules:
        # a package counts when its page documents it or its modules (the built-in variants)
        assert any(name == module or name.startswith(f"{module}.") for name in documented), (
            f"{module} is on no page of the navigation's API reference"
        )
        titled = [title for title in pages.values() if title.split()[0] == module]
        assert len(titled) <= 1, f"{module} has {len(titled)} pages"
