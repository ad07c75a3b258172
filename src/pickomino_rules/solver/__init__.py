"""Exact turn solver: the optimal policy for the rest of a turn, by expectimax.

Within a turn the future depends on the dice set aside (how many of each face), the
dice still in hand (per kind of die) and whether a re-roll may still be used (the
extended game's weasel; the solver models one per turn). The solver enumerates every
such node reachable from the state solved and runs expectimax over the exact chance
outcomes of [`chance_table`][pickomino_rules.dice.chance_table], vectorised with numpy,
one batch per pool of dice.

What ending the turn is worth comes only from the rules: the solver builds the real
state (the real dice set aside), asks the rules for its stop total, applies each legal
way to end the turn with [`stop_outcomes`][pickomino_rules.game.stop_outcomes], and values
a bust with [`resolve_bust`][pickomino_rules.game.resolve_bust]. Every variant's totals,
claims, returned and turned tiles, the can, the hen and the golden die count exactly as in
play. When every module that acts at a turn's end promises that only the total says what
the dice were (``ends_on_total``, as all built-in modules do), this is done once per class
of nodes with the same points and worm, once per stop total and once for a bust; a house
rule that reads the dice set aside makes no such promise, and then every node is applied.

What a turn is worth is a pluggable [`TurnValue`][pickomino_rules.solver.TurnValue]:
[`worms_gained`][pickomino_rules.solver.worms_gained] (the default),
[`points`][pickomino_rules.solver.points],
[`reach_total`][pickomino_rules.solver.reach_total] and
[`takes_tile`][pickomino_rules.solver.takes_tile]. A value that never reads the total a stop
claims with may say so with [`total_blind`][pickomino_rules.solver.total_blind] (the
built-in ones that do not read it do): the stops that end the turn the same way are then
valued once.

Probabilities of the chance model are exact fractions; the solver computes in
float64 (values and probabilities of outcomes are floats, exact to about 1e-15).

What happens while dice are set aside counts too. A set-aside that changes the rest of the
state (a grilled worm won or robbed for two 1s, E4) leads to the values of the board it
leaves, solved first over the nodes below it; the rules are asked once per face and count,
which is enough because every module acting mid-turn promises that only these matter
(``mid_turn_by_count``), and only about the faces a set-aside acts on where every module
says which (``set_aside_faces``: the grilled worms name the 1s). When the board led to
changes nothing of the turn but its ends, and every end there is worth the same constant
more than on the board left (a grilled worm won is one worm more, however the turn ends),
its values are the left board's own plus that constant and are read off its pass; the solver
compares every end exactly before it does so. Decisions a variant makes pending in the turn
or at its end (whom to rob, which specialist to keep) are the player's and are maximised
over like any other. Rules with a module that acts mid-turn without that promise are refused
with [`UnsolvableRulesError`][pickomino_rules.solver.UnsolvableRulesError] rather than
valued approximately.

Examples:
    >>> from pickomino_rules import new_game
    >>> from pickomino_rules.solver import solve_turn
    >>> rules, state = new_game("classic", players=2)
    >>> solution = solve_turn(rules, state)
    >>> round(solution.value, 3)
    1.645
    >>> dist = solution.outcome_distribution()
    >>> round(sum(dist.values()), 12)
    1.0
"""

from pickomino_rules.solver._objectives import (
    TurnValue,
    ignores_total,
    margin_gained,
    points,
    reach_total,
    takes_tile,
    total_blind,
    worms_gained,
)
from pickomino_rules.solver._solution import (
    NotSolvableError,
    NoTurnDecisionError,
    TurnSolution,
    UnsolvableRulesError,
    check_exact,
    exact_for,
    reach_table,
    solve_turn,
)

__all__ = [
    "NoTurnDecisionError",
    "NotSolvableError",
    "TurnSolution",
    "TurnValue",
    "UnsolvableRulesError",
    "check_exact",
    "exact_for",
    "ignores_total",
    "margin_gained",
    "points",
    "reach_table",
    "reach_total",
    "solve_turn",
    "takes_tile",
    "total_blind",
    "worms_gained",
]
