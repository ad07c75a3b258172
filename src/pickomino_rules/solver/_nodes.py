"""The node graph of a turn: the nodes reachable from a start and the rolls between them.

Also the parts of the graph that one board's values cover (a board changed mid-turn holds
only below the change). The graph is board-independent and cached per start.

The graph follows three core rules over many nodes at once, under the rules'
``mid_turn_by_count`` promise (only the core decides them while dice are rolled). Which faces
a roll offers (C4) and whether the dice may be rolled again (C6) it takes from the reference,
`turn.offered_faces` and `turn.can_roll`, tabulated; the rest it restates: ``MIRRORS`` names
each function's reference, and ``tests/solver/test_solver_mirror.py`` checks every node and
roll of whole turns against it.
"""

from __future__ import annotations

import itertools
from functools import lru_cache
from typing import TYPE_CHECKING

import attrs

from pickomino_rules.dice import FACES, DieKind, RollOutcome, roll_counts
from pickomino_rules.errors import MissingExtraError
from pickomino_rules.state import GameState, Phase
from pickomino_rules.turn import can_roll, offered_faces

try:
    import numpy as np
except ImportError:  # an extra; tests/package/test_extras.py runs without it
    raise MissingExtraError("the turn solver", "solver") from None

if TYPE_CHECKING:
    from numpy.typing import NDArray

    from pickomino_rules.rules import Rules


Key = tuple[tuple[int, ...], tuple[int, ...], bool]
"""A node: dice set aside per face, dice in hand per kind, re-roll ready."""


@attrs.frozen(eq=False)
class Batch:
    """Rolling nodes sharing one pool of dice in hand and one re-roll flag."""

    nodes: NDArray[np.intp]
    """The nodes rolled, by index."""
    probabilities: NDArray[np.float64]
    """Chance of each distinct roll of the pool."""
    faces: tuple[int, ...]
    """The faces (0 for 1s ... 5 for worms) that some roll lets a node set aside."""
    choices: tuple[NDArray[np.intp], ...]
    """For each of ``faces``: per node and roll, the node reached by setting it aside
    (0: none)."""
    plain: NDArray[np.intp] | None
    """With a re-roll ready: each node's twin without it (the roll it throws again)."""


@attrs.frozen(eq=False)
class Program:
    """Every node reachable from one start, and the rolls between them."""

    keys: tuple[Key, ...]
    """Node ``i``'s key is ``keys[i]``; node 0 is a sentinel meaning "no such option"."""
    index: dict[Key, int]
    batches: tuple[Batch, ...]
    """Rolling nodes in solving order: fewer dice in hand first, the re-roll's twin first."""
    rolling: NDArray[np.bool_]
    """Per node: whether its dice may be rolled (a bust is possible)."""
    stop_class: NDArray[np.intp]
    """Per node: its class of stops, by points set aside and a worm among them (-1: none
    set aside, no stop)."""
    counts: NDArray[np.int64]
    """Per node: dice set aside per face."""
    flags: NDArray[np.bool_]
    """Per node: whether a re-roll is ready."""
    rows: NDArray[np.intp]
    """Per rolling node: its batch and its row there (-1, -1 for the others)."""


@lru_cache(maxsize=256)  # per kinds of dice: bounded (options make new kinds)
def table_arrays(
    kinds: tuple[DieKind, ...], dice: tuple[int, ...]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.float64]]:
    """A pool's rolls as (read-only) arrays: dice per face, per face and kind, chances."""
    rolls, weights = roll_counts(kinds, dice)
    by_kind = np.array(rolls, dtype=np.int64).transpose(0, 2, 1)  # roll, face, kind
    chances = np.array(weights, dtype=np.float64)
    arrays = (by_kind.sum(axis=2), by_kind, chances / chances.sum())
    for array in arrays:
        array.flags.writeable = False
    return arrays


def _codes(nodes: NDArray[np.int64]) -> NDArray[np.int64]:
    """One integer per node row (set aside per face, dice per kind, re-roll flag)."""
    weights = BASE ** np.arange(nodes.shape[1], dtype=np.int64)
    codes: NDArray[np.int64] = nodes @ weights
    return codes


BASE = 16  # more than the most dice of any face or kind

_DOUBLE_POINTS = np.array([2 * face.points for face in FACES])
"""Twice each face's points (C7): with a worm flag added, a stop's points and worm in one code."""


_BITS = 1 << np.arange(6)
"""A set of faces as bits (face index f at bit f), as `turn`'s rules on face sets take them."""


