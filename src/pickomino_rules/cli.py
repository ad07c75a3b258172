"""The ``pickomino`` command line: play, simulate, replay, list variants.

Built with click (commands, options, help) and rich (colours, tables, progress).
Every error a user can cause ends in one ``error: ...`` line on stderr and a
non-zero exit code, never a traceback: 1 for a failure (a bad file, an illegal record, a
failed save), 2 for a usage error, 130 when stopped by Ctrl-C or the end of input.
"""

from __future__ import annotations

import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from typing import TYPE_CHECKING, NoReturn

import click
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from pickomino_rules.actions import Action
from pickomino_rules.bots import BOTS, get_bot
from pickomino_rules.dice import FACES
from pickomino_rules.errors import PickominoError
from pickomino_rules.game import Bot, Move, legal_actions, parse_move, playout
from pickomino_rules.records import GameRecord, check_save_target, load_record, save_record
from pickomino_rules.registry import available_variants, get_variant
from pickomino_rules.result import result, scores
from pickomino_rules.simulation import simulate as run_simulation
from pickomino_rules.state import Phase
from pickomino_rules.story import group_turns, turns

if TYPE_CHECKING:
    from collections.abc import Iterator, Sequence

    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["cli", "main", "render_table"]

EXIT_FAILURE = 1
"""Exit code of a failure: a bad or unreadable file, an illegal record, a failed save."""
EXIT_USAGE = 2
"""Exit code of a usage error: unknown command or option, a bad value."""
EXIT_STOPPED = 130
"""Exit code of a game or run stopped by Ctrl-C or by the end of input (128 + SIGINT)."""


def _options(pairs: Sequence[str]) -> dict[str, object]:
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


def _bot_names(_ctx: click.Context, _param: click.Parameter, value: str) -> tuple[str, ...]:
    names = tuple(name.strip() for name in value.split(",") if name.strip())
    for name in names:
        if name not in BOTS:
            msg = f"unknown bot {name!r} (known: {', '.join(sorted(BOTS))})"
            raise click.BadParameter(msg)
    if not names:
        msg = "name at least one bot"
        raise click.BadParameter(msg)
    return names


def _variant_name(_ctx: click.Context, _param: click.Parameter, value: str) -> str:
    if value not in available_variants():
        msg = f"unknown variant {value!r} (known: {', '.join(available_variants())})"
        raise click.BadParameter(msg)
    return value


VARIANT = click.option(
    "--variant",
    default="classic",
    show_default=True,
    callback=_variant_name,
    help="Rule set: classic, extended (specialists), extrawurm, or a plug-in's.",
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


def render_table(rules: Rules, state: GameState, names: Sequence[str] | None = None) -> Table:
    """The table as a rich renderable: grill, stacks, dice and the variant's parts."""
    table = Table(show_header=False, expand=False)
    table.add_column("", no_wrap=True)
    table.add_column("", overflow="fold")
    grill = Text()
    for tile in state.grill:
        grill.append(f" {tile}", style="bold yellow")
        grill.append("~" * rules.worms_of(tile), style="green")
    table.add_row("grill", grill if state.grill else Text("(empty)", style="dim"))
    if state.face_down:
        table.add_row("face down", Text(" ".join(map(str, state.face_down)), style="dim"))
    points = scores(rules, state)
    for player, stack in enumerate(state.stacks):
        label = names[player] if names else f"player {player}"
        marker = "▶ " if player == state.player and state.phase is not Phase.GAME_OVER else "  "
        top = f"top {stack[-1]}" if stack else "no tile"
        table.add_row(
            Text(marker + label, style="bold cyan" if marker.strip() else ""),
            f"{top}, {len(stack)} tile(s), {points[player]} worm(s)",
        )
    kept = " ".join(face.symbol * n for face, n in zip(FACES, state.set_aside, strict=True) if n)
    if state.phase is not Phase.GAME_OVER:
        table.add_row("set aside", f"{kept or '-'}  (total {state.total})")
        if state.roll is not None:
            table.add_row("roll", Text(str(state.roll), style="bold magenta"))
    for part in state.parts:
        if part is not None:
            table.add_row("", Text(str(part), style="italic"))
    return table


def _fail(message: str, code: int = EXIT_FAILURE) -> NoReturn:
    click.echo(f"error: {message}", err=True)
    sys.exit(code)


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="pickomino_rules", prog_name="pickomino")
def cli() -> None:
    r"""Pickomino (Heckmeck am Bratwurmeck) in the terminal: play, simulate, replay.

    \b
    Examples:
      pickomino play --players 3                  you (player 0) against two greedy bots
      pickomino play --watch --seed 7             bots only, turn by turn
      pickomino simulate --bots greedy,random --games 1000 --jobs 2
      pickomino replay game.json
      pickomino variants                          variants and their options
    """


