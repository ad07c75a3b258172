"""The fit program rebuilds a win model from nothing, the same one for the same seed."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from typing import TYPE_CHECKING

import numpy as np
import pytest

from pickomino_rules import get_rules, new_game
from pickomino_rules.solver import solve_turn
from support import as_in_a_terminal, reaped

pytest.importorskip("sklearn")

from pickomino_rules.learned import WinModel
from pickomino_rules.learned.fit import (
    GAMES,
    Recipe,
    Round,
    _rounds,
    backups,
    fit_model,
    main,
    self_play,
)

if TYPE_CHECKING:
    from pathlib import Path


def _margin_model(folder: Path, games: int) -> Path:
    """Round 0 alone: a 2-player classic model fitted on ``games`` of margin's games."""
    argv = ["--games", str(games), "--rounds", "0", "--only", "classic-2", "--jobs", "1"]
    main([*argv, "--out", str(folder)])
    return folder / "champion-classic-2.npz"


def test_self_play_labels_every_table_with_the_winning_seat() -> None:
    states, labels = self_play("classic", 3, None, games=4, seed="t", jobs=1)
    assert len(states) == len(labels) > 4 * 10
    assert set(labels.tolist()) <= {-1, 0, 1, 2}
    # within a game the winner is one player, so the seat label turns with the player to move
    assert all(
        (label + state.player) % 3 == (labels[0] + states[0].player) % 3
        for state, label in zip(states[:10], labels[:10], strict=True)
    )
    again = self_play("classic", 3, None, games=4, seed="t", jobs=1)
    assert again.states == states
    assert np.array_equal(again.winners, labels)


def test_two_rounds_give_a_model_that_says_how_it_was_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--games", "12", "--rounds", "1", "--only", "classic-2", "--jobs", "1"]
    main([*argv, "--out", str(tmp_path / "a")])
    out = capsys.readouterr().out
    assert "classic-2 round 0 (12 games, margin, outcome):" in out
    assert "classic-2 round 1 (12 games, turn, backup):" in out
    times = re.findall(r"log loss [\d.]+, (\d+) s \((\d+) s for the game so far\)", out)
    [(_, first_total), (second, second_total)] = [tuple(map(int, t)) for t in times]
    assert second <= second_total >= first_total  # each round's own time, and the game's
    model = WinModel.load(tmp_path / "a" / "champion-classic-2.npz")
    assert model.about["command"] == "python -m pickomino_rules.learned.fit " + " ".join(
        [*argv, "--out", str(tmp_path / "a")]
    )
    assert model.about["rounds"] == 1
    assert model.about["samples"] > 12 * 10
    assert model.about["endgame"] == {"turns": 4, "tiles": 2}  # the recipe's, for its champion
    main([*argv, "--out", str(tmp_path / "b")])
    same = WinModel.load(tmp_path / "b" / "champion-classic-2.npz")
    for (w1, b1), (w2, b2) in zip(model.layers, same.layers, strict=True):
        assert np.allclose(w1, w2)
        assert np.allclose(b1, b2)
    assert model.supports(get_rules("classic"), 2)


def test_a_round_of_the_champion_through_the_reply_plays_the_same_games_again(
    tmp_path: Path,
) -> None:
    model = _margin_model(tmp_path, games=8)
    first = self_play("classic", 2, model, games=2, seed="r", jobs=1, player="reply")
    again = self_play("classic", 2, model, games=2, seed="r", jobs=1, player="reply")
    turn = self_play("classic", 2, model, games=2, seed="r", jobs=1, player="turn")
    assert first.states == again.states
    assert set(first.winners.tolist()) <= {-1, 0, 1}
    assert first.states != turn.states  # looking further changes the games


def test_rounds_are_cut_or_stretched_as_asked() -> None:
    rounds = (Round(10), Round(20, "turn"), Round(30, "reply", "backup", (8,)))
    recipe = Recipe(rounds, reply=True)
    assert _rounds(recipe, None, None) == list(rounds)
    assert _rounds(recipe, 1, None) == list(rounds[:2])
    assert _rounds(recipe, 3, 5) == [
        Round(5),
        Round(5, "turn"),
        Round(5, "reply", "backup", (8,)),
        Round(5, "reply", "backup", (8,)),
    ]
    again = Recipe((Round(10), Round(0, "turn", "backup")), reply=False)
    assert _rounds(again, None, 7) == [Round(7), Round(0, "turn", "backup")]  # plays none
    margin_only = Recipe((Round(10),), reply=False)
    assert _rounds(margin_only, 2, None) == [Round(10), Round(10, "turn"), Round(10, "turn")]
    assert all(recipe.rounds[0].player == "margin" for recipe in GAMES.values())
    assert all(recipe.rounds[0].labels == "outcome" for recipe in GAMES.values())