def _rollable(nodes: NDArray[np.int64]) -> NDArray[np.bool_]:
    """Nodes whose dice may be rolled again: `turn.can_roll` (C6), tabulated."""
    rollable: NDArray[np.bool_] = _can_roll()[
        (nodes[:, :6] > 0) @ _BITS, (nodes[:, 6:-1].sum(axis=1) > 0).astype(np.intp)
    ]
    return rollable


@lru_cache(maxsize=1)
def _can_roll() -> NDArray[np.bool_]:
    """`turn.can_roll` tabulated (C6): per faces set aside and whether dice are left."""
    return np.array([[can_roll(used, left) for left in (False, True)] for used in range(64)])


@lru_cache(maxsize=1)
def _offered() -> NDArray[np.bool_]:
    """`turn.offered_faces` tabulated (C4): per faces set aside and shown, each face offered."""
    return np.array(
        [[[offered_faces(s, u) >> f & 1 for f in range(6)] for s in range(64)] for u in range(64)],
        dtype=np.bool_,
    )


def _moves(
    kinds: tuple[DieKind, ...], nodes: NDArray[np.int64]
) -> tuple[NDArray[np.int64], NDArray[np.int64], NDArray[np.int64], NDArray[np.int64]]:
    """Every (node, roll, face) of rolling ``nodes`` (one pool) that sets a new face aside.

    Returns the node rows, rolls, faces and the child node each leads to.
    """
    faces, by_kind, _ = table_arrays(kinds, tuple(int(n) for n in nodes[0, 6:-1]))
    used = (nodes[:, :6] > 0) @ _BITS
    shown = (faces > 0) @ _BITS
    row, roll, face = np.nonzero(_offered()[used[:, None], shown[None, :]])
    child = nodes[row].copy()
    child[np.arange(len(row)), face] = faces[roll, face]
    child[:, 6:-1] -= by_kind[roll, face]
    return row, roll, face, child


def _pools(nodes: NDArray[np.int64]) -> dict[tuple[int, ...], NDArray[np.intp]]:
    """Row indices of ``nodes`` by pool of dice in hand and re-roll flag."""
    pools: dict[tuple[int, ...], list[int]] = {}
    for position, pool in enumerate(map(tuple, nodes[:, 6:].tolist())):
        pools.setdefault(pool, []).append(position)
    return {pool: np.array(rows, dtype=np.intp) for pool, rows in pools.items()}


def _batches(
    kinds: tuple[DieKind, ...], nodes: NDArray[np.int64]
) -> tuple[list[Batch], NDArray[np.intp]]:
    """The rolling nodes by pool in solving order, and each one's batch and row."""
    sorted_codes = _codes(nodes[1:])
    lookup = np.argsort(sorted_codes)
    batches: list[Batch] = []
    rows = np.full((len(nodes), 2), -1, dtype=np.intp)
    rolling_rows = np.flatnonzero(_rollable(nodes))
    rolling_rows = rolling_rows[rolling_rows > 0]
    pools = _pools(nodes[rolling_rows])
    for pool in sorted(pools, key=lambda p: (sum(p[:-1]), p[-1])):
        members = rolling_rows[pools[pool]]
        row, roll, face, child = _moves(kinds, nodes[members])
        _, _, probabilities = table_arrays(kinds, pool[:-1])
        choices = np.zeros((6, len(members), len(probabilities)), dtype=np.intp)
        where = np.searchsorted(sorted_codes, _codes(child), sorter=lookup)
        choices[face, row, roll] = lookup[where] + 1
        plain = None
        if pool[-1]:
            twins = nodes[members].copy()
            twins[:, -1] = 0
            plain = lookup[np.searchsorted(sorted_codes, _codes(twins), sorter=lookup)] + 1
        faces = tuple(f for f in range(6) if choices[f].any())
        rows[members, 0], rows[members, 1] = len(batches), np.arange(len(members))
        batches.append(
            Batch(
                members.astype(np.intp),
                probabilities,
                faces,
                tuple(choices[f] for f in faces),
                plain,
            )
        )
    return batches, rows


