"""Where the specialists are and how they change hands (rules E2, E5, E6, E13).

A specialist sits on a face-up grill tile, belongs to one player, or has left the
game. Taking a grill tile gains its specialist, stealing a tile gains the robbed
player's specialist (E5). A player keeps at most one: on gaining a second he
chooses (a pending [`KeepSpecialist`][pickomino_rules.variants.specialists.placement.KeepSpecialist]
decision) and the other returns to the grill. A busting player returns his specialist (E6); a
specialist on a tile turned face down moves (E13). Returned or moved specialists go to the lowest
face-up grill tile without a specialist, or leave the game when there is none (E6).

Each specialist's own rules live in its own module, which declares it through
[`SPECIALIST_DECLARATIONS`][pickomino_rules.variants.specialists.placement.SPECIALIST_DECLARATIONS]
(see [`declare`][pickomino_rules.variants.specialists.placement.declare]) and changes what this
module does through two more extension points:
[`GAIN`][pickomino_rules.variants.specialists.placement.GAIN] (the crow is never owned) and
[`RETURNED_ON_BUST`][pickomino_rules.variants.specialists.placement.RETURNED_ON_BUST] (the hen
is kept on a bust without a tile). Specialists are looked up by their declaration object, never
by a string.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, ClassVar

import attrs

from pickomino_rules.actions import Action
from pickomino_rules.errors import PickominoError
from pickomino_rules.plugin import Extension, ExtensionPoint, Marker, PartKey, RuleModule

if TYPE_CHECKING:
    from collections.abc import Callable, Iterator

    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        ActionsFn,
        ApplyFn,
        Claim,
        CompiledTwins,
        GameState,
        PlayerName,
        Rules,
        StateFn,
        TakeTileFn,
    )

__all__ = [
    "GAIN",
    "RETURNED_ON_BUST",
    "SPECIALISTS",
    "SPECIALIST_DECLARATIONS",
    "KeepSpecialist",
    "Place",
    "Specialist",
    "Specialists",
    "UnknownSpecialistError",
    "declare",
    "gain",
    "owner",
    "place_on_grill",
    "return_to_grill",
    "specialists",
]


@attrs.frozen(cache_hash=True)
class Specialist:
    """A specialist, as its module declares it; the key to look it up.

    Attributes:
        name: Short name, e.g. ``"hen"`` (the text form of ``keep``).
        start: The grill tile it starts on (E2).
    """

    name: str
    start: int


class UnknownSpecialistError(PickominoError, LookupError):
    """A specialist that no composed module declares (a module bug)."""


@attrs.frozen(cache_hash=True)
class Place:
    """Where one specialist is: on a grill tile, with a player, or out of the game.

    Attributes:
        tile: The face-up grill tile it sits on, or None.
        owner: The player who owns it, or None.
    """

    tile: int | None = None
    owner: int | None = None

    def describe(self, name: PlayerName) -> str:
        """Where it is in words, the owner called ``name(index)``."""
        if self.tile is not None:
            return f"on {self.tile}"
        return "out of the game" if self.owner is None else f"with {name(self.owner)}"

    def __str__(self) -> str:
        return self.describe(lambda player: f"player {player}")


OUT = Place()


# Each specialist's position in ``specs``, by name, for the last ``specs`` tuple seen: every
# table of a game shares its first table's tuple, so this is worked out once a game.
_POSITIONS: list[tuple[tuple[Specialist, ...] | None, dict[str, int]]] = [(None, {})]


def _positions(specs: tuple[Specialist, ...]) -> dict[str, int]:
    last = _POSITIONS[0]
    if last[0] is specs:
        return last[1]
    positions = {spec.name: at for at, spec in enumerate(specs)}
    _POSITIONS[0] = (specs, positions)  # replaced whole: safe between threads
    return positions


_ByPlace = tuple[dict[int | None, tuple[Specialist, ...]], tuple[tuple[Specialist, int], ...]]
"""What each player owns (None: nobody), and the specialists on grill tiles with their tile."""


@attrs.frozen(cache_hash=True)
class Specialists:
    """The specialists' places, and a pending choice of which one to keep.

    Attributes:
        specs: The specialists in play, by starting tile.
        places: Where each one is, aligned with ``specs``.
        chooser: A player who owns two and must keep one, or None.
    """

    specs: tuple[Specialist, ...]
    places: tuple[Place, ...]
    chooser: int | None = None
    # The rules' hooks ask where a specialist is at every step, and what a player owns and
    # what sits on the grill at every turn's end; a table lasts until a specialist moves. The
    # positions by name are shared by the tables of a game; the rest is worked out when first
    # asked, as the tables made on the way of a move are never asked.
    _at: dict[str, int] = attrs.field(init=False, eq=False, repr=False)
    _by_place: _ByPlace | None = attrs.field(init=False, default=None, eq=False, repr=False)

    @_at.default
    def _look_up(self) -> dict[str, int]:
        if len(self.places) != len(self.specs):
            msg = f"{len(self.places)} places for {len(self.specs)} specialists"
            raise ValueError(msg)
        return _positions(self.specs)

    def _grouped_by_place(self) -> _ByPlace:
        found = self._by_place
        if found is None:
            owned: dict[int | None, tuple[Specialist, ...]] = {}
            on_tiles = []
            for spec, place in zip(self.specs, self.places, strict=True):
                owned[place.owner] = (*owned.get(place.owner, ()), spec)
                if place.tile is not None:
                    on_tiles.append((spec, place.tile))
            found = (owned, tuple(on_tiles))
            object.__setattr__(self, "_by_place", found)  # a cache: the value is unchanged
        return found

    def place(self, spec: Specialist) -> Place:
        """Where ``spec`` is.

        Raises:
            UnknownSpecialistError: No composed module declares ``spec``.
        """
        at = self._at.get(spec.name)  # _index_of's first lines: a call less per step
        if at is not None and (self.specs[at] is spec or self.specs[at] == spec):
            return self.places[at]
        return self.places[self._index_of(spec)]

    def _index_of(self, spec: Specialist) -> int:
        at = self._at.get(spec.name)
        if at is not None and (self.specs[at] is spec or self.specs[at] == spec):
            return at  # mostly the declared object itself: no attrs __eq__ call
        for index, known in enumerate(self.specs):  # two specialists with one name
            if known == spec:
                return index
        msg = f"no composed module declares the specialist {spec.name!r}"
        raise UnknownSpecialistError(msg)

    def named(self, name: str) -> Specialist | None:
        """The specialist called ``name``, if one is in play."""
        return next((spec for spec in self.specs if spec.name == name), None)

    def owned_by(self, player: int) -> tuple[Specialist, ...]:
        """The specialists ``player`` owns."""
        return self._grouped_by_place()[0].get(player, ())

    def on_tiles(self) -> tuple[tuple[Specialist, int], ...]:
        """The specialists sitting on grill tiles, each with its tile."""
        return self._grouped_by_place()[1]

    def on_tile(self, tile: int) -> Specialist | None:
        """The specialist sitting on grill tile ``tile``, if any."""
        for spec, place in zip(self.specs, self.places, strict=True):
            if place.tile == tile:
                return spec
        return None

    def moved(self, spec: Specialist, place: Place) -> Specialists:
        """A copy with ``spec`` at ``place``.

        Raises:
            UnknownSpecialistError: No composed module declares ``spec``.
        """
        at = self._index_of(spec)
        places = self.places
        return Specialists(self.specs, (*places[:at], place, *places[at + 1 :]), self.chooser)

    def describe(self, name: PlayerName) -> str:
        """The specialists' places in one line, the players called ``name(index)``."""
        listing = ", ".join(
            f"{spec.name.replace('_', ' ')} {place.describe(name)}"
            for spec, place in zip(self.specs, self.places, strict=True)
        )
        line = f"specialists: {listing}"
        if self.chooser is not None:
            line += f"; {name(self.chooser)} chooses which to keep"
        return line

    def __str__(self) -> str:
        return self.describe(lambda player: f"player {player}")


