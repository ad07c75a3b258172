"""Tiles 11 and 13 of the extended game (rules E1, E3; options O4, O5).

The low tiles are taken only with an exact total: they are never the "highest
tile below" of C8 and can never be stolen. With ``exclusive`` (O4, default on) no
player may hold 11 and 13 at the same time: a claim that would break it is not
legal.

Examples:
    >>> from pickomino_rules.plugin import compose
    >>> from pickomino_rules.variants.classic import classic_components
    >>> rules = compose(classic_components(), low_tiles(worms=(1, 1)))
    >>> rules.tiles[:3], rules.worms_of(13)
    ((11, 13, 21), 1)
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import attrs

from pickomino_rules.errors import InvalidOptionError
from pickomino_rules.plugin import Components, IntRange, RuleModule, TupleRange

if TYPE_CHECKING:
    from collections.abc import Callable

    from pickomino_rules.batch_plugin import BatchTwin
    from pickomino_rules.plugin import (
        Claim,
        ClaimsFn,
        CompiledTwins,
        GameState,
        Rules,
    )

__all__ = ["LOW_TILES", "LOW_TILE_WORMS", "MOST_LOW_TILE_WORMS", "low_tiles"]

LOW_TILES = (11, 13)
"""The two low tiles (E1)."""
_LOW = frozenset(LOW_TILES)

MOST_LOW_TILE_WORMS = 9
"""The most worms tile 11 or 13 may carry (O5): more than twice a top tile's four.

Generous for house rules (the printed tiles carry one), and it keeps what the worms make
small: a tile's picture, a score (at most 40 + 2 x 9 + 7 grilled worms + 3 for the apple = 68,
well inside the batch engine's int16 and the compiled kernel's small numbers), the
observation's scale.
"""

LOW_TILE_WORMS = TupleRange(IntRange(0, MOST_LOW_TILE_WORMS), 2, 2, one_for_all=True)
"""The range of the worms on 11 and on 13 (option ``low_tile_worms``, O5): each 0 to 9."""


def _twin(*, exclusive: bool) -> BatchTwin:
    from pickomino_rules.variants.twins.low_tiles import low_tiles_twin  # noqa: PLC0415

    return low_tiles_twin(LOW_TILES, exclusive=exclusive)


def low_tiles(*, worms: tuple[int, int] = (1, 1), exclusive: bool = True) -> RuleModule:
    """Add tiles 11 and 13 with ``worms`` worms each (E1, O5), taken only exactly (E3).

    Args:
        worms: Worms on 11 and on 13 (O5).
        exclusive: Forbid holding 11 and 13 at once (O4).

    Raises:
        InvalidOptionError: Worms outside `LOW_TILE_WORMS` (each 0 to 9).
    """
    try:
        LOW_TILE_WORMS.check(worms)
    except ValueError as error:
        raise InvalidOptionError(f"the low tiles' worms (O5): {error}") from None

    def configure(components: Components) -> Components:
        tiles = tuple(sorted({*components.tiles, *LOW_TILES}))
        pairs = dict(components.worms) | dict(zip(LOW_TILES, worms, strict=True))
        return attrs.evolve(components, tiles=tiles, worms=tuple(sorted(pairs.items())))

    def claims(inner: ClaimsFn, rules: Rules, state: GameState, total: int) -> tuple[Claim, ...]:
        found = inner(rules, state, total)
        for claim in found:
            if claim.tile in LOW_TILES:
                break
        else:
            return found  # mostly: only a total up to 13 claims a low tile
        allowed = []
        for claim in found:
            if claim.tile in LOW_TILES:
                if claim.victim is not None or claim.tile != total:
                    continue  # E3: exact only, never stolen
                if exclusive and not _LOW.isdisjoint(state.stacks[state.player]):
                    continue  # E3 / O4: not both 11 and 13
            allowed.append(claim)
        return tuple(allowed)

    return RuleModule(
        name="low_tiles",
        guide=(
            "Tiles 11 and 13 (E3) carry a worm each. They are taken only with exactly 11 or "
            "13, never as the tile below your total, and they cannot be stolen; nobody may "
            "hold both."
        ),
        doc="E1, E3: tiles 11 and 13, exact totals only, never stolen (O4, O5)",
        after=("classic",),  # adds its tiles to the classic ones
        configure=configure,
        claims=claims,
        batch=lambda: _twin(exclusive=exclusive),
        compiled=lambda: _compiled_twins(claims, exclusive=exclusive),
        ends_on_total=True,  # sees the dice only as their total at a turn's end
    )


def _compiled_twins(claims: Callable[..., tuple[Claim, ...]], *, exclusive: bool) -> CompiledTwins:
    """The row twin of its ``claims`` (where it was built): ``claims`` itself on a state."""
    from pickomino_rules.variants.twins import _compiled  # noqa: PLC0415 (built where possible)

    return _compiled.low_tiles_twins(claims, exclusive)
