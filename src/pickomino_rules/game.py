"""Pure transitions: setting up a game, legal actions, applying actions and chance.

Every function takes the rules and a state and returns new values; nothing is
mutated and nothing random happens unless you pass a ``random.Random``.

Where the package was built with a C compiler, ``legal_actions``, ``apply``,
``sample_chance`` and ``stop_claims`` are compiled stand-ins for the functions written
here: they play the whole turn of rules with the core's own turn hooks (classic without
options) in C, run these functions' steps in C for other rules, calling their hooks, and
hand every unusual call to these functions, which define the rules (see the docs page
"Guarantees").

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

import functools
import os
import random
import re
from collections.abc import Callable, Iterator, Mapping
from typing import TYPE_CHECKING, NoReturn, TypeAlias

from pickomino_rules import fused, turn
from pickomino_rules.actions import ROLL, STOP, Action, Roll, Steal, Stop, Take
from pickomino_rules.dice import NO_DICE_SET_ASIDE, RollOutcome
from pickomino_rules.errors import (
    ArgumentTypeError,
    IllegalActionError,
    InvalidSetupError,
    RulesMismatchError,
)
from pickomino_rules.registry import get_rules
from pickomino_rules.rules import Rules
from pickomino_rules.state import Claim, GameState, Phase, new_state

if TYPE_CHECKING:
    from fractions import Fraction

# Enum members cost ~125 ns to look up on the class, a module global ~10 ns:
# the hot path reads phases through these aliases.
_ROLL = Phase.ROLL
_CHOOSE = Phase.CHOOSE
_DECIDE = Phase.DECIDE
_TURN_OVER = Phase.TURN_OVER
_GAME_OVER = Phase.GAME_OVER

__all__ = [
    "Bot",
    "Move",
    "apply",
    "chance_outcomes",
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

Move: TypeAlias = Action | RollOutcome
"""What can be applied to a state: a decision, or a chance outcome at a chance node."""

Bot: TypeAlias = Callable[[Rules, GameState, random.Random], Action]
"""A bot picks a legal action for the player to move; it may draw from ``rng``."""

_STEALS: dict[int, Steal] = {}

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
    return rules, turn.start_turn(rules, state, first_player)


def legal_actions(rules: Rules, state: GameState) -> tuple[Move, ...]:
    """Everything that may be applied to ``state``.

    At a chance node these are the possible rolls (see
    [`chance_outcomes`][pickomino_rules.game.chance_outcomes] for their probabilities); otherwise
    the player's legal decisions. The tuple is empty exactly when the game is over.

    Raises:
        RulesMismatchError: ``state`` belongs to a game of another layout.
        ArgumentTypeError: ``rules`` or ``state`` is not what it should be.
    """
    try:
        if state.layout is not rules.layout:
            raise _mismatch(rules, state)
        if state.phase is _ROLL:
            return rules.chance_table(state.in_hand).outcomes
        last = _LAST[0]
        if last[1] is state and last[0] is rules:
            return last[2]
        return _derive(rules, state)[2]
    except (AttributeError, TypeError, IndexError, KeyError):
        check_arguments(rules, state)
        raise


# What the last decision state looked at offers, for the `apply` that usually follows
# `legal_actions` on the same state (and for `legal_actions` after `apply` rolled): the
# hooks are pure, so rules and state (by identity) decide it. One shared entry, replaced
# whole, is safe between threads: a thread that finds another's entry derives its own.
_Derived: TypeAlias = "tuple[Rules | None, GameState | None, tuple[Action, ...], object]"
_TAKES = object()
"""How a CHOOSE state's actions were found: the ``roll_actions`` hook."""
_PENDING = object()
"""How they were found when a module made a decision pending."""
_NOTHING = object()
"""A state that offers nothing (the turn or the game is over)."""
_LAST: list[_Derived] = [(None, None, (), _NOTHING)]


