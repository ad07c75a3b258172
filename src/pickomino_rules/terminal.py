"""The game in a terminal: the table drawn with rich, and a person's turn at the keyboard.

Used by ``pickomino play`` and ``pickomino replay``. On a person's turn the table and
the legal moves are shown, each labelled with what it does (``stop -> takes 27``), and
the prompt also takes ``help``, ``hint``, ``table`` and ``quit``.
"""

from __future__ import annotations

import textwrap
from typing import TYPE_CHECKING

from pickomino_rules.actions import Action
from pickomino_rules.errors import MissingExtraError, PickominoError
from pickomino_rules.game import decisions, parse_move
from pickomino_rules.result import scores
from pickomino_rules.state import Phase
from pickomino_rules.story import (
    counted,
    dice_faces,
    part_status,
    player_names,
    preview,
    tile_ranges,
)
from pickomino_rules.validation import ODD, check_shape, error_for

try:
    import click
    from rich.measure import Measurement
    from rich.table import Table
    from rich.text import Text
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the game in a terminal", "cli") from None

if TYPE_CHECKING:
    import random
    from collections.abc import Callable, Sequence

    from rich.console import Console, ConsoleOptions, RenderResult

    from pickomino_rules.dice import RollOutcome
    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = [
    "HELP",
    "Keyboard",
    "QuitGame",
    "TakeBack",
    "dice_text",
    "help_on",
    "hint_lines",
    "render_table",
]


def dice_text(roll: RollOutcome) -> str:
    """Dice one by one, ``"1 1 3 5 w"``, other kinds named: ``"2 4 w, golden die 1"``."""
    groups = []
    for index, (kind, counts) in enumerate(zip(roll.kinds, roll.counts, strict=True)):
        faces = " ".join(face.symbol for face in dice_faces(counts))
        if index == 0:
            groups.append(faces or "-")
        elif faces:
            groups.append(f"{kind.replace('_', ' ')} die {faces}")
    return ", ".join(groups)


def render_table(rules: Rules, state: GameState, names: Sequence[str] | None = None) -> Table:
    """The table as a rich renderable: grill, players, dice and the variant's parts.

    Args:
        rules: The game's rules.
        state: The state to draw.
        names: The players' names (``"player N"`` by default).

    Raises:
        InvalidStateError: The state is malformed or breaks the rules where the table reads it.
        InvalidSetupError: ``names`` has no name for some player.
    """
    check_shape(rules, state)
    shown = player_names(state.players, names)
    try:
        return _table(rules, state, shown.__getitem__)
    except PickominoError:
        raise
    except ODD as error:
        raise error_for(rules, state, error) from error


def _table(rules: Rules, state: GameState, label: Callable[[int], str]) -> Table:
    table = Table(show_header=False, expand=False)
    table.add_column("", no_wrap=True)
    table.add_column("", overflow="fold")
    grill = _Grill(rules, state.grill)
    table.add_row("grill", grill if state.grill else Text("(empty)", style="dim"))
    if state.face_down:
        table.add_row("face down", Text(" ".join(map(str, state.face_down)), style="dim"))
    points = scores(rules, state)
    for player, stack in enumerate(state.stacks):
        marker = "▶ " if player == state.player and state.phase is not Phase.GAME_OVER else "  "
        held = (
            f"{counted(len(stack), 'tile')}, {stack[-1]} on top"
            if stack
            else Text("no tiles", style="dim")
        )
        row = Text.assemble(held, f"  ({counted(points[player], 'worm')})")
        table.add_row(
            Text(marker + label(player), style="bold cyan" if marker.strip() else ""), row
        )
    if state.phase is not Phase.GAME_OVER:
        kept = " ".join(face.symbol for face in dice_faces(state.set_aside))
        table.add_row("set aside", f"{kept or '-'}  (total {state.total})")
        if state.roll is not None:
            table.add_row("roll", Text(dice_text(state.roll), style="bold magenta"))
    for line in part_status(rules, state, label):
        table.add_row("", Text(line, style="italic"))
    return table


_MOST_DRAWN = 4  # worms drawn one by one on a tile; past that, their count and one worm


def _worms(count: int) -> str:
    """A tile's worms: one ``~`` each, or for more than four one and their count (``~\u00d77``).

    The line so stays as wide whatever a variant puts on a tile, as the SVG picture does.
    """
    return "~" * count if count <= _MOST_DRAWN else f"~\u00d7{count}"


