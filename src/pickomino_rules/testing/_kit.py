"""The whole kit: `check_variant` runs every check in turn, blaming the module at fault."""

from __future__ import annotations

import difflib
from functools import partial
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.errors import (
    ConformanceError,
    brief,
)
from pickomino_rules.plugin import Variant
from pickomino_rules.registry import (
    available_variants,
    get_variant,
    register_variant,
    unregister_variant,
)
from pickomino_rules.testing._blame import _raise_blamed, check_hook_returns
from pickomino_rules.testing._chance import check_chance, check_determinism
from pickomino_rules.testing._games import _fail, check_legal_actions_apply, check_random_games
from pickomino_rules.testing._promises import (
    check_ends_on_total,
    check_hooks_deterministic,
    check_mid_turn_by_count,
    check_pending_by_parts,
    check_set_aside_faces,
)
from pickomino_rules.testing._surfaces import (
    check_bad_arguments,
    check_encoding,
    check_game_info,
    check_illegal_actions_rejected,
    check_round_trips,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping

    from pickomino_rules.rules import Rules


@attrs.frozen
class ConformanceReport:
    """What [`check_variant`][pickomino_rules.testing.check_variant] checked.

    Attributes:
        variant: The variant's name.
        games: Random games played to the end.
        states: States checked.
        moves: Moves applied (including every legal alternative tried).
    """

    variant: str
    games: int
    states: int
    moves: int


def check_variant(
    variant: str | Variant,
    options: Mapping[str, object] | None = None,
    *,
    games: int = 3,
    seed: int = 0,
) -> ConformanceReport:
    """Run the whole conformance suite on a variant (registered or not).

    Whatever a broken module does, the kit answers with a
    [`ConformanceError`][pickomino_rules.testing.ConformanceError] that names the check and,
    where a module's hook is at fault, the module: a hook that returns the wrong kind of
    value is caught where it returns (`check_hook_returns` runs first), and a hook that
    raises is named from where it raised (`module_at_fault`).

    Args:
        variant: A registered variant's name, or a [`Variant`][pickomino_rules.plugin.Variant]
            (registered for the duration of the check if it is not).
        options: The variant's options.
        games: Random games to play to the end; the hooks' determinism is checked over
            states of all of them.
        seed: Seed of the first game; the check is deterministic.

    Returns:
        What was checked.

    Raises:
        ConformanceError: A check failed; the message names it (and the module at fault).
    """
    temporary = isinstance(variant, Variant) and not _is_registered(variant)
    if temporary:
        assert isinstance(variant, Variant)  # noqa: S101 (for the type checker)
        register_variant(variant)
    try:
        name = variant if isinstance(variant, str) else variant.name
        try:
            rules = get_variant(name).rules(options)
        except Exception as error:
            detail = f"cannot be composed: {type(error).__name__}: {brief(str(error), 200)}"
            raise ConformanceError(f"[composition] {name}: {detail}") from error
        states, moves = _run_checks(rules, games, seed)
    finally:
        if temporary:
            unregister_variant(variant.name)  # type: ignore[union-attr]
    return ConformanceReport(rules.name, games, states, moves)


def check_ordering(rules: Rules) -> None:
    """Every name in a module's ``after`` and ``before`` is a module some variant composes.

    The constraints apply where the named module is present, so a misspelt name would be
    no constraint at all, silently. Known are the modules of these rules and of every
    registered variant, with its default options and with each true-or-false option
    turned the other way.

    Raises:
        ConformanceError: Naming the module, the misspelt name and the closest known one.
    """
    known = _known_modules() | {module.name for module in rules.modules}
    for module in rules.modules:
        for field in ("after", "before"):
            for name in getattr(module, field):
                if name not in known:
                    close = difflib.get_close_matches(name, sorted(known), n=1)
                    hint = f" (did you mean {close[0]!r}?)" if close else ""
                    detail = (
                        f"module {module.name!r}: {field}=({name!r},) names no module of any "
                        f"registered variant{hint}"
                    )
                    _fail("ordering", rules, detail)


def _known_modules() -> set[str]:
    """The names of the modules every registered variant composes, option by option."""
    known: set[str] = set()
    for name in available_variants():
        try:
            variant = get_variant(name)
            settings: list[dict[str, object]] = [{}]
            settings += [
                {option.name: not option.default}
                for option in variant.options
                if isinstance(option.default, bool)
            ]
            for options in settings:
                known.update(
                    module.name for module in variant.build(variant.resolve_options(options))
                )
        except Exception:  # noqa: BLE001, S112 (another variant's faults are not this one's)
            continue
    return known


def _run_checks(rules: Rules, games: int, seed: int) -> tuple[int, int]:
    """Every check in turn; a raw error in one becomes a failure naming its module."""
    counts = {"states": 0, "moves": 0}

    def random_games() -> None:
        counts["states"], counts["moves"] = check_random_games(rules, games=games, seed=seed)

    def legal_apply() -> None:
        counts["moves"] += check_legal_actions_apply(rules, seed=seed)

    checks: list[tuple[str, Callable[[], object]]] = [
        ("ordering", partial(check_ordering, rules)),
        ("hook returns", partial(check_hook_returns, rules, games=games, seed=seed)),
        ("random games", random_games),
        ("legal actions apply", legal_apply),
        ("pending by parts", partial(check_pending_by_parts, rules, seed=seed)),
        ("ends on total", partial(check_ends_on_total, rules, seed=seed)),
        ("mid turn by count", partial(check_mid_turn_by_count, rules, seed=seed)),
        ("set aside faces", partial(check_set_aside_faces, rules, seed=seed)),
        ("deterministic hooks", partial(check_hooks_deterministic, rules, games=games, seed=seed)),
        ("chance", partial(check_chance, rules, seed=seed)),
        ("determinism", partial(check_determinism, rules, seed=seed)),
        ("round trips", partial(check_round_trips, rules, seed=seed)),
        ("encoding", partial(check_encoding, rules, seed=seed)),
        ("game info", partial(check_game_info, rules, seed=seed)),
        ("illegal actions", partial(check_illegal_actions_rejected, rules, seed=seed)),
        ("bad arguments", partial(check_bad_arguments, rules)),
    ]
    for check, run in checks:
        try:
            run()
        except Exception as error:  # noqa: BLE001 (a broken module can raise anything)
            _raise_blamed(check, rules, error)
    return counts["states"], counts["moves"]


def _is_registered(variant: Variant) -> bool:
    try:
        return get_variant(variant.name) is variant
    except LookupError:
        return False
