"""Nightfighter's own kit pages: the player and referee maps, the two counter sheets and the
referee screen.

Everything is drawn from the game's YAML. The maps are two renderings of the one 18x27 hex
map (``map.yaml``) at the sheet sizes of the constants ``player-map-size-in`` (17x22 in) and
``umpire-map-size-in`` (11x17 in); the hex size is derived so that the grid fills the sheet
(the generic tiler splits it over smaller paper), the player map's no larger and, on a
paper, as large as prints on the fewest tiles (``player_layout``). Searchlight zones are
dotted outlines with their letters, flare-dropper paths are arrows; the Game Turn track and
the environment boxes (``tracks.yaml``) are the player's display, printed with the set-up
(``display_blocks``). The counters follow ``counter-sheets``: aircraft
with type, 3-digit id, large sighting number and a nose arrow; radar search/sweep pairs with
the ``radars`` search values; the 40 ``entry-chits`` with a red front and a yellow back.
The referee screen prints every table of ``tables.yaml`` as the engine reads it, plus the
radar arcs drawn with the engine's ``HexGrid.arc_hexes``.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, replace

from warpress.components import aids, holds, labels, setup_chart, symbols
from warpress.components.counters import (
    counter_name,
    counter_size,
    draw,
    face_of,
    pad_of,
    proof_mark,
)
from warpress.components.fonts import text_width, wrap
from warpress.components.hexmap import HexGeometry, hex_id_note
from warpress.components.impose import CROP, Piece, impose, plan_tiles
from warpress.components.kit import (
    KitPage,
    Options,
    flowed_pages,
    imposed_pages,
    is_form,
    tiled_pages,
)
from warpress.components.legend import legend_block
from warpress.components.legibility import MIN_MM, fit, fit_lines
from warpress.components.marks import dagger, proofing, rule_ref
from warpress.components.page import FOOTER, MARGIN, Paper
from warpress.components.pieces import fit_text
from warpress.components.primitives import (
    Group,
    Line,
    Page,
    Polygon,
    Primitive,
    Rect,
    Style,
    Text,
    arrow,
)
from warpress.components.sheets import sheet_blocks
from warpress.engine.errors import BadInput
from warpress.engine.hexgrid import HexGrid
from warpress.engine.model import Feature, Game, HexMap
from warpress.engine.query import show_value

from . import CODE
from .rules.scenario import SHIPPED, Scenario, load_scenario

GAME = "nightfighter"
INCH = 25.4
INK = "#222222"
GREY = "#666666"
ZONE_INK = "#9a6a00"
FLARE_INK = "#d0601a"
ENTRY_INK = "#b02020"
EXIT_INK = "#303090"
PLAIN_HEX = Style(fill="#ffffff", stroke="#7f93ad", width=0.2)
ENTRY_HEX = Style(fill="#fbe3e3", stroke="#7f93ad", width=0.2)
EXIT_HEX = Style(fill="#e3e5f6", stroke="#7f93ad", width=0.2)
UNIT_VECTORS = {"N": (0.0, -1.0), "S": (0.0, 1.0), "NE": (0.866, -0.5), "SE": (0.866, 0.5),
                "SW": (-0.866, 0.5), "NW": (-0.866, -0.5)}
#: which sheet each map fills: (constant with its size in inches, title, Japanese title)
MAP_SHEETS = {
    "player": ("player-map-size-in", "Player map", "プレイヤーマップ"),
    "referee": ("umpire-map-size-in", "Referee (umpire) map", "審判用マップ"),
}


def rules(record) -> str:
    """``[2.1.3, 14.2]`` for a record with rules, else an empty string."""
    return rule_ref(record.rule)


# --- geometry helpers --------------------------------------------------------------------


def outline_edges(geo: HexGeometry, hexes, index) -> list[tuple[tuple[float, float], ...]]:
    """The outer edges of a set of hexes: the hex sides no other hex of the set shares."""
    count: dict[tuple[float, float], tuple[tuple[float, float], ...]] = {}
    seen: dict[tuple[float, float], int] = {}
    for hex_id in hexes:
        corners = geo.corners(*index[hex_id])
        for i in range(6):
            a, b = corners[i], corners[(i + 1) % 6]
            key = (round((a[0] + b[0]) / 2, 2), round((a[1] + b[1]) / 2, 2))
            seen[key] = seen.get(key, 0) + 1
            count[key] = (a, b)
    return [count[k] for k, n in seen.items() if n == 1]


def wrapped(text: str, x: float, y: float, size: float, width: float,
            **kw) -> tuple[list[Primitive], float]:
    """``aids.text_lines`` at this kit's slightly tighter line spacing."""
    return aids.text_lines(text, x, y, size, width, leading=1.28, dash=True, **kw)


# --- the maps ----------------------------------------------------------------------------

PAD = 4.0  # border inside the drawing
TITLE_H = 10.0
BOTTOM_H = 7.0
BEACON_W = 1.7  # radio-beacon box column, in hex sizes (circumradius)


def sheet_size(game: Game, which: str) -> tuple[float, float]:
    """Width and height (mm) of the printed sheet ``which`` map fills: the map's own sheet
    less the printer margin, crop and label band, so that it prints on one sheet of paper
    that size."""
    inches = game.constant(MAP_SHEETS[which][0])
    w, h = (float(v) * INCH for v in inches)
    return w - 2 * (MARGIN + CROP), h - 2 * (MARGIN + CROP) - FOOTER - 4.0


def map_geometry(game: Game, which: str) -> tuple[HexGeometry, float, float]:
    """The hex geometry that fills the sheet, and the sheet's width and height."""
    hex_map = game.hex_map()
    w, h = sheet_size(game, which)
    probe = HexGeometry.of(hex_map, 10.0)
    pw, ph = probe.extent()
    beacon = BEACON_W * probe.size
    fit_w = (w - 2 * PAD) / (pw + beacon)
    fit_h = (h - 2 * PAD - TITLE_H - BOTTOM_H) / ph
    geo = HexGeometry.of(hex_map, 10.0 * min(fit_w, fit_h))
    wider = beacon_column(game, geo.size) - BEACON_W * geo.size  # the box's room for a counter
    if wider > 0:
        fit_w = (w - 2 * PAD - wider) / (pw + beacon)
        geo = HexGeometry.of(hex_map, 10.0 * min(fit_w, fit_h))
    return geo, w, h


#: The player map's legend column east of the grid: the widths tried, widest first (mm).
LEGEND_WIDTHS = (72.0, 62.0, 52.0, 44.0)
#: Room a seam keeps to move in, across and down, so that it can pass between hex ids (mm):
#: more than a column of hexes is wide and a row of ids apart.
SEAM_ROOM = (18.0, 12.0)
#: The hex size steps tried below the sheet's, as shares of it.
SHRINK = tuple(1.0 - 0.005 * i for i in range(41))


@dataclass(frozen=True)
class Layout:
    """How a map is drawn: its hexes and the width of the legend column beside them."""

    geo: HexGeometry
    legend_w: float

    def size(self, game: Game) -> tuple[float, float]:
        """The drawing's width and height (mm)."""
        gw, gh = self.geo.extent()
        east = max(LEGEND_GAP + self.legend_w, beacon_column(game, self.geo.size))
        return 2 * PAD + gw + east, 2 * PAD + TITLE_H + gh + BOTTOM_H


def player_layout(game: Game, paper_: Paper | None = None) -> Layout:
    """The player map's hexes and legend column: at the size of the map's own sheet
    (``player-map-size-in``), or, on ``paper``, as large as that size or less as prints on
    the fewest tiles, each seam keeping room (``SEAM_ROOM``) to pass between hex ids; never
    so small that a hex does not hold a counter across its flats."""
    hex_map = game.hex_map()
    largest = map_geometry(game, "player")[0].size * math.sqrt(3)  # across the flats
    least = holds.counter_mm(game)
    layouts = [Layout(HexGeometry.of(hex_map, largest * k), w) for k in SHRINK
               for w in LEGEND_WIDTHS if largest * k >= least]
    layouts = [lay for lay in layouts if _legend_fits(game, lay)]
    if not layouts:
        raise BadInput(f"{game.id}: the player map's legend fits beside the map at no size")
    if paper_ is None:
        return layouts[0]

    def tiles(lay: Layout) -> int:
        w, h = lay.size(game)
        return plan_tiles(w + SEAM_ROOM[0], h + SEAM_ROOM[1], paper_).count

    fewest = min(tiles(lay) for lay in layouts)
    return next(lay for lay in layouts if tiles(lay) == fewest)


def _legend_fits(game: Game, lay: Layout) -> bool:
    try:
        side_legend(game, lay.geo, 0.0, lay.legend_w, PAD + TITLE_H, "player")
    except BadInput:
        return False
    return True


def map_drawing(game: Game, which: str, paper_: Paper | None = None
                ) -> tuple[tuple[Primitive, ...], float, float]:
    """The whole map ``which`` (player or referee) at full size: (items, width, height). The
    referee map fills its sheet; the player map is drawn at the size ``player_layout``
    gives (its own sheet's, or the largest that prints on the fewest tiles of ``paper``),
    its legend in the column east of the grid, the title and the exit caption over the
    grid's west part (clear of a seam down the middle)."""
    hex_map = game.hex_map()
    if which == "player":
        lay = player_layout(game, paper_)
        geo, (w, h) = lay.geo, lay.size(game)
    else:
        geo, w, h = map_geometry(game, which)
    gw, gh = geo.extent()
    x0, y0 = PAD, PAD + TITLE_H
    grid = map_grid(game, which, geo)
    column = x0 + gw + LEGEND_GAP  # the legend: east of the grid, at the top
    lead = column if which == "referee" else LEAD * gw + 2 * PAD
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill="#ffffff", stroke=None),
                                   cls="map-sheet"),
                              *_title(game, which, lead),
                              Group(tuple(grid), dx=x0, dy=y0, id=f"{which}-map-grid",
                                    cls=f"map-grid {which}")]
    items.extend(_exit_caption(hex_map, geo, x0, y0 + gh, None if which == "referee"
                               else LEAD * gw))
    items.append(side_legend(game, geo, column, w - PAD, y0, which))
    return tuple(items), w, h


