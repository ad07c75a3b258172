"""Pure transitions: setting up a game, legal actions, applying actions and chance.

Every function takes the rules and a state and returns new values; nothing is
mutated and nothing random happens unless you pass a ``random.Random``.

This is the engine's public face. Its step machine, which says when each rule hook runs,
is private (``pickomino_rules._engine``); where the package was built with a C compiler,
``legal_actions``, ``apply``, ``sample_chance``, ``stop_claims`` and ``stop_outcomes`` are
the compiled kernel's mirrors of the functions documented here, which stay the reference (docs pages
"Guarantees" and "Maintainers").

Examples:
    >>> from pickomino_rules import Action, RollOutcome, apply, legal_actions, new_game
    >>> rules, state = new_game("classic", players=2)
    >>> state.is_chance  # a turn starts with a roll of all 8 dice (C3)
    True
    >>> state = apply(rules, state, RollOutcome.parse("11234ww5"))
    >>> [str(action) for action in legal_actions(rules, state)]
    ['take 1', 'take 2', 'take 3', 'take 4', 'take 5', 'take w']
    >>> state = apply(rules, state, Action.parse("take w"))
    >>> [str(action) for action in legal_actions(rules, state)]
    ['roll', 'stop']
"""

from __future__ import annotations

import random
import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, TypeAlias

from pickomino_rules._engine import ACTIVE, steps
from pickomino_rules._engine.guards import ODD, check_arguments, check_fits, check_shape, failure
from pickomino_rules._engine.steps import (
    apply,
    claim_of_stop,
    legal_actions,
    sample_chance,
    stop_claims,
)
from pickomino_rules.actions import Action
from pickomino_rules.dice import RollOutcome
from pickomino_rules.errors import (
    ArgumentTypeError,
    IllegalActionError,
    InvalidSetupError,
    PickominoError,
    brief,
)
from pickomino_rules.registry import get_rules
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState, Phase

if TYPE_CHECKING:
    from fractions import Fraction

if not TYPE_CHECKING:  # the backend's own: these functions, or their compiled mirrors
    legal_actions = ACTIVE.legal_actions
    apply = ACTIVE.apply
    sample_chance = ACTIVE.sample_chance
    stop_claims = ACTIVE.stop_claims
_stop_outcomes: Callable[[Rules, GameState], tuple[tuple[Action, GameState], ...]] = (
    ACTIVE.stop_outcomes
)

# Enum members cost ~125 ns to look up on the class, a module global ~10 ns:
# the play loops read phases through these aliases.
_ROLL = Phase.ROLL
_DECIDE = Phase.DECIDE
_GAME_OVER = Phase.GAME_OVER
_TURN = (Phase.ROLL, Phase.CHOOSE, Phase.DECIDE)

__all__ = [
    "MAX_GAME_MOVES",
    "Bot",
    "Move",
    "UnfinishedGameError",
    "apply",
    "chance_outcomes",
    "check_fits",
    "claim_of_stop",
    "decisions",
    "is_terminal",
    "legal_actions",
    "new_game",
    "parse_move",
    "play",
    "playout",
    "resolve_bust",
    "sample_chance",
    "step",
    "stop_claim",
    "stop_claims",
    "stop_outcomes",
]

Move: TypeAlias = steps.Move
"""What can be applied to a state: a decision, or a chance outcome at a chance node."""

Bot: TypeAlias = Callable[[Rules, GameState, random.Random], Action]
"""A bot picks a legal action for the player to move; it may draw from ``rng``."""

_ROLL_TEXT = re.compile(r"^([1-5wW]+|[A-Za-z_]+:[1-5wW]*)( +[A-Za-z_]+:[1-5wW]*)*$")
"""What a roll's text looks like: faces, then ``kind:faces`` groups."""


def new_game(
    variant: str | Rules = "classic",
    players: int = 2,
    options: Mapping[str, object] | None = None,
    first_player: int = 0,
) -> tuple[Rules, GameState]:
    """Set up a game (C2): all tiles face up on the grill, empty stacks.

    Args:
        variant: A registered variant's name, or composed [`Rules`][pickomino_rules.rules.Rules].
        players: Number of players, within the variant's limits (classic: 2-7).
        options: Rule options by name (see the variant's docs); only with a name.
        first_player: Index of the player who starts.

    Returns:
        The rules and the first state: a chance node, the first player's roll.

    Raises:
        UnknownVariantError: No variant has that name.
        InvalidOptionError: An unknown option or a bad value.
        InvalidSetupError: Bad number of players or first player.

    Examples:
        >>> rules, state = new_game("classic", players=3, first_player=2)
        >>> state.player, state.in_hand
        (2, (8,))
        >>> new_game("classic", players=8)
        Traceback (most recent call last):
        ...
        pickomino_rules.errors.InvalidSetupError: classic needs 2 to 7 players, got 8
    """
    if not isinstance(variant, str | Rules):
        msg = f"variant must be a variant's name or composed Rules, got {variant!r}"
        raise ArgumentTypeError(msg)
    if isinstance(variant, Rules):
        if options:
            msg = "options go with a variant name; composed Rules already have theirs"
            raise InvalidSetupError(msg)
        rules = variant
    else:
        rules = get_rules(variant, options)
    low, high = rules.components.min_players, rules.components.max_players
    if isinstance(players, bool) or not isinstance(players, int) or not low <= players <= high:
        msg = f"{rules.name} needs {low} to {high} players, got {players!r}"
        raise InvalidSetupError(msg)
    if isinstance(first_player, bool) or not isinstance(first_player, int):
        msg = f"first_player must be a player index, got {first_player!r}"
        raise InvalidSetupError(msg)
    if not 0 <= first_player < players:
        msg = f"first_player must be 0 to {players - 1}, got {first_player}"
        raise InvalidSetupError(msg)
    state = GameState(
        grill=rules.tiles,
        face_down=(),
        stacks=((),) * players,
        player=first_player,
        phase=_ROLL,
        in_hand=(),
        parts=(None,) * len(rules.part_index),
        layout=rules.layout,
    )
    state = rules.setup(rules, state)
    return rules, steps.start_turn(rules, state, first_player)