def _derive(rules: Rules, state: GameState) -> _Derived:
    """The decisions ``state`` offers and how: pending, a roll's, or a stop's claims (DECIDE)."""
    legal: tuple[Action, ...] = ()
    how: object = _PENDING
    if rules.pending_actions is not None:
        legal = _pending(rules, state)
    if not legal:
        phase = state.phase
        if phase is _CHOOSE:
            legal, how = rules.roll_actions(rules, state), _TAKES
        elif phase is _DECIDE:
            total = rules.stop_total(rules, state)
            how = claims = () if total is None else _claims(rules, state, total)
            legal = _decide_actions(state, claims)
        else:
            how = _NOTHING
    derived = (rules, state, legal, how)
    _LAST[0] = derived
    return derived


# The pending decisions found for the last parts looked at: under the rules'
# `pending_by_parts` promise they follow from the parts alone, and the parts object stays
# the same from state to state until a module changes its part.
_PARTS: list[tuple[object, object, tuple[Action, ...]]] = [(None, None, ())]


def _pending(rules: Rules, state: GameState) -> tuple[Action, ...]:
    """``rules.pending_actions``, remembered for the parts while they stay the same."""
    if not rules.pending_by_parts:
        return rules.pending_actions(rules, state)  # type: ignore[misc]
    last = _PARTS[0]
    if last[1] is state.parts and last[0] is rules:
        return last[2]
    pending = rules.pending_actions(rules, state)  # type: ignore[misc]
    _PARTS[0] = (rules, state.parts, pending)
    return pending


def stop_claims(rules: Rules, state: GameState) -> tuple[Claim, ...]:
    """The tiles the player could take by stopping now (C7, C8); empty: a bust.

    Meaningful in phase DECIDE.
    """
    last = _LAST[0]
    if last[1] is state and last[0] is rules and type(last[3]) is tuple:
        return last[3]
    total = rules.stop_total(rules, state)
    return () if total is None else _claims(rules, state, total)


# The claims found on the last board looked at, by total. A turn's decisions share one
# board (the same grill, stacks and parts objects), and under the rules' `ends_on_total`
# promise the claims hook reads the board and the total, not the dice.
_Board: TypeAlias = "tuple[object, ...]"
_BOARD: list[_Board] = [(None, None, None, None, None, None, {})]


def _claims(rules: Rules, state: GameState, total: int) -> tuple[Claim, ...]:
    """``rules.claims`` for ``total``, remembered for the board while it stays the same."""
    if not rules.ends_on_total:
        return rules.claims(rules, state, total)
    board = _BOARD[0]
    if (
        board[0] is not rules
        or board[1] is not state.grill
        or board[2] is not state.stacks
        or board[3] is not state.parts
        or board[4] is not state.face_down
        or board[5] != state.player
    ):
        board = (rules, state.grill, state.stacks, state.parts, state.face_down, state.player, {})
        _BOARD[0] = board
    by_total: dict[int, tuple[Claim, ...]] = board[6]  # type: ignore[assignment]
    claims = by_total.get(total)
    if claims is None:
        claims = by_total[total] = rules.claims(rules, state, total)
    return claims


def stop_claim(claims: tuple[Claim, ...]) -> Claim | None:
    """The claim a plain [`Stop`][pickomino_rules.actions.Stop] takes among ``claims`` (C8).

    The grill tile when one is claimable; else the only claim (a steal: "when the steal
    is the only claim, stopping takes it"); None when there is no claim (the stop busts)
    or only several steals (then the player must name one).

    Examples:
        >>> stop_claim((Claim(27, victim=1),)), stop_claim(())
        (Claim(tile=27, victim=1), None)
    """
    for claim in claims:
        if claim.victim is None:
            return claim
    return claims[0] if len(claims) == 1 else None


def stop_outcomes(rules: Rules, state: GameState) -> tuple[tuple[Action, GameState], ...]:
    """Each legal way to end the turn now (stop or steal), with the state it leads to.

    The same as applying each legal ``Stop``/``Steal`` of a state in phase DECIDE, with
    the claims worked out once; a solver values every way a turn can end with it.

    Raises:
        IllegalActionError: ``state`` is not in phase DECIDE.
    """
    check_fits(rules, state)
    if state.phase is not _DECIDE or _derive(rules, state)[3] is _PENDING:
        msg = f"a turn ends by a stop in phase 'decide', not {state.phase.value!r}"
        raise IllegalActionError(msg)
    claims = stop_claims(rules, state)
    if not claims:
        return ((STOP, _finish_turn(rules, rules.bust(rules, state))),)
    ends: list[tuple[Action, GameState]] = []
    chosen = stop_claim(claims)
    for claim in claims:
        end = _finish_turn(rules, rules.take_tile(rules, state, claim))
        if claim is chosen:
            ends.append((STOP, end))
        if claim.victim is not None:
            ends.append((_steal(claim.victim), end))
    return tuple(ends)


