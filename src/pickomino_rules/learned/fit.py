"""Fit the champion's win models by self-play, with scikit-learn, from nothing.

Run it as a program (it needs the ``fit`` extra: scikit-learn)::

    python -m pickomino_rules.learned.fit --seed 1 --jobs 2

For each game it builds (2-, 3- and 4-player classic and extended by default) it
runs the game's [`Recipe`][pickomino_rules.learned.fit.Recipe] in ``GAMES``, one
[`Round`][pickomino_rules.learned.fit.Round] after another. A round may play self-play
games: ``margin`` in every seat, or the champion with the model of the round before, one
turn deep or through the opponent's reply. Every table between two turns of those games
is a sample. A round then labels its samples and fits a model on them:

- ``"outcome"``: its own games' tables, each labelled with the seat (counted from the
  player about to move) that won the game;
- ``"backup"`` (fitted value iteration; two players): tables of all the games played so
  far (a seeded sample of ``Recipe.tables`` of them), each labelled with the chance to win
  that the round before's model gives the player about to move once his turn is played
  exactly: the value of [`solve_turn`][pickomino_rules.solver.solve_turn] with the model as
  its turn value. A game's outcome is mostly luck; this label has none of the dice of the
  turns after the next, so it says far more per table.

The classifier is a multinomial ``LogisticRegression``, or an ``MLPClassifier`` where the
round names hidden layers, on the [`table_features`][pickomino_rules.learned.table_features]
of the samples; the last round's weights become a numpy-only
[`WinModel`][pickomino_rules.learned.WinModel]. Games are seeded
``f"{seed}:{round}:{i}"``, the sample of tables and the network's initial weights by
``seed``, so the same command rebuilds the same model.
"""

from __future__ import annotations

import platform
import random
import sys
import tempfile
import time
import warnings
from importlib.metadata import version
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal, NamedTuple, TypeVar

import attrs

from pickomino_rules.errors import MissingExtraError
from pickomino_rules.learned._programs import exit_without_extra, fit_parser

try:
    import numpy as np
    from sklearn.exceptions import ConvergenceWarning
    from sklearn.linear_model import LogisticRegression
    from sklearn.neural_network import MLPClassifier
except ImportError as error:  # an extra: say which, and how to add it here
    missing = MissingExtraError(f"fitting win models ({error.name} is missing)", "fit")
    if __name__ == "__main__":  # run as a program: its help, or one line, never a traceback
        exit_without_extra(fit_parser(), missing)
    raise missing from None

from pickomino_rules import __version__
from pickomino_rules._processes import map_in_processes
from pickomino_rules.bots import OptimalBot, get_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.files import SaveError, check_save_target
from pickomino_rules.game import new_game, playout
from pickomino_rules.learned import WinModel, table_features
from pickomino_rules.result import result
from pickomino_rules.solver import solve_turn
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    import argparse
    from collections.abc import Callable, Iterable, Sequence

    from numpy.typing import NDArray

    from pickomino_rules.game import Bot
    from pickomino_rules.state import GameState

__all__ = [
    "GAMES",
    "Endgame",
    "Labels",
    "Player",
    "Recipe",
    "Round",
    "Tables",
    "backups",
    "fit_model",
    "main",
    "self_play",
]

Player = Literal["margin", "turn", "reply"]
"""Who plays a round's games: ``margin``, or the champion with the round before's model,
one turn deep (``turn``) or through the opponent's reply (``reply``, 2 players)."""

Labels = Literal["outcome", "backup"]
"""What a round's samples are labelled with: who won the game, or the round before's
model after one exactly played turn (see the module's text)."""


class Round(NamedTuple):
    """One round of a recipe: the games it plays, how it labels tables, what it fits."""

    games: int
    """Self-play games played in this round (0: none, it learns from earlier rounds')."""
    player: Player = "margin"
    """Who plays them (the first round has no model yet: ``margin``)."""
    labels: Labels = "outcome"
    """How its samples are labelled, and so which they are (see the module's text)."""
    hidden: tuple[int, ...] = ()
    """The network's hidden layers; none: a logistic regression."""


