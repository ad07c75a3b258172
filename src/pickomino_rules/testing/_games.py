"""Play and the invariants of every state: seeded random games, each state checked.

The other checks look at the games played here (cached: they share them).
"""

from __future__ import annotations

import random
from functools import cache
from typing import TYPE_CHECKING, NoReturn

from pickomino_rules.actions import Action
from pickomino_rules.errors import (
    ConformanceError,
    brief,
)
from pickomino_rules.game import (
    apply,
    legal_actions,
    new_game,
    playout,
)
from pickomino_rules.result import result
from pickomino_rules.state import GameState, Phase
from pickomino_rules.validation import problems

if TYPE_CHECKING:
    from pickomino_rules.game import Move
    from pickomino_rules.rules import Rules


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
