"""A hex map with counters on it: the picture of a position.

``draw_map_with_pieces(game, map_id, stacks, fmt)`` draws the map as the kit does (the
same terrain, features, hex ids; no legend) and, on each hex named, its stack of counters
drawn by the kit's own counter code (``piece_for``), the first counter at the bottom and
each next one shifted up and to the right, so that every counter of the stack shows an
edge. A stack is made smaller where it would not fit its hex, clear of the hex id.
"""

from __future__ import annotations

from collections.abc import Sequence

from ..engine.errors import BadInput
from ..engine.model import Game, HexMap
from .collect import rasterise
from .hexmap import HexGeometry, hex_map_parts, terrain_looks
from .impose import Piece
from .kit import check_glyphs, typeset
from .pieces import marker_pieces, unit_pieces
from .primitives import Group, Page, Primitive, Rect, Style, Text
from .render_pdf import check_dpi
from .render_svg import svg_text

#: One hex's stack: the hex id and its counters, bottom first.
Stack = tuple[str, Sequence[Piece]]
FORMATS = ("svg", "png")
MARGIN = 4.0  # mm of paper round the map
SHIFT = 1.2  # mm each next counter of a stack moves up and right
SHOWN = 6  # counters drawn of a taller stack (a badge counts the rest)
MOST_STACKS = 10_000


def piece_for(game: Game, record_id: str, reduced: bool = False) -> Piece:
    """The counter of a unit or marker as the kit prints it (its reduced side, the back,
    with ``reduced``); BadInput naming the id when the game has no such piece."""
    unit = next((u for u in game.units if u.id == record_id), None)
    marker = next((m for m in game.markers if m.id == record_id), None)
    if unit is not None:
        piece = unit_pieces(game, unit)[0]
    elif marker is not None:
        piece = marker_pieces(game, marker)[0]
    else:
        raise BadInput(f"counter {record_id!r} is no unit or marker of {game.id}")
    if reduced:
        if piece.back is None:
            raise BadInput(f"counter {record_id!r} has no reduced side")
        return Piece(piece.id, piece.w, piece.h, piece.back, cls=piece.cls)
    return piece


def hex_map_of(game: Game, map_id: str) -> HexMap:
    hex_map = next((m for m in game.hex_maps if m.id == map_id), None)
    if hex_map is None:
        known = ", ".join(m.id for m in game.hex_maps) or "none"
        raise BadInput(f"map {map_id!r} is no hex map of {game.id} (hex maps: {known})")
    return hex_map


def position_page(game: Game, map_id: str, stacks: Sequence[Stack], title: str = "") -> Page:
    """The map with its stacks as one page, a margin round it."""
    hex_map = hex_map_of(game, map_id)
    if len(stacks) > MOST_STACKS:
        raise BadInput(f"{len(stacks)} stacks on map {map_id!r} (at most {MOST_STACKS})")
    items, width, height, _legend = hex_map_parts(hex_map, game_id=game.id,
                                                  terrain=terrain_looks(game))
    geo = HexGeometry.of(hex_map)
    index = geo.index()
    drawn: list[Primitive] = []
    for hex_id, pieces in stacks:
        if hex_id not in index:
            raise BadInput(f"hex {hex_id!r} is not on map {map_id!r} ({hex_map.hex_ids[0]}.."
                           f"{hex_map.hex_ids[-1]})")
        if pieces:
            drawn.append(stack_items(geo, index[hex_id], hex_id, list(pieces)))
    top = 7.0 if title else 0.0
    head: list[Primitive] = [Text(MARGIN, MARGIN + 4.0, title, size=4.0, bold=True,
                                  cls="position-title")] if title else []
    body = Group((*items, Group(tuple(drawn), cls="stacks")), dx=MARGIN, dy=MARGIN + top)
    return Page(width + 2 * MARGIN, height + 2 * MARGIN + top, (*head, body),
                id=f"position-{map_id}", title=title or f"{game.info.name}: {hex_map.label}")


def stack_items(geo: HexGeometry, cell: tuple[int, int], hex_id: str,
                pieces: list[Piece]) -> Group:
    """A stack on its hex: each counter scaled to fit, shifted from the one under it; past
    ``SHOWN`` counters, the top ones and a badge with the count of the stack."""
    shown = pieces[-SHOWN:]
    side = max(max(p.w, p.h) for p in shown)
    room = geo.size * 1.05  # a square this wide sits in the hex under its id
    shift = min(SHIFT, room * 0.25 / max(1, len(shown) - 1))
    spread = shift * (len(shown) - 1)
    scale = min(1.0, (room - spread) / side)
    cx, cy = geo.centre(*cell)
    cy += geo.size * 0.12  # clear of the hex id at the top of the hex
    x0 = cx - (side * scale + spread) / 2
    y0 = cy - (side * scale - spread) / 2
    items: list[Primitive] = []
    for k, piece in enumerate(shown):
        items.append(Group(tuple(piece.front), dx=x0 + k * shift, dy=y0 - k * shift,
                           scale=scale, clip=(0, 0, piece.w, piece.h),
                           id=f"on-{hex_id}-{k + 1}", cls=f"stacked {piece.cls}"))
    if len(pieces) > len(shown):
        r = 2.2
        bx, by = x0 + spread + side * scale, y0 - spread
        items += [Rect(bx - r, by - r, 2 * r, 2 * r, Style(fill="#ffffff", stroke="#222222",
                                                           width=0.3), r=r),
                  Text(bx, by + 0.9, str(len(pieces)), size=2.4, anchor="middle", bold=True,
                       cls="stack-count")]
    return Group(tuple(items), id=f"stack-{hex_id}", cls="stack")


def draw_map_with_pieces(game: Game, map_id: str, stacks: Sequence[Stack], fmt: str,
                         dpi: int = 100, title: str = "") -> bytes:
    """The map ``map_id`` with ``stacks`` on it as an SVG document or a PNG image (at
    ``dpi``); the same input gives the same bytes."""
    if fmt not in FORMATS:
        raise BadInput(f"picture format {fmt!r} is not one of {', '.join(FORMATS)}")
    page = position_page(game, map_id, stacks, title)
    page = Page(page.width, page.height, typeset(page.items), id=page.id, title=page.title)
    check_glyphs([page])
    if fmt == "svg":
        return svg_text(page, page.title).encode("utf-8")
    check_dpi(dpi, "dpi")
    return rasterise([page], dpi, page.title)[0]
