"""Twins of the specialists' modules (E2, E5-E13): their places, and each one's effect.

The shared module's twin keeps each specialist's place as two arrays, in the order of the
reference's ``Specialists.specs`` (by starting tile): the tile number it sits on (0: none)
and its owner (-1: none). The functions here mirror ``placement``'s one for one.
"""

from __future__ import annotations

from functools import lru_cache
from typing import TYPE_CHECKING, Any

import numpy as np

from pickomino_rules.batch_plugin import (
    PHASE_ROLL,
    POINTS,
    WORM,
    BatchTwin,
    PartTwin,
    pending_beside,
)
from pickomino_rules.variants.grilled_worms import GRILLED_WORM_VICTIMS
from pickomino_rules.variants.specialists.apple import APPLE, APPLE_WORMS
from pickomino_rules.variants.specialists.can import CAN
from pickomino_rules.variants.specialists.crow import CROW
from pickomino_rules.variants.specialists.golden_die import GOLDEN_DIE
from pickomino_rules.variants.specialists.hen import HEN
from pickomino_rules.variants.specialists.placement import (
    GAIN,
    RETURNED_ON_BUST,
    SPECIALIST_DECLARATIONS,
    SPECIALISTS,
    KeepSpecialist,
    Place,
    Specialist,
    Specialists,
)
from pickomino_rules.variants.specialists.weasel import (
    WEASEL,
    WEASEL_PART,
    SkipWeasel,
    UseWeasel,
    WeaselState,
)
from pickomino_rules.variants.twins.grilled_worms import award

if TYPE_CHECKING:
    from collections.abc import Callable

    from numpy.typing import NDArray

    from pickomino_rules.batch_plugin import BatchTable
    from pickomino_rules.dice import DieKind
    from pickomino_rules.plugin import Rules

    Rows = NDArray[np.int64]
    Hook = Callable[..., Any]

__all__ = [
    "APPLE_TWIN",
    "CAN_TWIN",
    "CROW_TWIN",
    "HEN_TWIN",
    "SPECIALISTS_TWIN",
    "WEASEL_TWIN",
    "golden_die_twin",
]

_NAME = SPECIALISTS.name


@lru_cache(maxsize=64)  # per rules: bounded, as rules of many options come and go
def _specs(rules: Rules) -> tuple[Specialist, ...]:
    """Twin of ``placement._declared``: the specialists in play, by starting tile."""
    specs = rules.extension(SPECIALIST_DECLARATIONS)()
    return tuple(sorted(specs, key=lambda spec: (spec.start, spec.name)))


def _at(table: BatchTable, spec: Specialist) -> int:
    return _specs(table.rules).index(spec)


def owner(table: BatchTable, rows: Rows, spec: Specialist) -> Rows:
    """Twin of ``placement.owner``: the player owning ``spec`` in each row, -1 for none."""
    column = table.parts[_NAME]["owner"][:, _at(table, spec)]  # a view: one gather, not two
    owners: Rows = column[rows].astype(np.int64)
    return owners


def _owned_by(table: BatchTable, rows: Rows, players: Rows) -> NDArray[np.bool_]:
    """Twin of ``Specialists.owned_by``: which specialists each row's player owns."""
    found: NDArray[np.bool_] = table.parts[_NAME]["owner"][rows] == players[:, None]
    return found


def _place_on_grill(table: BatchTable, rows: Rows, at: int) -> None:
    """Twin of ``place_on_grill``: specialist ``at`` on the lowest free face-up tile, or out."""
    part = table.parts[_NAME]
    others = part["tile"][rows].astype(np.int64)
    others[:, at] = 0  # the tiles the other specialists sit on
    taken = np.bitwise_or.reduce(
        np.where(others > 0, 1 << np.maximum(table.index_of[others], 0), 0), axis=1
    )
    free = table.grill[rows] & ~taken
    lowest = table.highest(free & -free)
    part["tile"][rows, at] = np.where(free != 0, table.tiles[np.maximum(lowest, 0)], 0)
    part["owner"][rows, at] = -1


