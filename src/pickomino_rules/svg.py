"""The table as an SVG picture: grill, face-down tiles, stacks, dice and the variants' markers.

[`draw`][pickomino_rules.svg.draw] returns an [`SvgImage`][pickomino_rules.svg.SvgImage], a
``str`` of SVG that Jupyter shows as a picture; a
[`Position`][pickomino_rules.positions.Position] shows itself the same way. No dependency:
the SVG is written directly.

Examples:
    >>> from pickomino_rules import new_game
    >>> rules, state = new_game("extended", players=3)
    >>> picture = draw(rules, state, names=["Ann", "Bob", "Cy"])
    >>> picture.startswith("<svg") and "Ann" in picture and ">hen<" in picture
    True
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from xml.sax.saxutils import escape, quoteattr

from pickomino_rules.dice import Face
from pickomino_rules.errors import PickominoError
from pickomino_rules.result import scores
from pickomino_rules.state import Marker, Phase
from pickomino_rules.story import counted, dice_faces, player_names
from pickomino_rules.validation import ODD, check_shape, error_for

if TYPE_CHECKING:
    from collections.abc import Iterable, Sequence

    from pickomino_rules.rules import Rules
    from pickomino_rules.state import GameState

__all__ = ["SvgImage", "draw", "label_width", "markers"]

_TILE_W, _TILE_H, _GAP = 38, 58, 4
_DIE = 26
_ROW = 44
_MARGIN = 16
_FONT = "font-family='DejaVu Sans, Verdana, sans-serif'"
_WORM = "#c0392b"
_TILE_FILL = "#f7ecd0"
_BACK_FILL = "#7b6a58"
_INK = "#2d2a26"


class SvgImage(str):
    """SVG text that notebooks (Jupyter, VS Code) display as a picture."""

    __slots__ = ()

    def _repr_svg_(self) -> str:
        return str(self)


def markers(rules: Rules, state: GameState) -> list[Marker]:
    """Every marker the variant's parts show (their keys' ``markers`` hooks), in part order."""
    found: list[Marker] = []
    for key, value in zip(rules.layout.parts, state.parts, strict=True):
        if key.markers is not None:
            found.extend(key.markers(rules, state, value))
    return found


def _text(x: float, y: float, text: str, size: int = 12, **style: str) -> str:
    extra = "".join(
        f" {name.replace('_', '-')}={quoteattr(value)}" for name, value in style.items()
    )
    return f"<text x='{x:g}' y='{y:g}' font-size='{size}' {_FONT}{extra}>{escape(text)}</text>"


_STEP = 8  # a drawn worm's width
_MOST_DRAWN = (_TILE_W - 4) // _STEP  # worms that fit side by side on a tile (4)


def _worms(x: float, y: float, count: int, width: float) -> str:
    """``count`` small worms (arcs) centred in ``width``; past what fits, one worm and its count.

    The picture's size so stays the same whatever a variant puts on a tile.
    """
    if count > _MOST_DRAWN:
        number = _text(
            x + width / 2 - 2, y + 1, f"{count}\u00d7", 10, text_anchor="end", fill=_WORM
        )
        return number + _worms(x + width / 2 - _STEP / 2 + 2, y, 1, _STEP)
    start = x + (width - _STEP * count) / 2 + 1
    return "".join(
        f"<path d='M{start + i * _STEP:g} {y:g} q3 -5 6 0' stroke='{_WORM}' stroke-width='2.2' "
        "fill='none' stroke-linecap='round'/>"
        for i in range(max(count, 0))
    )


def _labelled(label: str, svg: str) -> str:
    """``svg`` as one picture that screen readers name ``label``."""
    return f"<g role='img' aria-label={quoteattr(label)}>{svg}</g>"


def _tile(x: float, y: float, tile: int, worms: int, face_up: bool = True) -> str:
    fill = _TILE_FILL if face_up else _BACK_FILL
    label = f"tile {tile}, " + (counted(worms, "worm") if face_up else "face down")
    parts = [
        (
            f"<rect x='{x:g}' y='{y:g}' width='{_TILE_W}' height='{_TILE_H}' rx='5' "
            f"fill='{fill}' stroke='{_INK}' stroke-width='1'/>"
        )
    ]
    if face_up:
        parts.append(
            _text(
                x + _TILE_W / 2,
                y + 24,
                str(tile),
                16,
                text_anchor="middle",
                font_weight="bold",
                fill=_INK,
            )
        )
        parts.append(_worms(x, y + 44, worms, _TILE_W))
    else:
        parts.append(
            _text(x + _TILE_W / 2, y + 34, str(tile), 11, text_anchor="middle", fill="#fbf6ee")
        )
    return _labelled(label, "".join(parts))


_PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.27, 0.27), (0.73, 0.73)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


def _die(x: float, y: float, face: Face, fill: str = "#ffffff", kind: str = "die") -> str:
    label = f"{kind} showing " + ("a worm" if face is Face.WORM else str(int(face)))
    body = (
        f"<rect x='{x:g}' y='{y:g}' width='{_DIE}' height='{_DIE}' rx='5' fill='{fill}' "
        f"stroke='{_INK}' stroke-width='1'/>"
    )
    if face is Face.WORM:
        return _labelled(
            label,
            body
            + (
                f"<path d='M{x + 6:g} {y + 16:g} q4 -9 7 -2 t7 -2' stroke='{_WORM}' "
                "stroke-width='3' fill='none' stroke-linecap='round'/>"
            ),
        )
    pips = "".join(
        f"<circle cx='{x + px * _DIE:g}' cy='{y + py * _DIE:g}' r='2.4' fill='{_INK}'/>"
        for px, py in _PIPS[int(face)]
    )
    return _labelled(label, body + pips)


def _badge(x: float, y: float, marker: Marker, guides: Guides) -> tuple[str, float]:
    """A rounded label for ``marker``; returns the SVG and its width."""
    label = marker.label if marker.count == 1 else f"{marker.label} \u00d7{marker.count}"
    width = _badge_width(label)
    svg = (
        f"<rect x='{x:g}' y='{y:g}' width='{width:g}' height='16' rx='8' fill='#e8f1f8' "
        f"stroke='#1b6ca8' stroke-width='0.8'/>"
        + _text(x + width / 2, y + 12, label, 10, text_anchor="middle", fill="#124a73")
    )
    return _explained(marker.label, svg, guides), width


def _badge_width(label: str) -> float:
    """The width of a marker's badge beside a player or on the table."""
    return 10 + 6.6 * len(label)


