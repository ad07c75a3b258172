"""The classic game (rules C1-C13) and its options O1-O3.

The base game's turn (C3-C13) is the core's own; this module supplies the
components (C1, C2) and the option modules, which the extended variants reuse.

Options (defaults in brackets):

- ``flip_on_empty_bust`` [False] (O1): a bust with an empty stack still turns the
  highest grill tile face down.
- ``short_game`` [False] (O2): the returned tile is turned face down even when it
  is the highest on the grill.
- ``optional_steal`` [True] (O3): stealing is a choice; False makes it mandatory
  whenever a steal is possible.

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("classic", players=4, options={"short_game": True})
    >>> dict(rules.options)
    {'flip_on_empty_bust': False, 'short_game': True, 'optional_steal': True}
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from pickomino_rules.dice import WHITE
from pickomino_rules.plugin import (
    BOOLEAN,
    Components,
    Option,
    RuleModule,
    Variant,
    boolean,
    turn_face_down,
)

if TYPE_CHECKING:
    from collections.abc import Callable, Mapping, Sequence

    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import Claim, ClaimsFn, CompiledTwins, GameState, Rules, StateFn

__all__ = [
    "CLASSIC",
    "CLASSIC_OPTIONS",
    "classic_components",
    "classic_modules",
    "flip_on_empty_bust",
    "optional_steal_off",
    "short_game",
]

CLASSIC_WORMS = tuple((tile, (tile - 21) // 4 + 1) for tile in range(21, 37))
"""Worms on each classic tile (C1): 21-24 one, 25-28 two, 29-32 three, 33-36 four."""


def _twin(name: str) -> BatchTwin:
    """The batch twin called ``name`` (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import classic  # noqa: PLC0415

    twin: BatchTwin = getattr(classic, name)
    return twin


def _row_twin(name: str, hook: str, function: Callable[..., object]) -> Callable[[], CompiledTwins]:
    """The compiled twin called ``name`` of ``hook``: ``function`` on states, C on rows."""

    def make() -> CompiledTwins:
        from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

        kind = getattr(_compiled, name)
        return {hook: lambda inner: kind(inner, function)}

    return make


def _classic(_components: Components) -> Components:
    return Components(
        tiles=tuple(tile for tile, _ in CLASSIC_WORMS),
        worms=CLASSIC_WORMS,
        die_kinds=(WHITE,),
        dice=(8,),
        min_players=2,
        max_players=7,
    )


def classic_components() -> RuleModule:
    """C1, C2: tiles 21-36 with 1-4 worms, eight standard dice, 2 to 7 players."""
    return RuleModule(
        name="classic",
        doc="C1-C2: 16 tiles 21-36, 8 dice, 2-7 players",
        configure=_classic,
        batch=lambda: _twin("CLASSIC"),
    )


def _flip_on_empty_bust(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    empty = not state.stacks[state.player]
    state = inner(rules, state)
    return turn_face_down(state) if empty and state.grill else state


def flip_on_empty_bust() -> RuleModule:
    """O1: a bust with an empty stack still turns the highest grill tile face down."""
    return RuleModule(
        name="flip_on_empty_bust",
        doc="O1: a bust with an empty stack still turns the highest grill tile face down",
        bust=_flip_on_empty_bust,
        batch=lambda: _twin("FLIP_ON_EMPTY_BUST"),
        compiled=_row_twin("FlipOnEmptyBust", "bust", _flip_on_empty_bust),
        ends_on_total=True,  # sees the dice only as their total at a turn's end
    )


def _short_game(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    stack = state.stacks[state.player]
    turned = len(state.face_down)
    state = inner(rules, state)
    spared = (
        stack and len(state.face_down) == turned and state.grill and state.grill[-1] == stack[-1]
    )
    return turn_face_down(state) if spared else state  # C10 spared the returned tile


def short_game() -> RuleModule:
    """O2: the returned tile is turned face down even when it is the highest."""
    return RuleModule(
        name="short_game",
        doc="O2: the returned tile is turned face down even when it is the highest",
        bust=_short_game,
        batch=lambda: _twin("SHORT_GAME"),
        compiled=_row_twin("ShortGame", "bust", _short_game),
        ends_on_total=True,  # sees the dice only as their total at a turn's end
    )


def _steal_required(
    inner: ClaimsFn, rules: Rules, state: GameState, total: int
) -> tuple[Claim, ...]:
    claims = inner(rules, state, total)
    steals = tuple(claim for claim in claims if claim.victim is not None)
    return steals or claims


def optional_steal_off() -> RuleModule:
    """O3 off (``optional_steal=False``): when a steal is possible the player must steal.

    The steal is then the only claim, so a plain stop takes it (C8).
    """
    return RuleModule(
        name="optional_steal_off",
        doc="O3 off: a possible steal is the only claim",
        claims=_steal_required,
        batch=lambda: _twin("OPTIONAL_STEAL_OFF"),
        compiled=_row_twin("StealRequired", "claims", _steal_required),
        ends_on_total=True,  # sees the dice only as their total at a turn's end
    )


CLASSIC_OPTIONS = (
    Option(
        name="flip_on_empty_bust",
        default=False,
        doc="a bust with an empty stack still turns the highest grill tile face down",
        rule="O1",
        convert=boolean,
        range=BOOLEAN,
    ),
    Option(
        name="short_game",
        default=False,
        doc="the returned tile is turned face down even when it is the highest",
        rule="O2",
        convert=boolean,
        range=BOOLEAN,
    ),
    Option(
        name="optional_steal",
        default=True,
        doc="stealing an exact top tile is a choice; False makes it mandatory",
        rule="O3",
        convert=boolean,
        range=BOOLEAN,
    ),
)
"""The classic options (O1-O3), shared by every variant built on classic."""


def classic_modules(options: Mapping[str, object]) -> list[RuleModule]:
    """The classic components plus the modules the options O1-O3 switch on."""
    modules = [classic_components()]
    if options["flip_on_empty_bust"]:
        modules.append(flip_on_empty_bust())
    if options["short_game"]:
        modules.append(short_game())
    if not options["optional_steal"]:
        modules.append(optional_steal_off())
    return modules


def _build(options: Mapping[str, object]) -> Sequence[RuleModule]:
    return classic_modules(options)


CLASSIC = Variant(
    name="classic",
    doc=__doc__ or "",
    options=CLASSIC_OPTIONS,
    build=_build,
)
"""The classic variant (Heckmeck am Bratwurmeck / Pickomino, Zoch 2014 rulebook)."""
