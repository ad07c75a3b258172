"""The conformance kit: the library's own API test, for any variant, yours included.

[`check_variant`][pickomino_rules.testing.check_variant] plays random games of a variant and
checks, as OpenSpiel's api_test and PettingZoo's api_test do for their games, that:

- every state reached is valid ([`validate`][pickomino_rules.validation.validate], which runs
  each part's own check) and the game is over exactly when nothing is legal;
- every legal action applies, and games end;
- every part of every state is hashable (a state is hashed and compared by value);
- every hook answers the same twice for the same input (no hidden randomness or state);
- each promise a module makes is tested by a search for counter-examples: ``ends_on_total``
  (stops with equal totals but other dice set aside end the same way), ``mid_turn_by_count``
  (setting a face aside changes the rest of the state by the face and its count alone),
  ``set_aside_faces`` (setting aside any other face only moves the dice) and
  ``pending_by_parts`` (pending decisions follow from the parts alone);
- chance is exact: each pool's probabilities sum to 1 and equal an independent multinomial;
- the same seed gives the same game, and other seeds other games;
- moves round-trip through their text, and games through JSON records;
- the game's declared facts ([`game_info`][pickomino_rules.info.game_info]) hold: every
  legal action is listed, no roll has more outcomes, results stay in the utility range;
- fuzzed illegal actions are refused with
  [`IllegalActionError`][pickomino_rules.errors.IllegalActionError] and change nothing;
- wrong argument types and states of other rules are refused with specific errors.

Each check is also a function of its own, so that a test suite can report them apart.
Failures raise [`ConformanceError`][pickomino_rules.testing.ConformanceError], naming the check,
the seed and the state. The kit needs no test framework.

Examples:
    >>> from pickomino_rules.testing import check_variant
    >>> report = check_variant("classic", games=1)
    >>> report.games, report.states > 100
    (1, True)
"""

from __future__ import annotations

import copy
import difflib
import itertools
import math
import random
from fractions import Fraction
from functools import cache, partial
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from pickomino_rules.actions import CORE_ACTIONS, Action, AgainstPlayer, Roll, Steal, Stop, Take
from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, Face, RollOutcome
from pickomino_rules.errors import (
    ArgumentTypeError,
    ConformanceError,
    IllegalActionError,
    RulesMismatchError,
    brief,
)
from pickomino_rules.game import (
    apply,
    legal_actions,
    new_game,
    parse_move,
    playout,
    resolve_bust,
    stop_outcomes,
)
from pickomino_rules.plugin import HOOK_ARGUMENTS, Components, RuleModule, Variant, compose
from pickomino_rules.registry import (
    available_variants,
    get_variant,
    register_variant,
    unregister_variant,
)
from pickomino_rules.result import result
from pickomino_rules.state import Claim, GameState, Phase
from pickomino_rules.story import dice_faces
from pickomino_rules.validation import problems

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules

__all__ = [
    "ConformanceError",
    "ConformanceReport",
    "check_bad_arguments",
    "check_chance",
    "check_determinism",
    "check_encoding",
    "check_ends_on_total",
    "check_game_info",
    "check_hook_returns",
    "check_hooks_deterministic",
    "check_illegal_actions_rejected",
    "check_legal_actions_apply",
    "check_mid_turn_by_count",
    "check_ordering",
    "check_parts_hashable",
    "check_pending_by_parts",
    "check_random_games",
    "check_round_trips",
    "check_set_aside_faces",
    "check_state",
    "check_variant",
    "random_game",
]


@attrs.frozen
class ConformanceReport:
    """What [`check_variant`][pickomino_rules.testing.check_variant] checked.

    Attributes:
        variant: The variant's name.
        games: Random games played to the end.
        states: States checked.
        moves: Moves applied (including every legal alternative tried).
    """

    variant: str
    games: int
    states: int
    moves: int


def _fail(check: str, rules: Rules, detail: str, state: GameState | None = None) -> NoReturn:
    where = f"\nstate:\n{state}" if state is not None else ""
    msg = f"[{check}] {rules.name}: {detail}{where}"
    raise ConformanceError(msg)


def _pending(rules: Rules, state: GameState) -> bool:
    return rules.pending_actions is not None and bool(rules.pending_actions(rules, state))


def check_parts_hashable(rules: Rules, state: GameState) -> None:
    """Every part of ``state`` is hashable: a state is hashed and compared by value.

    Raises:
        ConformanceError: A part's value cannot be hashed (it holds a list, a dict, ...).
    """
    if not isinstance(state.parts, tuple):
        _fail("parts are hashable", rules, f"parts: expected a tuple, got {brief(state.parts)}")
    for index, part in enumerate(state.parts):
        try:
            hash(part)
        except TypeError as error:
            name = next((n for n, i in rules.part_index.items() if i == index), str(index))
            detail = (
                f"part {name!r} is not hashable ({error}): make it immutable, e.g. "
                "@attrs.frozen holding tuples"
            )
            _fail("parts are hashable", rules, detail)


def check_state(rules: Rules, state: GameState) -> None:
    """The invariants of every reachable state.

    Its parts are hashable, the state is valid, and the game is over exactly when nothing
    is legal (C12: also after the last tile left the grill, a pending choice of that turn
    is still made).

    Raises:
        ConformanceError: An invariant is broken.
    """
    check_parts_hashable(rules, state)
    found = problems(rules, state)
    if found:
        _fail("state", rules, "; ".join(found), state)
    legal = legal_actions(rules, state)
    over = state.phase is Phase.GAME_OVER
    if over == bool(legal):
        _fail("state", rules, "the game is over exactly when nothing is legal (C12)", state)
    if not state.grill and not over and not _pending(rules, state):
        _fail("state", rules, "an empty grill ends the game once no choice is pending", state)
    if state.phase is Phase.ROLL:
        if legal != rules.chance_table(state.in_hand).outcomes:
            _fail("state", rules, "a chance node's legal moves are its rolls", state)
    elif not all(isinstance(move, Action) for move in legal) or len(set(legal)) != len(legal):
        _fail("state", rules, f"decisions are distinct actions, got {legal}", state)


