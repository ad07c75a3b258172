"""The rulebook's worked examples (RULES.md, "Worked examples"), replayed exactly."""

from __future__ import annotations

from pickomino_rules import Phase, Roll, Steal, Stop, Take, legal_actions, new_game, parse_move
from support import run


def test_example_1_thomas_steals_32_from_anne() -> None:
    # Thomas (0), Bridget (1) and Anne (2) are mid-game; 32 is on top of Anne's stack.
    rules, state = new_game("classic", players=3)
    state = state.replace(
        grill=(21, 22, 23, 24, 26, 27, 28, 29, 31, 33, 34, 35, 36),
        stacks=((25,), (30,), (32,)),
    )
    state = run(rules, state, ["4441123w", "take 4"])
    assert state.total == 12
    state = run(rules, state, ["roll", "w1123"])
    assert legal_actions(rules, state)[-1] == Take.from_argument("w")
    state = run(rules, state, ["take w"])
    assert state.total == 17
    state = run(rules, state, ["roll", "55ww"])
    assert parse_move(rules, "take w") not in legal_actions(rules, state)  # worms already taken
    state = run(rules, state, ["take 5"])
    assert state.total == 27
    assert Stop() in legal_actions(rules, state)  # he could take 27 from the grill
    state = run(rules, state, ["roll", "13", "take 3"])
    assert state.total == 30  # 30 is nowhere visible: a stop would take the next lower
    state = run(rules, state, ["roll", "2", "take 2"])
    assert state.total == 32
    assert legal_actions(rules, state) == (Stop(), Steal(2))  # no dice left: he must stop
    state = run(rules, state, ["steal 2"])
    assert state.stacks == ((25, 32), (30,), ())
    assert state.player == 1  # Bridget takes the dice
    assert state.phase is Phase.ROLL


def test_example_2_bridget_busts() -> None:
    rules, state = new_game("classic", players=3, first_player=1)
    state = state.replace(
        grill=(21, 22, 23, 24, 26, 27, 28, 29, 31, 33, 34, 35, 36),
        stacks=((25, 32), (30,), ()),
    )
    state = run(rules, state, ["33124444", "take 3"])
    state = run(rules, state, ["roll", "555124", "take 5"])
    state = run(rules, state, ["roll", "w11", "take w"])
    assert state.total == 26  # "not enough for her"
    assert Roll() in legal_actions(rules, state)
    state = run(rules, state, ["roll", "3w"])  # 3s and worms already set aside: bust
    assert state.stacks[1] == ()
    assert 30 in state.grill
    assert state.face_down == (36,)  # the highest grill tile is turned face down
    assert state.player == 2  # now it is Anne's turn
