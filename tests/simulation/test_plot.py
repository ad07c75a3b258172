"""Charts of simulations: the drawn data are the simulation's, the files are real pictures."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from typing import TYPE_CHECKING

import pytest
from matplotlib.collections import LineCollection
from matplotlib.patches import Rectangle

from pickomino_rules.cli import main
from pickomino_rules.files import SaveError
from pickomino_rules.plot import PlotError, plot_simulation, save_plot
from pickomino_rules.simulation import simulate

if TYPE_CHECKING:
    from pathlib import Path

OUTCOME = simulate("classic", 3, bots=("greedy", "random", "greedy"), games=60, seed=4)


def test_the_bars_are_the_win_rates_and_the_whiskers_their_intervals() -> None:
    wins, _ = plot_simulation(OUTCOME).axes
    bars = [patch for patch in wins.patches if isinstance(patch, Rectangle)]
    assert [bar.get_height() for bar in bars] == pytest.approx(
        [OUTCOME.win_rate(entry) for entry in range(3)]
    )
    labels = [tick.get_text() for tick in wins.get_xticklabels()]
    assert labels == ["greedy #1", "random", "greedy #2"]
    (whiskers,) = [c for c in wins.collections if isinstance(c, LineCollection)]
    for entry, segment in enumerate(whiskers.get_segments()):
        low, high = OUTCOME.win_interval(entry)
        assert sorted(y for _, y in segment) == pytest.approx([low, high])


def test_the_score_lines_are_the_score_distributions() -> None:
    _, scores = plot_simulation(OUTCOME).axes
    lines = [line for line in scores.get_lines() if line.get_label() in {"greedy #1", "random"}]
    assert len(lines) == 2
    for entry, line in zip((0, 1), lines, strict=True):
        shares = OUTCOME.score_distribution(entry)
        drawn = dict(zip(line.get_xdata(), line.get_ydata(), strict=True))  # type: ignore[arg-type]
        assert {w: s for w, s in drawn.items() if s} == pytest.approx(shares)
        assert sum(shares.values()) == pytest.approx(1.0)
    counted = sum(times for _, times in OUTCOME.score_counts[1])
    assert counted == OUTCOME.games  # one seat a game for each entry of a 3-entry line-up


@pytest.mark.parametrize("suffix", [".svg", ".png", ".pdf"])
def test_a_chart_saves_as_a_real_picture(tmp_path: Path, suffix: str) -> None:
    target = save_plot(OUTCOME, tmp_path / f"chart{suffix}")
    data = target.read_bytes()
    if suffix == ".svg":
        root = ET.fromstring(data)  # noqa: S314 (our own file)
        assert root.tag.endswith("svg")
        assert b"greedy #2" in data or b"greedy" in data
    else:
        assert data.startswith(b"\x89PNG" if suffix == ".png" else b"%PDF")


def test_a_bad_chart_target_is_refused_and_nothing_written(tmp_path: Path) -> None:
    with pytest.raises(PlotError, match=r"not a \.png, \.svg, \.pdf file"):
        save_plot(OUTCOME, tmp_path / "chart.txt")
    with pytest.raises(SaveError, match="no folder"):
        save_plot(OUTCOME, tmp_path / "missing" / "chart.png")
    assert list(tmp_path.iterdir()) == []


def test_simulate_plot_on_the_command_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    target = tmp_path / "chart.svg"
    with pytest.raises(SystemExit) as done:
        main(["simulate", "--games", "20", "--plot", str(target)])
    assert done.value.code == 0
    assert f"chart saved to {target}" in capsys.readouterr().out
    assert b"classic, 2 players, 20 games" in target.read_bytes()
    with pytest.raises(SystemExit) as done:
        main(["simulate", "--games", "20", "--plot", str(tmp_path / "chart.gif")])
    assert done.value.code == 2
    assert "'--plot'" in capsys.readouterr().err