def _declared(rules: Rules) -> tuple[Specialist, ...]:
    """The specialists in play, by starting tile (whatever order their modules have)."""
    specs = rules.extension(SPECIALIST_DECLARATIONS)()
    return tuple(sorted(specs, key=lambda spec: (spec.start, spec.name)))


def _problems(rules: Rules, state: GameState, table: Specialists) -> Iterator[str]:
    """Each in one place; one per face-up tile; at most one per owner but a chooser's two."""
    declared = _declared(rules)
    if table.specs != declared or len(table.places) != len(declared):
        yield f"the specialists in play are {', '.join(s.name for s in declared)}: {table}"
        return
    tiles = [p.tile for p in table.places if p.tile is not None]
    owners = [p.owner for p in table.places if p.owner is not None]
    if any(p.tile is not None and p.owner is not None for p in table.places):
        yield f"a specialist in two places: {table}"
    if not set(tiles) <= set(state.grill) or len(set(tiles)) != len(tiles):
        yield f"specialists must sit on distinct face-up grill tiles: {table}"
    if not all(0 <= o < state.players for o in owners):
        yield f"owner out of range: {table}"
    for player in sorted(set(owners)):
        if owners.count(player) > (2 if player == table.chooser else 1):
            yield f"player {player} owns too many specialists: {table}"
    if table.chooser is not None and owners.count(table.chooser) != 2:
        yield f"a keep-choice needs exactly two specialists: {table}"