def return_to_grill(table: BatchTable, rows: Rows, spec: Specialist) -> None:
    """Twin of ``return_to_grill``."""
    _place_on_grill(table, rows, _at(table, spec))


def gain(table: BatchTable, rows: Rows, spec: Specialist, players: Rows) -> None:
    """Twin of ``placement.gain``: each row's player gains ``spec`` (E5), as `GAIN` says."""
    table.extension(GAIN)(table, rows, spec, players)


def _owns(table: BatchTable, rows: Rows, spec: Specialist, players: Rows) -> None:
    """Twin of ``placement._owns``, the default of `GAIN`."""
    part = table.parts[_NAME]
    at = _at(table, spec)
    part["tile"][rows, at] = 0
    part["owner"][rows, at] = players
    two = _owned_by(table, rows, players).sum(axis=1) > 1
    part["chooser"][rows[two]] = players[two]


def _owned(table: BatchTable, rows: Rows) -> NDArray[np.bool_]:
    """Twin of ``placement._owned``, the default of `RETURNED_ON_BUST`."""
    return _owned_by(table, rows, table.player[rows].astype(np.int64))


def _arrays(table: BatchTable) -> dict[str, NDArray[Any]]:
    count = len(_specs(table.rules))
    return {
        "tile": np.zeros((table.size, count), dtype=np.int8),
        "owner": np.full((table.size, count), -1, dtype=np.int8),
        "chooser": np.full(table.size, -1, dtype=np.int8),
    }


def _read(table: BatchTable, row: int) -> Specialists:
    part = table.parts[_NAME]
    places = tuple(
        Place(tile=tile or None, owner=None if owner < 0 else owner)
        for tile, owner in zip(part["tile"][row].tolist(), part["owner"][row].tolist(), strict=True)
    )
    chooser = int(part["chooser"][row])
    return Specialists(_specs(table.rules), places, None if chooser < 0 else chooser)


def _write(table: BatchTable, row: int, value: object) -> None:
    assert isinstance(value, Specialists)  # noqa: S101 (a validated state's part)
    part = table.parts[_NAME]
    part["tile"][row] = [place.tile or 0 for place in value.places]
    part["owner"][row] = [-1 if place.owner is None else place.owner for place in value.places]
    part["chooser"][row] = -1 if value.chooser is None else value.chooser


def _observe(table: BatchTable, rows: Rows, me: Rows) -> NDArray[np.float32]:
    """Twin of the part's ``_features``: each one's tile and owner (by seat); the chooser."""
    part, n = table.parts[_NAME], table.players
    count, tiles = part["tile"].shape[1], len(table.tiles)
    block = tiles + n
    out = np.zeros((len(rows), count * block + n), dtype=np.float32)
    lines = np.arange(len(rows))
    for at in range(count):
        tile = part["tile"][rows, at].astype(np.int64)
        on = tile > 0
        out[lines[on], at * block + table.index_of[tile[on]]] = 1
        held = part["owner"][rows, at].astype(np.int64)
        owned = held >= 0
        out[lines[owned], at * block + tiles + (held[owned] - me[owned]) % n] = 1
    chooser = part["chooser"][rows].astype(np.int64)
    choosing = chooser >= 0
    out[lines[choosing], count * block + (chooser[choosing] - me[choosing]) % n] = 1
    return out


def _setup(inner: Hook, table: BatchTable, rows: Rows) -> None:
    """Twin of ``placement._setup`` (E2)."""
    inner(table, rows)
    part = table.parts[_NAME]
    part["tile"][rows] = 0
    part["owner"][rows] = -1
    part["chooser"][rows] = -1
    for at, spec in enumerate(_specs(table.rules)):
        index = table.index_of[spec.start] if spec.start < len(table.index_of) else -1
        on_grill = (
            (table.grill[rows] >> max(index, 0)) & 1 == 1
            if index >= 0
            else np.zeros(len(rows), dtype=np.bool_)
        )
        free = on_grill & ~(part["tile"][rows] == spec.start).any(axis=1)
        part["tile"][rows[free], at] = spec.start
        if (~free).any():
            _place_on_grill(table, rows[~free], at)


