"""The exact turn solver: hand-checked cases, Monte Carlo agreement, optimality."""

from __future__ import annotations

import math
import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pickomino_rules import (
    GameState,
    Phase,
    Roll,
    RollOutcome,
    Rules,
    Stop,
    apply,
    legal_actions,
    new_game,
    playout,
)
from pickomino_rules.bots import OptimalBot, greedy_bot, margin_bot, random_bot
from pickomino_rules.solver import (
    NoTurnDecisionError,
    TurnValue,
    margin_gained,
    points,
    reach_table,
    reach_total,
    solve_turn,
    takes_tile,
    worms_gained,
)


def one_die_left(grill: tuple[int, ...] = (21, 36)) -> tuple[Rules, GameState]:
    """Two worms and five 5s set aside (35 points), one die in hand."""
    rules, state = new_game("classic", players=2)
    out = tuple(t for t in rules.tiles if t not in grill)
    state = state.replace(
        grill=grill, face_down=out, phase=Phase.DECIDE, in_hand=(1,), set_aside=(0, 0, 0, 0, 5, 2)
    )
    return rules, state


def test_one_die_left_points_by_hand() -> None:
    rules, state = one_die_left()
    solution = solve_turn(rules, state, points)
    # Roll: 1-4 give 36-39 (then a forced stop), 5 or a worm bust: (36+37+38+39)/6 = 25 < 35.
    assert solution.action_values() == {Roll(): pytest.approx(25.0), Stop(): 35.0}
    assert solution.value == 35.0
    assert solution.best_action() == Stop()


def test_one_die_left_reach_37_by_hand() -> None:
    rules, state = one_die_left()
    assert solve_turn(rules, state, reach_total(37)).value == pytest.approx(3 / 6)
    assert solve_turn(rules, state, reach_total(35)).value == 1.0


def test_one_die_left_worms_on_a_real_board() -> None:
    rules, state = one_die_left(grill=(21, 36))
    solution = solve_turn(rules, state)
    # Stop at 35: the next lower tile is 21 (1 worm). Roll: 1-4 take 36 (4 worms), else bust.
    assert solution.action_values()[Stop()] == 1.0
    assert solution.action_values()[Roll()] == pytest.approx(4 * 4 / 6)
    assert solution.best_action() == Roll()
    dist = solution.outcome_distribution()
    assert dist == pytest.approx({"takes 36": 4 / 6, "bust": 2 / 6})


def test_bust_loses_the_top_tile_and_turns_the_highest() -> None:
    rules, state = one_die_left(grill=(21, 36))
    state = state.replace(
        grill=(21, 36),
        stacks=((30,), ()),
        face_down=tuple(t for t in rules.tiles if t not in (21, 30, 36)),
    )
    solution = solve_turn(rules, state)
    # A bust returns 30 (3 worms): rolling is worth 4/6*4 - 2/6*3 = 5/3; stopping takes 21: 1.
    assert solution.action_values()[Roll()] == pytest.approx(4 * 4 / 6 - 2 * 3 / 6)


def test_takes_tile_value() -> None:
    rules, state = one_die_left(grill=(21, 36))
    assert solve_turn(rules, state, takes_tile(36)).value == pytest.approx(4 / 6)
    assert solve_turn(rules, state, takes_tile(21)).value == 1.0


def test_steal_counts_the_worms_taken() -> None:
    rules, state = new_game("classic", players=2)
    state = state.replace(
        grill=(21,),
        stacks=((), (35,)),
        face_down=tuple(t for t in rules.tiles if t not in (21, 35)),
    )
    state = state.replace(phase=Phase.DECIDE, in_hand=(1,), set_aside=(0, 0, 0, 0, 5, 2))  # 35
    values = solve_turn(rules, state).action_values()
    assert values[Stop()] == 1.0
    assert max(values.values()) == 4.0  # steal 35


