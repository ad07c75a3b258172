"""Where the specialists are and how they change hands (rules E2, E5, E6, E13).

A specialist sits on a face-up grill tile, belongs to one player, or has left the
game. Taking a grill tile gains its specialist, stealing a tile gains the robbed
player's specialist (E5). A player keeps at most one: on gaining a second he
chooses (a pending [`KeepSpecialist`][pickomino_rules.variants.specialists.placement.KeepSpecialist]
decision) and the other returns to the grill. A busting player returns his specialist (E6); a
specialist on a tile turned face down moves (E13). Returned or moved specialists go to the lowest
face-up grill tile without a specialist, or leave the game when there is none (E6).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, ClassVar

import attrs

from pickomino_rules import Action, PartKey, RuleModule

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules import Claim, GameState, Rules
    from pickomino_rules.rules import ActionsFn, ApplyFn, StateFn, TakeTileFn

__all__ = [
    "SPECIALISTS",
    "KeepSpecialist",
    "Place",
    "Specialist",
    "Specialists",
    "declare",
    "owner",
    "place_on_grill",
    "specialists",
]


@attrs.frozen
class Specialist:
    """A specialist's declaration by its module.

    Attributes:
        name: Short name, e.g. ``"hen"``.
        start: The grill tile it starts on (E2).
        stays_on_grill: Never owned: when its tile is taken it moves (the crow, E12).
        kept_on_empty_bust: Kept when its owner busts with no tile (the hen, E11).
    """

    name: str
    start: int
    stays_on_grill: bool = False
    kept_on_empty_bust: bool = False


@attrs.frozen
class Place:
    """Where one specialist is: on a grill tile, with a player, or out of the game.

    Attributes:
        tile: The face-up grill tile it sits on, or None.
        owner: The player who owns it, or None.
    """

    tile: int | None = None
    owner: int | None = None

    def __str__(self) -> str:
        if self.tile is not None:
            return f"on {self.tile}"
        return "out of the game" if self.owner is None else f"with player {self.owner}"


OUT = Place()


@attrs.frozen
class Specialists:
    """The specialists' places, and a pending choice of which one to keep.

    Attributes:
        specs: The specialists in play, in declaration order.
        places: Where each one is, aligned with ``specs``.
        chooser: A player who owns two and must keep one, or None.
    """

    specs: tuple[Specialist, ...]
    places: tuple[Place, ...]
    chooser: int | None = None

    def place(self, name: str) -> Place:
        """Where specialist ``name`` is (out of the game if not in play)."""
        for spec, place in zip(self.specs, self.places, strict=True):
            if spec.name == name:
                return place
        return OUT

    def owned_by(self, player: int) -> tuple[str, ...]:
        """Names of the specialists ``player`` owns."""
        return tuple(
            spec.name
            for spec, place in zip(self.specs, self.places, strict=True)
            if place.owner == player
        )

    def on_tile(self, tile: int) -> str | None:
        """The specialist sitting on grill tile ``tile``, if any."""
        for spec, place in zip(self.specs, self.places, strict=True):
            if place.tile == tile:
                return spec.name
        return None

    def moved(self, name: str, place: Place) -> Specialists:
        """A copy with specialist ``name`` at ``place``."""
        places = tuple(
            place if spec.name == name else old
            for spec, old in zip(self.specs, self.places, strict=True)
        )
        return Specialists(self.specs, places, self.chooser)

    def check(self, rules: Rules, state: GameState) -> None:  # noqa: ARG002
        """Invariants: each in one place; one per tile; at most one per owner."""
        tiles = [p.tile for p in self.places if p.tile is not None]
        owners = [p.owner for p in self.places if p.owner is not None]
        problems = []
        if any(p.tile is not None and p.owner is not None for p in self.places):
            problems.append("a specialist in two places")
        if not set(tiles) <= set(state.grill) or len(set(tiles)) != len(tiles):
            problems.append("specialists must sit on distinct face-up grill tiles")
        if not all(0 <= o < state.players for o in owners):
            problems.append("owner out of range")
        for player in set(owners):
            limit = 2 if player == self.chooser else 1
            if owners.count(player) > limit:
                problems.append(f"player {player} owns too many specialists")
        if self.chooser is not None and owners.count(self.chooser) != 2:
            problems.append("a keep-choice needs exactly two specialists")
        if problems:
            msg = f"{'; '.join(problems)}: {self}"
            raise AssertionError(msg)

    def __str__(self) -> str:
        listing = ", ".join(
            f"{spec.name.replace('_', ' ')} {place}"
            for spec, place in zip(self.specs, self.places, strict=True)
        )
        line = f"specialists: {listing}"
        if self.chooser is not None:
            line += f"; player {self.chooser} chooses which to keep"
        return line


SPECIALISTS = PartKey("specialists", Specialists)
"""Where the specialists live in the state."""


@attrs.frozen
class KeepSpecialist(Action):
    """Keep specialist ``name``; the other one returns to the grill (E5).

    Attributes:
        name: The specialist kept.
    """

    keyword: ClassVar[str] = "keep"
    name: str

    def argument_text(self) -> str:  # noqa: D102
        return self.name

    @classmethod
    def from_argument(cls, argument: str) -> KeepSpecialist:  # noqa: D102
        if not argument:
            msg = "'keep' takes a specialist's name"
            raise ValueError(msg)
        return cls(argument)


def owner(rules: Rules, state: GameState, name: str) -> int | None:
    """The player owning specialist ``name``, or None."""
    return SPECIALISTS.get(rules, state).place(name).owner


def place_on_grill(table: Specialists, grill: tuple[int, ...], name: str) -> Specialists:
    """E6: put ``name`` on the lowest free face-up grill tile, or out of the game."""
    table = table.moved(name, OUT)
    taken = {place.tile for place in table.places}
    free = next((tile for tile in grill if tile not in taken), None)
    return table.moved(name, OUT if free is None else Place(tile=free))


def declare(spec: Specialist) -> dict[str, Callable[..., Any]]:
    """The ``extends`` entry a specialist module uses to declare ``spec``."""

    def add(inner: Callable[[], tuple[Specialist, ...]]) -> tuple[Specialist, ...]:
        return (*inner(), spec)

    return {"specialists": add}


def _none_declared() -> tuple[Specialist, ...]:
    return ()


def _settle_tiles(table: Specialists, grill: tuple[int, ...]) -> Specialists:
    """E13: a specialist on a tile no longer face up moves (E6 placement)."""
    for spec, place in zip(table.specs, table.places, strict=True):
        if place.tile is not None and place.tile not in grill:
            table = place_on_grill(table, grill, spec.name)
    return table


def _setup(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    """E2: each specialist on its starting tile (E6 placement if it is missing)."""
    state = inner(rules, state)
    specs = rules.extension("specialists")()
    table = Specialists(specs, (OUT,) * len(specs))
    for spec in specs:
        if spec.start in state.grill and table.on_tile(spec.start) is None:
            table = table.moved(spec.name, Place(tile=spec.start))
        else:
            table = place_on_grill(table, state.grill, spec.name)
    return SPECIALISTS.set(rules, state, table)


def _take_tile(inner: TakeTileFn, rules: Rules, state: GameState, claim: Claim) -> GameState:
    """E5: gain the taken tile's specialist or the robbed player's; E12: the crow moves."""
    table = SPECIALISTS.get(rules, state)
    gained: tuple[str, ...]
    if claim.victim is None:
        sitting = table.on_tile(claim.tile)
        gained = () if sitting is None else (sitting,)
    else:
        gained = table.owned_by(claim.victim)
    state = inner(rules, state, claim)
    for spec in table.specs:
        if spec.name in gained:
            if spec.stays_on_grill:
                table = place_on_grill(table, state.grill, spec.name)
            else:
                table = table.moved(spec.name, Place(owner=state.player))
    if len(table.owned_by(state.player)) > 1:
        table = attrs.evolve(table, chooser=state.player)
    return SPECIALISTS.set(rules, state, table)


def _bust(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    """E13 for turned tiles, then E6: the busting player's specialist goes back."""
    had_tile = bool(state.stacks[state.player])
    state = inner(rules, state)
    table = _settle_tiles(SPECIALISTS.get(rules, state), state.grill)
    for spec in table.specs:
        keeps = spec.kept_on_empty_bust and not had_tile
        if table.place(spec.name).owner == state.player and not keeps:
            table = place_on_grill(table, state.grill, spec.name)
    return SPECIALISTS.set(rules, state, table)


