"""Every public call on any input answers or raises one of the library's errors: never a raw one.

Hypothesis builds odd states (fields of mid-game states of every built-in variant replaced by
junk of every kind) and calls each public entry point that reads a state: the engine's steps,
chance, claims, outcomes, busts, results, validation, positions, the encoding, the picture, the
solver, the bots, the analysis, the conformance kit and the batch engine. Each answers or raises
a `PickominoError` (the kit a `ConformanceError`) with a message of about 300 characters at most,
and the state is unchanged (it is immutable: equal and of equal hash before and after).

The whole suite runs on both engines (``PICKOMINO_PURE=1`` in CI's second pass). The default run
plays a few hundred states per group of calls; ``HYPOTHESIS_PROFILE=thorough`` 100,000.
"""

from __future__ import annotations

import functools
import os
import random
from functools import cache
from typing import TYPE_CHECKING, Any

import attrs
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pickomino_rules import (
    Action,
    GameState,
    Phase,
    RollOutcome,
    Rules,
    apply,
    chance_outcomes,
    is_terminal,
    legal_actions,
    new_game,
    playout,
    result,
    sample_chance,
    scores,
    step,
    stop_claims,
    stop_outcomes,
    validate,
)
from pickomino_rules.bots import get_bot, random_bot
from pickomino_rules.encoding import Encoding
from pickomino_rules.errors import PickominoError
from pickomino_rules.game import Bot, resolve_bust
from pickomino_rules.positions import Position
from pickomino_rules.testing import ConformanceError, check_state
from support import answered_within

if TYPE_CHECKING:
    from collections.abc import Callable

THOROUGH = os.environ.get("HYPOTHESIS_PROFILE") == "thorough"
EXAMPLES = int(os.environ.get("PICKOMINO_HOSTILE_EXAMPLES", "100000" if THOROUGH else "150"))
"""Odd states tried per group of calls (``PICKOMINO_HOSTILE_EXAMPLES`` sets another count)."""
LONGEST_MESSAGE = 400
"""About 300 characters: the library's own words around an abbreviated quote of the input."""

VARIANTS = ("classic", "extended", "extrawurm")
FIELDS = tuple(field.name for field in attrs.fields(GameState) if field.name != "layout")
"""Every field a state holds (the layout is the rules', checked on its own): each may be junk."""


