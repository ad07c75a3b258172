"""Composed rules: components, options and one plain callable per hook.

[`Rules`][pickomino_rules.rules.Rules] is what [`compose`][pickomino_rules.plugin.compose] builds
from rule modules and what every transition takes. It is deeply immutable: its mappings are
read-only views, and the same variant with the same options gives the same cached object.

Examples:
    >>> from pickomino_rules import get_variant
    >>> rules = get_variant("classic").rules()
    >>> rules.tiles[0], rules.tiles[-1], rules.worms_of(36)
    (21, 36, 4)
    >>> rules.worms[36] = 100
    Traceback (most recent call last):
    ...
    TypeError: 'mappingproxy' object does not support item assignment
"""

from __future__ import annotations

import warnings
from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

import attrs

from pickomino_rules.dice import ChanceTable, DieKind, Face, chance_table
from pickomino_rules.errors import CompositionError, InvalidStateError

if TYPE_CHECKING:
    from pickomino_rules.actions import Action
    from pickomino_rules.plugin import ExtensionPoint, RuleModule
    from pickomino_rules.state import Claim, GameState, Layout

__all__ = [
    "ActionsFn",
    "ApplyFn",
    "ClaimsFn",
    "Components",
    "DiceFn",
    "Rules",
    "ScoresFn",
    "SetAsideFn",
    "StateFn",
    "TakeTileFn",
    "TotalFn",
]

_TURN_END_HOOKS = frozenset({"take_tile", "bust", "end_turn", "turn_dice", "pending_actions"})

P = ParamSpec("P")
R = TypeVar("R")

