"""Hex map layout: terrain, hexside features, point symbols, overlays, labels and legend.

Geometry follows the map's declared orientation and offset (Red Blob Games'
offset coordinates): flat-topped columns or pointy-topped rows, with the odd
or even ones shifted half a hex.

What a feature of the data becomes on the map (docs/data-format.md, hex_maps):

- ``kind: terrain`` with ``terrain: woods``: its hexes filled and textured as that
  terrain; ``kind: island`` is the terrain ``island``; every other hex has the map's
  ``terrain`` (default ``clear``). Each terrain used is shown in the legend.
- ``kind`` city, town, port, airfield or base (or any feature's ``symbol:``): a symbol
  in each of its hexes.
- ``hexsides: ["F-6/F-7", ...]`` (kinds river, strait, border, ...): drawn on the edge
  the two hexes share.
- ``path: [hex, hex, ...]`` (kinds road, railway, or any kind as a plain line): a line
  through the centres of its hexes, in order (a road ochre on brown, a railway black with
  cross ties).
- ``kind: entry``: a ring in each hex, in the feature's ``color``.
- any other kind (range, zone, start, exit ...): its outline, in its ``color`` and
  ``line`` (solid, dashed, dotted), inset so that overlapping features each show their
  own line; zones, starts and exits are tinted as well.

Labels (hex ids, feature labels) never overlap each other or leave the map frame:
feature labels go through ``labels.LabelPlacer``.
"""

from __future__ import annotations

import itertools
import math
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, replace

from ..engine.errors import BadInput
from ..engine.looks import NO_TEXTURE
from ..engine.looks import colour as style_colour
from ..engine.model import Feature, Game, HexMap
from ..engine.terrain import path_hexes
from .fonts import text_width
from .labels import Box, LabelPlacer, around, segment_hits, text_box, union
from .legend import legend_block
from .marks import dagger
from .primitives import Circle, Group, Line, Polygon, Primitive, Rect, Style, Text

Point = tuple[float, float]
#: a map's legend laid out for a width: (its primitives, its height)
Legend = Callable[[float], tuple[tuple[Primitive, ...], float]]
#: hex id -> (column, row) index of the grid (``HexGeometry.index``)
Index = Mapping[str, tuple[int, int]]


@dataclass(frozen=True)
class TerrainStyle:
    """How a terrain type looks: a fill, a texture (``TEXTURES``), the legend's name."""

    fill: str
    texture: str = ""
    label: str = ""
    ink: str = "#555555"  # the texture's colour


#: Default terrain looks; a game's ``style`` section may add or override (by name).
TERRAIN: dict[str, TerrainStyle] = {
    "clear": TerrainStyle("#fbfaf2", "", "Clear 平地"),
    "sea": TerrainStyle("#e4eff9", "waves", "Sea 海", "#8fb3d6"),
    "land": TerrainStyle("#efe8cf", "", "Land 陸地"),
    "island": TerrainStyle("#b9d99f", "dots", "Island 島", "#4f7f36"),
    "woods": TerrainStyle("#d3e8c4", "trees", "Woods 森林", "#3f7a2c"),
    "rough": TerrainStyle("#ece1c4", "dots", "Rough 荒地", "#8a6d3b"),
    "mountains": TerrainStyle("#dfcba6", "peaks", "Mountains 山岳", "#7a5a2c"),
    "swamp": TerrainStyle("#d8e6d6", "reeds", "Swamp 湿地", "#4f7f6a"),
    "desert": TerrainStyle("#f3e6b8", "dots", "Desert 砂漠", "#b08a30"),
    "city": TerrainStyle("#e4dada", "blocks", "City 都市", "#7a3030"),
}
DEFAULT_TERRAIN = "clear"


def terrain_looks(game: Game) -> dict[str, TerrainStyle]:
    """The default terrain looks with the game's ``style.terrain`` over them (by name; a
    style that gives only a fill keeps the default texture and name)."""
    looks = dict(TERRAIN)
    for name, declared in game.style.terrain.items():
        base = looks.get(name, TerrainStyle("#eeeeee", "", name))
        texture = base.texture if declared.texture is None else declared.texture
        looks[name] = TerrainStyle(style_colour(declared.fill) or base.fill,
                                   "" if texture == NO_TEXTURE else texture,
                                   declared.label or base.label, base.ink)
    return looks
GRID = "#7d8fa3"
INK = "#222222"
ID_INK = "#4a4a4a"

#: Named colours a feature's ``color`` may give (or ``#rrggbb``).
COLOURS = {"red": "#c62828", "white": "#ffffff", "blue": "#1f4e9a", "black": "#111111",
           "yellow": "#e0b000", "green": "#2f7d32", "orange": "#e06c00", "purple": "#6a3d9a",
           "brown": "#8a5a2b", "grey": "#707070", "gray": "#707070"}
#: Default colours of overlay kinds, then the palette for features that would repeat one.
OVERLAY_COLOURS = {"entry": "#c62828", "exit": "#303090", "range": "#c62828",
                   "zone": "#a07800", "start": "#1f4e9a"}