@cache
def reached(variant: str) -> tuple[Rules, tuple[GameState, ...]]:
    """States of a random game of ``variant`` (3 players), every phase among them."""
    rules, start = new_game(variant, players=3)
    states = [after for _, after in playout(rules, start, random_bot, random.Random(3))]
    return rules, (start, *states[:: max(1, len(states) // 200)])


numbers = st.one_of(
    st.integers(-3, 40), st.integers(-(2**80), 2**80), st.sampled_from([2**63, -(2**63), 10**30])
)
junk: st.SearchStrategy[object] = st.deferred(
    lambda: st.one_of(
        st.none(),
        st.booleans(),
        numbers,
        st.floats(allow_nan=True, allow_infinity=True),
        st.text(max_size=8),
        st.binary(max_size=4),
        st.tuples(numbers),
        st.lists(numbers, max_size=8).map(tuple),
        st.lists(st.lists(numbers, max_size=3).map(tuple), max_size=8).map(tuple),
        st.lists(numbers, max_size=3),
        st.dictionaries(st.text(max_size=3), numbers, max_size=2),
        st.sampled_from(Phase),
        st.sampled_from(
            [RollOutcome.parse("11111111"), RollOutcome.parse("w"), object(), float("nan")]
        ),
        st.lists(junk, max_size=3).map(tuple),
    )
)


@st.composite
def odd_states(draw: st.DrawFn) -> tuple[Rules, GameState, GameState]:
    """A variant's rules, a state it reached, and that state with one or two fields junk."""
    rules, states = reached(draw(st.sampled_from(VARIANTS)))
    base = draw(st.sampled_from(states))
    changed = draw(st.lists(st.sampled_from(FIELDS), min_size=1, max_size=2, unique=True))
    fields: dict[str, Any] = {}
    for field in changed:
        if draw(st.integers(0, 4)) == 0:  # a sound field of another state of the game
            fields[field] = getattr(draw(st.sampled_from(states)), field)
        else:
            fields[field] = draw(junk)
    return rules, base, base.replace(**fields)


def call_on(name: str, call: Callable[[], object], allowed: tuple[type[Exception], ...]) -> None:
    """``call`` answers or raises an allowed error with a short message, in bounded time."""
    try:
        with answered_within(20):
            call()
    except allowed as error:
        message = str(error).splitlines()[0] if str(error) else ""
        assert len(message) <= LONGEST_MESSAGE, f"{name}: a message of {len(message)} characters"


def _rng() -> random.Random:
    return random.Random(1)


def _engine(rules: Rules, state: GameState, base: GameState) -> dict[str, Callable[[], object]]:
    moves = legal_actions(rules, base)
    move = moves[len(moves) // 2] if moves else None
    return {
        "legal_actions": lambda: legal_actions(rules, state),
        "apply": lambda: apply(rules, state, move) if move is not None else None,
        "step": lambda: step(rules, state, move, _rng()) if isinstance(move, Action) else None,
        "sample_chance": lambda: sample_chance(rules, state, _rng()),
        "chance_outcomes": lambda: chance_outcomes(rules, state),
        "is_terminal": lambda: is_terminal(rules, state),
        "validate": lambda: validate(rules, state),
    }


def _turn_ends(rules: Rules, state: GameState, _: GameState) -> dict[str, Callable[[], object]]:
    return {
        "stop_claims": lambda: stop_claims(rules, state),
        "stop_outcomes": lambda: stop_outcomes(rules, state),
        "resolve_bust": lambda: resolve_bust(rules, state),
        "scores": lambda: scores(rules, state),
        "result": lambda: result(rules, state),
    }


def _views(rules: Rules, state: GameState, _: GameState) -> dict[str, Callable[[], object]]:
    from pickomino_rules import svg  # noqa: PLC0415 (the picture)
    from pickomino_rules.terminal import render_table  # noqa: PLC0415 (the cli extra)

    encoding = Encoding.of(rules, 3)
    return {
        "str": lambda: str(state),
        "repr": lambda: repr(state),
        "position line": lambda: str(Position(rules, state)),
        "position json": lambda: Position(rules, state).to_json(),
        "observe": lambda: encoding.observe(state, 0),
        "legal_mask": lambda: encoding.legal_mask(state),
        "svg": lambda: svg.draw(rules, state),
        "table": lambda: render_table(rules, state),
    }


def _players(rules: Rules, state: GameState, _: GameState) -> dict[str, Callable[[], object]]:
    from pickomino_rules.solver import solve_turn  # noqa: PLC0415 (numpy)
    from pickomino_rules.terminal import hint_lines  # noqa: PLC0415

    calls: dict[str, Callable[[], object]] = {
        "solve_turn": lambda: solve_turn(rules, state),
        "hint_lines": lambda: hint_lines(rules, state),
    }
    for name in ("random", "greedy", "optimal", "margin", "champion", "ppo"):
        calls[name] = _playing(get_bot(name), rules, state)
    return calls


def _playing(bot: Bot, rules: Rules, state: GameState) -> Callable[[], object]:
    return lambda: bot(rules, state, _rng())


def _batch(rules: Rules, state: GameState, _: GameState) -> dict[str, Callable[[], object]]:
    from pickomino_rules.batch import BatchGames  # noqa: PLC0415 (the batch extra)

    if rules.name != "classic":  # the batch engine plays classic (its own error otherwise)
        return {"batch": lambda: BatchGames(2, 3, variant=rules.name)}
    games = BatchGames(2, 3, seed=1)
    return {"set_state": lambda: games.set_state(0, state)}


GROUPS = {
    "engine": _engine,
    "turn ends and results": _turn_ends,
    "views": _views,
    "players": _players,
    "batch": _batch,
}


# An odd state is one the compiled engine may hand to the pure engine (it warns once that it
# fell back); that is its documented behaviour there, not what this test looks at.
@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("group", sorted(GROUPS))
@settings(
    max_examples=EXAMPLES,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(case=odd_states())
def test_every_public_call_on_an_odd_state_raises_only_the_library_errors(
    group: str, case: tuple[Rules, GameState, GameState]
) -> None:
    rules, base, state = case
    before = (state, hash(state)) if _hashable(state) else None
    for name, call in GROUPS[group](rules, state, base).items():
        call_on(name, call, (PickominoError,))
    if before is not None:
        assert (state, hash(state)) == before  # nothing was changed


@settings(max_examples=EXAMPLES // 5, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=odd_states())
def test_the_kit_on_an_odd_state_reports_a_conformance_failure(
    case: tuple[Rules, GameState, GameState],
) -> None:
    rules, _, state = case
    call_on("check_state", lambda: check_state(rules, state), (ConformanceError, PickominoError))


def _hashable(state: GameState) -> bool:
    try:
        hash(state)
    except TypeError:
        return False
    return True


def test_a_state_whose_counts_are_astronomic_is_refused_at_once() -> None:
    """The shape check bounds the work before anything walks the dice (never a hang)."""
    rules, states = reached("classic")
    astronomic: tuple[tuple[str, Any], ...] = (
        ("set_aside", (10**18,) * 6),
        ("in_hand", (2**62,)),
        ("player", 10**40),
    )
    for field, value in astronomic:
        odd = states[5].replace(**{field: value})
        for name, call in {**_views(rules, odd, odd), **_players(rules, odd, odd)}.items():
            call_on(name, call, (PickominoError,))


@pytest.mark.filterwarnings("ignore::RuntimeWarning")
@pytest.mark.parametrize("engine", ["pure", "compiled"])
def test_an_observation_of_a_state_holding_no_numbers_is_the_librarys_error(
    engine: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Both engines' observations: text or nested tuples where counts belong raise ours.

    The pure engine writes the state's values into a list that numpy converts at the end
    (once this conversion raised numpy's own ``ValueError``); the compiled one converts each.
    Both paths are the encoding's own, chosen at import by the engine in use: this test takes
    each in turn in one process.
    """
    from pickomino_rules import encoding  # noqa: PLC0415
    from pickomino_rules._engine import PURE, compiled_backend  # noqa: PLC0415

    backend = PURE if engine == "pure" else compiled_backend()
    if backend is None:
        pytest.skip("the compiled kernel was not built")
    monkeypatch.setattr(encoding, "_OBSERVE_INTO", backend.observe_into)
    monkeypatch.setattr(encoding, "_INTO_ARRAYS", backend.compiled)
    no_numbers: tuple[object, ...] = (":", "ab", ("x",), ((1, 2),), ([3],), (None,), b"\x01")
    tried = 0
    for variant in VARIANTS:
        rules, states = reached(variant)
        coder = Encoding.of(rules, 3)
        for state in states[::20]:
            for field in ("in_hand", "set_aside", "stacks", "grill", "face_down", "player"):
                for value in no_numbers:
                    tried += 1
                    odd = state.replace(**{field: value})  # type: ignore[arg-type]
                    call_on(field, functools.partial(coder.observe, odd, 0), (PickominoError,))
    assert tried > 500
