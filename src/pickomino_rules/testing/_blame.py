"""What hooks return, and who is at fault: checked hooks, and a failure naming its module."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, Any, NoReturn

import attrs

from pickomino_rules.actions import Action, Roll, Steal, Stop
from pickomino_rules.errors import (
    ConformanceError,
    brief,
)
from pickomino_rules.plugin import HOOK_ARGUMENTS, RuleModule, compose
from pickomino_rules.result import result
from pickomino_rules.state import Claim, GameState
from pickomino_rules.testing._games import _fail, _play, _player_counts

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.rules import Rules


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


def _raise_blamed(check: str, rules: Rules, error: Exception) -> NoReturn:
    failure = blamed(check, rules, error)
    if failure is error:
        raise failure
    raise failure from (None if failure in _chain(error) else error)
