"""The command lines of the learning programs, light enough to answer without their extras.

``python -m pickomino_rules.learned.train --help`` (or ``fit``) where the extra is missing
prints the program's help and says which extra to install; run for real, it says so in one
line. Neither shows a traceback.
"""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING, NoReturn

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pickomino_rules.errors import MissingExtraError


def train_parser() -> argparse.ArgumentParser:
    """The arguments of ``python -m pickomino_rules.learned.train``."""
    parser = argparse.ArgumentParser(
        prog="python -m pickomino_rules.learned.train",
        description="Train MaskablePPO against a bot and save a numpy-only policy.",
    )
    parser.add_argument("--variant", default="classic")
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--opponent", default="greedy", help="the bot to learn against")
    parser.add_argument("--steps", type=int, default=5_000_000, help="learner decisions")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--engine",
        choices=["batch", "reference"],
        help="batch (the default where it plays the rules) or reference (gymnasium env copies)",
    )
    parser.add_argument("--envs", type=int, help="games side by side (256 batch, 8 reference)")
    parser.add_argument("--eval-every", type=int, default=500_000, metavar="STEPS")
    parser.add_argument("--eval-games", type=int, default=400, metavar="GAMES")
    parser.add_argument("--final-games", type=int, default=2000, metavar="GAMES")
    parser.add_argument("--threads", type=int, default=1, help="PyTorch threads")
    parser.add_argument(
        "--learning-rate",
        type=float,
        metavar="RATE",
        help="PPO's starting learning rate, falling linearly to 0 (default 0.001)",
    )
    parser.add_argument(
        "--imitate", metavar="BOT", help="first clone this bot's play (then DAgger rounds)"
    )
    parser.add_argument("--imitate-games", type=int, default=600, metavar="GAMES")
    parser.add_argument("--imitate-rounds", type=int, default=2, metavar="ROUNDS")
    parser.add_argument("--imitate-epochs", type=int, default=8, metavar="EPOCHS")
    parser.add_argument("--jobs", type=int, default=1, help="processes playing the teacher")
    parser.add_argument("--out", default="policy.npz", help="where to save the policy")
    parser.add_argument("--curve", help="write the learning curve to this CSV file")
    parser.add_argument("--plot", help="draw the learning curve to this .png or .svg file")
    return parser


def fit_parser(games: Sequence[str] | None = None) -> argparse.ArgumentParser:
    """The arguments of ``python -m pickomino_rules.learned.fit``.

    Args:
        games: The games ``--only`` may name (``classic-2``, ...): the recipes' games.
    """
    parser = argparse.ArgumentParser(
        prog="python -m pickomino_rules.learned.fit",
        description="Fit the champion's win models by self-play (scikit-learn).",
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--games", type=int, help="self-play games in every round (default: the recipe's)"
    )
    parser.add_argument("--rounds", type=int, help="rounds after margin's (default: the recipe's)")
    parser.add_argument("--jobs", type=int, default=2, help="worker processes")
    parser.add_argument(
        "--only",
        action="append",
        choices=games,
        metavar="VARIANT-PLAYERS",
        help="one game only, e.g. classic-2 (repeatable; default: all of them)",
    )
    parser.add_argument("--out", default=".", help="folder for champion-VARIANT-PLAYERS.npz")
    return parser


def exit_without_extra(parser: argparse.ArgumentParser, missing: MissingExtraError) -> NoReturn:
    """End a program whose extra is missing: its help with the extra named, or one line.

    ``--help`` prints the help (what the program does, its arguments) and, below it, which
    extra to install (exit 0); bad arguments are refused as ever (exit 2); anything else
    prints ``error: ...`` naming the extra and exits 1.
    """
    parser.epilog = f"Not installed here: {missing}"
    parser.parse_args()
    parser.exit(1, f"error: {missing}\n")
