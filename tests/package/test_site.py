"""The built docs site shows no raw Markdown: no literal code fences, attribute lists or links.

`mkdocs build --strict` misses Markdown that renders as text (a fence it did not recognise
becomes a paragraph with backticks). This builds the site and reads every page's text outside
code. It needs the docs extra (``pip install -e ".[docs]"``), which CI installs; the checker
itself is tested on its own below in every run.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

RAW_MARKDOWN = {
    "a code fence": re.compile(r"```|~~~"),
    "an attribute list": re.compile(r"\{\s*\.[a-z][\w-]*"),
    "a reference link": re.compile(r"\]\[[\w.-]*\]"),
    "an inline link": re.compile(r"\]\((?:https?:|[\w./-]+\.md)"),
    "bold or italic marks": re.compile(r"(?<![\w*])\*\*?[A-Za-z][^*\n]{0,80}\*\*?(?![\w*])"),
    "a heading mark": re.compile(r"(?m)^#{1,6} \w"),
    "a backslash escape": re.compile(r"\\b\b"),
}


class _ProseText(HTMLParser):
    """The text of a page outside code, scripts and styles, line by line."""

    _SKIPPED = frozenset({"code", "pre", "script", "style", "svg"})

    def __init__(self) -> None:
        super().__init__()
        self.depth = 0
        self.parts: list[str] = []

    def handle_starttag(self, tag: str, _attrs: list[tuple[str, str | None]]) -> None:
        if tag in self._SKIPPED:
            self.depth += 1

    def handle_endtag(self, tag: str) -> None:
        if tag in self._SKIPPED and self.depth:
            self.depth -= 1

    def handle_data(self, data: str) -> None:
        if not self.depth:
            self.parts.append(data)


def raw_markdown(html: str) -> list[str]:
    """What looks like unrendered Markdown in the prose of ``html``: one line per finding."""
    reader = _ProseText()
    reader.feed(html)
    text = "".join(reader.parts)
    found = []
    for what, pattern in RAW_MARKDOWN.items():
        for match in pattern.finditer(text):
            start = max(0, match.start() - 40)
            found.append(f"{what}: ...{text[start : match.end() + 40]!r}...")
    return found


_FENCE_LINE = re.compile(r"^(?P<indent> *)(?P<marker>`{3,}|~{3,})(?P<rest>.*)$")


def unbalanced_fences(markdown: str) -> list[str]:
    """Fences that do not open and close on lines of their own, by line number.

    A closing fence followed by text (```` ``` A failure raises ````) is no closing fence:
    the block runs on and swallows the prose after it, which the built site then shows as
    code, where the raw-Markdown check cannot see it.
    """
    found, opened = [], None
    for number, line in enumerate(markdown.splitlines(), 1):
        fence = _FENCE_LINE.match(line)
        if fence is None:
            continue
        if opened is None:
            opened = (number, fence["marker"])
        elif fence["marker"].startswith(opened[1]) and not fence["rest"].strip():
            opened = None
        elif fence["marker"].startswith(opened[1]):  # as long a fence, but with text after it
            found.append(f"line {number}: a fence with text after it: {line.strip()[:40]!r}")
    if opened is not None:
        found.append(f"line {opened[0]}: a fence never closed")
    return found


def test_the_fence_checker_finds_a_fence_with_text_after_it() -> None:
    assert unbalanced_fences("```python\nx = 1\n```\n\ntext\n") == []
    assert unbalanced_fences("- item\n\n    ```toml\n    a = 1\n    ```\n") == []
    assert unbalanced_fences("````text\n```\n````\n") == []  # a fence inside a longer one
    assert unbalanced_fences("```text\n()\n``` A failure raises\nmore\n```\n") == [
        "line 3: a fence with text after it: '``` A failure raises'"
    ]
    assert unbalanced_fences("```python\nx = 1\n") == ["line 1: a fence never closed"]


@pytest.mark.parametrize(
    "page",
    sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md", ROOT / "CHANGELOG.md"]),
    ids=lambda page: page.name,
)
def test_every_fence_in_the_sources_opens_and_closes_on_its_own_line(page: Path) -> None:
    assert unbalanced_fences(page.read_text(encoding="utf-8")) == []


def repeated_rows(markdown: str) -> list[str]:
    """Rows that appear twice in one table (a generated table written over itself)."""
    found, table = [], []
    for line in [*markdown.splitlines(), ""]:
        if line.startswith("|"):
            table.append(line.strip())
            continue
        rows = table[2:]  # below the header and its rule
        found += sorted({row for row in rows if rows.count(row) > 1})
        table = []
    return found


def test_the_row_checker_finds_a_row_twice() -> None:
    table = "| bot | won |\n|---|---:|\n| `champion` | 54% |\n| `margin` | 46% |\n"
    assert repeated_rows(table) == []
    assert repeated_rows(table + "| `champion` | 54% |\n") == ["| `champion` | 54% |"]


@pytest.mark.parametrize(
    "page", sorted([*(ROOT / "docs").glob("*.md"), ROOT / "README.md"]), ids=lambda p: p.name
)
def test_no_table_in_the_docs_repeats_a_row(page: Path) -> None:
    assert repeated_rows(page.read_text(encoding="utf-8")) == []


def test_the_checker_finds_raw_markdown_and_passes_rendered_pages() -> None:
    rendered = (
        "<h1>Bots</h1><p>Use <code>```python</code> fences and <strong>bold</strong>, see "
        '<a href="x.html">the rules</a>.</p><pre><code>[a][b] **x** {.python}</code></pre>'
    )
    assert raw_markdown(rendered) == []
    for raw in (
        "<p>```{.python continuation}<br>print(1)</p>",
        "<p>see [`apply`][pickomino_rules.game.apply] for more</p>",
        "<p>see [the rules](rules.md)</p>",
        "<p>this is **important**</p>",
        "<p>\\b</p>",
    ):
        assert raw_markdown(raw), raw


def test_every_page_of_the_built_site_is_rendered(tmp_path: Path) -> None:
    if os.environ.get("PICKOMINO_SITE_TEST") != "required":  # CI requires it: no silent skip
        pytest.importorskip("mkdocs", reason="the site test needs the docs extra")
        pytest.importorskip("material", reason="the site test needs the docs extra")
    site = tmp_path / "site"
    done = subprocess.run(  # noqa: S603 (our own interpreter)
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(site)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
        env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
        timeout=600,
    )
    assert done.returncode == 0, done.stderr
    pages = sorted(site.rglob("*.html"))
    assert len(pages) > 20
    problems = [
        f"{page.relative_to(site)}: {finding}"
        for page in pages
        if page.name != "404.html"
        for finding in raw_markdown(page.read_text(encoding="utf-8"))
    ]
    assert problems == []
    shutil.rmtree(site)