def _features(rules: Rules, state: GameState, table: Specialists, me: int) -> list[float]:
    """For each specialist its grill tile (one-hot) and owner (by seat); then the chooser."""
    n, tiles = state.players, rules.tiles
    block = len(tiles) + n
    features = [0.0] * (len(table.places) * block + n)
    for index, place in enumerate(table.places):
        if place.tile is not None:
            features[index * block + tiles.index(place.tile)] = 1.0
        if place.owner is not None:
            features[index * block + len(tiles) + (place.owner - me) % n] = 1.0
    if table.chooser is not None:
        features[-n + (table.chooser - me) % n] = 1.0
    return features


def _describe(rules: Rules, state: GameState, table: Specialists, name: PlayerName) -> str:  # noqa: ARG001
    return table.describe(name)


def _changes(rules: Rules, before: GameState, after: GameState, name: PlayerName) -> list[str]:
    """Specialists taken, robbed, put back or put out of the game."""
    old, new = SPECIALISTS.get(rules, before), SPECIALISTS.get(rules, after)
    events = []
    for spec, was, now in zip(new.specs, old.places, new.places, strict=True):
        if was == now:
            continue
        called = "the " + spec.name.replace("_", " ")
        if now.owner is not None:
            source = f" from {name(was.owner)}" if was.owner is not None else ""
            events.append(f"{name(now.owner)} takes {called}{source}")
        elif now.tile is not None:
            events.append(f"{called} goes back on {now.tile}")
        else:
            events.append(f"{called} leaves the game")
    return events


def _markers(rules: Rules, state: GameState, table: Specialists) -> list[Marker]:  # noqa: ARG001
    return [
        Marker(spec.name.replace("_", " "), tile=place.tile, player=place.owner)
        for spec, place in zip(table.specs, table.places, strict=True)
        if place.tile is not None or place.owner is not None
    ]


SPECIALISTS = PartKey(
    "specialists",
    Specialists,
    check=_problems,
    observe=_features,
    describe=_describe,
    changes=_changes,
    markers=_markers,
)
"""Where the specialists live in the state."""


def _none_declared() -> tuple[Specialist, ...]:
    return ()


SPECIALIST_DECLARATIONS = ExtensionPoint(
    "specialist_declarations", _none_declared, "the specialists in play (E1, E2)"
)
"""The specialists in play: each specialist module adds its own (see `declare`)."""