def stop_claim(claims: tuple[Claim, ...]) -> Claim | None:
    """Deprecated name of [`claim_of_stop`][pickomino_rules.game.claim_of_stop].

    Beside [`stop_claims`][pickomino_rules.game.stop_claims] (every claim open at a stop) the
    old name read as its singular; it is the one claim a plain ``Stop`` takes.
    """
    warnings.warn("stop_claim is deprecated: use claim_of_stop", DeprecationWarning, stacklevel=2)
    return claim_of_stop(claims)


def stop_outcomes(rules: Rules, state: GameState) -> tuple[tuple[Action, GameState], ...]:
    """Each legal way to end the turn now (stop or steal), with the state it leads to.

    The same as applying each legal ``Stop``/``Steal`` of a state in phase DECIDE, with
    the claims worked out once; a solver values every way a turn can end with it.

    Raises:
        IllegalActionError: ``state`` is not in phase DECIDE.
    """
    check_fits(rules, state)
    return _stop_outcomes(rules, state)


def resolve_bust(rules: Rules, state: GameState) -> GameState:
    """The state after the player to move busts now (C10, C11): what a failed turn leaves.

    Useful to value a bust without rolling one, e.g. in a solver.

    Raises:
        IllegalActionError: No player's turn is under way (phase ``turn over`` or ``game over``).
    """
    check_fits(rules, state)
    if state.phase not in _TURN:
        check_shape(rules, state)
        msg = f"only a turn under way busts, not one in phase {state.phase.value!r}"
        raise IllegalActionError(msg)
    try:
        return steps.finish_turn(rules, rules.bust(rules, state))
    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error


def decisions(rules: Rules, state: GameState) -> tuple[Action, ...]:
    """The legal actions of the player to move: ``legal_actions`` at a decision, typed so.

    What a bot chooses among. `legal_actions` returns `Move`s, rolls at a chance node
    included; here a chance node or a finished game is an error, so a typed bot needs no
    cast.

    Examples:
        >>> import random
        >>> from pickomino_rules import Action, GameState, Rules, apply, new_game
        >>> from pickomino_rules import RollOutcome, decisions
        >>> def last_bot(rules: Rules, state: GameState, rng: random.Random) -> Action:
        ...     return decisions(rules, state)[-1]
        >>> rules, state = new_game("classic", players=2)
        >>> state = apply(rules, state, RollOutcome.parse("11234ww5"))
        >>> str(last_bot(rules, state, random.Random(1)))
        'take w'

    Raises:
        IllegalActionError: ``state`` is a chance node (a roll is due, see `sample_chance`)
            or the game is over.
    """
    actions = legal_actions(rules, state)
    if state.phase is _ROLL:
        msg = "bots decide for players; a chance node needs a roll (sample_chance)"
        raise IllegalActionError(msg)
    if not actions:
        msg = "the game is over: there is nothing to decide"
        raise IllegalActionError(msg)
    return actions  # type: ignore[return-value]  # no roll outside a chance node


def is_terminal(rules: Rules, state: GameState) -> bool:
    """True when the game is over (C12): then no action is legal."""
    check_fits(rules, state)
    return state.phase is _GAME_OVER


def chance_outcomes(rules: Rules, state: GameState) -> tuple[tuple[RollOutcome, Fraction], ...]:
    """Every distinct roll at a chance node with its exact probability.

    Raises:
        IllegalActionError: ``state`` is not a chance node.

    Examples:
        >>> rules, state = new_game("classic")
        >>> outcomes = chance_outcomes(rules, state)
        >>> len(outcomes), sum(p for _, p in outcomes)
        (1287, Fraction(1, 1))
    """
    check_fits(rules, state)
    if state.phase is not _ROLL:
        check_shape(rules, state)
        msg = f"not a chance node: the game is in phase {state.phase.value!r}"
        raise IllegalActionError(msg)
    try:
        table = rules.chance_table(state.in_hand)
    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error
    return tuple(zip(table.outcomes, table.probabilities, strict=True))


