"""Axis & Allies' own kit pages: the world map as a schematic, the battle board, the
national production chart, the weapons development chart, a unit reference card per
power, and counters for every unit type in each power's colour.

Everything comes from the game's YAML: the map from the ``world`` point map (map
positions, owners, production, capital and original-factory flags, connections), the
powers' colours from ``game.sides``, the battle-board columns and the reference cards
from the ``unit`` table (the table the engine reads), the production chart from the
``national-production`` track and the ``starting-ipc-*`` constants, the weapons chart
from the ``weapons`` section and the ``weapons-development`` table, and the counters
from the ``counter-mix`` section (starting forces plus a reserve per power).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from ...engine.model import Game, Point, PointMap, Side
from ...output import rules_text
from .. import kit
from ..counters import draw, face_of
from ..fonts import text_width, wrap
from ..impose import Piece
from ..kit import KitPage, Options
from ..marks import dagger
from ..pieces import centred, counter_size, fit_text, marker_pieces, marker_word
from ..primitives import Circle, Group, Line, Page, Polygon, Primitive, Rect, Style, Text
from ..registry import kit_part

GAME = "axis-allies"
MAP_ID = "world"
INK = "#222222"
GREY = "#666666"
SEA_FILL = "#dcebf7"
SEA_INK = "#2c5d8a"
NEUTRAL_FILL = "#f1efe6"
LAND_W, LAND_H = 30.0, 13.0
SEA_W, SEA_H = 22.0, 7.0
LEGEND_H = 30.0
ROUTE_STYLES = {
    "land": Style(stroke="#8a6d3b", width=0.6),
    "coast": Style(stroke="#5a7fa6", width=0.35, dash=(1.2, 0.8)),
    "sea": Style(stroke="#5a7fa6", width=0.45),
}
BOARD_VALUES = (1, 2, 3, 4)


# --- small helpers -----------------------------------------------------------------------



def mix(colour: str, amount: float) -> str:
    """``colour`` mixed with white: 0 gives white, 1 the colour itself."""
    rgb = [int(colour[i:i + 2], 16) for i in (1, 3, 5)]
    return "#" + "".join(f"{round(255 - (255 - c) * amount):02x}" for c in rgb)


def ink_on(colour: str) -> str:
    """Black or white, whichever reads better on ``colour``."""
    r, g, b = (int(colour[i:i + 2], 16) for i in (1, 3, 5))
    return "#ffffff" if 0.299 * r + 0.587 * g + 0.114 * b < 140 else "#000000"


def power_colour(game: Game, side_id: str | None) -> str:
    """A power's colour from ``game.sides`` (grey for neutral or unknown)."""
    for side in game.info.sides:
        if side.id == side_id and (side.color or "").startswith("#"):
            return side.color
    return "#9a9a9a"


def power(game: Game, side_id: str) -> Side:
    """The side record of a power."""
    return next(s for s in game.info.sides if s.id == side_id)


def page_of(part: str, options: Options, items, id: str, landscape: bool = False) -> KitPage:
    """A kit page of the chosen paper (landscape when asked)."""
    p = options.paper.landscape if landscape else options.paper.portrait
    return KitPage(part, Page(p.width, p.height, tuple(items), id=id))



def cell(x: float, y: float, w: float, h: float, text: str, size: float = 2.8,
         style: Style | None = None, bold: bool = False, anchor: str = "middle",
         fill: str = INK) -> list[Primitive]:
    """A framed cell with one line of text fitted inside."""
    style = style or Style(stroke="#777777", width=0.2)
    tx = x + w / 2 if anchor == "middle" else x + 1.2
    return [Rect(x, y, w, h, style),
            Text(tx, y + h / 2 + size * 0.35, text, size=fit_text(text, size, w - 2.0),
                 anchor=anchor, bold=bold, fill=fill)]


# --- the world map -----------------------------------------------------------------------


@dataclass
class Spot:
    """Where a territory or sea zone is drawn: its centre and half sizes in mm."""

    point: Point
    x: float
    y: float
    hw: float
    hh: float

    @property
    def land(self) -> bool:
        return self.point.kind != "sea"


def map_size(point_map: PointMap) -> tuple[float, float]:
    """The map area in mm, from the data."""
    return point_map.width_mm or 700.0, point_map.height_mm or 400.0


