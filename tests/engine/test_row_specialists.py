"""The specialists on the row (E2, E5-E13): every hook of the turn in one compiled layer.

The specialists' twins have row forms: their places ride in the row's slots
(``SpecialistSlots``, one tile and one owner per specialist declared, so the width depends on
the rules), the weasel's use in one more (``WeaselSlots``); the hooks ``stop_total`` (the
can), ``take_tile`` (gaining, the hen), ``roll_actions``, ``apply_action`` and ``end_turn``
(the weasel), ``turn_dice`` (the golden die) and the points ``GAIN`` (the crow),
``RETURNED_ON_BUST`` and ``GRILLED_WORM_VICTIMS`` (the hen) all run on the row. Here the
extended and Extrawurm games play on the one-row table against the pure engine, move for move.
"""

from __future__ import annotations

import random
from typing import TYPE_CHECKING

import attrs
import pytest

from pickomino_rules import Phase, apply, get_rules, legal_actions, new_game
from pickomino_rules import sample_chance as sample
from pickomino_rules._engine import ACTIVE, steps
from pickomino_rules.plugin import RuleModule, compose
from pickomino_rules.variants.classic import CLASSIC_OPTIONS, classic_modules
from pickomino_rules.variants.grilled_worms import RobGrilledWorm
from pickomino_rules.variants.specialists import (
    SPECIALISTS,
    KeepSpecialist,
    Place,
    SkipWeasel,
    Specialists,
    UseWeasel,
    can,
    hen,
    specialists,
    weasel,
)
from support import checked_game, option_sets

if TYPE_CHECKING:
    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

try:
    from pickomino_rules import compiled_plugin
    from pickomino_rules._engine import _boundary, _row
except ImportError:  # built without a C compiler
    _row = None  # type: ignore[assignment]

pytestmark = pytest.mark.skipif(
    _row is None or not ACTIVE.compiled, reason="the compiled engine is not active"
)

_SEEN = (UseWeasel, SkipWeasel, KeepSpecialist, RobGrilledWorm)


def _random_game(rules: Rules, players: int, seed: int, seen: dict[type, int]) -> int:
    """A random game checked against the pure engine (``checked_game``); the moves the row
    answered. ``seen`` counts the modules' actions the row answered, by class."""

    def moved(move: object, answered: bool) -> None:
        if answered and isinstance(move, _SEEN):
            seen[type(move)] = seen.get(type(move), 0) + 1

    return checked_game(rules, players, seed, moved=moved)


@pytest.mark.parametrize("variant", ["extended", "extrawurm"])
@pytest.mark.parametrize("options", option_sets("extended", "11wwww"), ids=str)
def test_the_specialists_play_on_the_row_as_the_pure_engine(
    variant: str, options: dict[str, object]
) -> None:
    """E5-E13 on the row: gained, kept, returned, moved; the weasel, the hen, the crow."""
    if variant == "extrawurm":
        options = {k: v for k, v in options.items() if "low_tile" not in k}
    rules = get_rules(variant, options)
    assert ACTIVE.on_rows(rules)
    declined = _boundary.declined()
    seen: dict[type, int] = {}
    answered = 0
    for players in (2, 3, 5):
        for seed in range(8):
            answered += _random_game(rules, players, seed, seen)
    assert answered > 0
    # the modules' own decisions were met and answered on the row (the weasel's skip is
    # rare in random play: see the next test; O2's games are too short to meet them)
    if not options.get("short_game"):
        assert seen.get(UseWeasel, 0) > 0
        assert seen.get(KeepSpecialist, 0) > 0
    assert _boundary.declined() == declined


def test_the_weasel_accepts_a_bust_on_the_row() -> None:
    """E10: offered a busting roll, the weasel's owner may accept the bust; the row answers
    it and the turn ends as in the pure engine."""
    rules = get_rules("extended")
    skipped = 0
    for seed in range(200):
        _rules, state = new_game(rules, players=3)
        rng = random.Random(seed)
        while state.phase is not Phase.GAME_OVER:
            legal = legal_actions(rules, state)
            skip = next((a for a in legal if isinstance(a, SkipWeasel)), None)
            move: object = (
                sample(rules, state, rng)
                if state.phase is Phase.ROLL
                else skip
                if skip is not None
                else rng.choice(legal)
            )
            before = _row.played()
            after = apply(rules, state, move)  # type: ignore[arg-type]
            assert after == steps.apply(rules, state, move), (state, move)  # type: ignore[arg-type]
            if skip is not None:
                assert _row.played() == before + 1
                assert after.player != state.player or after.phase is Phase.GAME_OVER
                skipped += 1
            state = after
        if skipped >= 5:
            break
    assert skipped >= 5


def _few_specialists() -> Rules:
    """Classic with two specialists only: the specialists' slots are as wide as the rules."""
    resolved = {option.name: option.default for option in CLASSIC_OPTIONS}
    modules = [*classic_modules(resolved), specialists(), can(), hen(), weasel()]
    return compose(*modules, name="few specialists", options=resolved)


