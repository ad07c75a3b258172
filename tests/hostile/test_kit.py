"""The conformance kit names the module at fault for a broken plug-in, and never fails raw."""

from __future__ import annotations

import random
import re
from typing import TYPE_CHECKING, Any

import pytest

from pickomino_rules import Claim, CompositionError, GameState, RuleModule, Variant, testing
from pickomino_rules.actions import STOP
from pickomino_rules.testing import RETURNS, ConformanceError, check_variant
from pickomino_rules.variants.classic import CLASSIC, classic_modules

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from pickomino_rules.rules import Rules

_draws = random.Random(1)  # a hook that draws from it is not deterministic


def _returns(value: object) -> Callable[..., object]:
    def hook(inner: Callable[..., object], rules: Rules, state: GameState, *more: object) -> object:
        inner(rules, state, *more)
        return value

    return hook


def _listed(inner: Callable[..., Any], rules: Rules, state: GameState, *more: object) -> object:
    return list(inner(rules, state, *more))


def _offers_stop(inner: Callable[..., Any], rules: Rules, state: GameState) -> object:
    return (*inner(rules, state), STOP)


def _raises(error: Exception) -> Callable[..., object]:
    def hook(*_arguments: object) -> object:
        raise error

    return hook


def _one_short(inner: Callable[..., Any], rules: Rules, state: GameState) -> object:
    return inner(rules, state)[1:]


def _drops_steals(inner: Callable[..., Any], rules: Rules, state: GameState, total: int) -> object:
    claims = inner(rules, state, total)
    return tuple(c for c in claims if c.victim is None or _draws.random() < 0.5)


def _reads_ones(inner: Callable[..., Any], rules: Rules, state: GameState) -> object:
    total = inner(rules, state)
    return None if total is not None and state.set_aside[0] >= 3 else total  # three 1s bust


def _claims_as_numbers(
    inner: Callable[..., Any], rules: Rules, state: GameState, total: int
) -> object:
    return tuple(claim.tile for claim in inner(rules, state, total))


BROKEN: dict[str, tuple[dict[str, object], str]] = {
    "bust returns None": ({"bust": _returns(None)}, r"\[hook returns\].*bust hook returned None"),
    "setup returns None": ({"setup": _returns(None)}, r"setup hook returned None"),
    "roll_actions returns a list": ({"roll_actions": _listed}, r"roll_actions hook returned \["),
    "roll_actions offers stop": ({"roll_actions": _offers_stop}, r"stop is no action after a roll"),
    "pending_actions returns a list": ({"pending_actions": _listed}, "pending_actions hook"),
    "scores returns a list": ({"scores": _listed}, r"scores hook returned \["),
    "scores one short": ({"scores": _one_short}, "one score per player"),
    "claims returns numbers": ({"claims": _claims_as_numbers}, "expected a tuple of Claims"),
    "stop_total returns text": ({"stop_total": _returns("30")}, "expected a whole number"),
    "take_tile returns a claim": ({"take_tile": _returns(Claim(21))}, "take_tile hook returned"),
    "turn_dice returns a list": ({"turn_dice": _listed}, "turn_dice hook returned"),
    "set_aside raises": ({"set_aside": _raises(KeyError("x"))}, "raised KeyError"),
    "take_tile divides by zero": ({"take_tile": _raises(ZeroDivisionError())}, "ZeroDivision"),
    "end_turn recurses": ({"end_turn": _raises(RecursionError("deep"))}, "RecursionError"),
    "claims drop steals at random": ({"claims": _drops_steals}, r"\[deterministic hooks\]"),
}


BREAKAGES: dict[str, Callable[..., object]] = {
    "returns None": _returns(None),
    "returns text": _returns("junk"),
    "returns a number": _returns(7),
    "raises KeyError": _raises(KeyError("x")),
    "raises ZeroDivisionError": _raises(ZeroDivisionError()),
    "recurses without end": _raises(RecursionError("deep")),
}
CALLED_IN_CLASSIC = sorted(set(RETURNS) - {"apply_action"})  # classic has no actions of its own
ENDLESS = {("stop_total", "returns None"), ("stop_total", "returns a number")}
"""Sound answers (no total, or 7) that make every turn bust: the game, not a module, is at fault."""