def _owns(rules: Rules, state: GameState, spec: Specialist, player: int) -> GameState:
    """Default of `GAIN`: ``player`` owns ``spec``; with two, he must choose one (E5)."""
    table = SPECIALISTS.get(rules, state).moved(spec, Place(owner=player))
    if len(table.owned_by(player)) > 1:
        table = attrs.evolve(table, chooser=player)
    return SPECIALISTS.set(rules, state, table)


GAIN = ExtensionPoint("gain_specialist", _owns, "what gaining a specialist does (E5)")
"""What happens when ``player`` gains ``spec``: ``gain(rules, state, spec, player)``.

By default he owns it (and chooses which to keep when he has two, E5); the crow is never
owned (E12).
"""


def _owned(rules: Rules, state: GameState) -> tuple[Specialist, ...]:
    """Default of `RETURNED_ON_BUST`: everything the busting player owns (E6)."""
    return SPECIALISTS.get(rules, state).owned_by(state.player)


RETURNED_ON_BUST = ExtensionPoint(
    "returned_on_bust", _owned, "the specialists a busting player returns (E6)"
)
"""Which of the busting player's specialists go back to the grill, asked before the bust.

By default all he owns; the hen stays with an owner who has no tile (E11).
"""


@attrs.frozen(cache_hash=True)
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

    @classmethod
    def instances(cls, rules: Rules, players: int) -> tuple[Action, ...]:  # noqa: ARG003, D102
        return tuple(cls(spec.name) for spec in _declared(rules))


def owner(rules: Rules, state: GameState, spec: Specialist) -> int | None:
    """The player owning ``spec``, or None.

    Raises:
        UnknownSpecialistError: No composed module declares ``spec``.
    """
    table = SPECIALISTS.get(rules, state)
    at = table._at.get(spec.name)  # noqa: SLF001 (place()'s first lines: asked at every step)
    if at is not None and table.specs[at] is spec:
        return table.places[at].owner
    return table.place(spec).owner


def place_on_grill(table: Specialists, grill: tuple[int, ...], spec: Specialist) -> Specialists:
    """E6: put ``spec`` on the lowest free face-up grill tile, or out of the game."""
    at = table._index_of(spec)  # noqa: SLF001 (this module's own class)
    taken = {place.tile for index, place in enumerate(table.places) if index != at}
    free = next((tile for tile in grill if tile not in taken), None)
    return table.moved(spec, OUT if free is None else Place(tile=free))


def return_to_grill(rules: Rules, state: GameState, spec: Specialist) -> GameState:
    """``state`` with ``spec`` put back on the grill by the E6 placement."""
    table = place_on_grill(SPECIALISTS.get(rules, state), state.grill, spec)
    return SPECIALISTS.set(rules, state, table)


def gain(rules: Rules, state: GameState, spec: Specialist, player: int) -> GameState:
    """``player`` gains ``spec`` (E5), as the composed `GAIN` point says."""
    return rules.extension(GAIN)(rules, state, spec, player)


def declare(spec: Specialist) -> Extension:
    """The ``extends`` entry by which a specialist module puts ``spec`` in play."""

    def add(inner: Callable[[], tuple[Specialist, ...]]) -> tuple[Specialist, ...]:
        return (*inner(), spec)

    return SPECIALIST_DECLARATIONS.wrap(add)


def _settle_tiles(table: Specialists, grill: tuple[int, ...]) -> Specialists:
    """E13: a specialist on a tile no longer face up moves (E6 placement)."""
    for spec, tile in table.on_tiles():
        if tile not in grill:
            table = place_on_grill(table, grill, spec)
    return table