def place_spots(point_map: PointMap) -> dict[str, Spot]:
    """Every territory and sea zone at its map position, then pushed apart until no two
    shapes overlap (a fixed number of deterministic passes)."""
    w, h = map_size(point_map)
    spots = {}
    for p in point_map.points:
        land = p.kind != "sea"
        hw, hh = (LAND_W / 2, LAND_H / 2) if land else (SEA_W / 2, SEA_H / 2)
        spots[p.id] = Spot(p, 6 + (p.x or 0.5) * (w - 12), 6 + (p.y or 0.5) * (h - 12), hw, hh)
    ordered = [spots[p.id] for p in point_map.points]
    for _ in range(80):
        if not _separate(ordered, w, h):
            break
    return spots


def _separate(spots: list[Spot], w: float, h: float, gap: float = 1.2) -> bool:
    """One pass pushing overlapping shapes apart along the axis of least overlap."""
    moved = False
    for i, a in enumerate(spots):
        for b in spots[i + 1:]:
            ox = a.hw + b.hw + gap - abs(a.x - b.x)
            oy = a.hh + b.hh + gap - abs(a.y - b.y)
            if ox <= 0 or oy <= 0:
                continue
            moved = True
            if ox < oy:
                step = ox / 2 * (1 if a.x >= b.x else -1)
                a.x, b.x = a.x + step, b.x - step
            else:
                step = oy / 2 * (1 if a.y >= b.y else -1)
                a.y, b.y = a.y + step, b.y - step
    for s in spots:
        s.x = min(max(s.x, s.hw + 1), w - s.hw - 1)
        s.y = min(max(s.y, s.hh + 1), h - s.hh - 1)
    return moved


def route_items(point_map: PointMap, spots: dict[str, Spot], width: float) -> list[Primitive]:
    """Connections as lines under the shapes; one that wraps round the board's east-west
    edge is drawn as two stubs to the edges, each naming the far end."""
    items: list[Primitive] = []
    for route in point_map.routes:
        a, b = spots[route.a], spots[route.b]
        style = ROUTE_STYLES.get(route.kind or "sea", ROUTE_STYLES["sea"])
        rid = f"route-{route.a}-{route.b}"
        cls = f"connection {route.kind or ''}".strip()
        if abs(a.x - b.x) <= width / 2:
            items.append(Line(a.x, a.y, b.x, b.y, style, id=rid, cls=cls))
            continue
        for near, far, part in ((a, b, "a"), (b, a, "b")):
            edge = 0.0 if near.x < width / 2 else width
            yy = (near.y + far.y) / 2
            items.append(Line(near.x, near.y, edge, yy, style, id=f"{rid}-{part}",
                              cls=f"{cls} wraps"))
            label = f"→ {far.point.name}"
            anchor = "start" if edge == 0.0 else "end"
            items.append(Text(edge + (1.0 if edge == 0.0 else -1.0), yy - 1.0, label, size=2.0,
                              anchor=anchor, fill=SEA_INK, cls="wrap-label"))
    return items


def territory_items(game: Game, spot: Spot) -> Group:
    """A land territory: a box in its owner's colour with name, production, capital and
    starting industrial complex."""
    p = spot.point
    owner = str(p.extra.get("owner") or "neutral")
    neutral = owner == "neutral" or "neutral" in p.flags
    colour = power_colour(game, None if neutral else owner)
    w, h = spot.hw * 2, spot.hh * 2
    capital = bool(p.extra.get("capital")) or "capital" in p.flags
    factory = "original-factory" in p.flags
    fill = NEUTRAL_FILL if neutral else mix(colour, 0.35)
    frame = Style(fill=fill, stroke=colour, width=1.0 if capital else 0.5)
    items: list[Primitive] = [Rect(0, 0, w, h, frame, r=1.2, cls="territory-box")]
    if capital:
        items.append(Rect(0.9, 0.9, w - 1.8, h - 1.8, Style(stroke=colour, width=0.3), r=0.8))
    items.extend(_name_lines(p.name or p.id, w, 3.0 if capital else 2.4))
    items.extend(_territory_footer(p, w, h, colour, neutral, capital, factory))
    classes = ["territory", "land", f"owner-{owner}"]
    classes += ["capital"] * capital + ["factory"] * factory + ["neutral"] * neutral
    return Group(tuple(items), dx=spot.x - spot.hw, dy=spot.y - spot.hh,
                 id=f"territory-{p.id}", cls=" ".join(classes))