class Endgame(NamedTuple):
    """Where the shipped champion looks further: ``turns`` turns from ``tiles`` tiles."""

    turns: int
    """Turns looked ahead, its own included."""
    tiles: int
    """The most tiles on the grill at a turn's start for it to look that far."""


class Recipe(NamedTuple):
    """How one game's model is fitted, round by round."""

    rounds: tuple[Round, ...]
    """The rounds in order; the last one's model is shipped."""
    reply: bool
    """Whether the shipped champion looks through the opponent's reply."""
    tables: int | None = None
    """How many tables a ``backup`` round labels (a seeded sample; None: all)."""
    endgame: Endgame | tuple[Endgame, ...] | None = None
    """Where the shipped champion looks further than one turn (None: nowhere); several
    tiers, each for a different number of tiles, look further the fewer tiles are left."""

    def endgame_about(self) -> dict[str, int] | list[dict[str, int]] | None:
        """The endgame as the model's ``about`` names it for its champion."""
        if isinstance(self.endgame, Endgame):
            return self.endgame._asdict()
        return [tier._asdict() for tier in self.endgame] if self.endgame else None


GAMES: dict[tuple[str, int], Recipe] = {
    ("classic", 2): Recipe(
        (
            Round(6000),
            Round(6000, "turn", "backup", (64, 32)),
            Round(0, "turn", "backup", (64, 32)),
            Round(0, "turn", "backup", (64, 32)),
        ),
        reply=False,
        tables=200_000,
        endgame=Endgame(turns=4, tiles=2),
    ),
    ("classic", 3): Recipe((Round(1500), Round(1500, "turn")), reply=False),
    ("classic", 4): Recipe((Round(1500), Round(1500, "turn")), reply=False),
    ("extended", 2): Recipe(
        (Round(1000),),
        reply=False,
        endgame=(Endgame(turns=3, tiles=1), Endgame(turns=2, tiles=2)),
    ),
    ("extended", 3): Recipe((Round(1500), Round(1500, "turn")), reply=False),
    ("extended", 4): Recipe((Round(1500), Round(1500, "turn")), reply=False),
}
"""The games the shipped models are fitted for, (variant, players), and their recipes.

In 2-player classic, where a turn solve is cheap, a network learns from exact one-turn
backups (three rounds of fitted value iteration); looking through the opponent's reply as
well won no more games with it, so the champion looks one turn deep, except at the very end:
with two tiles or fewer on the grill it looks four turns ahead, which won about half a point
more against each opponent (the docs page "How strong is it"). In 2-player extended
a turn solve costs ten times more, so its model learns from ``margin``'s games only, and its
champion looks three turns ahead with one tile left and two turns (through the reply) with
two: three turns from two tiles won eight points more against ``margin`` than one turn, and
two turns there won as much in half the slowest decisions' time (four turns would cost four
times more). With 3 and 4 players, classic and extended alike,
the champion learns from game outcomes: ``margin``'s games, then its own one turn deep."""


_Job = TypeVar("_Job")
_Done = TypeVar("_Done")


class Tables(NamedTuple):
    """The tables between two turns of self-play games, and who won each game."""

    states: list[GameState]
    """Each table: the state as the dice pass to the next player."""
    winners: NDArray[np.int8]
    """The winning seat counted from the player about to move (-1: a shared win)."""


def _player(model: Path | None, player: Player) -> Bot:
    if model is None or player == "margin":
        return get_bot("margin")
    fitted = WinModel.load(model)
    return OptimalBot(fitted.reply_value() if player == "reply" else fitted.turn_value)


