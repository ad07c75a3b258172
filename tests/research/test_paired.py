"""research.paired: two bots on the same seeded games, and the games that change."""

from __future__ import annotations

import argparse
import math
from typing import TYPE_CHECKING

import pytest

from pickomino_rules.simulation import simulate

if TYPE_CHECKING:
    from types import ModuleType


@pytest.fixture(scope="module")
def paired() -> ModuleType:
    from pickomino_rules.research import paired  # noqa: PLC0415 (the solver extra)

    return paired


def _args(**given: object) -> argparse.Namespace:
    settings = {"variant": "classic", "opponent": "random", "games": 30, "jobs": 1} | given
    return argparse.Namespace(**settings)


def test_a_bot_against_itself_changes_no_game(paired: ModuleType) -> None:
    first = paired.shares(_args(), "greedy", 5)
    assert paired.net_wins(first, paired.shares(_args(), "greedy", 5)) == (0, 0.0, 0.0)


def test_the_shares_are_the_simulations_own_wins(paired: ModuleType) -> None:
    won = paired.shares(_args(), "greedy", 7)
    outcome = simulate("classic", 2, bots=["greedy", "random"], games=30, seed=7)
    assert sum(won) == pytest.approx(float(outcome.wins[0]))
    assert set(won) <= {0.0, 0.5, 1.0}


def test_the_net_wins_and_their_interval_come_from_the_paired_differences(
    paired: ModuleType,
) -> None:
    changed, net, half = paired.net_wins([1, 0, 0.5, 1, 0], [0, 0, 1, 1, 1])
    differences = [1, 0, -0.5, 0, -1]
    mean = sum(differences) / 5
    spread = sum((d - mean) ** 2 for d in differences) / 5
    assert (changed, net) == (3, -0.5)
    assert half == pytest.approx(1.96 * math.sqrt(5 * spread))


def test_an_unknown_bot_is_an_error_before_any_game(
    paired: ModuleType, capsys: pytest.CaptureFixture[str]
) -> None:
    with pytest.raises(SystemExit) as stopped:
        paired.main(["nosuch", "--games", "3", "--jobs", "1"])
    assert stopped.value.code == 2
    printed = capsys.readouterr()
    assert "unknown bot 'nosuch'" in printed.err
    assert printed.out == ""