def _play(rules: Rules, players: int, seed: int) -> tuple[tuple[GameState, Move | None], ...]:
    from pickomino_rules.bots import random_bot  # noqa: PLC0415 (the kit lives above the bots)

    rng = random.Random(seed)
    _, state = new_game(rules, players=players, first_player=seed % players)
    history: list[tuple[GameState, Move | None]] = []
    check_parts_hashable(rules, state)
    try:
        for move, after in playout(rules, state, random_bot, rng, max_moves=None):
            history.append((state, move))
            state = after
            check_parts_hashable(rules, state)
            if len(history) >= MAX_MOVES:  # a broken variant may never end: the checks say so
                break
    except TypeError:
        check_parts_hashable(rules, state)  # names an unhashable part, if that is the cause
        raise
    history.append((state, None))
    return tuple(history)


MAX_MOVES = 200_000
"""Moves after which a random game is cut short (random games of the built-in variants
take a few thousand)."""


@cache
def random_game(rules: Rules, players: int, seed: int) -> tuple[tuple[GameState, Move | None], ...]:
    """A whole seeded game of random legal moves as (state, move) pairs; last: (final, None).

    Cached: the checks share the games they look at.
    """
    return _play(rules, players, seed)


# -- what hooks return, and who is at fault ----------------------------------------------


def _a_state(rules: Rules, _state: GameState, result: object) -> str | None:
    if not isinstance(result, GameState):
        return "expected a GameState"
    return None if result.layout is rules.layout else "a state of another game's layout"


def _counts(rules: Rules, state: GameState, result: object) -> str | None:
    del rules, state
    if not isinstance(result, tuple) or not all(
        isinstance(n, int) and not isinstance(n, bool) for n in result
    ):
        return "expected a tuple of whole numbers"
    return None


def _scores(rules: Rules, state: GameState, result: object) -> str | None:
    problem = _counts(rules, state, result)
    if problem is None and len(result) != len(state.stacks):  # type: ignore[arg-type]
        return f"expected one score per player ({len(state.stacks)})"
    return problem


def _actions(rules: Rules, state: GameState, result: object) -> str | None:
    del rules, state
    if not isinstance(result, tuple) or not all(isinstance(a, Action) for a in result):
        return "expected a tuple of actions"
    return None


def _roll_actions(rules: Rules, state: GameState, result: object) -> str | None:
    problem = _actions(rules, state, result)
    if problem is None:
        offered = [str(a) for a in result if isinstance(a, Roll | Stop | Steal)]  # type: ignore[attr-defined]
        if offered:
            return f"{', '.join(offered)} is no action after a roll (dice are set aside first)"
    return problem


def _total(rules: Rules, state: GameState, result: object) -> str | None:
    del rules, state
    if result is None or (isinstance(result, int) and not isinstance(result, bool)):
        return None
    return "expected a whole number or None"


def _claims(rules: Rules, state: GameState, result: object) -> str | None:
    del rules, state
    if not isinstance(result, tuple) or not all(isinstance(c, Claim) for c in result):
        return "expected a tuple of Claims"
    return None


RETURNS: dict[str, Callable[[Rules, GameState, object], str | None]] = {
    "setup": _a_state,
    "turn_dice": _counts,
    "roll_actions": _roll_actions,
    "pending_actions": _actions,
    "set_aside": _a_state,
    "stop_total": _total,
    "claims": _claims,
    "take_tile": _a_state,
    "bust": _a_state,
    "end_turn": _a_state,
    "apply_action": _a_state,
    "scores": _scores,
}
"""What each hook promises to return: a check that names what is wrong, or None."""


def _checked(module: RuleModule, hook: str, function: Callable[..., Any]) -> Callable[..., Any]:
    check = RETURNS[hook]

    def checked(
        inner: Callable[..., object], rules: Rules, state: GameState, *more: object
    ) -> object:
        answer: object = function(inner, rules, state, *more)
        problem = check(rules, state, answer)
        if problem is not None:
            detail = f"module {module.name!r}: its {hook} hook returned {brief(answer)}: {problem}"
            _fail("hook returns", rules, detail, state)
        return answer

    return checked


def checked_rules(rules: Rules) -> Rules:
    """``rules`` composed again with each module's hooks checked for what they return.

    A hook that returns the wrong kind of value (a list for a tuple, None for a state, a
    ``Stop`` among the actions after a roll) then fails at once, with a
    [`ConformanceError`][pickomino_rules.testing.ConformanceError] naming its module,
    rather than somewhere later in the engine.
    """
    modules = [_with_checked_hooks(module) for module in rules.modules]
    return compose(*modules, name=rules.name, options=rules.options)


def _with_checked_hooks(module: RuleModule) -> RuleModule:
    hooks: dict[str, Any] = {
        hook: _checked(module, hook, getattr(module, hook))
        for hook in RETURNS
        if getattr(module, hook) is not None
    }
    return attrs.evolve(module, **hooks)


