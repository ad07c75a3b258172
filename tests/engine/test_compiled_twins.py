"""The built-in variants' compiled twins are a declared mirror of their modules' hooks.

``pickomino_rules.variants.twins._compiled.MIRRORS`` names the module hook (or extension) each
twin mirrors, ``UNMIRRORED`` the ones left to Python and why. Here the map is checked both ways
against the modules, ``compose`` is shown to put each twin where its hook goes (and to refuse
a twin of a hook a module lacks), and every variant is played with the twins (compiled engine)
and with the modules' Python hooks (pure engine), state for state, move for move, scores and
all: 60 games of each variant and option set by default, 1,000 in the thorough profile
(``HYPOTHESIS_PROFILE=thorough``). ``test_kernel_mirror.py`` compares every node of whole turns
the same way.
"""

from __future__ import annotations

import os
import random
from typing import TYPE_CHECKING, Any

import pytest

from pickomino_rules import Phase, available_variants, get_rules, new_game, result
from pickomino_rules._engine import PURE, compiled_backend
from pickomino_rules.errors import CompositionError
from pickomino_rules.plugin import HOOKS, CompiledTwins, PartKey, RuleModule, _compose
from support import option_sets

if TYPE_CHECKING:
    from pickomino_rules import GameState, Rules
    from pickomino_rules._engine import Backend

try:
    from pickomino_rules.compiled_plugin import HookTwin
    from pickomino_rules.variants.twins import _compiled
except ImportError:  # built without a C compiler: nothing to mirror
    _compiled = None  # type: ignore[assignment]

COMPILED = compiled_backend()
GAMES = 1000 if os.environ.get("HYPOTHESIS_PROFILE") == "thorough" else 60  # per case
needs_twins = pytest.mark.skipif(
    COMPILED is None or _compiled is None, reason="the compiled twins were not built"
)


def _modules_with_twins() -> dict[str, RuleModule]:
    found: dict[str, RuleModule] = {}
    for variant in available_variants():
        for options in option_sets(variant):  # (the classic options' modules are optional)
            modules = get_rules(variant, options).modules
            found.update({module.name: module for module in modules if module.compiled})
    return found


def _what_it_has(module: RuleModule) -> set[str]:
    """The module's hooks by name, and the extension points it provides or extends."""
    hooks = {hook for hook in HOOKS if getattr(module, hook) is not None}
    points = {point.name for point in module.provides}
    points |= {extension.point.name for extension in module.extends}
    if module.part is not None and module.part.observe is not None:
        points.add("observe")  # the part's features for the numeric encoding
    return hooks | points


@needs_twins
def test_the_map_of_twins_is_complete_both_ways() -> None:
    modules = _modules_with_twins()
    assert set(modules) >= {"grilled_worms", "low_tiles", "specialists", "hen", "can"}
    twin_classes = {
        name
        for name, value in vars(_compiled).items()
        if isinstance(value, type) and issubclass(value, HookTwin) and not name.startswith("_")
    }
    assert twin_classes == set(_compiled.MIRRORS), "a twin without its entry, or one that is gone"
    mirrored = set(_compiled.MIRRORS.values())
    for module_name, hook in mirrored | set(_compiled.UNMIRRORED):
        assert module_name in modules, module_name
        assert hook in _what_it_has(modules[module_name]), (module_name, hook)
    assert not mirrored & set(_compiled.UNMIRRORED), "mirrored and left to Python at once"
    for name, module in modules.items():
        assert module.compiled is not None
        handed = {
            key if isinstance(key, str) else "observe" if isinstance(key, PartKey) else key.name
            for key in module.compiled()
        }
        assert handed == {hook for owner, hook in mirrored if owner == name}, name
        every = {(name, what) for what in _what_it_has(module)}
        left = every - mirrored - set(_compiled.UNMIRRORED)
        assert not left, f"neither mirrored nor declared left to Python: {sorted(left)}"


@needs_twins
def test_compose_puts_each_twin_where_its_hook_goes() -> None:
    assert COMPILED is not None
    rules = _rules("extended", {}, COMPILED)
    assert isinstance(rules.bust, _compiled.HenBust)
    assert isinstance(rules.bust.inner, _compiled.SpecialistsBust)
    assert isinstance(rules.roll_actions, _compiled.WeaselRollActions)
    assert isinstance(rules.set_aside, _compiled.GrilledWormsSetAside)
    assert rules.chains["bust"][-2:] == ("specialists", "hen")
    pure = _rules("extended", {}, PURE)
    assert not isinstance(pure.bust, HookTwin)  # the pure engine runs the Python hooks


def _lacking_twin() -> CompiledTwins:
    return {"bust": lambda inner: inner}


@needs_twins
def test_a_twin_of_a_hook_the_module_lacks_is_refused() -> None:
    classic = get_rules("classic")
    module = RuleModule(name="odd", compiled=_lacking_twin)
    assert COMPILED is not None
    with pytest.raises(CompositionError, match="'odd' has a compiled twin of 'bust'"):
        _compose([*classic.modules, module], "odd", {}, COMPILED)
    _compose([*classic.modules, module], "odd", {}, PURE)  # the pure engine never asks


def _missing_extension() -> CompiledTwins:
    raise ImportError  # as where the twins' extension was not built


@needs_twins
def test_a_module_whose_twins_were_not_built_runs_its_python_hooks() -> None:
    classic = get_rules("classic")
    module = RuleModule(name="mine", bust=_through, compiled=_missing_extension)
    assert COMPILED is not None
    rules = _compose([*classic.modules, module], "mine", {}, COMPILED)
    assert not isinstance(rules.bust, HookTwin)
    assert rules.bust.func is _through  # type: ignore[attr-defined]


def _through(inner: Any, *args: Any) -> Any:
    return inner(*args)


def _rules(variant: str, options: dict[str, object], backend: Backend) -> Rules:
    registered = get_rules(variant, options)
    return _compose(registered.modules, registered.name, registered.options, backend)


def _play_both(variant: str, options: dict[str, object], players: int, seed: int) -> GameState:
    """One random game on both engines with the same dice and moves; every step compared."""
    assert COMPILED is not None
    twins, hooks = _rules(variant, options, COMPILED), _rules(variant, options, PURE)
    state, other = new_game(twins, players=players)[1], new_game(hooks, players=players)[1]
    assert state == other
    rng = random.Random(seed)
    while state.phase is not Phase.GAME_OVER:
        moves = COMPILED.legal_actions(twins, state)
        assert moves == PURE.legal_actions(hooks, other), state
        if state.phase is Phase.DECIDE:
            assert COMPILED.stop_claims(twins, state) == PURE.stop_claims(hooks, other)
        if state.phase is Phase.ROLL:
            move = COMPILED.sample_chance(twins, state, rng)
        else:
            move = moves[rng.randrange(len(moves))]
        state, other = COMPILED.apply(twins, state, move), PURE.apply(hooks, other, move)
        assert state == other, (move, state)
    assert result(twins, state) == result(hooks, other)
    return state


CASES = [
    (variant, options)
    for variant in available_variants()
    if variant != "classic"
    for options in option_sets(variant)
]


@needs_twins
@pytest.mark.parametrize(("variant", "options"), CASES)
def test_every_variant_plays_alike_with_its_twins_and_its_hooks(
    variant: str, options: dict[str, object]
) -> None:
    for seed in range(GAMES):
        _play_both(variant, options, players=2 + seed % 4, seed=seed)
