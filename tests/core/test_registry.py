"""Variants as plug-ins: entry points, run-time registration, composition."""

from __future__ import annotations

from typing import TYPE_CHECKING

import pytest

from pickomino_rules import (
    WHITE,
    Components,
    GameState,
    InvalidSetupError,
    RuleModule,
    Rules,
    UnknownVariantError,
    Variant,
    available_variants,
    compose,
    get_variant,
    new_game,
    register_variant,
    registry,
    scores,
    unregister_variant,
)
from support import TINY_VARIANT, installed_plugin, run

if TYPE_CHECKING:
    from collections.abc import Iterator
    from pathlib import Path

    from pickomino_rules.rules import ScoresFn

PLUGIN = TINY_VARIANT


@pytest.fixture
def plugin_on_path(tmp_path: Path) -> Iterator[None]:
    """A third-party distribution that registers variant 'tiny' by entry point."""
    with installed_plugin(tmp_path, PLUGIN):
        yield


def test_classic_comes_from_the_entry_point_group() -> None:
    from importlib.metadata import entry_points  # noqa: PLC0415

    names = {point.name for point in entry_points(group=registry.ENTRY_POINT_GROUP)}
    assert "classic" in names
    assert get_variant("classic").name == "classic"


@pytest.mark.usefixtures("plugin_on_path")
def test_a_third_party_entry_point_registers_a_variant() -> None:
    assert "tiny" in available_variants()
    rules, state = new_game("tiny", players=2)
    assert rules.tiles == (5, 10)
    assert state.in_hand == (2,)
    state = run(rules, state, ["w1", "take w", "stop"])  # 5 points: the 5 tile
    assert state.stacks == ((5,), ())


def test_register_variant_at_run_time_and_compose_modules() -> None:
    def double_worms(inner: ScoresFn, rules: Rules, state: GameState) -> tuple[int, ...]:
        return tuple(2 * worms for worms in inner(rules, state))

    from pickomino_rules.variants.classic import classic_modules  # noqa: PLC0415

    doubled = Variant(
        name="doubled",
        doc="Classic, every worm counts twice.",
        options=get_variant("classic").options,
        build=lambda options: [
            *classic_modules(options),
            RuleModule(name="double", scores=double_worms),
        ],
    )
    register_variant(doubled)
    try:
        with pytest.raises(InvalidSetupError, match="already registered"):
            register_variant(doubled)
        rules, state = new_game("doubled", players=2)
        state = state.replace(stacks=((21, 36), ()), grill=state.grill[1:-1])
        assert scores(rules, state) == (10, 0)
    finally:
        unregister_variant("doubled")
    with pytest.raises(UnknownVariantError):
        get_variant("doubled")


def test_compose_rejects_broken_components_and_duplicate_names() -> None:
    module = RuleModule(
        name="c",
        configure=lambda _: Components(tiles=(1,), worms=((1, 1),), die_kinds=(WHITE,), dice=(1,)),
    )
    assert compose(module).tiles == (1,)
    with pytest.raises(InvalidSetupError, match="distinct names"):
        compose(module, module)
    with pytest.raises(InvalidSetupError, match="tiles"):
        compose(RuleModule(name="empty"))
    with pytest.raises(InvalidSetupError, match="options go with a variant name"):
        new_game(compose(module), players=2, options={"short_game": True})