def _play(job: tuple[str, int, Path | None, Player, str, range]) -> Tables:
    """Play games ``indices`` of a round and return their tables (in a worker)."""
    variant, players, model, player, seed, indices = job
    bot = _player(model, player)
    rules, start = new_game(variant, players=players)
    states: list[GameState] = []
    winners: list[int] = []
    for index in indices:
        state, tables = start, [start]
        for _, after in playout(rules, start, bot, random.Random(f"{seed}:{index}")):
            if after.player != state.player and after.phase is not Phase.GAME_OVER:
                tables.append(after)
            state = after
        won = result(rules, state).winners
        states.extend(tables)
        winners.extend((won[0] - t.player) % players if len(won) == 1 else -1 for t in tables)
    return Tables(states, np.array(winners, dtype=np.int8))


def _joined(parts: Iterable[Tables]) -> Tables:
    parts = list(parts)
    states = [state for part in parts for state in part.states]
    winners = [np.zeros(0, dtype=np.int8), *(part.winners for part in parts)]
    return Tables(states, np.concatenate(winners))


def self_play(  # noqa: PLR0913, PLR0917 (a round's set-up)
    variant: str,
    players: int,
    model: Path | None,
    games: int,
    seed: str,
    jobs: int,
    *,
    player: Player = "turn",
) -> Tables:
    """The tables of ``games`` self-play games.

    ``margin`` plays every seat when ``model`` is None; otherwise the champion with
    ``model``, as ``player`` says.
    """
    chunk = 50
    work = [
        (variant, players, model, player, seed, range(start, min(start + chunk, games)))
        for start in range(0, games, chunk)
    ]
    return _joined(_map(_play, work, jobs))


def _map(work: Callable[[_Job], _Done], jobs: Sequence[_Job], workers: int) -> list[_Done]:
    """``work`` done on each job in order, here or by ``workers`` processes."""
    if workers == 1:
        return [work(job) for job in jobs]
    return map_in_processes(work, jobs, workers)


def _backup(job: tuple[str, Path, list[GameState]]) -> list[float]:
    """The backups of some tables (in a worker)."""
    variant, model, states = job
    fitted = WinModel.load(model)
    rules, _ = new_game(variant, players=fitted.players)
    return [solve_turn(rules, state, fitted.turn_value).value for state in states]


def backups(
    variant: str, model: Path, states: Sequence[GameState], jobs: int
) -> NDArray[np.float64]:
    """Each table's exact one-turn backup of ``model``: the mover's chance to win.

    The value of [`solve_turn`][pickomino_rules.solver.solve_turn] from the table with the
    model's [`turn_value`][pickomino_rules.learned.WinModel.turn_value]: the chance to win
    that the model gives the player about to move once he has played his turn as well as
    the model lets him, every roll of it weighed exactly.
    """
    chunk = 500
    work = [(variant, model, list(states[i : i + chunk])) for i in range(0, len(states), chunk)]
    values = _map(_backup, work, jobs)
    return np.array([value for part in values for value in part], dtype=np.float64)


