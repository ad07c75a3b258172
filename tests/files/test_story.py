"""Games told for people: move labels, turn lines with names and the variants' events."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import Phase, legal_actions, new_game, parse_move, playout
from pickomino_rules.bots import greedy_bot, random_bot
from pickomino_rules.story import group_turns, part_events, part_status, preview
from pickomino_rules.variants.specialists.placement import SPECIALISTS
from pickomino_rules.variants.specialists.weasel import WEASEL
from support import run

NAMES = ["Ann", "Bob", "Cy"].__getitem__


def test_stop_says_which_tile_it_takes_and_steal_whose() -> None:
    rules, state = new_game("classic", players=2)
    state = run(rules, state, ["55555www", "take 5"])
    assert preview(rules, state, parse_move(rules, "stop"), NAMES) == "bust"
    state = run(rules, state, ["roll", "wwwww"[:3], "take w"])  # 25 + 15 = 40
    assert preview(rules, state, parse_move(rules, "stop"), NAMES) == "takes 36"
    state = run(rules, state, ["stop", "5555wwww", "take w", "roll", "4444", "take 4"])
    assert state.total == 36  # Bob can steal Ann's 36 or take 35
    labels = {str(m): preview(rules, state, m, NAMES) for m in legal_actions(rules, state)}
    assert labels == {"stop": "takes 35", "steal 0": "steals 36 from Ann"}


def test_a_bust_with_a_tile_says_what_goes_back() -> None:
    rules, state = new_game("classic", players=2)
    state = run(rules, state, ["55555www", "take w", "roll", "55555", "take 5", "stop"])
    assert state.stacks == ((36,), ())  # 25 + 15: Ann holds 36
    state = run(rules, state, ["5555wwww", "take w", "stop"])  # Bob's 20 takes nothing
    state = run(rules, state, ["11111111", "take 1"])
    assert preview(rules, state, parse_move(rules, "stop"), NAMES) == "bust: returns 36"


def test_turn_lines_name_players_and_tell_the_variants_events() -> None:
    rules, state = new_game("extended", players=3)
    steps = playout(rules, state, [greedy_bot, random_bot, greedy_bot], random.Random(11))
    lines = [turn.describe(names=NAMES, rules=rules) for turn in group_turns(state, steps)]
    text = "\n".join(lines)
    assert "player" not in text
    assert all(line.split(":")[0] in {"Ann", "Bob", "Cy"} for line in lines)
    assert " takes the " in text
    assert "grilled worm" in text


def test_events_are_what_changed() -> None:
    rules, start = new_game("extended", players=2)
    state = run(rules, start, ["1111555w", "take 1"])
    assert part_events(rules, start, state, NAMES) == ["Ann wins a grilled worm"]
    assert part_events(rules, state, state, NAMES) == []


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 4))
def test_the_weasel_shows_only_while_a_player_has_it(seed: int, players: int) -> None:
    rules, state = new_game("extended", players=players)
    for _, after in playout(rules, state, random_bot, random.Random(seed)):
        lines = part_status(rules, after, NAMES if players <= 3 else str)
        keeper = SPECIALISTS.get(rules, after).place(WEASEL).owner
        weasel = [line for line in lines if line.startswith("weasel")]
        if keeper is None:
            assert weasel == []
        else:
            assert len(weasel) == 1
            assert weasel[0].startswith(f"weasel ({NAMES(keeper) if players <= 3 else keeper}):")


@pytest.mark.parametrize("variant", ["classic", "extended"])
def test_every_legal_move_has_a_label_and_changes_nothing(variant: str) -> None:
    rules, state = new_game(variant, players=2)
    for _, after in playout(rules, state, greedy_bot, random.Random(5)):
        if after.phase in (Phase.ROLL, Phase.GAME_OVER):
            continue
        before = repr(after)
        for move in legal_actions(rules, after):
            assert isinstance(preview(rules, after, move), str)
        assert repr(after) == before