def _setup(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    """E2: each specialist on its starting tile (E6 placement if it is missing)."""
    state = inner(rules, state)
    specs = _declared(rules)
    table = Specialists(specs, (OUT,) * len(specs))
    for spec in specs:
        if spec.start in state.grill and table.on_tile(spec.start) is None:
            table = table.moved(spec, Place(tile=spec.start))
        else:
            table = place_on_grill(table, state.grill, spec)
    return SPECIALISTS.set(rules, state, table)


def _take_tile(inner: TakeTileFn, rules: Rules, state: GameState, claim: Claim) -> GameState:
    """E5: gain the taken tile's specialist, or the robbed player's."""
    table = SPECIALISTS.get(rules, state)
    gained: tuple[Specialist, ...]
    if claim.victim is None:
        sitting = table.on_tile(claim.tile)
        gained = () if sitting is None else (sitting,)
    else:
        gained = table.owned_by(claim.victim)
    state = inner(rules, state, claim)
    for spec in gained:
        state = gain(rules, state, spec, state.player)
    return state


def _bust(inner: StateFn, rules: Rules, state: GameState) -> GameState:
    """E13 for turned tiles, then E6: the busting player's specialists go back."""
    returned = rules.extension(RETURNED_ON_BUST)(rules, state)
    state = inner(rules, state)
    before = SPECIALISTS.get(rules, state)
    table = _settle_tiles(before, state.grill)
    for spec in returned:
        table = place_on_grill(table, state.grill, spec)
    return state if table is before else SPECIALISTS.set(rules, state, table)


def _pending_actions(inner: ActionsFn, rules: Rules, state: GameState) -> tuple[Action, ...]:
    """E5: while a player owns two, keeping one is the only decision."""
    table = SPECIALISTS.get(rules, state)
    if table.chooser is not None:
        return tuple(KeepSpecialist(spec.name) for spec in table.owned_by(table.chooser))
    return inner(rules, state)


def _apply_action(inner: ApplyFn, rules: Rules, state: GameState, action: Action) -> GameState:
    table = SPECIALISTS.get(rules, state)
    if isinstance(action, KeepSpecialist) and table.chooser is not None:
        for spec in table.owned_by(table.chooser):
            if spec.name != action.name:
                table = place_on_grill(table, state.grill, spec)
        return SPECIALISTS.set(rules, state, attrs.evolve(table, chooser=None))
    return inner(rules, state, action)


def specialists() -> RuleModule:
    """E2, E5, E6, E13: placing, gaining, keeping and returning specialists.

    The specialist modules declare their specialists through it, in any order.
    """
    return RuleModule(
        name="specialists",
        guide=(
            "Six specialists start on grill tiles: can on 11, hen on 21, crow on 23, weasel "
            "on 25, golden die on 27, apple on 29 (E2). Take a tile that carries one, or "
            "steal from its owner, and it is yours (E5); you keep one only, choosing when you "
            "would gain a second. Bust and yours goes back to the grill, onto the lowest free "
            "face-up tile (E6); a specialist on a tile turned face down moves the same way "
            "(E13)."
        ),
        doc="E2, E5, E6, E13: specialists' places, gaining, keeping and returning them",
        # E6: specialists are placed after the bust's tile is returned and turned, so
        # the modules that turn tiles in a bust (O1, O2) run inside this one.
        after=("flip_on_empty_bust", "short_game"),
        part=SPECIALISTS,
        action_types=(KeepSpecialist,),
        provides=(SPECIALIST_DECLARATIONS, GAIN, RETURNED_ON_BUST),
        setup=_setup,
        take_tile=_take_tile,
        bust=_bust,
        pending_actions=_pending_actions,
        apply_action=_apply_action,
        ends_on_total=True,  # sees the dice only as their total at a turn's end
        mid_turn_by_count=True,  # nothing of it reads the dice while they are rolled
        pending_by_parts=True,  # who keeps which specialist is kept in the table
        batch=_twin,
        compiled=_compiled_twins,
    )


def _twin() -> BatchTwin:
    """The batch engine's twin (imported when a batch is made: it needs numpy)."""
    from pickomino_rules.variants.twins import specialists  # noqa: PLC0415

    return specialists.SPECIALISTS_TWIN


def _compiled_twins() -> CompiledTwins:
    """The compiled twins of its busiest hooks (where they were built)."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.SPECIALISTS