def _name_lines(name: str, w: float, top: float) -> list[Primitive]:
    size = 2.5
    lines = wrap(name, size, w - 2.4)
    if len(lines) > 2:
        lines = [lines[0], " ".join(lines[1:])]
    return [centred(line, w / 2, top + 2.3 + i * 2.8, size, w - 2.4, bold=True,
                    cls="territory-name") for i, line in enumerate(lines)]


def _territory_footer(p: Point, w: float, h: float, colour: str, neutral: bool,
                      capital: bool, factory: bool) -> list[Primitive]:
    items: list[Primitive] = []
    y = h - 2.0
    production = p.extra.get("production") or 0
    if neutral:
        items.append(centred("neutral 中立", w / 2, y, 2.0, w - 2, fill=GREY))
        return items
    if production:
        items.append(Circle(4.2, h - 3.3, 2.4, Style(fill="#ffffff", stroke=INK, width=0.3),
                            cls="production"))
        items.append(Text(4.2, h - 2.4, str(production), size=2.6, anchor="middle", bold=True))
    if capital:
        items.append(Text(w / 2, y, "★ capital", size=2.1, anchor="middle", bold=True,
                          cls="capital-mark"))
    if factory:
        items.extend(factory_icon(w - 7.2, h - 5.6, colour))
    return items


def factory_icon(x: float, y: float, colour: str) -> list[Primitive]:
    """A small industrial-complex symbol: a saw-tooth roof and a chimney."""
    roof = ((x, y + 4.4), (x, y + 1.6), (x + 1.5, y + 0.6), (x + 1.5, y + 1.6), (x + 3, y + 0.6),
            (x + 3, y + 1.6), (x + 4.5, y + 0.6), (x + 4.5, y - 0.8), (x + 5.5, y - 0.8),
            (x + 5.5, y + 4.4))
    return [Polygon(roof, Style(fill=colour, stroke="#000000", width=0.2), cls="factory-icon"),
            Text(x + 2.7, y + 3.9, "IC", size=1.6, anchor="middle", fill=ink_on(colour),
                 bold=True)]


def sea_items(spot: Spot) -> Group:
    """A sea zone: a rounded blue tablet with its name."""
    p = spot.point
    w, h = spot.hw * 2, spot.hh * 2
    name = (p.name or p.id).replace(" Sea Zone", "")
    items = (Rect(0, 0, w, h, Style(fill=SEA_FILL, stroke=SEA_INK, width=0.3), r=h / 2,
                  cls="sea-box"),
             centred(name, w / 2, h / 2 - 0.2, 2.2, w - 3, fill=SEA_INK, bold=True),
             centred("sea zone 海域", w / 2, h / 2 + 2.3, 1.5, w - 4, fill=SEA_INK))
    return Group(items, dx=spot.x - spot.hw, dy=spot.y - spot.hh, id=f"sea-{p.id}",
                 cls="sea-zone")


def legend_items(game: Game, y: float, width: float) -> list[Primitive]:
    """A strip under the map: the powers' colours and the symbols."""
    items: list[Primitive] = [Rect(0, y, width, LEGEND_H, Style(fill="#ffffff", width=0.4),
                                   cls="map-legend")]
    title = f"{game.info.name}: world map 世界地図{dagger(game.point_maps[0].is_assumed)}"
    items.append(Text(4, y + 6, title, size=4.2, bold=True))
    x = 4.0
    for side in game.info.sides:
        colour = power_colour(game, side.id)
        items.append(Rect(x, y + 10, 10, 6, Style(fill=mix(colour, 0.35), stroke=colour,
                                                  width=0.5), r=1))
        label = f"{side.name} {side.name_ja or ''}{dagger(side.field_assumed('color'))}"
        items.append(Text(x + 12, y + 14.5, label, size=2.6))
        x += 14 + text_width(label, 2.6) + 6
    items.extend(_symbol_legend(y + 20))
    return items