def check_hook_returns(rules: Rules, *, games: int = 3, seed: int = 0) -> int:
    """Every module's hooks return what they promise, over random games of checked rules.

    Returns:
        The number of moves played.

    Raises:
        ConformanceError: A hook returned the wrong kind of value, or raised; the message
            names its module.
    """
    checked = checked_rules(rules)
    played = 0
    for game, players in enumerate(_player_counts(rules, games)):
        try:
            history = _play(checked, players, seed + game)
            result(checked, history[-1][0])  # the scores too
        except Exception as error:  # noqa: BLE001 (any failure is the finding)
            _raise_blamed("hook returns", rules, error)
        played += len(history) - 1
    return played


def _code_of(function: object) -> object:
    """The code object a callable runs, where it has one (functions, partials, objects)."""
    while isinstance(function, partial):
        function = function.func
    code = getattr(function, "__code__", None)
    if code is None:  # a callable object: its class's method
        method = getattr(type(function), "__call__", None)  # noqa: B004 (the method itself)
        code = getattr(getattr(method, "__func__", method), "__code__", None)
    return code


def _hook_codes(rules: Rules) -> dict[object, str]:
    """Each module's hooks, part callbacks and extension wrappers: code object -> module."""
    owners: dict[object, str] = {}
    for module in rules.modules:
        functions: list[object] = [getattr(module, hook) for hook in HOOK_ARGUMENTS]
        functions += [extension.wrapper for extension in module.extends]
        functions += [point.default for point in module.provides]
        if module.part is not None:
            part = module.part
            functions += [part.check, part.observe, part.describe, part.changes, part.markers]
        for function in functions:
            code = _code_of(function) if function is not None else None
            if code is not None:
                owners.setdefault(code, module.name)
    return owners


def _chain(error: BaseException) -> list[BaseException]:
    """``error`` and what caused it, outermost first (the library re-raises raw errors)."""
    chain = [error]
    while chain[-1].__cause__ is not None and len(chain) < 20:
        chain.append(chain[-1].__cause__)
    return chain


def module_at_fault(rules: Rules, error: BaseException) -> str | None:
    """The module whose hook was running, innermost, where ``error`` began; None if none.

    The library turns a raw error in a hook into one of its own, raised from the original:
    the original's traceback is read.

    Examples:
        >>> from pickomino_rules import get_rules
        >>> module_at_fault(get_rules("classic"), ValueError("raised outside any hook"))
    """
    owners = _hook_codes(rules)
    for cause in reversed(_chain(error)):  # the original first
        found = None
        frame = cause.__traceback__
        while frame is not None:
            found = owners.get(frame.tb_frame.f_code, found)
            frame = frame.tb_next
        if found is not None:
            return found
    return None


def blamed(check: str, rules: Rules, error: BaseException) -> ConformanceError:
    """The conformance failure for ``error``, raised in ``check``: it names the module at fault.

    A conformance failure among its causes (a checked hook's, see `checked_rules`) is
    that failure itself.
    """
    for cause in _chain(error):
        if isinstance(cause, ConformanceError):
            return cause
    original = _chain(error)[-1]
    module = module_at_fault(rules, error)
    who = f"module {module!r}" if module is not None else "no module's hook (the core, or a tool)"
    detail = f"{who} raised {type(original).__name__}: {brief(str(original), 160)}"
    return ConformanceError(f"[{check}] {rules.name}: {detail}")


def _player_counts(rules: Rules, games: int) -> list[int]:
    low, high = rules.components.min_players, rules.components.max_players
    return [low + game % (min(high, low + 2) - low + 1) for game in range(games)]


def check_random_games(rules: Rules, *, games: int = 3, seed: int = 0) -> tuple[int, int]:
    """Random games end, every state on the way is sound, and results are well formed.

    Returns:
        The number of states and of moves checked.

    Raises:
        ConformanceError: A check failed.
    """
    states = moves = 0
    for game, players in enumerate(_player_counts(rules, games)):
        history = random_game(rules, players, seed + game)
        for state, _ in history:
            check_state(rules, state)
        states += len(history)
        moves += len(history) - 1
        final = history[-1][0]
        if final.phase is not Phase.GAME_OVER:
            detail = f"game with seed {seed + game} did not end within {MAX_MOVES} moves"
            _fail("random games", rules, detail, final)
        outcome = result(rules, final)
        if sorted(outcome.ranking) != list(range(players)) or not outcome.winners:
            _fail("random games", rules, f"bad result {outcome}", final)
    return states, moves