Guides = dict[str, tuple[str, str]]
"""A marker's label -> the rule module it belongs to and that module's guide."""


def _marker_guides(rules: Rules, shown: Iterable[Marker]) -> Guides:
    """Each label's module and guide: the module named as the label is (one or many of it).

    The picture tells a marker's guide where the marker is (its SVG ``<title>``, which
    browsers and notebooks show on hover); a page can show it on a tap (the web app does).
    """
    known = {module.name: module.guide for module in rules.modules if module.guide}
    found: Guides = {}
    for marker in shown:
        name = "_".join(marker.label.lower().split())
        topic = next((t for t in (name, name + "s", name.removesuffix("s")) if t in known), None)
        if topic is not None:
            found[marker.label] = (topic, known[topic])
    return found


def _explained(label: str, svg: str, guides: Guides) -> str:
    """``svg``, a marker's picture, telling its module's guide on hover (and to a page's tap)."""
    if label not in guides:
        return svg
    topic, guide = guides[label]
    return (
        f"<g class='marker' data-topic={quoteattr(topic)} tabindex='0' role='button'>"
        f"<title>{escape(guide)}</title>{svg}</g>"
    )


def _dice_row(x: float, y: float, faces: Iterable[Face], fill: str, kind: str) -> tuple[str, float]:
    svg, cursor = [], x
    for face in faces:
        svg.append(_die(cursor, y, face, fill, kind))
        cursor += _DIE + 4
    return "".join(svg), cursor


def draw(rules: Rules, state: GameState, names: Sequence[str] | None = None) -> SvgImage:
    """Draw the table as SVG.

    The picture shows the grill (face-down tiles darker, in place), each player's stack
    and worms, the dice set aside and rolled (other kinds of dice in gold), and what the
    variant's parts mark: markers on a tile under it, a player's beside the player, the
    rest on the table (see [`Marker`][pickomino_rules.state.Marker]).

    Args:
        rules: The game's rules.
        state: The state to draw.
        names: The players' names (``"player N"`` by default).

    Raises:
        InvalidStateError: The state is malformed or breaks the rules where the picture reads
            it.
        InvalidSetupError: ``names`` has no name for some player.
    """
    check_shape(rules, state)
    label = player_names(state.players, names)
    try:
        return _draw(rules, state, label)
    except PickominoError:
        raise
    except ODD as error:
        raise error_for(rules, state, error) from error


_GRILL_COLUMNS = 9
"""The most grill tiles in a row: a picture some 400 pixels wide, which a phone's screen
(360 pixels) shows whole at a readable size; a longer grill wraps into rows."""
_LEAST_WIDTH = 400


