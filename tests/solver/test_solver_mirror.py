"""The solver's node graph is a declared mirror of three core rules, checked node by node.

``solver._nodes.MIRRORS`` names them: which nodes may roll again (C6, ``steps.decide_actions``),
which faces a roll offers and where setting one aside leads (C4, ``turn.roll_actions`` and
``turn.set_aside``) and a stop's points (C7, ``turn.stop_total``). Every node of the turn graph
from the start of a turn, in classic and in extended (with and without the golden die), and
every roll of every pool, is compared with the reference's answer for the same dice.
"""

from __future__ import annotations

import pytest

from pickomino_rules import get_rules, turn
from pickomino_rules._engine import steps
from pickomino_rules.actions import ROLL, Take
from pickomino_rules.dice import NO_DICE_SET_ASIDE
from pickomino_rules.game import new_game
from pickomino_rules.solver import _nodes
from pickomino_rules.state import Phase

np = pytest.importorskip("numpy")


def test_the_map_names_the_restating_functions_and_real_references() -> None:
    references = {"steps": steps, "turn": turn}
    for function, name in _nodes.MIRRORS.items():
        module, _, attribute = name.partition(".")
        assert callable(getattr(references[module], attribute)), name
        assert function.__module__ == _nodes.__name__


@pytest.mark.parametrize(
    ("variant", "dice"), [("classic", (8,)), ("extended", (8, 1)), ("extended", (8, 0))]
)
def test_every_node_and_roll_of_a_turn_is_the_reference_s(
    variant: str, dice: tuple[int, ...]
) -> None:
    rules, start = new_game(get_rules(variant), players=2)
    kinds = rules.die_kinds
    program = _nodes.build_program(kinds, (NO_DICE_SET_ASIDE, dice, False))
    nodes = np.array([[*key[0], *key[1], int(key[2])] for key in program.keys[1:]], dtype=np.int64)
    # C6: a node rolls again exactly when the reference offers to roll
    for node, rolling in zip(nodes.tolist(), _nodes._rollable(nodes).tolist(), strict=True):  # noqa: SLF001
        state = start.replace(
            phase=Phase.DECIDE, in_hand=tuple(node[6:-1]), set_aside=tuple(node[:6])
        )
        assert rolling == (ROLL in steps.decide_actions(state, ())), node
    # C7: nodes share a stop class exactly when the reference's stop totals and worms agree
    totals: dict[int, tuple[int, bool, int | None]] = {}
    for node, stop_class in zip(nodes.tolist(), program.stop_class[1:].tolist(), strict=True):
        state = start.replace(
            phase=Phase.DECIDE, in_hand=tuple(node[6:-1]), set_aside=tuple(node[:6])
        )
        if any(node[:6]):
            total = (state.total, bool(node[5]), turn.stop_total(rules, state))
            assert totals.setdefault(stop_class, total) == total, node
    assert len(set(totals.values())) == len(totals)
    # C4: every roll of every rolling node offers the reference's takes, leading where it leads
    rolling = nodes[_nodes._rollable(nodes)]  # noqa: SLF001
    checked = 0
    for rows in _nodes._pools(rolling).values():  # noqa: SLF001
        group = rolling[rows]
        row, roll, face, child = _nodes._moves(kinds, group)  # noqa: SLF001
        pool = tuple(int(n) for n in group[0, 6:-1])
        outcomes = rules.chance_table(pool).outcomes
        found: dict[tuple[int, int], dict[int, tuple[int, ...]]] = {}
        for r, o, f, c in zip(
            row.tolist(), roll.tolist(), face.tolist(), child.tolist(), strict=True
        ):
            found.setdefault((r, o), {})[f] = tuple(c)
        for r, node in enumerate(group.tolist()):
            base = start.replace(in_hand=pool, set_aside=tuple(node[:6]), phase=Phase.CHOOSE)
            for o, outcome in enumerate(outcomes):
                state = base.replace(roll=outcome)
                expected = {}
                for take in turn.roll_actions(rules, state):
                    assert isinstance(take, Take)
                    after = turn.set_aside(rules, state, take.face)
                    expected[take.face - 1] = (*after.set_aside, *after.in_hand, node[-1])
                assert found.get((r, o), {}) == expected, (node, outcome)
                checked += 1
    assert checked > 1000
