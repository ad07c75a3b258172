"""The compiled kernel (``pickomino_rules._engine._kernel``) against the pure-Python engine.

Where the kernel was built, ``game`` offers its ``legal_actions``, ``apply``, ``sample_chance``,
``stop_claims`` and ``stop_outcomes``: they play the rules on a one-row table where the rules
play on rows, and hand every other call to their pure twins, which stay the reference. Here
both play the same games: at every state visited, every legal move is applied by both and the
states must be equal; bad input and states built by hand must raise the same error with the
same message or give the same answer.

CI sets ``PICKOMINO_SPEEDUPS=required``, so that a build that lost the extension fails here
rather than skips. ``PICKOMINO_PURE=1`` keeps the pure functions (CI runs the suite so too).
"""

from __future__ import annotations

import os
import random
import subprocess
import sys
import types
import warnings
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import pickomino_rules
from pickomino_rules import (
    Face,
    GameState,
    Phase,
    RollOutcome,
    Take,
    game,
    get_rules,
    new_game,
    result,
    turn,
)
from pickomino_rules.actions import ROLL, STOP, Roll, Steal, Stop
from pickomino_rules.plugin import RuleModule, compose

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.rules import Rules

try:
    from pickomino_rules._engine import _boundary, _kernel
except ImportError:  # built without a C compiler: the pure functions run
    _boundary = _kernel = None  # type: ignore[assignment]

PURE = os.environ.get("PICKOMINO_PURE", "") not in ("", "0")
COMPILED = _kernel is not None and not PURE
NAMES = ("legal_actions", "apply", "sample_chance", "stop_claims")

if not COMPILED and os.environ.get("PICKOMINO_SPEEDUPS") == "required" and not PURE:
    pytest.fail("PICKOMINO_SPEEDUPS=required, but the compiled hot path was not built")
needs_compiled = pytest.mark.skipif(not COMPILED, reason="the compiled hot path is not in use")

HOOKS = ("roll_actions", "set_aside", "stop_total", "claims", "take_tile", "bust")
"""Core hooks of ``turn``: innermost in every chain, on either backend."""

# The rules' names and options played here: the core's hooks alone (the whole turn in C) and
# rules with modules (their turn through their hooks).
RULES: list[tuple[str, dict[str, object]]] = [
    ("classic", {}),
    ("classic", {"optional_steal": False}),
    ("classic", {"short_game": True}),
    ("classic", {"flip_on_empty_bust": True}),
    ("extended", {}),
    ("extended", {"exclusive_low_tiles": False, "golden_die_faces": "12345w", "short_game": True}),
    ("extrawurm", {"flip_on_empty_bust": True, "low_tile_worms": (2, 3)}),
]


def _pure(name: str) -> Callable[..., Any]:
    function: Callable[..., Any] = getattr(game, name)
    return getattr(function, "__wrapped__", function)


def _compiled(name: str) -> Callable[..., Any]:
    function: Callable[..., Any] = getattr(game, name)
    return function


@needs_compiled
def test_the_compiled_functions_stand_in_for_the_pure_ones() -> None:
    for name in NAMES:
        compiled = getattr(game, name)
        assert not isinstance(compiled, types.FunctionType), name
        assert getattr(pickomino_rules, name) is compiled, name
        assert compiled.__wrapped__.__module__ == "pickomino_rules._engine.steps"
        assert compiled.__doc__ == compiled.__wrapped__.__doc__
        assert compiled.__name__ == name
    for name in HOOKS:
        assert isinstance(getattr(turn, name), types.FunctionType), "turn is never rewritten"
        # the chains of rules no module changes are the core's own hooks, on either backend
        assert getattr(get_rules("classic"), name) is getattr(turn, name)
    assert get_rules("extended").chains["claims"][0] == "turn"


@pytest.mark.skipif(_kernel is None, reason="the compiled kernel was not built")
def test_pickomino_pure_keeps_the_pure_functions() -> None:
    script = (
        "import types, pickomino_rules as p, pickomino_rules.game as g\n"
        "from pickomino_rules._engine import ACTIVE, steps\n"
        f"names = {NAMES!r}\n"
        "print(all(getattr(g, n) is getattr(steps, n) for n in names),"
        " all(getattr(p, n) is getattr(g, n) for n in names),"
        f" all(getattr(p.get_rules('classic'), n) is getattr(p.turn, n) for n in {HOOKS!r}),"
        " ACTIVE.name, repr(ACTIVE.reason))"
    )
    env = {**os.environ, "PICKOMINO_PURE": "1"}
    shown = subprocess.run(  # noqa: S603 (this interpreter, a fixed script)
        [sys.executable, "-c", script], env=env, capture_output=True, text=True, check=True
    )
    assert shown.stdout.split()[:4] == ["True", "True", "True", "pure"]
    assert "PICKOMINO_PURE=1" in shown.stdout


