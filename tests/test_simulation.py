"""Simulations: seeded, exact totals, the same whatever the executor."""

from __future__ import annotations

from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from fractions import Fraction

import pytest

from pickomino_rules.bots import UnknownBotError
from pickomino_rules.errors import InvalidSetupError
from pickomino_rules.simulation import simulate, wilson_interval


def test_results_do_not_depend_on_the_executor_or_chunking() -> None:
    setup = {"players": 3, "bots": ["greedy", "random"], "games": 30, "seed": 9}
    base = simulate("classic", **setup)  # type: ignore[arg-type]
    with ProcessPoolExecutor(max_workers=2) as pool:
        parallel = simulate("classic", **setup, executor=pool, chunk_size=4)  # type: ignore[arg-type]
    with ThreadPoolExecutor(max_workers=3) as pool:
        threaded = simulate("classic", **setup, executor=pool, chunk_size=7)  # type: ignore[arg-type]
    assert base == parallel == threaded
    assert sum(base.wins) == 30
    assert base.bots == ("greedy", "random", "greedy")


def test_a_different_seed_gives_different_games() -> None:
    first = simulate("classic", players=2, bots=["random"], games=10, seed=1)
    second = simulate("classic", players=2, bots=["random"], games=10, seed=2)
    assert first.move_total != second.move_total


def test_progress_counts_every_game() -> None:
    seen: list[int] = []
    simulate("classic", players=2, games=12, seed=0, chunk_size=5, progress=seen.append)
    assert seen == [5, 5, 2]


def test_greedy_beats_random_clearly() -> None:
    outcome = simulate("classic", players=2, bots=["greedy", "random"], games=60, seed=3)
    low, _ = outcome.win_interval(0)
    assert low > 0.8
    assert outcome.mean_score(0) > outcome.mean_score(1)
    assert isinstance(outcome.wins[0], Fraction)


def test_bad_arguments() -> None:
    with pytest.raises(UnknownBotError):
        simulate(bots=["nobody"], games=1)
    with pytest.raises(InvalidSetupError):
        simulate(players=1, games=1)
    with pytest.raises(ValueError, match="at least 1"):
        simulate(games=0)


def test_wilson_interval_brackets_the_rate() -> None:
    low, high = wilson_interval(30, 100)
    assert low < 0.3 < high
    assert wilson_interval(0, 10)[0] == 0.0
    assert wilson_interval(10, 10)[1] == 1.0