def _take_tile(inner: Hook, table: BatchTable, rows: Rows, tiles: Rows, victims: Rows) -> None:
    """Twin of ``placement._take_tile`` (E5): gain the tile's specialist or the victim's."""
    part = table.parts[_NAME]
    numbers = np.where(tiles >= 0, table.tiles[np.maximum(tiles, 0)], -1)
    gained = np.where(
        (victims >= 0)[:, None],
        part["owner"][rows] == victims[:, None],
        part["tile"][rows] == numbers[:, None],
    )
    inner(table, rows, tiles, victims)
    players = table.player[rows].astype(np.int64)
    specs = _specs(table.rules)
    for at in np.flatnonzero(gained.any(axis=0)).tolist():  # in the specialists' order
        gaining = np.flatnonzero(gained[:, at])
        gain(table, rows[gaining], specs[at], players[gaining])


def _settle_tiles(table: BatchTable, rows: Rows) -> None:
    """Twin of ``placement._settle_tiles`` (E13): a specialist on a turned tile moves."""
    part = table.parts[_NAME]
    tiles = part["tile"][rows].astype(np.int64)
    on_grill = (table.grill[rows, None] >> np.maximum(table.index_of[tiles], 0)) & 1 == 1
    gone = (tiles > 0) & ~on_grill  # a specialist moved earlier keeps to face-up tiles
    for at in np.flatnonzero(gone.any(axis=0)).tolist():
        _place_on_grill(table, rows[gone[:, at]], at)


def _bust(inner: Hook, table: BatchTable, rows: Rows) -> None:
    """Twin of ``placement._bust`` (E13, then E6)."""
    returned = table.extension(RETURNED_ON_BUST)(table, rows)
    inner(table, rows)
    _settle_tiles(table, rows)
    for at in np.flatnonzero(returned.any(axis=0)).tolist():
        _place_on_grill(table, rows[returned[:, at]], at)


def _keeps(table: BatchTable) -> NDArray[np.int64]:
    """The action number of keeping each specialist, in ``specs`` order."""
    return np.array([table.number(KeepSpecialist(spec.name)) for spec in _specs(table.rules)])


def _pending_actions(inner: Hook, table: BatchTable, rows: Rows) -> NDArray[np.bool_]:
    """Twin of ``placement._pending_actions`` (E5): keep one of two."""
    chooser = table.parts[_NAME]["chooser"][rows].astype(np.int64)
    choosing = np.flatnonzero(chooser >= 0)
    if not choosing.size:  # mostly: nobody is choosing
        found: NDArray[np.bool_] = inner(table, rows)
        return found
    mask = pending_beside(inner, table, rows, choosing)
    owned = _owned_by(table, rows[choosing], chooser[choosing])
    mask[choosing[:, None], _keeps(table)] = owned
    return mask


def _apply_action(inner: Hook, table: BatchTable, rows: Rows, actions: Rows) -> None:
    """Twin of ``placement._apply_action``: the kept one stays, the other goes back (E5)."""
    part = table.parts[_NAME]
    keeps = _keeps(table)
    chooser = part["chooser"][rows].astype(np.int64)
    keeping = (chooser >= 0) & np.isin(actions, keeps)
    if keeping.any():
        picked = rows[keeping]
        kept = np.argmax(keeps == actions[keeping, None], axis=1)
        owned = _owned_by(table, picked, chooser[keeping])
        for at in range(owned.shape[1]):
            back = owned[:, at] & (kept != at)
            if back.any():
                _place_on_grill(table, picked[back], at)
        part["chooser"][picked] = -1
    if not keeping.all():
        inner(table, rows[~keeping], actions[~keeping])