def _columns(rules: Rules) -> int:
    """Tiles in a row of the grill: its tiles in as few rows as fit, the rows evened out."""
    count = max(len(rules.tiles), 1)
    rows = -(-count // _GRILL_COLUMNS)
    return -(-count // rows)


def _draw(rules: Rules, state: GameState, label: list[str]) -> SvgImage:
    shown = markers(rules, state)
    tiles = sorted([*state.grill, *state.face_down])
    columns = _columns(rules)
    dice = sum(rules.most_dice)
    width = max(
        _MARGIN * 2 + columns * (_TILE_W + _GAP) - _GAP,
        _MARGIN * 2 + _DICE_X + dice * (_DIE + 4),
        _LEAST_WIDTH,
    )
    told = _marker_guides(rules, shown)
    over = state.phase is Phase.GAME_OVER
    heading = f"{rules.name}: " + ("game over" if over else f"{label[state.player]} to play")
    if not over and state.phase is not Phase.ROLL:
        heading += f", total {state.total}"
    body = [_text(_MARGIN, _MARGIN + 12, heading, 14, font_weight="bold", fill=_INK)]
    y: float = _MARGIN + 26
    y = _draw_grill(body, rules, state, tiles, shown, y, columns, told)
    y = _draw_players(body, rules, state, label, shown, y, width, told)
    if not over:
        y = _draw_dice(body, rules, state, y)
    table = [m for m in shown if m.player is None and m.tile is None]
    y = _draw_badges(body, "on the table", table, y, width, told)
    height = y + _MARGIN - 6
    return SvgImage(
        f"<svg xmlns='http://www.w3.org/2000/svg' width='{width:g}' height='{height:g}' "
        f"viewBox='0 0 {width:g} {height:g}' role='group' aria-label={quoteattr(heading)}>"
        f"<rect width='100%' height='100%' fill='#fdfaf3'/>{''.join(body)}</svg>"
    )


def _draw_grill(  # noqa: PLR0913, PLR0917 (one section of one picture)
    body: list[str],
    rules: Rules,
    state: GameState,
    tiles: Sequence[int],
    shown: Sequence[Marker],
    y: float,
    columns: int,
    told: Guides,
) -> float:
    for start in range(0, max(len(tiles), 1), columns):  # a row of tiles, its labels under it
        y = _draw_grill_row(body, rules, state, tiles[start : start + columns], shown, y, told)
    return y


def _draw_grill_row(  # noqa: PLR0913, PLR0917 (one section of one picture)
    body: list[str],
    rules: Rules,
    state: GameState,
    tiles: Sequence[int],
    shown: Sequence[Marker],
    y: float,
    told: Guides,
) -> float:
    on_tile = {m.tile: m.label for m in shown if m.tile is not None}
    x: float = _MARGIN
    ends: list[float] = []  # where each row of labels under the grill is taken up to
    for tile in tiles:
        body.append(_tile(x, y, tile, rules.worms_of(tile), face_up=tile in state.grill))
        if tile in on_tile:
            centre, half = x + _TILE_W / 2, label_width(on_tile[tile]) / 2
            # the first row where the label clears its left neighbour's
            row = next((r for r, end in enumerate(ends) if centre - half >= end), len(ends))
            if row == len(ends):
                ends.append(0.0)
            ends[row] = centre + half + _LABEL_SPACE
            top = y + _TILE_H + 2 + row * _LABEL_ROW
            hit = (  # where a pointer finds the label: its box, not only its letters' ink
                f"<rect x='{centre - half:g}' y='{top:g}' width='{2 * half:g}' "
                f"height='{_LABEL_ROW:g}' fill='transparent'/>"
            )
            text = _text(centre, top + 10, on_tile[tile], _LABEL_SIZE, text_anchor="middle",
                         fill="#124a73", font_weight="bold")  # fmt: skip
            body.append(_explained(on_tile[tile], hit + text, told))
        x += _TILE_W + _GAP
    return y + _TILE_H + (22 + (len(ends) - 1) * _LABEL_ROW if ends else 10)


_LABEL_SIZE = 10
_LABEL_ROW = 12
_LABEL_SPACE = 4
_LABEL_CHAR = 7.0
"""Width of a character of a bold 10-pixel label, rounded up (DejaVu Sans Bold: 6.2 at most
for letters, spaces and digits): labels are placed by it, so that none overlaps."""


def label_width(text: str) -> float:
    """The width a label under a grill tile is given (an upper bound of its ink)."""
    return _LABEL_CHAR * len(text)


def _draw_players(  # noqa: PLR0913, PLR0917 (one section of one picture)
    body: list[str],
    rules: Rules,
    state: GameState,
    label: Sequence[str],
    shown: Sequence[Marker],
    y: float,
    width: float,
    told: Guides,
) -> float:
    points = scores(rules, state)
    for player, stack in enumerate(state.stacks):
        to_play = player == state.player and state.phase is not Phase.GAME_OVER
        badges, extra = _player_badges(
            [m for m in shown if m.player == player and m.tile is None], y, width, told
        )
        if to_play:
            body.append(
                f"<rect x='{_MARGIN - 6:g}' y='{y - 4:g}' width='{width - 2 * _MARGIN + 12:g}' "
                f"height='{_ROW - 2 + extra:g}' rx='6' fill='#fff6dc'/>"
            )
        who = ("\u25b6 " if to_play else "") + label[player]
        weight = "bold" if to_play else "normal"
        body.append(_text(_MARGIN, y + 22, who, 13, font_weight=weight, fill=_INK))
        x: float = _MARGIN + 130
        pile = [  # the last few tiles, the top one in full
            f"<rect x='{x + depth * 6:g}' y='{y + 2:g}' width='30' height='32' rx='4' "
            f"fill='{_TILE_FILL}' stroke='{_INK}' stroke-width='0.8'/>"
            for depth in range(min(len(stack), 4))
        ]
        if stack:
            top_x = x + (min(len(stack), 4) - 1) * 6 + 15
            pile.append(_text(top_x, y + 23, str(stack[-1]), 12, text_anchor="middle",
                              font_weight="bold", fill=_INK))  # fmt: skip
            body.append(
                _labelled(f"{label[player]}'s stack, tile {stack[-1]} on top", "".join(pile))
            )
        held = f"{counted(len(stack), 'tile')}, {counted(points[player], 'worm')}"
        body.append(_text(x + 64, y + 22, held, 12, fill=_INK))
        body.extend(badges)
        y += _ROW + extra
    return y


_BADGES_X = _MARGIN + 320  # a player's badges, after the name, the stack and the worms
_BADGE_LINE = 26  # a line of badges under the last, clear of the stack


def _player_badges(
    shown: Sequence[Marker], y: float, width: float, told: Guides
) -> tuple[list[str], float]:
    """A player's badges after the worms, wrapping under the stack where the row is full.

    Returns them and the height they add to the player's row.
    """
    found, x, line = [], float(_BADGES_X), 0
    for marker in shown:
        label = marker.label if marker.count == 1 else f"{marker.label} \u00d7{marker.count}"
        if x > _MARGIN + 130 and x + _badge_width(label) > width - _MARGIN:
            x, line = _MARGIN + 130, line + 1  # the next line, under the stack
        badge, used = _badge(x, y + 10 + line * _BADGE_LINE, marker, told)
        found.append(badge)
        x += used + 6
    return found, line * _BADGE_LINE


def _draw_dice(body: list[str], rules: Rules, state: GameState, y: float) -> float:
    kinds = [kind.name for kind in rules.die_kinds]
    kept = dice_faces(state.set_aside)
    body.append(_text(_MARGIN, y + 18, "set aside", 12, fill=_INK))
    dice, _ = _dice_row(_MARGIN + _DICE_X, y, kept, "#e9e4da", "die set aside")
    body.append(dice or _text(_MARGIN + _DICE_X, y + 18, "-", 12, fill=_INK))
    y += _DIE + 10
    if state.roll is not None:
        body.append(_text(_MARGIN, y + 18, "roll", 12, fill=_INK))
        x: float = _MARGIN + _DICE_X
        for kind, counts in enumerate(state.roll.counts):  # the first kind white, others gold
            rolled = dice_faces(counts)
            fill, name = ("#ffffff", "") if kind == 0 else ("#f2c94c", f"{kinds[kind]} ")
            dice, x = _dice_row(x, y, rolled, fill, f"rolled {name}die")
            body.append(dice)
        y += _DIE + 10
    return y


_DICE_X = 80  # the dice after their row's title


def _draw_badges(  # noqa: PLR0913, PLR0917 (one section of one picture)
    body: list[str], title: str, shown: Sequence[Marker], y: float, width: float, told: Guides
) -> float:
    if not shown:
        return y
    body.append(_text(_MARGIN, y + 12, title, 12, fill=_INK))
    x: float = _MARGIN + 86
    for marker in shown:
        label = marker.label if marker.count == 1 else f"{marker.label} \u00d7{marker.count}"
        if x > _MARGIN + 86 and x + _badge_width(label) > width - _MARGIN:
            x, y = _MARGIN + 86, y + _BADGE_LINE  # the row is full: on under it
        badge, used = _badge(x, y, marker, told)
        body.append(badge)
        x += used + 6
    return y + 24
