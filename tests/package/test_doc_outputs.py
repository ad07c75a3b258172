"""Examples in the docs show their output, and the output shown is what they print.

A Python block followed by a block fenced as ``text title="Output"`` shows that block's
output. Each page's Python blocks run in order in one namespace (as a reader would run them);
for every block with an output block, what it prints must be the text shown.
"""

from __future__ import annotations

import json
import os
import shlex
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

from support import FENCE, PAGES, ROOT, blocks, is_python

if TYPE_CHECKING:
    from pathlib import Path

OUTPUT_INFO = 'text title="Output"'


def examples_with_output(page: Path) -> list[tuple[int, str]]:
    """(index of a Python block, the output shown after it)."""
    found = blocks(page)
    return [
        (index, found[index + 1][1])
        for index, (info, _) in enumerate(found[:-1])
        if is_python(info) and found[index + 1][0] == OUTPUT_INFO
    ]


def test_the_pages_show_the_output_of_their_printing_examples() -> None:
    """Most printing examples show their output (a page may keep one without)."""
    shown = sum(len(examples_with_output(page)) for page in PAGES)
    assert shown >= 15


RUNNER = """
import contextlib, io, json, sys
sys.path.insert(0, "tests")
from support import blocks, is_python
from pathlib import Path
page = Path(sys.argv[1])
namespace, printed = {"__name__": "docs_" + page.stem}, {}
for index, (info, body) in enumerate(blocks(page)):
    if is_python(info):
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(body, f"{page.name} block {index}", "exec"), namespace)
        printed[index] = out.getvalue()
print(json.dumps(printed))
"""


def run_python(arguments: list[str], cwd: Path, columns: int) -> str:
    """What our interpreter prints run with ``arguments`` in ``cwd``; it must succeed."""
    done = subprocess.run(  # noqa: S603 (our own interpreter, the docs' examples and commands)
        [sys.executable, *arguments],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=os.environ | {"COLUMNS": str(columns)},
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    return done.stdout


def page_outputs(page: Path) -> dict[int, str]:
    """What each Python block of ``page`` prints, the page run alone in a fresh process."""
    lines = run_python(["-c", RUNNER, str(page)], ROOT, columns=100).splitlines()
    return {int(index): text for index, text in json.loads(lines[-1]).items()}


@pytest.mark.parametrize(
    "page", [p for p in PAGES if examples_with_output(p)], ids=lambda page: page.name
)
def test_the_output_shown_is_what_the_example_prints(page: Path) -> None:
    printed = page_outputs(page)
    for index, shown in examples_with_output(page):
        assert printed[index].rstrip() == shown.rstrip(), (
            f"{page.name}: the output shown after block {index} is not what it prints"
        )


def write_outputs(page: Path) -> None:
    """Insert or refresh the output block after each printing Python block of ``page``.

    A maintainer's tool: ``python -c 'import sys; sys.path[:0] = ["tests", "tests/package"];
    import test_doc_outputs as t; t.write_outputs(t.ROOT / "docs/quickstart.md")'``.
    """
    printed = page_outputs(page)
    text = page.read_text()
    pieces, cursor = [], 0
    matches = list(FENCE.finditer(text))
    for index, match in enumerate(matches):
        if index not in printed:
            continue
        output = printed[index].rstrip()
        following = matches[index + 1] if index + 1 < len(matches) else None
        has_block = following is not None and following["info"].strip() == OUTPUT_INFO
        pieces.append(text[cursor : match.end()])
        cursor = match.end()
        if has_block:
            assert following is not None
            gap = text[match.end() : following.start()]
            cursor = following.end()
            if output:
                pieces.append(f"{gap}```{OUTPUT_INFO}\n{output}\n```\n")
        elif output:
            pieces.append(f"\n```{OUTPUT_INFO}\n{output}\n```\n")
    pieces.append(text[cursor:])
    page.write_text("".join(pieces))


def test_the_analyse_transcript_is_what_the_cli_prints(tmp_path: Path) -> None:
    """The analysis page's transcript: a game saved by `pickomino play`, then analysed."""
    body = next(
        body
        for _, body in blocks(ROOT / "docs" / "analysis.md")
        if body.startswith("$ pickomino play --watch")
    )
    lines = body.splitlines()
    commands = [line.removeprefix("$ ") for line in lines if line.startswith("$ ")]
    shown = "\n".join(lines[len(commands) :])
    printed = ""
    for command in commands:
        words = shlex.split(command.removesuffix(" > /dev/null"))
        assert words[0] == "pickomino"
        printed = run_python(["-m", "pickomino_rules", *words[1:]], tmp_path, columns=200)
    assert printed.rstrip() == shown.rstrip()