_ROLL_OR_STOP: tuple[Action, ...] = (ROLL, STOP)
_STOP_ONLY: tuple[Action, ...] = (STOP,)


def _steal(victim: int) -> Steal:
    steal = _STEALS.get(victim)
    if steal is None:
        steal = _STEALS[victim] = Steal(victim)
    return steal


def _decide_actions(state: GameState, claims: tuple[Claim, ...]) -> tuple[Action, ...]:
    """C6-C8: roll again while dice and faces remain; stop; steal each stealable top tile.

    A stop takes the stop's claim (see `stop_claim`), or busts when there is none.
    """
    can_roll = 0 in state.set_aside and any(state.in_hand)
    if not claims or (len(claims) == 1 and claims[0].victim is None):
        return _ROLL_OR_STOP if can_roll else _STOP_ONLY  # stop: take the tile, or bust
    actions: list[Action] = [ROLL] if can_roll else []
    if stop_claim(claims) is not None:
        actions.append(STOP)
    actions.extend(_steal(claim.victim) for claim in claims if claim.victim is not None)
    return tuple(actions)


def apply(rules: Rules, state: GameState, move: Move) -> GameState:
    """The state after ``move``: a player's action, or a roll at a chance node.

    Raises:
        IllegalActionError: The move is not legal here; the message names the rule
            and lists what is legal. ``state`` is unchanged (it is immutable).
        RulesMismatchError: ``state`` belongs to a game of another layout.
        ArgumentTypeError: An argument is not what it should be (e.g. a move's text:
            parse it with [`parse_move`][pickomino_rules.game.parse_move]).
    """
    try:
        if state.layout is not rules.layout:
            raise _mismatch(rules, state)
        if state.phase is _ROLL:
            return _roll(rules, state, move)
        last = _LAST[0]
        if last[1] is not state or last[0] is not rules:
            last = _derive(rules, state)
        how = last[3]
        for action in last[2]:  # the offered objects themselves: no __eq__ calls
            if action is move:
                break
        else:
            if move not in last[2]:
                raise _illegal(rules, state, move)
        if how is _TAKES and type(move) is Take:
            after = rules.set_aside(rules, state, move.face)
            return after if after.phase is _DECIDE else _settle(rules, after)
        if how is _TAKES or how is _PENDING:  # a module's action
            return _settle(rules, rules.apply_action(rules, state, move))
        return _decide(rules, state, move, how)  # type: ignore[arg-type]  # the stop's claims
    except (AttributeError, TypeError, IndexError, KeyError):
        check_arguments(rules, state, move)
        raise


def _roll(rules: Rules, state: GameState, move: Move) -> GameState:
    """C3, C5, C6: the dice show ``move``; a roll that offers nothing busts at once."""
    table = rules.chance_table(state.in_hand)
    if type(move) is not RollOutcome or not table.has(move):
        raise _illegal(rules, state, move)
    shown = new_state(
        state.grill,
        state.face_down,
        state.stacks,
        state.player,
        _CHOOSE,
        state.in_hand,
        move,
        state.set_aside,
        state.parts,
        state.layout,
    )
    return _after_roll(rules, shown)


def _decide(rules: Rules, state: GameState, move: Move, claims: tuple[Claim, ...]) -> GameState:
    """Phase DECIDE, a legal ``move``: roll again (C6), or stop or steal (C7, C8)."""
    kind = type(move)
    if kind is Roll:
        return new_state(
            state.grill,
            state.face_down,
            state.stacks,
            state.player,
            _ROLL,
            state.in_hand,
            None,
            state.set_aside,
            state.parts,
            state.layout,
        )
    if kind is Stop:
        claim = stop_claim(claims)
    else:
        victim = move.victim  # type: ignore[union-attr]
        claim = next(claim for claim in claims if claim.victim == victim)
    if rules.default_ends:
        return fused.end_turn(rules, state, claim)
    if claim is None:  # no claim: the stop busts
        return _finish_turn(rules, rules.bust(rules, state))
    return _finish_turn(rules, rules.take_tile(rules, state, claim))


