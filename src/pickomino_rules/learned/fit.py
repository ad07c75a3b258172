"""Fit the champion's win models by self-play, with scikit-learn, from nothing.

Run it as a program (it needs the ``fit`` extra: scikit-learn)::

    python -m pickomino_rules.learned.fit --seed 1 --jobs 2

For each game it builds (2-, 3- and 4-player classic and 2-player extended by default) it
runs rounds of self-play (``GAMES`` says how many games). Round 0 seats the ``margin`` bot
everywhere; each later round seats the champion playing with the model fitted in the round
before, one turn deep. Every table between two
turns is one sample: the observation of the player about to move, labelled with the seat
(counted from that player) that won the game. A multinomial ``LogisticRegression`` on the
[`table_features`][pickomino_rules.learned.table_features] of each round's samples is fitted,
and the last round's weights become a numpy-only
[`WinModel`][pickomino_rules.learned.WinModel]. Games are seeded ``f"{seed}:{round}:{i}"``,
so the same command rebuilds the same games.
"""

from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pickomino_rules.errors import MissingExtraError

try:
    import numpy as np
    from sklearn.linear_model import LogisticRegression
except ImportError as error:  # an extra: say which, and how to add it here
    what = f"fitting win models ({error.name} is missing)"
    raise MissingExtraError(what, "fit") from None

from pickomino_rules import __version__
from pickomino_rules.bots import OptimalBot, get_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.game import new_game, playout
from pickomino_rules.learned import WinModel, table_features
from pickomino_rules.result import result
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Sequence

    from numpy.typing import NDArray

    from pickomino_rules.game import Bot

__all__ = ["GAMES", "Samples", "fit_model", "main", "self_play"]

GAMES: dict[tuple[str, int], tuple[int, int, bool]] = {
    ("classic", 2): (6000, 1, True),
    ("classic", 3): (1500, 1, False),
    ("classic", 4): (1500, 1, False),
    ("extended", 2): (1000, 0, False),
}
"""The games the shipped models are fitted for, (variant, players), with the self-play games
per round, the rounds after margin's, and whether the champion looks through the opponent's
reply with the model (where a turn solve is cheap enough for that: 2-player classic). In
extended a turn solve costs ten times more, so its model learns from margin's games only."""

Samples = tuple["NDArray[np.float32]", "NDArray[np.int8]"]
"""Observations and the winning seat counted from the observer (-1: a shared win)."""


def _player(model: Path | None) -> Bot:
    if model is None:
        return get_bot("margin")
    return OptimalBot(WinModel.load(model).turn_value)


def _play(job: tuple[str, int, Path | None, str, range]) -> Samples:
    """Play games ``indices`` of a round and return its samples (in a worker)."""
    variant, players, model, seed, indices = job
    bot = _player(model)
    rules, start = new_game(variant, players=players)
    encoding = Encoding.of(rules, players)
    observations: list[NDArray[np.float32]] = []
    labels: list[int] = []
    for index in indices:
        state, tables = start, [start]
        for _, after in playout(rules, start, bot, random.Random(f"{seed}:{index}")):
            if after.player != state.player and after.phase is not Phase.GAME_OVER:
                tables.append(after)
            state = after
        winners = result(rules, state).winners
        for table in tables:
            observations.append(encoding.observe(table, table.player))
            labels.append((winners[0] - table.player) % players if len(winners) == 1 else -1)
    return np.array(observations, dtype=np.float32), np.array(labels, dtype=np.int8)


def self_play(  # noqa: PLR0913, PLR0917 (a round's set-up)
    variant: str, players: int, model: Path | None, games: int, seed: str, jobs: int
) -> Samples:
    """The samples of ``games`` self-play games.

    ``margin`` plays every seat, or the champion with ``model`` when one is given.
    """
    chunk = 50
    work = [
        (variant, players, model, seed, range(start, min(start + chunk, games)))
        for start in range(0, games, chunk)
    ]
    if jobs == 1:
        parts = [_play(job) for job in work]
    else:
        with ProcessPoolExecutor(jobs) as pool:
            parts = list(pool.map(_play, work))
    return np.concatenate([p[0] for p in parts]), np.concatenate([p[1] for p in parts])


def fit_model(variant: str, players: int, samples: Samples, about: dict[str, Any]) -> WinModel:
    """Fit a logistic regression on ``samples`` and return it as a numpy-only model."""
    observations, labels = samples
    keep = labels >= 0  # a shared win (no tiles at all) teaches nothing about who wins
    rules, _ = new_game(variant, players=players)
    features = table_features(rules, Encoding.of(rules, players), observations[keep])
    classifier = LogisticRegression(max_iter=5000)
    classifier.fit(features, labels[keep])
    if list(classifier.classes_) != list(range(players)):
        msg = f"every seat must win some game to be learned, got {classifier.classes_}"
        raise ValueError(msg)
    weights, bias = classifier.coef_, classifier.intercept_
    if players == 2:  # one logit for seat 1: logits (0, z) give the same chances
        weights = np.vstack([np.zeros_like(weights), weights])
        bias = np.concatenate([[0.0], bias])
    chances = classifier.predict_proba(features)
    loss = -np.log(chances[np.arange(len(chances)), labels[keep]]).mean()
    about = about | {
        "samples": int(keep.sum()),
        "log_loss": round(float(loss), 5),
    }
    return WinModel.of(variant, players, dict(rules.options), [(weights, bias)], about)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        prog="python -m pickomino_rules.learned.fit",
        description="Fit the champion's win models by self-play (scikit-learn).",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, help="self-play games per round (default: GAMES)")
    parser.add_argument("--rounds", type=int, help="rounds after margin's (default: GAMES)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--only", action="append", metavar="VARIANT-PLAYERS", help="e.g. classic-2 (repeatable)"
    )
    parser.add_argument("--out", default=".", help="folder for champion-VARIANT-PLAYERS.npz")
    return parser.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> None:
    """Fit and save the win models the command line asks for."""
    arguments = _arguments(argv)
    command = " ".join(["python -m pickomino_rules.learned.fit", *(argv or sys.argv[1:])])
    out = Path(arguments.out)
    out.mkdir(parents=True, exist_ok=True)
    chosen = [g for g in GAMES if arguments.only is None or f"{g[0]}-{g[1]}" in arguments.only]
    for variant, players in chosen:
        began = time.perf_counter()
        path = out / f"champion-{variant}-{players}.npz"
        games, rounds, reply = GAMES[variant, players]
        games = arguments.games or games
        rounds = rounds if arguments.rounds is None else arguments.rounds
        model: Path | None = None
        for number in range(rounds + 1):
            seed = f"{arguments.seed}:{number}"
            samples = self_play(variant, players, model, games, seed, arguments.jobs)
            about = {
                "command": command,
                "seed": arguments.seed,
                "rounds": number,
                "games_per_round": games,
                "reply": reply,
                "seconds": round(time.perf_counter() - began),
                "pickomino_rules": __version__,
                "scikit-learn": version("scikit-learn"),
                "numpy": np.__version__,
                "python": platform.python_version(),
            }
            fitted = fit_model(variant, players, samples, about)
            fitted.save(path)
            model = path
            print(  # noqa: T201 (the program's output)
                f"{variant}-{players} round {number}: {len(samples[1])} tables, "
                f"log loss {fitted.about['log_loss']:.4f}, "
                f"{time.perf_counter() - began:.0f} s",
                flush=True,
            )


if __name__ == "__main__":
    main()
