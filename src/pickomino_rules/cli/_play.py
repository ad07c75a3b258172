"""`pickomino play`: a game against bots, or bots watched turn by turn."""

from __future__ import annotations

import collections
import itertools
import random
import sys
import time
from pathlib import Path
from typing import TYPE_CHECKING, NoReturn

import attrs
import click
from rich.cells import cell_len
from rich.text import Text

from pickomino_rules.bots import InvalidBotError, UnknownBotError, check_bot_supports, get_bot
from pickomino_rules.cli._analyse import champion_chances, print_analysis
from pickomino_rules.cli._common import (
    EXIT_USAGE,
    MAX_MOVES,
    OPTION,
    PLAYERS,
    VARIANT,
    bot_names,
    fail,
    new_console,
    parse_options,
    print_result,
    seat_list,
    stop_code,
)
from pickomino_rules.errors import InvalidSetupError
from pickomino_rules.game import (
    Bot,
    Move,
    UnfinishedGameError,
    apply,
    decisions,
    new_game,
    parse_move,
)
from pickomino_rules.records import (
    GameRecord,
    SaveError,
    check_save_target,
    load_record,
    save_record,
)
from pickomino_rules.state import Phase
from pickomino_rules.story import counted, group_turns
from pickomino_rules.terminal import Keyboard, QuitGame, TakeBack, render_table

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
    "margin, champion, an installed bot's name, or module:function.",
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
@click.option(
    "--resume",
    "resume_path",
    type=click.Path(dir_okay=False),
    help="Continue the unfinished game saved in this record, with its seats (and save it "
    "back there unless --save says otherwise).",
)
@click.option(
    "--plain",
    is_flag=True,
    help="Line by line, as written to a file: no redrawn screen on a terminal.",
)
@MAX_MOVES
@click.option(
    "--play-forced",
    is_flag=True,
    help="When you have one legal move only, play it without asking.",
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
    resume_path: str | None,
    plain: bool,
    max_moves: int,
    play_forced: bool,
    option_pairs: tuple[str, ...],
) -> None:
    """Play a game against bots (or watch bots play with --watch).

    On your turn the table and the legal moves are shown, each with what it would do.
    Type a number or a move ('take w', 'roll', 'stop', 'steal 1'); 'help', 'hint' and
    'quit' work too. The dice are rolled for you.
    """
    if resume_path is not None:
        record = load_record(resume_path)
        seats, human = _resumed_seats(record, bots, None if watch else seat)
        save_path = save_path or resume_path
        names = record.seat_names() if record.names else _player_names(names_text, seats, human)
    else:
        human = None if watch else seat
        if human is not None and not 0 <= human < players:
            fail(f"--seat must be 0 to {players - 1}", EXIT_USAGE)
        seats = _bot_seats(bots, players, human)
        names = _player_names(names_text, seats, human)
        if seed is None:
            seed = random.SystemRandom().randrange(1_000_000)
        options = parse_options(option_pairs)
        new_game(variant, players=players, options=options)  # a usage error, as in simulate
        record = GameRecord.start(variant, players, options, 0, seed)
    _check_bots_play(record, seats, human, resumed=resume_path is not None)
    if save_path:
        save_path = str(check_save_target(Path(save_path).expanduser()))  # before the game
    seated = [None if p == human else seats[p] for p in range(record.players)]
    record = record.seated(names, seated)
    console = new_console()
    pause = delay if delay is not None else (0.8 if console.is_terminal else 0.0)
    heading = _Heading(record, resumed=resume_path is not None)
    heading.show(console)
    screen = None if plain or not console.is_terminal else _Screen(console, heading, names)
    keyboard = Keyboard(console, names, play_forced=play_forced, screen=screen)
    players_bots: list[Bot] = [
        keyboard if p == human else get_bot(seats[p]) for p in range(record.players)
    ]
    game = _Game(record, players_bots, max_moves)
    if screen is not None:
        screen.game = game
    played = _run_game(console, game, names, human, pause, save_path, screen)
    if analyse_after and played is not None:
        from pickomino_rules.analysis import analyse_record  # noqa: PLC0415 (numpy)

        analysis = analyse_record(played, chances=champion_chances(played))
        print_analysis(console, analysis, names)