@lru_cache(maxsize=64)
def build_program(kinds: tuple[DieKind, ...], root: Key) -> Program:
    """Enumerate the nodes reachable from ``root`` and the choices after each roll.

    Vectorised: nodes are rows of integers (set aside per face, dice per kind, re-roll),
    enumerated breadth first one pool of dice at a time.
    """
    start = np.array([[*root[0], *root[1], int(root[2])]], dtype=np.int64)
    found = [start]
    seen = set(_codes(start).tolist())
    frontier = start
    while len(frontier):
        twins = frontier[frontier[:, -1] == 1].copy()  # the re-roll given up
        twins[:, -1] = 0
        rolling = frontier[_rollable(frontier)]
        children = [twins, *(_moves(kinds, rolling[rows])[3] for rows in _pools(rolling).values())]
        joined = np.concatenate(children)
        codes, first = np.unique(_codes(joined), return_index=True)
        keep = np.array([code not in seen for code in codes.tolist()], dtype=np.bool_)
        fresh = joined[first[keep]]
        seen.update(codes[keep].tolist())
        found.append(fresh)
        frontier = fresh
    nodes = np.concatenate(found)
    held = nodes[:, 6:-1].sum(axis=1)
    order = np.lexsort((_codes(nodes), nodes[:, -1], held))  # fewer dice first, twins first
    nodes = np.concatenate([np.zeros((1, nodes.shape[1]), dtype=np.int64), nodes[order]])
    keys: tuple[Key, ...] = tuple(
        (tuple(row[:6]), tuple(row[6:-1]), bool(row[-1])) for row in nodes.tolist()
    )
    keys = (((0,) * 6, (), False), *keys[1:])  # node 0: the sentinel "no such option"
    index = {key: position for position, key in enumerate(keys)}
    batches, rows = _batches(kinds, nodes)
    counts = nodes[:, :6]
    stops = counts.sum(axis=1) > 0
    # a stop's class: its points (C7, the faces' own) and whether a worm is among the dice
    kinds_of_stop = counts @ _DOUBLE_POINTS + (counts[:, 5] > 0)
    classes, stop_class = np.unique(np.where(stops, kinds_of_stop, -1), return_inverse=True)
    if classes[0] == -1:  # nodes with nothing set aside: no stop
        stop_class -= 1
    return Program(
        keys,
        index,
        tuple(batches),
        _rollable(nodes),
        stop_class.astype(np.intp),
        counts,
        nodes[:, -1] == 1,
        rows,
    )


MIRRORS = {
    _moves: "turn.set_aside",  # C4: the dice of a face set aside (the faces offered: offered_faces)
    build_program: "turn.stop_total",  # C7: a stop's points and its worm (its stop classes)
}
"""Each function that restates a core rule, and the reference it mirrors."""

_COUNTS = 10  # more than the most dice of one face a roll can show


@lru_cache(maxsize=64)
def set_asides(program: Program) -> NDArray[np.uint64]:
    """Per node, one bit per face and count: whether some roll lets that many be set aside.

    Bit ``face * 10 + count``; a bit mask per node keeps this a few array operations.
    """
    bits = np.zeros(len(program.keys), dtype=np.uint64)
    for batch in program.batches:
        for face, choices in zip(batch.faces, batch.choices, strict=True):
            shown = program.counts[choices, face]  # 0 where nothing is set aside
            flags = np.where(
                shown > 0,
                np.left_shift(np.uint64(1), (face * _COUNTS + shown).astype(np.uint64)),
                np.uint64(0),
            )
            bits[batch.nodes] |= np.bitwise_or.reduce(flags, axis=1)
    return bits


@attrs.frozen(eq=False)
class Probe:
    """Dice to set aside on a real roll, to ask the rules what doing so changes."""

    face: int
    """The face, by index (0 for 1s ... 5 for worms)."""
    count: int
    set_aside: tuple[int, ...]
    """The dice set aside before."""
    in_hand: tuple[int, ...]
    roll: RollOutcome
    """A roll of ``in_hand`` showing ``count`` of ``face``."""
    child: tuple[int, ...]
    """The dice set aside after."""


@lru_cache(maxsize=1024)
def probes(kinds: tuple[DieKind, ...], program: Program, anchor: Anchor) -> tuple[Probe, ...]:
    """A roll to ask the rules about, per face and count that may be set aside below ``anchor``.

    ``kinds``: the dice the program was built for (``build_program``'s).
    """
    mask = part_of(program, anchor).mask
    below = np.flatnonzero(mask)
    bits = set_asides(program)[below]
    found = []
    for face, count in itertools.product(range(6), range(1, _COUNTS)):
        where = np.flatnonzero(bits & np.uint64(1 << (face * _COUNTS + count)))
        if anchor.least[face] or not where.size:
            continue  # set aside already everywhere below the anchor, or never
        node = int(below[where[0]])
        number, row = program.rows[node].tolist()
        batch = program.batches[number]
        children = batch.choices[batch.faces.index(face)][row]
        roll = int(np.flatnonzero(program.counts[children, face] == count)[0])
        aside, dice, _ = program.keys[node]
        child = (*aside[:face], count, *aside[face + 1 :])
        found.append(Probe(face, count, aside, dice, _roll_at(kinds, dice, roll), child))
    return tuple(found)