StateFn = Callable[["Rules", "GameState"], "GameState"]
"""A composed hook that turns a state into the next (``setup``, ``bust``, ``end_turn``)."""
ActionsFn = Callable[["Rules", "GameState"], "tuple[Action, ...]"]
"""A composed hook listing actions (``roll_actions``, ``pending_actions``)."""
DiceFn = Callable[["Rules", "GameState"], tuple[int, ...]]
"""The composed ``turn_dice`` hook: dice to roll per kind at a turn's start."""
SetAsideFn = Callable[["Rules", "GameState", Face], "GameState"]
"""The composed ``set_aside`` hook: set aside the dice showing a face."""
TotalFn = Callable[["Rules", "GameState"], int | None]
"""The composed ``stop_total`` hook: the total a stop claims with, or None (bust)."""
ClaimsFn = Callable[["Rules", "GameState", int], "tuple[Claim, ...]"]
"""The composed ``claims`` hook: the claims open at a stop with a total."""
TakeTileFn = Callable[["Rules", "GameState", "Claim"], "GameState"]
"""The composed ``take_tile`` hook: give the player the claimed tile."""
ApplyFn = Callable[["Rules", "GameState", "Action"], "GameState"]
"""The composed ``apply_action`` hook: apply a module's own action."""
ScoresFn = Callable[["Rules", "GameState"], tuple[int, ...]]
"""The composed ``scores`` hook: worms per player."""


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
        most_dice: The most dice of each kind a turn can hold, when a module's
            ``turn_dice`` deals more than ``dice`` (the golden die); empty: ``dice``.
            Encodings size their observations and chance outcomes by it.
    """

    tiles: tuple[int, ...] = ()
    worms: tuple[tuple[int, int], ...] = ()
    die_kinds: tuple[DieKind, ...] = ()
    dice: tuple[int, ...] = ()
    min_players: int = 2
    max_players: int = 7
    most_dice: tuple[int, ...] = ()


def _read_only(mapping: Mapping[Any, Any]) -> Mapping[Any, Any]:
    return MappingProxyType(dict(mapping))


@attrs.frozen(eq=False, repr=False)
class Rules:
    """Composed, ready-to-run rules: components, options and one callable per hook.

    Build it with [`Variant.rules`][pickomino_rules.plugin.Variant.rules],
    [`get_rules`][pickomino_rules.registry.get_rules] or
    [`compose`][pickomino_rules.plugin.compose]. Rules compare by identity; the same
    variant and options give the same cached object. Every mapping is read-only.

    Attributes:
        name: The variant's name.
        options: The option values in force, by name.
        modules: The rule modules composed, in the order they wrap each other.
        components: Tiles, dice and player limits.
        layout: The shape of this game's states (tiles, dice, parts).
        part_index: Slot in [`GameState.parts`][pickomino_rules.state.GameState] of each
            module's part, by name.
        action_types: Every action class these rules can parse.
        extensions: The modules' own extension points, composed.
        chains: For each hook, the modules it runs through, innermost first.
    """

    name: str
    options: Mapping[str, object] = attrs.field(converter=_read_only)
    modules: tuple[RuleModule, ...]
    components: Components
    layout: Layout
    part_index: Mapping[str, int] = attrs.field(converter=_read_only)
    action_types: tuple[type[Action], ...]
    extensions: Mapping[ExtensionPoint[Any, Any], Callable[..., Any]] = attrs.field(
        converter=_read_only
    )
    chains: Mapping[str, tuple[str, ...]] = attrs.field(converter=_read_only)
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
    ends_on_total: bool = False
    """Every module whose hooks end a turn promises that only the total says what the dice
    were (``RuleModule.ends_on_total``)."""
    mid_turn_by_count: bool = False
    """Every module with a hook that runs while dice are rolled promises that setting dice
    aside acts only by the face and its count (``RuleModule.mid_turn_by_count``)."""
    pending_by_parts: bool = False
    """Every module with a ``pending_actions`` hook promises that it reads only the variant
    parts of the state (``RuleModule.pending_by_parts``)."""
    set_aside_faces: frozenset[Face] | None = None
    """The faces whose set-aside some module acts on, when every module with a ``set_aside``
    hook promises which (``RuleModule.set_aside_faces``) and every ``pending_actions`` hook
    promises ``pending_by_parts``; setting any other face aside only moves the dice (C4).
    None: unknown."""
    observers: Mapping[str, Callable[..., Any]] = attrs.field(
        factory=dict, converter=_read_only, kw_only=True
    )
    """Compiled twins of the parts' ``observe``, by part name (compiled engine only: see
    [`compiled_plugin`](compiled_plugin.md)); the numeric encoding's observation calls them."""
    worms: Mapping[int, int] = attrs.field(init=False)
    """Worms of each tile, by number (read-only)."""
    wrapped: frozenset[str] = attrs.field(init=False)
    """The hooks a module implements: their chain goes beyond the core's own function.

    The engine asks it (never the functions' identity) when it may skip a hook: an
    ``end_turn`` or ``turn_dice`` nobody wraps has nothing to add."""
    tidies_turn_end: bool = attrs.field(init=False)
    """A module implements ``end_turn`` or ``pending_actions``: a resolved turn is shown to
    ``end_turn`` as a state of its own (phase TURN_OVER) before the dice pass on."""
    deals_own_dice: bool = attrs.field(init=False)
    """A module implements ``turn_dice``: each turn asks it which dice to roll."""

    _tables: dict[tuple[int, ...], ChanceTable] = attrs.field(init=False, factory=dict)

    @worms.default
    def _worms(self) -> Mapping[int, int]:
        return MappingProxyType(dict(self.components.worms))

    @wrapped.default
    def _wrapped(self) -> frozenset[str]:
        return frozenset(hook for hook, chain in self.chains.items() if len(chain) > 1)

    @tidies_turn_end.default
    def _tidies_turn_end(self) -> bool:
        return "end_turn" in self.wrapped or self.pending_actions is not None

    @deals_own_dice.default
    def _deals_own_dice(self) -> bool:
        return "turn_dice" in self.wrapped

    @property
    def default_ends(self) -> bool:
        """Deprecated: whether no module implements a hook that ends a turn.

        Those hooks are ``take_tile``, ``bust``, ``end_turn``, ``turn_dice`` and
        ``pending_actions``. The engine no longer ends such turns by a path of its own; ask
        [`wrapped`][pickomino_rules.rules.Rules.wrapped] instead.
        """
        warnings.warn(
            "Rules.default_ends is deprecated: ask Rules.wrapped which hooks a module implements",
            DeprecationWarning,
            stacklevel=2,
        )
        return not self.wrapped & _TURN_END_HOOKS

    @property
    def tiles(self) -> tuple[int, ...]:
        """Every tile number of the game, ascending."""
        return self.components.tiles

    @property
    def most_dice(self) -> tuple[int, ...]:
        """The most dice of each kind a turn can hold (see ``Components.most_dice``)."""
        return self.components.most_dice or self.components.dice

    @property
    def die_kinds(self) -> tuple[DieKind, ...]:
        """The kinds of dice in the game."""
        return self.components.die_kinds

    def worms_of(self, tile: int) -> int:
        """Worms printed on ``tile``."""
        return self.worms[tile]

    def chance_table(self, dice: tuple[int, ...]) -> ChanceTable:
        """Exact distribution of rolling ``dice`` (counts per kind), cached.

        Raises:
            InvalidStateError: More dice than the rules' components hold, a negative count,
                or not one count per kind (checked when a table is first built: free after).
        """
        table = self._tables.get(dice)
        if table is None:
            most = self.most_dice
            if (
                type(dice) is not tuple
                or len(dice) != len(most)
                or not all(type(d) is int and 0 <= d <= m for d, m in zip(dice, most, strict=True))
            ):
                problem = (
                    f"in_hand: cannot roll {dice!r}: the rules roll at most {most} dice "
                    "(one count per kind)"
                )
                raise InvalidStateError([problem])
            table = self._tables[dice] = chance_table(self.components.die_kinds, dice)
        return table

    def extension(self, point: ExtensionPoint[P, R]) -> Callable[P, R]:
        """The composed extension point ``point`` (its default wrapped by its extenders).

        Raises:
            CompositionError: No composed module provides ``point``.
        """
        try:
            return self.extensions[point]
        except KeyError:
            msg = f"no module of {self.name!r} provides the extension point {point.name!r}"
            raise CompositionError(msg) from None

    def provides(self, point: ExtensionPoint[Any, Any]) -> bool:
        """Whether a composed module provides the extension point ``point``."""
        return point in self.extensions

    def describe(self) -> str:
        """The composition in words: modules, each hook's chain and the extension points.

        Chains read innermost first: ``bust: turn > short_game > specialists`` means the
        specialists' hook wraps the short-game one, which wraps the core's.

        Examples:
            >>> from pickomino_rules import get_rules
            >>> print(get_rules("classic", {"short_game": True}).describe())
            rules 'classic' (flip_on_empty_bust=False, short_game=True, optional_steal=True)
            modules: classic, short_game
              classic: C1-C2: 16 tiles 21-36, 8 dice, 2-7 players
              short_game: O2: the returned tile is turned face down even when it is the highest
            hooks (innermost first):
              configure: classic
              bust: turn > short_game
        """
        options = ", ".join(f"{name}={value!r}" for name, value in self.options.items())
        lines = [f"rules {self.name!r}" + (f" ({options})" if options else "")]
        lines.append("modules: " + ", ".join(module.name for module in self.modules))
        lines.extend(f"  {module.name}: {module.doc}" for module in self.modules if module.doc)
        lines.append("hooks (innermost first):")
        configured = [module.name for module in self.modules if module.configure is not None]
        if configured:
            lines.append("  configure: " + " > ".join(configured))
        lines.extend(
            f"  {hook}: {' > '.join(chain)}"
            for hook, chain in self.chains.items()
            if len(chain) > 1
        )
        if self.extensions:
            lines.append("extension points:")
            for point in self.extensions:
                provider = next(m.name for m in self.modules if point in m.provides)
                users = [m.name for m in self.modules if any(e.point is point for e in m.extends)]
                lines.append(
                    f"  {point.name}: {provider}" + "".join(f" > {name}" for name in users)
                )
        return "\n".join(lines)

    def __call__(self) -> Rules:
        """Deprecated: these rules themselves, for ``record.rules()`` of before 0.2.

        `GameRecord.rules` is an attribute now, as `Position.rules` is: write
        ``record.rules``.
        """
        warnings.warn(
            "GameRecord.rules is an attribute now, as Position.rules is: write record.rules",
            DeprecationWarning,
            stacklevel=2,
        )
        return self

    def __copy__(self) -> Rules:
        return self  # read-only: a copy would be the same rules

    def __deepcopy__(self, memo: dict[int, object]) -> Rules:
        return self

    def __repr__(self) -> str:
        changed = ", ".join(f"{k}={v!r}" for k, v in self.options.items())
        return f"<Rules {self.name!r}{' ' + changed if changed else ''}>"
