"""The fit program rebuilds a win model from nothing, the same one for the same seed."""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np
import pytest

from pickomino_rules import get_rules

pytest.importorskip("sklearn")

from pickomino_rules.learned import WinModel
from pickomino_rules.learned.fit import main, self_play

if TYPE_CHECKING:
    from pathlib import Path


def test_self_play_labels_every_table_with_the_winning_seat() -> None:
    observations, labels = self_play("classic", 3, None, games=4, seed="t", jobs=1)
    assert len(observations) == len(labels) > 4 * 10
    assert set(labels.tolist()) <= {-1, 0, 1, 2}
    # within a game the winner is one player, so the seat label turns with the player to move
    again = self_play("classic", 3, None, games=4, seed="t", jobs=1)
    assert np.array_equal(again[0], observations)
    assert np.array_equal(again[1], labels)


def test_two_rounds_give_a_model_that_says_how_it_was_made(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    argv = ["--games", "12", "--rounds", "1", "--only", "classic-2", "--jobs", "1"]
    main([*argv, "--out", str(tmp_path / "a")])
    out = capsys.readouterr().out
    assert "classic-2 round 0:" in out
    assert "classic-2 round 1:" in out
    model = WinModel.load(tmp_path / "a" / "champion-classic-2.npz")
    assert model.about["command"] == "python -m pickomino_rules.learned.fit " + " ".join(
        [*argv, "--out", str(tmp_path / "a")]
    )
    assert model.about["rounds"] == 1
    assert model.about["samples"] > 12 * 10
    main([*argv, "--out", str(tmp_path / "b")])
    same = WinModel.load(tmp_path / "b" / "champion-classic-2.npz")
    for (w1, b1), (w2, b2) in zip(model.layers, same.layers, strict=True):
        assert np.allclose(w1, w2)
        assert np.allclose(b1, b2)
    assert model.supports(get_rules("classic"), 2)
