"""Chance and seeds: each pool of dice has exact probabilities, and a seed replays a game."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import TYPE_CHECKING

from pickomino_rules.dice import FACES, RollOutcome
from pickomino_rules.state import Phase
from pickomino_rules.testing._games import _fail, _play, random_game

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules


def _multinomial(rules: Rules, outcome: RollOutcome) -> Fraction:
    """A roll's probability computed independently, from each die's sides."""
    probability = Fraction(1)
    for kind, counts in zip(rules.die_kinds, outcome.counts, strict=True):
        probability *= math.factorial(sum(counts))
        for face, count in zip(FACES, counts, strict=True):
            probability *= Fraction(kind.sides.count(face), 6) ** count / math.factorial(count)
    return probability


def check_chance(rules: Rules, *, seed: int = 0) -> int:
    """Every pool of dice met in a game has exact chance: sums to 1, multinomial, distinct.

    Returns:
        The number of pools checked.

    Raises:
        ConformanceError: A pool's distribution is wrong.
    """
    pools = {
        state.in_hand
        for state, _ in random_game(rules, rules.components.min_players, seed)
        if state.phase is Phase.ROLL
    }
    for pool in sorted(pools):
        table = rules.chance_table(pool)
        if sum(table.probabilities) != 1 or len(set(table.outcomes)) != len(table.outcomes):
            _fail("chance", rules, f"the rolls of {pool} do not sum to 1 or repeat")
        for outcome in table.outcomes[:: max(1, len(table.outcomes) // 60)]:
            if outcome.dice != pool or table.probability(outcome) != _multinomial(rules, outcome):
                _fail("chance", rules, f"roll {outcome} of {pool} has a wrong probability")
    return len(pools)


def check_determinism(rules: Rules, *, seed: int = 0) -> None:
    """The same seed replays the same game; another seed plays another.

    Raises:
        ConformanceError: Randomness leaked in, or the seed is ignored.
    """
    players = rules.components.min_players
    first = [move for _, move in random_game(rules, players, seed)]
    again = [move for _, move in _play(rules, players, seed)]
    other = [move for _, move in _play(rules, players, seed + 1000)]
    if first != again:
        _fail("determinism", rules, f"seed {seed} played two different games")
    if first == other:
        _fail("determinism", rules, f"seeds {seed} and {seed + 1000} played the same game")
