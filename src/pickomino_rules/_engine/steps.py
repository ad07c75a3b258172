"""The engine's step machine, the reference: when each rule hook runs, and what follows.

[`turn`][pickomino_rules.turn] says what the base turn does (the core's hooks); rule modules
wrap those hooks. This module says *when* the composed hooks run: what a state offers
(`derive`), what a decision leads to (`decide`), what a roll leads to (`after_roll`), how a
module's action settles (`settle`), how a turn ends (`finish_turn`, `pass_dice`) and how the
next one starts (`start_turn`). [`game`][pickomino_rules.game] is its public face.

The compiled kernel (``_kernel.pyx`` beside this module) mirrors these functions one for one:
its ``MIRRORS`` map names each compiled function's twin here, and the tests check that the
map is complete and that both give the same answers (docs page "Maintainers").

Three caches spare the hooks work that a caller repeats: what the last decision state
offers (`legal_actions` then `apply` on the same state), the pending decisions of the last
parts (the rules' ``pending_by_parts`` promise) and the claims of the last board by total
(the ``ends_on_total`` promise). Each is one record, replaced whole, so threads that share
them at worst each derive their own answer.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING, Final, NoReturn, TypeAlias

from pickomino_rules._engine.explain import illegal
from pickomino_rules._engine.guards import ODD, check_arguments, check_shape, failure, mismatch
from pickomino_rules.actions import ROLL, STOP, Action, Roll, Steal, Stop, Take
from pickomino_rules.dice import NO_DICE_SET_ASIDE, RollOutcome
from pickomino_rules.errors import ArgumentTypeError, IllegalActionError, PickominoError
from pickomino_rules.state import Claim, GameState, Phase, new_state
from pickomino_rules.turn import can_roll, faces_used

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

__all__ = [
    "Board",
    "Derived",
    "Move",
    "Pending",
    "after_roll",
    "apply",
    "claim_of_stop",
    "claims_for",
    "decide",
    "decide_actions",
    "derive",
    "finish_turn",
    "legal_actions",
    "pass_dice",
    "pending",
    "roll",
    "sample_chance",
    "settle",
    "start_turn",
    "steal",
    "stop_claims",
    "stop_outcomes",
]

Move: TypeAlias = Action | RollOutcome
"""What can be applied to a state: a decision, or a chance outcome at a chance node."""

# Enum members cost ~125 ns to look up on the class, a module global ~10 ns:
# the hot path reads phases through these aliases.
_ROLL = Phase.ROLL
_CHOOSE = Phase.CHOOSE
_DECIDE = Phase.DECIDE
_TURN_OVER = Phase.TURN_OVER
_GAME_OVER = Phase.GAME_OVER

TAKES: Final = object()
"""How a CHOOSE state's actions were found: the ``roll_actions`` hook."""
PENDING: Final = object()
"""How they were found when a module made a decision pending."""
NOTHING: Final = object()
"""A state that offers nothing (the turn or the game is over)."""


class Derived:
    """What a decision state offers, and how it was found (`derive`).

    Attributes:
        rules: The rules asked.
        state: The state asked (compared by identity).
        legal: The decisions offered.
        how: ``TAKES``, ``PENDING``, ``NOTHING``, or the claims of a stop (phase DECIDE).
    """

    __slots__ = ("how", "legal", "rules", "state")

    def __init__(
        self, rules: Rules | None, state: GameState | None, legal: tuple[Action, ...], how: object
    ) -> None:
        self.rules = rules
        self.state = state
        self.legal = legal
        self.how = how


class Pending:
    """The pending decisions found for one parts object (`pending`)."""

    __slots__ = ("legal", "parts", "rules")

    def __init__(self, rules: Rules | None, parts: object, legal: tuple[Action, ...]) -> None:
        self.rules = rules
        self.parts = parts
        self.legal = legal


class Board:
    """The claims found on one board, by total (`claims_for`).

    A turn's decisions share one board: the same grill, stacks, face-down and parts objects
    and the same player.
    """

    __slots__ = ("by_total", "face_down", "grill", "parts", "player", "rules", "stacks")

    def __init__(self, rules: Rules | None, state: GameState | None) -> None:
        self.rules = rules
        self.grill = state.grill if state is not None else None
        self.stacks = state.stacks if state is not None else None
        self.parts = state.parts if state is not None else None
        self.face_down = state.face_down if state is not None else None
        self.player = state.player if state is not None else None
        self.by_total: dict[int, tuple[Claim, ...]] = {}