def _sample(history: tuple[tuple[GameState, Move | None], ...], count: int) -> list[GameState]:
    step = max(1, len(history) // count)
    return [state for state, _ in history[::step]]


def check_legal_actions_apply(rules: Rules, *, seed: int = 0, states: int = 60) -> int:
    """Every legal action of sampled states applies and leads to a sound state.

    Returns:
        The number of moves applied.

    Raises:
        ConformanceError: A legal action failed or led to a broken state.
    """
    applied = 0
    for state in _sample(random_game(rules, rules.components.min_players + 1, seed), states):
        legal = legal_actions(rules, state)
        moves = legal[:: max(1, len(legal) // 40)] if state.phase is Phase.ROLL else legal
        for move in moves:
            try:
                after = apply(rules, state, move)
            except Exception as error:  # noqa: BLE001 (any failure is the finding)
                _fail("legal actions apply", rules, f"{move} raised {error!r}", state)
            check_state(rules, after)
            applied += 1
    return applied


def check_pending_by_parts(rules: Rules, *, seed: int = 0, probes: int = 6) -> int:
    """The ``pending_by_parts`` promise holds: the same parts, the same pending decisions.

    Each state of a random game where a decision is pending, and a sample of the others,
    lends its parts to ``probes`` other states of the game (other tiles, dice, phase and
    player); the composed ``pending_actions`` must answer for each what it answers for the
    state itself. Rules without the promise pass at once.

    Returns:
        The number of comparisons made.

    Raises:
        ConformanceError: A pending decision depends on more than the parts.
    """
    pending = rules.pending_actions
    if pending is None or not rules.pending_by_parts:
        return 0
    states = [state for state, _ in random_game(rules, rules.components.min_players + 1, seed)]
    compared = 0
    for index, state in enumerate(states):
        expected = pending(rules, state)
        if not expected and index % 25:
            continue
        for probe in range(1, probes + 1):
            other = states[(index + probe * 37) % len(states)].replace(parts=state.parts)
            found = pending(rules, other)
            if found != expected:
                detail = (
                    f"pending_by_parts is promised, but with the same parts pending_actions "
                    f"gives {list(map(str, found))} in another state, not "
                    f"{list(map(str, expected))}"
                )
                _fail("pending by parts", rules, detail, state)
            compared += 1
    return compared


def _twice(rules: Rules, state: GameState, hook: str, args: tuple[object, ...]) -> None:
    function = getattr(rules, hook)
    first, second = function(rules, state, *args), function(rules, state, *args)
    if first != second:
        who = next(
            (
                f"module {name!r}: its "
                for name, level in _levels(rules, hook)[1:]
                if level(rules, state, *args) != level(rules, state, *args)
            ),
            "",
        )
        detail = (
            f"{who}hook {hook} answered {brief(first)}, then {brief(second)}, for the same input"
        )
        _fail("deterministic hooks", rules, detail, state)


def check_hooks_deterministic(
    rules: Rules, *, games: int = 3, seed: int = 0, states: int = 80
) -> int:
    """Every composed hook answers the same twice for the same input.

    Hooks are pure functions of the rules, the state and their arguments: a hook that draws
    random numbers or keeps state of its own makes games that a seed cannot replay, and
    values the solver cannot trust. States of all ``games`` random games (the games
    `check_random_games` plays) ask each hook that applies to their phase twice: every
    decision to roll or stop (where the claims, steals and busts are) and ``states`` others
    of each game.

    Returns:
        The number of hook calls compared.

    Raises:
        ConformanceError: A hook answered differently.
    """
    compared = 0
    for game, players in enumerate(_player_counts(rules, games)):
        history = random_game(rules, players, seed + game)
        sampled = set(map(id, _sample(history, states)))
        for state, _ in history:
            if state.phase is Phase.DECIDE or id(state) in sampled:
                compared += _compare_hooks(rules, state)
    return compared


def _compare_hooks(rules: Rules, state: GameState) -> int:
    calls: list[tuple[str, tuple[object, ...]]] = [("scores", ()), ("turn_dice", ())]
    if rules.pending_actions is not None:
        calls.append(("pending_actions", ()))
    if state.phase is Phase.CHOOSE and not _pending(rules, state):
        calls.append(("roll_actions", ()))
        calls.extend(("set_aside", (face,)) for face in _takes(rules, state))
    if state.phase is Phase.DECIDE and not _pending(rules, state):
        calls += [("bust", ()), ("stop_total", ())]
        total = rules.stop_total(rules, state)
        if total is not None:
            calls.append(("claims", (total,)))
            calls.extend(("take_tile", (claim,)) for claim in rules.claims(rules, state, total))
    for hook, args in calls:
        _twice(rules, state, hook, args)
    return len(calls)


def _takes(rules: Rules, state: GameState) -> list[Face]:
    return [action.face for action in legal_actions(rules, state) if isinstance(action, Take)]


@cache
def _set_asides(dice: int, points: int, worm: bool) -> tuple[tuple[int, ...], ...]:
    """Every way to set ``dice`` dice aside (counts per face) with these points and worm."""
    return tuple(
        counts
        for counts in itertools.product(range(dice + 1), repeat=6)
        if sum(counts) == dice and _points(counts) == points and (counts[5] > 0) == worm
    )


def _points(counts: tuple[int, ...]) -> int:
    """The points of dice set aside (C7), by each face's own ``points``."""
    return sum(count * face.points for count, face in zip(counts, FACES, strict=True))


def check_ends_on_total(rules: Rules, *, seed: int = 0, alternatives: int = 3) -> int:
    """The ``ends_on_total`` promise holds: only the total says how a turn ends.

    Each stop of a random game is compared with stops of the same board whose dice set
    aside are others with the same points, worm and number of dice: the total claimed with,
    the claims open, every way to end the turn (`stop_outcomes`) and the bust must be the
    same. Rules without the promise pass at once.

    Returns:
        The number of comparisons made.

    Raises:
        ConformanceError: A module that acts at a turn's end reads the dice set aside.
    """
    if not rules.ends_on_total:
        return 0
    compared = 0
    history = random_game(rules, rules.components.min_players + 1, seed)
    for state, _ in history:
        if state.phase is not Phase.DECIDE or _pending(rules, state):
            continue
        aside = state.set_aside
        others = [
            counts
            for counts in _set_asides(sum(aside), _points(aside), aside[5] > 0)
            if counts != aside
        ]
        for counts in others[:: max(1, len(others) // alternatives)][:alternatives]:
            other = state.replace(set_aside=counts)
            ours = _turn_end(rules, state)
            theirs = _turn_end(rules, other)
            if ours != theirs:
                detail = (
                    f"{_promised_by(rules, state, other)}, but a stop with dice "
                    f"{_dice_text(counts)} set aside (the same total) ends otherwise than one "
                    f"with {_dice_text(aside)}: {_first_difference(ours, theirs)}"
                )
                _fail("ends on total", rules, detail, state)
            compared += 1
    return compared


def _turn_end(rules: Rules, state: GameState) -> dict[str, object]:
    """How a stop in ``state`` ends the turn, asked of the hooks themselves (no caches).

    An end that waits on a decision still shows the dice set aside; they are left out.
    """
    total = rules.stop_total(rules, state)
    claims = rules.claims(rules, state, total) if total is not None else ()
    return {
        "stop_total": total,
        "claims": claims,
        "ends of the turn": tuple(
            (action, _without_dice(end)) for action, end in stop_outcomes(rules, state)
        ),
        "bust": _without_dice(resolve_bust(rules, state)),
    }


def _levels(rules: Rules, hook: str) -> list[tuple[str, Callable[..., Any]]]:
    """A composed hook's chain, innermost first: the core's, then each module's with its inner."""
    names = rules.chains[hook]
    function: Any = getattr(rules, hook)
    levels = []
    for name in reversed(names[1:]):
        levels.append((name, function))
        # compose wraps each module's hook around its inner (a compiled twin keeps it too)
        function = function.args[0] if isinstance(function, partial) else function.inner
    levels.append((names[0], function))
    return levels[::-1]


def _end_calls(rules: Rules, state: GameState) -> list[tuple[str, tuple[object, ...]]]:
    """The hooks a stop or a bust runs in ``state``, with their arguments after the state."""
    total = rules.stop_total(rules, state)
    claims = rules.claims(rules, state, total) if total is not None else ()
    return [
        ("stop_total", ()),
        *([("claims", (total,))] if total is not None else []),
        *(("take_tile", (claim,)) for claim in claims),
        ("bust", ()),
        ("end_turn", ()),
    ]


def _answer(function: Callable[..., Any], rules: Rules, state: GameState, *args: object) -> object:
    try:
        answer = function(rules, state, *args)
    except Exception as error:  # noqa: BLE001 (an answer too, to compare)
        return type(error)
    return _without_dice(answer) if isinstance(answer, GameState) else answer


def _promised_by(rules: Rules, state: GameState, other: GameState) -> str:
    """Who broke the ``ends_on_total`` promise: the innermost hook that answers otherwise."""
    for hook, args in _end_calls(rules, state):
        for name, function in _levels(rules, hook):
            if _answer(function, rules, state, *args) != _answer(function, rules, other, *args):
                if name in rules.chains[hook][1:]:
                    return f"module {name!r} promises ends_on_total; its {hook} hook reads the dice"
                break
    promised = [m.name for m in rules.modules if m.ends_turns and m.ends_on_total]
    return f"ends_on_total is promised (by {', '.join(map(repr, promised))})"


def _without_dice(state: GameState) -> GameState:
    return state.replace(set_aside=NO_DICE_SET_ASIDE)


def _first_difference(ours: dict[str, object], theirs: dict[str, object]) -> str:
    differing = next(key for key in ours if ours[key] != theirs[key])
    return f"{differing} {theirs[differing]!r} instead of {ours[differing]!r}"


def _dice_text(counts: tuple[int, ...]) -> str:
    return "".join(face.symbol for face in dice_faces(counts))


def check_mid_turn_by_count(rules: Rules, *, seed: int = 0) -> int:
    """The ``mid_turn_by_count`` promise holds: a set-aside acts by its face and count.

    Each take of a random game is applied again with the dice set aside before it cleared:
    what setting the face aside does to the tiles, the stacks, the parts and the player to
    move must be the same. Rules without the promise pass at once.

    Returns:
        The number of comparisons made.

    Raises:
        ConformanceError: A set-aside reads more than the face and its count.
    """
    if not rules.mid_turn_by_count or not any(m.acts_mid_turn for m in rules.modules):
        return 0
    compared = 0
    history = random_game(rules, rules.components.min_players + 1, seed)
    for state, _ in history:
        if state.phase is not Phase.CHOOSE or _pending(rules, state) or not any(state.set_aside):
            continue
        cleared = state.replace(set_aside=NO_DICE_SET_ASIDE)
        for face in _takes(rules, state):
            ours = _board(rules.set_aside(rules, state, face))
            theirs = _board(rules.set_aside(rules, cleared, face))
            if ours != theirs:
                detail = (
                    f"mid_turn_by_count is promised, but setting {face.symbol} aside changes "
                    "the board otherwise when other dice were set aside before"
                )
                _fail("mid turn by count", rules, detail, state)
            compared += 1
    return compared


def check_set_aside_faces(rules: Rules, *, seed: int = 0) -> int:
    """Each ``set_aside_faces`` promise holds: other faces pass through the module's hook.

    At each roll of a random game, every face the roll offers that a module did not name
    is set aside through the chain up to the module's hook and up to its inner hook: the
    two must answer the same state. Modules without the promise pass at once.

    Returns:
        The number of comparisons made.

    Raises:
        ConformanceError: A module's ``set_aside`` acts on a face it did not name.
    """
    promised = {
        module.name: module.set_aside_faces
        for module in rules.modules
        if module.set_aside is not None and module.set_aside_faces is not None
    }
    if not promised:
        return 0
    levels = _levels(rules, "set_aside")
    compared = 0
    history = random_game(rules, rules.components.min_players + 1, seed)
    for state, _ in history:
        if state.phase is not Phase.CHOOSE or _pending(rules, state):
            continue
        for (_, inner), (name, hook) in itertools.pairwise(levels):
            faces = promised.get(name)
            if faces is None:
                continue
            for face in _takes(rules, state):
                if face in faces:
                    continue
                if hook(rules, state, face) != inner(rules, state, face):
                    named = ", ".join(sorted(f.symbol for f in faces)) or "none"
                    detail = (
                        f"module {name!r} promises set_aside_faces ({named}), but its "
                        f"set_aside hook acts when {face.symbol} is set aside"
                    )
                    _fail("set aside faces", rules, detail, state)
                compared += 1
    return compared


def _board(state: GameState) -> tuple[object, ...]:
    return state.grill, state.face_down, state.stacks, state.parts, state.player


def _multinomial(rules: Rules, outcome: RollOutcome) -> Fraction:
    """A roll's probability computed independently, from each die's sides."""
    probability = Fraction(1)
    for kind, counts in zip(rules.die_kinds, outcome.counts, strict=True):
        probability *= math.factorial(sum(counts))
        for face, count in zip(FACES, counts, strict=True):
            probability *= Fraction(kind.sides.count(face), 6) ** count / math.factorial(count)
    return probability


def check_chance(rules: Rules, *, seed: int = 0) -> int:
    """Every pool of dice met in a game has exact chance: sums to 1, multinomial, distinct.

    Returns:
        The number of pools checked.

    Raises:
        ConformanceError: A pool's distribution is wrong.
    """
    pools = {
        state.in_hand
        for state, _ in random_game(rules, rules.components.min_players, seed)
        if state.phase is Phase.ROLL
    }
    for pool in sorted(pools):
        table = rules.chance_table(pool)
        if sum(table.probabilities) != 1 or len(set(table.outcomes)) != len(table.outcomes):
            _fail("chance", rules, f"the rolls of {pool} do not sum to 1 or repeat")
        for outcome in table.outcomes[:: max(1, len(table.outcomes) // 60)]:
            if outcome.dice != pool or table.probability(outcome) != _multinomial(rules, outcome):
                _fail("chance", rules, f"roll {outcome} of {pool} has a wrong probability")
    return len(pools)


def check_determinism(rules: Rules, *, seed: int = 0) -> None:
    """The same seed replays the same game; another seed plays another.

    Raises:
        ConformanceError: Randomness leaked in, or the seed is ignored.
    """
    players = rules.components.min_players
    first = [move for _, move in random_game(rules, players, seed)]
    again = [move for _, move in _play(rules, players, seed)]
    other = [move for _, move in _play(rules, players, seed + 1000)]
    if first != again:
        _fail("determinism", rules, f"seed {seed} played two different games")
    if first == other:
        _fail("determinism", rules, f"seeds {seed} and {seed + 1000} played the same game")


def _registered_as(rules: Rules) -> bool:
    try:
        return get_variant(rules.name).rules(rules.options) is rules
    except (LookupError, ValueError):
        return False


def check_round_trips(rules: Rules, *, seed: int = 0) -> None:
    """Moves read back from their text; a recorded game replays from JSON to the same end.

    The record part runs for the rules of a registered variant.

    Raises:
        ConformanceError: A text form or a record does not round-trip.
    """
    history = random_game(rules, rules.components.min_players, seed)
    for state, move in history[:-1]:
        assert move is not None  # noqa: S101 (only the final pair has no move)
        text = str(move)
        if parse_move(rules, text) != move:
            _fail("round trips", rules, f"{move!r} reads back from {text!r} differently", state)
    if _registered_as(rules):
        from pickomino_rules.records import GameRecord  # noqa: PLC0415 (records sit above)

        start = history[0][0]
        record = GameRecord.start(rules.name, start.players, rules.options, start.player)
        record = record.extended(move for _, move in history[:-1] if move is not None)
        again = GameRecord.from_json(record.to_json())
        if again != record or again.final_state() != history[-1][0]:
            _fail("round trips", rules, "a game's record does not replay to the same end")
        from pickomino_rules.positions import Position  # noqa: PLC0415 (positions sit above)

        for state, _ in history:
            position = Position(rules, state)
            line = str(position)
            if Position.parse(line).state != state:
                _fail("round trips", rules, f"the position line {line!r} reads back otherwise")
            if Position.from_json(position.to_json()).state != state:
                _fail("round trips", rules, "a position's JSON reads back otherwise", state)


def check_encoding(rules: Rules, *, seed: int = 0) -> None:
    """The numeric encoding holds every legal action, and observations fit their layout.

    Every action offered in a random game must be in the fixed action space (a variant's
    action class with fields lists its instances with ``Action.instances``); each part's
    ``observe`` must give the same number of values in [0, 1] in every state.

    Raises:
        ConformanceError: An action outside the space, or an observation off its layout.
    """
    from pickomino_rules.encoding import ActionEncodingError, Encoding  # noqa: PLC0415

    players = rules.components.min_players
    try:
        encoding = Encoding.of(rules, players)
    except TypeError as error:
        _fail("encoding", rules, f"no action space: {error}")
    for state, _ in random_game(rules, players, seed):
        try:
            encoding.legal_mask(state)
        except ActionEncodingError:
            _fail("encoding", rules, "a legal action is not in the action space", state)
        for key, part in zip(rules.layout.parts, state.parts, strict=True):
            if key.observe is None:
                continue
            features = list(key.observe(rules, state, part, state.player))
            size = encoding.segments[key.name].stop - encoding.segments[key.name].start
            if len(features) != size or not all(0 <= value <= 1 for value in features):
                detail = f"part {key.name!r} observes {features} (expected {size} values in [0, 1])"
                _fail("encoding", rules, detail, state)


def check_game_info(rules: Rules, *, seed: int = 0) -> int:
    """The declared facts of the game (`info.game_info`) hold over random play.

    Every legal action is among ``actions``, no roll has more outcomes than
    ``max_chance_outcomes``, every result lies in the utility range and sums to
    ``utility_sum``, the points of the dice set aside are ``points``' sum, and the game
    ends within ``max_game_length`` moves; for the fewest and the most players allowed.

    Returns:
        States checked.

    Raises:
        ConformanceError: A fact the game breaks.
    """
    from pickomino_rules.encoding import returns  # noqa: PLC0415 (numpy, an extra)
    from pickomino_rules.info import game_info  # noqa: PLC0415

    checked = 0
    for players in sorted({rules.components.min_players, min(rules.components.max_players, 4)}):
        info = game_info(rules, players)
        known = set(info.actions)
        history = random_game(rules, players, seed + players)
        for state, _ in history:
            checked += 1
            if state.phase is Phase.ROLL:
                outcomes = len(rules.chance_table(state.in_hand).outcomes)
                if outcomes > info.max_chance_outcomes:
                    detail = f"{outcomes} outcomes, more than {info.max_chance_outcomes}"
                    _fail("game info", rules, detail, state)
                continue
            stray = [str(a) for a in legal_actions(rules, state) if a not in known]
            if stray:
                _fail("game info", rules, f"legal actions outside the game's: {stray}", state)
            if state.total != sum(c * p for c, p in zip(state.set_aside, info.points, strict=True)):
                _fail("game info", rules, "the dice set aside are not worth their points", state)
        final = history[-1][0]
        if len(history) > info.max_game_length:
            _fail("game info", rules, f"a game of {len(history)} moves", final)
        results = returns(rules, final)
        if not all(info.min_utility <= r <= info.max_utility for r in results) or not math.isclose(
            sum(results), info.utility_sum, abs_tol=1e-9
        ):
            _fail("game info", rules, f"results {results} outside the declared range", final)
    return checked


def _candidates(rules: Rules, seen: set[Action], players: int) -> list[object]:
    """Actions to throw at states: every action seen anywhere, and more of each class."""
    moves: list[object] = sorted(seen, key=repr)
    for kind in (*CORE_ACTIONS, *rules.action_types):
        if issubclass(kind, AgainstPlayer):
            moves.extend(kind(victim) for victim in range(-1, players + 1))
            continue
        try:
            moves.append(kind.from_argument(""))
        except (ValueError, TypeError):
            continue
    kinds = tuple(kind.name for kind in rules.die_kinds)
    moves.extend(RollOutcome.parse(text, kinds) for text in ("1", "12345w12", "w" * 9, "w" * 8, ""))
    return moves


def check_illegal_actions_rejected(rules: Rules, *, seed: int = 0, tries: int = 400) -> int:
    """Moves that are not legal raise IllegalActionError, listing what is; nothing changes.

    Returns:
        The number of illegal moves tried.

    Raises:
        ConformanceError: An illegal move was accepted, raised another error, or changed
            the state.
    """
    players = rules.components.min_players + 1
    history = random_game(rules, players, seed)
    seen = {move for _, move in history if isinstance(move, Action)}
    candidates = _candidates(rules, seen, players)
    rng = random.Random(seed)
    tried = 0
    for _ in range(tries):
        state = rng.choice(history)[0]
        move = rng.choice(candidates)
        legal = legal_actions(rules, state)
        if move in legal:
            continue
        before = copy.deepcopy(state)
        try:
            apply(rules, state, move)  # type: ignore[arg-type]
        except IllegalActionError as error:
            if error.legal != legal or "is not legal" not in str(error):
                _fail("illegal actions", rules, f"{move}: the error must list what is legal")
        except Exception as error:  # noqa: BLE001 (any other error is the finding)
            _fail("illegal actions", rules, f"{move!r} raised {error!r}", state)
        else:
            _fail("illegal actions", rules, f"{move!r} was accepted but is not legal", state)
        if state != before or hash(state) != hash(before):
            _fail("illegal actions", rules, f"{move!r} changed the state", state)
        tried += 1
    return tried


def check_bad_arguments(rules: Rules) -> None:
    """Wrong types, states of other layouts and corrupt states get specific errors.

    Raises:
        ConformanceError: A bad call raised a raw error, or none.
    """
    _, state = new_game(rules, players=rules.components.min_players)
    move = legal_actions(rules, state)[0]
    calls: dict[str, Callable[[], object]] = {
        "a move's text to apply": lambda: apply(rules, state, "roll"),  # type: ignore[arg-type]
        "a tuple as the state": lambda: legal_actions(rules, (*state.grill,)),  # type: ignore[arg-type]
        "a name as the rules": lambda: apply(rules.name, state, move),  # type: ignore[arg-type]
    }
    for what, call in calls.items():
        try:
            call()
        except ArgumentTypeError:
            continue
        except Exception as error:  # noqa: BLE001 (any other error is the finding)
            _fail("bad arguments", rules, f"{what} raised {error!r}, not ArgumentTypeError")
        _fail("bad arguments", rules, f"{what} was accepted")
    other = compose(*_other_layout(rules))
    _, foreign = new_game(other, players=2)
    try:
        legal_actions(rules, foreign)
    except RulesMismatchError:
        pass
    else:
        _fail("bad arguments", rules, "a state of another layout was accepted")
    if not problems(rules, state.replace(set_aside=(9,) * 6)):
        _fail("bad arguments", rules, "validation missed 54 dice set aside")


def _other_layout(rules: Rules) -> tuple[RuleModule, ...]:
    """A tiny composition laid out unlike ``rules`` (two tiles, one die)."""
    from pickomino_rules.dice import WHITE  # noqa: PLC0415

    tiles = (1, 2) if rules.tiles != (1, 2) else (1, 3)

    def tiny(_: Components) -> Components:
        return Components(tiles, tuple((t, 1) for t in tiles), (WHITE,), (1,))

    return (RuleModule(name="other_layout", configure=tiny),)


def check_variant(
    variant: str | Variant,
    options: Mapping[str, object] | None = None,
    *,
    games: int = 3,
    seed: int = 0,
) -> ConformanceReport:
    """Run the whole conformance suite on a variant (registered or not).

    Whatever a broken module does, the kit answers with a
    [`ConformanceError`][pickomino_rules.testing.ConformanceError] that names the check and,
    where a module's hook is at fault, the module: a hook that returns the wrong kind of
    value is caught where it returns (`check_hook_returns` runs first), and a hook that
    raises is named from where it raised (`module_at_fault`).

    Args:
        variant: A registered variant's name, or a [`Variant`][pickomino_rules.plugin.Variant]
            (registered for the duration of the check if it is not).
        options: The variant's options.
        games: Random games to play to the end; the hooks' determinism is checked over
            states of all of them.
        seed: Seed of the first game; the check is deterministic.

    Returns:
        What was checked.

    Raises:
        ConformanceError: A check failed; the message names it (and the module at fault).
    """
    temporary = isinstance(variant, Variant) and not _is_registered(variant)
    if temporary:
        assert isinstance(variant, Variant)  # noqa: S101 (for the type checker)
        register_variant(variant)
    try:
        name = variant if isinstance(variant, str) else variant.name
        try:
            rules = get_variant(name).rules(options)
        except Exception as error:
            detail = f"cannot be composed: {type(error).__name__}: {brief(str(error), 200)}"
            raise ConformanceError(f"[composition] {name}: {detail}") from error
        states, moves = _run_checks(rules, games, seed)
    finally:
        if temporary:
            unregister_variant(variant.name)  # type: ignore[union-attr]
    return ConformanceReport(rules.name, games, states, moves)


def check_ordering(rules: Rules) -> None:
    """Every name in a module's ``after`` and ``before`` is a module some variant composes.

    The constraints apply where the named module is present, so a misspelt name would be
    no constraint at all, silently. Known are the modules of these rules and of every
    registered variant, with its default options and with each true-or-false option
    turned the other way.

    Raises:
        ConformanceError: Naming the module, the misspelt name and the closest known one.
    """
    known = _known_modules() | {module.name for module in rules.modules}
    for module in rules.modules:
        for field in ("after", "before"):
            for name in getattr(module, field):
                if name not in known:
                    close = difflib.get_close_matches(name, sorted(known), n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    detail = (
                        f"module {module.name!r}: {field}=({name!r},) names no module of any "
                        f"registered variant{hint}"
                    )
                    _fail("ordering", rules, detail)


def _known_modules() -> set[str]:
    """The names of the modules every registered variant composes, option by option."""
    known: set[str] = set()
    for name in available_variants():
        try:
            variant = get_variant(name)
            settings: list[dict[str, object]] = [{}]
            settings += [
                {option.name: not option.default}
                for option in variant.options
                if isinstance(option.default, bool)
            ]
            for options in settings:
                known.update(
                    module.name for module in variant.build(variant.resolve_options(options))
                )
        except Exception:  # noqa: BLE001, S112 (another variant's faults are not this one's)
            continue
    return known


def _run_checks(rules: Rules, games: int, seed: int) -> tuple[int, int]:
    """Every check in turn; a raw error in one becomes a failure naming its module."""
    counts = {"states": 0, "moves": 0}

    def random_games() -> None:
        counts["states"], counts["moves"] = check_random_games(rules, games=games, seed=seed)

    def legal_apply() -> None:
        counts["moves"] += check_legal_actions_apply(rules, seed=seed)

    checks: list[tuple[str, Callable[[], object]]] = [
        ("ordering", partial(check_ordering, rules)),
        ("hook returns", partial(check_hook_returns, rules, games=games, seed=seed)),
        ("random games", random_games),
        ("legal actions apply", legal_apply),
        ("pending by parts", partial(check_pending_by_parts, rules, seed=seed)),
        ("ends on total", partial(check_ends_on_total, rules, seed=seed)),
        ("mid turn by count", partial(check_mid_turn_by_count, rules, seed=seed)),
        ("set aside faces", partial(check_set_aside_faces, rules, seed=seed)),
        ("deterministic hooks", partial(check_hooks_deterministic, rules, games=games, seed=seed)),
        ("chance", partial(check_chance, rules, seed=seed)),
        ("determinism", partial(check_determinism, rules, seed=seed)),
        ("round trips", partial(check_round_trips, rules, seed=seed)),
        ("encoding", partial(check_encoding, rules, seed=seed)),
        ("game info", partial(check_game_info, rules, seed=seed)),
        ("illegal actions", partial(check_illegal_actions_rejected, rules, seed=seed)),
        ("bad arguments", partial(check_bad_arguments, rules)),
    ]
    for check, run in checks:
        try:
            run()
        except Exception as error:  # noqa: BLE001 (a broken module can raise anything)
            _raise_blamed(check, rules, error)
    return counts["states"], counts["moves"]


def _raise_blamed(check: str, rules: Rules, error: Exception) -> NoReturn:
    failure = blamed(check, rules, error)
    if failure is error:
        raise failure
    raise failure from (None if failure in _chain(error) else error)


def _is_registered(variant: Variant) -> bool:
    try:
        return get_variant(variant.name) is variant
    except LookupError:
        return False
