"""Tournaments and Bradley-Terry ratings: the fit, its intervals, the round robin, the command."""

from __future__ import annotations

import json
import math
import random
from fractions import Fraction
from typing import TYPE_CHECKING

import pytest

from pickomino_rules.bots import BOTS, greedy_bot, register_bot
from pickomino_rules.cli import main
from pickomino_rules.errors import InvalidSetupError
from pickomino_rules.simulation import bradley_terry, simulate, tournament

if TYPE_CHECKING:
    from pathlib import Path

    from pickomino_rules import Action, GameState, Rules

ELO = 400 / math.log(10)


def test_two_bots_rate_by_their_odds_with_one_virtual_draw() -> None:
    # the closed form for two bots: the rating gap is the log-odds of the (padded) results
    low, high = bradley_terry(["a", "b"], [[0, 70], [30, 0]])
    gap = ELO * math.log(70.5 / 30.5)
    assert low.elo - high.elo == pytest.approx(gap)
    assert low.elo + high.elo == pytest.approx(0)
    # the interval: the information of 101 games at p = 70.5/101 about the gap, halved
    p = 70.5 / 101
    half = 1.96 * ELO * math.sqrt(1 / (101 * p * (1 - p))) / 2
    assert low.high - low.elo == pytest.approx(half)


def test_ratings_agree_with_evalica() -> None:
    evalica = pytest.importorskip("evalica")
    rng = random.Random(3)
    bots = ["a", "b", "c", "d"]
    wins = [
        [0.0 if i == j else rng.randint(0, 40) + 0.5 * rng.randint(0, 4) for j in range(4)]
        for i in range(4)
    ]
    ours = {rating.bot: rating.elo for rating in bradley_terry(bots, wins)}
    xs, ys, winners, weights = [], [], [], []
    for i in range(4):
        for j in range(4):
            if i != j:  # the same data with the virtual draw: half a win each way per pair
                xs.append(bots[i])
                ys.append(bots[j])
                winners.append(evalica.Winner.X)
                weights.append(wins[i][j] + 0.5)
    theirs = evalica.bradley_terry(xs, ys, winners, weights=weights, tolerance=1e-12, limit=10_000)
    strength = {bot: math.log(float(theirs.scores[bot])) for bot in bots}
    mean = sum(strength.values()) / 4
    for bot in bots:
        assert ours[bot] == pytest.approx(ELO * (strength[bot] - mean), abs=0.01)


def test_ratings_refuse_bad_tables() -> None:
    with pytest.raises(ValueError, match="2 x 2"):
        bradley_terry(["a", "b"], [[0, 1, 2], [1, 0, 2]])
    with pytest.raises(ValueError, match="negative"):
        bradley_terry(["a", "b"], [[0, -1], [1, 0]])


def test_a_bot_that_always_wins_keeps_a_finite_rating() -> None:
    top, bottom = bradley_terry(["top", "bottom"], [[0, 500], [0, 0]])
    assert math.isfinite(top.elo)
    assert math.isfinite(bottom.low)
    assert top.low > bottom.high


def test_a_two_player_round_robin_counts_every_game_once_per_pair() -> None:
    outcome = tournament(bots=["greedy", "random"], games=12, seed=4)
    (table,) = outcome.tables
    assert table.seating == "rotate"
    assert table.games == 12
    assert outcome.wins[0][1] == table.wins[0]
    assert outcome.wins[1][0] == table.wins[1]
    assert outcome.wins[0][1] + outcome.wins[1][0] == 12
    assert [rating.bot for rating in outcome.ratings] == ["greedy", "random"]
    assert sum(rating.elo for rating in outcome.ratings) == pytest.approx(0, abs=1e-6)
    assert outcome == tournament(bots=["greedy", "random"], games=12, seed=4)


def test_a_three_player_tournament_plays_every_table_of_three() -> None:
    outcome = tournament("classic", 3, bots=["greedy", "random", "optimal", "margin"], games=3)
    assert [table.bots for table in outcome.tables] == [
        ("greedy", "random", "optimal"),
        ("greedy", "random", "margin"),
        ("greedy", "optimal", "margin"),
        ("random", "optimal", "margin"),
    ]
    # each game: every winner beats each of the two others (shared wins count half)
    assert sum(sum(row) for row in outcome.wins) == 2 * 3 * len(outcome.tables)
    assert outcome.games_of("greedy") == 9


def _picky(rules: Rules, state: GameState, rng: random.Random) -> Action:
    return greedy_bot(rules, state, rng)


_picky.supports = lambda rules, _players: rules.name == "classic"  # type: ignore[attr-defined]


@pytest.fixture
def picky() -> object:
    register_bot("picky", _picky, replace=True)
    yield "picky"
    BOTS.pop("picky")


def test_bots_that_do_not_play_the_game_are_skipped_and_refused_by_simulate(picky: str) -> None:
    outcome = tournament("extended", bots=["greedy", picky, "random"], games=2)
    assert outcome.bots == ("greedy", "random")
    assert outcome.skipped == (picky,)
    with pytest.raises(InvalidSetupError, match="does not play 2-player extended"):
        simulate("extended", bots=[picky, "greedy"], games=1)
    assert simulate("classic", bots=[picky, "greedy"], games=2).games == 2


def test_a_tournament_refuses_repeated_or_too_few_bots(picky: str) -> None:
    # InvalidSetupError, a ValueError: the CLI calls it a usage error (exit 2)
    with pytest.raises(InvalidSetupError, match="name each bot once"):
        tournament(bots=["greedy", "greedy"], games=1)
    too_few = r"needs at least 2 bots.*\(picky does not play it\)"
    with pytest.raises(InvalidSetupError, match=too_few):
        tournament("extended", bots=["greedy", picky], games=1)
    with pytest.raises(InvalidSetupError, match=r"got none \(picky, champion do not play it\)"):
        tournament("extended", 5, bots=[picky, "champion"], games=1)
    with pytest.raises(InvalidSetupError, match="needs at least 3 bots"):
        tournament("classic", 3, bots=["greedy", "random"], games=1)


def test_the_markdown_table_ranks_the_bots() -> None:
    outcome = tournament(bots=["random", "greedy"], games=4, seed=2)
    lines = outcome.markdown().splitlines()
    assert lines[0].startswith("| rank | bot | rating (Elo)")
    assert lines[2].startswith("| 1 | greedy |")
    assert lines[3].startswith("| 2 | random |")
    data = outcome.to_dict()
    assert [row["bot"] for row in data["ratings"]] == ["greedy", "random"]
    assert data["head_to_head"]["greedy"]["random"] == float(outcome.wins[1][0])
    assert isinstance(outcome.wins[0][1], Fraction)


def test_the_tournament_command(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    table = tmp_path / "board.md"
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "--bots", "greedy,random", "--games", "4", "--markdown", str(table)])
    out, _ = capsys.readouterr()
    assert exit_.value.code in (0, None)
    assert "greedy" in out
    assert "95% interval" in out
    assert "head to head" in out
    assert table.read_text().startswith("| rank | bot |")
    with pytest.raises(SystemExit):
        main(["tournament", "--bots", "greedy,random", "--games", "4", "--json"])
    data = json.loads(capsys.readouterr().out)
    assert data["games_per_table"] == 4
    with pytest.raises(SystemExit) as exit_:
        main(["tournament", "--bots", "greedy", "--games", "4"])
    assert exit_.value.code == 2  # a usage error
    assert "needs at least 2 bots" in capsys.readouterr().err