_LAST = [Derived(None, None, (), NOTHING)]
_PARTS = [Pending(None, None, ())]
_BOARD = [Board(None, None)]
_STEALS: dict[int, Steal] = {}


def legal_actions(rules: Rules, state: GameState) -> tuple[Move, ...]:
    """Everything that may be applied to ``state``.

    At a chance node these are the possible rolls (see
    [`chance_outcomes`][pickomino_rules.game.chance_outcomes] for their probabilities); otherwise
    the player's legal decisions. The tuple is empty exactly when the game is over.

    Raises:
        RulesMismatchError: ``state`` belongs to a game of another layout.
        ArgumentTypeError: ``rules`` or ``state`` is not what it should be.

    Examples:
        >>> from pickomino_rules import RollOutcome, apply, new_game
        >>> rules, state = new_game("classic", players=2)
        >>> state = apply(rules, state, RollOutcome.parse("11234ww5"))
        >>> [str(action) for action in legal_actions(rules, state)]
        ['take 1', 'take 2', 'take 3', 'take 4', 'take 5', 'take w']
    """
    try:
        if state.layout is not rules.layout:
            raise mismatch(rules, state)
        if state.phase is _ROLL:
            return rules.chance_table(state.in_hand).outcomes
        last = _LAST[0]
        if last.state is state and last.rules is rules:
            return last.legal
        return derive(rules, state).legal
    except PickominoError:
        raise
    except ODD as error:  # a wrong argument, or a state changed by hand into nonsense
        raise failure(rules, state, error) from error


def derive(rules: Rules, state: GameState) -> Derived:
    """The decisions ``state`` offers and how: pending, a roll's, or a stop's claims (DECIDE)."""
    legal: tuple[Action, ...] = ()
    how: object = PENDING
    if rules.pending_actions is not None:
        legal = pending(rules, state)
    if not legal:
        phase = state.phase
        if phase is _CHOOSE:
            legal, how = rules.roll_actions(rules, state), TAKES
        elif phase is _DECIDE:
            total = rules.stop_total(rules, state)
            how = claims = () if total is None else claims_for(rules, state, total)
            legal = decide_actions(state, claims)
        else:
            how = NOTHING
    derived = _LAST[0] = Derived(rules, state, legal, how)
    return derived


def pending(rules: Rules, state: GameState) -> tuple[Action, ...]:
    """``rules.pending_actions``, remembered for the parts while they stay the same.

    Under the rules' ``pending_by_parts`` promise they follow from the parts alone, and the
    parts object stays the same from state to state until a module changes its part.
    """
    if not rules.pending_by_parts:
        return rules.pending_actions(rules, state)  # type: ignore[misc]
    last = _PARTS[0]
    if last.parts is state.parts and last.rules is rules:
        return last.legal
    found = rules.pending_actions(rules, state)  # type: ignore[misc]
    _PARTS[0] = Pending(rules, state.parts, found)
    return found


def stop_claims(rules: Rules, state: GameState) -> tuple[Claim, ...]:
    """The tiles the player could take by stopping now (C7, C8); empty: a bust.

    Meaningful in phase DECIDE.
    """
    last = _LAST[0]
    if last.state is state and last.rules is rules and type(last.how) is tuple:
        return last.how
    try:
        if state.layout is not rules.layout:
            raise mismatch(rules, state)
        total = rules.stop_total(rules, state)
        return () if total is None else claims_for(rules, state, total)
    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error


def stop_outcomes(rules: Rules, state: GameState) -> tuple[tuple[Action, GameState], ...]:
    """Each legal way to end the turn now (stop or steal), with the state it leads to.

    ``game.stop_outcomes``: the claims worked out once, each applied as ``decide`` would.
    """
    try:
        if state.layout is not rules.layout:
            raise mismatch(rules, state)
        if state.phase is not _DECIDE or derive(rules, state).how is PENDING:
            check_shape(rules, state)
            msg = f"a turn ends by a stop in phase 'decide', not {state.phase.value!r}"
            raise IllegalActionError(msg)
        claims = stop_claims(rules, state)
        if not claims:
            return ((STOP, finish_turn(rules, rules.bust(rules, state))),)
        ends: list[tuple[Action, GameState]] = []
        chosen = claim_of_stop(claims)
        for claim in claims:
            end = finish_turn(rules, rules.take_tile(rules, state, claim))
            if claim is chosen:
                ends.append((STOP, end))
            if claim.victim is not None:
                ends.append((steal(claim.victim), end))
        return tuple(ends)
    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error