class _Grill:
    """The grill's tiles with their worms, compacted where the row has no room.

    ``21~ 22~ ... 36~~~~`` where it fits, else grouped by worms as ranges:
    ``21-24~ 25-28~~ ...`` (which fits 80 columns).
    """

    def __init__(self, rules: Rules, tiles: Sequence[int]) -> None:
        self.full = Text()
        for tile in tiles:
            self.full.append(f" {tile}", style="bold yellow")
            self.full.append(_worms(rules.worms_of(tile)), style="green")
        self.compact = Text()
        by_worms: dict[int, list[int]] = {}
        for tile in tiles:
            by_worms.setdefault(rules.worms_of(tile), []).append(tile)
        for worms, group in sorted(by_worms.items()):
            self.compact.append(f" {tile_ranges(group, ' ')}", style="bold yellow")
            self.compact.append(_worms(worms), style="green")

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        fits = self.full.cell_len <= options.max_width
        yield self.full if fits else self.compact

    def __rich_measure__(self, console: Console, options: ConsoleOptions) -> Measurement:
        return Measurement(min(self.compact.cell_len, self.full.cell_len), self.full.cell_len)


class QuitGame(Exception):  # noqa: N818 (a request, not an error)
    """The person at the keyboard asked to leave the game."""


class TakeBack(Exception):  # noqa: N818 (a request, not an error)
    """The person at the keyboard asked to take back their last decision (``undo``)."""


HELP = """\
Type the number of a move, or the move itself: 'take 4', 'take w' (worms), 'roll', \
'stop', 'steal 2' (from player 2), or a variant's moves as listed. Each move says what it \
would do: 'stop -> takes 27', 'stop -> bust: returns 24', 'take 5 -> total 23'.

  help    this text; help specialists, help hen, help grilled worms ...:
          the rules of a part of the game
  hint    each move's expected worms this turn (the turn solver) and
          the champion's chance to win the game after it
  table   draw the table again
  undo    take back your last decision and the bots' moves after it
  quit    leave the game (you can save it first)

A turn: roll, set aside all dice of one face not set aside before, then roll the rest or \
stop. Stopping takes the grill tile of your total (or a smaller one), or steals an \
opponent's top tile of exactly your total; you need a worm set aside. No new face, or no \
tile to take, is a bust: your top tile goes back and the highest grill tile turns over.

On the table, 25~~ is tile 25 with its worms: each ~ is one worm, counted at the end (a tile \
with more than four shows one and their number: 40~\u00d75).
"""
"""What ``help`` prints at the prompt of ``pickomino play``.

Its paragraphs are single lines, which the terminal's console wraps to its width between
words; the list of commands fits 80 columns as it is.
"""


def help_on(rules: Rules, topic: str, width: int = 78) -> str:
    """The players' guide to a part of these rules, as the rule modules give it.

    The topic is a module by name (``hen``, ``grilled worms``); ``specialists`` gives what
    they share and the topics on each one, so that no answer runs past a screen. For
    anything else, the topics there is help on.

    Args:
        rules: The game's rules.
        topic: What to explain, as a player types it.
        width: The columns to wrap to (the terminal's width at the table).

    Examples:
        >>> from pickomino_rules import get_rules
        >>> print(help_on(get_rules("extended"), "apple"))
        The apple (E7): whoever owns it when the game ends gets 3 more worms.
        >>> print(help_on(get_rules("classic"), "hen"))
        no help on 'hen' in classic; this game has help on: the turn (type help)
    """
    wanted = "_".join(topic.lower().replace("-", " ").split())
    guided = [module for module in rules.modules if module.guide]
    chosen = [m for m in guided if m.name in {wanted, wanted.removesuffix("s")}]
    if chosen:
        text = "\n\n".join(textwrap.fill(module.guide, width) for module in chosen)
        each = [m.name.replace("_", " ") for m in guided if chosen[0].name in m.requires]
        if each:
            listed = ", ".join(f"'help {name}'" for name in each)
            text += "\n\n" + textwrap.fill(f"On each one: {listed}.", width)
        return text
    topics = ", ".join(module.name.replace("_", " ") for module in guided)
    return textwrap.fill(
        f"no help on {topic!r} in {rules.name}; this game has help on: "
        + (topics or "the turn (type help)"),
        width,
    )


def hint_lines(rules: Rules, state: GameState, *, chances: bool = True) -> list[str]:
    """The turn solver's value of each legal move, best first, as lines of text.

    Beside each move's expected worms this turn, ``chances`` adds the champion's chance
    to win the game after it (playing the rest of the turn for the game), where a win
    model is shipped for this game (see [`champion_bot`][pickomino_rules.learned.champion_bot]).

    Raises:
        MissingExtraError: The solver's extra is not installed.
    """
    from pickomino_rules.solver import (  # noqa: PLC0415 (numpy)
        NoTurnDecisionError,
        UnsolvableRulesError,
        solve_turn,
    )

    try:
        values = solve_turn(rules, state).action_values()
    except NoTurnDecisionError:
        return ["no hint here: the solver values the decisions of a turn"]
    except UnsolvableRulesError as error:
        return [f"no hint in these rules: {error}"]
    wins = (_champion_chances(rules, state) if chances else None) or {}
    best = max(values.values())
    best_win = max(wins.values(), default=0.0)
    lines = []
    for move, value in sorted(values.items(), key=lambda item: -item[1]):
        line = f"{move!s:>12}  {value:+.3f}{'  best' if value >= best - 1e-9 else '      '}"
        if wins:
            mark = "  best for the game" if wins[move] >= best_win - 1e-9 else ""
            line += f"  {wins[move]:6.1%}{mark}"
        lines.append(line.rstrip())
    heading = "expected worms gained this turn, playing on optimally"
    lines.insert(0, heading + ("; the champion's chance to win the game:" if wins else ":"))
    return lines


