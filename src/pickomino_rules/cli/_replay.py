"""`pickomino replay`: a saved game record, turn by turn."""

from __future__ import annotations

import sys

import click

from pickomino_rules.cli._common import (
    new_console,
    print_result,
    seat_list,
)
from pickomino_rules.game import parse_move
from pickomino_rules.records import load_record
from pickomino_rules.state import Phase
from pickomino_rules.story import counted, turns
from pickomino_rules.terminal import render_table


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option(
    "--pause/--no-pause",
    default=None,
    help="Wait for a key after each turn (the default on a terminal), or print the whole "
    "game at once (the default into a file or a pipe).",
)
@click.option("--tables", is_flag=True, help="Draw the table after each turn.")
def replay(path: str, pause: bool | None, tables: bool) -> None:
    """Step through a saved game record, turn by turn.

    On a terminal each turn waits for a key: Enter or space shows the next turn, a the
    rest at once, q stops. Into a file or a pipe the whole game is printed at once.
    """
    record = load_record(path)
    rules, state = record.initial()
    console = new_console()
    keys = sys.stdin.isatty()
    stepping = pause if pause is not None else keys and console.is_terminal
    setup = f"{record.players} players, seed {record.seed}, {len(record.moves)} moves"
    console.print(f"[bold]{record.variant}[/], {setup}")
    names = record.seat_names()
    console.print(f"seats: {seat_list(record)}", markup=False)
    if stepping and keys:
        console.print("[dim]Enter or space: the next turn; a: the rest at once; q: stop[/]")
    moves = [parse_move(rules, text) for text in record.moves]
    final = state
    for number, turn in enumerate(turns(rules, state, moves), start=1):
        line = turn.describe(names=names.__getitem__, rules=rules)
        console.print(f"turn {number:3}  {line}", markup=False)
        final = turn.after
        if tables:
            console.print(render_table(rules, turn.after, names))
        if stepping and final.phase is not Phase.GAME_OVER:
            answer = _next_key() if keys else _next_line()
            if answer == "a":
                stepping = False
            elif answer == "q":
                console.print(f"stopped after {counted(number, 'turn')}")
                return
    console.print(render_table(rules, final, names))
    if final.phase is Phase.GAME_OVER:
        print_result(console, rules, final, names)
    else:
        console.print("the record ends before the game does")


def _next_key() -> str:
    """The key pressed at a terminal, unechoed: ``a``, ``q`` (Ctrl-D too), or another."""
    try:
        key = click.getchar()
    except EOFError:  # Ctrl-D
        return "q"
    return key.lower()


def _next_line() -> str:
    """A line of the input, which is not a terminal (``--pause`` with input piped in)."""
    return str(click.prompt("", default="", show_default=False, prompt_suffix="")).strip().lower()
