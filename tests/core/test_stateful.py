"""A hypothesis state machine playing random legal games of every variant.

Dice are drawn by hypothesis from the exact outcomes, so a failure shrinks to a
short game with simple rolls; invariants are checked after every step.
"""

from __future__ import annotations

import pytest
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pickomino_rules import (
    GameState,
    Phase,
    Rules,
    apply,
    available_variants,
    get_variant,
    legal_actions,
    new_game,
    result,
)
from support import check_invariants


class PlayGames(RuleBasedStateMachine):
    """Plays one variant; ``rules_under_test`` is set by the subclass."""

    rules_under_test: Rules

    def __init__(self) -> None:
        super().__init__()
        self.game_rules = self.rules_under_test
        self.state: GameState | None = None
        self.turns = 0

    @rule(players=st.integers(2, 7), first=st.integers(0, 6))
    def new_game(self, players: int, first: int) -> None:
        low, high = self.game_rules.components.min_players, self.game_rules.components.max_players
        players = min(max(players, low), high)
        _, self.state = new_game(self.game_rules, players=players, first_player=first % players)

    @rule(players=st.integers(2, 7), data=st.data())
    def new_endgame(self, players: int, data: st.DataObject) -> None:
        """A game with the tiles dealt anywhere, so that endings come within reach."""
        low, high = self.game_rules.components.min_players, self.game_rules.components.max_players
        players = min(max(players, low), high)
        _, state = new_game(self.game_rules, players=players)
        places = [
            data.draw(st.integers(-2, players - 1), label=f"tile {t}")
            for t in self.game_rules.tiles
        ]
        grill = tuple(t for t, p in zip(self.game_rules.tiles, places, strict=True) if p == -1)
        if not grill:
            grill = self.game_rules.tiles[:1]
            places[0] = -1
        out = tuple(t for t, p in zip(self.game_rules.tiles, places, strict=True) if p == -2)
        stacks = tuple(
            tuple(t for t, p in zip(self.game_rules.tiles, places, strict=True) if p == q)
            for q in range(players)
        )
        dealt = state.replace(
            grill=grill, face_down=out, stacks=stacks, parts=(None,) * len(state.parts)
        )
        self.state = self.game_rules.setup(self.game_rules, dealt)  # variants set up their parts

    @precondition(lambda self: self.state is not None and self.state.phase is not Phase.GAME_OVER)
    @rule(data=st.data())
    def step(self, data: st.DataObject) -> None:
        assert self.state is not None
        moves = legal_actions(self.game_rules, self.state)
        assert moves, "only a finished game has no legal move"
        move = data.draw(st.sampled_from(moves))
        before = self.state
        seen = repr(before)  # every field, parts included
        self.state = apply(self.game_rules, self.state, move)
        assert repr(before) == seen, "apply changed the state it was given"
        assert before.player == self.state.player or self.state.phase in (
            Phase.ROLL,
            Phase.GAME_OVER,
            Phase.TURN_OVER,
        ), "the player changes only when a turn ends"

    @invariant()
    def holds(self) -> None:
        if self.state is not None:
            check_invariants(self.game_rules, self.state)
            if self.state.phase is Phase.GAME_OVER:
                outcome = result(self.game_rules, self.state)
                assert len(outcome.scores) == self.state.players


def _machine(name: str) -> type[PlayGames]:
    machine = type(f"Play_{name}", (PlayGames,), {"rules_under_test": get_variant(name).rules()})
    return settings(max_examples=25, stateful_step_count=80)(machine)


@pytest.mark.parametrize("name", available_variants())
def test_random_legal_play_keeps_invariants(name: str) -> None:
    _machine(name).TestCase().runTest()