def _after_roll(rules: Rules, state: GameState) -> GameState:
    """C5: a roll that offers nothing to do busts at once."""
    if _derive(rules, state)[2]:
        return state
    if rules.default_ends:
        return fused.end_turn(rules, state, None)
    return _finish_turn(rules, rules.bust(rules, state))


def _settle(rules: Rules, state: GameState) -> GameState:
    """Carry on after a module's action: re-check a roll, finish a resolved turn."""
    if state.phase is _TURN_OVER:
        return _pass_dice(rules, state)
    if state.phase is _CHOOSE:
        return _after_roll(rules, state)
    return state


def _finish_turn(rules: Rules, state: GameState) -> GameState:
    """C11: the turn is resolved; tidy up, then pass the dice on."""
    if rules.end_turn is not turn.end_turn or rules.pending_actions is not None:
        over = new_state(  # state.replace(phase=_TURN_OVER, roll=None), without its keywords
            state.grill,
            state.face_down,
            state.stacks,
            state.player,
            _TURN_OVER,
            state.in_hand,
            None,
            state.set_aside,
            state.parts,
            state.layout,
        )
        state = rules.end_turn(rules, over)
    return _pass_dice(rules, state)


def resolve_bust(rules: Rules, state: GameState) -> GameState:
    """The state after the player to move busts now (C10, C11): what a failed turn leaves.

    Useful to value a bust without rolling one, e.g. in a solver.
    """
    return _finish_turn(rules, rules.bust(rules, state))


def _pass_dice(rules: Rules, state: GameState) -> GameState:
    """C11, C12: wait for pending decisions, end the game or start the next turn."""
    if rules.pending_actions is not None and _pending(rules, state):
        return state
    if not state.grill:
        return state.replace(phase=_GAME_OVER, in_hand=(), roll=None, set_aside=NO_DICE_SET_ASIDE)
    return turn.start_turn(rules, state, (state.player + 1) % len(state.stacks))


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
        msg = f"not a chance node: the game is in phase {state.phase.value!r}"
        raise IllegalActionError(msg)
    table = rules.chance_table(state.in_hand)
    return tuple(zip(table.outcomes, table.probabilities, strict=True))


def sample_chance(rules: Rules, state: GameState, rng: random.Random) -> RollOutcome:
    """Draw a roll at a chance node with its exact probability, from ``rng``.

    Raises:
        IllegalActionError: The state is not a chance node.
        ArgumentTypeError: An argument of the wrong type (``rng`` is a ``random.Random``).
    """
    try:
        if state.phase is not _ROLL or state.layout is not rules.layout:
            _refuse_chance(rules, state)
        table = rules.chance_table(state.in_hand)
    except AttributeError:
        check_arguments(rules, state)
        raise
    if type(rng) is not random.Random and not isinstance(rng, random.Random):
        msg = f"rng must be a random.Random, got {type(rng).__name__}"
        raise ArgumentTypeError(msg)
    return table.sample(rng)


def _refuse_chance(rules: Rules, state: GameState) -> NoReturn:
    """Why ``state`` has no roll to sample: another game's state, or not a chance node."""
    if state.layout is not rules.layout:
        raise _mismatch(rules, state)
    msg = f"not a chance node: the game is in phase {state.phase.value!r}"
    raise IllegalActionError(msg)


def step(rules: Rules, state: GameState, action: Action, rng: random.Random) -> GameState:
    """Apply ``action``, then roll with ``rng`` until a player must decide again."""
    state = apply(rules, state, action)
    while state.phase is _ROLL:
        state = apply(rules, state, rules.chance_table(state.in_hand).sample(rng))
    return state