def _champion_chances(rules: Rules, state: GameState) -> dict[Move, float] | None:
    """The champion's chance after each move, where a model ships (and numpy is here)."""
    try:
        from pickomino_rules.learned import champion_chances  # noqa: PLC0415 (numpy)
    except MissingExtraError:
        return None
    return champion_chances(rules, state)


class Keyboard:
    """A bot whose moves come from a person at the terminal.

    Args:
        console: Where to draw.
        names: The players' names, by seat.
        play_forced: Play a sole legal move without asking.
        screen: Called before the table is drawn for a decision: a screen that redraws
            (clears the terminal and shows the recent turns) rather than scrolls.

    Raises:
        QuitGame: The person typed ``quit``.
        TakeBack: The person typed ``undo``.
    """

    def __init__(
        self,
        console: Console,
        names: Sequence[str],
        *,
        play_forced: bool = False,
        screen: Callable[[], None] | None = None,
    ) -> None:
        self.console = console
        self.names = names
        self.play_forced = play_forced
        self.screen = screen

    def __call__(self, rules: Rules, state: GameState, _rng: random.Random) -> Action:
        """Show the table and the labelled moves; read until a legal move is given."""
        legal = decisions(rules, state)
        if self.play_forced and len(legal) == 1:
            label = preview(rules, state, legal[0], self.names.__getitem__)
            self.console.print(f"  forced: {legal[0]}" + (f" -> {label}" if label else ""))
            return legal[0]
        if self.screen is not None:
            self.screen()
        self.console.print(render_table(rules, state, self.names))
        self._list(rules, state, legal)
        while True:
            answer = self._read().strip()
            if not answer:  # Enter alone: the moves are still shown; ask again
                continue
            if self._command(rules, state, legal, answer.lower()):
                continue
            if answer.isdigit() and 1 <= int(answer) <= len(legal):
                return legal[int(answer) - 1]
            move = self._parse(rules, answer)
            if isinstance(move, Action) and move in legal:
                return move
            self.console.print(
                f"[red]not a legal move: {answer!r}[/] - type 1-{len(legal)}, a move "
                f"such as '{legal[0]}', or help",
                soft_wrap=True,
            )

    def _command(self, rules: Rules, state: GameState, legal: Sequence[Action], word: str) -> bool:
        """Do what a word other than a move asks; False when it is not such a word."""
        if word in {"help", "h", "?"}:
            self.console.print(HELP, markup=False)
        elif word.startswith("help "):
            topic = word.removeprefix("help ")
            self.console.print(help_on(rules, topic, self.console.width - 1), markup=False)
        elif word == "hint":
            self._hint(rules, state)
        elif word == "table":
            self.console.print(render_table(rules, state, self.names))
            self._list(rules, state, legal)
        elif word in {"undo", "takeback", "take back"}:
            raise TakeBack
        elif word in {"quit", "exit", "q"}:
            raise QuitGame
        else:
            return False
        return True

    def _list(self, rules: Rules, state: GameState, legal: Sequence[Action]) -> None:
        width = max(len(str(move)) for move in legal)
        for number, move in enumerate(legal, start=1):
            label = preview(rules, state, move, self.names.__getitem__)
            arrow = f" -> {label}" if label else ""
            self.console.print(f"  [bold]{number:>2}[/] {move!s:<{width}}{arrow}", soft_wrap=True)

    def _hint(self, rules: Rules, state: GameState) -> None:
        try:
            lines = hint_lines(rules, state)
        except MissingExtraError as error:
            lines = [f"no hints: {error}"]
        self.console.print(textwrap.indent("\n".join(lines), "  "), markup=False)

    @staticmethod
    def _parse(rules: Rules, answer: str) -> object:
        try:
            return parse_move(rules, answer)
        except (PickominoError, ValueError):
            return None

    @staticmethod
    def _read() -> str:
        try:
            return str(
                click.prompt(
                    "your move (or help, hint, undo, quit)",
                    prompt_suffix="> ",
                    default="",
                    show_default=False,
                )
            )
        except RuntimeError:  # input() with standard input closed: "lost sys.stdin"
            raise click.Abort from None
