"""Modules' parts and pending decisions in the batch's compiled loop (E4-E13).

The grilled worms' and the specialists' twins have row forms and their parts codecs
(``GrilledWormSlots``, ``SpecialistSlots``, ``WeaselSlots``), so the classic modules with the
grilled worms, the low tiles and the specialists (the extended game; the golden die adds a
second kind of dice) play in the batch's compiled loop: the parts in the table's slots, which
the numpy twins (set-up, scores, observation, conversion) read as views. Here those rules play
against the reference engine (``check_twins``: every state, legal mask and observation) and
against the numpy step machine with the same seed and actions (the same dice, in the same
order).
"""

from __future__ import annotations

import itertools
from typing import TYPE_CHECKING

import attrs
import numpy as np
import pytest
from batch_replay import LIGHT, THOROUGH

from pickomino_rules import get_rules
from pickomino_rules.batch import BatchGames, check_twins
from pickomino_rules.batch._compiled import LOOPS
from pickomino_rules.batch_bots import random_actions
from pickomino_rules.encoding import Encoding
from pickomino_rules.plugin import compose
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_modules
from pickomino_rules.variants.grilled_worms import RobGrilledWorm, grilled_worms
from pickomino_rules.variants.low_tiles import low_tiles
from pickomino_rules.variants.specialists import apple, can, crow, hen, specialists, weasel

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules

pytestmark = pytest.mark.skipif(LOOPS is None, reason="the batch's compiled loops are not built")

_O1_O3 = ("flip_on_empty_bust", "short_game", "optional_steal")


def _worm_rules(values: tuple[bool, ...], *, low: bool) -> Rules:
    options = {option.name: option.default for option in CLASSIC_OPTIONS}
    options |= dict(zip(_O1_O3, values, strict=True))
    modules = [*classic_modules(options), grilled_worms()]
    if low:
        modules.append(low_tiles(worms=(1, 2), exclusive=True))
    return compose(*modules, name="worms", options=options)


def _specialist_rules(values: tuple[bool, ...]) -> Rules:
    """The extended game's modules but the golden die: one kind of dice."""
    options = {option.name: option.default for option in CLASSIC_OPTIONS}
    options |= dict(zip(_O1_O3, values, strict=True))
    modules = [
        *classic_modules(options),
        grilled_worms(),
        low_tiles(worms=(1, 2), exclusive=True),
        specialists(),
        *(make() for make in (can, hen, crow, weasel, apple)),
    ]
    return compose(*modules, name="specialists", options=options)


@pytest.mark.parametrize("values", list(itertools.product((False, True), repeat=3)), ids=str)
def test_the_specialists_play_in_the_compiled_loop_as_the_reference(
    values: tuple[bool, ...],
) -> None:
    rules = _specialist_rules(values)
    games = BatchGames(4, 3, variant=rules, seed=1)
    assert games._fused is not None  # noqa: SLF001 (the path under test)
    for name in ("specialists", "weasel", "grilled_worms"):
        part = games.table.parts[name]
        assert all(np.shares_memory(a, games._slots) for a in part.values())  # noqa: SLF001
    games_each = 100 if THOROUGH else 3 if LIGHT else 10
    for players in (2, 5):
        assert check_twins(rules, games=games_each, players=players, seed=players) >= games_each


CASES = [
    (values, low) for values in itertools.product((False, True), repeat=3) for low in (False, True)
]


@pytest.mark.parametrize(("values", "low"), CASES, ids=str)
def test_the_grilled_worms_play_in_the_compiled_loop_as_the_reference(
    values: tuple[bool, ...], *, low: bool
) -> None:
    rules = _worm_rules(values, low=low)
    games = BatchGames(4, 3, variant=rules, seed=1)
    assert games._fused is not None  # noqa: SLF001 (the path under test)
    tokens = games.table.parts["grilled_worms"]
    assert all(np.shares_memory(array, games._slots) for array in tokens.values())  # noqa: SLF001
    games_each = 100 if THOROUGH else 3 if LIGHT else 10
    for players in (2, 5):
        assert check_twins(rules, games=games_each, players=players, seed=players) >= games_each


def _robs(rules: Rules, players: int) -> set[int]:
    encoding = Encoding.of(rules, players)
    return {encoding.encode(RobGrilledWorm(p)) for p in range(players)}


@pytest.mark.parametrize("players", [3, 4])
@pytest.mark.parametrize("kind", ["worms", "specialists", "extended"])
def test_the_compiled_loop_plays_as_the_numpy_step_machine(players: int, kind: str) -> None:
    """Same seed, same actions: the same dice in the same order (the golden die's drawn after
    the white ones, as the numpy step machine draws them), the same table, masks, pending
    rows, claims and scores, step after step, with robberies among the moves."""
    if kind == "worms":
        rules = _worm_rules((False, False, True), low=True)
    elif kind == "specialists":
        rules = _specialist_rules((False, False, True))
    else:
        rules = get_rules("extended")
    rolls: dict[str, list[tuple[list[int], list[list[int]]]]] = {"loop": [], "numpy": []}
    size, steps = (60, 120) if LIGHT else (300, 400)
    fused = BatchGames(size, players, variant=rules, seed=7)
    numpy_ = BatchGames(size, players, variant=rules, seed=7)
    numpy_._fused = None  # noqa: SLF001 (the numpy step machine, from the first decision on)
    for name, games in (("loop", fused), ("numpy", numpy_)):
        games.on_roll = lambda rows, counts, log=rolls[name]: log.append(
            (rows.tolist(), counts.tolist())
        )
    robs, robbed = _robs(rules, players), 0
    rng = np.random.default_rng(3)
    for _ in range(steps):
        mask = fused.legal_mask()
        assert np.array_equal(mask, numpy_.legal_mask())
        assert np.array_equal(fused._pending, numpy_._pending)  # noqa: SLF001
        mine, theirs = attrs.asdict(fused.arrays), attrs.asdict(numpy_.arrays)
        assert all(np.array_equal(mine[name], theirs[name]) for name in mine)
        actions = random_actions(fused, rng)
        robbed += int(np.isin(actions, list(robs)).sum())
        fused.step(actions)
        numpy_.step(actions)
        assert rolls["loop"] == rolls["numpy"]
        assert np.array_equal(fused.scores(), numpy_.scores())
        assert np.array_equal(fused.observe(), numpy_.observe())
    assert robbed > 0
    assert fused.states() == numpy_.states()


def test_scores_after_leaves_the_slots_as_they_were() -> None:
    rules = _worm_rules((False, False, True), low=False)
    games = BatchGames(200, 3, variant=rules, seed=2)
    rng = np.random.default_rng(2)
    for _ in range(60):
        games.step(random_actions(games, rng))
    before = games.states()
    held = games._slots  # noqa: SLF001
    assert held is not None
    slots = held.copy()
    games.scores_after(random_actions(games, rng))
    assert np.array_equal(held, slots)
    assert games.states() == before