PALETTE = ("#6a3d9a", "#e06c00", "#00838f", "#8a5a2b", "#2f7d32", "#ad1457")
TINTED = {"zone", "start", "exit", "searchlight-zone"}
DASHES = {"solid": (), "dashed": (2.0, 1.2), "dotted": (0.6, 0.9)}
POINT_KINDS = ("city", "town", "port", "airfield", "base")
HEXSIDE_STYLES = {
    "river": (Style(stroke="#2f6fb0", width=1.1),),
    "strait": (Style(stroke="#1f4e9a", width=1.6), Style(stroke="#bcd8f2", width=0.7)),
    "border": (Style(stroke="#8e2424", width=0.7, dash=(2.2, 0.9, 0.5, 0.9)),),
}
DEFAULT_HEXSIDE = (Style(stroke="#444444", width=0.9),)
#: Line features (a ``path`` through hex centres): strokes drawn one over the other, and for
#: a railway its cross ties (length, spacing in mm).
PATH_STYLES = {
    "road": (Style(stroke="#6e4a1e", width=1.5), Style(stroke="#d9a53f", width=0.9)),
    "railway": (Style(stroke="#111111", width=0.45),),
}
DEFAULT_PATH = (Style(stroke="#555555", width=0.8),)
TIES = {"railway": (1.7, 1.6)}


@dataclass(frozen=True)
class HexGeometry:
    """Centres and corners of the hexes of a map, in mm from the drawing's top-left."""

    hex_map: HexMap
    size: float  # circumradius in mm

    @classmethod
    def of(cls, hex_map: HexMap, across_flats: float | None = None) -> HexGeometry:
        flats = across_flats or hex_map.hex_size_mm or 19.0
        return cls(hex_map, flats / math.sqrt(3))

    @property
    def flat(self) -> bool:
        return self.hex_map.orientation == "flat"

    def centre(self, col: int, row: int) -> tuple[float, float]:
        s, root3 = self.size, math.sqrt(3)
        shifted = (col if self.flat else row) % 2 == (0 if self.hex_map.offset.startswith("even")
                                                      else 1)
        if self.flat:
            x = s + col * 1.5 * s
            y = root3 * s / 2 + row * root3 * s + (root3 * s / 2 if shifted else 0)
        else:
            x = root3 * s / 2 + col * root3 * s + (root3 * s / 2 if shifted else 0)
            y = s + row * 1.5 * s
        return x, y

    def corners(self, col: int, row: int) -> tuple[tuple[float, float], ...]:
        cx, cy = self.centre(col, row)
        start = 0 if self.flat else 30
        return tuple((cx + self.size * math.cos(math.radians(start + 60 * i)),
                      cy + self.size * math.sin(math.radians(start + 60 * i))) for i in range(6))

    def extent(self) -> tuple[float, float]:
        """Width and height of the whole grid in mm."""
        s, root3 = self.size, math.sqrt(3)
        cols, rows = self.hex_map.columns.count, self.hex_map.rows.count
        if self.flat:
            return s * (1.5 * cols + 0.5), root3 * s * (rows + 0.5)
        return root3 * s * (cols + 0.5), s * (1.5 * rows + 0.5)

    def cells(self) -> Iterator[tuple[str, int, int]]:
        """(hex id, col, row) for every hex, column by column."""
        cols = self.hex_map.columns.all_labels()
        rows = self.hex_map.rows.all_labels()
        for c, col_label in enumerate(cols):
            for r, row_label in enumerate(rows):
                yield self.hex_map.hex_id.format(col=col_label, row=row_label), c, r

    def index(self) -> dict[str, tuple[int, int]]:
        return {h: (c, r) for h, c, r in self.cells()}


# --- the data's features, sorted by what they become ---------------------------------------


def colour(feature: Feature, fallback: str) -> str:
    """The feature's declared ``color`` as ``#rrggbb`` (or ``fallback``)."""
    value = feature.get("color")
    if value is None:
        return fallback
    text = str(value).lower()
    if text.startswith("#") and len(text) == 7:
        return text
    if text in COLOURS:
        return COLOURS[text]
    raise BadInput(f"{feature.origin}: feature {feature.id!r}: color {value!r} is not "
                   f"#rrggbb or one of {', '.join(sorted(COLOURS))}")


def hexsides_of(feature: Feature) -> list[tuple[str, str]]:
    """``["F-6/F-7"]`` -> ``[("F-6", "F-7")]``."""
    pairs: list[tuple[str, str]] = []
    for side in feature.get("hexsides") or ():
        a, slash, b = str(side).partition("/")
        if not slash:
            raise BadInput(f"{feature.origin}: feature {feature.id!r}: hexside {side!r} is "
                           f"not two hexes written A/B")
        pairs.append((a, b))
    return pairs


def terrain_of(feature: Feature) -> str | None:
    if feature.kind == "terrain":
        return str(feature.get("terrain") or DEFAULT_TERRAIN)
    return "island" if feature.kind == "island" else None


def symbol_of(feature: Feature) -> str | None:
    symbol = feature.get("symbol")
    if symbol:
        return str(symbol)
    return feature.kind if feature.kind in POINT_KINDS else None


def is_overlay(feature: Feature) -> bool:
    return (terrain_of(feature) is None and feature.kind not in POINT_KINDS
            and not feature.get("hexsides") and not feature.get("path")
            and bool(feature.hexes))


def overlay_colours(hex_map: HexMap) -> dict[str, str]:
    """Each overlay feature's colour: declared, else its kind's, else the next palette colour
    no earlier overlay of the map uses (so two features never share one by default)."""
    out: dict[str, str] = {}
    used = {colour(f, "") for f in hex_map.features if is_overlay(f) and f.get("color")}
    spare = iter(c for c in PALETTE if c not in used)
    for i, f in enumerate(hex_map.features):
        if not is_overlay(f):
            continue
        key = f.id or f"feature-{i}"
        if f.get("color"):
            out[key] = colour(f, "")
            continue
        wanted = OVERLAY_COLOURS.get(f.kind)
        out[key] = wanted if wanted and wanted not in used else next(spare, "#606060")
        used.add(out[key])
    return out


# --- drawing ------------------------------------------------------------------------------