@cli.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default="greedy",
    show_default=True,
    callback=_bot_names,
    help="Bots for the other seats, comma-separated, cycled.",
)
@SEED
@click.option("--seat", default=0, show_default=True, help="Your seat (player index).")
@click.option("--watch", is_flag=True, help="Bots only: watch a game turn by turn.")
@click.option(
    "--save",
    "save_path",
    type=click.Path(dir_okay=False, writable=True),
    help="Save the game record (JSON) here at the end.",
)
@OPTION
def play(  # noqa: PLR0913, PLR0917 (click passes one argument per option)
    variant: str,
    players: int,
    bots: tuple[str, ...],
    seed: int,
    seat: int,
    watch: bool,
    save_path: str | None,
    option_pairs: tuple[str, ...],
) -> None:
    """Play a game against bots (or watch bots play with --watch).

    On your turn the legal moves are listed: type a number, or a move such as
    'take w', 'roll', 'stop' or 'steal 1'. The dice are rolled for you.
    """
    if save_path:
        check_save_target(save_path)  # before the game, not after it
    record = GameRecord.start(variant, players, _options(option_pairs), 0, seed)
    rules, state = record.initial()
    human = None if watch else seat
    if human is not None and not 0 <= human < players:
        _fail(f"--seat must be 0 to {players - 1}", EXIT_USAGE)
    seats = [bots[i % len(bots)] for i in range(players)]
    names = ["you" if p == human else f"player {p} ({seats[p]})" for p in range(players)]
    console = Console(highlight=False)

    def you(rules: Rules, state: GameState, _rng: random.Random) -> Action:
        return _ask(console, rules, state, names)

    players_bots: list[Bot] = [you if p == human else get_bot(seats[p]) for p in range(players)]
    moves: list[Move] = []

    def recorded() -> Iterator[tuple[Move, GameState]]:
        for move, after in playout(rules, state, players_bots, random.Random(seed)):
            moves.append(move)
            yield move, after

    try:
        for turn in group_turns(state, recorded()):
            console.print(turn.describe(names[turn.player]), soft_wrap=True, markup=False)
            state = turn.after
    except (KeyboardInterrupt, click.Abort):
        # an unfinished record is a valid record: keep what was played
        if save_path:
            save_record(record.extended(moves), save_path)
            _fail(f"game interrupted; the unfinished record is saved to {save_path}", EXIT_STOPPED)
        _fail("game interrupted", EXIT_STOPPED)
    console.print(render_table(rules, state, names))
    _print_result(console, rules, state, names)
    if save_path:
        save_record(record.extended(moves), save_path)
        console.print(f"record saved to {save_path}")


def _ask(console: Console, rules: Rules, state: GameState, names: Sequence[str]) -> Action:
    """Show the table and the legal moves; read until the player gives a legal one."""
    legal = [move for move in legal_actions(rules, state) if isinstance(move, Action)]
    console.print(render_table(rules, state, names))
    console.print("  ".join(f"[bold]{i}[/] {move}" for i, move in enumerate(legal, start=1)))
    while True:
        try:
            answer = click.prompt(
                "your move", prompt_suffix="> ", default="", show_default=False
            ).strip()
        except RuntimeError:  # input() with standard input closed: "lost sys.stdin"
            raise click.Abort from None
        if answer.isdigit() and 1 <= int(answer) <= len(legal):
            return legal[int(answer) - 1]
        try:
            move = parse_move(rules, answer)
        except ValueError:
            move = None
        if isinstance(move, Action) and move in legal:
            return move
        hint = f"type 1-{len(legal)} or a move like '{legal[0]}'"
        console.print(f"[red]not a legal move: {answer!r}[/] - {hint}")


def _print_result(console: Console, rules: Rules, state: GameState, names: Sequence[str]) -> None:
    outcome = result(rules, state)
    ranking = ", ".join(f"{names[p]} {outcome.scores[p]}" for p in outcome.ranking)
    winners = " and ".join(names[p] for p in outcome.winners)
    console.print(f"[bold]result:[/] {ranking}; winner: [bold green]{winners}[/]")