def fit_model(  # noqa: PLR0913 (a fit's set-up)
    variant: str,
    players: int,
    tables: Tables,
    about: dict[str, Any],
    *,
    chances: NDArray[np.float64] | None = None,
    hidden: tuple[int, ...] = (),
    seed: int = 0,
) -> WinModel:
    """Fit a classifier on ``tables`` and return it as a numpy-only model.

    Each table is labelled with the seat that won its game, or, with ``chances`` (two
    players), with the mover's chance to win: a soft label, given to the classifier as the
    table twice, once for each seat, weighted by that seat's chance. A multinomial
    logistic regression, or with ``hidden`` layers a network with ReLUs
    (``MLPClassifier``: Adam, 80 passes over the samples, its initial weights drawn from
    ``seed``).
    """
    rules, _ = new_game(variant, players=players)
    encoding = Encoding.of(rules, players)
    observations = np.array([encoding.observe(s, s.player) for s in tables.states], np.float32)
    features = table_features(rules, encoding, observations)
    if chances is None:
        keep = tables.winners >= 0  # a shared win (no tiles at all) says nothing of who wins
        features, labels, weights = features[keep], tables.winners[keep], None
    else:
        if players != 2:
            msg = f"a chance labels two seats: two players, not {players}"
            raise ValueError(msg)
        features = np.vstack([features, features])
        labels = np.repeat(np.arange(2, dtype=np.int8), len(chances))
        weights = np.concatenate([chances, 1.0 - chances])
    layers: list[tuple[NDArray[np.float64], NDArray[np.float64]]]
    classifier: LogisticRegression | MLPClassifier
    if hidden:
        # No early stopping: sklearn stops on the held-out accuracy, which soft labels
        # blur; the weighted log loss keeps falling for about 80 passes.
        classifier = MLPClassifier(
            hidden,
            alpha=1e-4,
            batch_size=min(512, len(features)),
            max_iter=80,
            tol=0.0,
            random_state=seed,
        )
        with warnings.catch_warnings():  # a fixed number of passes is the plan, not a fault
            warnings.simplefilter("ignore", ConvergenceWarning)
            classifier.fit(features, labels, sample_weight=weights)
        layers = [(w.T, b) for w, b in zip(classifier.coefs_, classifier.intercepts_, strict=True)]
    else:
        classifier = LogisticRegression(max_iter=5000)
        classifier.fit(features, labels, sample_weight=weights)
        layers = [(classifier.coef_, classifier.intercept_)]
    if list(classifier.classes_) != list(range(players)):
        msg = f"every seat must win some game to be learned, got {classifier.classes_}"
        raise ValueError(msg)
    last, bias = layers[-1]
    if players == 2:  # one logit for seat 1: logits (0, z) give the same chances
        layers[-1] = (np.vstack([np.zeros_like(last), last]), np.concatenate([[0.0], bias]))
    predicted = classifier.predict_proba(features)
    loss = -np.average(np.log(predicted[np.arange(len(labels)), labels]), weights=weights)
    about = about | {"samples": len(tables.states), "log_loss": round(float(loss), 5)}
    return WinModel.of(variant, players, dict(rules.options), layers, about)


def _arguments(argv: Sequence[str] | None) -> argparse.Namespace:
    parser = fit_parser([f"{variant}-{players}" for variant, players in GAMES])
    arguments = parser.parse_args(argv)
    for name, low in (("games", 1), ("rounds", 0), ("jobs", 1)):
        if getattr(arguments, name) is not None and getattr(arguments, name) < low:
            parser.error(f"--{name} must be at least {low}")
    return arguments


def main(argv: Sequence[str] | None = None) -> None:
    """Fit and save the win models the command line asks for.

    A game's file in ``--out`` is replaced only once its last round is fitted: stopped
    early (Ctrl-C), the command leaves the files it has not finished as they were and
    exits with status 130. Bad arguments, or an ``--out`` it cannot write to, end it with
    an error message and status 2 or 1, before anything is played.
    """
    arguments = _arguments(argv)
    command = " ".join(["python -m pickomino_rules.learned.fit", *(argv or sys.argv[1:])])
    out = Path(arguments.out)
    chosen = [g for g in GAMES if arguments.only is None or f"{g[0]}-{g[1]}" in arguments.only]
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        sys.exit(f"error: cannot write the models to {out}: {error.strerror or error}")
    try:
        for variant, players in chosen:  # better said now than after an hour of self-play
            check_save_target(_model_file(out, variant, players))
        for variant, players in chosen:
            _fit_game(variant, players, arguments, command, out)
    except KeyboardInterrupt:
        print("\nstopped: the unfinished game's file is as it was", file=sys.stderr)  # noqa: T201
        raise SystemExit(130) from None
    except SaveError as error:  # e.g. the disk filled up while saving
        sys.exit(f"error: {error}")


def _model_file(folder: Path, variant: str, players: int) -> Path:
    return folder / f"champion-{variant}-{players}.npz"