def _symbol_legend(y: float) -> list[Primitive]:
    items: list[Primitive] = [
        Circle(6.4, y + 3.0, 2.4, Style(fill="#ffffff", stroke=INK, width=0.3)),
        Text(6.4, y + 3.9, "3", size=2.6, anchor="middle", bold=True),
        Text(10, y + 4, "production (IPC) 生産力", size=2.6),
        Text(52, y + 4, "★ capital 首都 (double frame)", size=2.6),
    ]
    items.extend(factory_icon(98, y + 1, "#777777"))
    items.append(Text(105, y + 4, "starting industrial complex 工場", size=2.6))
    x = 160.0
    for kind, label in (("land", "land connection"), ("coast", "coast"), ("sea", "sea")):
        items.append(Line(x, y + 3, x + 10, y + 3, ROUTE_STYLES[kind]))
        items.append(Text(x + 12, y + 4, label, size=2.6))
        x += 14 + text_width(label, 2.6) + 6
    items.append(Rect(x, y, 14, 6, Style(fill=SEA_FILL, stroke=SEA_INK, width=0.3), r=3))
    items.append(Text(x + 16, y + 4, "sea zone 海域; → name: the connection wraps round the "
                      "board's east-west edge", size=2.6))
    return items


def world_map_drawing(game: Game) -> tuple[tuple[Primitive, ...], float, float]:
    """The whole schematic at full size: routes, sea zones, territories, legend."""
    point_map = game.get("point_maps", MAP_ID)
    w, h = map_size(point_map)  # type: ignore[arg-type]
    spots = place_spots(point_map)  # type: ignore[arg-type]
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill="#eef5fb", width=0.5),
                                   cls="map-border")]
    items.append(Group(tuple(route_items(point_map, spots, w)), cls="connections"))
    items.append(Group(tuple(sea_items(s) for s in spots.values() if not s.land),
                       cls="sea-zones"))
    items.append(Group(tuple(territory_items(game, s) for s in spots.values() if s.land),
                       cls="territories"))
    items.extend(legend_items(game, h, w))
    return tuple(items), w, h + LEGEND_H


# --- battle board ------------------------------------------------------------------------


def units_by_value(game: Game, stat: str) -> dict[int, list[str]]:
    """Unit-table rows grouped by the value they hit on in ``stat`` (attack or defense)."""
    table = game.table("unit")
    out: dict[int, list[str]] = {}
    for row in table.rows:
        value = table.result(row).get(stat)
        if isinstance(value, int):
            out.setdefault(value, []).append(f"{row.name.title()} {row.name_ja or ''}".strip())
    return out


def board_half(game: Game, group: str, x: float, y: float, w: float, h: float
               ) -> list[Primitive]:
    """Four columns (hit values 1-4) of one side of the battle board."""
    display = game.get("displays", "battle-board")
    stat = "attack" if group == "attacker" else "defense"
    units = units_by_value(game, stat)
    colour = "#a33a2a" if group == "attacker" else "#2a5aa3"
    label = "Attacker 攻撃側" if group == "attacker" else "Defender 防御側"
    items: list[Primitive] = [Rect(x, y, w, 7, Style(fill=colour, stroke=None)),
                              centred(label, x + w / 2, y + 5.2, 4.4, w - 4, fill="#ffffff",
                                      bold=True)]
    col_w = w / len(BOARD_VALUES)
    for i, value in enumerate(BOARD_VALUES):
        box = display.box(f"{group}-{value}")  # type: ignore[attr-defined]
        items.append(board_column(box, value, units.get(value, []), x + i * col_w, y + 8,
                                  col_w, h - 8, colour))
    return items


def board_column(box, value: int, names: list[str], x: float, y: float, w: float, h: float,
                 colour: str) -> Group:
    """One column: the hit value, who stands there, room for the pieces."""
    head = "≦" + str(value) if value > 1 else "1"
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill=mix(colour, 0.08), stroke=colour,
                                                     width=0.4)),
                              Text(w / 2, 12, head + dagger(box.is_assumed), size=10,
                                   anchor="middle", bold=True, fill=colour),
                              centred(f"hits on a roll of {value} or less", w / 2, 17, 2.4,
                                      w - 3, fill=GREY)]
    for j, name in enumerate(names):
        items.append(centred(name, w / 2, 22 + j * 3.6, 2.8, w - 3))
    return Group(tuple(items), dx=x, dy=y, id=f"board-{box.id}", cls="board-column")