def test_a_backup_is_the_models_chance_after_one_turn_played_exactly(tmp_path: Path) -> None:
    path = _margin_model(tmp_path, games=6)
    model = WinModel.load(path)
    states = self_play("classic", 2, None, games=20, seed="b", jobs=1).states[:520]
    values = backups("classic", path, states, jobs=2)  # two chunks, two workers, in order
    rules, _ = new_game("classic", players=2)
    for state, value in zip(states[::37], values[::37], strict=True):
        assert value == solve_turn(rules, state, model.turn_value).value
    assert np.array_equal(values, backups("classic", path, states, jobs=1))
    assert ((values > 0) & (values < 1)).all()


def test_soft_labels_teach_the_chance_they_give() -> None:
    tables = self_play("classic", 2, None, games=6, seed="s", jobs=1)
    chances = np.full(len(tables.states), 0.7)
    model = fit_model("classic", 2, tables, {}, chances=chances)
    rules, _ = new_game("classic", players=2)
    for state in tables.states[::25]:
        assert model.win_probabilities(rules, state)[state.player] == pytest.approx(0.7, abs=0.01)
    assert model.about["samples"] == len(tables.states)
    three = self_play("classic", 3, None, games=2, seed="s", jobs=1)
    with pytest.raises(ValueError, match="two players"):
        fit_model("classic", 3, three, {}, chances=np.full(len(three.states), 0.5))


@pytest.mark.parametrize(
    ("argv", "complaint"),
    [
        (["--only", "classic-9"], "invalid choice: 'classic-9'"),
        (["--jobs", "0"], "--jobs must be at least 1"),
        (["--games", "-5"], "--games must be at least 1"),
        (["--games", "many"], "--games: invalid int value: 'many'"),
        (["--rounds", "-1"], "--rounds must be at least 0"),
    ],
)
def test_bad_arguments_are_refused_before_anything_is_played(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], argv: list[str], complaint: str
) -> None:
    with pytest.raises(SystemExit) as stopped:
        main([*argv, "--out", str(tmp_path / "out")])
    assert stopped.value.code == 2
    assert complaint in capsys.readouterr().err
    assert not (tmp_path / "out").exists()


def test_an_out_folder_it_cannot_write_to_is_said_at_once(tmp_path: Path) -> None:
    blocker = tmp_path / "a file"
    blocker.write_text("not a folder")
    with pytest.raises(SystemExit) as stopped:
        main(["--only", "classic-2", "--out", str(blocker / "models")])
    assert str(stopped.value.code).startswith(f"error: cannot write the models to {blocker}")


def test_ctrl_c_stops_the_workers_and_leaves_the_models_file_as_it_was(tmp_path: Path) -> None:
    out = tmp_path / "out"
    out.mkdir()
    (out / "champion-classic-2.npz").write_bytes(b"the model from before")
    argv = ["--only", "classic-2", "--games", "100", "--rounds", "1", "--jobs", "2"]
    command = [sys.executable, "-m", "pickomino_rules.learned.fit", *argv, "--out", str(out)]
    fit = subprocess.Popen(  # noqa: S603 (our own interpreter and module)
        command,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=as_in_a_terminal,  # noqa: PLW1509 (only signal() runs before exec)
        start_new_session=True,  # a group of its own, as a terminal's foreground job
    )
    assert fit.stdout is not None
    with reaped(fit, group=True):
        # round 0's model is fitted (and would have been saved over the file); round 1 plays
        round_1 = "classic-2 round 1: playing 100 games (turn)"
        assert any(round_1 in line for line in fit.stdout), "the fit never reached round 1"
        time.sleep(1)  # the workers are playing the round's games
        os.killpg(fit.pid, signal.SIGINT)  # Ctrl-C reaches the workers too
        _, err = fit.communicate(timeout=60)
    assert fit.returncode == 130
    assert "stopped: the unfinished game's file is as it was" in err
    assert "Traceback" not in err
    assert (out / "champion-classic-2.npz").read_bytes() == b"the model from before"
    assert [path.name for path in out.iterdir()] == ["champion-classic-2.npz"]


def test_a_model_that_cannot_be_saved_leaves_the_old_file_and_no_partial_one(
    tmp_path: Path,
) -> None:
    """A real failure: the file-size limit (ulimit -f) stops the last round's save."""
    out = tmp_path / "out"
    out.mkdir()
    (out / "champion-classic-2.npz").write_bytes(b"the model from before")
    script = (
        "import resource, sys\n"
        "from pickomino_rules.learned.fit import main\n"
        "resource.setrlimit(resource.RLIMIT_FSIZE, (16384, 16384))\n"  # round 1's net: 35 kB
        "main(['--only', 'classic-2', '--games', '12', '--rounds', '1', '--jobs', '1',"
        " '--out', sys.argv[1]])\n"
    )
    done = subprocess.run(  # noqa: S603 (our own interpreter)
        [sys.executable, "-c", script, str(out)],
        capture_output=True,
        text=True,
        timeout=300,
        check=False,
    )
    assert done.returncode == 1, done.stderr
    target = out / "champion-classic-2.npz"
    assert done.stderr.strip() == f"error: cannot save to {target}: File too large"
    assert target.read_bytes() == b"the model from before"
    assert [path.name for path in out.iterdir()] == ["champion-classic-2.npz"]