def hex_map_drawing(hex_map: HexMap, across_flats: float | None = None, game_id: str = "",
                    terrain: Mapping[str, TerrainStyle] | None = None
                    ) -> tuple[tuple[Primitive, ...], float, float]:
    """(primitives, width, height) of the whole map at full size, its legend under it at the
    map's width (a tiled map gets its legend from ``hex_map_parts`` instead)."""
    items, width, height, legend = hex_map_parts(hex_map, across_flats, game_id, terrain)
    shown, legend_h = legend(width)
    return (*items, Group(shown, dy=height, id=f"{hex_map.id}-legend", cls="map-legend")
            ), width, height + legend_h


def hex_map_parts(hex_map: HexMap, across_flats: float | None = None, game_id: str = "",
                  terrain: Mapping[str, TerrainStyle] | None = None, title: str = ""
                  ) -> tuple[tuple[Primitive, ...], float, float, Legend]:
    """(primitives, width, height, legend) of the map without its legend, and the legend as
    a layout for a given width (``impose.tile`` places it whole on one tile); the legend's
    title block names the map (``title``: the game's name and the map's, by default the
    map's) over a line on reading hex ids, with a north arrow."""
    looks = {**TERRAIN, **(terrain or {})}
    geo = HexGeometry.of(hex_map, across_flats)
    width, grid_h = geo.extent()
    index = geo.index()
    ground = _terrain_by_hex(hex_map)
    taken: list[Box] = []
    hexes, ids = _hex_layer(hex_map, geo, ground, looks, game_id, taken,
                            _path_segments(hex_map, geo, index))
    textures = _textures(geo, ground, looks, index)
    overlays = _overlays(hex_map, geo, index, taken)
    sides = _hexsides(hex_map, geo, index)
    paths = _paths(hex_map, geo, index)
    symbols = _symbols(hex_map, geo, index, taken)
    frame = Box(0, 0, width, grid_h)
    outlines = [(a, b) for group in overlays if isinstance(group, Group)
                for p in group.items if isinstance(p, Polygon) and p.style.stroke
                for a, b in itertools.pairwise((*p.points, p.points[0]))]  # as drawn
    marks = _feature_labels(hex_map, geo, index, LabelPlacer(frame, taken), outlines)
    items = (Group(tuple(hexes), id=f"{hex_map.id}-hexes", cls=f"hexes {game_id}".strip()),
             Group(tuple(textures), cls="terrain-textures"),
             Group(tuple(overlays), cls="overlays"),
             Group(tuple(sides), cls="hexsides"),
             Group(tuple(paths), cls="line-features"),
             Group(tuple(symbols), cls="point-features"),
             Group(tuple(ids), cls="hex-ids"),
             Group(tuple(marks), cls="features"),
             Rect(0, 0, width, grid_h, Style(width=0.5), cls="map-border"))

    def legend(room: float) -> tuple[tuple[Primitive, ...], float]:
        return legend_block((title or hex_map.label) + dagger(hex_map.is_assumed),
                            legend_entries(hex_map, ground, looks), room,
                            subtitle=hex_id_note(hex_map),
                            notes=(STAND_IN_MAP,) if hex_map.is_assumed else ())

    return items, width, grid_h, legend


def hex_id_note(hex_map: HexMap) -> str:
    """How to read a hex id, from the map's own first and last hexes."""
    first, last = hex_map.hex_ids[0], hex_map.hex_ids[-1]
    order = ("column, then row" if hex_map.hex_id.index("{col}") < hex_map.hex_id.index("{row}")
             else "row, then column")
    return f"Hexes {first} to {last}: {order}. North is at the top."


def _terrain_by_hex(hex_map: HexMap) -> dict[str, str]:
    base = hex_map.terrain or DEFAULT_TERRAIN
    out = {h: base for h in hex_map.hex_ids}
    for feature in hex_map.features:
        name = terrain_of(feature)
        if name:
            out.update({h: name for h in feature.hexes})
    return out


def _look(looks: Mapping[str, TerrainStyle], name: str) -> TerrainStyle:
    if name not in looks:
        raise BadInput(f"terrain {name!r} has no style (known: {', '.join(sorted(looks))}); "
                       f"give it one in the game's style section")
    return looks[name]


#: How far (mm) a road's or a railway's ink reaches either side of its centre line (a
#: railway's ties the widest) and the gap from it within which a hex id gets a solid
#: backing that the line stops at.
PATH_REACH, ID_GAP = 0.9, 0.4


def _path_segments(hex_map: HexMap, geo: HexGeometry, index: Index
                   ) -> list[tuple[Point, Point]]:
    """The straight pieces of every line feature (road, railway) between hex centres."""
    out: list[tuple[Point, Point]] = []
    for feature in hex_map.features:
        points = [geo.centre(*index[h]) for h in path_hexes(feature) if h in index]
        out.extend(itertools.pairwise(points))
    return out


def _clear_of(box: Box, segments: Sequence[tuple[Point, Point]]) -> bool:
    """Whether no line feature's ink comes within ``ID_GAP`` of ``box``."""
    grown = Box(box.x0 - PATH_REACH - ID_GAP, box.y0 - ID_GAP,
                box.x1 + PATH_REACH + ID_GAP, box.y1 + ID_GAP)
    return not any(segment_hits(grown, a, b) for a, b in segments)