def _variant(name: str, **hooks: object) -> Variant:
    def build(options: Mapping[str, object]) -> list[RuleModule]:
        return [*classic_modules(options), RuleModule(name="bug", **hooks)]  # type: ignore[arg-type]

    return Variant(
        name=name, doc="Classic with a broken module.", options=CLASSIC.options, build=build
    )


@pytest.mark.parametrize("broken", sorted(BROKEN))
def test_a_broken_module_is_named_never_a_raw_error(broken: str) -> None:
    hooks, expected = BROKEN[broken]
    with pytest.raises(ConformanceError) as failure:
        check_variant(_variant("broken", **hooks), games=3)
    message = str(failure.value)
    assert re.search(expected, message), message
    assert "module 'bug'" in message, message
    assert len(message.splitlines()[0]) <= 400


@pytest.mark.parametrize("breakage", sorted(BREAKAGES))
@pytest.mark.parametrize("hook", CALLED_IN_CLASSIC)
def test_every_hook_broken_every_way_is_blamed_on_its_module(
    hook: str, breakage: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The campaign's grid: each hook a game calls, broken each way, names module 'bug'."""
    monkeypatch.setattr(testing, "MAX_MOVES", 5_000)  # a classic game takes a few hundred
    with pytest.raises(ConformanceError) as failure:
        check_variant(_variant("broken", **{hook: BREAKAGES[breakage]}), games=1)
    message = str(failure.value)
    if (hook, breakage) in ENDLESS:
        assert "did not end within" in message, message
    else:
        assert "module 'bug'" in message, message
    assert len(message.splitlines()[0]) <= 400


def test_a_broken_ends_on_total_promise_is_blamed_on_the_module_that_made_it() -> None:
    promise = _variant("promising", stop_total=_reads_ones, ends_on_total=True)
    with pytest.raises(
        ConformanceError, match=r"\[ends on total\].*module 'bug' promises"
    ) as error:
        check_variant(promise, games=1)
    assert "stop_total hook reads the dice" in str(error.value)
    check_variant(_variant("honest", stop_total=_reads_ones), games=1)  # no promise: it passes


@pytest.mark.parametrize("builtin", [max, int, print])
def test_a_builtin_as_a_hook_is_refused_when_composed(builtin: object) -> None:
    with pytest.raises(CompositionError, match=r"'bug': its hook 'bust' is .* a builtin"):
        _variant("builtin", bust=builtin).rules({})
    with pytest.raises(ConformanceError, match=r"\[composition\] builtin: .*'bug'"):
        check_variant(_variant("builtin", bust=builtin), games=1)


def test_a_module_that_cannot_build_its_components_is_a_conformance_failure() -> None:
    def configure(_components: object) -> object:
        raise ValueError("no tiles today")

    with pytest.raises(ConformanceError, match=r"\[composition\].*no tiles today"):
        check_variant(_variant("unbuilt", configure=configure), games=1)


def test_the_checked_hooks_pass_the_built_in_variants() -> None:
    for name in ("classic", "extended", "extrawurm"):
        assert check_variant(name, games=1).games == 1


def test_a_sound_take_hook_is_not_blamed() -> None:
    def take(inner: Callable[..., Any], rules: Rules, state: GameState, claim: Claim) -> object:
        return inner(rules, state, claim)

    check_variant(_variant("sound", take_tile=take), games=1)


@pytest.mark.parametrize("field", ["after", "before"])
def test_a_misspelt_ordering_constraint_is_named_with_the_closest_module(field: str) -> None:
    """after/before apply where present: a typo would silently order nothing."""
    with pytest.raises(
        ConformanceError,
        match=rf"\[ordering\].*module 'bug': {field}=\('grilled_worm',\) names no module "
        r".*did you mean 'grilled_worms'\?",
    ):
        check_variant(_variant("misspelt", **{field: ("grilled_worm",)}), games=1)
    # another variant's module, absent here, is a sound constraint ("where present")
    check_variant(_variant("spelt", **{field: ("grilled_worms",)}), games=1)