def _same(rules: Rules, state: GameState, move: object) -> GameState | None:
    """``apply`` both ways: the same state, or the same error; the state reached, if any."""
    outcomes = []
    for apply in (_compiled("apply"), _pure("apply")):
        try:
            outcomes.append(("state", apply(rules, state, move)))
        except Exception as error:  # noqa: BLE001 (any error must be the same both ways)
            outcomes.append(("error", (type(error), str(error))))
    (kind, compiled), pure = outcomes
    assert (kind, compiled) == pure, (state, move)
    if kind != "state":
        return None
    assert type(compiled) is GameState
    assert compiled.layout is pure[1].layout
    return compiled


def _check_state(rules: Rules, state: GameState, rng: random.Random) -> None:
    """Every call at ``state``, both ways: offers, claims, each legal move, a chance draw."""
    offered = _compiled("legal_actions")(rules, state)
    assert offered == _pure("legal_actions")(rules, state)
    assert _compiled("stop_claims")(rules, state) == _pure("stop_claims")(rules, state)
    if state.phase is Phase.ROLL:
        seed = rng.random()
        first, second = random.Random(seed), random.Random(seed)
        drawn = _compiled("sample_chance")(rules, state, first)
        assert drawn is _pure("sample_chance")(rules, state, second)
        assert first.getstate() == second.getstate()
        moves = [drawn, *rng.sample(offered, min(5, len(offered)))]
    else:
        moves = list(offered)
    for move in moves:
        _same(rules, state, move)


@needs_compiled
@settings(max_examples=40)
@given(
    which=st.sampled_from(RULES),
    players=st.integers(2, 7),
    seed=st.integers(0, 2**32 - 1),
)
def test_c3_c13_both_paths_give_the_same_states_in_random_games(
    which: tuple[str, dict[str, object]], players: int, seed: int
) -> None:
    name, options = which
    rules, state = new_game(name, players=players, options=options)
    _play_both_ways(rules, state, random.Random(seed))


def _play_both_ways(rules: Rules, state: GameState, rng: random.Random) -> GameState:
    """A random game from ``state``, every state checked both ways (`_check_state`)."""
    while state.phase is not Phase.GAME_OVER:
        _check_state(rules, state, rng)
        state = _random_step(rules, state, rng)
    return state


def _random_step(rules: Rules, state: GameState, rng: random.Random) -> GameState:
    """A random legal move (or roll) applied both ways, which must agree."""
    if state.phase is Phase.ROLL:
        move: object = _pure("sample_chance")(rules, state, rng)
    else:
        move = rng.choice(_pure("legal_actions")(rules, state))
    after = _same(rules, state, move)
    assert after is not None
    return after


@needs_compiled
def test_two_games_of_different_rules_in_turn_are_each_played_by_their_rules() -> None:
    """The compiled path remembers the last rules it saw; switching must not mix them up."""
    games = [new_game(name, players=3, options=options) for name, options in RULES]
    rng = random.Random(7)
    states = [state for _, state in games]
    for _ in range(400):
        for index, ((rules, _), state) in enumerate(zip(games, states, strict=True)):
            if state.phase is not Phase.GAME_OVER:
                states[index] = _random_step(rules, state, rng)


def _reach(rules: Rules, state: GameState, phase: Phase, rng: random.Random) -> GameState:
    """Play ``state`` on at random until a state of ``phase``."""
    while state.phase is not phase:
        if state.phase is Phase.GAME_OVER:
            state = new_game(rules.name, players=state.players, options=rules.options)[1]
        elif state.phase is Phase.ROLL:
            state = game.apply(rules, state, game.sample_chance(rules, state, rng))
        else:
            state = game.apply(rules, state, rng.choice(game.legal_actions(rules, state)))
    return state