def _fit_game(
    variant: str, players: int, arguments: argparse.Namespace, command: str, out: Path
) -> None:
    """Run one game's recipe, then replace the game's file in ``out`` with its model.

    The rounds before the last save their models in a temporary folder, where the next
    round's workers read them; the last one's replaces the file in one step.
    """
    with tempfile.TemporaryDirectory(prefix="pickomino-fit-") as rounds_folder:
        fitted = _run_rounds(variant, players, arguments, command, Path(rounds_folder))
    fitted.save(_model_file(out, variant, players))


def _run_rounds(
    variant: str, players: int, arguments: argparse.Namespace, command: str, folder: Path
) -> WinModel:
    """The recipe's rounds one after another; the last round's model."""
    began = time.perf_counter()
    path = _model_file(folder, variant, players)
    recipe = GAMES[variant, players]
    rounds = _rounds(recipe, arguments.rounds, arguments.games)
    played: list[Tables] = []
    model: Path | None = None
    fitted: WinModel | None = None
    for number, round_ in enumerate(rounds):
        round_began = time.perf_counter()
        games = f"playing {round_.games} games ({round_.player})" if round_.games else "no games"
        print(  # noqa: T201 (the program's output)
            f"{variant}-{players} round {number}: {games}, then a fit on {round_.labels}s",
            flush=True,
        )
        seed = f"{arguments.seed}:{number}"
        learned = self_play(
            variant, players, model, round_.games, seed, arguments.jobs, player=round_.player
        )
        played.append(learned)
        chances = None
        if round_.labels == "backup":
            if model is None:
                msg = f"round {number} backs up the round before's model: round 0 has none"
                raise ValueError(msg)
            learned = _sample(_joined(played), recipe.tables, seed)
            chances = backups(variant, model, learned.states, arguments.jobs)
        about = {
            "command": command,
            "seed": arguments.seed,
            "rounds": number,
            "recipe": [[r.games, r.player, r.labels, list(r.hidden)] for r in rounds[: number + 1]],
            "tables": recipe.tables,
            "reply": recipe.reply,
            "endgame": recipe.endgame_about(),
            "pickomino_rules": __version__,
            "scikit-learn": version("scikit-learn"),
            "numpy": np.__version__,
            "python": platform.python_version(),
        }
        fitted = fit_model(
            variant,
            players,
            learned,
            about,
            chances=chances,
            hidden=round_.hidden,
            seed=arguments.seed,
        )
        seconds = round(time.perf_counter() - began)
        fitted = attrs.evolve(fitted, about={**fitted.about, "seconds": seconds})
        if number < len(rounds) - 1:  # the next round plays or labels with it
            fitted.save(path)
            model = path
        print(  # noqa: T201 (the program's output)
            f"{variant}-{players} round {number} ({round_.games} games, {round_.player}, "
            f"{round_.labels}): {len(learned.states)} tables, "
            f"log loss {fitted.about['log_loss']:.4f}, "
            f"{round(time.perf_counter() - round_began)} s ({seconds} s for the game so far)",
            flush=True,
        )
    if fitted is None:  # _rounds gives one round at least
        msg = "a recipe without rounds"
        raise ValueError(msg)
    return fitted


def _sample(tables: Tables, size: int | None, seed: str) -> Tables:
    """A seeded sample of ``size`` tables, in their order (all of them if fewer)."""
    if size is None or size >= len(tables.states):
        return tables
    chosen = sorted(random.Random(seed).sample(range(len(tables.states)), size))
    return Tables([tables.states[i] for i in chosen], tables.winners[chosen])


def _rounds(recipe: Recipe, rounds: int | None, games: int | None) -> list[Round]:
    """The recipe's rounds, cut or stretched to ``rounds`` after the first.

    Stretched, its last round comes again (played by the champion), and each round that
    plays games plays ``games`` of them when given.
    """
    chosen = list(recipe.rounds)
    if rounds is not None:
        last = chosen[-1]
        again = last._replace(player="turn") if last.player == "margin" else last
        chosen = [*chosen, *[again] * (rounds + 1 - len(chosen))][: rounds + 1]
    return [r._replace(games=games) if games and r.games else r for r in chosen]


if __name__ == "__main__":
    main()