def _check_bots_play(
    record: GameRecord, seats: Sequence[str], human: int | None, *, resumed: bool
) -> None:
    """Every bot plays this game (a learned one may not), checked before the game starts."""
    rules = record.rules
    for name in dict.fromkeys(seat for p, seat in enumerate(seats) if p != human):
        try:
            check_bot_supports(name, rules, record.players)
        except InvalidSetupError as error:
            if resumed:  # the saved game's seats, not the arguments
                fail(f"that game's seat for {name!r} cannot be filled: {error}")
            raise


def _resumed_seats(
    record: GameRecord, bots: Sequence[str], seat: int | None
) -> tuple[list[str], int | None]:
    """The bot at each seat of a saved game, and the person's seat (None: bots only)."""
    if record.final_state().phase is Phase.GAME_OVER:
        fail("that game is over: 'pickomino replay' shows it, 'pickomino analyse' values it")
    if record.bots is None:  # an older record: the seats come from the options
        if seat is not None and not 0 <= seat < record.players:
            fail(f"--seat must be 0 to {record.players - 1}", EXIT_USAGE)
        return _bot_seats(bots, record.players, seat), seat
    people = [p for p, bot in enumerate(record.bots) if bot is None]
    if len(people) > 1:
        fail(f"that game has {len(people)} people's seats; play resumes one person's game")
    for name in filter(None, record.bots):
        try:
            get_bot(name)
        except (UnknownBotError, InvalidBotError) as error:
            fail(f"that game's seat for {name!r} cannot be filled: {error}")
    seats = [bot or "" for bot in record.bots]
    return seats, people[0] if people else None


class _Heading:
    """The game's two heading lines: the set-up and seed, then who sits where.

    The game starts with them, and a redrawn screen shows them again at its top.
    """

    def __init__(self, record: GameRecord, *, resumed: bool) -> None:
        setup = f"[bold]{record.variant}[/], {record.players} players"
        if resumed:
            self.first = f"{setup}, resumed after {counted(len(record.moves), 'move')}"
        else:
            again = f"(the same seed replays the game: --seed {record.seed})"
            self.first = f"{setup}, seed {record.seed} [dim]{again}[/]"
        self.seats = f"seats: {seat_list(record)}"

    def show(self, console: Console) -> None:
        """Print the two lines."""
        console.print(self.first)
        console.print(self.seats, markup=False)

    def rows(self, width: int) -> int:
        """The terminal rows the two lines take at ``width`` columns."""
        return _rows(Text.from_markup(self.first).plain, width) + _rows(self.seats, width)


class _Screen:
    """A terminal screen redrawn at each of the person's decisions.

    It shows the game's heading, the last turns and a note on what ``undo`` took back; the
    keyboard then draws the table and the moves below them. The last turns shown are as
    many as fit above the table and the moves, so that the heading stays in view.
    """

    def __init__(self, console: Console, heading: _Heading, names: Sequence[str]) -> None:
        self.console = console
        self.heading = heading
        self.names = names
        self.game: _Game | None = None  # the game drawn: set once it is made
        # each turn's line with the number of moves the game had when the turn ended
        self.lines: collections.deque[tuple[int, str]] = collections.deque(maxlen=_HISTORY)
        self.note: str | None = None

    def add(self, line: str, moves: int) -> None:
        """A turn that ended at move number ``moves`` goes into the last turns."""
        self.lines.append((moves, line))

    def took_back(self, note: str, moves: int) -> None:
        """The game went back to ``moves`` moves: the turns undone leave the screen.

        The note saying what was taken back shows at the next drawing only.
        """
        kept = [(end, line) for end, line in self.lines if end <= moves]
        self.lines.clear()
        self.lines.extend(kept)
        self.note = note

    def __call__(self) -> None:
        width = self.console.width
        room = self._room() - self.heading.rows(width)
        if self.note is not None:
            room -= _rows(self.note, width)
        shown: list[str] = []
        for _, line in reversed(self.lines):  # the newest turns first, while they fit
            room -= _rows(line, width)
            if room < 1:  # and a row for "last turns:"
                break
            shown.insert(0, line)
        self.console.clear()
        self.heading.show(self.console)
        if shown:
            self.console.print("[dim]last turns:[/]")
        for line in shown:
            self.console.print(line, markup=False)
        if self.note is not None:
            self.console.print(self.note, markup=False)
            self.note = None

    def _room(self) -> int:
        """The rows the terminal has above the table, the moves and the prompt."""
        if self.game is None:
            return self.console.height
        rules, state = self.game.rules, self.game.states[-1]
        table = self.console.render_lines(render_table(rules, state, self.names), pad=False)
        moves = len(decisions(rules, state))
        return self.console.height - len(table) - moves - 1  # the prompt's row


