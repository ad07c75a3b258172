"""Rules as data plus hooks, and the composition of rule modules.

A [`RuleModule`][pickomino_rules.rules.RuleModule] is a small, named bundle of hook functions. Each
hook wraps the one below it: it receives ``inner`` (the core's default, or the modules composed
before it) and decides whether and how to call it, like a decorator.
[`compose`][pickomino_rules.rules.compose] folds the modules once into a frozen
[`Rules`][pickomino_rules.rules.Rules] whose hook fields are plain callables, so the hot path never
dispatches by name.

A [`Variant`][pickomino_rules.rules.Variant] is a named recipe: option declarations and a function
that picks the modules for given option values.

Examples:
    >>> from pickomino_rules import get_variant
    >>> rules = get_variant("classic").rules()
    >>> rules.tiles[0], rules.tiles[-1], rules.worms_of(36)
    (21, 36, 4)
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from functools import partial
from typing import Any

import attrs

from pickomino_rules import base
from pickomino_rules.actions import CORE_ACTIONS, Action
from pickomino_rules.dice import ChanceTable, DieKind, Face, chance_table
from pickomino_rules.errors import InvalidOptionError, InvalidSetupError
from pickomino_rules.state import Claim, GameState, PartKey

__all__ = [
    "Components",
    "Option",
    "RuleModule",
    "Rules",
    "Variant",
    "compose",
]

# The signatures of the composed hooks (what the core calls) ...
StateFn = Callable[["Rules", GameState], GameState]
ActionsFn = Callable[["Rules", GameState], tuple[Action, ...]]
DiceFn = Callable[["Rules", GameState], tuple[int, ...]]
SetAsideFn = Callable[["Rules", GameState, Face], GameState]
TotalFn = Callable[["Rules", GameState], int | None]
ClaimsFn = Callable[["Rules", GameState, int], tuple[Claim, ...]]
TakeTileFn = Callable[["Rules", GameState, Claim], GameState]
ApplyFn = Callable[["Rules", GameState, Action], GameState]
ScoresFn = Callable[["Rules", GameState], tuple[int, ...]]

# ... and of the hooks a module provides: the same, with ``inner`` first.
StateHook = Callable[[StateFn, "Rules", GameState], GameState]
ActionsHook = Callable[[ActionsFn, "Rules", GameState], tuple[Action, ...]]
DiceHook = Callable[[DiceFn, "Rules", GameState], tuple[int, ...]]
SetAsideHook = Callable[[SetAsideFn, "Rules", GameState, Face], GameState]
TotalHook = Callable[[TotalFn, "Rules", GameState], int | None]
ClaimsHook = Callable[[ClaimsFn, "Rules", GameState, int], tuple[Claim, ...]]
TakeTileHook = Callable[[TakeTileFn, "Rules", GameState, Claim], GameState]
ApplyHook = Callable[[ApplyFn, "Rules", GameState, Action], GameState]
ScoresHook = Callable[[ScoresFn, "Rules", GameState], tuple[int, ...]]


@attrs.frozen
class Components:
    """The physical game: tiles, worms per tile, dice and the number of players.

    Rule modules change components through their ``configure`` hook.

    Attributes:
        tiles: Tile numbers, ascending.
        worms: Worms on each tile, as ``(tile, worms)`` pairs.
        die_kinds: The kinds of dice that exist in the game.
        dice: How many dice of each kind a player normally rolls at a turn's start.
        min_players: Fewest players allowed.
        max_players: Most players allowed.
    """

    tiles: tuple[int, ...] = ()
    worms: tuple[tuple[int, int], ...] = ()
    die_kinds: tuple[DieKind, ...] = ()
    dice: tuple[int, ...] = ()
    min_players: int = 2
    max_players: int = 7


@attrs.frozen(kw_only=True, eq=False)
class RuleModule:
    """A named bundle of rule hooks; every hook is optional.

    Each hook receives ``inner`` first: the behaviour of the core and of the
    modules composed before this one. Call it to keep that behaviour, change its
    arguments or its result, or skip it to replace it.

    Modules can also offer hook points of their own to other modules
    (``provides``): a named default function that later modules wrap, with
    ``inner`` first, through ``extends``; read the composed one with
    [`Rules.extension`][pickomino_rules.rules.Rules.extension]. Wrappers of points that no composed
    module provides are unused (the hen guards grilled worms only where there are any). A module
    that needs another names it in ``requires``.

    Attributes:
        name: Short name, unique within a composition.
        doc: One line on what the module changes, with its rule IDs.
        requires: Names of modules that must be composed too.
        configure: Change the components (tiles, dice, players).
        part: Key of the module's own state part, if it keeps any.
        action_types: Action classes the module adds (for parsing).
        provides: Extension points this module defines, with their defaults.
        extends: Wrappers (``inner`` first) of other modules' extension points.
        setup: Finish the first state (e.g. put the module's part in).
        turn_dice: Dice rolled at a turn's start, per kind.
        roll_actions: Legal actions right after a roll (core: each face that may be taken).
        pending_actions: Actions of a decision the module has made pending; while it
            returns any, they are the only legal ones.
        set_aside: Set aside the dice showing a face (C4).
        stop_total: The total a stop claims with, or None when the stop busts (C7).
        claims: The claims open at a stop with a total (C8).
        take_tile: Give the player the claimed tile (C8, C9).
        bust: A failed attempt (C10).
        end_turn: Runs once when the turn is resolved, before it passes on (C11).
        apply_action: Apply the module's own actions (core: reject as illegal).
        scores: Final worms of each player (C13).
    """

    name: str
    doc: str = ""
    requires: tuple[str, ...] = ()
    configure: Callable[[Components], Components] | None = None
    part: PartKey[Any] | None = None
    action_types: tuple[type[Action], ...] = ()
    provides: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    extends: Mapping[str, Callable[..., Any]] = attrs.field(factory=dict)
    setup: StateHook | None = None
    turn_dice: DiceHook | None = None
    roll_actions: ActionsHook | None = None
    pending_actions: ActionsHook | None = None
    set_aside: SetAsideHook | None = None
    stop_total: TotalHook | None = None
    claims: ClaimsHook | None = None
    take_tile: TakeTileHook | None = None
    bust: StateHook | None = None
    end_turn: StateHook | None = None
    apply_action: ApplyHook | None = None
    scores: ScoresHook | None = None


HOOKS = (
    "setup",
    "turn_dice",
    "roll_actions",
    "pending_actions",
    "set_aside",
    "stop_total",
    "claims",
    "take_tile",
    "bust",
    "end_turn",
    "apply_action",
    "scores",
)
"""Hook names, in the order the core runs them in a turn."""


@attrs.frozen(eq=False, repr=False)
class Rules:
    """Composed, ready-to-run rules: components, options and one callable per hook.

    Build it with [`Variant.rules`][pickomino_rules.rules.Variant.rules],
    [`get_rules`][pickomino_rules.registry.get_rules] or [`compose`][pickomino_rules.rules.compose].
    Rules compare by identity; the same variant and options give the same cached object.

    Attributes:
        name: The variant's name.
        options: The option values in force, by name.
        modules: The rule modules composed, in order.
        components: Tiles, dice and player limits.
        part_index: Slot in [`GameState.parts`][pickomino_rules.state.GameState] of each
            module's part, by name.
        action_types: Every action class these rules can parse.
        extensions: The modules' own extension points, composed, by name.
    """

    name: str
    options: Mapping[str, object]
    modules: tuple[RuleModule, ...]
    components: Components
    part_index: Mapping[str, int]
    action_types: tuple[type[Action], ...]
    extensions: Mapping[str, Callable[..., Any]]
    setup: StateFn
    turn_dice: DiceFn
    roll_actions: ActionsFn
    pending_actions: ActionsFn | None
    set_aside: SetAsideFn
    stop_total: TotalFn
    claims: ClaimsFn
    take_tile: TakeTileFn
    bust: StateFn
    end_turn: StateFn
    apply_action: ApplyFn
    scores: ScoresFn
    worms: Mapping[int, int] = attrs.field(init=False)
    """Worms of each tile, by number (derived from components, for fast lookup)."""

    _tables: dict[tuple[int, ...], ChanceTable] = attrs.field(init=False, factory=dict)

    @worms.default
    def _worms(self) -> Mapping[int, int]:
        return dict(self.components.worms)

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every tile number of the game, ascending."""
        return self.components.tiles

    @property
    def die_kinds(self) -> tuple[DieKind, ...]:
        """The kinds of dice in the game."""
        return self.components.die_kinds

    def worms_of(self, tile: int) -> int:
        """Worms printed on ``tile``."""
        return self.worms[tile]

    def chance_table(self, dice: tuple[int, ...]) -> ChanceTable:
        """Exact distribution of rolling ``dice`` (counts per kind), cached."""
        table = self._tables.get(dice)
        if table is None:
            table = self._tables[dice] = chance_table(self.components.die_kinds, dice)
        return table

    def extension(self, name: str) -> Callable[..., Any]:
        """The composed extension point ``name``.

        Extension points are declared by modules (see
        [`RuleModule`][pickomino_rules.rules.RuleModule]).

        Raises:
            KeyError: No composed module provides it.
        """
        try:
            return self.extensions[name]
        except KeyError:
            msg = f"no module of {self.name!r} provides the extension point {name!r}"
            raise KeyError(msg) from None

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Rules {self.name!r}{' ' + changed if changed else ''}>"


def _check_components(components: Components) -> None:
    tiles = components.tiles
    if not tiles or list(tiles) != sorted(set(tiles)):
        msg = f"tiles must be distinct and ascending, got {tiles!r}"
        raise InvalidSetupError(msg)
    if set(tiles) != {tile for tile, _ in components.worms}:
        msg = "every tile needs a worm count, and only tiles"
        raise InvalidSetupError(msg)
    if not components.die_kinds or len(components.dice) != len(components.die_kinds):
        msg = "the components need dice: one count per kind of die"
        raise InvalidSetupError(msg)
    if not 1 <= components.min_players <= components.max_players:
        msg = f"bad player limits {components.min_players}..{components.max_players}"
        raise InvalidSetupError(msg)


def compose(
    *modules: RuleModule, name: str = "custom", options: Mapping[str, object] | None = None
) -> Rules:
    """Fold rule modules over the core game into [`Rules`][pickomino_rules.rules.Rules].

    Modules apply in order: a later module's hook wraps the earlier ones.

    Args:
        *modules: The modules; the first usually sets the components.
        name: Name shown for the composed rules.
        options: Option values to record on the rules (informational).

    Raises:
        InvalidSetupError: Two modules share a name, a required module is missing,
            or the components are unusable.

    Examples:
        >>> from pickomino_rules.variants.classic import classic_components
        >>> rules = compose(classic_components(), name="mine")
        >>> rules
        <Rules 'mine'>
    """
    _check_modules(modules)
    components = Components()
    for module in modules:
        if module.configure is not None:
            components = module.configure(components)
    _check_components(components)
    part_modules = [module for module in modules if module.part is not None]
    part_index = {module.part.name: i for i, module in enumerate(part_modules) if module.part}
    action_types = list(CORE_ACTIONS)
    for module in modules:
        action_types.extend(kind for kind in module.action_types if kind not in action_types)
    return Rules(
        name=name,
        options=dict(options or {}),
        modules=tuple(modules),
        components=components,
        part_index=part_index,
        action_types=tuple(action_types),
        extensions=_compose_extensions(modules),
        **_compose_hooks(modules),
    )


def _check_modules(modules: Sequence[RuleModule]) -> None:
    names = [module.name for module in modules]
    if len(set(names)) != len(names):
        msg = f"rule modules need distinct names, got {names}"
        raise InvalidSetupError(msg)
    for module in modules:
        missing = [need for need in module.requires if need not in names]
        if missing:
            msg = f"rule module {module.name!r} requires {', '.join(map(repr, missing))}"
            raise InvalidSetupError(msg)


def _compose_hooks(modules: Sequence[RuleModule]) -> dict[str, Any]:
    """Each core hook wrapped by the modules' hooks, innermost first."""
    hooks: dict[str, Any] = {}
    for hook in HOOKS:
        function: Any = getattr(base, hook)
        for module in modules:
            wrapper = getattr(module, hook)
            if wrapper is not None:
                function = partial(wrapper, function)
        hooks[hook] = function
    if all(module.pending_actions is None for module in modules):
        hooks["pending_actions"] = None  # lets the hot path skip the call
    return hooks


def _compose_extensions(modules: Sequence[RuleModule]) -> dict[str, Callable[..., Any]]:
    """The modules' own extension points, each wrapped by the modules extending it."""
    extensions: dict[str, Callable[..., Any]] = {}
    for module in modules:
        for point, default in module.provides.items():
            if point in extensions:
                msg = f"two modules provide the extension point {point!r}"
                raise InvalidSetupError(msg)
            extensions[point] = default
    for module in modules:
        for point, wrapper in module.extends.items():
            if point in extensions:  # a point no module provides is simply unused
                extensions[point] = partial(wrapper, extensions[point])
    return extensions


@attrs.frozen
class Option:
    """A rule option a variant offers.

    Attributes:
        name: Keyword used in ``options={...}``.
        default: Value when the user gives none.
        doc: What the option changes.
        rule: The rule ID in RULES.md, e.g. ``"O1"``.
        convert: Checks a user's value and returns it normalised; raises
            ``ValueError`` or ``TypeError`` for a bad value.
    """

    name: str
    default: object
    doc: str
    rule: str
    convert: Callable[[object], object]


def boolean(value: object) -> bool:
    """Option converter accepting only ``True`` or ``False``."""
    if not isinstance(value, bool):
        msg = f"expected True or False, got {value!r}"
        raise TypeError(msg)
    return value


@attrs.frozen(eq=False)
class Variant:
    """A named rule set: its options and how to build its modules from them.

    Register a variant through the entry-point group ``pickomino_rules.variants``
    (the entry point names a ``Variant`` object) or with
    [`register_variant`][pickomino_rules.registry.register_variant].

    Attributes:
        name: Name users pass to [`new_game`][pickomino_rules.game.new_game].
        doc: A paragraph on the variant, with its rule IDs and sources.
        options: The options it offers, with defaults.
        build: Picks the modules for a full set of option values.
    """

    name: str
    doc: str
    options: tuple[Option, ...]
    build: Callable[[Mapping[str, object]], Sequence[RuleModule]]
    _cache: dict[tuple[tuple[str, object], ...], Rules] = attrs.field(
        factory=dict, init=False, repr=False
    )

    def resolve_options(self, options: Mapping[str, object] | None = None) -> dict[str, object]:
        """Every option's value: the user's where given, else the default.

        Raises:
            InvalidOptionError: An unknown option, or a bad value.
        """
        known = {option.name: option for option in self.options}
        given = dict(options or {})
        unknown = sorted(set(given) - set(known))
        if unknown:
            listing = ", ".join(known) or "none"
            msg = f"variant {self.name!r} has no option {unknown[0]!r} (options: {listing})"
            raise InvalidOptionError(msg)
        resolved = {}
        for option in self.options:
            value = given.get(option.name, option.default)
            try:
                resolved[option.name] = option.convert(value)
            except (TypeError, ValueError) as error:
                msg = f"option {option.name!r} ({option.rule}) of {self.name!r}: {error}"
                raise InvalidOptionError(msg) from None
        return resolved

    def rules(self, options: Mapping[str, object] | None = None) -> Rules:
        """The composed rules for ``options`` (cached per distinct option values).

        Raises:
            InvalidOptionError: An unknown option, or a bad value.
        """
        resolved = self.resolve_options(options)
        key = tuple(sorted(resolved.items()))
        rules = self._cache.get(key)
        if rules is None:
            rules = compose(*self.build(resolved), name=self.name, options=resolved)
            self._cache[key] = rules
        return rules