def _declare(spec: Specialist) -> Callable[[Callable[[], tuple[Specialist, ...]]], Any]:
    """Twin of ``declare``: the declarations are no per-game work, so the same function."""

    def add(inner: Callable[[], tuple[Specialist, ...]]) -> tuple[Specialist, ...]:
        return (*inner(), spec)

    return add


def _none_declared() -> tuple[Specialist, ...]:
    return ()


SPECIALISTS_TWIN = BatchTwin(
    part=PartTwin(_arrays, _read, _write, _observe),
    provides={SPECIALIST_DECLARATIONS: _none_declared, GAIN: _owns, RETURNED_ON_BUST: _owned},
    setup=_setup,
    take_tile=_take_tile,
    bust=_bust,
    pending_actions=_pending_actions,
    apply_action=_apply_action,
)
"""The twin of ``specialists()``."""


# ---------------------------------------------------------------------- the hen (E11)


def _hen_take_tile(inner: Hook, table: BatchTable, rows: Rows, tiles: Rows, victims: Rows) -> None:
    shielded = (victims >= 0) & (owner(table, rows, HEN) == victims)
    if shielded.any():
        gain(table, rows[shielded], HEN, table.player[rows[shielded]].astype(np.int64))
    if not shielded.all():
        inner(table, rows[~shielded], tiles[~shielded], victims[~shielded])


def _holding(table: BatchTable, rows: Rows) -> NDArray[np.bool_]:
    found: NDArray[np.bool_] = table.heights[rows, table.player[rows]] > 0
    return found


def _hen_bust(inner: Hook, table: BatchTable, rows: Rows) -> None:
    instead = _holding(table, rows) & (owner(table, rows, HEN) == table.player[rows])
    if instead.any():
        return_to_grill(table, rows[instead], HEN)
    if not instead.all():
        inner(table, rows[~instead])


def _hen_returned(inner: Hook, table: BatchTable, rows: Rows) -> NDArray[np.bool_]:
    returned: NDArray[np.bool_] = inner(table, rows).copy()
    returned[:, _at(table, HEN)] &= _holding(table, rows)
    return returned


def _hen_victims(inner: Hook, table: BatchTable, rows: Rows, takers: Rows) -> NDArray[np.bool_]:
    victims: NDArray[np.bool_] = inner(table, rows, takers) & (
        table.seats != owner(table, rows, HEN)[:, None]
    )
    return victims


HEN_TWIN = BatchTwin(
    extends={
        SPECIALIST_DECLARATIONS: _declare(HEN),
        RETURNED_ON_BUST: _hen_returned,
        GRILLED_WORM_VICTIMS: _hen_victims,
    },
    take_tile=_hen_take_tile,
    bust=_hen_bust,
)
"""The twin of ``hen()``."""


# ---------------------------------------------------------------------- the crow (E12)


def _crow_gain(inner: Hook, table: BatchTable, rows: Rows, spec: Specialist, players: Rows) -> None:
    if spec is not CROW and spec != CROW:
        inner(table, rows, spec, players)
        return
    return_to_grill(table, rows, CROW)
    award(table, rows, players)


CROW_TWIN = BatchTwin(extends={SPECIALIST_DECLARATIONS: _declare(CROW), GAIN: _crow_gain})
"""The twin of ``crow()``."""


# ---------------------------------------------------------------------- the can (E9)


def _can_stop_total(inner: Hook, table: BatchTable, rows: Rows) -> Rows:
    totals: Rows = inner(table, rows)
    stands_in = np.flatnonzero(
        (totals < 0)
        & (table.set_aside[:, WORM][rows] == 0)
        & (owner(table, rows, CAN) == table.player[rows])
    )
    if stands_in.size:
        totals = totals.copy()
        totals[stands_in] = table.totals(rows[stands_in]) + POINTS[WORM]
    return totals


CAN_TWIN = BatchTwin(extends={SPECIALIST_DECLARATIONS: _declare(CAN)}, stop_total=_can_stop_total)
"""The twin of ``can()``."""


# ---------------------------------------------------------------------- the apple (E7)