def _hex_layer(hex_map: HexMap, geo: HexGeometry, ground: dict[str, str],
               looks: Mapping[str, TerrainStyle], game_id: str, taken: list[Box],
               segments: Sequence[tuple[Point, Point]] = ()
               ) -> tuple[list[Primitive], list[Primitive]]:
    features_of: dict[str, list[Feature]] = {}
    for feature in hex_map.features:
        for h in feature.hexes:
            features_of.setdefault(h, []).append(feature)
    size = id_size(geo)
    hexes: list[Primitive] = []
    ids: list[Primitive] = []
    for hex_id, c, r in geo.cells():
        look = _look(looks, ground[hex_id])
        features = features_of.get(hex_id, [])
        classes = ["hex", f"terrain-{ground[hex_id]}", *(f.kind for f in features),
                   *(f.id for f in features if f.id)]
        hexes.append(Polygon(geo.corners(c, r), Style(fill=look.fill, stroke=GRID, width=0.25),
                             id=f"hex-{hex_id}", cls=" ".join(dict.fromkeys(classes))))
        cx, cy = geo.centre(c, r)
        top = cy - geo.size * math.sqrt(3) / 2 + 0.5 + size * 0.88
        label = Text(cx, top, hex_id, size=size, anchor="middle",
                     fill=ID_INK, cls="hex-id")
        box = text_box(label)
        taken.append(box)
        # a road or railway under it: the line stops at a solid backing (a knockout)
        crossed = not _clear_of(box, segments)
        pad = 0.3 if crossed else 0.0
        ids += [Rect(box.x0 - 0.3 - pad, box.y0 - pad, box.w + 0.6 + 2 * pad, box.h + 2 * pad,
                     Style(fill=look.fill, stroke=None, opacity=1.0 if crossed else 0.85)),
                label]
    return hexes, ids


def id_size(geo: HexGeometry) -> float:
    """Hex ids' em height: a fifth of the hex's radius, at most 2.2 mm."""
    return min(2.2, geo.size * 0.2)


#: Where texture marks go in a hex, in radii from its centre (clear of the id at the top).
TEXTURE_SPOTS = ((-0.5, -0.08), (0.5, -0.08), (-0.22, 0.26), (0.22, 0.26), (-0.55, 0.4),
                 (0.55, 0.4), (0.0, 0.6))


def _textures(geo: HexGeometry, ground: dict[str, str], looks: Mapping[str, TerrainStyle],
              index: Index) -> list[Primitive]:
    out: list[Primitive] = []
    for hex_id, name in ground.items():
        look = looks[name]
        if not look.texture:
            continue
        cx, cy = geo.centre(*index[hex_id])
        marks = [m for dx, dy in TEXTURE_SPOTS
                 for m in texture_mark(look, cx + dx * geo.size, cy + dy * geo.size,
                                       geo.size * 0.13)]
        out.append(Group(tuple(marks), cls=f"texture {look.texture}"))
    return out


def texture_mark(look: TerrainStyle, x: float, y: float, m: float) -> list[Primitive]:
    """One mark of a terrain's texture centred on (x, y), ``m`` mm across."""
    ink = Style(stroke=look.ink, width=max(0.18, m * 0.12))
    filled = Style(fill=look.ink, stroke=None)
    shape = TEXTURES.get(look.texture)
    if shape is None:
        raise BadInput(f"terrain texture {look.texture!r} is unknown "
                       f"(known: {', '.join(sorted(TEXTURES))})")
    return shape(x, y, m, ink, filled)


#: a texture's mark: (x, y, size, line style, fill style) -> its primitives
Texture = Callable[[float, float, float, Style, Style], list[Primitive]]
TEXTURES: dict[str, Texture] = {
    "trees": lambda x, y, m, ink, f: [Circle(x, y - m * 0.2, m * 0.42, f),
                                      Line(x, y + m * 0.2, x, y + m * 0.55, ink)],
    "peaks": lambda x, y, m, ink, f: [Polygon(((x - m * 0.6, y + m * 0.35), (x, y - m * 0.4),
                                               (x + m * 0.6, y + m * 0.35)), ink, closed=False)],
    "dots": lambda x, y, m, ink, f: [Circle(x - m * 0.3, y, m * 0.12, f),
                                     Circle(x + m * 0.3, y + m * 0.2, m * 0.12, f)],
    "reeds": lambda x, y, m, ink, f: [Line(x + d, y + m * 0.4, x + d * 1.6, y - m * 0.35, ink)
                                      for d in (-m * 0.3, 0.0, m * 0.3)],
    "blocks": lambda x, y, m, ink, f: [Rect(x - m * 0.45, y - m * 0.3, m * 0.4, m * 0.4, f),
                                       Rect(x + m * 0.05, y - m * 0.05, m * 0.4, m * 0.45, f)],
    "waves": lambda x, y, m, ink, f: [Polygon(((x - m * 0.7, y), (x - m * 0.35, y - m * 0.25),
                                               (x, y), (x + m * 0.35, y - m * 0.25),
                                               (x + m * 0.7, y)), ink, closed=False)],
}


def _overlays(hex_map: HexMap, geo: HexGeometry, index: Index, taken: list[Box]
              ) -> list[Primitive]:
    colours = overlay_colours(hex_map)
    out: list[Primitive] = []
    lines = 0
    for i, feature in enumerate(hex_map.features):
        if not is_overlay(feature):
            continue
        ink = colours[feature.id or f"feature-{i}"]
        if feature.kind == "entry":
            out.append(_entry_rings(feature, geo, index, ink, taken))
            continue
        out.append(_outline(feature, geo, index, ink, min(0.6 + 0.65 * lines, 2.55)))
        lines += 1
    return out


def _entry_rings(feature: Feature, geo: HexGeometry, index: Index, ink: str,
                 taken: list[Box]) -> Group:
    """A ring in each entry hex in the feature's colour (a white ring gets a dark edge)."""
    r = geo.size * 0.36
    items: list[Primitive] = []
    for h in feature.hexes:
        cx, cy = geo.centre(*index[h])
        cy += geo.size * 0.12
        if ink == "#ffffff":
            items.append(Circle(cx, cy, r, Style(stroke="#333333", width=1.5)))
        items.append(Circle(cx, cy, r, Style(stroke=ink, width=1.0)))
        taken.append(Box(cx - r - 0.8, cy - r - 0.8, cx + r + 0.8, cy + r + 0.8))
    return Group(tuple(items), id=f"feature-{feature.id}", cls=f"feature entry {feature.id}")