def follow_policy(rules: Rules, state: GameState, rng: random.Random, bot: OptimalBot) -> float:
    """Play the rest of the turn with the optimal bot and real dice; the turn's value."""
    value = bot.value
    start = state
    claimed = None
    while state.player == start.player and state.phase in (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE):
        if state.phase is Phase.ROLL:
            state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
            continue
        action = bot(rules, state, rng)
        claimed = rules.stop_total(rules, state) if action.keyword in ("stop", "steal") else None
        state = apply(rules, state, action)
    return value(rules, start, state, claimed)


@pytest.mark.parametrize(
    ("variant", "value"),
    [("classic", worms_gained), ("classic", reach_total(30)), ("extended", worms_gained)],
)
def test_solver_agrees_with_monte_carlo(variant: str, value: TurnValue) -> None:
    rules, state = new_game(variant, players=3)
    state = list(playout(rules, state, greedy_bot, random.Random(4)))[40][1]
    while state.phase is not Phase.ROLL or state.set_aside != (0,) * 6:
        state = apply(
            rules,
            state,
            greedy_bot(rules, state, random.Random(0))
            if not state.is_chance
            else rules.chance_table(state.in_hand).sample(random.Random(1)),
        )
    exact = solve_turn(rules, state, value).value
    rng = random.Random(99)
    runs = 3000
    bot = OptimalBot(value)
    samples = [follow_policy(rules, state, rng, bot) for _ in range(runs)]
    mean = sum(samples) / runs
    spread = math.sqrt(sum((x - mean) ** 2 for x in samples) / (runs - 1))
    assert abs(mean - exact) < 4.5 * spread / math.sqrt(runs) + 1e-9


def test_golden_die_turn_solves_and_matches_monte_carlo() -> None:
    from pickomino_rules.variants.specialists import GOLDEN_DIE, SPECIALISTS, Place  # noqa: PLC0415

    rules, state = new_game("extended", players=2)
    table = SPECIALISTS.get(rules, state).moved(GOLDEN_DIE, Place(owner=0))
    state = SPECIALISTS.set(rules, state, table)
    state = state.replace(in_hand=rules.turn_dice(rules, state))
    assert state.in_hand == (8, 1)
    exact = solve_turn(rules, state, reach_total(25)).value
    rng = random.Random(5)
    runs = 3000
    bot = OptimalBot(reach_total(25))
    hits = sum(follow_policy(rules, state, rng, bot) for _ in range(runs))
    assert abs(hits / runs - exact) < 4.5 * math.sqrt(exact * (1 - exact) / runs)


def policy_value(
    rules: Rules, state: GameState, policy: str, value: TurnValue, start: GameState
) -> float:
    """Exact expected turn value of the greedy or uniform-random policy (enumeration)."""

    @cache
    def worth(node: GameState) -> float:
        if node.player != start.player or node.phase in (Phase.GAME_OVER, Phase.TURN_OVER):
            raise AssertionError  # handled by the caller's transitions
        if node.phase is Phase.ROLL:
            table = rules.chance_table(node.in_hand)
            return (
                sum(w * after(node, o) for o, w in zip(table.outcomes, table.weights, strict=True))
                / table.total
            )
        actions = legal_actions(rules, node)
        if policy == "greedy":
            return after(node, greedy_bot(rules, node, random.Random(0)))
        return sum(after(node, a) for a in actions) / len(actions)

    def after(node: GameState, move: object) -> float:
        nxt = apply(rules, node, move)  # type: ignore[arg-type]
        if nxt.player != start.player or nxt.phase in (Phase.GAME_OVER, Phase.TURN_OVER):
            claimed = (
                rules.stop_total(rules, node)
                if getattr(move, "keyword", "") in ("stop", "steal")
                else None
            )
            return value(rules, start, nxt, claimed)
        return worth(nxt)

    return worth(state)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), cut=st.integers(30, 400), target=st.integers(21, 36))
def test_optimal_is_never_worse_than_other_bots(seed: int, cut: int, target: int) -> None:
    rules, state = new_game("classic", players=2)
    history = [after for _, after in playout(rules, state, random_bot, random.Random(seed))]
    mid_turn = [
        s for s in history[cut:] if s.phase in (Phase.DECIDE, Phase.ROLL) and sum(s.in_hand) <= 5
    ]
    if not mid_turn:
        return
    state = mid_turn[0]
    for value in (worms_gained, reach_total(target)):
        best = solve_turn(rules, state, value).value
        for policy in ("greedy", "random"):
            assert best >= policy_value(rules, state, policy, value, state) - 1e-9