def _apple_scores(inner: Hook, table: BatchTable, rows: Rows) -> Rows:
    worms: Rows = inner(table, rows)
    bonus: Rows = APPLE_WORMS * (table.seats == owner(table, rows, APPLE)[:, None])
    return worms + bonus


APPLE_TWIN = BatchTwin(extends={SPECIALIST_DECLARATIONS: _declare(APPLE)}, scores=_apple_scores)
"""The twin of ``apple()``."""


# ---------------------------------------------------------------------- the golden die (E8)


def golden_die_twin(kind: DieKind) -> BatchTwin:
    """The twin of ``golden_die(...)``, whose die is ``kind``."""

    def turn_dice(inner: Hook, table: BatchTable, rows: Rows) -> NDArray[np.int8]:
        dice = np.array(inner(table, rows), dtype=np.int8)
        index = table.rules.die_kinds.index(kind)
        dice[:, index] += owner(table, rows, GOLDEN_DIE) == table.player[rows]
        return dice

    return BatchTwin(extends={SPECIALIST_DECLARATIONS: _declare(GOLDEN_DIE)}, turn_dice=turn_dice)


# ---------------------------------------------------------------------- the weasel (E10)

_WEASEL = WEASEL_PART.name


def _weasel_arrays(table: BatchTable) -> dict[str, NDArray[Any]]:
    return {"used": np.zeros(table.size, dtype=np.bool_)}


def _weasel_read(table: BatchTable, row: int) -> WeaselState:
    return WeaselState(used=bool(table.parts[_WEASEL]["used"][row]))


def _weasel_write(table: BatchTable, row: int, value: object) -> None:
    assert isinstance(value, WeaselState)  # noqa: S101 (a validated state's part)
    table.parts[_WEASEL]["used"][row] = value.used


def _weasel_observe(table: BatchTable, rows: Rows, me: Rows) -> NDArray[np.float32]:  # noqa: ARG001
    return table.parts[_WEASEL]["used"][rows, None].astype(np.float32)


def _weasel_setup(inner: Hook, table: BatchTable, rows: Rows) -> None:
    inner(table, rows)
    table.parts[_WEASEL]["used"][rows] = False


def _weasel_roll_actions(inner: Hook, table: BatchTable, rows: Rows) -> NDArray[np.bool_]:
    takes: NDArray[np.bool_] = inner(table, rows)
    ready = np.flatnonzero(
        (owner(table, rows, WEASEL) == table.player[rows]) & ~table.parts[_WEASEL]["used"][rows]
    )
    if ready.size:
        takes = takes.copy()
        offered = takes[ready]
        busting = ready[~(offered[:, 1] | offered[:, 2] | offered[:, 3])]
        busting = busting[~(takes[busting, 4] | takes[busting, 5] | takes[busting, 6])]
        takes[ready, table.number(UseWeasel())] = True
        takes[busting, table.number(SkipWeasel())] = True
    return takes


def _weasel_apply_action(inner: Hook, table: BatchTable, rows: Rows, actions: Rows) -> None:
    use, skip = actions == table.number(UseWeasel()), actions == table.number(SkipWeasel())
    mine = use | skip
    table.parts[_WEASEL]["used"][rows[mine]] = True
    table.phase[rows[use]] = PHASE_ROLL
    table.roll[rows[use]] = 0
    if not mine.all():
        inner(table, rows[~mine], actions[~mine])


def _weasel_end_turn(inner: Hook, table: BatchTable, rows: Rows) -> None:
    inner(table, rows)
    table.parts[_WEASEL]["used"][rows] = False


WEASEL_TWIN = BatchTwin(
    part=PartTwin(_weasel_arrays, _weasel_read, _weasel_write, _weasel_observe),
    extends={SPECIALIST_DECLARATIONS: _declare(WEASEL)},
    setup=_weasel_setup,
    roll_actions=_weasel_roll_actions,
    apply_action=_weasel_apply_action,
    end_turn=_weasel_end_turn,
)
"""The twin of ``weasel()``."""
