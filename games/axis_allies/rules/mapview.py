"""A session's position on the world map (``warpress play status --map FILE``): the kit's
own area map (``kit.world_map``: real coastlines, the connections, production and
capitals), each territory tinted in the colour of the power that holds it now, and on each
space's stack box the units there: one line per power, its colour and a count per unit
type (``3 inf 2 arm 1 ftr``; a transport or carrier with what it carries in brackets).
"""

from __future__ import annotations

from collections import Counter

from warpress.components.collect import rasterise
from warpress.components.fonts import text_width
from warpress.components.kit import check_glyphs, typeset
from warpress.components.primitives import Group, Page, Primitive, Rect, Style, Text
from warpress.components.render_svg import svg_text
from warpress.engine.errors import BadInput
from warpress.engine.model import Game
from warpress.engine.position import Piece, Position

from .. import kit as world
from .board import NEUTRAL
from .positions import at, occupied_places, powers, season
from .views import phase_name

#: how each unit type is written on the map (a word of 2-3 letters)
SHORT = {"infantry": "inf", "armor": "arm", "fighter": "ftr", "bomber": "bmb",
         "antiaircraft": "AA", "battleship": "bb", "carrier": "cv", "transport": "tr",
         "submarine": "sub", "factory": "IC"}
SIZE = 2.0  # mm (5.7 pt): the units' lines
LINE = 2.6  # mm between lines
SWATCH = 1.7  # mm: the power's colour before its line
MARGIN = 4.0  # mm of paper round the map
FORMATS = ("svg", "png")
#: the units' lines start this far into the stack box, under the production circle the
#: kit draws on its left edge and the capital star on its right
BOX_INSET = (0.6, 6.6)


def line_of(pieces: list[Piece]) -> str:
    """One power's units in a space: ``3 inf 1 tr(2 inf)``."""
    counts = Counter(p.unit for p in pieces if not p.props.get("aboard")
                     and p.unit not in ("transport", "carrier"))
    parts = [f"{n} {SHORT.get(t, t)}" for t, n in counts.items()]
    for holder in (p for p in pieces if p.unit in ("transport", "carrier")):
        cargo = Counter(c.unit for c in pieces if c.props.get("aboard") == holder.id)
        inside = " ".join(f"{n} {SHORT.get(t, t)}" for t, n in cargo.items())
        parts.append(SHORT[holder.unit] + (f"({inside})" if inside else ""))
    carried = Counter(p.unit for p in pieces if p.props.get("aboard")
                      and not any(h.id == p.props["aboard"] for h in pieces))
    parts += [f"{n} {SHORT.get(t, t)} aboard" for t, n in carried.items()]
    return " ".join(parts)


def block(game: Game, position: Position, place: str, x: float, y: float) -> Group:
    """The lines of a space's units, their top left at (x, y), on a white ground."""
    pieces = at(position, place)
    lines = [(side, line_of([p for p in pieces if p.side == side])) for side in powers(game)]
    lines = [(side, text) for side, text in lines if text]
    width = max(text_width(text, SIZE) for _s, text in lines) + SWATCH + 1.6
    height = LINE * len(lines) + 0.8
    items: list[Primitive] = [Rect(x, y, width, height, Style(fill="#ffffff", stroke="#444444",
                                                             width=0.2, opacity=0.9), r=0.6)]
    for k, (side, text) in enumerate(lines):
        top = y + 0.4 + LINE * k
        colour = world.power_colour(game, side)
        items += [Rect(x + 0.5, top + 0.45, SWATCH, SWATCH, Style(fill=colour, stroke=None)),
                  Text(x + SWATCH + 1.0, top + 2.0, text, size=SIZE, cls=f"units {side}")]
    return Group(tuple(items), id=f"units-{place}", cls="space-units")


def box_corner(area) -> tuple[float, float]:
    """Where an area's stack box is on the map (its top left), as the kit draws it."""
    s = area.stack
    if area.detached:
        x, y = area.detached[0] - s / 2, area.detached[1] - s / 2
    elif area.boxless:
        return area.x - area.w / 2, area.y + area.name_h / 2
    else:
        x = area.x - s / 2
        y = area.y - area.h / 2 + len(area.lines) * world.NAME_SIZE * 1.2 + 1.5
    return x + BOX_INSET[0], y + BOX_INSET[1]


def title_of(game: Game, position: Position) -> str:
    phase = phase_name(game, position.phase) or ""
    over = " · game over" if position.over else ""
    return (f"{game.info.name} · round {position.turn}, {season(game, position.turn)} · "
            f"{position.side} · {phase}{over}")


def page(game: Game, position: Position) -> Page:
    owners = {t: who for t, who in position.control.items() if who != NEUTRAL}
    items, w, h, _lettered = world.world_map(game, owners)
    point_map = game.get("point_maps", world.MAP_ID)
    areas = world.world_layout(game, point_map, owners)
    blocks = [block(game, position, place, *box_corner(areas[place]))
              for place in sorted(occupied_places(position)) if place in areas]
    title = title_of(game, position)
    head = Text(MARGIN, MARGIN + 5.0, title, size=5.0, bold=True, cls="position-title")
    body = Group((*items, Group(tuple(blocks), cls="units-on-map")), dx=MARGIN,
                 dy=MARGIN + 8.0)
    return Page(w + 2 * MARGIN, h + 2 * MARGIN + 8.0, (head, body), id="position-world",
                title=title)


def draw(game: Game, position: Position, fmt: str, dpi: int = 100) -> bytes:
    """The world map with the position's units as ``fmt`` (svg or png) bytes; the same
    position gives the same bytes."""
    if fmt not in FORMATS:
        raise BadInput(f"picture format {fmt!r} is not one of {', '.join(FORMATS)}")
    drawn = page(game, position)
    drawn = Page(drawn.width, drawn.height, typeset(drawn.items), id=drawn.id,
                 title=drawn.title)
    check_glyphs([drawn])
    if fmt == "svg":
        return svg_text(drawn, drawn.title).encode("utf-8")
    return rasterise([drawn], dpi, drawn.title)[0]