def roll_at(rules: Rules, dice: tuple[int, ...], index: int) -> RollOutcome:
    """Roll ``index`` of a pool (``chance_table`` order), without building the whole table."""
    return _roll_at(rules.die_kinds, dice, index)


@lru_cache(maxsize=4096)  # the probes of every board ask the same few rolls
def _roll_at(kinds: tuple[DieKind, ...], dice: tuple[int, ...], index: int) -> RollOutcome:
    by_kind = table_arrays(kinds, dice)[1][index].T.tolist()
    return RollOutcome(tuple(kind.name for kind in kinds), tuple(map(tuple, by_kind)))


def reroll_ready(rules: Rules, state: GameState) -> bool:
    """Whether the rules would let the player to move throw his next roll again.

    Asked of the rules themselves: on an empty probe roll, is an action offered
    whose class says it ``rerolls`` (the extended game's weasel, E10, does)?
    """
    if rules.chains["roll_actions"] == ("turn",):
        return False
    kinds = tuple(kind.name for kind in rules.die_kinds)
    probe = state.replace(
        phase=Phase.CHOOSE, roll=RollOutcome(kinds, tuple((0,) * 6 for _ in kinds))
    )
    return any(action.rerolls for action in rules.roll_actions(rules, probe))


def turn_over(start: GameState, state: GameState) -> bool:
    """The dice have passed on, or the game is over: the turn's decisions are made."""
    return state.player != start.player or state.phase is Phase.GAME_OVER


def has_pending(rules: Rules, state: GameState) -> bool:
    return rules.pending_actions is not None and bool(rules.pending_actions(rules, state))


Board = tuple[object, ...]
"""Everything of a state but the dice: grill, tiles turned, stacks and parts."""


def board_of(state: GameState) -> Board:
    return state.grill, state.face_down, state.stacks, state.parts


@attrs.frozen
class Anchor:
    """Which nodes one board's values cover.

    Those with at least ``least`` dice of each face set aside and the re-roll ``ready`` or
    not: a board changed mid-turn holds only below the change.
    """

    least: tuple[int, ...]
    ready: bool


@attrs.frozen(eq=False)
class Part:
    """The nodes an anchor covers, with the batches and classes of stops cut to them."""

    mask: NDArray[np.bool_]
    batches: tuple[Batch, ...]
    classes: NDArray[np.intp]
    """The classes of stops among the nodes."""
    firsts: NDArray[np.intp]
    """One node of each of ``classes``."""
    rolling: NDArray[np.intp]
    """The nodes whose dice may be rolled."""
    _hits: dict[tuple[int, int, bytes], tuple[NDArray[np.intp], NDArray[np.intp]]] = attrs.field(
        factory=dict
    )

    def hits(
        self, number: int, face: int, counts: NDArray[np.bool_], program: Program
    ) -> tuple[NDArray[np.intp], NDArray[np.intp]]:
        """Where batch ``number`` sets aside ``face`` in one of ``counts``, and the nodes reached.

        Where: flat indices into the batch's (node, roll) table. Kept: the boards of many
        turns change on the same counts.
        """
        key = (number, face, counts.tobytes())
        found = self._hits.get(key)
        if found is None:
            reached = self.batches[number].choices[self.batches[number].faces.index(face)]
            hit = np.flatnonzero(counts[program.counts[reached, face]])
            found = self._hits[key] = (hit, reached.reshape(-1)[hit])
        return found


@lru_cache(maxsize=1024)
def part_of(program: Program, anchor: Anchor) -> Part:
    """The part of ``program`` below ``anchor``; cached, as boards of many turns share it."""
    mask = program.flags == anchor.ready
    for face, least in enumerate(anchor.least):
        if least:
            mask &= program.counts[:, face] >= least
    mask[0] = False  # the sentinel
    batches = []
    for batch in program.batches:
        rows = mask[batch.nodes]
        if rows.all():
            batches.append(batch)
        elif rows.any():
            plain = None if batch.plain is None else batch.plain[rows]
            choices = tuple(choices[rows] for choices in batch.choices)
            batches.append(
                Batch(batch.nodes[rows], batch.probabilities, batch.faces, choices, plain)
            )
    classes, firsts = np.unique(np.where(mask, program.stop_class, -1), return_index=True)
    stops = classes >= 0
    rolling = np.flatnonzero(mask & program.rolling)
    return Part(mask, tuple(batches), classes[stops], firsts[stops], rolling)
