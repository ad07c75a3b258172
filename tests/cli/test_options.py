"""A rule option refused on the command line says how to write it, with examples that work."""

from __future__ import annotations

import json
import re
import subprocess
import sys

import pytest

from pickomino_rules import InvalidOptionError, new_game

MAIN = "from pickomino_rules.cli import main; main()"


def examples(message: str) -> list[object]:
    """The values a message gives as examples, read as ``-o NAME=VALUE`` reads them."""
    found: list[object] = [json.loads(text) for text in re.findall(r"\[[0-9, ]+\]", message)]
    found += re.findall(r"'([1-5w]{6})'", message)
    return found


@pytest.mark.parametrize(
    "value",
    ["111666", "11www", "1111111", "abcdef", [7] * 6, ["w"] * 6, [1, 2], 111666, [True] * 6],
)
def test_a_bad_golden_die_says_how_to_write_one_and_its_examples_are_accepted(
    value: object,
) -> None:
    with pytest.raises(InvalidOptionError) as error:
        new_game("extended", players=2, options={"golden_die_faces": value})
    message = str(error.value)
    assert message.startswith("option 'golden_die_faces' (O6) of 'extended': ")
    assert "Face" not in message  # words, not Python's
    shown = examples(message)
    assert len(shown) == 2  # as text and as a list
    for example in shown:
        rules, _ = new_game("extended", players=2, options={"golden_die_faces": example})
        assert rules.options["golden_die_faces"] != ()


def test_on_the_command_line_too() -> None:
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        [sys.executable, "-c", MAIN, "play", "--watch", "--variant", "extended",
         "-o", "golden_die_faces=111666"],
        capture_output=True, text=True, timeout=120, check=False,
    )  # fmt: skip
    assert done.returncode == 2
    [line] = done.stderr.splitlines()
    assert line.startswith("error: option 'golden_die_faces' (O6) of 'extended': ")
    assert "'111www'" in line
    assert "[1, 1, 1, 6, 6, 6]" in line
    for example in ("111www", "[1,1,1,6,6,6]"):
        again = subprocess.run(  # noqa: S603
            [sys.executable, "-c", MAIN, "play", "--watch", "--variant", "extended",
             "--max-moves", "3", "-o", f"golden_die_faces={example}"],
            capture_output=True, text=True, timeout=120, check=False,
        )  # fmt: skip
        assert again.returncode != 2, again.stderr  # accepted (the game stops after 3 moves)
