"""What the commands share: exit codes, options, the console, one-line errors, signals."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sys
import threading
from typing import TYPE_CHECKING, NoReturn

import click
from rich.console import Console

from pickomino_rules.bots import InvalidBotError, UnknownBotError, get_bot
from pickomino_rules.errors import MAX_MESSAGE
from pickomino_rules.game import MAX_GAME_MOVES
from pickomino_rules.registry import available_variants
from pickomino_rules.result import result
from pickomino_rules.story import counted

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from pickomino_rules.records import GameRecord
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState


EXIT_FAILURE = 1
"""Exit code of a failure: a bad or unreadable file, an illegal record, a failed save."""
EXIT_USAGE = 2
"""Exit code of a usage error: unknown command or option, a bad value, or a game the
arguments name that the rules refuse (players, options, a bot that does not play it)."""
EXIT_STOPPED = 130
"""Exit code of a game or run stopped by Ctrl-C or by the end of input (128 + SIGINT)."""
EXIT_TERMINATED = 143
"""Exit code of a command stopped by SIGTERM (128 + SIGTERM)."""


def parse_options(pairs: Sequence[str]) -> dict[str, object]:
    """``NAME=VALUE`` pairs; values read as JSON where they can be (true, 3, [1, 2])."""
    options: dict[str, object] = {}
    for pair in pairs:
        name, sep, raw = pair.partition("=")
        if not sep or not name:
            msg = f"option {pair!r} is not NAME=VALUE"
            raise click.BadParameter(msg, param_hint="--option")
        try:
            options[name.strip()] = json.loads(raw)
        except json.JSONDecodeError:
            options[name.strip()] = raw
    return options


def bot_names(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    for name in names:
        try:
            get_bot(name)
        except (UnknownBotError, InvalidBotError) as error:
            raise click.BadParameter(str(error)) from None
    if not names:
        msg = "name at least one bot"
        raise click.BadParameter(msg)
    return names


def variant_name(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if value not in available_variants():
        msg = f"unknown variant {value!r} (known: {', '.join(available_variants())})"
        raise click.BadParameter(msg)
    return value


VARIANT = click.option(
    "--variant",
    default="classic",
    show_default=True,
    callback=variant_name,
    help="Rule set: classic, extended (specialists), extrawurm, or a plug-in's.",
)
MAX_MOVES = click.option(
    "--max-moves",
    type=click.IntRange(min=1),
    default=MAX_GAME_MOVES,
    show_default=True,
    metavar="N",
    help="Most moves (decisions and rolls) a game may take; one still going then ends "
    "unfinished (a game can go on for ever: a bust with no tile to return turns nothing).",
)
PLAYERS = click.option("--players", default=2, show_default=True, help="Number of players (2-7).")
SEED = click.option(
    "--seed", default=0, show_default=True, help="Seed: the same seed, the same game."
)
OPTION = click.option(
    "--option",
    "-o",
    "option_pairs",
    multiple=True,
    metavar="NAME=VALUE",
    help="A rule option, e.g. -o short_game=true (repeatable; see 'pickomino variants').",
)


def new_console() -> Console:
    """Standard output: lines wrap on a terminal only (a file or a pipe gets whole lines).

    Tables too: in a file or a pipe they keep their full width rather than fold into 80
    columns, unless ``COLUMNS`` asks for a width.
    """
    console = Console(highlight=False)
    if not console.is_terminal:
        console.soft_wrap = True
        if not os.environ.get("COLUMNS", "").isdigit():  # as rich reads it
            console.width = _UNFOLDED
    return console


_UNFOLDED = 10_000
"""The width of a file or a pipe: more than any table of ours needs."""


def fail(message: str, code: int = EXIT_FAILURE) -> NoReturn:
    """Print ``error: message`` and exit; a line of it is never huge (input quoted is cut)."""
    click.echo(fitted(f"error: {message}"), err=True)
    sys.exit(code)


LONGEST_LINE = 2 * MAX_MESSAGE
"""Longest line an error prints: the library's messages fit; a huge quote is cut."""


def fitted(text: str) -> str:
    """``text`` with each line cut to ``LONGEST_LINE`` characters, saying how long it was.

    An error may quote what it was given, and what it was given may be huge (a path, a line
    of a file): it never floods the terminal. The terminal wraps what is kept.
    """
    return "\n".join(
        line
        if len(line) <= LONGEST_LINE
        else f"{line[: LONGEST_LINE - 30]}… ({len(line):,} characters)"
        for line in text.splitlines()
    )


def seat_list(record: GameRecord) -> str:
    """Who sat where, from a record: ``"0 Ann (you), 1 greedy #1 (greedy)"``."""
    names = record.seat_names()
    bots = record.bots or (None,) * record.players
    parts = []
    for seat, (name, bot) in enumerate(zip(names, bots, strict=True)):
        who = "" if record.bots is None else f" ({bot})" if bot else " (a person)"
        parts.append(f"{seat} {name}{who if record.names is not None else ''}")
    return ", ".join(parts)


def print_result(console: Console, rules: Rules, state: GameState, names: Sequence[str]) -> None:
    outcome = result(rules, state)
    ranking = ", ".join(
        f"{names[p]}: {counted(outcome.scores[p], 'worm')}" for p in outcome.ranking
    )
    winners = " and ".join(names[p] for p in outcome.winners)
    console.print(f"[bold]result:[/] {ranking}; winner: [bold green]{winners}[/]")


_signals = {"terminated": False}
"""Whether SIGTERM stopped the running command: it then exits with EXIT_TERMINATED."""


@contextlib.contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """SIGTERM stops a command as Ctrl-C does (a game saved, a run's workers stopped)."""
    _signals["terminated"] = False
    if threading.current_thread() is not threading.main_thread():
        yield  # signal handlers belong to the main thread (CliRunner may call from others)
        return

    def stop(_signal: int, _frame: object) -> None:
        _signals["terminated"] = True
        raise KeyboardInterrupt

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, previous)


def stop_code() -> int:
    """The exit code of a command stopped by Ctrl-C (130) or SIGTERM (143)."""
    return EXIT_TERMINATED if _signals["terminated"] else EXIT_STOPPED