def _rows(line: str, width: int) -> int:
    """The rows a line of text takes on a terminal ``width`` columns wide."""
    return max(1, -(-cell_len(line) // max(width, 1)))


_HISTORY = 8
"""Turn lines kept on the redrawn screen."""


class BotFailedError(Exception):
    """A bot at the table raised an error or chose a move the rules refuse."""

    def __init__(self, seat: int, name: str, moves: int, error: Exception) -> None:
        super().__init__(
            f"seat {seat}'s bot {name!r} failed after {counted(moves, 'move')}: "
            f"{type(error).__name__}: {error}"
        )


class _Game:
    """A game in play: every state and move so far, a resumed game's too (for undo).

    The dice of move number k are drawn from ``Random(f"{seed}:{k}")``: the same seed and
    the same moves give the same game, and a move taken back and played again meets the
    same dice.
    """

    def __init__(self, record: GameRecord, bots: Sequence[Bot], max_moves: int) -> None:
        self.record, self.bots, self.max_moves = record, bots, max_moves
        self.seats = record.bots or (None,) * record.players  # each seat's bot; None: a person
        self.rules = record.rules
        self.states = record.states()
        self.moves: list[Move] = [parse_move(self.rules, text) for text in record.moves]
        self._bot_rng = random.Random(f"{record.seed}:bots:{len(self.moves)}")

    def steps(self) -> Iterator[tuple[Move, GameState]]:
        """Play on from the last state, recording each move and state.

        Raises:
            BotFailedError: A bot raised an error or chose a move the rules refuse.
            UnfinishedGameError: The game reached ``max_moves`` moves without ending.
        """
        rules, state = self.rules, self.states[-1]
        while state.phase is not Phase.GAME_OVER:
            if len(self.moves) >= self.max_moves:
                raise UnfinishedGameError(self.max_moves, state)
            move: Move
            if state.phase is Phase.ROLL:
                dice = random.Random(f"{self.record.seed}:{len(self.moves)}")
                move = rules.chance_table(state.in_hand).sample(dice)
                state = apply(rules, state, move)
            elif self.seats[state.player] is None:  # a person's move, checked as typed
                move = self.bots[state.player](rules, state, self._bot_rng)
                state = apply(rules, state, move)
            else:
                move, state = self._bot_step(state)
            self.moves.append(move)
            self.states.append(state)
            yield move, state

    def _bot_step(self, state: GameState) -> tuple[Move, GameState]:
        """The bot's move and the state after it; its errors become one `BotFailedError`."""
        try:
            move = self.bots[state.player](self.rules, state, self._bot_rng)
            return move, apply(self.rules, state, move)
        except Exception as error:  # a bot is anyone's code: any error of it is its failure
            name = str(self.seats[state.player])
            raise BotFailedError(state.player, name, len(self.moves), error) from error

    def turn_so_far(self) -> tuple[GameState, list[tuple[Move, GameState]]]:
        """The state the turn in play began from, and its moves so far with their states.

        Its summary line, printed when it ends, starts there: after ``undo`` (or in a game
        resumed mid-turn) too.
        """
        start = len(self.moves)
        while start > 0 and self.states[start - 1].player == self.states[start].player:
            start -= 1
        played = list(zip(self.moves[start:], self.states[start + 1 :], strict=True))
        return self.states[start], played

    def played(self) -> GameRecord:
        """The record of the game so far."""
        return attrs.evolve(self.record, moves=tuple(map(str, self.moves)))

    def take_back(self, human: int | None) -> str:
        """Undo the person's last decision and every move after it; what was taken back."""
        mine = [
            index
            for index, before in enumerate(self.states[:-1])
            if before.player == human and before.phase is not Phase.ROLL
        ]
        if not mine:
            return "nothing to take back: you have not moved yet"
        last = mine[-1]
        taken, after = self.moves[last], len(self.moves) - last - 1
        del self.moves[last:]
        del self.states[last + 1 :]
        more = f" and the {counted(after, 'move')} after it" if after else ""
        return f"took back {taken}{more}"


def _run_game(  # noqa: PLR0913, PLR0917 (one game's set-up)
    console: Console,
    game: _Game,
    names: Sequence[str],
    human: int | None,
    pause: float,
    save_path: str | None,
    screen: _Screen | None = None,
) -> GameRecord | None:
    """Play the game turn by turn, then show the end; save where asked, also on a stop.

    Returns:
        The finished game's record, or None when the player quit.
    """
    rules = game.rules
    while True:
        try:
            start, played = game.turn_so_far()
            for turn in group_turns(start, itertools.chain(played, game.steps())):
                line = turn.describe(names=names.__getitem__, rules=rules)
                console.print(line, markup=False)
                if screen is not None:
                    screen.add(line, len(game.moves))
                if turn.player != human and pause and turn.after.phase is not Phase.GAME_OVER:
                    time.sleep(pause)
            break
        except TakeBack:
            taken = game.take_back(human)
            if screen is None:
                console.print(taken, markup=False)
            else:  # the screen is redrawn at once, with the note
                screen.took_back(taken, len(game.moves))
        except QuitGame:
            _leave(console, game.played(), save_path)
            return None
        except (KeyboardInterrupt, click.Abort, BotFailedError, UnfinishedGameError) as error:
            _cut_short(game.played(), save_path, error)
    state = game.states[-1]
    console.print(render_table(rules, state, names))
    print_result(console, rules, state, names)
    if save_path:
        save_record(game.played(), save_path)
        console.print(f"record saved to {save_path}")
    return game.played()


def _cut_short(record: GameRecord, save_path: str | None, why: BaseException) -> NoReturn:
    """The game ends unfinished: an unfinished record is kept where asked.

    Ctrl-C (or SIGTERM) is the player's choice, not an error; a bot's failure is.
    """
    where = ""
    if save_path:
        save_record(record, save_path)
        where = f"; the unfinished game is saved to {save_path}"
        where += f" (pickomino play --resume {save_path} continues it)"
    if isinstance(why, BotFailedError | UnfinishedGameError):
        fail(f"{why}{where}")
    click.echo(f"stopped{where}", err=True)
    sys.exit(stop_code())


def _bot_seats(bots: Sequence[str], players: int, human: int | None) -> list[str]:
    """The bot at each seat: the bots in the order given, cycled over the seats without you.

    (The human's seat gets an entry too, never used to play, so that seats index the list.)
    """
    free = players - (human is not None)
    if len(bots) > free:  # cycled over the seats, the extra ones would never play
        where = f"{free} seat{'s' * (free != 1)}" + ("" if human is None else " besides yours")
        msg = f"{len(bots)} bots named for {where}: name at most {free}"
        raise click.BadParameter(msg, param_hint="--bots")
    seats, given = [], 0
    for seat in range(players):
        if seat == human:
            seats.append("")
        else:
            seats.append(bots[given % len(bots)])
            given += 1
    return seats


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
    """The player quit: save the unfinished game where asked, or offer to.

    A name that cannot be saved to is asked again (``~`` is expanded); Enter declines.
    """
    while True:
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
        if not save_path:
            console.print("game left")
            return
        try:
            target = check_save_target(Path(save_path).expanduser())
            save_record(record, target)
        except SaveError as error:
            console.print(f"[red]{error}[/]; try another name", soft_wrap=True)
            save_path = None
            continue
        console.print(f"game left; it is saved to {target} (pickomino play --resume {target})")
        return
