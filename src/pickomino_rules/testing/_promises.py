"""The hooks' determinism and the modules' promises, each searched for counter-examples.

``pending_by_parts``, ``ends_on_total``, ``mid_turn_by_count`` and ``set_aside_faces``: a module
that makes one lets the engine and the solver take a shortcut, so a broken one is a wrong game.
"""

from __future__ import annotations

import itertools
from functools import cache, partial
from typing import TYPE_CHECKING, Any

from pickomino_rules.actions import Take
from pickomino_rules.dice import FACES, NO_DICE_SET_ASIDE, Face
from pickomino_rules.errors import (
    brief,
)
from pickomino_rules.game import (
    legal_actions,
    resolve_bust,
    stop_outcomes,
)
from pickomino_rules.state import GameState, Phase
from pickomino_rules.story import dice_faces
from pickomino_rules.testing._games import _fail, _pending, _player_counts, _sample, random_game

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.rules import Rules


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