def claims_for(rules: Rules, state: GameState, total: int) -> tuple[Claim, ...]:
    """``rules.claims`` for ``total``, remembered for the board while it stays the same.

    Under the rules' ``ends_on_total`` promise the claims hook reads the board and the total,
    not the dice.
    """
    if not rules.ends_on_total:
        return rules.claims(rules, state, total)
    board = _BOARD[0]
    if (
        board.rules is not rules
        or board.grill is not state.grill
        or board.stacks is not state.stacks
        or board.parts is not state.parts
        or board.face_down is not state.face_down
        or board.player != state.player
    ):
        board = _BOARD[0] = Board(rules, state)
    claims = board.by_total.get(total)
    if claims is None:
        claims = board.by_total[total] = rules.claims(rules, state, total)
    return claims


def claim_of_stop(claims: tuple[Claim, ...]) -> Claim | None:
    """The claim a plain [`Stop`][pickomino_rules.actions.Stop] takes among ``claims`` (C8).

    The grill tile when one is claimable; else the only claim (a steal: "when the steal
    is the only claim, stopping takes it"); None when there is no claim (the stop busts)
    or only several steals (then the player must name one).

    Examples:
        >>> claim_of_stop((Claim(27, victim=1),)), claim_of_stop(())
        (Claim(tile=27, victim=1), None)
    """
    for claim in claims:
        if claim.victim is None:
            return claim
    return claims[0] if len(claims) == 1 else None


_ROLL_OR_STOP: tuple[Action, ...] = (ROLL, STOP)
_STOP_ONLY: tuple[Action, ...] = (STOP,)


def steal(victim: int) -> Steal:
    """The one ``Steal`` object of ``victim`` (offered moves are compared by identity first)."""
    found = _STEALS.get(victim)
    if found is None:
        found = _STEALS[victim] = Steal(victim)
    return found


def decide_actions(state: GameState, claims: tuple[Claim, ...]) -> tuple[Action, ...]:
    """C6-C8: roll again while dice and faces remain; stop; steal each stealable top tile.

    A stop takes the stop's claim (see `claim_of_stop`), or busts when there is none.
    """
    rolls = can_roll(faces_used(state.set_aside), any(state.in_hand))
    if not claims or (len(claims) == 1 and claims[0].victim is None):
        return _ROLL_OR_STOP if rolls else _STOP_ONLY  # stop: take the tile, or bust
    actions: list[Action] = [ROLL] if rolls else []
    if claim_of_stop(claims) is not None:
        actions.append(STOP)
    actions.extend(steal(claim.victim) for claim in claims if claim.victim is not None)
    return tuple(actions)


def apply(rules: Rules, state: GameState, move: Move) -> GameState:  # noqa: C901 (+ guards)
    """The state after ``move``: a player's action, or a roll at a chance node.

    Raises:
        IllegalActionError: The move is not legal here; the message names the rule
            and lists what is legal. ``state`` is unchanged (it is immutable).
        RulesMismatchError: ``state`` belongs to a game of another layout.
        ArgumentTypeError: An argument is not what it should be (e.g. a move's text:
            parse it with [`parse_move`][pickomino_rules.game.parse_move]).

    Examples:
        >>> from pickomino_rules import Action, RollOutcome, new_game
        >>> rules, state = new_game("classic", players=2)
        >>> state = apply(rules, state, RollOutcome.parse("11234ww5"))
        >>> state = apply(rules, state, Action.parse("take w"))
        >>> state.phase, state.set_aside
        (<Phase.DECIDE: 'decide'>, (0, 0, 0, 0, 0, 2))
    """
    try:
        if state.layout is not rules.layout:
            raise mismatch(rules, state)
        if state.phase is _ROLL:
            return roll(rules, state, move)
        last = _LAST[0]
        if last.state is not state or last.rules is not rules:
            last = derive(rules, state)
        for action in last.legal:  # the offered objects themselves: no __eq__ calls
            if action is move:
                break
        else:
            if move not in last.legal:
                raise illegal(rules, state, move, legal_actions(rules, state))
        how = last.how
        if how is TAKES and type(move) is Take:
            after = rules.set_aside(rules, state, move.face)
            return after if after.phase is _DECIDE else settle(rules, after)
        if how is TAKES or how is PENDING:  # a module's action
            return settle(rules, rules.apply_action(rules, state, move))
        return decide(rules, state, move, how)  # type: ignore[arg-type]  # the stop's claims
    except PickominoError:
        raise
    except ODD as error:
        check_arguments(rules, state, move)
        raise failure(rules, state, error) from error


