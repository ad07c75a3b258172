"""`pickomino analyse` and the library's analysis: a mistake is counted against one objective
at a time (this turn's expected worms, or the champion's chance to win the game), and is
never listed at a cost of 0 by the objective it is a mistake by."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from typing import TYPE_CHECKING

import pytest

pytest.importorskip("numpy")

from pickomino_rules.analysis import MISTAKE, analyse_record
from pickomino_rules.bots import get_bot
from pickomino_rules.learned import shipped_win_model
from pickomino_rules.records import GameRecord, save_record

if TYPE_CHECKING:
    from pathlib import Path


def _champion_and_optimal() -> GameRecord:
    bots = [get_bot("champion"), get_bot("optimal")]  # each plays one objective perfectly
    return GameRecord.play("classic", 2, bots=bots, seed=1).seated(["Cham", "Opt"])


def test_each_player_is_faultless_by_the_objective_it_plays_for() -> None:
    record = _champion_and_optimal()
    model = shipped_win_model(record.rules, 2)
    assert model is not None
    analysis = analyse_record(record, chances=model.champion_value())
    champion, optimal = analysis.summaries()
    assert champion.chance_mistakes == 0
    assert champion.mistakes > 0  # playing for the game costs worms this turn at times
    assert optimal.mistakes == 0
    assert optimal.cost == pytest.approx(0.0, abs=1e-9)
    for decision in analysis.decisions:
        assert decision.mistake == (decision.cost > MISTAKE)
        assert decision.chance_mistake == (decision.chance_cost > 0.01)


def test_the_cli_lists_no_mistake_at_a_cost_of_zero(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    save_record(GameRecord.play("classic", 2, seed=3), path)
    done = subprocess.run(  # noqa: S603 (our own interpreter and entry point)
        [sys.executable, "-m", "pickomino_rules", "analyse", str(path)],
        capture_output=True, text=True, timeout=180, check=False,
        env=os.environ | {"COLUMNS": "200", "NO_COLOR": "1"},
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    head = next(i for i, line in enumerate(lines) if "┃ turn" in line)
    end = next(i for i, line in enumerate(lines[head:]) if line.startswith("└"))
    rows = [line for line in lines[head + 2 : head + end] if line.startswith("│")]
    assert rows
    for row in rows:
        cells = [cell.strip() for cell in row.strip("│").split("│")]
        cost, lost = cells[6], cells[7]  # this turn's worms, the chance to win given away
        assert cost != "0.000"
        assert lost != "0.0%"
        assert cost != "-" or lost != "-"  # listed for a cost by one objective at least
        if cost != "-":
            assert float(cost) > MISTAKE
        if lost != "-":
            assert float(lost.rstrip("%")) > 1.0
    assert re.search(r"mistakes\s+for the\s+game|mistakes for the game", done.stdout)
