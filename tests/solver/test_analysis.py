"""Game analysis: every dice decision valued by the turn solver, costs that add up."""

from __future__ import annotations

import json
from functools import cache
from typing import TYPE_CHECKING

import attrs
import pytest

from pickomino_rules.analysis import MISTAKE, GameAnalysis, analyse_record
from pickomino_rules.bots import greedy_bot, optimal_bot, random_bot
from pickomino_rules.cli import main
from pickomino_rules.game import apply, legal_actions
from pickomino_rules.records import GameRecord, RecordError, save_record
from pickomino_rules.result import scores
from pickomino_rules.solver import solve_turn

if TYPE_CHECKING:
    from pathlib import Path

OPTIMAL = GameRecord.play("classic", players=2, bots=[optimal_bot, optimal_bot], seed=8)
MIXED = GameRecord.play("classic", players=2, bots=[greedy_bot, random_bot], seed=8)


@cache
def mixed() -> GameAnalysis:
    return analyse_record(MIXED)


def test_an_optimal_player_loses_nothing() -> None:
    analysis = analyse_record(OPTIMAL)
    assert analysis.exact
    assert analysis.decisions
    assert all(d.valued and d.cost < 1e-9 for d in analysis.decisions)
    for summary in analysis.summaries():
        assert summary.mistakes == 0
        assert summary.best == summary.decisions > 0


def test_each_value_is_what_a_fresh_solve_of_that_state_says() -> None:
    """The turn is solved once and reused; every decision must match a solve of its own."""
    analysis = mixed()
    for decision in analysis.decisions[::12]:
        rules, _ = MIXED.initial()
        fresh = solve_turn(rules, decision.state).action_values()
        assert {str(a): v for a, v in fresh.items()} == pytest.approx(decision.values, abs=1e-12)


def test_costs_are_the_gap_to_the_best_and_add_up() -> None:
    analysis = mixed()
    for decision in analysis.decisions:
        assert decision.played in decision.values
        assert decision.values[decision.best] == pytest.approx(max(decision.values.values()))
        assert decision.cost == pytest.approx(
            max(decision.values.values()) - decision.values[decision.played]
        )
    greedy, random = analysis.summaries()
    assert random.mistakes > greedy.mistakes > 0
    for summary in (greedy, random):
        mine = [d for d in analysis.decisions if d.player == summary.player]
        assert summary.cost == pytest.approx(sum(d.cost for d in mine))
        assert summary.mistakes == sum(d.cost > MISTAKE for d in mine)
        costs = [d.cost for d in summary.biggest]
        assert costs == sorted(costs, reverse=True)
        assert costs[0] == max(d.cost for d in mine)


def test_the_json_holds_every_decision_and_the_summaries() -> None:
    analysis = mixed()
    data = json.loads(analysis.to_json())
    assert data["variant"] == "classic"
    assert data["exact"] is True
    assert len(data["decisions"]) == len(analysis.decisions)
    first = data["decisions"][0]
    assert set(first) == {"move", "turn", "player", "played", "best", "cost", "values"}
    assert [s["mistakes"] for s in data["summaries"]] == [s.mistakes for s in analysis.summaries()]


def test_extended_choices_are_valued_like_the_dice() -> None:
    # E5: which specialist to keep is a decision of the turn; the apple's 3 worms tell
    record = GameRecord.play("extended", players=3, bots=greedy_bot, seed=4)
    analysis = analyse_record(record)
    assert analysis.exact
    assert all(decision.valued for decision in analysis.decisions)
    rules, _ = record.initial()
    kept = [d for d in analysis.decisions if d.played.startswith("keep")]
    assert kept
    for decision in kept:
        player = decision.player
        ends = {
            str(a): apply(rules, decision.state, a) for a in legal_actions(rules, decision.state)
        }
        for text, value in decision.values.items():
            for other, worth in decision.values.items():
                gap = scores(rules, ends[text])[player] - scores(rules, ends[other])[player]
                assert value - worth == pytest.approx(gap, abs=1e-9)
    assert any(d.cost > 0 for d in kept)  # the greedy bot keeps the hen over the apple


def test_a_broken_record_is_a_record_error() -> None:
    bad = attrs.evolve(MIXED, moves=(*MIXED.moves[:5], "steal 7"))
    with pytest.raises(RecordError, match="moves: "):
        analyse_record(bad)


def test_pickomino_analyse(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "game.json"
    short = attrs.evolve(MIXED, moves=MIXED.moves[:80])  # an unfinished game is analysed too
    save_record(short, path)
    with pytest.raises(SystemExit) as done:
        main(["analyse", str(path)])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert "mistakes: moves that cost worms" in out
    assert "worms lost" in out
    mistakes = sum(d.mistake for d in analyse_record(short).decisions)
    assert mistakes
    assert out.count("│ player") >= mistakes  # one row per mistake (and the summary)
    with pytest.raises(SystemExit) as done:
        main(["analyse", str(path), "--json"])
    assert json.loads(capsys.readouterr().out)["players"] == 2
    with pytest.raises(SystemExit) as done:
        main(["analyse", str(tmp_path / "missing.json")])
    _, err = capsys.readouterr()
    assert done.value.code == 1
    assert err.startswith("error: ")
    assert err.count("\n") == 1


def test_play_with_analyse_values_the_game(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as done:
        main(["play", "--watch", "--seed", "4", "--bots", "optimal,greedy", "--analyse"])
    out = capsys.readouterr().out
    assert done.value.code == 0
    assert "winner:" in out
    assert "worms lost" in out
    assert "optimal #0" in out


def test_chances_value_each_move_for_the_game_beside_the_turn() -> None:
    from pickomino_rules.learned import load_win_model  # noqa: PLC0415 (numpy)

    model = load_win_model("classic", 2)
    short = attrs.evolve(MIXED, moves=MIXED.moves[:120])
    analysis = analyse_record(short, chances=model.turn_value)
    plain = analyse_record(short)
    assert [d.values for d in analysis.decisions] == [d.values for d in plain.decisions]
    valued = [d for d in analysis.decisions if d.valued]
    assert all(set(d.chances) == set(d.values) for d in valued)
    rules, _ = short.initial()
    for decision in valued[:12]:
        solution = solve_turn(rules, decision.state, model.turn_value)
        for text, chance in decision.chances.items():
            move = next(a for a in legal_actions(rules, decision.state) if str(a) == text)
            assert chance == pytest.approx(solution.action_value(decision.state, move))
        best = decision.best_for_game
        assert best is not None
        assert decision.chances[best] == max(decision.chances.values())
        assert decision.chance_cost == pytest.approx(
            max(decision.chances.values()) - decision.chances[decision.played]
        )
    data = valued[0].to_dict()
    assert data["best_for_game"] == valued[0].best_for_game
    assert set(data["chances"]) == set(data["values"])
    assert "chances" not in plain.decisions[0].to_dict()


def test_pickomino_analyse_shows_the_chance_to_win(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    save_record(attrs.evolve(MIXED, moves=MIXED.moves[:80]), path)
    with pytest.raises(SystemExit):
        main(["analyse", str(path), "--all"])
    out = capsys.readouterr().out
    assert "win %" in out
    assert out.count("win %") >= 2  # the decisions and the summary (win % lost)
    with pytest.raises(SystemExit):
        main(["analyse", str(path), "--no-chances"])
    assert "win %" not in capsys.readouterr().out
    with pytest.raises(SystemExit):
        main(["analyse", str(path), "--json"])
    decisions = json.loads(capsys.readouterr().out)["decisions"]
    assert all("chances" in d for d in decisions if d["values"])