def roll(rules: Rules, state: GameState, move: Move) -> GameState:
    """C3, C5, C6: the dice show ``move``; a roll that offers nothing busts at once."""
    table = rules.chance_table(state.in_hand)
    if type(move) is not RollOutcome or not table.has(move):
        raise illegal(rules, state, move, legal_actions(rules, state))
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
    return after_roll(rules, shown)


def decide(rules: Rules, state: GameState, move: Move, claims: tuple[Claim, ...]) -> GameState:
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
        claim = claim_of_stop(claims)
    else:
        victim = move.victim  # type: ignore[union-attr]
        claim = next(claim for claim in claims if claim.victim == victim)
    if claim is None:  # no claim: the stop busts
        return finish_turn(rules, rules.bust(rules, state))
    return finish_turn(rules, rules.take_tile(rules, state, claim))


def after_roll(rules: Rules, state: GameState) -> GameState:
    """C5: a roll that offers nothing to do busts at once."""
    if derive(rules, state).legal:
        return state
    return finish_turn(rules, rules.bust(rules, state))


def settle(rules: Rules, state: GameState) -> GameState:
    """Carry on after a module's action: re-check a roll, finish a resolved turn."""
    if state.phase is _TURN_OVER:
        return pass_dice(rules, state)
    if state.phase is _CHOOSE:
        return after_roll(rules, state)
    return state


def finish_turn(rules: Rules, state: GameState) -> GameState:
    """C11: the turn is resolved (a tile taken, or a bust); tidy up, then pass the dice on.

    The ``end_turn`` hook sees the turn over (phase TURN_OVER) when a module implements it
    or may leave a decision pending; the core's own has nothing to tidy.
    """
    if rules.tidies_turn_end:
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
    return pass_dice(rules, state)


def pass_dice(rules: Rules, state: GameState) -> GameState:
    """C11, C12: wait for pending decisions, end the game or start the next turn."""
    if rules.pending_actions is not None and pending(rules, state):
        return state
    if not state.grill:
        return new_state(
            state.grill,
            state.face_down,
            state.stacks,
            state.player,
            _GAME_OVER,
            (),
            None,
            NO_DICE_SET_ASIDE,
            state.parts,
            state.layout,
        )
    return start_turn(rules, state, (state.player + 1) % len(state.stacks))


def start_turn(rules: Rules, state: GameState, player: int) -> GameState:
    """The chance node that starts ``player``'s turn (C3, C11): the dice of ``turn_dice``."""
    fresh = new_state(
        state.grill,
        state.face_down,
        state.stacks,
        player,
        _ROLL,
        rules.components.dice,
        None,
        NO_DICE_SET_ASIDE,
        state.parts,
        state.layout,
    )
    if not rules.deals_own_dice:
        return fresh
    dice = rules.turn_dice(rules, fresh)
    if dice == fresh.in_hand:
        return fresh
    return new_state(
        state.grill,
        state.face_down,
        state.stacks,
        player,
        _ROLL,
        dice,
        None,
        NO_DICE_SET_ASIDE,
        state.parts,
        state.layout,
    )


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
    except PickominoError:
        raise
    except ODD as error:
        raise failure(rules, state, error) from error
    if type(rng) is not random.Random and not isinstance(rng, random.Random):
        msg = f"rng must be a random.Random, got {type(rng).__name__}"
        raise ArgumentTypeError(msg)
    return table.sample(rng)


def _refuse_chance(rules: Rules, state: GameState) -> NoReturn:
    """Why ``state`` has no roll to sample: another game's state, or not a chance node."""
    if state.layout is not rules.layout:
        raise mismatch(rules, state)
    check_shape(rules, state)
    msg = f"not a chance node: the game is in phase {state.phase.value!r}"
    raise IllegalActionError(msg)
