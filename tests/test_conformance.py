"""One API conformance suite over every registered variant (as OpenSpiel's api_test).

Every variant found in the entry-point group runs here with its default options, and
a few option sets; a new variant gets these checks for free.
"""

from __future__ import annotations

import copy
import functools
import math
import random
from fractions import Fraction

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pickomino_rules import (
    Action,
    Face,
    GameState,
    IllegalActionError,
    Phase,
    Roll,
    RollOutcome,
    Rules,
    Steal,
    Stop,
    Take,
    apply,
    available_variants,
    chance_outcomes,
    get_variant,
    legal_actions,
    new_game,
    parse_move,
    playout,
    result,
    sample_chance,
)
from pickomino_rules.bots import greedy_bot, random_bot
from support import check_invariants

VARIANTS = available_variants()


def variant_rules(name: str) -> list[Rules]:
    """Default rules plus each boolean option flipped."""
    variant = get_variant(name)
    flipped = [o for o in variant.options if isinstance(o.default, bool)]
    return [variant.rules(), *(variant.rules({o.name: not o.default}) for o in flipped)]


ALL_RULES = [rules for name in VARIANTS for rules in variant_rules(name)]
RULES_IDS = [f"{r.name}-" + "-".join(f"{k}={v}" for k, v in r.options.items()) for r in ALL_RULES]


@functools.cache
def random_game(rules: Rules, players: int, seed: int) -> list[tuple[GameState, object]]:
    """A whole random game as (state, move) pairs, the final state last with None."""
    rng = random.Random(seed)
    _, state = new_game(rules, players=players, first_player=seed % players)
    history: list[tuple[GameState, object]] = []
    for move, after in playout(rules, state, random_bot, rng):
        history.append((state, move))
        state = after
    history.append((state, None))
    return history


def test_builtin_variants_are_registered() -> None:
    assert "classic" in VARIANTS


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
@pytest.mark.parametrize("seed", range(3))
def test_random_games_end_and_keep_every_invariant(rules: Rules, seed: int) -> None:
    players = rules.components.min_players + seed % 3
    history = random_game(rules, players, seed)
    for state, _ in history:
        check_invariants(rules, state)
    final = history[-1][0]
    assert final.phase is Phase.GAME_OVER
    assert legal_actions(rules, final) == ()
    outcome = result(rules, final)
    assert sorted(outcome.ranking) == list(range(players))
    assert set(outcome.winners) <= set(range(players))


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_every_legal_action_applies(rules: Rules) -> None:
    for state, _ in random_game(rules, 3, 11)[::7]:
        if state.phase is Phase.ROLL:
            moves = legal_actions(rules, state)[::97]
        else:
            moves = legal_actions(rules, state)
        for move in moves:
            after = apply(rules, state, move)
            check_invariants(rules, after)


@pytest.mark.parametrize("rules", ALL_RULES, ids=RULES_IDS)
def test_chance_is_exact_and_multinomial(rules: Rules) -> None:
    _, state = new_game(rules, players=2)
    for dice in range(1, sum(state.in_hand) + 1):
        partial = state.replace(in_hand=(dice, *state.in_hand[1:]))
        outcomes = chance_outcomes(rules, partial)
        assert sum(p for _, p in outcomes) == 1
        assert len({o for o, _ in outcomes}) == len(outcomes)
        if len(rules.die_kinds) == 1 or not any(state.in_hand[1:]):
            assert len(outcomes) == math.comb(dice + 5, 5)
        table = rules.chance_table(partial.in_hand)
        for outcome, probability in outcomes[:: max(1, len(outcomes) // 50)]:
            assert probability == multinomial(rules, outcome) == table.probability(outcome)


def multinomial(rules: Rules, outcome: RollOutcome) -> Fraction:
    """Independent computation of a roll's probability from each die's sides."""
    probability = Fraction(1)
    for kind, counts in zip(rules.die_kinds, outcome.counts, strict=True):
        n = sum(counts)
        probability *= math.factorial(n)
        for face, count in zip(Face, counts, strict=True):
            p = Fraction(kind.sides.count(face), 6)
            probability *= p**count / math.factorial(count)
    return probability


@pytest.mark.parametrize("name", VARIANTS)
def test_same_seed_same_game(name: str) -> None:
    rules = get_variant(name).rules()
    first = [move for _, move in random_game(rules, 3, 5)]
    again = [move for _, move in random_game(rules, 3, 5)]
    other = [move for _, move in random_game(rules, 3, 6)]
    assert first == again
    assert first != other


@pytest.mark.parametrize("name", VARIANTS)
def test_sampled_rolls_follow_the_exact_distribution(name: str) -> None:
    rules, state = new_game(name, players=2)
    rng = random.Random(0)
    draws = 20000
    worms = sum(sample_chance(rules, state, rng).total_of(Face.WORM) for _ in range(draws))
    table = rules.chance_table(state.in_hand)
    expected = sum(
        o.total_of(Face.WORM) * p for o, p in zip(table.outcomes, table.probabilities, strict=True)
    )
    mean = worms / draws
    # Worm count per roll has variance below 2.5; 5 standard errors is far beyond noise.
    assert abs(mean - float(expected)) < 5 * math.sqrt(2.5 / draws)


@pytest.mark.parametrize("name", VARIANTS)
def test_text_forms_round_trip(name: str) -> None:
    rules = get_variant(name).rules()
    namespace = vars(__import__("pickomino_rules")) | {k.__name__: k for k in rules.action_types}
    for _, move in random_game(rules, 2, 3)[:-1]:
        assert parse_move(rules, str(move)) == move
        assert eval(repr(move), namespace) == move  # noqa: S307 (reprs are pasteable)


CANDIDATES: list[object] = [
    Roll(),
    Stop(),
    *(Take(face) for face in Face),
    *(Steal(p) for p in range(-1, 8)),
    RollOutcome.parse("1"),
    RollOutcome.parse("12345w12"),
    RollOutcome.parse("w" * 9),
]


@pytest.mark.parametrize("name", VARIANTS)
@given(data=st.data())
def test_fuzzed_illegal_actions_are_rejected_and_change_nothing(
    name: str, data: st.DataObject
) -> None:
    rules = get_variant(name).rules()
    history = random_game(rules, 3, data.draw(st.integers(0, 50), label="seed"))
    state, _ = data.draw(st.sampled_from(history), label="state")
    move = data.draw(st.sampled_from(CANDIDATES), label="move")
    before = copy.deepcopy(state)
    legal = legal_actions(rules, state)
    is_legal = move in (set(legal) if state.phase is Phase.ROLL else legal)
    if is_legal:
        apply(rules, state, move)  # type: ignore[arg-type]
    else:
        with pytest.raises(IllegalActionError) as error:
            apply(rules, state, move)  # type: ignore[arg-type]
        assert "is not legal" in str(error.value)
        assert error.value.legal == legal
    assert state == before
    assert hash(state) == hash(before)


@pytest.mark.parametrize("name", VARIANTS)
def test_bots_only_make_legal_moves(name: str) -> None:
    rules = get_variant(name).rules()
    for bot in (random_bot, greedy_bot):
        rng = random.Random(1)
        _, start = new_game(rules, players=4)
        final = start
        for move, final in playout(rules, start, bot, rng):  # noqa: B007 (keeps the last)
            assert isinstance(move, (Action, RollOutcome))
        assert final.phase is Phase.GAME_OVER
