"""The docs' bots are typed, and pass ``mypy --strict`` as a bot writer's code would.

Every Python block of the docs and the README that defines a bot (a function of ``rules``,
``state`` and ``rng``) is checked alone, as its own module, against the installed package.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from mypy import api

from support import PAGES, blocks, is_python

if TYPE_CHECKING:
    from pathlib import Path

BOT = re.compile(r"^def \w+\(rules\b[^)]*\brng\b", re.MULTILINE)


def bot_blocks() -> dict[str, str]:
    """Each block that defines a bot, by a module name that says where it is."""
    found = {}
    for page in PAGES:
        for index, (info, body) in enumerate(blocks(page)):
            if is_python(info) and BOT.search(body):
                found[f"{page.stem.replace('-', '_')}_block_{index}"] = body
    return found


def test_the_docs_define_typed_bots() -> None:
    assert len(bot_blocks()) >= 3  # the bots page's and the command line page's


def test_the_docs_bots_pass_mypy_strict(tmp_path: Path) -> None:
    for name, body in bot_blocks().items():
        (tmp_path / f"{name}.py").write_text(body)
    report, errors, status = api.run(
        [
            "--strict",
            "--no-incremental",
            "--cache-dir",
            str(tmp_path / ".mypy_cache"),
            "--config-file",
            "",
            *sorted(str(path) for path in tmp_path.glob("*.py")),
        ]
    )
    assert status == 0, report + errors