#: The share of the grid's width the player map's title and exit caption take, from its
#: west edge: less than the first tile of two across shows.
LEAD = 0.45


LEGEND_GAP = 3.0  # mm between the grid and a legend beside it


def side_legend(game: Game, geo: HexGeometry, x: float, right: float, grid_top: float,
                which: str = "referee") -> Group:
    """The map's title block and legend (``map_legend``) in the column from ``x`` to
    ``right`` beside the grid (drawn from ``grid_top``), from the sheet's top to above the
    radio-beacon box: the sheet keeps its size and its hexes theirs."""
    shown, height = map_legend(game, which)(right - x)
    box = radio_beacon_box(geo, holds.least(game))
    room = grid_top + (box.top if box is not None else geo.extent()[1]) - LEGEND_GAP - PAD
    if height > room:
        raise BadInput(f"{game.id}: the {which} map's legend is {height:.0f} mm tall; the "
                       f"column beside the map holds {room:.0f} mm: give it fewer entries")
    return Group(shown, dx=x, dy=PAD, id=f"{which}-map-legend", cls="map-legend")


def map_grid(game: Game, which: str, geo: HexGeometry) -> list[Primitive]:
    """The map's grid layer in grid coordinates (origin at the grid's top-left): hexes and
    their ids, entry marks, searchlight zones, flare-dropper paths, beacons, the border and
    the radio-beacon box. ``which`` names the hexes' ids and classes (``{which}-hex-0712``)."""
    hex_map = game.hex_map()
    gw, gh = geo.extent()
    index = {hex_id: (c, r) for hex_id, c, r in geo.cells()}
    before = [*_hexes(hex_map, geo, which), *_entry_marks(hex_map, geo, index),
              *_zones(hex_map, geo, index), *_flare_paths(hex_map, geo, index)]
    placer = labels.LabelPlacer(labels.Box(0, 0, gw, gh),
                                [box for _t, box in labels.placed_texts(before)])
    grid: list[Primitive] = [*before, *_beacons(hex_map, geo, index, placer),
                             Rect(0, 0, gw, gh, Style(width=0.5), cls="map-border")]
    grid.extend(_radio_beacon_box_group(game, geo))
    return grid


def _title(game: Game, which: str, width: float) -> list[Primitive]:
    """The map's title line over the grid, ``width`` mm at most: the referee map's with its
    sheet's size; the player map's, printed at the paper's scale, without."""
    _const, english, japanese = MAP_SHEETS[which]
    hex_map = game.hex_map()
    name = game.info.name.split(':')[0]
    if which == "player":
        text = f"{name} — {english} {japanese} {rules(hex_map)}"
    else:
        inches = "x".join(str(v) for v in game.constant(MAP_SHEETS[which][0]))
        text = (f"{name} — {english} {japanese} ({inches} in) · "
                f"{hex_map.columns.count}x{hex_map.rows.count} hexes {rules(hex_map)}")
    return [Text(PAD, PAD + 6.0, text, size=fit_text(text, 6.0, width - 2 * PAD), bold=True,
                 cls="map-title")]


ID_DROP = 0.55  # a hex id's baseline above its hex's centre, in hex sizes


def _hexes(hex_map: HexMap, geo: HexGeometry, which: str) -> list[Primitive]:
    kinds: dict[str, str] = {}
    for feature in hex_map.features:
        if feature.kind in ("entry", "exit"):
            for hex_id in feature.hexes:
                kinds[hex_id] = feature.kind
    polygons: list[Primitive] = []
    labels: list[Primitive] = []
    size = min(2.6, geo.size * 0.24)
    for hex_id, c, r in geo.cells():
        kind = kinds.get(hex_id)
        style = {"entry": ENTRY_HEX, "exit": EXIT_HEX}.get(kind or "", PLAIN_HEX)
        cls = " ".join(["hex", GAME, which, *([kind] if kind else [])])
        polygons.append(Polygon(geo.corners(c, r), style, id=f"{which}-hex-{hex_id}", cls=cls))
        cx, cy = geo.centre(c, r)
        labels.append(Text(cx, cy - geo.size * ID_DROP, hex_id, size=size, anchor="middle",
                           fill="#555555", cls="hex-id"))
    return [Group(tuple(polygons), cls="hexes"), Group(tuple(labels), cls="hex-ids")]


def _entry_marks(hex_map: HexMap, geo: HexGeometry, index) -> list[Primitive]:
    """Entry hexes: the column number in large type and an arrow down the column."""
    items: list[Primitive] = []
    feature = next((f for f in hex_map.features if f.kind == "entry"), None)
    if feature is None:
        return items
    labels = feature.get("labels") or {}
    ux, uy = UNIT_VECTORS.get(str(feature.get("facing") or "S"), (0.0, 1.0))
    s = geo.size
    for hex_id in feature.hexes:
        cx, cy = geo.centre(*index[hex_id])
        label = str(labels.get(hex_id, hex_id))
        mark = Text(cx, cy + s * 0.22, label, size=s * 0.62, anchor="middle", bold=True,
                    fill=ENTRY_INK)
        tail = (cx + ux * s * 0.38, cy + uy * s * 0.38)
        tip = (cx + ux * s * 0.8, cy + uy * s * 0.8)
        items.append(Group((mark, arrow([tail, tip], Style(stroke=ENTRY_INK, width=0.5),
                                        head=s * 0.22)),
                           id=f"entry-{hex_id}", cls="entry-hex"))
    return items


def _zones(hex_map: HexMap, geo: HexGeometry, index) -> list[Primitive]:
    """Searchlight zones as dotted outlines with their letter ids (no fill)."""
    items: list[Primitive] = []
    dotted = Style(stroke=ZONE_INK, width=0.7, dash=(1.4, 0.9))
    drawn: set[tuple[float, float]] = set()  # an edge two zones share is dotted once
    for feature in hex_map.features:
        if feature.kind != "searchlight-zone":
            continue
        edges = []
        for a, b in outline_edges(geo, feature.hexes, index):
            key = (round((a[0] + b[0]) / 2, 2), round((a[1] + b[1]) / 2, 2))
            if key not in drawn:
                drawn.add(key)
                edges.append(Line(a[0], a[1], b[0], b[1], dotted))
        first = min(feature.hexes, key=lambda h: index[h])
        cx, cy = geo.centre(*index[first])
        letter = (feature.label or feature.id) + dagger(feature.is_assumed or
                                                        bool(feature.assumed))
        box_w = text_width(letter, geo.size * 0.7) + 2.0
        tag = [Rect(cx - box_w / 2, cy - geo.size * 0.28, box_w, geo.size * 0.82,
                    Style(fill="#ffffff", stroke=ZONE_INK, width=0.4), r=0.8),
               Text(cx, cy + geo.size * 0.4, letter, size=geo.size * 0.7, anchor="middle",
                    bold=True, fill=ZONE_INK, cls="zone-letter")]
        items.append(Group((*edges, *tag), id=f"zone-{feature.label or feature.id}",
                           cls="searchlight-zone"))
    return items


def _flare_paths(hex_map: HexMap, geo: HexGeometry, index) -> list[Primitive]:
    """Flare-dropper entry hexes (numbered tags) and their diagonal paths as arrows."""
    entries = {f.label: f for f in hex_map.features if f.kind == "flare-dropper-entry"}
    items: list[Primitive] = []
    s = geo.size
    for feature in hex_map.features:
        if feature.kind != "flare-dropper-path" or len(feature.hexes) < 2:
            continue
        points = [geo.centre(*index[h]) for h in feature.hexes]
        entry = next((e for e in entries.values() if e.hexes and e.hexes[0] == feature.hexes[0]),
                     None)
        number = entry.label if entry else feature.id
        faint = Style(stroke=FLARE_INK, width=0.35, dash=(2.0, 1.2), opacity=0.55)
        path = arrow(points[1:] if len(points) > 2 else points, faint, head=s * 0.3)
        bold = arrow([points[0], _towards(points[0], points[1], s * 0.95)],
                     Style(stroke=FLARE_INK, width=0.8), head=s * 0.32)
        cx, cy = points[0]
        ux, uy = (b - a for a, b in zip(points[0], _towards(points[0], points[1], 1.0),
                                        strict=True))
        # the tag sits beside the path on the line of the next columns' hex ids, so that
        # the lanes between rows of ids stay clear for a tile seam
        tag = Text(cx - ux * s * 0.42, cy + s * (math.sqrt(3) / 2 - ID_DROP),
                   f"F{number}{dagger(feature.is_assumed)}", size=s * 0.34,
                   anchor="middle", bold=True, fill=FLARE_INK, cls="flare-entry-label")
        items.append(Group((path, bold, tag), id=f"flare-path-{number}",
                           cls="flare-dropper-path"))
    return items


def _towards(a, b, length: float) -> tuple[float, float]:
    dx, dy = b[0] - a[0], b[1] - a[1]
    d = math.hypot(dx, dy) or 1.0
    return a[0] + dx / d * length, a[1] + dy / d * length


def _beacons(hex_map: HexMap, geo: HexGeometry, index,
             placer: labels.LabelPlacer) -> list[Primitive]:
    """The searchlight beacon: a star in its hex with its name placed beside it, clear of
    the hex ids and every other text."""
    items: list[Primitive] = []
    for feature in hex_map.features:
        if feature.kind != "searchlight-beacon" or not feature.hexes:
            continue
        cx, cy = geo.centre(*index[feature.hexes[0]])
        s = geo.size
        points = star(cx, cy - s * 0.05, s * 0.32, s * 0.13)
        name = (feature.name or "Searchlight beacon") + dagger(bool(feature.assumed))
        width = s * BEACON_LABEL_W
        what = f"map feature {feature.id}"
        # each name on one line where one holds it at the kit's least size: a kana name
        # broken in two reads as two words
        lines, size = fit_lines(name, max(s * 0.2, MIN_MM), width, 1, what)
        words = [(line, size, True) for line in lines]
        if feature.name_ja:
            ja, ja_size = fit_lines(feature.name_ja, size, width, 1, what)
            words += [(line, ja_size, False) for line in ja]
        texts = _placed_block(words, cx, cy, s, placer, what)
        items.append(Group((Polygon(points, Style(fill="#f2c200", stroke=ZONE_INK, width=0.3)),
                            *texts), id="searchlight-beacon", cls="searchlight-beacon"))
    return items