def boundary(hexes: Iterable[str], geo: HexGeometry, index: Index
             ) -> list[tuple[str, Point, Point]]:
    """The edges of a set of hexes that no other hex of the set shares: (hex, a, b), each
    running the same way round its hex."""
    seen: dict[tuple[float, float], int] = {}
    edges = []
    for h in hexes:
        corners = geo.corners(*index[h])
        for i in range(6):
            a, b = corners[i], corners[(i + 1) % 6]
            key = (round((a[0] + b[0]) / 2, 3), round((a[1] + b[1]) / 2, 3))
            seen[key] = seen.get(key, 0) + 1
            edges.append((key, h, a, b))
    return [(h, a, b) for key, h, a, b in edges if seen[key] == 1]


def inset_loops(hexes: Iterable[str], geo: HexGeometry, index: Index, inset: float,
                clear_ids: bool = False) -> list[tuple[Point, ...]]:
    """The outline of a set of hexes as closed loops moved ``inset`` mm inwards (each
    corner where the two moved edges meet, so the loops stay joined); with ``clear_ids``,
    an upper edge of a hex moves in past the band of its hex id as well, so that no
    outline runs through an id."""
    def key(p: Point) -> tuple[float, float]:
        return round(p[0], 3), round(p[1], 3)

    band = id_band(geo) if clear_ids else 0.0
    following: dict[tuple[float, float], Edge] = {}
    for h, a, b in boundary(hexes, geo, index):
        normal = _inward(a, b, geo.centre(*index[h]))
        upper = normal[1] > 0.9  # the top edge of its hex: the id is under it
        following[key(a)] = (a, b, normal, inset + (band if upper else 0.0))
    loops = []
    while following:
        k = min(following)
        loop: list[Edge] = []
        while k in following:
            loop.append(following.pop(k))
            k = key(loop[-1][1])
        loops.append(tuple(_mitre(loop[i - 1], loop[i]) for i in range(len(loop))))
    return loops


def id_band(geo: HexGeometry) -> float:
    """How far below a hex's top edge its id reaches (the id's box and a little air)."""
    size = id_size(geo)
    return 0.5 + size * 1.02 + 0.5


