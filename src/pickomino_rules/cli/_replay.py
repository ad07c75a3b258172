"""`pickomino replay`: a saved game record, turn by turn."""

from __future__ import annotations

import click

from pickomino_rules.cli._common import (
    new_console,
    print_result,
    seat_list,
)
from pickomino_rules.game import parse_move
from pickomino_rules.records import load_record
from pickomino_rules.state import Phase
from pickomino_rules.story import turns
from pickomino_rules.terminal import render_table


@click.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--pause", is_flag=True, help="Wait for Enter after each turn.")
@click.option("--tables", is_flag=True, help="Draw the table after each turn.")
def replay(path: str, pause: bool, tables: bool) -> None:
    """Step through a saved game record, turn by turn."""
    record = load_record(path)
    rules, state = record.initial()
    console = new_console()
    setup = f"{record.players} players, seed {record.seed}, {len(record.moves)} moves"
    console.print(f"[bold]{record.variant}[/], {setup}")
    names = record.seat_names()
    console.print(f"seats: {seat_list(record)}", markup=False)
    moves = [parse_move(rules, text) for text in record.moves]
    final = state
    for number, turn in enumerate(turns(rules, state, moves), start=1):
        line = turn.describe(names=names.__getitem__, rules=rules)
        console.print(f"turn {number:3}  {line}", markup=False)
        final = turn.after
        if tables:
            console.print(render_table(rules, turn.after, names))
        if pause:
            click.prompt("", default="", show_default=False, prompt_suffix="")
    console.print(render_table(rules, final, names))
    if final.phase is Phase.GAME_OVER:
        print_result(console, rules, final, names)
    else:
        console.print("the record ends before the game does")