def _pending_actions(inner: ActionsFn, rules: Rules, state: GameState) -> tuple[Action, ...]:
    """E5: while a player owns two, keeping one is the only decision."""
    table = SPECIALISTS.get(rules, state)
    if table.chooser is not None:
        return tuple(KeepSpecialist(name) for name in table.owned_by(table.chooser))
    return inner(rules, state)


def _apply_action(inner: ApplyFn, rules: Rules, state: GameState, action: Action) -> GameState:
    table = SPECIALISTS.get(rules, state)
    if isinstance(action, KeepSpecialist) and table.chooser is not None:
        for name in table.owned_by(table.chooser):
            if name != action.name:
                table = place_on_grill(table, state.grill, name)
        return SPECIALISTS.set(rules, state, attrs.evolve(table, chooser=None))
    return inner(rules, state, action)


def specialists() -> RuleModule:
    """E2, E5, E6, E13: placing, gaining, keeping and returning specialists.

    Compose it after the specialist modules (they declare through it).
    """
    return RuleModule(
        name="specialists",
        doc="E2, E5, E6, E13: specialists' places, gaining, keeping and returning them",
        part=SPECIALISTS,
        action_types=(KeepSpecialist,),
        provides={"specialists": _none_declared},
        setup=_setup,
        take_tile=_take_tile,
        bust=_bust,
        pending_actions=_pending_actions,
        apply_action=_apply_action,
    )