def playout(
    rules: Rules, state: GameState, bots: Bot | list[Bot], rng: random.Random
) -> Iterator[tuple[Move, GameState]]:
    """Play to the end, yielding each move with the state it leads to.

    Args:
        rules: The rules.
        state: Where to start.
        bots: One bot for everybody, or one per player index.
        rng: The only source of randomness, for dice and bots alike: the same
            seed replays the same game.

    Raises:
        InvalidSetupError: A list of bots that is not one per player (raised at once).
    """
    if isinstance(bots, list) and len(bots) != state.players:
        msg = f"{len(bots)} bots for {state.players} players: give one per player, or one for all"
        raise InvalidSetupError(msg)
    return _playout(rules, state, bots, rng)


def _playout(
    rules: Rules, state: GameState, bots: Bot | list[Bot], rng: random.Random
) -> Iterator[tuple[Move, GameState]]:
    while state.phase is not _GAME_OVER:
        move: Move
        if state.phase is _ROLL:
            move = rules.chance_table(state.in_hand).sample(rng)
        else:
            bot = bots[state.player] if isinstance(bots, list) else bots
            move = bot(rules, state, rng)
        state = apply(rules, state, move)
        yield move, state


def play(rules: Rules, state: GameState, bots: Bot | list[Bot], rng: random.Random) -> GameState:
    """Play to the end with ``bots`` and return the final state.

    See [`playout`][pickomino_rules.game.playout] for the arguments.

    Examples:
        >>> import random
        >>> from pickomino_rules.bots import greedy_bot
        >>> rules, state = new_game("classic", players=2)
        >>> final = play(rules, state, greedy_bot, random.Random(7))
        >>> is_terminal(rules, final), final.grill
        (True, ())
    """
    final = state
    for _move, final in playout(rules, state, bots, rng):  # noqa: B007 (keeps the last)
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


def check_fits(rules: Rules, state: GameState) -> None:
    """Check that ``state`` is a state of ``rules``' layout (cheap: one identity test).

    Raises:
        ArgumentTypeError: ``rules`` or ``state`` is of the wrong type.
        RulesMismatchError: ``state`` belongs to a game of another layout.
    """
    if not isinstance(rules, Rules) or not isinstance(state, GameState):
        check_arguments(rules, state)
    if state.layout is not rules.layout:
        raise _mismatch(rules, state)


_NOT_GIVEN = object()


def check_arguments(rules: object, state: object = _NOT_GIVEN, move: object = _NOT_GIVEN) -> None:
    """Check the types of public arguments (those given).

    Raises:
        ArgumentTypeError: Naming the first argument of the wrong type.
    """
    if not isinstance(rules, Rules):
        msg = f"expected composed Rules (from new_game or get_rules), got {type(rules).__name__}"
        raise ArgumentTypeError(msg)
    if state is not _NOT_GIVEN and not isinstance(state, GameState):
        msg = f"expected a GameState, got {type(state).__name__}"
        raise ArgumentTypeError(msg)
    if move is not _NOT_GIVEN and not isinstance(move, Action | RollOutcome):
        hint = "; parse text with parse_move(rules, text)" if isinstance(move, str) else ""
        msg = f"expected an Action or a RollOutcome, got {type(move).__name__}{hint}"
        raise ArgumentTypeError(msg)


def _mismatch(rules: Rules, state: GameState) -> RulesMismatchError:
    if state.layout is None:
        msg = (
            f"the state was built without a layout; build states with new_game({rules.name!r}) "
            "and change them with replace"
        )
    else:
        msg = (
            f"the state belongs to a game laid out as {state.layout!r}, but the rules "
            f"{rules.name!r} lay out {rules.layout!r}"
        )
    return RulesMismatchError(msg)


def _illegal(rules: Rules, state: GameState, move: object) -> IllegalActionError:
    """The error for an illegal move, naming the rule and the legal moves."""
    check_arguments(rules, state, move)
    legal = legal_actions(rules, state)
    if state.phase is _ROLL:
        listing = f"a roll of {_dice_text(rules, state.in_hand)} (see chance_outcomes)"
    else:
        listing = ", ".join(map(str, legal)) or "nothing (the game is over)"
    try:
        reason = _reason(rules, state, move)
    except Exception:  # noqa: BLE001 (a variant's hook failing here must not hide the error)
        reason = f"not allowed in phase {state.phase.value!r} by these rules"
    msg = f"{move} is not legal: {reason}; legal: {listing}"
    return IllegalActionError(msg, move, legal)