#: The searchlight beacon's name: at most this many hex sizes wide, a line per language.
BEACON_LABEL_W = 2.6


def _placed_block(words, cx: float, cy: float, s: float, placer: labels.LabelPlacer,
                  what: str) -> list[Text]:
    """Lines (text, size, bold) centred one under the other, at the first spot round
    (cx, cy) where the whole block is clear; BadInput naming ``what`` if none is."""
    height = sum(size * 1.1 for _w, size, _b in words)
    width = max(text_width(w, size) for w, size, _b in words)
    spots = sorted(((dx / 4, dy / 10) for dx in range(-8, 9) for dy in range(-30, 31)),
                   key=lambda d: (abs(d[0]) + abs(d[1] + height / s / 2 - 0.2), d))
    for dx, dy in spots:
        top = cy + dy * s
        if abs(dx) < 0.4 + width / s / 2 and top < cy + 0.4 * s and top + height > cy - 0.4 * s:
            continue  # it would cover the star
        texts, y = [], top
        for text, size, bold in words:
            y += size * labels.ASCENT
            texts.append(Text(cx + dx * s, y, text, size=size, anchor="middle", bold=bold))
            y += size * (1.1 - labels.ASCENT)
        boxes = [labels.text_box(t) for t in texts]
        if all(placer.free(b) for b in boxes):
            for b in boxes:
                placer.take(b)
            return texts
    raise BadInput(f"{what}: its name fits nowhere beside it without covering a hex id")


@dataclass(frozen=True)
class BeaconBox:
    """The radio-beacon box beyond the east edge in grid coordinates: its map feature, the
    centres of its adjacent hexes, and its frame from (``x``, ``top``), ``w`` wide, down to
    ``bottom``."""

    feature: Feature
    centres: tuple[tuple[float, float], ...]
    x: float
    top: float
    w: float
    bottom: float

    @property
    def rect(self) -> tuple[float, float, float, float]:
        """The frame as (x, y, w, h)."""
        return self.x, self.top, self.w, self.bottom - self.top


def radio_beacon_box(geo: HexGeometry, least: float = 0.0) -> BeaconBox | None:
    """The radio-beacon box of the map of ``geo``, at least ``least`` mm wide, or None when
    the map has none."""
    feature = next((f for f in geo.hex_map.features if f.kind == "radio-beacon-box"), None)
    if feature is None or not feature.hexes:
        return None
    gw, _gh = geo.extent()
    s = geo.size
    index = {hex_id: (c, r) for hex_id, c, r in geo.cells()}
    centres = tuple(geo.centre(*index[h]) for h in feature.hexes)
    ys = [y for _x, y in centres]
    return BeaconBox(feature, centres, gw + s * 0.35, min(ys) - s * 0.8,
                     max((BEACON_W - 0.45) * s, least), max(ys) + s * 0.8)


def beacon_column(game: Game, size: float) -> float:
    """Width (mm) of the radio-beacon box's column beside a grid of hexes of radius ``size``:
    the box holds a counter with room to spare."""
    return max(BEACON_W * size, holds.least(game) + 0.45 * size)


def _radio_beacon_box_group(game: Game, geo: HexGeometry) -> list[Primitive]:
    """The radio-beacon box beyond the east edge, with arrows to its adjacent hexes."""
    box = radio_beacon_box(geo, holds.least(game))
    if box is None:
        return []
    feature = box.feature
    s = geo.size
    x, top, box_w, bottom = box.x, box.top, box.w, box.bottom
    items: list[Primitive] = [Rect(x, top, box_w, bottom - top,
                                   Style(fill="#eef3e6", stroke="#2f6b2f", width=0.6), r=1.5,
                                   cls=holds.cls("beacon-box"))]
    name = (feature.name or "Radio beacon box") + dagger(bool(feature.assumed))
    for i, text in enumerate((name, feature.name_ja or "")):
        size = fit_text(text, s * 0.3, bottom - top - 2)
        items.append(Text(x + box_w * (0.38 + 0.36 * i), (top + bottom) / 2, text, size=size,
                          anchor="middle", rotate=90, bold=i == 0))
    for (cx, cy), hex_id in zip(box.centres, feature.hexes, strict=True):
        items.append(arrow([(x - 0.3, cy), (cx + s * 0.5, cy)],
                           Style(stroke="#2f6b2f", width=0.45), head=s * 0.2,
                           id=f"radio-beacon-to-{hex_id}", cls="radio-beacon-exit"))
    return [Group(tuple(items), id="radio-beacon-box", cls="radio-beacon-box")]


def _exit_caption(hex_map: HexMap, geo: HexGeometry, x: float, y: float,
                  width: float | None = None) -> list[Primitive]:
    """The exit edge's rule under the grid: centred under it, or from its west end when it
    keeps to ``width`` mm (clear of a seam down the middle)."""
    feature = next((f for f in hex_map.features if f.kind == "exit"), None)
    if feature is None:
        return []
    gw = geo.extent()[0]
    text = f"↓ {feature.name} {feature.name_ja or ''} {rules(feature)}: {feature.note or ''} ↓"
    if width is None:
        return [Text(x + gw / 2, y + 5.0, text, size=fit_text(text, 3.6, gw), anchor="middle",
                     fill=EXIT_INK, bold=True, cls="exit-caption")]
    return [Text(x, y + 5.0, text, size=fit_text(text, 3.6, width), fill=EXIT_INK, bold=True,
                 cls="exit-caption")]


# --- the player's display: turn track and environment boxes ---------------------------------

BOX = 19.0  # a box holds a 5/8-in counter
BOX_GAP = 1.0


def display_blocks(game: Game, width: float) -> list[aids.Block]:
    """The Game Turn track and the environment boxes, printed as a display beside the player
    map (the map is printed alone, on the fewest tiles), kept together on one page."""
    least = holds.least(game)
    parts: list[tuple[Group, float]] = [turn_track(track, width, least)
                                        for track in game.tracks]
    parts += [environment_boxes(display, width, least) for display in game.displays
              if any(box.kind == "environment" for box in display.boxes)]
    title = "Player display プレイヤー表示 (beside the player map)"
    items: list[Primitive] = [Text(0, 4.2, title, size=fit_text(title, 4.2, width), bold=True)]
    y = 8.0
    for group, height in parts:
        items.append(replace(group, dy=y))
        y += height + 5.0
    return [aids.Block(tuple(items), y, id="player-display", cls="display whole")]