def battle_board_page(game: Game, options: Options) -> KitPage:
    """The battle board on a landscape page: attacker and defender columns by hit value,
    the attacking transports' red frame and the casualty zone."""
    paper = options.paper.landscape
    x0, y0, w, h = paper.content()
    display = game.get("displays", "battle-board")
    title = f"{display.label}  [{rules_text(display.rule)}]"
    items: list[Primitive] = [Text(x0, y0 + 5, title, size=fit_text(title, 5, w), bold=True)]
    half = (w - 6) / 2
    top, col_h = y0 + 9, h - 9 - 40
    items.extend(board_half(game, "attacker", x0, top, half, col_h))
    items.extend(board_half(game, "defender", x0 + half + 6, top, half, col_h))
    items.append(_transport_box(display, x0, top + col_h + 3, half, 35))
    items.append(_casualty_box(display, x0 + half + 6, top + col_h + 3, half, 35))
    return KitPage("battle board", Page(paper.width, paper.height, tuple(items),
                                        id="battle-board"))


def _transport_box(display, x: float, y: float, w: float, h: float) -> Group:
    box = display.box("attacker-transports")
    items = (Rect(0, 0, w, h, Style(stroke="#c02020", width=1.2)),
             Text(3, 6, f"{box.name} {box.name_ja or ''}", size=3.4, bold=True, fill="#c02020"),
             Text(3, 11, "transports never roll; they are hit only when nothing else is left "
                  f"[{rules_text(box.rule)}]", size=fit_text("transports never roll; they are "
                                                            "hit only when nothing else is left "
                                                            "[sea 1), L85]", 2.4, w - 6),
                  fill=GREY))
    return Group(items, dx=x, dy=y, id=f"board-{box.id}", cls="board-box transports")


def _casualty_box(display, x: float, y: float, w: float, h: float) -> Group:
    box = display.box("casualties")
    note = box.note or ""
    lines = wrap(note, 2.4, w - 6)[:3]
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill="#f6e7e7", stroke="#555555",
                                                     width=0.8, dash=(2, 1))),
                              Text(3, 6, f"{box.name} {box.name_ja or ''}", size=3.6, bold=True)]
    items += [Text(3, 11 + i * 3.1, line, size=2.4, fill=GREY) for i, line in enumerate(lines)]
    return Group(tuple(items), dx=x, dy=y, id=f"board-{box.id}", cls="board-box casualties")


# --- national production chart -------------------------------------------------------------