def _dice_text(rules: Rules, dice: tuple[int, ...]) -> str:
    return " and ".join(
        f"{n} {kind.name}" for kind, n in zip(rules.die_kinds, dice, strict=True) if n
    )


def _reason(rules: Rules, state: GameState, move: object) -> str:  # noqa: C901, PLR0911, PLR0912
    """Which rule forbids ``move`` (only ever called on the error path)."""
    phase = state.phase
    if phase is _GAME_OVER:
        return "C12: the game is over"
    if phase is _ROLL:
        if isinstance(move, RollOutcome):
            return f"C3/C6: the dice rolled are {_dice_text(rules, state.in_hand)}"
        return "C3/C6: the dice are being rolled; apply a RollOutcome (a chance node)"
    if isinstance(move, RollOutcome):
        return "no dice are being rolled now; this is a player's decision"
    if rules.pending_actions is not None and rules.pending_actions(rules, state):
        return "a decision of the variant is pending"
    if phase is _CHOOSE:
        if not isinstance(move, Take):
            return "C4: after a roll the player must first set dice aside"
        if state.set_aside[move.face - 1]:
            return f"C4: {move.face.symbol}s were already set aside this turn"
        if state.roll is not None and not state.roll.count_of(move.face):
            return f"C4: no die of the roll shows {move.face.symbol}"
    if phase is _DECIDE:
        if isinstance(move, Take):
            return "C4: dice are set aside right after a roll, once"
        if isinstance(move, Roll):
            if not any(state.in_hand):
                return "C6: no dice are left to roll"
            return "C6: all six faces are set aside; the player must stop"
        total = rules.stop_total(rules, state)
        if isinstance(move, Steal):
            if total is None:
                return "C7/C8: without a worm set aside nothing can be claimed"
            if total in state.grill:
                return f"C8: tile {total} is on the grill, so it is the one taken"
            if not 0 <= move.victim < state.players or move.victim == state.player:
                return f"C8: player {move.victim} is not an opponent"
            return f"C8: the top tile of player {move.victim} is not {total}"
        if isinstance(move, Stop):
            return "C8: several steals are possible; name the player to steal from"
    return f"not allowed in phase {phase.value!r} by these rules"


def _use_compiled() -> None:
    """Swap in the compiled hot path (``pickomino_rules._speedups``) where it was built.

    It takes the plain calls of any rules (the turn of rules whose turn hooks are all the
    core's wholly in C, other rules' turns through their hooks) and hands every other call to
    the functions above, which stay the reference. It also puts compiled core hooks in
    [`turn`][pickomino_rules.turn], before any rules are composed from it.
    ``PICKOMINO_PURE=1`` keeps the pure-Python functions, e.g. to test them; so does a build
    without a C compiler.
    """
    if os.environ.get("PICKOMINO_PURE", "") not in ("", "0"):
        return
    try:
        from pickomino_rules import _speedups  # noqa: PLC0415 (optional, built where possible)
    except ImportError:
        return
    pure = (legal_actions, apply, sample_chance, stop_claims)
    if not _speedups.bind(*pure, _decide_actions, stop_claim):
        return  # pragma: no cover (a GameState laid out as the extension did not expect)
    for function in pure:
        compiled: Callable[..., object] = getattr(_speedups, function.__name__)
        if not hasattr(compiled, "__wrapped__"):  # this module imported again (doctests)
            functools.update_wrapper(compiled, function)
        globals()[function.__name__] = compiled
    # The core's hooks that run at every step, whatever modules wrap them. This happens
    # while the package is imported, before any rules are composed from ``turn``.
    for name in _COMPILED_HOOKS:
        hook = getattr(_speedups, name)
        if not hasattr(hook, "__wrapped__"):
            functools.update_wrapper(hook, getattr(turn, name))
            setattr(turn, name, hook)


_COMPILED_HOOKS = ("roll_actions", "set_aside", "stop_total", "claims")
"""The hooks of [`turn`][pickomino_rules.turn] that the compiled hot path stands in for."""


_use_compiled()