def _boxes_per_row(count: int, width: float, least: float) -> tuple[int, float]:
    """(boxes per row, box side) for ``count`` boxes in as few even rows as ``width`` holds,
    each box at most ``BOX`` and at least ``least`` mm."""
    fit = max(1, int((width + BOX_GAP) // (least + BOX_GAP)))
    rows = math.ceil(count / fit)
    per_row = math.ceil(count / rows)
    return per_row, min(BOX, (width + BOX_GAP) / per_row - BOX_GAP)


def turn_track(track, width: float, least: float = BOX) -> tuple[Group, float]:
    """The track in rows of boxes; asterisked values (the data's labels) marked."""
    title = f"{track.label}{dagger(bool(track.assumed))} {rules(track)}"
    items: list[Primitive] = [Text(0, 4.0, title, size=fit_text(title, 4.0, width), bold=True)]
    per_row, box = _boxes_per_row(len(track.values), width, least)
    for i, value in enumerate(track.values):
        r, c = divmod(i, per_row)
        x, y = c * (box + BOX_GAP), 6.0 + r * (box + BOX_GAP)
        star = track.labels.get(str(value), "")
        items.append(Rect(x, y, box, box, Style(fill="#fbf3dc" if star else "#ffffff",
                                                stroke=INK, width=0.35),
                          id=f"track-{track.id}-{value}", cls=holds.cls("track-box")))
        items.append(Text(x + 2.0, y + 7.0, f"{value}{star}", size=6.0, bold=True,
                          cls="track-value"))
    rows = math.ceil(len(track.values) / per_row)
    y = 6.0 + rows * (box + BOX_GAP) + 1.0
    note, h = wrapped(track.note or "", 0, y, 2.6, width)
    return Group((*items, *note), id=f"track-{track.id}", cls="turn-track"), y + h


def environment_boxes(display, width: float, least: float = BOX) -> tuple[Group, float]:
    """The groups (moon, visibility, clouds) side by side as far as ``width`` holds them,
    each its heading over a row of boxes sized for a counter."""
    title = f"{display.label} {rules(display)}"
    items: list[Primitive] = [Text(0, 4.0, title, size=fit_text(title, 4.0, width), bold=True)]
    groups: dict[str, list] = {}
    for box in display.boxes:
        groups.setdefault(box.group or box.id, []).append(box)
    gap = 5.0  # between groups
    count = sum(len(boxes) for boxes in groups.values())
    box_w = max(least, min(BOX + 8, (width - gap * (len(groups) - 1)) / count - 2))
    x, y = 0.0, 7.0
    for name, boxes in groups.items():
        group_w = len(boxes) * (box_w + 2) - 2
        if x > 0 and x + group_w > width:
            x, y = 0.0, y + 4.5 + BOX + 3.0
        rule = ", ".join(boxes[0].rule)
        row: list[Primitive] = [Text(x, y + 3.0, f"{name.capitalize()} [{rule}]", size=3.0,
                                     bold=True)]
        for i, box in enumerate(boxes):
            bx = x + i * (box_w + 2)
            row.append(Rect(bx, y + 4.5, box_w, BOX, Style(fill="#ffffff", stroke=INK,
                                                            width=0.35),
                            r=1.0, id=f"box-{display.id}-{box.id}",
                            cls=holds.cls("environment-box")))
            for j, text in enumerate((box.name or box.id, box.name_ja or "")):
                row.append(Text(bx + box_w / 2, y + 8.5 + j * 3.6, text, anchor="middle",
                                size=fit_text(text, 3.0, box_w - 2), fill=GREY))
        items.append(Group(tuple(row), id=f"display-{display.id}-{name}",
                           cls="environment-group"))
        x += group_w + gap
    y += 4.5 + BOX
    return Group(tuple(items), id=f"display-{display.id}", cls="environment"), y


def map_legend(game: Game, which: str = "player"):
    """What the marks on the map are, with their rules, under a title block naming the map
    (with its north arrow), as a layout for the tiler (the width it gets -> (items,
    height)); a designer proof adds that the layouts are assumed."""
    hex_map = game.hex_map()
    samples = [("entry", ENTRY_HEX, "Entry edge, row 01: column number, facing arrow"),
               ("exit", EXIT_HEX, "Exit edge, row 27"),
               ("searchlight-zone", Style(stroke=ZONE_INK, width=0.7, dash=(1.4, 0.9)),
                "Searchlight zone (4x6 hexes) with its letter"),
               ("flare-dropper-path", Style(stroke=FLARE_INK, width=0.8),
                "Flare-dropper entry hex Fnn and its path"),
               ("searchlight-beacon", Style(fill="#f2c200", stroke=ZONE_INK, width=0.3),
                "Searchlight beacon"),
               ("radio-beacon-box", Style(fill="#eef3e6", stroke="#2f6b2f", width=0.6),
                "Radio beacon box: fighters leave to the arrowed hexes")]
    present = {f.kind: f for f in reversed(hex_map.features)}
    entries = []
    for kind, style, text in samples:
        feature = present.get(kind)
        if feature is None:
            continue
        swatch = SWATCHES.get(kind, _box_swatch)(style, f"legend-{kind}")
        entries.append((swatch, f"{text} {feature.name_ja or ''} {rules(feature)}"))
    if proofing():
        entries.append(([Text(5, 4, dagger(True), size=3.0, anchor="middle")],
                        "position not in the rules: an assumed layout (Assumed values page)"))
    name = game.info.name if which == "player" else game.info.name.split(":")[0]
    title = f"{name}: {which} map 凡例"
    return lambda width: legend_block(title, entries, width, subtitle=hex_id_note(hex_map))


def _box_swatch(style: Style, cls: str) -> list[Primitive]:
    return [Rect(1, 0.75, 8, 4.5, style, cls=cls)]


def _entry_swatch(style: Style, cls: str) -> list[Primitive]:
    """An entry hex's tint with its column number and facing arrow, as the map prints them."""
    return [Rect(1, 0.75, 8, 4.5, style, cls=cls),
            Text(4.2, 4.3, "01", size=3.0, anchor="middle", bold=True, fill=ENTRY_INK),
            arrow([(7.4, 1.6), (7.4, 4.9)], Style(stroke=ENTRY_INK, width=0.4), head=1.2)]


def _flare_swatch(style: Style, cls: str) -> list[Primitive]:
    """The bold arrow out of the entry hex, then the faint dashed path, as on the map."""
    faint = Style(stroke=FLARE_INK, width=0.35, dash=(2.0, 1.2), opacity=0.55)
    return [arrow([(1, 5.25), (4.6, 3.2)], style, head=1.6, cls=cls),
            arrow([(4.6, 3.2), (9, 0.75)], faint, head=1.3)]


def _beacon_swatch(style: Style, cls: str) -> list[Primitive]:
    return [Polygon(star(5.0, 3.0, 2.9, 1.18), style, cls=cls)]


#: How the legend draws a kind of map feature that is no tinted box.
SWATCHES = {"entry": _entry_swatch, "flare-dropper-path": _flare_swatch,
            "searchlight-beacon": _beacon_swatch}


def star(cx: float, cy: float, outer: float, inner: float) -> tuple[tuple[float, float], ...]:
    """A five-pointed star's corners round (cx, cy), a point up."""
    return tuple((cx + (outer if i % 2 == 0 else inner) * math.sin(math.pi * i / 5),
                  cy - (outer if i % 2 == 0 else inner) * math.cos(math.pi * i / 5))
                 for i in range(10))


@CODE.kit_part("map", replaces=True)
def map_pages(game: Game, options: Options) -> list[KitPage]:
    """The player map (17x22 in, or less so that it prints on the fewest tiles) and the
    referee map (11x17 in), tiled to the paper; the player's display (turn track,
    environment boxes) prints with the set-up (``display_blocks``)."""
    pages: list[KitPage] = []
    for which in MAP_SHEETS:
        drawing, width, height = map_drawing(game, which, options.paper)
        pages.extend(tiled_pages(drawing, width, height, options, f"{which} map"))
    return pages


# --- counters ----------------------------------------------------------------------------

RED_CHIT = "#d23b34"
YELLOW_CHIT = "#f3d03e"
NOTE_BLUE = "#1f4e9a"
PLOT_COLOURS = {"red": "#e8a0a0", "blue": "#a8c0e8", "green": "#a8d8a0", "yellow": "#f0e090"}
#: ground colour of a marker by the first word of its id
MARKER_COLOURS = {"searchlight": "#fff2a8", "ai": "#d9e4f2", "sighting": "#ffffff",
                  "hit": "#ffffff", "generic": "#e4e4e4", "alert": "#ffd9a0",
                  "game": "#e6e0f0", "moon": "#e6e0f0", "visibility": "#e6e0f0",
                  "clouds": "#e6e0f0", "experte": "#dcecd5", "novice": "#dcecd5",
                  "dive": "#dcecd5", "task": "#cfe0ee", "victory": "#e6e0f0", "flare": "#ffe0c0"}
MARKER_FRAMES = {"hit": "#c02020", "sighting": "#303030"}
SWEEP_EDGE = "#9a9a9a"
RADAR_COLOURS = {"search": "#cfe3c4", "gci": "#f1e4b0", "homing": "#f3d2b5"}


def silhouette(cx: float, cy: float, length: float, engines: int, ink: str = INK,
               jet: bool = False) -> Group:
    """A top view of an aircraft pointing up (its nose is the counter's facing), from the
    package's vector set (components/symbols.py), centred on (cx, cy)."""
    name = "jet" if jet else {1: "fighter", 4: "heavy-bomber"}.get(engines, "twin-engine")
    return symbols.silhouette(name, cx - length / 2, cy - length / 2, length, length, ink)


def nose_arrow(s: float, ink: str = INK) -> Polygon:
    """The facing mark: a small triangle at the top edge of a counter."""
    return Polygon(((s / 2, s * 0.03), (s / 2 + s * 0.07, s * 0.13), (s / 2 - s * 0.07, s * 0.13)),
                   Style(fill=ink, stroke=None), cls="facing-arrow")


def _engines(unit) -> tuple[int, bool]:
    tags = set(unit.tags)
    if "four-engine" in tags:
        return 4, False
    if "jet" in tags:
        return 2, True
    return (1 if "single-engine" in tags else 2), False


def _has_equipment(unit, item: str) -> bool:
    return any(isinstance(e, dict) and e.get("item") == item
               for e in unit.stats.get("equipment") or ())


def aircraft_face(game: Game, unit, counter_id: str, s: float, back: bool = False
                  ) -> tuple[Primitive, ...]:
    """The silhouette layout (the style in games/nightfighter/game.yaml): type on top, the aircraft
    nose up (its facing), the 3-digit id with its sighting number large bottom right;
    H2S (24.3.1) or the Schräge Musik note (20.1, on the back) bottom left, clear of the
    name."""
    what = f"counter-{unit.id}-{counter_id}" + (" (back)" if back else "")
    face = face_of(game, unit, size=s, what=what, factors="", corners={}, art_width=0.7,
                   cls="counter-face aircraft", bottom_row=_has_equipment(unit, "schrage-musik"))
    room = s - 2 * pad_of(s)
    if text_width(face.name, MIN_MM) > room and text_width(face.subtitle, MIN_MM) > room:
        face = replace(face, subtitle="")  # two lines of name leave no room for two more
    items: list[Primitive] = list(draw(replace(face, assumed=False)))  # marked when all is on
    head, last = counter_id[:-1], counter_id[-1:]
    pad = pad_of(s)
    big = fit(last, s * 0.4, s * 0.3, what)
    small = fit(head, s * 0.15, s * 0.4, what)
    right = s - pad
    items.append(Text(right, s - pad, last, size=big, anchor="end", bold=True, fill=face.ink,
                      cls="sighting-number"))
    items.append(Text(right - text_width(last, big), s - pad, head, size=small, anchor="end",
                      fill=face.ink, cls="aircraft-id"))
    if _h2s_printed(unit, last):
        items.append(Text(pad, s - pad, "H2S", size=fit("H2S", s * 0.12, s * 0.4, what),
                          bold=True, fill=face.ink, cls="h2s"))
    if back and _has_equipment(unit, "schrage-musik"):
        items.append(Text(pad, s - pad, "♪", size=fit("♪", s * 0.2, s * 0.3, what),
                          fill=NOTE_BLUE, bold=True, cls="schrage-musik-note"))
    mark = proof_mark(items, s, dagger(face.assumed))
    return tuple(items) if mark is None else (*items, mark)


def _h2s_printed(unit, sighting: str) -> bool:
    """24.3.1: a bomber with sighting number 6 that can carry H2S has it printed."""
    return unit.type == "bomber" and sighting == "6" and _has_equipment(unit, "h2s")


def aircraft_pieces(game: Game, unit) -> list:
    """One counter per copy, with the copy's 3-digit id; fighters have their back too."""
    s = counter_size(game, unit)
    count = unit.count or 1
    ids = [str(i) for i in unit.stats.get("counter_ids") or ()]
    ids += [f"{i + 1:03d}" for i in range(len(ids), count)]
    pieces = []
    for counter_id in ids[:count]:
        back = aircraft_face(game, unit, counter_id, s, back=True) if unit.back else None
        pieces.append(Piece(f"counter-{unit.id}-{counter_id}", s, s,
                            aircraft_face(game, unit, counter_id, s), back,
                            cls=f"counter aircraft {unit.type} {unit.id}"))
    return pieces


def label_face(s: float, colour: str, lines, cls: str, width: float = 0.88,
               room: tuple[float, float] = (0.0, 1.0)) -> tuple[Primitive, ...]:
    """A counter with centred lines ``(text, size as a share of s, bold)``, stacked between
    the shares ``room`` of its height (the cut's clearance kept), each fitted to ``width``
    (a share of s); all shrink together until they fit, never under the kit's minimum."""
    items: list[Primitive] = [Rect(0, 0, s, s, Style(fill=colour, stroke=None), cls=cls)]
    top, bottom = max(room[0] * s, pad_of(s)), min(room[1] * s, s - pad_of(s))
    width = min(width, 1 - 2 * pad_of(s) / s)
    scale = 1.0
    while True:
        fitted = [fit_lines(text, s * share * scale, s * width, 2, cls) if text
                  else ([""], s * share * scale) for text, share, _bold in lines]
        total = sum(size * 1.15 * len(broken) for broken, size in fitted)
        if total <= bottom - top or scale < 0.3:
            break
        scale *= 0.95
    y = top + (bottom - top - total) / 2
    for (_text, _share, bold), (broken, size) in zip(lines, fitted, strict=True):
        for text in broken:
            y += size * 1.15
            items.append(Text(s / 2, y - size * 0.18, text, size=size, anchor="middle",
                              bold=bold))
    return tuple(items)


def _short(text) -> str:
    """Printed text of a data description: up to the first ' (' or ':'."""
    return str(text).split(" (")[0].split(":")[0].strip()


def marker_colour(marker) -> str:
    if (marker.color or "").startswith("#"):
        return marker.color
    return MARKER_COLOURS.get(marker.id.split("-")[0], "#ececec")


def radar_of(game: Game, marker_id: str):
    """(radar record, "search" or "sweep") for a radar counter, else (None, "")."""
    for radar in game.section("radars") if "radars" in game.extra else ():
        markers = list(radar.get("markers") or ())
        if marker_id in markers:
            return radar, ("search" if markers.index(marker_id) == 0 else "sweep")
    return None, ""


def copy_ids(game: Game, marker) -> list[str] | None:
    """Ids printed per copy: the radar's counter ids, else a range written in the text."""
    radar, _role = radar_of(game, marker.id)
    if radar is not None and radar.get("counter_ids"):
        mark = dagger(radar.field_assumed("counter_ids"))
        return [f"{i}{mark}" for i in radar.get("counter_ids")]
    found = re.search(r"(\d+)-(\d+)", marker.text or "")
    if found and int(found[2]) - int(found[1]) + 1 == (marker.count or 1):
        mark = dagger(marker.field_assumed("text"))
        return [f"{i}{mark}" for i in range(int(found[1]), int(found[2]) + 1)]
    return None


def radar_face(radar, role: str, copy: str | None, s: float, contact: bool = False
               ) -> tuple[Primitive, ...]:
    """A search counter (name, search value, search/contact side) or a sweep counter."""
    colour = RADAR_COLOURS.get(str(radar.get("kind")), "#dddddd")
    name = _short(radar.name or radar.id) + (f" {copy}" if copy else "")
    name_ja = counter_name(radar.name_ja or "")
    if role == "sweep":  # the radar's colour as bands top and bottom, the words between
        lines = [(name, 0.2, True), (name_ja, 0.14, False), ("sweep", 0.14, False),
                 ("スイープ", 0.12, False)]
        band = Style(fill=colour, stroke=None)
        edge = Style(fill=None, stroke=SWEEP_EDGE, width=0.2)  # a white counter's cut shows
        return label_face(s, "#ffffff", lines, "counter-face sweep", width=0.9,
                          room=(0.09, 0.91)) + (
            Rect(0, 0, s, s * 0.09, band, cls="sweep-band"),
            Rect(0, s * 0.91, s, s * 0.09, band, cls="sweep-band"),
            Rect(0.1, 0.1, s - 0.2, s - 0.2, edge, cls="counter-edge"))
    value = f"{radar.get('search_value')}{dagger(radar.field_assumed('search_value'))}"
    side = "contact 探知" if contact else "search 捜索"
    lines = [(name, 0.15, True), (name_ja, 0.11, False), (value, 0.3, True),
             (side, 0.12, False)]
    return label_face(s, colour if not contact else "#f7f7f7", lines,
                      f"counter-face radar {'contact' if contact else 'search'}")


def radar_pieces(game: Game, marker, s: float) -> list:
    radar, role = radar_of(game, marker.id)
    ids = copy_ids(game, marker) or [None] * (marker.count or 1)
    pieces = []
    for i, copy in enumerate(ids, 1):
        front = radar_face(radar, role, copy, s)
        back = radar_face(radar, role, copy, s, contact=True) if role == "search" else None
        pieces.append(Piece(f"counter-{marker.id}-{i}", s, s, front, back,
                            cls=f"counter marker radar {role} {marker.id}"))
    return pieces


def plot_pieces(game: Game, marker, s: float) -> list:
    """Plot counters, one per colour of the data: an arrow on the search side."""
    colours = [c.strip() for c in (marker.color or "").split(",") if c.strip()]
    pieces = []
    for i in range(marker.count or 1):
        name = colours[i % len(colours)] if colours else ""
        ground = PLOT_COLOURS.get(name, "#dddddd")
        front = (*label_face(s, ground, [("Plot 記録", 0.15, True), ("", 0.3, False),
                                         ("search 捜索", 0.12, False)], "counter-face plot"),
                 arrow([(s / 2, s * 0.67), (s / 2, s * 0.37)], Style(stroke=INK, width=s * 0.05),
                       head=s * 0.14))
        back = label_face(s, ground, [("Plot 記録", 0.15, True), ("contact", 0.15, False),
                                      ("探知", 0.15, False)], "counter-back plot")
        pieces.append(Piece(f"counter-{marker.id}-{i + 1}", s, s, front, back,
                            cls=f"counter marker plot {name}"))
    return pieces


def searchlight_pieces(game: Game, marker, s: float) -> list:
    """Search side with a beam; captured side with a bomber silhouette and nose arrow."""
    colour = marker_colour(marker)
    beam = Polygon(((s * 0.5, s * 0.72), (s * 0.36, s * 0.44), (s * 0.64, s * 0.44)),
                   Style(fill="#ffe34d", stroke="#9a6a00", width=0.2))
    front = (*label_face(s, colour, [("Searchlight", 0.13, True), ("サーチライト", 0.11, False),
                                     ("", 0.3, False), ("search 捜索", 0.12, False)],
                         "counter-face searchlight"), beam)
    back = (Rect(0, 0, s, s, Style(fill="#fff8cc", stroke=None), cls="counter-back captured"),
            nose_arrow(s), Text(s / 2, s * 0.28, "captured 捕捉", anchor="middle", bold=True,
                                size=fit("captured 捕捉", s * 0.13, s * 0.88, marker.id)),
            silhouette(s / 2, s * 0.64, s * 0.5, 4))
    return [Piece(f"counter-{marker.id}-{i + 1}", s, s, front, back,
                  cls=f"counter marker {marker.id}") for i in range(marker.count or 1)]


def ai_contact_pieces(game: Game, marker, s: float) -> list:
    """AI contact: four-engine silhouette on the front, twin-engine on the back."""
    colour = marker_colour(marker)
    faces = []
    for engines in (4, 2):
        faces.append((Rect(0, 0, s, s, Style(fill=colour, stroke=None), cls="counter-face"),
                      Text(s / 2, s * 0.2, "AI contact", size=fit("AI contact", s * 0.13,
                                                                  s * 0.9, marker.id),
                           anchor="middle", bold=True),
                      Text(s / 2, s * 0.93, "AI 探知", size=s * 0.11, anchor="middle"),
                      silhouette(s / 2, s * 0.55, s * 0.52, engines)))
    return [Piece(f"counter-{marker.id}-{i + 1}", s, s, faces[0], faces[1],
                  cls=f"counter marker {marker.id}") for i in range(marker.count or 1)]


def chit_face(numbers, colour: str, ink: str, s: float, mark: str, cls: str
              ) -> tuple[Primitive, ...]:
    """An entry-chit face: three column numbers printed top to bottom."""
    items: list[Primitive] = [Rect(0, 0, s, s, Style(fill=colour, stroke=None), cls=cls)]
    step = s * 0.29
    for i, number in enumerate(numbers):
        items.append(Text(s / 2, s * 0.33 + i * step, str(number), size=s * 0.27,
                          anchor="middle", bold=True, fill=ink, cls="chit-number"))
    if mark:
        items.append(Text(s * 0.94, MIN_MM * 1.3, mark, size=MIN_MM * 1.2, anchor="end", fill=ink,
                          cls="proof-mark"))
    return tuple(items)


def entry_chit_pieces(game: Game, marker, s: float) -> list:
    """The entry chits of the ``entry-chits`` section: red front, yellow back."""
    pieces = []
    for chit in game.section("entry-chits"):
        mark = dagger(chit.is_assumed or bool(chit.assumed))
        front = chit_face(chit.get("red") or (), RED_CHIT, "#ffffff", s, mark,
                          "counter-face chit red")
        back = chit_face(chit.get("yellow") or (), YELLOW_CHIT, INK, s, mark,
                         "counter-back chit yellow")
        pieces.append(Piece(f"counter-entry-chit-{chit.id}", s, s, front, back,
                            cls="counter marker entry-chit"))
    return pieces


def generic_marker_pieces(game: Game, marker, s: float) -> list:
    """A marker with its printed text (per-copy ids where the data numbers the copies) and
    the Japanese name; the back as the data describes it (none, the same, or a text)."""
    colour = marker_colour(marker)
    main = _short(marker.text) if marker.text else counter_name(_short(marker.name or marker.id),
                                                                marker=True)
    ids = copy_ids(game, marker)
    if ids:
        main = main.split(" ")[0]
    mark = dagger(marker.field_assumed("text"))
    pieces = []
    for i in range(marker.count or 1):
        text = f"{main} {ids[i]}" if ids else main + mark
        frame = MARKER_FRAMES.get(marker.id.split("-")[0])
        front = label_face(s, colour, [(text, 0.24, True), (_ja(marker), 0.13, False)],
                           f"counter-face marker {marker.id}", width=0.76 if frame else 0.88)
        if frame:
            front += (Rect(s * 0.05, s * 0.05, s * 0.9, s * 0.9,
                           Style(fill=None, stroke=frame, width=s * 0.05)),)
        pieces.append(Piece(f"counter-{marker.id}-{i + 1}", s, s, front,
                            _marker_back(marker, front, colour, s),
                            cls=f"counter marker {marker.id}"))
    return pieces


def _marker_back(marker, front, colour: str, s: float):
    if not marker.back or _short(marker.back).lower().startswith("none"):
        return None
    if _short(marker.back).lower().startswith("same"):
        return front
    text = _short(marker.back) + dagger(marker.field_assumed("back"))
    return label_face(s, colour, [(text, 0.24, True), (_ja(marker), 0.13, False)],
                      f"counter-back marker {marker.id}")


def _ja(marker) -> str:
    """A marker's Japanese name as its counter prints it (without マーカー)."""
    return counter_name(marker.name_ja or "", marker=True)


SPECIAL_MARKERS = {"plot": plot_pieces, "searchlight": searchlight_pieces,
                   "ai-contact": ai_contact_pieces, "entry-chit": entry_chit_pieces}


def nightfighter_marker_pieces(game: Game, marker) -> list:
    """The pieces of one marker record, drawn the way its kind needs."""
    s = counter_size(game, marker)
    if radar_of(game, marker.id)[0] is not None:
        return radar_pieces(game, marker, s)
    builder = SPECIAL_MARKERS.get(marker.id, generic_marker_pieces)
    return builder(game, marker, s)


def counter_sheet_pieces(game: Game) -> list[tuple[str, list]]:
    """(sheet name, pieces) per counter sheet of the data, then anything on no sheet."""
    sheets = game.section("counter-sheets") if "counter-sheets" in game.extra else ()
    placed: set[str] = set()
    out: list[tuple[str, list]] = []
    for sheet in sheets:
        pieces: list = []
        for unit_id in sheet.get("units") or ():
            pieces.extend(aircraft_pieces(game, game.get("units", unit_id)))
            placed.add(f"units/{unit_id}")
        for marker_id in sheet.get("markers") or ():
            pieces.extend(nightfighter_marker_pieces(game, game.get("markers", marker_id)))
            placed.add(f"markers/{marker_id}")
        out.append((sheet.name or sheet.id, pieces))
    rest = [p for u in game.units if f"units/{u.id}" not in placed
            for p in aircraft_pieces(game, u)]
    rest += [p for m in game.markers if f"markers/{m.id}" not in placed
             for p in nightfighter_marker_pieces(game, m)]
    if rest:
        out.append(("other counters", rest))
    return out


@CODE.kit_part("counters", replaces=True)
def counter_pages(game: Game, options: Options) -> list[KitPage]:
    """The 5/8-in and the 1/2-in counter sheets, fronts then mirrored backs."""
    pages: list[KitPage] = []
    for name, pieces in counter_sheet_pieces(game):
        by_size: dict[float, list] = {}
        for piece in pieces:
            by_size.setdefault(round(piece.w, 3), []).append(piece)
        for size, group in by_size.items():
            sheets = impose(group, options.paper, duplex=options.duplex,
                            back_offset=options.back_offset, what="counter")
            part = f"counters {name}" + ("" if len(by_size) == 1 else f" {size:g} mm")
            pages.extend(imposed_pages(sheets, part))
    return pages


# --- referee screen: every table in landscape panels ----------------------------------------

HEAD_BAR = "#2b3a55"
CELL_PAD = 1.2
PANEL_GAP = 4.0


class Panel:
    """A laid-out panel: items at (0, 0), its height, an id and classes."""

    def __init__(self, items, height: float, id: str, cls: str = "aid-panel"):
        self.items, self.height, self.id, self.cls = tuple(items), height, id, cls


def title_bar(text: str, width: float, size: float = 2.9) -> tuple[list[Primitive], float]:
    """A dark bar with the panel title in white; the items and its height."""
    lines = wrap(text, size, width - 2.4)
    h = len(lines) * size * 1.25 + 1.4
    items: list[Primitive] = [Rect(0, 0, width, h, Style(fill=HEAD_BAR, stroke=None))]
    items += [Text(1.2, 0.5 + (i + 1) * size * 1.2 - size * 0.2, line, size=size, bold=True,
                   fill="#ffffff") for i, line in enumerate(lines)]
    return items, h


def _column_widths(headers, rows, size: float, width: float) -> list[float] | None:
    """Widths that fit ``width``: natural widths, else shares above the longest words."""
    cols = list(zip(headers, *rows, strict=True))
    natural = [max(text_width(str(t), size) for t in col) + 2 * CELL_PAD for col in cols]
    if sum(natural) <= width:
        spare = (width - sum(natural)) / len(natural)
        return [n + spare for n in natural]
    minimal = [max(text_width(word, size) for t in col for word in (str(t).split() or [""]))
               + 2 * CELL_PAD for col in cols]
    if sum(minimal) > width:
        return None
    stretch = [n - m for n, m in zip(natural, minimal, strict=True)]
    room = width - sum(minimal)
    return [m + room * s / (sum(stretch) or 1) for m, s in zip(minimal, stretch, strict=True)]


def grid(headers, rows, width: float, size: float = 2.4, id_prefix: str = "row"
         ) -> tuple[list[Primitive], float]:
    """A table grid with wrapped cells that fits ``width``; the items and its height."""
    widths = None
    while widths is None:
        widths = _column_widths(headers, rows, size, width)
        if widths is None:
            size *= 0.92
    items: list[Primitive] = []
    y = 0.0
    for r, row in enumerate([headers, *rows]):
        cells = [wrap(str(t), size, w - 2 * CELL_PAD) for t, w in zip(row, widths, strict=True)]
        h = max(len(c) for c in cells) * size * 1.22 + 1.0
        x = 0.0
        style = Style(fill="#e4e8ef" if r == 0 else None, stroke="#8a94a6", width=0.15)
        cell_items: list[Primitive] = []
        for lines, w in zip(cells, widths, strict=True):
            cell_items.append(Rect(x, y, w, h, style))
            cell_items += [Text(x + CELL_PAD, y + 0.5 + (i + 1) * size * 1.22 - size * 0.22,
                                line, size=size, bold=r == 0) for i, line in enumerate(lines)]
            x += w
        items.append(Group(tuple(cell_items), id=None if r == 0 else f"{id_prefix}-{r}",
                           cls="aid-head" if r == 0 else "aid-row"))
        y += h
    return items, y


def _cell(value) -> str:
    return show_value(value, none="-")


def table_rows(table, game: Game | None = None) -> tuple[list[str], list[list[str]]]:
    """Headers and cells of a data table by the data's names (``aids.key_name``,
    ``aids.value_text``): keys, results, and the row names where they say more."""
    names = aids.record_names(game)
    headers = [aids.key_name(table, k) for k in table.keys]
    headers += [aids.result_name(table, r) for r in table.results]
    rows, row_names = [], []
    for row in table.rows:
        cond, result = table.conditions(row), table.result(row)
        mark = dagger(row.is_assumed or bool(row.assumed))
        cells = [aids.value_text(table, cond.get(k.id), names, k) for k in table.keys]
        cells += [("–" if result.get(k) is None else aids.value_text(table, result.get(k), names))
                  + mark for k in table.results]
        rows.append(cells)
        row_names.append(" ".join(t for t in (row.name, row.name_ja) if t))
    if any(n and n not in cells for n, cells in zip(row_names, rows, strict=True)):
        headers.append("Name 名称")
        rows = [[*cells, n] for cells, n in zip(rows, row_names, strict=True)]
    for column in range(len(table.keys)):
        rows = aids.merged_runs(rows, column)
    return headers, rows


def table_cells(table, game: Game | None = None) -> tuple[list[str], list[list[str]], str]:
    """Headers, cells and a caption: a table with two keys as a grid (the roll down, the
    other key across, ``aids.crt_grid``, as on every play aid), any other as a list."""
    names = aids.record_names(game)
    crt = aids.crt_grid(table, names)
    if crt is None:
        return (*table_rows(table, game), "")
    corner = f"{aids.key_name(table, crt.row_key)} ↓ {aids.key_name(table, crt.col_key)} →"
    if len(table.results) == 1:
        rows = [[label, *cells] for label, cells in zip(crt.row_labels, crt.cells, strict=True)]
        return [corner, *crt.col_labels], rows, ""
    # several results: a column for each under every column value, no cell packs them
    heads = [f"{col}: {aids.result_name(table, r)}" for col in crt.col_labels
             for r in table.results]
    rows = [[label, *(part for cell in cells for part in cell)]
            for label, cells in zip(crt.row_labels, crt.parts, strict=True)]
    return [corner, *heads], rows, ""


def steady_results(table, game: Game | None = None) -> tuple[list[str], object]:
    """A table's results that are the same in every row, said once ("Roll on: Combat
    table"), and the table without them; the table itself when none is, or all are."""
    if len(table.rows) < 2 or len(table.results) < 2:
        return [], table
    steady = [r for r in table.results
              if len({repr(table.result(row).get(r)) for row in table.rows}) == 1]
    if not steady or len(steady) == len(table.results):
        return [], table
    names = aids.record_names(game)
    lines = [f"{aids.result_name(table, r)}: "
             f"{aids.result_text(table, table.result(table.rows[0]).get(r), names, r)}"
             for r in steady]
    rows = tuple(replace(row, extra=type(row.extra)({k: v for k, v in row.extra.items()
                                                     if k not in steady}))
                 for row in table.rows)
    return lines, replace(table, results=tuple(r for r in table.results if r not in steady),
                          rows=rows)


def row_sentences(table, game: Game | None = None) -> list[str] | None:
    """A table no die decides whose grid would repeat itself (more cells than the data has
    rows: a column that changes nothing, a cell that says "–") as the data's rows, one
    sentence each: "Flare, Moon: New → Dice: 1"; None for any other table."""
    names = aids.record_names(game)
    if any(k.kind == "roll" for k in table.keys) or len(table.rows) > SENTENCE_ROWS:
        return None
    crt = aids.crt_grid(table, names)
    if crt is None or len(crt.row_labels) * len(crt.col_labels) <= len(table.rows):
        return None
    return [_sentence(table, row, names) for row in table.rows]


#: The most rows a table prints as sentences rather than a grid.
SENTENCE_ROWS = 5


def _sentence(table, row, names: dict[str, str]) -> str:
    conditions = table.conditions(row)
    said = []
    for i, key in enumerate(table.keys):
        if key.id not in conditions:
            continue
        value = aids.value_text(table, conditions[key.id], names, key)
        name = aids.key_name(table, key)
        if value in ("yes", "Yes"):
            said.append(name)
        elif i == 0 and key.kind == "enum" and all(key.value_label(v) for v in key.values):
            said.append(value)  # named values say what they are
        else:
            said.append(f"{name}: {value}")
    result = table.result(row)
    shown = [(r, aids.result_text(table, result.get(r), names, r)) for r in table.results]
    shown = [(r, text) for r, text in shown if text != "–"]
    if len(table.results) == 1:
        outcome = ", ".join(text for _r, text in shown)
    else:
        outcome = ", ".join(f"{aids.result_name(table, r)}: {text}" for r, text in shown)
    return f"{', '.join(said) or 'Always'} → {outcome or '–'}{dagger(row.is_assumed)}"


def table_panel(table, width: float, game: Game | None = None) -> Panel:
    """One table of the data: title with rules and dice, the grid (or its rule, or its rows
    as sentences where a grid would repeat itself), modifiers and the note."""
    dice = f" · {table.dice}" if table.dice and table.dice != "none" else ""
    title = f"{table.label}{dagger(table.is_assumed)} {rule_ref(table.rule)}".rstrip() + dice
    items, y = title_bar(title, width)
    formula = aids.table_formula(table, game)
    sentences = None if formula else row_sentences(table, game)
    said, shown = ([], table) if formula or sentences else steady_results(table, game)
    if formula or sentences:  # a rule, or rows no grid needs: printed as lines
        caption = ""
        for line in formula or [f"• {s}" for s in sentences or ()]:
            lines, lh = wrapped(aids.dashes(line), 0, y + 0.8, 2.6, width,
                                cls="aid-formula" if formula else "aid-sentence")
            items.extend(lines)
            y += lh
        y += 2.4
    else:
        for line in said:  # what every row says, once, over the grid
            lines, lh = wrapped(line, 0, y + 0.8, 2.6, width, cls="aid-steady")
            items.extend(lines)
            y += lh
        table = shown
        headers, rows, caption = table_cells(table, game)
        cells, h = grid(headers, rows, width, id_prefix=f"table-{table.id}-row")
        items.append(Group(tuple(cells), dy=y + 0.8, cls="aid-grid"))
        y += h + 1.6
    if caption:
        lines, lh = wrapped(caption, 0, y, 1.9, width, fill=GREY, cls="aid-note")
        items.extend(lines)
        y += lh
    for modifier in table.modifiers:
        sign = modifier.text or modifier.id
        mark = dagger(modifier.is_assumed or bool(modifier.assumed))
        lines, lh = wrapped(f"• {sign}{mark}",
                            0, y, 2.1, width, cls="aid-modifier")
        items.extend(lines)
        y += lh
    if table.note:
        lines, lh = wrapped(table.note, 0, y, 1.9, width, fill=GREY, cls="aid-note")
        items.extend(lines)
        y += lh
    return Panel(items, y + 0.5, f"aid-table-{table.id}", "aid-panel aid-table")


def sequence_panel(game: Game, width: float) -> Panel:
    """The phases of a turn in order, who acts, and their rules."""
    items, y = title_bar("Sequence of play プレイの手順 [4.0]", width)
    headers = ["#", "Phase フェイズ", "Who", "Rules"]
    rows = [[str(p.order or ""), p.label, (p.who or "").capitalize(), ", ".join(p.rule[:3])]
            for p in game.sequence]
    cells, h = grid(headers, rows, width, id_prefix="phase")
    items.append(Group(tuple(cells), dy=y + 0.8, cls="aid-grid"))
    return Panel(items, y + h + 2.0, "aid-sequence", "aid-panel aid-sequence")


def radar_panel(game: Game, width: float) -> Panel:
    """The search, GCI and homing radars: search value, sweeps, jamming."""
    items, y = title_bar("Search radars 捜索レーダー [13.1, 24, 25]", width)
    headers = ["Radar", "Kind", "Search value", "Sweeps", "Jammable", "Rules"]
    rows = []
    for radar in game.section("radars"):
        rows.append([radar.label, aids.readable(str(radar.get("kind"))),
                     f"{radar.get('search_value')}"
                     f"{dagger(radar.field_assumed('search_value'))}",
                     str(radar.get("sweeps")), _cell(radar.get("jammable", True)),
                     ", ".join(radar.rule)])
    cells, h = grid(headers, rows, width, size=2.2, id_prefix="radar")
    items.append(Group(tuple(cells), dy=y + 0.8, cls="aid-grid"))
    return Panel(items, y + h + 2.0, "aid-radars", "aid-panel aid-radars")


def arc_diagram(game: Game, arc, width: float) -> tuple[Group, float]:
    """Hexes within range 2 of a fighter facing up, those in ``arc`` filled; the hexes in
    the arc come from the engine's ``HexGrid.arc_hexes``."""
    hex_map = game.hex_map()
    hexes = HexGrid.numbered(5, 5, orientation=hex_map.orientation, offset=hex_map.offset)
    origin = hexes.id_of(2, 2)
    in_arc = set(hexes.arc_hexes(origin, 0, str(arc.id).lower(), 2))
    s = width / 8.2
    root3 = math.sqrt(3)
    items: list[Primitive] = []
    for hex_id in hexes.within(origin, 2):
        ci, ri = hexes.coords(hex_id)
        shifted = ci % 2 == (1 if hexes.offset.startswith("odd") else 0)
        cx = width / 2 + (ci - 2) * 1.5 * s
        cy = root3 * s * (ri + (0.5 if shifted else 0) + 0.5)
        corners = tuple((cx + s * math.cos(math.radians(60 * i)),
                         cy + s * math.sin(math.radians(60 * i))) for i in range(6))
        style = Style(fill="#f6d365" if hex_id in in_arc else "#ffffff", stroke="#7f93ad",
                      width=0.2)
        items.append(Polygon(corners, style, cls="arc-hex in-arc" if hex_id in in_arc
                             else "arc-hex"))
        if hex_id == origin:
            items.append(silhouette(cx, cy, s * 0.9, 2))
    height = root3 * s * 5.5
    label = f"{arc.name}: {len(in_arc)} hexes"
    items.append(Text(width / 2, height + 3.0, label, size=fit_text(label, 2.6, width),
                      anchor="middle", bold=True))
    data = arc.get("hexes_at_range_2")
    note = f"{arc.get('definition') or ''} (data: {data}{dagger(bool(arc.assumed))})"
    lines, h = wrapped(note, 0, height + 4.0, 1.9, width, fill=GREY)
    return Group((*items, *lines), id=f"arc-{arc.id}", cls="arc-diagram"), height + 4.0 + h


def arcs_panel(game: Game, width: float) -> Panel:
    """Narrow, Wide and Hemi at range 2 side by side, then the arc rules of the play aid."""
    items, y = title_bar("AI radar arcs AI レーダーアーク [19.1.1] (range 2, facing up)", width)
    arcs = game.section("radar-arcs")
    gap = 3.0
    each = (width - gap * (len(arcs) - 1)) / max(1, len(arcs))
    tallest = 0.0
    for i, arc in enumerate(arcs):
        diagram, h = arc_diagram(game, arc, each)
        items.append(replace(diagram, dx=i * (each + gap), dy=y + 2.0))
        tallest = max(tallest, h)
    y += tallest + 3.0
    for sheet in game.sheets:
        for section in sheet.sections:
            if "radar arc" in (section.title or "").lower():
                for line in section.lines:
                    lines, h = wrapped(f"• {line}", 0, y, 2.1, width)
                    items.extend(lines)
                    y += h
    return Panel(items, y + 0.5, "aid-radar-arcs", "aid-panel aid-arcs")


def off_map_panel(display, width: float) -> Panel:
    """The umpire's off-map areas (pool, chit cup ...) beside the referee map."""
    block = aids.display_block(display, width)
    return Panel(block.items, block.height, f"aid-display-{display.id}", "aid-panel display")


def masonry(panels: list[Panel], paper_, part: str, cols: int | None = None) -> list[KitPage]:
    """Panels in columns on landscape pages, in their order: on as few pages as hold them
    (each panel in the shortest column of its page), the pages' share of the panels chosen
    so that the fullest page is as little full as can be: no last page left near empty."""
    page = paper_.landscape
    x0, y0, w, h = page.content()
    cols = cols or (3 if w > 250 else 2)
    col_w = (w - PANEL_GAP * (cols - 1)) / cols
    pages = [[Group(panel.items, dx=x0 + c * (col_w + PANEL_GAP), dy=y0 + top, id=panel.id,
                    cls=panel.cls) for panel, c, top in placed]
             for chunk in _shares(panels, cols, h) for placed in _stacked(chunk, cols, h)]
    return [KitPage(part, Page(page.width, page.height, tuple(items), id=f"{part}-{i}"))
            for i, items in enumerate(pages, 1)]


def _shares(panels: list[Panel], cols: int, h: float) -> list[list[Panel]]:
    """``panels`` cut in order into the pages ``_stacked`` needs for them, each share on
    one page, the tallest column of the fullest page as short as can be; all of them as
    one share when no such cut exists."""
    count = len(_stacked(panels, cols, h))
    n = len(panels)
    if count < 2 or n > SHARE_PANELS:
        return [panels]

    def fill(i: int, j: int) -> float:  # the tallest column of panels i..j-1 on one page
        placed = _stacked(panels[i:j], cols, h)
        if len(placed) != 1:
            return math.inf
        return max(top + panel.height for panel, _c, top in placed[0])

    fills = {(i, j): fill(i, j) for i in range(n) for j in range(i + 1, n + 1)}
    best: dict[tuple[int, int], tuple[float, int]] = {(0, 0): (0.0, -1)}
    for k in range(1, count + 1):
        for j in range(1, n + 1):
            options = [(max(best[k - 1, i][0], fills[i, j]), i) for i in range(j)
                       if (k - 1, i) in best]
            if options:
                best[k, j] = min(options)
    if best.get((count, n), (math.inf, 0))[0] == math.inf:
        return [panels]
    cuts, j = [], n
    for k in range(count, 0, -1):
        i = best[k, j][1]
        cuts.append(panels[i:j])
        j = i
    return cuts[::-1]


#: The most panels ``_shares`` balances over pages (it tries every cut of them).
SHARE_PANELS = 80


def _stacked(panels: list[Panel], cols: int, h: float) -> list[list[tuple[Panel, int, float]]]:
    """Each page's panels with their column and top: each panel in the shortest column of
    the first page where it ends by ``h`` (a new page when none does)."""
    pages: list[list[tuple[Panel, int, float]]] = []
    heights: list[list[float]] = []
    for panel in panels:
        spot = next(((p, c) for p, tops in enumerate(heights)
                     for c in sorted(range(cols), key=lambda i, t=tops: t[i])
                     if not tops[c] or tops[c] + panel.height <= h), None)
        if spot is None:
            pages.append([])
            heights.append([0.0] * cols)
            spot = (len(pages) - 1, 0)
        p, c = spot
        pages[p].append((panel, c, heights[p][c]))
        heights[p][c] += panel.height + PANEL_GAP
    return pages


def column_width(paper_) -> float:
    _x, _y, w, _h = paper_.landscape.content()
    cols = 3 if w > 250 else 2
    return (w - PANEL_GAP * (cols - 1)) / cols


# --- aircraft data chart -----------------------------------------------------------------

CHART_COLUMNS = [("type", "Type タイプ"), ("mp", "MP"), ("fp", "FP 火力"),
                 ("defensive_fp", "def. FP 防御"), ("oblique_fp", "oblique 斜銃"),
                 ("ai_radar", "AI radar AI レーダー"), ("damage", "Damage ダメージ"),
                 ("good_visibility", "Vis. 視界"), ("equipment", "Equipment 装備"),
                 ("dates", "Dates 時期"), ("counter_ids", "Counter ids")]


def _radar_text(radar) -> str:
    if not isinstance(radar, dict):
        return "-"
    modifier = radar.get("modifier", 0)
    anti = " ¶" if radar.get("anti_jam") else ""
    return (f"{radar.get('name', '')}: {radar.get('range')} {radar.get('arc')} "
            f"({aids.number_text(str(modifier), sign=True)}) {radar.get('band')}{anti}"
            if isinstance(modifier, int) else
            f"{radar.get('name', '')}: {radar.get('range')} {radar.get('arc')}")


def equipment_names(game: Game) -> dict[str, str]:
    """Printed names of equipment items and classes (``schrage-musik`` -> Schräge Musik,
    ``Upg`` -> upgrade), from the ``equipment`` and ``equipment-classes`` sections."""
    names: dict[str, str] = {}
    for section in ("equipment", "equipment-classes"):
        if section in game.extra:
            for record in game.section(section):
                names[record.id] = (record.name or record.id)
    return names


def _equipment_text(items, names: dict[str, str]) -> str:
    parts = []
    for item in items or ():
        if isinstance(item, dict):
            name = names.get(str(item.get("item")), str(item.get("item")))
            kind = names.get(str(item.get("class", "")), str(item.get("class", ""))).lower()
            when = f", {item['from']}" if item.get("from") else ""
            parts.append(f"{name} ({kind}{when})" if kind else name)
    return "; ".join(parts) or "-"


def _stat_text(unit, key: str, names: dict[str, str]) -> str:
    stats = unit.stats
    if key == "type":
        return f"{unit.label} ({aids.readable(unit.type or '', capital=False)})"
    value = stats.get(key)
    if key == "mp" and stats.get("mp_with_berlin_or_bremen"):
        value = f"{value} (Berlin/Bremen {stats['mp_with_berlin_or_bremen']})"
    if key == "equipment":
        text = _equipment_text(value, names)
    else:
        text = {"ai_radar": _radar_text}.get(key, _cell)(value)
    if key == "dates" and isinstance(value, dict):
        text = f"{value.get('from')}–{value.get('to') or 'end'}"
    if key == "good_visibility":
        text = "●" if value else ("-" if value is None else "")
    if key == "counter_ids":
        text = aids.id_ranges(value or ())
    return text + dagger(unit.field_assumed(f"stats.{key}") and key != "type")


def aircraft_chart_panels(game: Game, sheet, width: float) -> list[Panel]:
    """The Aircraft Data Chart: one row per aircraft type of the data, by side."""
    panels = []
    for side in game.info.sides:
        units = [u for u in game.units if u.side == side.id]
        if not units:
            continue
        items, y = title_bar(f"{sheet.label} {rules(sheet)} — {side.label}", width, 3.2)
        headers = [label for _key, label in CHART_COLUMNS]
        names = equipment_names(game)
        rows = [[_stat_text(u, key, names) for key, _label in CHART_COLUMNS] for u in units]
        cells, h = grid(headers, rows, width, size=2.3, id_prefix=f"chart-{side.id}")
        items.append(Group(tuple(cells), dy=y + 0.8, cls="aid-grid"))
        y += h + 2.0
        proof_note = f"{dagger(True)} not in the rules (see Assumed values). " if dagger(True) \
            else ""
        lines, lh = wrapped(f"{proof_note}MP n* = +1 MP on even turns; ● = good visibility (+1 "
                            "bonus sighting die); ¶ = jamming-resistant.", 0, y, 2.1, width,
                            fill=GREY)
        items.extend(lines)
        panels.append(Panel(items, y + lh, f"chart-{side.id}", "aid-panel aircraft-chart"))
    return panels


# --- set-up: each shipped scenario's order of battle ---------------------------------------


def setup_pages(game: Game, options: Options) -> list[KitPage]:
    """The set-up of the data (the chit cup, the environment, the turn marker), then each
    shipped scenario's forces as an order of battle, then the player's display (turn track
    and environment boxes), flowed with the other aids."""
    width = options.paper.content()[2]
    blocks = setup_chart.chart_blocks(game, width)
    for name in SHIPPED:
        blocks += setup_chart.order_blocks(game, scenario_order(game, load_scenario(game, name)),
                                           width)
    blocks += display_blocks(game, width)
    return flowed_pages(blocks, options.paper, "setup charts")


#: Where the attacking force waits: the umpire draws each turn's entrants from it at random.
POOL_WORDS = "Bomber pool: entrants drawn at random"


def scenario_order(game: Game, scenario: Scenario) -> setup_chart.Order:
    """A scenario's forces: the night fighters on their hexes (or in the radio beacon box)
    and the player's search counters at start; the attacking force in the umpire's pool,
    with how many enter on each turn."""
    Entry, Spot = setup_chart.Entry, setup_chart.Spot
    fighters: dict[str, list] = {}
    for flight in scenario.defenders:
        unit = game.get("units", flight.unit)
        for copy, where in zip(flight.ids, flight.deploy, strict=False):
            fighters.setdefault(setup_chart.place_name(game, where), []).append(
                Entry(unit, 1, "defender", copy=copy))
    radars = [Entry(game.get("markers", f"{radar}-search"), count, "defender")
              for radar, count in scenario.radars
              if any(m.id == f"{radar}-search" for m in game.markers)]
    spots = [Spot(where, tuple(entries)) for where, entries in fighters.items()]
    if radars:
        spots.append(Spot("Search counters", tuple(radars)))
    pool = Spot(POOL_WORDS, tuple(Entry(game.get("units", f.unit), f.count, "attacker")
                                  for f in scenario.attackers))
    entering = ", ".join(f"{n} on turn {t}" for t, n in scenario.arrival)
    return setup_chart.Order(
        f"scenario-{scenario.name}", f"Scenario: {scenario.title}",
        (setup_chart.Arrival("defender", None, tuple(spots)),
         setup_chart.Arrival("attacker", None, (pool,))),
        notes=(f"The bomber stream enters from the pool: {entering}.",),
        drawer=lambda entry: chart_counter(game, entry))


def chart_counter(game: Game, entry) -> tuple[Primitive, ...]:
    """An entry's counter as the counter sheets print it: an aircraft with its id (the
    first copy's when the entry names none), a search counter."""
    record = entry.record
    s = counter_size(game, record)
    if record in game.units:
        ids = [str(i) for i in record.stats.get("counter_ids") or ()] or ["001"]
        return aircraft_face(game, record, entry.copy or ids[0], s)
    radar, role = radar_of(game, record.id)
    if radar is not None:
        return radar_face(radar, role, None, s)
    return setup_chart.counter_image(game, record)


@CODE.kit_part("sheets", replaces=True)
def sheet_pages(game: Game, options: Options) -> list[KitPage]:
    """The referee screen (every table, radar arcs, radars, reminders) in landscape panels,
    the Aircraft Data Chart, and the other sheets of the data as the generic kit draws them."""
    width = column_width(options.paper)
    pages: list[KitPage] = []
    aid = next((s for s in game.sheets if s.kind == "play-aid"), None)
    listed = list(aid.tables) if aid else []
    tables = [game.table(t) for t in listed] + [t for t in game.tables if t.id not in listed]
    # the play aid's reminder sections restate these tables: the tables print, once
    panels = [sequence_panel(game, width)] if game.sequence else []
    panels += [table_panel(t, width, game) for t in tables]
    if "radar-arcs" in game.extra:
        panels.append(arcs_panel(game, width))
    if "radars" in game.extra:
        panels.append(radar_panel(game, width))
    panels += [off_map_panel(d, width) for d in game.displays
               if not any(box.kind == "environment" for box in d.boxes)]
    pages.extend(masonry(panels, options.paper, "referee screen"))
    pages.extend(setup_pages(game, options))
    full = options.paper.landscape.content()[2]
    for sheet in game.sheets:
        if sheet is aid:
            continue
        if sheet.id == "aircraft-data-chart":
            pages.extend(masonry(aircraft_chart_panels(game, sheet, full), options.paper,
                                 f"sheet {sheet.id}", cols=1))
        else:
            content = options.paper.content()[2]
            pages.extend(flowed_pages(list(sheet_blocks(game, sheet, content)), options.paper,
                                      f"sheet {sheet.id}", own_sheet=is_form(sheet)))
    return pages