def step(rules: Rules, state: GameState, action: Action, rng: random.Random) -> GameState:
    """Apply ``action``, then roll with ``rng`` until a player must decide again."""
    state = apply(rules, state, action)
    while state.phase is _ROLL:
        state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
    return state


MAX_GAME_MOVES = 100_000
"""The default limit on a game's length in moves (decisions and rolls), for `play` and `playout`.

A game of random players takes about 2,500 moves (the longest of thousands about 7,000), but
the rules let a game go on for ever: while no player holds a tile, a bust turns nothing over
(C10; option O1 turns a tile on every bust), and players who bust on purpose never end it.
A game past the limit raises [`UnfinishedGameError`][pickomino_rules.game.UnfinishedGameError]
rather than run without end. It is also the most moves a saved record holds.
"""


class UnfinishedGameError(PickominoError, RuntimeError):
    """A game that reached its limit on moves without ending (see `MAX_GAME_MOVES`).

    Attributes:
        moves: The moves played (the limit).
        state: The state the game had reached.
    """

    def __init__(self, moves: int, state: GameState) -> None:
        super().__init__(f"the game did not end within {moves:,} moves (the limit on its length)")
        self.moves = moves
        self.state = state


def playout(
    rules: Rules,
    state: GameState,
    bots: Bot | list[Bot],
    rng: random.Random,
    max_moves: int | None = MAX_GAME_MOVES,
) -> Iterator[tuple[Move, GameState]]:
    """Play to the end, yielding each move with the state it leads to.

    Args:
        rules: The rules.
        state: Where to start.
        bots: One bot for everybody, or one per player index.
        rng: The only source of randomness, for dice and bots alike: the same
            seed replays the same game.
        max_moves: Most moves (decisions and rolls) to play; None for no limit.

    Raises:
        InvalidSetupError: A list of bots that is not one per player, or a limit that is
            not a whole number of at least 1 (raised at once).
        UnfinishedGameError: The game went on past ``max_moves`` moves (raised then, after
            the last move allowed was yielded).
    """
    if isinstance(bots, list) and len(bots) != state.players:
        msg = f"{len(bots)} bots for {state.players} players: give one per player, or one for all"
        raise InvalidSetupError(msg)
    if max_moves is not None and (
        isinstance(max_moves, bool) or not isinstance(max_moves, int) or max_moves < 1
    ):
        msg = f"max_moves must be a whole number of at least 1 or None, got {brief(max_moves)}"
        raise InvalidSetupError(msg)
    return _playout(rules, state, bots, rng, max_moves)


def _playout(
    rules: Rules,
    state: GameState,
    bots: Bot | list[Bot],
    rng: random.Random,
    max_moves: int | None,
) -> Iterator[tuple[Move, GameState]]:
    left = -1 if max_moves is None else max_moves  # counts down to 0; -1 never gets there
    while state.phase is not _GAME_OVER:
        if not left:
            raise UnfinishedGameError(max_moves or 0, state)
        left -= 1
        move: Move
        if state.phase is _ROLL:
            move = rules.chance_table(state.in_hand).sample(rng)
        else:
            bot = bots[state.player] if isinstance(bots, list) else bots
            move = bot(rules, state, rng)
        state = apply(rules, state, move)
        yield move, state


def play(
    rules: Rules,
    state: GameState,
    bots: Bot | list[Bot],
    rng: random.Random,
    max_moves: int | None = MAX_GAME_MOVES,
) -> GameState:
    """Play to the end with ``bots`` and return the final state.

    See [`playout`][pickomino_rules.game.playout] for the arguments; a game longer than
    ``max_moves`` raises [`UnfinishedGameError`][pickomino_rules.game.UnfinishedGameError].

    Examples:
        >>> import random
        >>> from pickomino_rules.bots import greedy_bot
        >>> rules, state = new_game("classic", players=2)
        >>> final = play(rules, state, greedy_bot, random.Random(7))
        >>> is_terminal(rules, final), final.grill
        (True, ())
    """
    final = state
    for _move, final in playout(rules, state, bots, rng, max_moves):  # noqa: B007 (the last)
        pass
    return final


def parse_move(rules: Rules, text: str) -> Move:
    """Parse an action's text (``"take w"``) or a roll's (``"1134455w"``).

    Raises:
        ValueError: The text is neither (an
            [`InvalidRollError`][pickomino_rules.errors.InvalidRollError] for a bad roll).
        ArgumentTypeError: ``text`` is not a string.
    """
    if not isinstance(text, str):
        msg = f"parse_move reads a move's text, got {type(text).__name__}"
        raise ArgumentTypeError(msg)
    if not isinstance(rules, Rules):
        check_arguments(rules)
    cleaned = text.strip()
    keyword = cleaned.partition(" ")[0].lower()
    if any(kind.keyword == keyword for kind in rules.action_types) or not _ROLL_TEXT.match(cleaned):
        return Action.parse(cleaned, rules.action_types)
    return RollOutcome.parse(cleaned, tuple(kind.name for kind in rules.die_kinds))
