"""`pickomino play`: a game against bots, or bots watched turn by turn."""

from __future__ import annotations

import random
import time
from typing import TYPE_CHECKING

import click

from pickomino_rules.bots import get_bot
from pickomino_rules.cli._analyse import print_analysis
from pickomino_rules.cli._common import (
    EXIT_USAGE,
    OPTION,
    PLAYERS,
    VARIANT,
    bot_names,
    fail,
    new_console,
    parse_options,
    print_result,
    stop_code,
)
from pickomino_rules.game import Bot, Move, playout
from pickomino_rules.records import GameRecord, check_save_target, save_record
from pickomino_rules.state import Phase
from pickomino_rules.story import group_turns
from pickomino_rules.terminal import Keyboard, QuitGame, render_table

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from rich.console import Console

    from pickomino_rules.state import GameState


@click.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    callback=bot_names,
    help="Bots for the other seats, comma-separated, cycled: random, greedy, optimal, "
    "an installed bot's name, or module:function.",
)
@click.option(
    "--seed",
    type=int,
    help="Seed: the same seed and the same moves, the same game. A fresh one by default, "
    "printed at the start.",
)
@click.option("--seat", default=0, show_default=True, help="Your seat (player index).")
@click.option(
    "--names",
    "names_text",
    metavar="NAMES",
    help="The players' names by seat, comma-separated (default: you, and the bots as "
    "greedy #1, ...).",
)
@click.option("--watch", is_flag=True, help="Bots only: watch a game turn by turn.")
@click.option(
    "--analyse",
    "analyse_after",
    is_flag=True,
    help="After the game, value every decision with the turn solver (see 'pickomino analyse').",
)
@click.option(
    "--delay",
    type=click.FloatRange(min=0),
    metavar="SECONDS",
    help="Pause after each bot's turn (default: 0.8 on a terminal, none otherwise).",
)
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Save the game record (JSON) here at the end, or when you quit or stop.",
)
@OPTION
def play(  # noqa: PLR0913, PLR0917 (click passes one argument per option)
    variant: str,
    players: int,
    bots: tuple[str, ...],
    seed: int | None,
    seat: int,
    names_text: str | None,
    watch: bool,
    analyse_after: bool,
    delay: float | None,
    save_path: str | None,
    option_pairs: tuple[str, ...],
) -> None:
    """Play a game against bots (or watch bots play with --watch).

    On your turn the table and the legal moves are shown, each with what it would do.
    Type a number or a move ('take w', 'roll', 'stop', 'steal 1'); 'help', 'hint' and
    'quit' work too. The dice are rolled for you.
    """
    if save_path:
        check_save_target(save_path)  # before the game, not after it
    human = None if watch else seat
    if human is not None and not 0 <= human < players:
        fail(f"--seat must be 0 to {players - 1}", EXIT_USAGE)
    seats = [bots[i % len(bots)] for i in range(players)]
    names = _player_names(names_text, seats, human)
    if seed is None:
        seed = random.SystemRandom().randrange(1_000_000)
    record = GameRecord.start(variant, players, parse_options(option_pairs), 0, seed)
    console = new_console()
    pause = delay if delay is not None else (0.8 if console.is_terminal else 0.0)
    console.print(
        f"[bold]{variant}[/], {players} players, seed {seed} "
        f"[dim](the same seed replays the game: --seed {seed})[/]"
    )
    players_bots: list[Bot] = [
        Keyboard(console, names) if p == human else get_bot(seats[p]) for p in range(players)
    ]
    played = _run_game(console, record, players_bots, names, human, pause, save_path)
    if analyse_after and played is not None:
        from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)

        print_analysis(console, analyse_record(played), names)


def _run_game(  # noqa: PLR0913, PLR0917 (one game's set-up)
    console: Console,
    record: GameRecord,
    bots: list[Bot],
    names: Sequence[str],
    human: int | None,
    pause: float,
    save_path: str | None,
) -> GameRecord | None:
    """Play the game turn by turn, then show the end; save where asked, also on a stop.

    Returns:
        The finished game's record, or None when the player quit.
    """
    rules, state = record.initial()
    moves: list[Move] = []

    def recorded() -> Iterator[tuple[Move, GameState]]:
        for move, after in playout(rules, state, bots, random.Random(record.seed)):
            moves.append(move)
            yield move, after

    try:
        for turn in group_turns(state, recorded()):
            console.print(turn.describe(names=names.__getitem__, rules=rules), markup=False)
            state = turn.after
            if turn.player != human and pause and state.phase is not Phase.GAME_OVER:
                time.sleep(pause)
    except QuitGame:
        _leave(console, record.extended(moves), save_path)
        return None
    except (KeyboardInterrupt, click.Abort):
        # an unfinished record is a valid record: keep what was played
        if save_path:
            save_record(record.extended(moves), save_path)
            fail(f"game interrupted; the unfinished record is saved to {save_path}", stop_code())
        fail("game interrupted", stop_code())
    console.print(render_table(rules, state, names))
    print_result(console, rules, state, names)
    if save_path:
        save_record(record.extended(moves), save_path)
        console.print(f"record saved to {save_path}")
    return record.extended(moves)


def _player_names(text: str | None, seats: Sequence[str], human: int | None) -> list[str]:
    """The names given with --names, checked; else "you" and the bots by seat."""
    if text is None:
        return ["you" if p == human else f"{bot} #{p}" for p, bot in enumerate(seats)]
    names = [name.strip() for name in text.split(",")]
    if len(names) != len(seats) or not all(names) or len(set(names)) != len(names):
        msg = f"give {len(seats)} different names, comma-separated, one per seat"
        raise click.BadParameter(msg, param_hint="--names")
    return names


def _leave(console: Console, record: GameRecord, save_path: str | None) -> None:
    """The player quit: save the unfinished game where asked, or offer to."""
    if save_path is None:
        try:
            answer = click.prompt(
                "save the game first? a file name, or Enter for no",
                default="",
                show_default=False,
            )
        except (click.Abort, RuntimeError):  # the input ended: nothing to save to
            answer = ""
        save_path = str(answer).strip() or None
    if save_path:
        save_record(record, save_path)
        console.print(f"game left; the unfinished record is saved to {save_path}")
    else:
        console.print("game left")