@needs_compiled
@pytest.mark.parametrize("seed", range(6))
def test_c4_c8_bad_moves_are_refused_alike_and_equal_moves_are_taken_alike(seed: int) -> None:
    rules, start = new_game("classic", players=3)
    other_rules, other = new_game("extended", players=3)
    rng = random.Random(seed)
    at_roll = _reach(rules, start, Phase.ROLL, rng)
    at_choose = _reach(rules, start, Phase.CHOOSE, rng)
    at_decide = _reach(rules, start, Phase.DECIDE, rng)
    assert at_choose.roll is not None
    rolled = at_choose.roll
    bad: list[tuple[GameState, object]] = [
        (at_roll, RollOutcome.parse("12")),  # too few dice
        (at_roll, RollOutcome.parse(str(_pure("sample_chance")(rules, at_roll, rng)))),  # equal
        (at_roll, ROLL),
        (at_roll, "11234455"),
        (at_roll, None),
        (at_choose, rolled),
        (at_choose, STOP),
        (at_choose, Take(Face.WORM)),
        (at_choose, Take(Face.ONE)),
        (at_choose, 3),
        (at_decide, Roll()),
        (at_decide, Stop()),
        (at_decide, Steal(1)),
        (at_decide, Steal(2)),
        (at_decide, Take(Face.THREE)),
        (at_decide, None),
        (other, ROLL),  # a state of another layout
    ]
    bad.extend((at_choose, Take(face)) for face in Face if rolled.count_of(face))
    # States built by hand are not checked; whatever they hold, both paths answer alike.
    unfilled = GameState.__new__(GameState)
    odd = [
        at_decide.replace(set_aside=(1, 2)),
        at_decide.replace(set_aside=(1, 1, 1, 1, 1, 1, 0)),  # seven counts: "0 in" differs
        at_decide.replace(set_aside=(0, 0, 0, 0, "1", 1)),  # type: ignore[arg-type]
        at_decide.replace(grill=[21, 22]),  # type: ignore[arg-type]
        at_decide.replace(grill=(24, 21), set_aside=(0, 1, 0, 0, 0, 4)),  # unsorted, total 22
        at_decide.replace(stacks=((), (21,), None)),  # type: ignore[arg-type]
        at_choose.replace(roll=None),
        at_choose.replace(roll="11234455"),
        at_choose.replace(set_aside=(0, 0)),
        at_roll.replace(in_hand=(9,)),
        unfilled,
    ]
    # Bad moves and arguments: the kernel raises the pure engine's errors itself, and takes
    # equal moves and any random.Random: nothing is handed over.
    _boundary.reset_declined()
    for state, move in bad:
        _same(rules, state, move)
    for state in (at_roll, at_choose, at_decide, other):
        for call, args in (("legal_actions", ()), ("stop_claims", ())):
            _same_call(call, rules, state, *args)
    _same_call("legal_actions", other_rules, at_roll)
    _same_call("legal_actions", "classic", at_roll)
    _same_call("legal_actions", rules, "a state")
    _same_call("apply", rules, "a state", ROLL)
    _same_call("sample_chance", rules, at_choose, rng)
    _same_call("sample_chance", rules, other, rng)
    _same_call("sample_chance", rules, at_roll, "a seed")
    _same_call("sample_chance", rules, at_roll, _Seeded(3))
    assert _boundary.fallbacks() == {}
    # What the kernel cannot read, the pure engine answers: a fallback, counted and warned of.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", RuntimeWarning)
        for state in odd:
            for move in (ROLL, STOP, Steal(1), *(Take(face) for face in Face), rolled):
                _same(rules, state, move)
            _same_call("legal_actions", rules, state)
            _same_call("stop_claims", rules, state)
            _same_call("sample_chance", rules, state, rng)
            _same_call("stop_outcomes", rules, state)
    assert _boundary.declined() > 0


class _Seeded(random.Random):
    """A subclass of ``random.Random``: handed to the pure function, which accepts it."""


def _same_call(name: str, *args: object) -> None:
    outcomes = []
    for function in (_compiled(name), _pure(name)):
        arguments = [random.Random(1) if isinstance(a, random.Random) else a for a in args]
        if isinstance(args[-1], _Seeded):
            arguments[-1] = _Seeded(3)
        try:
            outcomes.append(("value", function(*arguments)))
        except Exception as error:  # noqa: BLE001 (any error must be the same both ways)
            outcomes.append(("error", (type(error), str(error))))
    assert outcomes[0] == outcomes[1], (name, args)


def _double_scores(inner: Any, rules: Rules, state: GameState) -> tuple[int, ...]:
    return tuple(2 * score for score in inner(rules, state))


def _own_rules(**hooks: Any) -> Rules:
    """Classic with one more module that has ``hooks``."""
    classic = get_rules("classic")
    module = RuleModule(name="own", **hooks)
    return compose(*classic.modules, module, name="own", options=classic.options)


@needs_compiled
def test_a_module_wrapping_a_hook_of_the_turn_in_python_alone_takes_its_rules_off_the_row() -> None:
    """Such rules play on the pure engine (its hooks as they are); the others on the row."""
    assert _boundary.on_rows(get_rules("classic"))
    assert _boundary.on_rows(get_rules("classic", {"short_game": True}))  # O2's row twin
    assert _boundary.on_rows(_own_rules(scores=_double_scores))  # not a hook of the turn
    for hook in HOOKS:
        assert not _boundary.on_rows(_own_rules(**{hook: _through})), hook