def test_reach_table_is_a_decreasing_probability() -> None:
    rules, state = new_game("classic")
    table = reach_table(rules, state)
    assert list(table) == list(range(21, 37))
    values = list(table.values())
    assert all(0 <= v <= 1 for v in values)
    assert values == sorted(values, reverse=True)
    assert table[21] > 0.85


def test_distribution_sums_to_one_and_matches_the_value() -> None:
    rules, state = new_game("classic", players=2)
    solution = solve_turn(rules, state, points)
    dist = solution.outcome_distribution()
    assert sum(dist.values()) == pytest.approx(1.0, abs=1e-12)
    expected = sum(
        p * int(label.split()[-1]) for label, p in dist.items() if label.startswith("takes")
    )
    assert expected <= solution.value + 1e-9  # points also count stops above the tile taken


def test_not_solvable_states() -> None:
    rules, state = new_game("classic")
    with pytest.raises(NoTurnDecisionError):
        solve_turn(rules, state.replace(grill=(), phase=Phase.GAME_OVER))
    with pytest.raises(NoTurnDecisionError):
        solve_turn(rules, state).best_action()


def test_weasel_owner_values_the_reroll() -> None:
    from pickomino_rules.variants.specialists import (  # noqa: PLC0415
        SPECIALISTS,
        WEASEL,
        Place,
        UseWeasel,
    )

    rules, state = new_game("extended", players=2)
    plain = solve_turn(rules, state, reach_total(30)).value
    owned = SPECIALISTS.set(
        rules, state, SPECIALISTS.get(rules, state).moved(WEASEL, Place(owner=0))
    )
    with_weasel = solve_turn(rules, owned, reach_total(30)).value
    assert with_weasel > plain
    poor = RollOutcome.parse("11111111", tuple(kind.name for kind in rules.die_kinds))
    solution = solve_turn(rules, apply(rules, owned, poor), reach_total(30))
    assert solution.best_action() == UseWeasel()  # eight 1s cannot reach 30 with a worm


def test_reach_table_from_a_mid_turn_state() -> None:
    rules, state = new_game("classic", players=2)
    state = apply(rules, state, RollOutcome.parse("4445wwww"))
    state = apply(rules, state, legal_actions(rules, state)[-1])  # four worms: 20
    table = reach_table(rules, state)
    # 20 now: one more roll of four dice reaches 21 unless all four show worms.
    assert table[21] == pytest.approx(1 - (1 / 6) ** 4)
    assert all(0 <= p <= 1 for p in table.values())
    assert list(table.values()) == sorted(table.values(), reverse=True)


def test_a_steal_from_the_only_rival_is_worth_twice_its_worms_to_the_margin() -> None:
    """Two players: a steal gains the worms and takes them from the rival."""
    rules, state = new_game("classic", players=2)
    state = state.replace(stacks=((), (25,)), grill=tuple(t for t in state.grill if t != 25))
    state = apply(rules, state, RollOutcome.parse("wwwww555"))
    state = apply(rules, state, legal_actions(rules, state)[-1])  # take w: 25
    steal = next(a for a in legal_actions(rules, state) if str(a) == "steal 1")
    by_worms = solve_turn(rules, state).action_value(state, steal)
    by_margin = solve_turn(rules, state, margin_gained).action_value(state, steal)
    assert (by_worms, by_margin) == (2.0, 4.0)
    assert margin_bot(rules, state, random.Random(0)) in legal_actions(rules, state)


def test_the_margin_bot_plays_whole_games() -> None:
    rules, state = new_game("classic", players=3)
    for _, after in playout(rules, state, [margin_bot, greedy_bot, random_bot], random.Random(3)):
        state = after
    assert state.phase is Phase.GAME_OVER