def _inward(a: Point, b: Point, centre: Point) -> Point:
    dx, dy = b[0] - a[0], b[1] - a[1]
    length = math.hypot(dx, dy)
    nx, ny = -dy / length, dx / length
    mx, my = (a[0] + b[0]) / 2, (a[1] + b[1]) / 2
    if (centre[0] - mx) * nx + (centre[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    return nx, ny


#: an edge moved inwards: (start, end, inward normal, distance)
Edge = tuple[Point, Point, Point, float]


def _mitre(before: Edge, after: Edge) -> Point:
    """The corner where edge ``before`` ends and ``after`` begins, each moved inwards by
    its own distance: where the two moved edges meet."""
    (a1, b1, (n1x, n1y), d1), (a2, b2, (n2x, n2y), d2) = before, after
    p1 = (a1[0] + n1x * d1, a1[1] + n1y * d1)
    p2 = (a2[0] + n2x * d2, a2[1] + n2y * d2)
    t1 = (b1[0] - a1[0], b1[1] - a1[1])
    t2 = (b2[0] - a2[0], b2[1] - a2[1])
    cross = t1[0] * t2[1] - t1[1] * t2[0]
    if abs(cross) < 1e-9:  # a straight run: the moved point at the shared corner
        return p2
    s = ((p2[0] - p1[0]) * t2[1] - (p2[1] - p1[1]) * t2[0]) / cross
    return p1[0] + t1[0] * s, p1[1] + t1[1] * s


def _outline(feature: Feature, geo: HexGeometry, index: Index, ink: str, inset: float
             ) -> Group:
    """The feature's outline, drawn ``inset`` mm inside its hexes, in its colour and line;
    zones, starts and exits are tinted too."""
    line = str(feature.get("line") or "solid")
    if line not in DASHES:
        raise BadInput(f"{feature.origin}: feature {feature.id!r}: line {line!r} is not one "
                       f"of {', '.join(DASHES)}")
    style = Style(stroke=ink, width=0.6, dash=DASHES[line])
    items: list[Primitive] = []
    if feature.kind in TINTED:
        tint = Style(fill=ink, stroke=None, opacity=0.16)
        items += [Polygon(geo.corners(*index[h]), tint) for h in feature.hexes]
    items += [Polygon(loop, style)
              for loop in inset_loops(feature.hexes, geo, index, inset, clear_ids=True)]
    return Group(tuple(items), id=f"feature-{feature.id}",
                 cls=f"feature {feature.kind} {line} {feature.id}")


def shared_edge(geo: HexGeometry, index: Index, a: str, b: str) -> tuple[Point, Point]:
    """The two corners hexes ``a`` and ``b`` share; BadInput if they are not neighbours."""
    ca = [(round(x, 3), round(y, 3)) for x, y in geo.corners(*index[a])]
    cb = {(round(x, 3), round(y, 3)) for x, y in geo.corners(*index[b])}
    common = [p for p in ca if p in cb]
    if len(common) != 2:
        raise BadInput(f"hexside {a}/{b}: {a} and {b} are not neighbours")
    return common[0], common[1]


def _hexsides(hex_map: HexMap, geo: HexGeometry, index: Index) -> list[Primitive]:
    out: list[Primitive] = []
    for feature in hex_map.features:
        pairs = hexsides_of(feature)
        if not pairs:
            continue
        styles = hexside_styles(feature.kind, feature)
        items = [Line(*p, *q, style, cls=f"hexside-{a}-{b}")
                 for a, b in pairs for (p, q) in [shared_edge(geo, index, a, b)]
                 for style in styles]
        out.append(Group(tuple(items), id=f"feature-{feature.id}",
                         cls=f"feature hexside {feature.kind} {feature.id}"))
    return out


def _paths(hex_map: HexMap, geo: HexGeometry, index: Index) -> list[Primitive]:
    """Each line feature (a road, a railway) through the centres of its path's hexes."""
    out: list[Primitive] = []
    for feature in hex_map.features:
        hexes = path_hexes(feature)
        if not hexes:
            continue
        unknown = [h for h in hexes if h not in index]
        if unknown:
            raise BadInput(f"{feature.origin}: feature {feature.id!r}: path hex {unknown[0]!r} "
                           f"is not on the map")
        points = [geo.centre(*index[h]) for h in hexes]
        out.append(Group(tuple(path_line(feature.kind, points, feature)),
                         id=f"feature-{feature.id}", cls=f"feature line {feature.kind} "
                                                        f"{feature.id}".strip()))
    return out


def path_styles(kind: str, feature: Feature | None = None) -> tuple[Style, ...]:
    """How a line feature of ``kind`` is stroked; a declared ``color`` and ``line`` go on
    its top stroke (as ``hexside_styles``)."""
    styles = PATH_STYLES.get(kind, DEFAULT_PATH)
    if feature is None or (feature.get("color") is None and feature.get("line") is None):
        return styles
    top = styles[-1]
    line = feature.get("line")
    if line is not None and str(line) not in DASHES:
        raise BadInput(f"{feature.origin}: feature {feature.id!r}: line {line!r} is not one "
                       f"of {', '.join(DASHES)}")
    dash = DASHES[str(line)] if line is not None else top.dash
    return (*styles[:-1], replace(top, stroke=colour(feature, top.stroke or "#555555"),
                                  dash=dash))


def path_line(kind: str, points: list[Point], feature: Feature | None = None
              ) -> list[Primitive]:
    """A line feature through ``points``: its strokes (round the corners as a polyline),
    and a railway's cross ties at even steps along it."""
    styles = path_styles(kind, feature)
    items: list[Primitive] = [Polygon(tuple(points), style, closed=False) for style in styles]
    if kind in TIES:
        length, step = TIES[kind]
        items += [Line(x - nx * length / 2, y - ny * length / 2, x + nx * length / 2,
                       y + ny * length / 2, replace(styles[-1], width=0.35, dash=()))
                  for x, y, nx, ny in _stations(points, step)]
    return items


def _stations(points: list[Point], step: float) -> list[tuple[float, float, float, float]]:
    """Points every ``step`` mm along a polyline (half a step in from each end), each with
    the unit normal of its segment."""
    out = []
    carried = step / 2
    for (x1, y1), (x2, y2) in itertools.pairwise(points):
        length = math.hypot(x2 - x1, y2 - y1)
        if not length:
            continue
        ux, uy = (x2 - x1) / length, (y2 - y1) / length
        t = carried
        while t <= length:
            out.append((x1 + ux * t, y1 + uy * t, -uy, ux))
            t += step
        carried = t - length
    return out


def path_swatch(kind: str, feature: Feature | None = None) -> list[Primitive]:
    """A line kind across a 10x6 mm box (the legend, the terrain chart)."""
    return path_line(kind, [(0.5, 3.0), (9.5, 3.0)], feature)


def _symbols(hex_map: HexMap, geo: HexGeometry, index: Index, taken: list[Box]
             ) -> list[Primitive]:
    out: list[Primitive] = []
    m = geo.size * 0.42
    for feature in hex_map.features:
        symbol = symbol_of(feature)
        if not symbol:
            continue
        for h in feature.hexes:
            cx, cy = geo.centre(*index[h])
            out.append(Group(tuple(point_symbol(symbol, cx, cy, m)), id=f"symbol-{feature.id}-{h}",
                             cls=f"point-symbol {symbol}"))
            taken.append(Box(cx - m / 2 - 0.3, cy - m / 2 - 0.3, cx + m / 2 + 0.3,
                             cy + m / 2 + 0.3))
    return out


def point_symbol(kind: str, x: float, y: float, m: float) -> list[Primitive]:
    """A point feature's symbol, ``m`` mm across, centred on (x, y)."""
    dark = Style(fill=INK, stroke=None)
    line = Style(stroke=INK, width=max(0.3, m * 0.08))
    h = m / 2
    if kind == "city":
        return [Rect(x - h, y - h, m, m, Style(fill="#8e2424", stroke=INK, width=0.3)),
                Rect(x - h * 0.45, y - h * 0.45, h * 0.9, h * 0.9, Style(fill="#ffffff",
                                                                         stroke=None))]
    if kind == "town":
        return [Circle(x, y, h * 0.6, Style(fill="#8e2424", stroke=INK, width=0.3))]
    if kind == "port":
        return [Circle(x, y - h * 0.62, h * 0.2, line), Line(x, y - h * 0.42, x, y + h, line),
                Line(x - h * 0.45, y - h * 0.15, x + h * 0.45, y - h * 0.15, line),
                Polygon(((x - h * 0.8, y + h * 0.3), (x - h * 0.5, y + h * 0.85), (x, y + h),
                         (x + h * 0.5, y + h * 0.85), (x + h * 0.8, y + h * 0.3)), line,
                        closed=False)]
    if kind == "airfield":
        runway = Style(fill="#5a5a5a", stroke=INK, width=0.2)
        return [Polygon(_bar(x, y, m, 0.22, 35), runway), Polygon(_bar(x, y, m, 0.22, -35),
                                                                    runway)]
    if kind == "base":
        return [Line(x - h * 0.5, y + h, x - h * 0.5, y - h, line),
                Polygon(((x - h * 0.5, y - h), (x + h, y - h * 0.6), (x - h * 0.5, y - h * 0.2)),
                        dark)]
    raise BadInput(f"point symbol {kind!r} is unknown (known: {', '.join(POINT_KINDS)})")


def _bar(x: float, y: float, length: float, thick: float, degrees: float) -> tuple[Point, ...]:
    ux, uy = math.cos(math.radians(degrees)), math.sin(math.radians(degrees))
    hx, hy = ux * length / 2, uy * length / 2
    tx, ty = -uy * length * thick / 2, ux * length * thick / 2
    return ((x - hx - tx, y - hy - ty), (x + hx - tx, y + hy - ty), (x + hx + tx, y + hy + ty),
            (x - hx + tx, y - hy + ty))


def _feature_labels(hex_map: HexMap, geo: HexGeometry, index: Index, placer: LabelPlacer,
                    outlines: Sequence[tuple[Point, Point]] = ()) -> list[Primitive]:
    """A label for each feature that declares one (``label``), or a small point/island
    feature's name, placed clear of hex ids, symbols and each other, and off the zones'
    outlines (``outlines``: segments) where any spot is (a terrain feature is named by the
    legend: a forest of two hexes gets no label unless it declares one)."""
    out: list[Primitive] = []
    size = min(2.6, geo.size * 0.24)
    for feature in hex_map.features:
        text = feature.label
        if not text and feature.hexes and len(feature.hexes) <= 2 and (
                symbol_of(feature) or feature.kind == "island"):
            text = feature.name or feature.id
        if not text or not feature.hexes:
            continue
        centres = [geo.centre(*index[h]) for h in feature.hexes]
        mx = sum(x for x, _ in centres) / len(centres)
        my = sum(y for _, y in centres) / len(centres)
        spots = around(mx, my + geo.size * 0.15, size, geo.size * 2.5, steps=10)
        for cx, cy in centres:
            spots += around(cx, cy, size, geo.size * 1.5, steps=6)
        label = Text(0, 0, text, size=size, bold=True, fill=INK,
                     cls=f"feature-label map-label {feature.kind}")
        clear = [spot for spot in spots if not _on_outline(label, spot, outlines)]
        what = f"map {hex_map.id}, feature {feature.id}"
        lines: list[Primitive] = []
        if not any(placer.free(text_box(replace(label, x=x, y=y, anchor=a)))
                   for x, y, a in clear):  # no line clear of the outlines: two lines
            lines = _two_lines(label, around(mx, my, size, geo.size * 4.0, steps=32), placer,
                               outlines, (mx, my), geo.size)
        if not lines:
            lines = [placer.place(label, clear + [s for s in spots if s not in clear], what)]
        for placed in lines:
            if isinstance(placed, Text):
                box = text_box(placed)
                out.append(Rect(box.x0 - 0.5, box.y0 - 0.2, box.w + 1.0, box.h + 0.4,
                                Style(fill="#ffffff", stroke=None, opacity=0.8), r=0.6))
        out += lines
    return out


LEADER = Style(stroke=INK, width=0.25)


def _two_lines(label: Text, spots: Sequence[tuple[float, float, str]], placer: LabelPlacer,
               outlines: Sequence[tuple[Point, Point]], at: Point, size: float
               ) -> list[Primitive]:
    """``label`` broken in two at the space that best balances it, the lines aligned on the
    first spot where both are clear of the taken boxes and of the outlines (taken there),
    with a leader to ``at`` when they lie off its hex (hexes of radius ``size``) and the
    leader crosses no taken box; [] when it has no space or no spot is clear."""
    words = label.text.split(" ")
    if len(words) < 2:
        return []
    cut = min(range(1, len(words)), key=lambda i: abs(
        text_width(" ".join(words[:i]), label.size) - text_width(" ".join(words[i:]),
                                                                   label.size)))
    step = label.size * 1.15
    for x, y, anchor in spots:
        lines = [replace(label, text=" ".join(part), x=x, y=y + dy, anchor=anchor)
                 for part, dy in ((words[:cut], -step / 2), (words[cut:], step / 2))]
        boxes = [text_box(t) for t in lines]
        if not all(placer.free(b) and not _on_outline(t, (t.x, t.y, t.anchor), outlines)
                   for t, b in zip(lines, boxes, strict=True)):
            continue
        leader = _leader(union(boxes), at, size, placer)
        if leader is None:
            continue
        for b in boxes:
            placer.take(b)
        return [*leader, *lines]
    return []


def _leader(box: Box, at: Point, size: float, placer: LabelPlacer) -> list[Primitive] | None:
    """[] when ``box`` lies within ``size`` of ``at``; else [a line from the box's nearest
    point to ``at``, stopping short of its symbol], or None when that line would cross a
    taken box (a hex id, a symbol, another label)."""
    nx, ny = min(max(at[0], box.x0), box.x1), min(max(at[1], box.y0), box.y1)
    far = math.hypot(nx - at[0], ny - at[1])
    if far <= size:
        return []
    end = (at[0] + (nx - at[0]) * size * 0.45 / far, at[1] + (ny - at[1]) * size * 0.45 / far)
    start = (nx + (at[0] - nx) * 0.6 / far, ny + (at[1] - ny) * 0.6 / far)
    if any(segment_hits(t, start, end) for t in placer.taken):
        return None
    return [Line(start[0], start[1], end[0], end[1], LEADER, cls="leader")]


def _on_outline(label: Text, spot: tuple[float, float, str],
                outlines: Sequence[tuple[Point, Point]]) -> bool:
    """True when ``label`` at ``spot`` (x, y, anchor) would lie on a zone's outline."""
    x, y, anchor = spot
    box = text_box(replace(label, x=x, y=y, anchor=anchor))
    grown = Box(box.x0 - 0.6, box.y0 - 0.6, box.x1 + 0.6, box.y1 + 0.6)
    return any(segment_hits(grown, a, b) for a, b in outlines)


# --- the legend ---------------------------------------------------------------------------

#: What a map the rule text lacks says of itself, once, in its legend (the proof daggers
#: its title): the places and ids the rules give are drawn as given, the rest is the kit's.
STAND_IN_MAP = ("This map stands in for the game's printed map, which the rules do not "
                "include: the hex ids and the places the rules name are as they give them; "
                "the rest of the map is this kit's.")


def legend_entries(hex_map: HexMap, ground: dict[str, str], looks: Mapping[str, TerrainStyle]
                   ) -> list[tuple[list[Primitive], str]]:
    """(swatch primitives in a 10x6 mm box at the origin, text) for everything drawn."""
    entries: list[tuple[list[Primitive], str]] = []
    for name in dict.fromkeys(sorted(set(ground.values()))):
        look = looks[name]
        entries.append((terrain_swatch(look), look.label or name))
    colours = overlay_colours(hex_map)
    drawn = [(feature, _feature_swatch(feature, colours.get(feature.id or f"feature-{i}")))
             for i, feature in enumerate(hex_map.features)]
    # features of one kind drawn alike (two cities, each named on the map) are one entry,
    # named by the kind: the legend tells what a symbol means, the map which place it is
    alike = Counter((f.kind, repr(swatch)) for f, swatch in drawn if swatch)
    shown: set[tuple[str, str]] = set()
    for feature, swatch in drawn:
        kind = (feature.kind, repr(swatch))
        if alike[kind] > 1 and feature.kind:
            if kind not in shown:
                shown.add(kind)
                kind_look = looks.get(feature.kind)
                entries.append((swatch, kind_look.label if kind_look and kind_look.label else
                                feature.kind.replace("-", " ").capitalize()))
            continue
        text = feature.name or feature.label or feature.id or feature.kind
        if feature.name_ja:
            text = f"{text} {feature.name_ja}"
        entries.append((swatch, text))
    return [(s, t) for s, t in entries if s]


def terrain_swatch(look: TerrainStyle) -> list[Primitive]:
    """A terrain's fill and texture in a 10x6 mm box (the legend, the terrain chart)."""
    swatch: list[Primitive] = [Rect(0, 0, 10, 6, Style(fill=look.fill, stroke=GRID, width=0.25))]
    if look.texture:
        for x in (2.5, 7.5):
            swatch += texture_mark(look, x, 3.2, 2.4)
    return swatch


def hexside_styles(kind: str, feature: Feature | None = None) -> tuple[Style, ...]:
    """How a hexside of ``kind`` is stroked: the kind's look, with the ``color`` and ``line``
    the feature declares (if any) on its main stroke, so what the data says is drawn."""
    styles = HEXSIDE_STYLES.get(kind, DEFAULT_HEXSIDE)
    if feature is None or (feature.get("color") is None and feature.get("line") is None):
        return styles
    main = styles[0]
    ink = colour(feature, main.stroke or "#444444")
    line = feature.get("line")
    if line is not None and str(line) not in DASHES:
        raise BadInput(f"{feature.origin}: feature {feature.id!r}: line {line!r} is not one "
                       f"of {', '.join(DASHES)}")
    dash = DASHES[str(line)] if line is not None else main.dash
    return (replace(main, stroke=ink, dash=dash), *styles[1:])


def hexside_swatch(kind: str, feature: Feature | None = None) -> list[Primitive]:
    """A hexside kind's line across a 10x6 mm box (the legend, the terrain chart)."""
    return [Line(0, 3, 10, 3, s) for s in hexside_styles(kind, feature)]


def feature_swatch(feature: Feature, hex_map: HexMap) -> list[Primitive]:
    """A feature's look in a 10x6 mm box, as ``hex_map`` draws it (its symbol, its line, or
    its outline in its colour): the legend's and the terrain chart's swatch."""
    return _feature_swatch(feature, overlay_colours(hex_map).get(feature.id or ""))


def _feature_swatch(feature: Feature, ink: str | None) -> list[Primitive]:
    symbol = symbol_of(feature)
    if symbol:
        return point_symbol(symbol, 5, 3, 5.0)
    if feature.get("hexsides"):
        return hexside_swatch(feature.kind, feature)
    if feature.get("path"):
        return path_swatch(feature.kind, feature)
    if terrain_of(feature) or not ink:
        return []
    if feature.kind == "entry":
        ring: list[Primitive] = [Circle(5, 3, 2.6, Style(stroke=ink, width=1.0))]
        return ([Circle(5, 3, 2.6, Style(stroke="#333333", width=1.5))] + ring
                if ink == "#ffffff" else ring)
    line = str(feature.get("line") or "solid")
    fill = Style(fill=ink, stroke=None, opacity=0.16) if feature.kind in TINTED else None
    items: list[Primitive] = [Rect(0, 0, 10, 6, fill)] if fill else []
    return items + [Rect(0.5, 0.5, 9, 5, Style(stroke=ink, width=0.6, dash=DASHES[line]))]