def test_the_specialists_slots_are_as_many_as_the_rules_declare() -> None:
    rules = _few_specialists()
    table = compiled_plugin.row_table(rules)
    assert table.complete
    widths = {codec.key.name: codec.width(2) for codec in table.codecs if codec is not None}
    assert widths == {"specialists": 1 + 2 * 3, "weasel": 1}
    extended = compiled_plugin.row_table(get_rules("extended"))
    assert {c.key.name: c.width(2) for c in extended.codecs if c is not None} == {
        "specialists": 1 + 2 * 6,
        "weasel": 1,
        "grilled_worms": 2 + 2 * 2,
    }
    seen: dict[type, int] = {}
    assert sum(_random_game(rules, players, seed, seen) for players in (2, 4) for seed in range(8))
    assert seen.get(UseWeasel, 0) > 0


def _codec(rules: Rules) -> compiled_plugin.PartSlots:
    table = compiled_plugin.row_table(rules)
    (codec,) = [c for c in table.codecs if c is not None and c.key is SPECIALISTS]
    return codec


def _table(rules: Rules, players: int = 3) -> Specialists:
    _rules, state = new_game(rules, players=players)
    return SPECIALISTS.get(rules, state)


def test_the_specialists_codec_holds_every_place_a_game_reaches() -> None:
    rules = get_rules("extended")
    codec = _codec(rules)
    _rules, state = new_game(rules, players=4)
    rng = random.Random(3)
    tables = set()
    while state.phase is not Phase.GAME_OVER:
        tables.add(SPECIALISTS.get(rules, state))
        legal = legal_actions(rules, state)
        move = sample(rules, state, rng) if state.phase is Phase.ROLL else rng.choice(legal)
        state = apply(rules, state, move)
    assert len(tables) > 3
    for table in tables:
        assert codec.round_trip(table, 4) == table


@pytest.mark.parametrize(
    "change",
    [
        lambda t: attrs.evolve(t, places=(Place(tile=21, owner=0), *t.places[1:])),  # two places
        lambda t: attrs.evolve(t, places=(Place(tile=99), *t.places[1:])),  # not a tile
        lambda t: attrs.evolve(t, places=(Place(owner=7), *t.places[1:])),  # no such player
        lambda t: attrs.evolve(t, places=(Place(tile="21"), *t.places[1:])),  # type: ignore[arg-type]
        lambda t: attrs.evolve(t, chooser=5),  # no such player
        lambda t: Specialists(t.specs[1:], t.places[1:]),  # not these rules' specialists
        lambda t: t.places,  # not the part at all
    ],
    ids=["two places", "tile", "owner", "tile text", "chooser", "specs", "kind"],
)
def test_the_specialists_codec_refuses_what_no_row_holds(change: object) -> None:
    """A state the row cannot hold is refused (the object path then plays it)."""
    rules = get_rules("extended")
    table = _table(rules)
    with pytest.raises(ValueError, match=r"."):
        _codec(rules).round_trip(change(table), 3)  # type: ignore[operator]


def test_a_specialist_module_with_a_python_hook_keeps_the_rules_off_the_row() -> None:
    """A module wrapping a turn's hook in Python alone: the whole rules play the object path."""

    def stop_total(inner: object, rules: Rules, state: GameState) -> int | None:
        return inner(rules, state)  # type: ignore[operator,no-any-return]

    resolved = {option.name: option.default for option in CLASSIC_OPTIONS}
    modules = [
        *classic_modules(resolved),
        specialists(),
        can(),
        RuleModule(name="plain_total", stop_total=stop_total),
    ]
    rules = compose(*modules, name="plain total", options=resolved)
    assert not compiled_plugin.row_table(rules).complete
    assert not ACTIVE.on_rows(rules)
    seen: dict[type, int] = {}
    assert _random_game(rules, 3, 1, seen) == 0


@pytest.mark.parametrize("variant", ["classic", "extended", "extrawurm"])
def test_the_row_numbers_actions_as_the_encoding_does(variant: str) -> None:
    """The rows' action numbers are `info.game_info`'s (the encodings' too), read, not
    restated: each class's first number (``action_starts``) starts its own actions."""
    from pickomino_rules.encoding import Encoding  # noqa: PLC0415 (numpy, an extra)
    from pickomino_rules.info import game_info  # noqa: PLC0415

    rules = get_rules(variant)
    for players in (2, 5):
        info = game_info(rules, players)
        layout = compiled_plugin.row_table(rules).action_layout(rules, players)
        assert layout == list(info.action_starts)
        assert len(layout) == len(rules.action_types)
        encoding = Encoding.of(rules, players)
        for kind, start in zip(rules.action_types, layout, strict=True):
            first = kind.instances(rules, players)[0]
            assert info.actions[start] == first
            assert encoding.encode(first) == start
