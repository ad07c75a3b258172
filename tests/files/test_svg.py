"""The table as SVG: well-formed, and showing exactly what the state holds."""

from __future__ import annotations

import itertools
import random
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import GameState, Phase, Rules, new_game, playout
from pickomino_rules.bots import greedy_bot, random_bot
from pickomino_rules.positions import Position
from pickomino_rules.svg import SvgImage, draw, label_width, markers

SVG = "{http://www.w3.org/2000/svg}"
DOCS_PICTURE = Path(__file__).resolve().parents[2] / "docs" / "images" / "table-extended.svg"


def texts(root: ET.Element) -> list[str]:
    return [element.text or "" for element in root.iter(f"{SVG}text")]


def fills(root: ET.Element, colour: str) -> int:
    return sum(1 for rect in root.iter(f"{SVG}rect") if rect.get("fill") == colour)


def mid_game(variant: str, players: int, seed: int, steps: int) -> tuple[Rules, GameState]:
    rules, state = new_game(variant, players=players)
    for step, (_, after) in enumerate(playout(rules, state, random_bot, random.Random(seed))):
        state = after
        if step == steps:
            break
    return rules, state


@settings(max_examples=40, deadline=None)
@given(
    variant=st.sampled_from(["classic", "extended", "extrawurm"]),
    players=st.integers(2, 7),
    seed=st.integers(0, 10**6),
    steps=st.integers(0, 2000),
)
def test_the_picture_shows_what_the_state_holds(
    variant: str, players: int, seed: int, steps: int
) -> None:
    rules, state = mid_game(variant, players, seed, steps)
    names = [f"P{p}" for p in range(players)]
    root = ET.fromstring(draw(rules, state, names))  # noqa: S314 (our own output)
    words = texts(root)
    assert fills(root, "#f7ecd0") == len(state.grill) + sum(
        min(len(stack), 4) for stack in state.stacks
    )  # face-up tiles: the grill's and the stacks' (the last four drawn)
    assert fills(root, "#7b6a58") == len(state.face_down)
    for tile in state.grill:
        assert str(tile) in words
    for name, stack in zip(names, state.stacks, strict=True):
        assert any(word.endswith(name) for word in words)
        if stack:
            assert str(stack[-1]) in words
    dice = fills(root, "#e9e4da") + fills(root, "#ffffff") + fills(root, "#f2c94c")
    if state.phase is Phase.GAME_OVER:
        assert dice == 0
    else:
        rolled = sum(state.roll.faces) if state.roll is not None else 0
        assert dice == sum(state.set_aside) + rolled
    for marker in markers(rules, state):
        label = marker.label if marker.count == 1 else f"{marker.label} \u00d7{marker.count}"
        assert label in words
    assert_read_aloud(rules, state, names, root)


def assert_read_aloud(rules: Rules, state: GameState, names: list[str], root: ET.Element) -> None:
    """Screen readers find each tile, stack and die by a label saying what it is."""
    spoken = [g.get("aria-label", "") for g in root.iter(f"{SVG}g") if g.get("role") == "img"]
    worms = {1: "1 worm"} | {n: f"{n} worms" for n in range(2, 5)}
    tiles = [f"tile {t}, {worms[rules.worms_of(t)]}" for t in state.grill]
    tiles += [f"tile {t}, face down" for t in state.face_down]
    assert sorted(label for label in spoken if label.startswith("tile ")) == sorted(tiles)
    stacks = [
        f"{n}'s stack, tile {s[-1]} on top" for n, s in zip(names, state.stacks, strict=True) if s
    ]
    assert [label for label in spoken if "'s stack" in label] == stacks
    dice = [label.rsplit(" ", 1)[-1] for label in spoken if "die" in label]
    shown = sum(state.set_aside) + (sum(state.roll.faces) if state.roll is not None else 0)
    assert len(dice) == (0 if state.phase is Phase.GAME_OVER else shown)
    assert root.get("role") == "group"  # not "img", which would hide the labels within


def test_the_extended_start_marks_every_specialist_under_its_tile() -> None:
    rules, state = new_game("extended", players=2)
    root = ET.fromstring(draw(rules, state))  # noqa: S314 (our own output)
    words = texts(root)
    for name in ("can", "hen", "crow", "weasel", "golden die", "apple"):
        assert name in words
    assert "grilled worm \u00d77" in words  # the supply, on the table
    assert "player 0 to play" in root.get("aria-label", "")


def test_notebooks_show_pictures() -> None:
    rules, state = new_game("classic", players=2)
    picture = draw(rules, state)
    assert isinstance(picture, SvgImage)
    assert picture._repr_svg_() == picture
    assert Position(rules, state)._repr_svg_() == picture


def docs_state() -> tuple[Rules, GameState]:
    """The state drawn on the docs page 'Pictures' (the page's code makes the same)."""
    rules, state = new_game("extended", players=3)
    steps = playout(rules, state, [greedy_bot, random_bot, greedy_bot], random.Random(5))
    for step, (_, after) in enumerate(steps):
        if step == 420:
            return rules, after
    raise AssertionError


def test_the_docs_picture_is_current() -> None:
    rules, state = docs_state()
    drawn = draw(rules, state, names=["Ann", "Bob", "Cy"])
    if not DOCS_PICTURE.exists() or DOCS_PICTURE.read_text() != drawn:
        pytest.fail(
            f"{DOCS_PICTURE} is out of date: python -c 'import sys;"
            ' sys.path.insert(0, "tests/files");'
            " import test_svg; test_svg.write_docs_picture()'"
        )


def write_docs_picture() -> None:
    rules, state = docs_state()
    DOCS_PICTURE.parent.mkdir(exist_ok=True)
    DOCS_PICTURE.write_text(draw(rules, state, names=["Ann", "Bob", "Cy"]))


_LABEL = re.compile(
    r"<text x='([\d.]+)' y='([\d.]+)' font-size='10' [^>]*font-weight=\"bold\">([^<]+)</text>"
)


def _label_boxes(picture: str) -> list[tuple[float, float, float, str]]:
    """Each label under a grill tile: its row's y, its left and right ends, its text."""
    return [
        (float(y), float(x) - label_width(text) / 2, float(x) + label_width(text) / 2, text)
        for x, y, text in _LABEL.findall(picture)
    ]


def test_labels_under_neighbouring_tiles_never_overlap() -> None:
    # specialists go back to the lowest free tile, so they crowd together in play
    crowded = 0
    for seed in range(12):
        rules, start = new_game("extended", players=3)
        for _, state in playout(rules, start, random_bot, random.Random(seed)):
            if state.phase is not Phase.CHOOSE:
                continue
            boxes = sorted(_label_boxes(draw(rules, state)))
            assert len(boxes) == len([m for m in markers(rules, state) if m.tile is not None])
            for (y1, _, right, first), (y2, left, _, second) in itertools.pairwise(boxes):
                if y1 == y2:
                    assert right <= left, f"{first!r} overlaps {second!r}"
            rows = {y for y, *_ in boxes}
            crowded += len(rows) > 1
    assert crowded  # some tables were crowded enough to need a second row


def test_a_label_is_given_room_for_its_widest_letters() -> None:
    # DejaVu Sans Bold's widest lowercase letters are about 0.71 em: 7.1 px at 10 px
    assert label_width("golden die") >= 10 * 6.2
    assert label_width("golden die") == pytest.approx(70)