@cli.command()
@VARIANT
@PLAYERS
@click.option(
    "--bots",
    default="greedy,random",
    show_default=True,
    callback=_bot_names,
    help="Bots per seat, comma-separated, cycled over the seats.",
)
@click.option(
    "--games", default=200, show_default=True, type=click.IntRange(min=1), help="Number of games."
)
@SEED
@click.option(
    "--jobs",
    default=1,
    show_default=True,
    type=click.IntRange(min=1),
    help="Worker processes (results do not depend on it).",
)
@OPTION
def simulate(  # noqa: PLR0913, PLR0917 (click passes one argument per option)
    variant: str,
    players: int,
    bots: tuple[str, ...],
    games: int,
    seed: int,
    jobs: int,
    option_pairs: tuple[str, ...],
) -> None:
    """Play many seeded games between bots and print win rates and scores."""
    console = Console(highlight=False)
    options = _options(option_pairs)
    progress = Progress(
        TextColumn("games"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=Console(stderr=True),
        transient=True,
    )
    with progress:
        task = progress.add_task("games", total=games)

        def advance(done: int) -> None:
            progress.advance(task, done)

        kwargs = {
            "variant": variant,
            "players": players,
            "bots": bots,
            "games": games,
            "seed": seed,
            "options": options,
            "progress": advance,
        }
        if jobs > 1:
            with ProcessPoolExecutor(max_workers=jobs) as pool:
                outcome = run_simulation(**kwargs, executor=pool)  # type: ignore[arg-type]
        else:
            outcome = run_simulation(**kwargs)  # type: ignore[arg-type]
    table = Table(title=f"{variant}, {players} players, {games} games, seed {seed}")
    for column in ("seat", "bot", "win rate", "95% interval", "mean worms"):
        table.add_column(column, justify="right" if column != "bot" else "left")
    for seat_index in range(players):
        low, high = outcome.win_interval(seat_index)
        table.add_row(
            str(seat_index),
            outcome.bots[seat_index],
            f"{outcome.win_rate(seat_index):.1%}",
            f"{low:.1%} - {high:.1%}",
            f"{outcome.mean_score(seat_index):.2f}",
        )
    console.print(table)
    console.print(
        f"mean game length: {outcome.mean_turns:.1f} turns, {outcome.mean_moves:.0f} moves"
    )


@cli.command()
@click.argument("path", type=click.Path(dir_okay=False))
@click.option("--pause", is_flag=True, help="Wait for Enter after each turn.")
@click.option("--tables", is_flag=True, help="Draw the table after each turn.")
def replay(path: str, pause: bool, tables: bool) -> None:
    """Step through a saved game record, turn by turn."""
    record = load_record(path)
    rules, state = record.initial()
    console = Console(highlight=False)
    setup = f"{record.players} players, seed {record.seed}, {len(record.moves)} moves"
    console.print(f"[bold]{record.variant}[/], {setup}")
    moves = [parse_move(rules, text) for text in record.moves]
    final = state
    for number, turn in enumerate(turns(rules, state, moves), start=1):
        console.print(f"turn {number:3}  {turn}", soft_wrap=True, markup=False)
        final = turn.after
        if tables:
            console.print(render_table(rules, turn.after))
        if pause:
            click.prompt("", default="", show_default=False, prompt_suffix="")
    names = [f"player {p}" for p in range(record.players)]
    console.print(render_table(rules, final, names))
    if final.phase is Phase.GAME_OVER:
        _print_result(console, rules, final, names)
    else:
        console.print("the record ends before the game does")


@cli.command("variants")
def list_variants() -> None:
    """List the registered variants and their options."""
    console = Console(highlight=False)
    for name in available_variants():
        variant = get_variant(name)
        console.print(f"[bold]{name}[/]: {variant.doc.strip().splitlines()[0]}")
        for option in variant.options:
            console.print(
                f"  -o {option.name}={json.dumps(option.default)}  ({option.rule}) {option.doc}"
            )


def main(argv: Sequence[str] | None = None) -> None:
    """Console-script entry point: run the CLI; turn errors into one line."""
    try:
        code = cli.main(
            args=list(argv) if argv is not None else None,
            prog_name="pickomino",
            standalone_mode=False,
        )
    except (click.exceptions.Abort, KeyboardInterrupt):
        _fail("stopped", EXIT_STOPPED)
    except click.UsageError as error:
        _fail(error.format_message(), EXIT_USAGE)
    except click.ClickException as error:
        _fail(error.format_message(), error.exit_code)
    except (PickominoError, ValueError, OSError) as error:
        _fail(str(error))
    sys.exit(code if isinstance(code, int) else 0)


if __name__ == "__main__":
    main()