def _through(inner: Any, *args: Any) -> Any:
    return inner(*args)


@needs_compiled
@pytest.mark.parametrize("seed", range(3))
def test_c3_c13_a_variant_that_adds_only_scores_plays_alike_both_ways(seed: int) -> None:
    rules = _own_rules(scores=_double_scores)
    state = _play_both_ways(rules, new_game(rules, players=3)[1], random.Random(seed))
    assert result(rules, state).scores == tuple(
        2 * sum(rules.worms[tile] for tile in stack) for stack in state.stacks
    )


def _no_state(inner: Any, rules: Rules, state: GameState) -> Any:  # noqa: ARG001
    return None  # a broken module: its end_turn gives back no state


def _listed_claims(inner: Any, rules: Rules, state: GameState, total: int) -> Any:
    return list(inner(rules, state, total))  # not the tuple the contract asks for


def _failing_roll_actions(inner: Any, rules: Rules, state: GameState) -> Any:
    if state.set_aside[Face.WORM - 1]:
        msg = "a module's bug"
        raise RuntimeError(msg)
    return inner(rules, state)


@needs_compiled
@pytest.mark.parametrize(
    "hooks",
    [
        {"end_turn": _no_state},
        {"claims": _listed_claims},
        {"roll_actions": _failing_roll_actions},
        {"pending_actions": _through, "end_turn": _through, "turn_dice": _through},
    ],
    ids=["end_turn_gives_none", "claims_as_a_list", "roll_actions_raises", "hooks_pass_through"],
)
def test_c3_c13_a_variant_s_hooks_are_called_alike_both_ways_even_when_they_misbehave(
    hooks: dict[str, Any],
) -> None:
    """The compiled path calls the hooks of any rules; what they give back, it hands on."""
    rules = _own_rules(**hooks)
    rng = random.Random(5)
    state = new_game(rules, players=3)[1]
    for _ in range(3000):
        if state.phase is Phase.GAME_OVER:
            break
        _check_state(rules, state, rng)
        if state.phase is Phase.ROLL:
            move: object = _pure("sample_chance")(rules, state, rng)
        else:
            move = rng.choice(_pure("legal_actions")(rules, state))
        after = _same(rules, state, move)
        if after is None:  # the module's error, raised alike both ways
            return
        state = after
    assert "end_turn" not in hooks or hooks["end_turn"] is _through, "the broken hook never ran"


@needs_compiled
def test_a_fallback_is_counted_and_warned_of_once_naming_the_function() -> None:
    """A state the kernel cannot read (a list for the grill) but the pure engine can."""
    rules, state = new_game("classic", players=2)
    state = game.apply(rules, state, RollOutcome.parse("11234ww5"))
    state = game.apply(rules, state, Take(Face.WORM))
    odd = state.replace(grill=list(state.grill))  # type: ignore[arg-type]
    _boundary.reset_declined()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        first = _compiled("legal_actions")(rules, odd)
        second = _compiled("legal_actions")(rules, odd)
    assert all(warning.category is RuntimeWarning for warning in caught)
    assert first == second == _pure("legal_actions")(rules, odd)
    named = [str(warning.message).split(" of ")[1].split()[0] for warning in caught]
    assert named == ["legal_actions"]  # once, though asked twice
    assert _boundary.fallbacks() == {"legal_actions": 2}
    assert _boundary.declined() == 2


_CALLS: list[GameState] = []  # the states a hook was called on


def _counted_failing_set_aside(inner: Any, rules: Rules, state: GameState, face: Face) -> Any:
    _CALLS.append(state)
    if face is Face.WORM:
        msg = "a module's bug"
        raise RuntimeError(msg)
    return inner(rules, state, face)


@needs_compiled
def test_a_module_s_hook_never_runs_twice_when_the_call_fails() -> None:
    """A module's hook in Python alone: its rules play on the pure engine, the error once."""
    rules = _own_rules(set_aside=_counted_failing_set_aside)
    state = new_game(rules, players=2)[1]
    state = _compiled("apply")(rules, state, RollOutcome.parse("11234ww5"))
    _boundary.reset_declined()
    _CALLS.clear()
    with pytest.raises(RuntimeError, match="a module's bug"):
        _compiled("apply")(rules, state, Take(Face.WORM))
    assert len(_CALLS) == 1
    assert _CALLS[0] is state
    _CALLS.clear()
    with pytest.raises(RuntimeError, match="a module's bug"):  # the pure engine: the same
        _pure("apply")(rules, state, Take(Face.WORM))
    assert len(_CALLS) == 1
    assert _CALLS[0] is state
    assert _boundary.fallbacks() == {}
