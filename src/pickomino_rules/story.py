"""Turn-by-turn accounts of a game, for people reading along.

Examples:
    >>> from pickomino_rules import new_game, parse_move
    >>> rules, state = new_game("classic", players=2)
    >>> moves = [parse_move(rules, m) for m in ["wwwww114", "take w", "stop"]]
    >>> [str(turn) for turn in turns(rules, state, moves)]
    ['player 0: [114wwwww] take w stop -> takes 25']
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.actions import Steal, Stop
from pickomino_rules.dice import FACES, RollOutcome
from pickomino_rules.errors import InvalidSetupError, brief
from pickomino_rules.game import apply
from pickomino_rules.state import Phase

if TYPE_CHECKING:
    from collections.abc import Iterable, Iterator

    from pickomino_rules.dice import Face
    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState, PlayerName

__all__ = [
    "Outcome",
    "Turn",
    "agree",
    "counted",
    "default_name",
    "dice_faces",
    "group_turns",
    "outcome_of",
    "part_events",
    "part_status",
    "player_names",
    "preview",
    "tile_ranges",
    "turn_outcome",
    "turns",
]


def counted(count: int, word: str, plural: str | None = None) -> str:
    """``count`` things in words: ``"1 tile"``, ``"3 tiles"``, ``"2 dice"``.

    Examples:
        >>> counted(1, "worm"), counted(3, "tile"), counted(2, "die", "dice")
        ('1 worm', '3 tiles', '2 dice')
    """
    return f"{count} {word if count == 1 else plural or word + 's'}"


def dice_faces(counts: Sequence[int]) -> list[Face]:
    """Dice one by one from counts per face (1-5, worm), as a roll or ``set_aside`` holds them.

    Examples:
        >>> [face.symbol for face in dice_faces((0, 2, 0, 1, 0, 1))]
        ['2', '2', '4', 'w']
    """
    return [face for face, n in zip(FACES, counts, strict=True) for _ in range(n)]


_IRREGULAR = {"has": "have", "does": "do", "goes": "go", "is": "are"}
_YOU_VERB = re.compile(r"\b([Yy]ou) ([a-z]+s)\b")


def agree(text: str) -> str:
    """The story's sentences are in the third person; a player named "you" agrees with them.

    Examples:
        >>> agree("you wins a grilled worm; Ann robs 1 from you; you has the hen")
        'you win a grilled worm; Ann robs 1 from you; you have the hen'
    """
    return _YOU_VERB.sub(
        lambda match: f"{match[1]} {_IRREGULAR.get(match[2], match[2][:-1])}", text
    )


def tile_ranges(tiles: Sequence[int], separator: str = ",") -> str:
    """Ascending tiles with their runs as ranges.

    Examples:
        >>> tile_ranges([21, 22, 23, 24, 26])
        '21-24,26'
        >>> tile_ranges([11, 13, 21, 22], " ")
        '11 13 21-22'
    """
    runs: list[list[int]] = []
    for tile in tiles:
        if runs and tile == runs[-1][-1] + 1:
            runs[-1].append(tile)
        else:
            runs.append([tile])
    return separator.join(f"{run[0]}-{run[-1]}" if len(run) > 1 else str(run[0]) for run in runs)


def default_name(player: int) -> str:
    """``"player 2"``: how a text names a player when no names are given."""
    return f"player {player}"


def player_names(players: int, names: Sequence[str] | None) -> list[str]:
    """Each player's name to show: ``names`` checked, or ``"player N"`` where none are given.

    Examples:
        >>> player_names(2, ["Ann", "Bob"])
        ['Ann', 'Bob']
        >>> player_names(2, None)
        ['player 0', 'player 1']

    Raises:
        InvalidSetupError: ``names`` is not a sequence of one string per player (or more).
    """
    if not names:
        return [default_name(player) for player in range(players)]
    if isinstance(names, str | bytes) or not isinstance(names, Sequence):
        raise InvalidSetupError(f"names: expected a list of strings, got {brief(names)}")
    shown = list(names)
    if len(shown) < players or not all(isinstance(name, str) for name in shown):
        raise InvalidSetupError(
            f"names: expected a name (a string) for each of {players} players, got {brief(names)}"
        )
    return shown


def part_status(rules: Rules, state: GameState, name: PlayerName = default_name) -> list[str]:
    """The variant's parts of ``state`` in words, one line each (a part may show nothing).

    Each part says it through its key's ``describe`` hook
    ([`PartKey`][pickomino_rules.state.PartKey]), or its ``str`` without one.

    Examples:
        >>> from pickomino_rules import new_game
        >>> rules, state = new_game("extended", players=2)
        >>> for line in part_status(rules, state, ["Ann", "Bob"].__getitem__):
        ...     print(line)
        grilled worms: supply 7
        specialists: can on 11, hen on 21, crow on 23, weasel on 25, golden die on 27, apple on 29
    """
    lines = []
    for key, value in zip(rules.layout.parts, state.parts, strict=True):
        line = str(value) if key.describe is None else key.describe(rules, state, value, name)
        if line:
            lines.append(line)
    return lines


def part_events(
    rules: Rules, before: GameState, after: GameState, name: PlayerName = default_name
) -> list[str]:
    """What the variant's parts saw happen between two states, through their ``changes`` hooks.

    Examples:
        >>> from pickomino_rules import new_game, parse_move
        >>> from pickomino_rules.game import apply
        >>> rules, start = new_game("extended", players=2)
        >>> state = start
        >>> for move in ["1111555w", "take 1"]:
        ...     state = apply(rules, state, parse_move(rules, move))
        >>> part_events(rules, start, state, ["Ann", "Bob"].__getitem__)
        ['Ann wins a grilled worm']
    """
    return [
        event
        for key in rules.layout.parts
        if key.changes is not None
        for event in key.changes(rules, before, after, name)
    ]


@attrs.frozen
class Turn:
    """One player's turn: the moves made and what came of them.

    Attributes:
        player: Whose turn it was.
        moves: The rolls (in brackets in the text) and actions, in order.
        outcome: What the turn did to the table, in words.
        before: The state at the turn's start.
        after: The state after the turn (the next player's roll, or the end).
    """

    player: int
    moves: tuple[Move, ...]
    outcome: str
    before: GameState
    after: GameState

    def describe(
        self, name: str | None = None, names: PlayerName | None = None, rules: Rules | None = None
    ) -> str:
        """The turn on one line; rolls in brackets.

        Args:
            name: What to call the player (``names(player)`` or ``"player N"`` by default).
            names: How to name every player, in the outcome and the events too.
            rules: The game's rules: given, the variant's events (a specialist taken, a
                grilled worm won) follow the outcome.
        """
        namer = names or default_name
        shown = " ".join(f"[{m}]" if isinstance(m, RollOutcome) else str(m) for m in self.moves)
        outcome = outcome_of(self.before, self.after, self.player, self.moves, namer)
        events = part_events(rules, self.before, self.after, namer) if rules else []
        line = f"{name or namer(self.player)}: {shown} -> {outcome}"
        return agree("; ".join([line, *events]))

    def __str__(self) -> str:
        return self.describe(f"player {self.player}")


@attrs.frozen
class Outcome:
    """What a finished turn did to the table: in words, and what happened by which rule.

    Attributes:
        text: In words, as a person reads it (``"bust: returns 24, 36 turned face down"``).
        kinds: What happened: ``"take"`` (a grill tile), ``"steal"`` (from a player, a tile
            or, where a variant's rule keeps it, nothing), ``"bust"`` and ``"face down"``.
        rules: The core rules at work, once each: ``C8`` for a take or a steal, ``C10`` for
            a bust (a variant's own events name their rules: see ``part_events``).
    """

    text: str
    kinds: tuple[str, ...]
    rules: tuple[str, ...]

    def __str__(self) -> str:
        return self.text


def turn_outcome(
    before: GameState,
    after: GameState,
    player: int,
    moves: Sequence[Move] = (),
    name: PlayerName = default_name,
) -> Outcome:
    """What a finished turn of ``player`` did to the table (see `Outcome`).

    Args:
        before: The state at the turn's start.
        after: The state after the turn.
        player: Whose turn it was.
        moves: The turn's moves, if known (they tell a steal that took no tile,
            as from the hen's owner).
        name: How to name the players.

    Examples:
        >>> from pickomino_rules import new_game, parse_move
        >>> from pickomino_rules.game import apply
        >>> rules, start = new_game("classic", players=2)
        >>> state = start
        >>> for move in ["wwwww114", "take w", "stop"]:
        ...     state = apply(rules, state, parse_move(rules, move))
        >>> turn_outcome(start, state, 0)
        Outcome(text='takes 25', kinds=('take',), rules=('C8',))
    """
    gained = len(after.stacks[player]) - len(before.stacks[player])
    if gained > 0:
        tile = after.stacks[player][-1]
        robbed = [p for p in range(before.players) if p != player and before.top(p) == tile]
        if robbed:
            return Outcome(f"steals {tile} from {name(robbed[0])}", ("steal",), ("C8",))
        return Outcome(f"takes {tile}", ("take",), ("C8",))
    ending = next((move for move in reversed(moves) if isinstance(move, Stop | Steal)), None)
    if isinstance(ending, Steal):
        return Outcome(f"robs {name(ending.victim)}, whose tile stays", ("steal",), ("C8",))
    details = []
    kinds = ["bust"]
    if gained < 0:
        details.append(f"returns {before.stacks[player][-1]}")
    turned = after.face_down[len(before.face_down) :]
    if turned:
        details.append(f"{', '.join(map(str, turned))} turned face down")
        kinds.append("face down")
    text = "bust: " + ", ".join(details) if details else "bust"
    return Outcome(text, tuple(kinds), ("C10",))


def outcome_of(
    before: GameState,
    after: GameState,
    player: int,
    moves: Sequence[Move] = (),
    name: PlayerName = default_name,
) -> str:
    """What a finished turn of ``player`` did to the table, in words: `turn_outcome`'s text."""
    return turn_outcome(before, after, player, moves, name).text


def preview(rules: Rules, state: GameState, action: Move, name: PlayerName = default_name) -> str:
    """What a legal ``action`` would do, in words: a label for a list of moves.

    The action is applied (states are immutable, so nothing changes) and the result
    described: a turn's outcome (``"takes 27"``, ``"bust: returns 24"``,
    ``"steals 26 from Ann"``), the new total, the dice to roll, and the variant's events.

    Raises:
        IllegalActionError: The action is not legal in ``state``.

    Examples:
        >>> from pickomino_rules import new_game, parse_move
        >>> from pickomino_rules.game import apply
        >>> rules, state = new_game("classic", players=2)
        >>> state = apply(rules, state, parse_move(rules, "55555www"))
        >>> preview(rules, state, parse_move(rules, "take w"))
        'total 15, 5 dice left'
        >>> state = apply(rules, state, parse_move(rules, "take 5"))
        >>> [preview(rules, state, parse_move(rules, m)) for m in ("roll", "stop")]
        ['rolls 3 dice', 'bust']
    """
    after = apply(rules, state, action)
    player = state.player
    events = part_events(rules, state, after, name)
    if after.phase is Phase.GAME_OVER or after.player != player:
        said = outcome_of(state, after, player, [action], name)
    elif after.phase is Phase.ROLL:
        dice = sum(after.in_hand)
        said = f"rolls {counted(dice, 'die', 'dice')}"
    elif after.total != state.total or after.in_hand != state.in_hand:
        dice = sum(after.in_hand)
        said = f"total {after.total}, {counted(dice, 'die', 'dice')} left"
    elif after.phase is Phase.TURN_OVER:
        said = "then a choice"
    else:
        said = ""
    return agree("; ".join(filter(None, [said, *events])))


def turns(rules: Rules, state: GameState, moves: Iterable[Move]) -> Iterator[Turn]:
    """Apply ``moves`` from ``state`` and yield each completed turn.

    A turn ends when the dice pass to another player or the game ends; a trailing
    unfinished turn is not yielded.
    """

    def played() -> Iterator[tuple[Move, GameState]]:
        current = state
        for move in moves:
            current = apply(rules, current, move)
            yield move, current

    return group_turns(state, played())


def group_turns(state: GameState, steps: Iterable[tuple[Move, GameState]]) -> Iterator[Turn]:
    """Group a game already played into turns, without applying anything again.

    Args:
        state: The state before the first step.
        steps: Each move with the state it led to, as
            [`playout`][pickomino_rules.game.playout] yields them.
    """
    start, made = state, []
    for move, after in steps:
        player = state.player
        state = after
        made.append(move)
        if state.player != player or state.phase is Phase.GAME_OVER:
            outcome = outcome_of(start, state, player, made)
            yield Turn(player, tuple(made), outcome, start, state)
            start, made = state, []