def production_page(game: Game, options: Options) -> KitPage:
    """The national production chart: one box per IPC value of the track, each power's
    starting box marked, the Axis economic-victory level flagged."""
    paper = options.paper.landscape
    x0, y0, w, h = paper.content()
    track = game.get("tracks", "national-production")
    title = f"{track.label}{dagger(track.field_assumed('values'))}  [{rules_text(track.rule)}]"
    items: list[Primitive] = [Text(x0, y0 + 5, title, size=fit_text(title, 5, w), bold=True)]
    values = list(track.values)  # type: ignore[attr-defined]
    per_row = 16
    rows = -(-len(values) // per_row)
    box_w = w / per_row
    box_h = min(16.0, (h - 30) / rows)
    starts = _starting_levels(game)
    for i, value in enumerate(values):
        r, c = divmod(i, per_row)
        items.append(npl_box(game, value, track, starts.get(int(value), []), box_w, box_h,
                             x0 + c * box_w, y0 + 9 + r * box_h))
    items.extend(_production_notes(game, track, x0, y0 + 12 + rows * box_h, w))
    return KitPage("national production", Page(paper.width, paper.height, tuple(items),
                                               id="national-production"))


def _starting_levels(game: Game) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for side in game.info.sides:
        value = game.constant(f"starting-ipc-{side.id}")
        out.setdefault(int(value), []).append(side.id)  # type: ignore[arg-type]
    return out


def npl_box(game: Game, value, track, starters: list[str], w: float, h: float, x: float,
            y: float) -> Group:
    """One box of the production chart."""
    flagged = str(value) in track.labels
    style = Style(fill="#fff3c4" if flagged else "#ffffff", stroke="#333333",
                  width=0.8 if flagged else 0.25)
    items: list[Primitive] = [Rect(0, 0, w, h, style),
                              Text(1.0, 3.6, str(value), size=3.2, bold=True)]
    for j, side_id in enumerate(starters):
        colour = power_colour(game, side_id)
        tab_w = (w - 2) / max(len(starters), 1)
        items.append(Rect(1 + j * tab_w, h - 4.4, tab_w, 3.6, Style(fill=colour, stroke=None)))
        items.append(centred(side_id.upper(), 1 + j * tab_w + tab_w / 2, h - 1.6, 2.0, tab_w - 0.6,
                             fill=ink_on(colour), bold=True))
    if flagged:
        items.append(Text(w - 1, 3.6, "★", size=3, anchor="end", fill="#b02020"))
    cls = "npl-box start" if starters else "npl-box"
    return Group(tuple(items), dx=x, dy=y, id=f"npl-{value}", cls=cls)


def _production_notes(game: Game, track, x: float, y: float, w: float) -> list[Primitive]:
    items: list[Primitive] = []
    notes = [f"★ {value}: {label}" for value, label in track.labels.items()]
    starts = ", ".join(f"{s.name} {game.constant(f'starting-ipc-{s.id}')}"
                       f"{dagger(game.get('constants', f'starting-ipc-{s.id}').is_assumed)}"
                       for s in game.info.sides)
    notes.append(f"Starting NPL (coloured tabs) 初期国家生産力: {starts}")
    notes.append("Income = NPL (国家生産力レベル); move your NPL marker whenever a territory "
                 "changes hands.")
    for i, note in enumerate(notes):
        items.append(Text(x, y + 3 + i * 4, note, size=fit_text(note, 2.8, w)))
    return items


# --- weapons development chart -------------------------------------------------------------


def weapons_page(game: Game, options: Options) -> KitPage:
    """The weapons development chart: roll, weapon, effect, a box per power for its
    control marker."""
    paper = options.paper.landscape
    x0, y0, w, _h = paper.content()
    table = game.table("weapons-development")
    title = (f"{table.label}{dagger(table.field_assumed('rows'))}  [{rules_text(table.rule)}]"
             f"  dice: {table.dice}")
    items: list[Primitive] = [Text(x0, y0 + 5, title, size=fit_text(title, 5, w), bold=True)]
    sides = game.info.sides
    widths = [12.0, 42.0, w - 54 - 18 * len(sides), *[18.0] * len(sides)]
    y = y0 + 9
    heads = ["d6", "Weapon 兵器", "Effect 効果", *[s.name_ja or s.id for s in sides]]
    items.extend(_row(x0, y, widths, heads, 6.0, head=True, sides=sides, game=game))
    y += 6
    weapons = {r.id: r for r in game.section("weapons")}
    for row in table.rows:
        weapon = weapons[table.result(row)["weapon"]]  # type: ignore[index]
        items.append(weapon_row(game, row, table, weapon, x0, y, widths))
        y += 20
    items.extend(_research_notes(game, x0, y + 4, w))
    return KitPage("weapons development", Page(paper.width, paper.height, tuple(items),
                                               id="weapons-development"))


def _row(x, y, widths, texts, h, head=False, sides=(), game=None) -> list[Primitive]:
    items: list[Primitive] = []
    for i, (text, cw) in enumerate(zip(texts, widths, strict=True)):
        fill = "#e8e8e8"
        if head and i >= 3 and game is not None:
            fill = power_colour(game, sides[i - 3].id)
        style = Style(fill=fill, stroke="#555555", width=0.2)
        ink = ink_on(fill) if fill.startswith("#") else INK
        items.extend(cell(x, y, cw, h, text, 2.8, style, bold=True, fill=ink))
        x += cw
    return items


def weapon_row(game: Game, row, table, weapon, x0: float, y: float, widths) -> Group:
    """One weapon: the die face, its name, its effect and one marker box per power."""
    h = 20.0
    roll = str(table.conditions(row)["roll"])
    items: list[Primitive] = cell(0, 0, widths[0], h, roll, 6, bold=True)
    items += cell(widths[0], 0, widths[1], h, f"{weapon.name}{dagger(weapon.is_assumed)}", 3.2,
                  bold=True, anchor="start")
    effect_w = widths[2]
    items.append(Rect(widths[0] + widths[1], 0, effect_w, h, Style(stroke="#777777", width=0.2)))
    lines = wrap(str(weapon.get("effect") or ""), 3.2, effect_w - 3)
    size = 3.2 if len(lines) <= 4 else 2.6
    lines = wrap(str(weapon.get("effect") or ""), size, effect_w - 3)
    items += [Text(widths[0] + widths[1] + 1.5, 4.5 + i * size * 1.3, line, size=size)
              for i, line in enumerate(lines)]
    x = sum(widths[:3])
    for side in game.info.sides:
        colour = power_colour(game, side.id)
        items.append(Rect(x, 0, 18, h, Style(stroke="#777777", width=0.2)))
        items.append(Rect(x + 2, 2.5, 14, 14, Style(fill=mix(colour, 0.15), stroke=colour,
                                                   width=0.5), r=1, id=f"weapon-{weapon.id}-"
                          f"{side.id}", cls="weapon-box"))
        x += 18
    return Group(tuple(items), dx=x0, dy=y, id=f"weapon-{weapon.id}", cls="weapon-row")


def _research_notes(game: Game, x: float, y: float, w: float) -> list[Primitive]:
    sheet = game.get("sheets", "weapons-development")
    items: list[Primitive] = []
    for section in sheet.sections:  # type: ignore[attr-defined]
        items.append(Text(x, y, f"{section.title} {section.title_ja or ''}", size=3.2, bold=True))
        y += 4.5
        for line in section.lines:
            items.append(Text(x, y, f"• {line}", size=fit_text(f"• {line}", 2.8, w)))
            y += 3.8
    cost = game.constant("research-die-cost")
    items.append(Text(x, y + 1, f"Development die 兵器開発用のサイコロ: {cost} IPC each", size=2.8,
                      bold=True))
    return items


# --- unit reference cards ------------------------------------------------------------------


def unit_card(game: Game, side: Side, w: float) -> tuple[Group, float]:
    """A power's unit reference card: cost, move, attack and defence of every unit from
    the unit table, the power's starting IPC."""
    colour = power_colour(game, side.id)
    table = game.table("unit")
    items: list[Primitive] = [Rect(0, 0, w, 10, Style(fill=colour, stroke=None))]
    title = f"{side.name} {side.name_ja or ''}: unit reference 参照表"
    items.append(Text(3, 7, title, size=fit_text(title, 4.6, w - 50), bold=True,
                      fill=ink_on(colour)))
    start = game.constant(f"starting-ipc-{side.id}")
    ipc = f"start {start} IPC{dagger(game.get('constants', f'starting-ipc-{side.id}').is_assumed)}"
    items.append(Text(w - 3, 7, ipc, size=3.2, anchor="end", fill=ink_on(colour)))
    widths = [w - 4 * 22, 22.0, 22.0, 22.0, 22.0]
    heads = ["Unit 兵種", "Cost 費用", "Move 移動力", "Attack 攻撃力", "Defense 防御力"]
    y = 12.0
    items.extend(_card_row(widths, heads, y, 6.0, Style(fill=mix(colour, 0.25), stroke="#555555",
                                                        width=0.2), bold=True))
    y += 6
    for row in table.rows:
        result = table.result(row)
        values = [_stat(result.get(k)) for k in ("cost", "move", "attack", "defense")]
        label = f"{row.name.title()} {row.name_ja or ''}".strip() + dagger(row.is_assumed)
        items.extend(_card_row(widths, [label, *values], y, 6.2, Style(stroke="#999999",
                                                                         width=0.2)))
        y += 6.2
    note = "Attack / defense: a die roll at or under the value hits; - never rolls."
    items.append(Text(1, y + 4, note, size=fit_text(note, 2.4, w - 2), fill=GREY))
    height = y + 6
    items.insert(0, Rect(0, 0, w, height, Style(fill="#ffffff", stroke=colour, width=0.8)))
    return Group(tuple(items), id=f"unit-card-{side.id}", cls="unit-card"), height


def _stat(value) -> str:
    return "-" if value is None else str(value)


def _card_row(widths, texts, y, h, style, bold=False) -> list[Primitive]:
    items: list[Primitive] = []
    x = 0.0
    for i, (text, cw) in enumerate(zip(texts, widths, strict=True)):
        items.extend(cell(x, y, cw, h, text, 3.0 if i else 3.0, style, bold=bold or i > 0,
                          anchor="start" if i == 0 else "middle"))
        x += cw
    return items


def unit_card_pages(game: Game, options: Options) -> list[KitPage]:
    """The five unit reference cards, as many to a page as fit."""
    paper = options.paper.portrait
    x0, y0, w, h = paper.content()
    pages: list[KitPage] = []
    items: list[Primitive] = []
    y = y0
    for side in game.info.sides:
        card, height = unit_card(game, side, w)
        if items and y + height > y0 + h:
            pages.append(_card_page(paper, items, len(pages) + 1))
            items, y = [], y0
        items.append(replace(card, dx=x0, dy=y))
        y += height + 6
    if items:
        pages.append(_card_page(paper, items, len(pages) + 1))
    return pages


def _card_page(paper, items, number: int) -> KitPage:
    return KitPage("unit reference cards", Page(paper.width, paper.height, tuple(items),
                                                id=f"unit-cards-{number}"))


# --- counters ------------------------------------------------------------------------------


def unit_counter(game: Game, mix_record, size: float) -> tuple[Primitive, ...]:
    """A unit counter in its power's colour, in the layout of the style (at the end of
    games/axis-allies/game.yaml)."""
    unit = game.get("units", str(mix_record.get("unit")))
    colour = power_colour(game, str(mix_record.get("side")))
    face = face_of(game, unit, ground=colour, size=size,  # type: ignore[arg-type]
                   what=f"counter-{mix_record.get('side')}-{unit.id}")
    if face.look.layout == "marker":
        face = replace(face, word=marker_word(game, unit))  # type: ignore[arg-type]
    return draw(face)


def unit_counter_pieces(game: Game) -> list[Piece]:
    """Every power's counters of every unit type, as many as the counter mix says."""
    pieces: list[Piece] = []
    for record in game.section("counter-mix"):
        unit = game.get("units", str(record.get("unit")))
        s = counter_size(game, unit)  # type: ignore[arg-type]
        face = unit_counter(game, record, s)
        side, unit_id = record.get("side"), record.get("unit")
        for i in range(int(record.get("count") or 0)):
            pieces.append(Piece(f"counter-{side}-{unit_id}-{i + 1}", s, s, face,
                                cls=f"counter unit {unit_id} {side}"))
    return pieces


def counter_pages(game: Game, options: Options) -> list[KitPage]:
    """Unit counters per power, then the markers (control, NPL, round, IPC bills)."""
    pieces = unit_counter_pieces(game)
    for marker in game.markers:
        pieces.extend(marker_pieces(game, marker))
    return kit.counter_sheet_pages(pieces, options)


# --- registered parts ----------------------------------------------------------------------


@kit_part(GAME, "map", replaces=True)
def axis_allies_map(game: Game, options: Options) -> list[KitPage]:
    """The world schematic (tiled), the battle board, the national production chart, the
    weapons development chart, then the generic round track."""
    drawing, width, height = world_map_drawing(game)
    pages = kit.tiled_pages(drawing, width, height, options, f"map {MAP_ID}")
    pages += [battle_board_page(game, options), production_page(game, options),
              weapons_page(game, options)]
    own_tracks = {"national-production"}
    rest = replace(game, point_maps=(), displays=(),
                   tracks=tuple(t for t in game.tracks if t.id not in own_tracks))
    return pages + kit.map_pages(rest, options)


@kit_part(GAME, "counters", replaces=True)
def axis_allies_counters(game: Game, options: Options) -> list[KitPage]:
    """Counters for every unit type in each power's colour (counter mix), then markers."""
    return counter_pages(game, options)


@kit_part(GAME, "sheets", replaces=True)
def axis_allies_sheets(game: Game, options: Options) -> list[KitPage]:
    """A unit reference card per power, then the generic pages of the other sheets and
    the play aid of every table."""
    rest = replace(game, sheets=tuple(s for s in game.sheets
                                      if not s.id.startswith("reference-chart-")))
    return [*unit_card_pages(game, options), *kit.sheet_pages(rest, options)]
