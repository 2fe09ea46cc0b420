"""Nimitz's own kit pages: the campaign map with the boxes beside its points, the
campaign display (turn track, storage boxes, Japanese tables), the battle sheet, counters
(front full strength, back damaged) and markers, a setup sheet per campaign year, and the
player log.

Everything is drawn from the game's YAML: the map from the ``campaign`` point map
(names, Japanese names, US land-aircraft capacity, Australian flags, routes), the
boxes from the ``campaign-boxes`` and ``port-return`` displays, the battle sheet from
the ``battle-sheet`` display and the ``battle-round`` / ``battle-plan-count`` tracks,
the tables from the ``japanese-orders`` (with the ``orders`` section),
``japanese-reinforcement`` and ``japanese-air`` tables, the setup sheets from the
``campaigns`` section, the ``setup`` records and the ``campaign-level`` /
``port-return`` tables, the player log from the ``player-log`` sheet and the
``linked-result`` table.
"""

from __future__ import annotations

import math
from dataclasses import replace

from warpress.components import aids, areamap, holds, kit, labels, setup_chart
from warpress.components.aids import text_lines
from warpress.components.counters import (
    Face,
    counter_name,
    counter_size,
    draw,
    face_of,
    family_word_size,
)
from warpress.components.fonts import text_width, wrap
from warpress.components.impose import (
    KEEP,
    LEGEND_GAP,
    OVERLAP,
    SEAM_CLEAR,
    Piece,
    SpatialIndex,
    plan_tiles,
    recording,
    seams,
    text_boxes,
    tile,
    tile_area,
    tile_count,
    whole_boxes,
)
from warpress.components.kit import KitPage, Options
from warpress.components.legend import legend_block
from warpress.components.marks import dagger, proofing, rule_ref
from warpress.components.page import Paper
from warpress.components.pieces import centred, fit_text
from warpress.components.primitives import (
    Circle,
    Group,
    Line,
    Page,
    Polygon,
    Primitive,
    Rect,
    Style,
    Text,
)
from warpress.components.registry import COUNTER_FACE
from warpress.components.style import declared_layout
from warpress.engine.errors import BadInput
from warpress.engine.model import (
    Box,
    Display,
    Game,
    Marker,
    Phase,
    Point,
    PointMap,
    Sheet,
    Track,
    Unit,
)

from . import CODE

MAP_ID = "campaign"
INK = "#222222"
GREY = "#666666"
SEA = "#e6f1fa"
ROUTE = Style(stroke="#6fb3e0", width=0.9)
#: The sides' colour names in the data (``color: blue`` / ``red``) as print colours.
NAMED_COLOURS = {"blue": "#a9c4ea", "red": "#eaa9a9", "ochre": "#e3c77a"}
DEEP = {"us": "#1f4e9a", "japan": "#b02020"}
#: One fill per kind of point, each its own hue (the legend tells them apart).
POINT_FILLS = {"island": "#bfe0a8", "territory": "#d6c8e8", "mainland": "#efe2bf",
               "continent": "#dcbf8a", "home-islands": "#f3c1c1"}
#: What a point's disc colour says, for the legend (every kind of POINT_FILLS).
POINT_KINDS = {"island": "island 島", "territory": "territory 領土",
               "mainland": "mainland (West Coast, East Asia) 本土", "continent": "continent 大陸",
               "home-islands": "Japan's home islands 本土"}
PORT_RETURN = "port-return"
HALO = Style(fill="#ffffff", stroke=None, opacity=0.85)
BOX_W = 34.0  # a box beside its point on the campaign map
CAMPAIGN_BOXES = "campaign-boxes"
BATTLE_SHEET = "battle-sheet"


# --- small helpers -----------------------------------------------------------------------


def side_fill(game: Game, side_id: str | None, tags: tuple[str, ...] = ()) -> str:
    """A side's print colour from its colour name in ``game.sides`` (Australian units
    ochre, 2.5.1); grey for no side."""
    if "australian" in tags:
        return NAMED_COLOURS["ochre"]
    for side in game.info.sides:
        if side.id == side_id:
            colour = side.color or ""
            return colour if colour.startswith("#") else NAMED_COLOURS.get(colour, "#dddddd")
    return "#e4e4e4"


def fitted(text: str, x: float, y: float, size: float, width: float, **kw) -> Text:
    """One left-aligned line shrunk to fit ``width``."""
    return Text(x, y, text, size=fit_text(text, size, width), **kw)


def rules(record) -> str:
    """``  [2.1, 8.2.1]`` or nothing (``marks.rule_ref``: a player's page the first two)."""
    ref = rule_ref(record.rule)
    return f"  {ref}" if ref else ""


def grid(x: float, y: float, widths: list[float], rows: list[list[str]], h: float,
         size: float = 2.6, head: bool = True, id: str | None = None,
         cls: str = "grid") -> tuple[Group, float]:
    """A table of framed cells (first row shaded when ``head``); the group and height."""
    items: list[Primitive] = []
    for r, row in enumerate(rows):
        cx = 0.0
        shade = head and r == 0
        style = Style(fill="#e8e8e8" if shade else "#ffffff", stroke="#777777", width=0.2)
        for text, w in zip(row, widths, strict=True):
            items.append(Rect(cx, r * h, w, h, style))
            items.append(Text(cx + 1.0, r * h + h * 0.7, text, size=fit_text(text, size, w - 1.6),
                              bold=shade))
            cx += w
    return Group(tuple(items), dx=x, dy=y, id=id, cls=cls), len(rows) * h


def labelled_box(box: Box, x: float, y: float, w: float, h: float, fill: str = "#ffffff",
                 prefix: str = "box") -> Group:
    """A display box drawn where it belongs: name, Japanese name, what it holds."""
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill=fill, stroke="#333333", width=0.35),
                                   r=1.5, id=f"{prefix}-{box.id}-area",
                                   cls=holds.cls("box", box.kind))]
    name = f"{box.name or box.id}{dagger(box.is_assumed)}"
    line_y = 1.0
    for line in wrap(name, 2.8, w - 3)[:2]:
        line_y += 3.0
        items.append(fitted(line, 1.5, line_y, 2.8, w - 3, bold=True))
    if box.name_ja:
        items.append(fitted(box.name_ja, 1.5, line_y + 3.6, 2.6, w - 3))
    info = []
    if box.accepts:
        info.append(", ".join(box.accepts) + " only")
    if box.capacity is not None:
        info.append(f"capacity {box.capacity}")
    info.append(rule_ref(box.rule))  # a player's page: the first two
    text = " · ".join(i for i in info if i)
    items.append(fitted(text, 1.5, h - 1.6, 2.0, w - 3, fill=GREY))
    return Group(tuple(items), dx=x, dy=y, id=f"{prefix}-{box.id}",
                 cls=f"box {box.kind or ''}".strip())


def arrow(x1: float, y1: float, x2: float, y2: float, colour: str = "#b03030",
          id: str | None = None) -> Group:
    """A straight arrow with its head at (x2, y2)."""
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    base = (x2 - ux * 2.4, y2 - uy * 2.4)
    wing = (-uy * 1.1, ux * 1.1)
    style = Style(stroke=colour, width=0.5)
    return Group((Line(x1, y1, base[0], base[1], style),
                  Polygon(((x2, y2), (base[0] + wing[0], base[1] + wing[1]),
                           (base[0] - wing[0], base[1] - wing[1])),
                          Style(fill=colour, stroke=None))), id=id, cls="arrow")


def landscape_page(part: str, options: Options, items, id: str) -> KitPage:
    """A landscape page of the chosen paper."""
    p = options.paper.landscape
    return KitPage(part, Page(p.width, p.height, tuple(items), id=id))


def portrait_page(part: str, options: Options, items, id: str) -> KitPage:
    """A portrait page of the chosen paper."""
    p = options.paper.portrait
    return KitPage(part, Page(p.width, p.height, tuple(items), id=id))


# --- campaign map ------------------------------------------------------------------------


def map_area(point_map: PointMap, scale: float = 1.0) -> tuple[float, float]:
    """The map's size in mm, from the data, at ``scale`` (the kit draws the Pacific as small
    as its points still hold their stacks: ``kit_scale``)."""
    return (point_map.width_mm or 560.0) * scale, (point_map.height_mm or 400.0) * scale


LAND = "#e9e1c8"  # the coastlines' land
LAND_EDGE = "#9c8f6a"


def frame_of(game: Game) -> dict[str, float]:
    """The map's frame in degrees (west, east, north, south) from the coastlines data."""
    record = game.section("coastlines")[0]
    return {k: float(record.get(k)) for k in ("west", "east", "north", "south")}


def projector(game: Game, point_map: PointMap, scale: float = 1.0):
    """(lon, lat) -> (x, y) mm on the map: the frame's degrees spread over the map's width
    and height (an equirectangular projection; east of 180 counted on)."""
    w, h = map_area(point_map, scale)
    f = frame_of(game)

    def project(lon: float, lat: float) -> tuple[float, float]:
        return ((lon - f["west"]) / (f["east"] - f["west"]) * w,
                (f["north"] - lat) / (f["north"] - f["south"]) * h)

    return project


def point_positions(game: Game, point_map: PointMap, scale: float = 1.0
                    ) -> dict[str, tuple[float, float]]:
    """Every point's centre in mm: its real place (``lon``, ``lat``) projected; a point
    without one at its ``x``, ``y`` (0..1 across the map)."""
    w, h = map_area(point_map, scale)
    project = projector(game, point_map, scale)
    out = {}
    for p in point_map.points:
        lon, lat = p.extra.get("lon"), p.extra.get("lat")
        if lon is not None and lat is not None:
            out[p.id] = project(float(lon), float(lat))
        else:
            out[p.id] = ((p.x if p.x is not None else 0.5) * w,
                         (p.y if p.y is not None else 0.5) * h)
    return out


def coastline_items(game: Game, point_map: PointMap, scale: float = 1.0) -> list[Primitive]:
    """The land of the Pacific (map.yaml, coastlines), projected, clipped to the map."""
    w, h = map_area(point_map, scale)
    project = projector(game, point_map, scale)
    style = Style(fill=LAND, stroke=LAND_EDGE, width=0.3)
    rings = [tuple(project(lon, lat) for lon, lat in areamap.parse_ring(text))
             for record in game.section("coastlines") for text in record.get("rings") or ()]
    return [Group(tuple(Polygon(r, style) for r in rings), clip=(0, 0, w, h),
                  id="coastlines", cls="coastlines")]


def objective_years(game: Game) -> dict[str, list[str]]:
    """For each point, the campaign years in which it is an objective."""
    out: dict[str, list[str]] = {}
    for campaign in game.section("campaigns"):
        for point_id in campaign.get("objectives") or ():
            out.setdefault(str(point_id), []).append(campaign.id)
    return out


def point_group(game: Game, point: Point, x: float, y: float) -> Group:
    """A point: a disc in its kind's colour with the US land-aircraft capacity and the
    Australian flag (its name is placed apart, by ``point_labels``)."""
    r = disc_radius(point)
    fill = POINT_FILLS.get(point.kind or "", "#d9e8c4")
    items: list[Primitive] = [Circle(0, 0, r, Style(fill=fill, stroke="#2f6b2f", width=0.5),
                                     cls="point-disc")]
    items.extend(capacity_badge(point, r))
    if "australia" in point.flags:
        items.extend(australia_flag(-r - 1.5, -r - 2.5, point.field_assumed("flags")))
    return Group(tuple(items), dx=x, dy=y, id=f"point-{point.id}",
                 cls=f"point {point.kind or ''} whole".replace("  ", " "))  # no seam through it


def disc_radius(point: Point) -> float:
    return 9.0 if point.kind in ("mainland", "continent", "home-islands") else 7.0


def disc_box(point: Point, x: float, y: float) -> labels.Box:
    """What a point's disc, capacity and flag cover."""
    r = disc_radius(point)
    return labels.Box(x - r - 2.2, y - r - 4.6, x + r + 0.6, y + r + 0.6)


def stack_spots(x: float, y: float, side: float) -> list[tuple[float, float]]:
    """Top-left corners of a ``side`` mm square that covers the point at (x, y): centred on
    it, then moved off it in the eight directions, as far as still covering it."""
    half, out = side / 2, []
    for k in (0.0, 0.25, 0.5, 0.75):
        d = half * k
        out += [(x - half + dx, y - half + dy) for dx, dy in (
            (0, 0), (d, 0), (-d, 0), (0, d), (0, -d), (d, d), (-d, d), (d, -d), (-d, -d))]
    return list(dict.fromkeys(out))


def stack_boxes(game: Game, point_map: PointMap, pos, space: MapSpace) -> list[labels.Box]:
    """Where the counters on each point go: a counter and the room round it
    (``holds.least``) over the point, clear of every other point's disc and stack; taken
    from ``space`` so no label or box covers it. BadInput when a point has no such room."""
    side = holds.least(game)
    discs = {p.id: disc_box(p, *pos[p.id]) for p in point_map.points}
    placed: list[labels.Box] = []
    for p in point_map.points:
        others = [b for pid, b in discs.items() if pid != p.id] + placed
        for left, top in stack_spots(*pos[p.id], side):
            box = labels.Box(left, top, left + side, top + side)
            if box.inside(space.frame) and not any(box.overlaps(o, 0.0) for o in others):
                placed.append(box)
                break
        else:
            raise BadInput(f"nimitz campaign map: no room for a stack of counters "
                           f"({side:g} mm) on {p.name or p.id}")
    space.taken += [*discs.values(), *placed]
    return placed


#: The least share of their full size the points' names take on a map drawn smaller (the
#: objective years, the smallest, then print at 5 pt).
LABEL_LEAST = 0.75


def label_lines(point: Point, years: list[str], scale: float = 1.0) -> list[Text]:
    """A point's name, Japanese name and objective years, as lines at the origin; on a
    map drawn at ``scale`` their size follows it down to ``LABEL_LEAST``."""
    k = max(scale, LABEL_LEAST)
    lines = [Text(0, 0, point.name or point.id, size=3.4 * k, anchor="middle", bold=True,
                  cls="point-name map-label")]
    if point.name_ja:
        lines.append(Text(0, 0, point.name_ja, size=3.0 * k, anchor="middle",
                          cls="point-name-ja map-label"))
    if years:
        text = "objective " + " ".join(f"'{y[2:]}" for y in years)
        lines.append(Text(0, 0, text, size=2.4 * k, anchor="middle", fill="#7a3b00",
                          cls="objective-years map-label"))
    return lines


def stacked(lines: list[Text], cx: float, top: float) -> tuple[list[Text], labels.Box]:
    """``lines`` centred on ``cx`` one under the other from ``top``, and their box."""
    out, y = [], top
    for line in lines:
        y += line.size * labels.ASCENT
        out.append(replace(line, x=cx, y=y))
        y += line.size * 0.45
    return out, labels.union(labels.text_box(t) for t in out)


def candidates(x: float, y: float, r: float, w: float, h: float, reach: float = 30.0,
               steps: int = 6) -> list[tuple[float, float]]:
    """Top-left corners for a w x h block round a disc of radius r at (x, y): under it,
    over it, right, left and the four diagonals, at growing distance."""
    out = []
    for k in range(steps + 1):
        d = 1.0 + reach * k / steps
        out += [(x - w / 2, y + r + d), (x - w / 2, y - r - d - h), (x + r + d, y - h / 2),
                (x - r - d - w, y - h / 2), (x + r * 0.7 + d, y + r * 0.7 + d),
                (x - r * 0.7 - d - w, y + r * 0.7 + d), (x + r * 0.7 + d, y - r * 0.7 - d - h),
                (x - r * 0.7 - d - w, y - r * 0.7 - d - h)]
    return out


class MapSpace:
    """What is taken on the campaign map: boxes no label may cover (discs, labels, boxes)
    and the routes a label or box should not sit on."""

    def __init__(self, frame: labels.Box, segments):
        self.frame, self.segments = frame, list(segments)
        self.taken: list[labels.Box] = []

    def fits(self, box: labels.Box, strict: bool) -> bool:
        if not box.inside(self.frame) or any(box.overlaps(t, 0.8) for t in self.taken):
            return False
        return not strict or not any(labels.segment_hits(box, p, q) for p, q in self.segments)

    def first(self, spots, w: float, h: float, what: str, check=lambda box: True,
              clear: int | None = None) -> tuple[float, float]:
        """The first of ``spots`` (top-left corners) where a w x h box fits: of the first
        ``clear`` (all by default) one off every route, else any."""
        for strict, tried in ((True, spots[:clear]), (False, spots)):
            for x, y in tried:
                box = labels.Box(x, y, x + w, y + h)
                if self.fits(box, strict) and check(box):
                    self.taken.append(box)
                    return x, y
        raise BadInput(f"nimitz campaign map: {what} fits nowhere inside the map frame "
                       f"without covering a label, a point or another box")


#: The spots a point's label may take: the first three rings of ``candidates`` (up to
#: 11 mm from its disc), so a name is read with its point; the first two rings are tried
#: off the routes first.
NEAR_LABEL, CLEAR_LABEL = 24, 16


def point_labels(point_map: PointMap, pos, years, space: MapSpace, scale: float = 1.0
                 ) -> list[Primitive]:
    """Each point's name block beside its disc, clear of routes where it can be, always
    clear of other labels, discs and boxes, on a white halo."""
    out: list[Primitive] = []
    for point in point_map.points:
        x, y = pos[point.id]
        lines, box = stacked(label_lines(point, years.get(point.id, []), scale), 0, 0)
        w, h = box.w + 1.2, box.h + 0.8
        spots = candidates(x, y, disc_radius(point), w, h)[:NEAR_LABEL]
        left, top = space.first(spots, w, h, f"the label of {point.name or point.id}",
                                clear=CLEAR_LABEL)
        placed, _ = stacked(lines, left + w / 2, top + 0.4)
        out.append(Group((Rect(left, top, w, h, HALO, r=1.0), *placed),
                         id=f"label-{point.id}", cls="point-label"))
    return out


def capacity_badge(point: Point, r: float) -> list[Primitive]:
    """The US land-aircraft capacity in a white box at the disc's centre."""
    cap = point.capacity
    text = "∞" if cap == "unlimited" else ("×" if cap is None else str(cap))
    mark = dagger(point.field_assumed("capacity"))
    w = 9.0 if not mark else 11.0
    return [Rect(-w / 2, -3.2, w, 6.4, Style(fill="#ffffff", stroke="#1f4e9a", width=0.4),
                 r=1, cls="capacity"),
            Text(0, 1.4, text + mark, size=3.6, anchor="middle", bold=True, fill="#1f4e9a",
                 cls="capacity-value")]


def australia_flag(x: float, y: float, assumed: bool) -> list[Primitive]:
    """A small ochre pennant marked AUS."""
    return [Line(x, y, x, y + 6, Style(stroke="#555555", width=0.3)),
            Polygon(((x, y), (x + 6, y + 1.6), (x, y + 3.2)),
                    Style(fill=NAMED_COLOURS["ochre"], stroke="#7a5a00", width=0.2),
                    cls="australia-flag"),
            Text(x + 0.5, y - 0.6, "AUS" + dagger(assumed), size=1.8, fill="#7a5a00")]


def route_items(point_map: PointMap, pos: dict[str, tuple[float, float]]) -> list[Primitive]:
    """The light-blue routes between points."""
    items: list[Primitive] = []
    for route in point_map.routes:
        (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
        items.append(Line(x1, y1, x2, y2, ROUTE, id=f"route-{route.a}-{route.b}",
                          cls="route"))
    return items


def port_return_items(game: Game, pos, space: MapSpace) -> list[Primitive]:
    """The return-to-port boxes near the Hawaiian Islands, the arrows between them, and
    one arrow from the first box to the islands' disc that crosses no label (11.3)."""
    display = game.record("displays", PORT_RETURN, Display)
    hx, hy = pos["hawaiian-islands"]
    n, gap = len(display.boxes), 6.0
    w, h = BOX_W, math.ceil(holds.least(game)) + 4
    total, caption = n * w + (n - 1) * gap, 5.0
    r = 7.0

    last = display.arrows[-1].to if display.arrows else display.boxes[0].id
    at = (n - 1 - [b.id for b in display.boxes].index(last)) * (w + gap)

    def last_box(box: labels.Box) -> labels.Box:
        return labels.Box(box.x0 + at, box.y0, box.x0 + at + w, box.y0 + h)

    def arrow_clear(box: labels.Box) -> bool:
        link = _link(last_box(box), hx, hy, r)
        tip = labels.Box(*link[1], *link[1])
        return not any(labels.segment_hits(t, *link) for t in space.taken
                       if not t.overlaps(tip, 0.01)) and not any(
            _crosses(link, seg) for seg in space.segments)

    left, top = space.first(candidates(hx, hy, r, total, h + caption, reach=90, steps=18),
                            total, h + caption, "the return-to-port boxes", arrow_clear)
    items: list[Primitive] = [fitted(f"{display.label}{rules(display)}", left, top + h + 4,
                                     2.8, total, bold=True)]
    lefts = {}
    for i, box in enumerate(display.boxes):
        x = left + (n - 1 - i) * (w + gap)
        items.append(labelled_box(box, x, top, w, h, "#f4f0ff", prefix="map-box"))
        lefts[box.id] = x
    for a in display.arrows:
        items.append(arrow(lefts[a.from_] - 0.5, top + h / 2, lefts[a.to] + w + 0.5,
                           top + h / 2, id=f"arrow-{a.from_}-{a.to}"))
    start, end = _link(last_box(labels.Box(left, top, left + total, top + h)), hx, hy, r)
    items.append(arrow(*start, *end, id="arrow-port-return-hawaii"))
    space.segments.append((start, end))
    return items


def _crosses(a, b) -> bool:
    """True when segments ``a`` and ``b`` cross (not merely touch at an end)."""
    (p1, p2), (p3, p4) = a, b

    def side(p, q, r) -> float:
        return (q[0] - p[0]) * (r[1] - p[1]) - (q[1] - p[1]) * (r[0] - p[0])

    d1, d2 = side(p3, p4, p1), side(p3, p4, p2)
    d3, d4 = side(p1, p2, p3), side(p1, p2, p4)
    return d1 * d2 < 0 and d3 * d4 < 0


def _link(box: labels.Box, x: float, y: float, r: float):
    """From the middle of the side of ``box`` nearest the disc at (x, y) to the disc's rim."""
    sx = min(max(x, box.x0 + 3), box.x1 - 3)
    sy = box.y0 if y < box.y0 else box.y1 if y > box.y1 else (box.y0 + box.y1) / 2
    if box.y0 <= y <= box.y1:
        sx = box.x0 if x < box.x0 else box.x1
    d = math.hypot(sx - x, sy - y) or 1.0
    return (sx, sy), (x + (sx - x) * (r + 1.2) / d, y + (sy - y) * (r + 1.2) / d)


def mission_items(game: Game, pos, space: MapSpace) -> list[Primitive]:
    """The BW strategic-bombing box beside the Marianas and the Japan-invasion box beside
    Japan, each where it covers no label, point or route."""
    display = game.record("displays", CAMPAIGN_BOXES, Display)
    h = math.ceil(holds.least(game)) + 4
    items: list[Primitive] = []
    for box_id, point_id, fill in (("bw-strategic-bombing", "mariana-islands", "#fff7d6"),
                                   ("japan-invasion", "japan", "#fde3e3")):
        x, y = pos[point_id]
        left, top = space.first(candidates(x, y, 9.0, 50, h, reach=60, steps=12), 50, h,
                                f"the box {box_id}")
        items.append(labelled_box(display.box(box_id), left, top, 50, h, fill,
                                  prefix="map-box"))
    return items


def map_legend(game: Game):
    """What the symbols mean, as a layout for the tiler (placed under the map, whole on one
    tile): the width it gets -> (items, height)."""
    point_map = game.record("point_maps", MAP_ID, PointMap)
    all_assumed = all(r.is_assumed for r in point_map.routes)
    badge = Style(fill="#ffffff", stroke="#1f4e9a", width=0.4)
    route = "route ルート" + (f" ({dagger(True)} all routes and positions assumed)"
                               if all_assumed and proofing() else "")
    entries = [
        ([Rect(0.5, -0.2, 9, 6.4, badge, r=1),
          Text(5, 4.4, "6", size=3.6, anchor="middle", bold=True, fill="#1f4e9a")],
         "US land-aircraft capacity 陸上機収容力 (∞ unlimited, × US may not enter)"),
        (australia_flag(2.0, 1.0, False), "Australian flag (Australian units may go there)"),
        ([Text(5, 4.2, "'42", size=2.4, anchor="middle", fill="#7a3b00")],
         "objective in that campaign year 目標"),
        ([Line(0, 3, 10, 3, ROUTE)], route),
        ([Rect(0, 0, 10, 6, Style(fill=SEA, stroke="#888888", width=0.2))], "sea 海"),
        ([Rect(0, 0, 10, 6, Style(fill=LAND, stroke=LAND_EDGE, width=0.3))], "land 陸地"),
    ]
    for kind, words in POINT_KINDS.items():
        entries.append(([Circle(5, 3, 2.8, Style(fill=POINT_FILLS[kind], stroke="#2f6b2f",
                                                 width=0.5))], words))
    title = f"{game.info.name}: {point_map.label}{rules(point_map)}"
    credit = ("Coastlines: Natural Earth (public domain). North is at the top; each point "
              "at its real place.")
    return lambda width: legend_block(title, entries, width, subtitle=credit)


def campaign_map_drawing(game: Game, scale: float = 1.0
                         ) -> tuple[tuple[Primitive, ...], float, float]:
    """The whole campaign map: the Pacific with its points and routes and the boxes beside
    their points (the turn track, the storage boxes and the map's tables are a display
    sheet of their own: ``display_blocks``)."""
    items, width, height, _space = campaign_map_layout(game, scale)
    return items, width, height


def campaign_map_layout(game: Game, scale: float = 1.0, lanes: tuple[labels.Box, ...] = ()
                        ) -> tuple[tuple[Primitive, ...], float, float, MapSpace]:
    """``campaign_map_drawing`` and what it took of the map (discs, labels, boxes, routes),
    for whatever is drawn on it later (a session's counters). ``scale`` shrinks the
    geography only: discs, stacks, boxes and text keep their printed size; no label or box
    goes in ``lanes`` (where the tiles will meet: ``seam_lanes``); BadInput when a point has
    no room for its stack or a label or box fits nowhere."""
    point_map = game.record("point_maps", MAP_ID, PointMap)
    w, h = map_area(point_map, scale)
    pos = point_positions(game, point_map, scale)
    years = objective_years(game)
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill=SEA, stroke="#333333", width=0.5),
                                   cls="map-border"), *coastline_items(game, point_map, scale)]
    items.append(Group(tuple(route_items(point_map, pos)), cls="routes"))
    items.append(Group(tuple(point_group(game, p, *pos[p.id]) for p in point_map.points),
                       cls="points"))
    segments = [(pos[r.a], pos[r.b]) for r in point_map.routes]
    space = MapSpace(labels.Box(2, 2, w - 2, h - 2), segments)
    stack_boxes(game, point_map, pos, space)
    space.taken += lanes
    items.append(Group(tuple(port_return_items(game, pos, space)), cls="port-return"))
    items.append(Group(tuple(mission_items(game, pos, space)), cls="mission-boxes"))
    items.append(Group(tuple(point_labels(point_map, pos, years, space, scale)),
                       cls="point-labels"))
    return tuple(items), w, h, space


#: How far either side of a seam's clearance the lane where tiles meet reaches (mm).
LANE = 1.5


def seam_lanes(game: Game, scale: float, paper: Paper) -> tuple[labels.Box, ...]:
    """The lanes along the lines where the tiles of ``paper`` will meet on the map at
    ``scale``: on the fewest tiles, each seam as near its even share as it may be while it
    passes clear of every point (``impose.seams``); the layout keeps its labels and boxes
    out of them, so no seam cuts one. BadInput when no such seams exist."""
    point_map = game.record("point_maps", MAP_ID, PointMap)
    width, height = map_area(point_map, scale)
    pos = point_positions(game, point_map, scale)
    discs = [disc_box(p, *pos[p.id]) for p in point_map.points]
    plan = plan_tiles(width, height, paper)
    room_w, room_h = tile_area(plan.page)
    across = seams(plan.cols, width, room_w if plan.cols > 1 else width, OVERLAP,
                   [(d.x0, d.x1, KEEP) for d in discs])
    down = seams(plan.rows, height, room_h if plan.rows > 1 else height, OVERLAP,
                 [(d.y0, d.y1, KEEP) for d in discs])
    if across is None or down is None:
        raise BadInput(f"nimitz campaign map: no seam passes clear of the points at scale "
                       f"{scale}")
    half = SEAM_CLEAR + LANE
    return (*(labels.Box(x - half, -1.0, x + half, height + 1.0) for x in across),
            *(labels.Box(-1.0, y - half, width + 1.0, y + half) for y in down))


#: The scales the kit may draw the campaign map's geography at, largest first: the
#: Pacific is sparse (about twenty points), so it is drawn as small as the sheets need
#: while every point still holds a stack of counters and every label and box fits.
SCALES = tuple(round(1.0 - 0.025 * k, 3) for k in range(25))


#: The widths the legend may take inside the map (mm), widest first: it goes in the
#: emptiest corner of the Pacific, off every label, point, box and route.
LEGEND_WIDTHS = (180.0, 160.0, 140.0, 125.0)
#: The step of the spots the legend is tried at (mm).
LEGEND_STEP = 4.0


def kit_drawing(game: Game, scale: float, paper: Paper
                ) -> tuple[tuple[Primitive, ...], float, float]:
    """The campaign map at ``scale`` as the tiles of ``paper`` print it: no label or box
    where they meet (``seam_lanes``), its legend inside the frame, in open sea (the
    south-east corner first) clear of every label, point, box and route, so that the map
    alone sets how many tiles it takes; BadInput when the legend fits nowhere."""
    items, width, height, space = campaign_map_layout(game, scale,
                                                      seam_lanes(game, scale, paper))
    legend = map_legend(game)

    def off_routes(box: labels.Box) -> bool:
        return not any(labels.segment_hits(box, p, q) for p, q in space.segments)

    for lw in LEGEND_WIDTHS:
        drawn, lh = legend(min(lw, width - 2 * LEGEND_GAP))
        right, bottom = width - LEGEND_GAP - lw, height - LEGEND_GAP - lh
        spots = sorted(((right - i * LEGEND_STEP, bottom - j * LEGEND_STEP)
                        for i in range(int(right // LEGEND_STEP) + 1)
                        for j in range(int(bottom // LEGEND_STEP) + 1)),
                       key=lambda xy: (right - xy[0]) + (bottom - xy[1]))
        try:
            x, y = space.first(spots, lw, lh, "the legend", off_routes, clear=0)
        except BadInput:
            continue
        group = Group(tuple(drawn), dx=x, dy=y, id=f"{MAP_ID}-legend", cls="map-legend")
        return (*items, group), width, height
    raise BadInput("nimitz campaign map: the legend fits nowhere in open sea at scale "
                   f"{scale}")


def kit_scale(game: Game, paper: Paper) -> float:
    """The scale the kit draws the campaign map at on ``paper``: of the ``SCALES`` at which
    its stacks, labels, boxes and legend fit and no seam cuts a text, a point or a box,
    the one on the fewest tiles, and of those the largest Pacific (else the largest that
    fits)."""
    w, h = map_area(game.record("point_maps", MAP_ID, PointMap))
    best: tuple[int, float] | None = None
    fallback = None
    for s in SCALES:  # largest first
        if best is not None and plan_tiles(w * s, h * s, paper).count >= best[0]:
            continue  # the sizes alone need as many tiles as the best: no fewer here
        try:
            drawing, width, height = kit_drawing(game, s, paper)
        except BadInput:
            continue  # a stack, a label, a box or the legend has no room at this scale
        fallback = fallback or s
        count = tile_count(drawing, width, height, paper)
        if (best is None or count < best[0]) and not seams_cut(drawing, width, height,
                                                                    paper):
            best = count, s
    if fallback is None:
        raise BadInput("nimitz campaign map: its points, labels and boxes fit at no scale")
    return best[1] if best is not None else fallback


def seams_cut(drawing: tuple[Primitive, ...], width: float, height: float,
                   paper: Paper) -> bool:
    """True when a seam of the tiles ``impose.tile`` cuts the drawing into runs through a
    line of text (a name, a caption, the legend) or through what it keeps whole where it
    can (a point's disc, a box)."""
    with recording() as seen:
        tile(drawing, width, height, paper)
    cut = seen.drawings[-1]
    kept = [box for box, weight in whole_boxes(drawing, SpatialIndex(drawing))
            if weight >= KEEP]
    return any(box[axis] < at < box[axis + 2]
               for box in [*kept, *(box for box, _text in text_boxes(drawing))]
               for axis, seams in ((0, cut.seams_x), (1, cut.seams_y)) for at in seams)


# --- the campaign display: turn track, boxes, tables ---------------------------------------

#: The heading of the display sheet that lies beside the campaign map.
DISPLAY_TITLE = "Campaign display キャンペーン表示 (beside the campaign map)"


def display_blocks(game: Game, width: float) -> list[aids.Block]:
    """The turn track, the storage boxes and the two Japanese tables of the campaign map,
    as blocks a sheet of play aids flows (the map itself keeps only the Pacific and the
    boxes beside their points, so it prints on fewer tiles)."""
    parts = [turn_track(game, width), storage_boxes(game, width), order_table(game, width),
             reinforcement_table(game, width)]  # aircraft movement: on the battle sheet
    heading = replace(aids.heading(DISPLAY_TITLE, width, 5.0), whole=True)
    return [heading, *(aids.Block((group,), height + 3, cls=group.cls or "block")
                       for group, height in parts)]


def turn_track(game: Game, width: float) -> tuple[Group, float]:
    """The campaign turn record track: one box per turn, Japanese labels."""
    track = game.record("tracks", "campaign-turn", Track)
    values = list(track.values)
    box, tall = width / len(values), math.ceil(holds.least(game)) + 2
    holds.check(game, box, tall, "campaign turn track box")
    items: list[Primitive] = [fitted(f"{track.label}{dagger(track.field_assumed('values'))}"
                                     f"{rules(track)}", 0, 3.2, 3.2, width, bold=True)]
    for i, value in enumerate(values):
        start = str(value) == str(track.start)
        style = Style(fill="#fff3c4" if start else "#ffffff", stroke="#333333", width=0.35)
        items.append(Rect(i * box, 5, box, tall, style, id=f"track-campaign-turn-{value}",
                          cls=holds.cls("track-box")))
        label = track.labels.get(str(value), str(value))
        first, _, rest = label.partition(" ")
        items.append(centred(first, i * box + box / 2, 12, 3.6, box - 2, bold=True))
        items.append(centred(str(value), i * box + box / 2, 16, 2.2, box - 2, fill=GREY))
        if rest:
            items.append(centred(rest, i * box + box / 2, 19.5, 2.0, box - 2, fill="#b02020"))
    return Group(tuple(items), id="campaign-turn-track", cls="track"), 6 + tall


#: The least width of a storage box on the display sheet (mm): its name on two lines, two
#: counters side by side.
BOX_LEAST_W = 44.0


def storage_boxes(game: Game, width: float) -> tuple[Group, float]:
    """The campaign map's storage boxes (not the ones drawn beside their points)."""
    display = game.record("displays", CAMPAIGN_BOXES, Display)
    beside = {"bw-strategic-bombing", "japan-invasion", "japanese-order-table"}
    boxes = [b for b in display.boxes if b.id not in beside]
    gap, bh = 3.0, 30.0
    cols = max(2, int((width + gap) // (BOX_LEAST_W + gap)))
    bw = (width - gap * (cols - 1)) / cols
    items: list[Primitive] = [fitted(f"{display.label}{rules(display)}", 0, 3.4, 3.4, width,
                                     bold=True)]
    for i, box in enumerate(boxes):
        r, c = divmod(i, cols)
        fill = "#eef3fb" if box.id.startswith("us") else "#fbeeee"
        if box.kind in ("pool", "mission"):
            fill = "#fff7d6"
        items.append(labelled_box(box, c * (bw + gap), 6 + r * (bh + gap), bw, bh, fill,
                                  prefix="map-box"))
    rows = math.ceil(len(boxes) / cols)
    return Group(tuple(items), id="storage-boxes", cls="storage-boxes"), 6 + rows * (bh + gap)


def order_table(game: Game, width: float) -> tuple[Group, float]:
    """The Japanese order table: d10 -> order, with the units each order moves (9.2)."""
    table = game.table("japanese-orders")
    aids.first_print(table.id)  # printed here: no sheet prints it again
    orders = {o.id: o for o in game.section("orders")}
    body = []
    for row in table.rows:
        order = orders[str(table.result(row)["order"])]
        body.append([str(table.conditions(row)["roll"]),
                     f"{order.name} {order.name_ja or ''}{dagger(row.is_assumed)}",
                     str(order.get("ships")), str(order.get("infantry")),
                     str(order.get("land_air"))])
    # two faces of one order (Standby on 1 and 2) print as one row "1–2"
    rows = [["d10", "Order 命令", "ships 艦船", "inf. 歩兵", "land air 陸上機"],
            *aids.merged_runs(body, 0)]
    widths = [12.0, width - 12 - 3 * 22, 22.0, 22.0, 22.0]
    title = fitted(f"{table.label}{rules(table)}", 0, 3.4, 3.4, width,
                   bold=True)
    body, h = grid(0, 5, widths, rows, 5.2, 2.8)
    note, nh = text_lines("Numbers are the most units taken from the tops of the stacks at "
                         "the point; an order that cannot be executed or moves nothing is "
                         "Standby (9.1).", 0, 5 + h, 2.3, width, fill=GREY)
    return Group((title, body, *note), id="table-japanese-orders", cls="map-table"), 5 + h + nh


def reinforcement_table(game: Game, width: float) -> tuple[Group, float]:
    """The Japanese reinforcement table with its modifiers (11.1)."""
    table = game.table("japanese-reinforcement")
    aids.first_print(table.id)  # printed here: no sheet prints it again
    rows = [["modified d10", "ships 艦船", "infantry 歩兵", "land aircraft 陸上機"]]
    for row in table.rows:
        result = table.result(row)
        mark = dagger(row.is_assumed)
        rows.append([aids.number_text(str(table.conditions(row)["roll"])) + mark,
                     str(result["ships"]),
                     str(result["infantry"]), str(result["land_air"])])
    widths = [width - 3 * 40, 40.0, 40.0, 40.0]
    title = fitted(f"{table.label}{rules(table)}", 0, 3.4, 3.4, width,
                   bold=True)
    body, h = grid(0, 5, widths, rows, 5.2, 2.8)
    items: list[Primitive] = [title, body]
    y = 5 + h
    for modifier in table.modifiers:
        line, lh = text_lines(f"• {modifier.text}", 0, y, 2.4, width)
        items.extend(line)
        y += lh
    return Group(tuple(items), id="table-japanese-reinforcement", cls="map-table"), y


def air_table(game: Game, width: float) -> tuple[Group, float]:
    """Japanese aircraft movement: d10 -> area and position number (10.9.1)."""
    table = game.table("japanese-air")
    aids.first_print(table.id)  # printed here (the battle sheet): no sheet prints it again
    rows = [["d10", "destination 移動先", "position"]]
    for row in table.rows:
        result = table.result(row)
        area = str(result["area"])  # the area's name as the sheet prints it, not "move to"
        rows.append([aids.number_text(str(table.conditions(row)["roll"])) + dagger(row.is_assumed),
                     table.labels.get(area, f"{row.name} {row.name_ja or ''}"),
                     str(result["position"])])
    widths = [13.0, width - 31, 18.0]
    title, th = text_lines(f"{table.label}{rules(table)}", 0, 0, HEAD, width, bold=True)
    body, h = grid(0, th + 1, widths, rows, 5.2, 2.8)
    note, nh = text_lines(table.text or "", 0, th + 1 + h, 2.3, width, fill=GREY)
    return (Group((*title, body, *note), id="table-japanese-air", cls="map-table"),
            th + 1 + h + nh)


# --- battle sheet --------------------------------------------------------------------------


def area_group(box: Box, x: float, y: float, w: float, h: float, fill: str) -> Group:
    """A battle-sheet area: its position number (the aircraft-movement roll) and name."""
    number = str(box.group or "")
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill=fill, stroke="#333333", width=0.5),
                                   r=2),
                              Circle(7, 7, 4.6, Style(fill="#ffffff", stroke="#333333",
                                                      width=0.4)),
                              Text(7, 8.8, number, size=5, anchor="middle", bold=True)]
    name = f"{box.name} {box.name_ja or ''}".strip()
    lines = [name] if text_width(name, 4.0) <= w - 16 else [box.name or "", box.name_ja or ""]
    for i, line in enumerate(lines):  # the Japanese name under the English when narrow
        items.append(fitted(line, 14, 6.2 + i * 4.6, 4.0, w - 16, bold=True))
    info = [rule_ref(box.rule)] if box.rule else []
    if box.accepts:
        info.insert(0, ", ".join(box.accepts) + " only")
    if info:
        items.append(fitted(" · ".join(info), 14, 10.2 + (len(lines) - 1) * 4.6, 2.2, w - 16,
                            fill=GREY))
    return Group(tuple(items), dx=x, dy=y, id=f"battle-{box.id}", cls=f"battle-area {box.kind}")


def island_group(display: Display, x: float, y: float, w: float, h: float) -> Group:
    """The island area with both sides' position, beach and airfield."""
    island = area_group(display.box("island"), 0, 0, w, h, "#d8ecc6")
    cw, ch = (w - 8) / 3, (h - 20) / 2
    items: list[Primitive] = [island]
    for r, side in enumerate(("japanese", "us")):
        fill = "#fbe3e3" if side == "japanese" else "#e3ecfb"
        for c, kind in enumerate(("position", "beach", "airfield")):
            box = display.box(f"{side}-{kind}")
            items.append(labelled_box(box, 3 + c * (cw + 1), 14 + r * (ch + 2), cw, ch, fill,
                                      prefix="battle"))
    return Group(tuple(items), dx=x, dy=y, id="battle-island-boxes", cls="island")


def battle_side_column(game: Game, display: Display, x: float, y: float, w: float,
                       h: float) -> list[Primitive]:
    """The round track, the battle-plan count box, the holding box, the two sides' bonus
    boxes side by side, and the aircraft-movement table, beside the areas; BadInput when
    they do not fit ``h``."""
    items: list[Primitive] = []
    bottom = y + h
    for track_id in ("battle-round", "battle-plan-count"):
        group, height = small_track(game, track_id, w)
        items.append(replace(group, dx=x, dy=y))
        y += height + 3
    bh = math.ceil(holds.least(game)) + 8  # a counter under the box's name
    items.append(labelled_box(display.box("carrier-aircraft-holding"), x, y, w, bh,
                              prefix="battle"))
    y += bh + 2
    half = (w - 2) / 2
    for i, (box_id, fill) in enumerate((("us-bonus-markers", "#e3ecfb"),
                                        ("japanese-bonus-drawn", "#fbe3e3"))):
        items.append(labelled_box(display.box(box_id), x + i * (half + 2), y, half, bh, fill,
                                  prefix="battle"))
    y += bh + 3
    group, height = air_table(game, w)
    items.append(replace(group, dx=x, dy=y))
    if y + height > bottom + 1e-6:
        raise BadInput(f"nimitz battle sheet: its side column is {y + height - bottom:.0f} mm "
                       f"taller than the page")
    return items


#: The battle sheet's headings, in mm (9 pt, as the sheets' table headings): wrapped, never
#: shrunk.
HEAD = 3.2
#: What a player needs to read a track of the battle sheet, under it.
TRACK_CAPTIONS = {"battle-round": "The marker starts on the rounds rolled (10.3) and counts "
                                  "down one box after each round; the battle ends after "
                                  "round 1 (10.22)."}


def small_track(game: Game, track_id: str, width: float) -> tuple[Group, float]:
    """A short track as a row of numbered boxes."""
    track = game.record("tracks", track_id, Track)
    values = list(track.values)
    per_row = max(1, min(len(values), int(width // holds.least(game))))
    box = width / per_row
    holds.check(game, box, box, f"track {track_id} box")
    title = f"{track.label}{dagger(track.field_assumed('values'))}{rules(track)}"
    head, top = text_lines(title, 0, 0, HEAD, width, bold=True)
    items: list[Primitive] = [*head]
    for i, value in enumerate(values):
        row, col = divmod(i, per_row)
        x, y = col * box, top + 0.5 + row * box
        items.append(Rect(x, y, box, box, Style(fill="#ffffff", stroke="#333333", width=0.35),
                          id=f"track-{track_id}-{value}", cls=holds.cls("track-box")))
        items.append(Text(x + box / 2, y + box * 0.62, str(value), size=7.0, anchor="middle",
                          bold=True))
        label = track.labels.get(str(value))
        if label:
            items.append(centred(label, x + box / 2, y + box - 1.2, 2.0, box - 1))
    rows = math.ceil(len(values) / per_row)
    y = top + 0.5 + rows * box
    caption = TRACK_CAPTIONS.get(track_id)
    if caption:
        lines, h = text_lines(caption, 0, y, 2.4, width)
        items.extend(lines)
        y += h
    return Group(tuple(items), id=f"track-{track_id}", cls="track"), y


#: The width of the battle sheet's side column (mm): the round track's six boxes on one row,
#: the headings and the aircraft-movement table at the sheet's text size.
SIDE_W = 108.0


def battle_sheet_page(game: Game, options: Options) -> KitPage:
    """The battle sheet: Japanese sea area, coastal area, island (positions, beaches,
    airfields) and US sea area, with the tracks and boxes used in a battle."""
    paper = options.paper.landscape
    x0, y0, w, h = paper.content()
    display = game.record("displays", BATTLE_SHEET, Display)
    title = f"{display.label}{rules(display)}"
    items: list[Primitive] = [fitted(title, x0, y0 + 5, 5, w, bold=True)]
    side_w = SIDE_W
    area_w = w - side_w - 4
    top = y0 + 8
    sea_h = (h - 8) * 0.24
    mid_h = h - 8 - 2 * sea_h - 4
    coastal_w = area_w * 0.28
    items.append(area_group(display.box("japanese-sea"), x0, top, area_w, sea_h, "#fbe3e3"))
    items.append(area_group(display.box("coastal"), x0, top + sea_h + 2, coastal_w, mid_h,
                            "#e6f1fa"))
    items.append(island_group(display, x0 + coastal_w + 2, top + sea_h + 2,
                              area_w - coastal_w - 2, mid_h))
    items.append(area_group(display.box("us-sea"), x0, top + sea_h + mid_h + 4, area_w, sea_h,
                            "#e3ecfb"))
    items.append(landing_note(display, x0 + 2, top + sea_h + mid_h - 6, coastal_w - 4))
    items.extend(battle_side_column(game, display, x0 + area_w + 4, top, side_w, h - 8))
    return KitPage("battle sheet", Page(paper.width, paper.height, tuple(items),
                                        id="battle-sheet"))


def box_name(display: Display, box_id: str) -> str:
    """A box's name for a player's page (the id as words if the display has no such box)."""
    box = next((b for b in display.boxes if b.id == box_id), None)
    return box.name if box is not None and box.name else box_id.replace("-", " ").capitalize()


def landing_note(display: Display, x: float, y: float, w: float) -> Group:
    """The ground-movement arrows of the sheet, in words, at the foot of the coastal area."""
    items: list[Primitive] = []
    lines = [f"{box_name(display, a.from_)} → {box_name(display, a.to)} "
             f"[{', '.join(a.rule) if isinstance(a.rule, tuple) else a.rule}]"
             for a in display.arrows]
    bottom = 0.0
    for line in reversed(lines):  # wrapped, never shrunk, stacked up from the foot
        wrapped = wrap(line, 2.3, w)
        for j, part in enumerate(reversed(wrapped)):
            items.append(Text(2.0 if j < len(wrapped) - 1 else 0.0, bottom - j * 2.9, part,
                              size=2.3, fill=GREY))
        bottom -= len(wrapped) * 2.9 + 0.4
    return Group(tuple(items), dx=x, dy=y, cls="landing-arrows")


# --- counters ------------------------------------------------------------------------------


def unit_face(game: Game, unit: Unit, s: float, damaged: bool) -> tuple[Primitive, ...]:
    """One side of a unit counter in the layout of the style in games/nimitz/game.yaml; the damaged
    side (2.5.2) is the same layout with a band and the damaged values (``damaged_values``)."""
    ground = side_fill(game, unit.side, unit.tags)
    what = f"counter-{unit.id}" + (" (damaged side)" if damaged else "")
    if not damaged:
        return draw(face_of(game, unit, ground=ground, size=s, what=what))
    face = face_of(game, unit, ground=ground, size=s, stats=damaged_values(game, unit),
                   reduced=True, what=what)
    return draw(face)


#: The constant that says which values a damaged side shows where the data gives none.
DAMAGED_SIDE = "damaged-side-values"


def damaged_values(game: Game, unit: Unit) -> dict:
    """The values a unit's damaged side shows (2.5.2): those its ``back`` gives (the 28th BG's
    anti-ship 1), and for the rest what the ``damaged-side-values`` constant says: ``front``,
    the full-strength values (the rules give no damaged values and damaged units still
    attack; an assumed value, listed in the kit)."""
    given = dict(unit.back) if isinstance(unit.back, dict) else {}
    rest = game.constant(DAMAGED_SIDE)
    if rest != "front":
        raise BadInput(f"{game.id}: constant {DAMAGED_SIDE!r}: value {rest!r} is not 'front' "
                       f"(the only damaged-side rule the kit knows)")
    return {**unit.stats, **given}


def unit_pieces(game: Game) -> list[Piece]:
    """Every unit counter, front full strength, back damaged."""
    pieces: list[Piece] = []
    for unit in game.units:
        s = counter_size(game, unit)
        front = unit_face(game, unit, s, False)
        back = unit_face(game, unit, s, True)
        for i in range(unit.count or 1):
            pieces.append(Piece(f"counter-{unit.id}-{i + 1}", s, s, front, back,
                                cls=f"counter unit {unit.id} {unit.side or ''}".strip()))
    return pieces


def bonus_costs(game: Game) -> dict[str, str]:
    """The BPP cost of each US battle-bonus marker, from the bonus-marker table."""
    table = game.table("bonus-marker")
    out = {}
    for row in table.rows:
        result = table.result(row)
        if result.get("marker") and result.get("cost") is not None:
            out[str(result["marker"])] = f"{result['cost']} BPP" + dagger(
                row.field_assumed("cost"))
    return out


def marker_face(game: Game, marker: Marker, s: float, note: str = "",
                colour: str | None = None) -> tuple[Primitive, ...]:
    """A marker face (marker layout): its word at its family's one size (``word_sizes``),
    the Japanese name under it, a note (a bonus marker's cost) in the bottom right corner."""
    face = marker_face_of(game, marker, s, note, colour)
    return draw(replace(face, word_size=word_sizes(game)[family(marker)]))


def marker_face_of(game: Game, marker: Marker, s: float, note: str = "",
                   colour: str | None = None) -> Face:
    """A marker's face with its word as large as the counter allows: the style's word, else
    its name without the 'US bonus:' prefix."""
    declared = declared_layout(game, marker)
    word = (declared.word if declared is not None else None) or counter_name(
        (marker.name or marker.id).split(": ", 1)[-1], marker=True)
    face = face_of(game, marker, ground=colour or side_fill(game, marker.side), size=s,
                   what=f"counter-{marker.id}", word=word,
                   corners={"bottom_right": note} if note else {})
    return replace(face, cls="counter-face marker")


#: The rule of the battle-bonus markers: one family, whose words print at one size; the
#: other markers of the game (2.9) are the other family.
BONUS_RULE = "2.9.6"


def family(marker: Marker) -> str:
    """The family a marker's word is sized with: ``battle bonus`` or ``marker``."""
    rule = marker.rule if isinstance(marker.rule, tuple) else (marker.rule,)
    return "battle bonus" if BONUS_RULE in rule else "marker"


_WORD_SIZES: dict[int, tuple[Game, dict[str, float]]] = {}


def word_sizes(game: Game) -> dict[str, float]:
    """Each family's word size (mm): the size its longest word takes alone
    (``counters.family_word_size``), read once per game."""
    known = _WORD_SIZES.get(id(game))
    if known is not None and known[0] is game:
        return known[1]
    costs = bonus_costs(game)
    faces: dict[str, list[Face]] = {}
    for marker in game.markers:
        note = costs.get(marker.id, "US-held" if marker.id == "objective" else "")
        faces.setdefault(family(marker), []).append(
            marker_face_of(game, marker, counter_size(game, marker), note))
    sizes = {name: family_word_size(members) for name, members in faces.items()}
    if len(_WORD_SIZES) > 8:
        _WORD_SIZES.clear()
    _WORD_SIZES[id(game)] = (game, sizes)
    return sizes


def marker_back(game: Game, marker: Marker, s: float,
                markers: dict[str, Marker]) -> tuple[Primitive, ...]:
    """The back of a marker: the other marker it carries (recon / moving), the objective's
    red side, or its colour."""
    back = marker.back
    if isinstance(back, str) and back in markers:
        return marker_face(game, markers[back], s)
    if marker.id == "objective":
        return marker_face(game, marker, s, "not US-held", NAMED_COLOURS["red"])
    colour = (NAMED_COLOURS.get(marker.color or "") or side_fill(game, marker.side))
    return (Rect(0, 0, s, s, Style(fill=colour, stroke=None), cls="counter-back blank"),)


def marker_pieces(game: Game) -> list[Piece]:
    """Every marker of 2.9 and both sides' battle-bonus markers; a marker printed as the
    back of another (recon / Japanese moving) is not printed twice."""
    markers = {m.id: m for m in game.markers}
    costs = bonus_costs(game)
    printed_as_back = set()
    pieces: list[Piece] = []
    for marker in game.markers:
        if marker.id in printed_as_back:
            continue
        if isinstance(marker.back, str) and marker.back in markers:
            printed_as_back.add(marker.back)
        s = counter_size(game, marker)
        note = costs.get(marker.id, "US-held" if marker.id == "objective" else "")
        colour = NAMED_COLOURS.get(marker.color or "")
        front = marker_face(game, marker, s, note, colour)
        back = marker_back(game, marker, s, markers)
        for i in range(marker.count or 1):
            pieces.append(Piece(f"counter-{marker.id}-{i + 1}", s, s, front, back,
                                cls=f"counter marker {marker.id}"))
    return pieces


@CODE.kit_part(COUNTER_FACE)
def counter_face(game: Game, record: Unit | Marker, _side: str | None, reduced: bool
                 ) -> tuple[Primitive, ...]:
    """One counter side as the counter sheets print it: a unit's front (damaged side when
    ``reduced``), a marker's front with its cost or note."""
    s = counter_size(game, record)
    if isinstance(record, Unit):
        return unit_face(game, record, s, reduced)
    if reduced:
        return marker_back(game, record, s, {m.id: m for m in game.markers})
    note = bonus_costs(game).get(record.id, "US-held" if record.id == "objective" else "")
    return marker_face(game, record, s, note, NAMED_COLOURS.get(record.color or ""))


def counter_pages(game: Game, options: Options) -> list[KitPage]:
    """Unit and marker counters imposed with their backs on the following pages."""
    pieces = unit_pieces(game) + marker_pieces(game)
    return kit.counter_sheet_pages(pieces, options)


# --- setup sheets and player log -------------------------------------------------------------


def block(items: list[Primitive], height: float, id: str | None = None,
          cls: str = "block") -> aids.Block:
    """Primitives drawn from (0, 0) as a flowable block."""
    return aids.Block(tuple(items), height, id=id, cls=cls)


def text_block(title: str, lines: list[str], width: float, id: str | None = None) -> aids.Block:
    """A bold title and wrapped bullet lines."""
    items: list[Primitive] = [fitted(title, 0, 4, 3.6, width, bold=True)]
    y = 5.5
    for line in lines:
        part, h = text_lines(f"• {line}", 2, y, 2.8, width - 2)
        items.extend(part)
        y += h
    return block(items, y + 1, id=id, cls="setup-section")


def point_name(game: Game, point_id: str) -> str:
    """A point's English and Japanese name (or a display box's: ``us-reinforcements`` ->
    US reinforcement box アメリカ軍増援ボックス)."""
    point_map = game.record("point_maps", MAP_ID, PointMap)
    for p in point_map.points:
        if p.id == point_id:
            return p.label
    for display in game.displays:
        for box in display.boxes:
            if box.id == point_id and box.name:
                return box.label
    return point_id


def campaign_facts(game: Game, campaign, width: float) -> aids.Block:
    """Turns, US points per turn and special rules of one campaign."""
    track = game.record("tracks", "campaign-turn", Track)
    labels = track.labels
    first, last = str(campaign.get("first_turn")), str(campaign.get("last_turn"))
    lines = [f"Turns: {labels.get(first, first)} → {labels.get(last, last).split(' ')[0]} "
             f"({campaign.get('turns')} turns){dagger(campaign.field_assumed('turns'))}",
             f"US points per turn: {campaign.get('us_rp_per_turn')} RP"
             f"{dagger(campaign.field_assumed('us_rp_per_turn'))} + "
             f"{campaign.get('us_sp_per_turn')} SP"
             f"{dagger(campaign.field_assumed('us_sp_per_turn'))} (6.1)"]
    return text_block(f"{campaign.label}{rules(campaign)}", lines, width,
                      id=f"setup-{campaign.id}-facts")


def objectives_block(game: Game, campaign, width: float) -> aids.Block:
    """The campaign's objective points, each with a box to tick."""
    objectives = [str(o) for o in campaign.get("objectives") or ()]
    title = (f"Objectives 目標 ({len(objectives)})"
             f"{dagger(campaign.field_assumed('objectives'))}")
    items: list[Primitive] = [fitted(title, 0, 4, 3.6, width, bold=True)]
    cols = 2
    col_w = width / cols
    for i, point_id in enumerate(objectives):
        r, c = divmod(i, cols)
        x, y = c * col_w, 6 + r * 6
        items.append(Rect(x, y, 4, 4, Style(stroke="#333333", width=0.3),
                          id=f"setup-{campaign.id}-objective-{point_id}", cls="objective-box"))
        items.append(fitted(point_name(game, point_id), x + 6, y + 3.4, 3.0, col_w - 8))
    rows = math.ceil(len(objectives) / cols)
    return block(items, 7 + rows * 6, id=f"setup-{campaign.id}-objectives", cls="objectives")


def levels_block(game: Game, campaign, width: float) -> aids.Block:
    """The victory levels of one campaign (campaign-level table) and its return-to-port
    boxes (port-return table)."""
    table = game.table("campaign-level")
    rows = [[aids.key_name(table, table.key("objectives")), aids.result_name(table, "level")]]
    body_rows = []
    for row in table.rows:
        if str(table.conditions(row)["campaign"]) == campaign.id:
            result = table.result(row)
            body_rows.append([aids.number_text(str(table.conditions(row)["objectives"])),
                              aids.value_text(table, result["level"]) + dagger(row.is_assumed)])
    rows += aids.merged_runs(body_rows, 0)  # 13-14 and 15 both "As historical": 13–15
    body, h = grid(0, 6, [width * 0.35, width * 0.65], rows, 5.4, 2.8)
    items: list[Primitive] = [fitted(f"{table.label}{rules(table)}", 0, 4, 3.6, width,
                                     bold=True), body]
    port = port_boxes(game, campaign.id)
    if port:
        items.append(fitted(f"Return-to-port boxes 帰港ボックス (11.3): {port}", 0, 6 + h + 5,
                            2.8, width))
        h += 6
    return block(items, 8 + h, id=f"setup-{campaign.id}-levels", cls="levels")


def port_boxes(game: Game, campaign_id: str) -> str:
    """The return-to-port boxes used in a campaign year."""
    table = game.table("port-return")
    display = game.record("displays", PORT_RETURN, Display)
    for row in table.rows:
        years = table.conditions(row)["campaign"]
        years = years if isinstance(years, tuple | list) else (years,)
        if campaign_id in [str(y) for y in years]:
            boxes = table.result(row)["boxes"]
            return ", ".join(display.box(str(b)).name or str(b) for b in boxes) + dagger(
                row.field_assumed("boxes"))
    return ""


#: What the placement of a year the rules give none for says of itself on the setup sheet.
STANDS_IN = ("This placement stands in for one the rules do not print for this year (2.3): "
             "the players may agree another before play.")


def placement_blocks(game: Game, campaign_id: str, width: float) -> list[aids.Block]:
    """The initial placement of a campaign as an order of battle: its counters by point and
    box (components/setup_chart.py); a year the rules give no placement for says so."""
    order = next((o for o in setup_chart.orders(game) if o.scenario == campaign_id), None)
    if order is not None:
        blocks = setup_chart.order_blocks(game, replace(order, title="Initial placement 初期配置"),
                                          width)
        records = [r for r in game.setup if str(r.scenario) == campaign_id]
        if records and all(r.is_assumed for r in records):  # said once, plainly
            blocks.insert(1, aids.paragraph(STANDS_IN, width, 2.6))
        return blocks
    return [text_block("Initial placement 初期配置", [
        "This sheet stands in for one the rules do not print (2.3): they give no initial "
        "placement, reinforcements or carrier complements for this year, so the players agree "
        "them before play; the points per turn, objectives and victory levels above are the "
        "kit's."], width, id=f"setup-{campaign_id}-placement")]


#: Sections of the setup sheets' data that the sheet prints otherwise: objectives and levels
#: in their blocks, the placement, the carrier aircraft and the points as the order of battle
#: and the campaign's facts.
PRINTED_SECTIONS = ("Objectives", "Victory levels", "Initial placement", "Carrier aircraft",
                    "US supply")


def setup_pages(game: Game, options: Options) -> list[KitPage]:
    """One setup sheet per campaign year."""
    paper = options.paper.portrait
    width = paper.content()[2]
    pages: list[KitPage] = []
    for campaign in game.section("campaigns"):
        sheet = game.record("sheets", f"setup-{campaign.id}", Sheet)
        rest = [text_block(section.title or "", list(section.lines), width)
                for section in sheet.sections if section.title not in PRINTED_SECTIONS]
        # the special rules with the year's facts, before its placement (a page of its own)
        blocks = [aids.heading(f"{sheet.label}{dagger(sheet.is_assumed)}{rules(sheet)}", width,
                               5.0),
                  campaign_facts(game, campaign, width), objectives_block(game, campaign, width),
                  levels_block(game, campaign, width), *rest,
                  *placement_blocks(game, campaign.id, width)]
        part = f"setup sheet {campaign.id}"
        for i, items in enumerate(aids.flow(blocks, paper.content()), 1):
            pages.append(KitPage(part, Page(paper.width, paper.height, items,
                                            id=f"setup-{campaign.id}-{i}")))
    every = [o for o in setup_chart.orders(game) if o.scenario == setup_chart.EVERY]
    blocks = [b for o in every for b in setup_chart.order_blocks(
        game, replace(o, title="Every campaign's set-up 全キャンペーン共通の配置"), width)]
    pages.extend(kit.flowed_pages(blocks, options.paper, "setup sheet every campaign"))
    return pages


def log_grid(game: Game, width: float) -> aids.Block:
    """Objectives held at the end of each turn, one row per campaign year, turns beyond a
    campaign's length crossed out."""
    campaigns = game.section("campaigns")
    turns = max(int(c.get("turns") or 0) for c in campaigns)
    head = ["Campaign year キャンペーン年", *[str(t) for t in range(1, turns + 1)],
            "Final result 最終結果", "Comment コメント"]
    widths = [38.0, *[13.0] * turns, 30.0]
    widths.append(width - sum(widths))
    items: list[Primitive] = []
    row_h = 12.0
    items.extend(_log_row(head, widths, 0, 8.0, "#e8e8e8", True))
    for i, campaign in enumerate(campaigns):
        n = int(campaign.get("turns") or 0)
        cells = [campaign.id, *["" if t <= n else "-" for t in range(1, turns + 1)], "", ""]
        y = 8 + i * row_h
        items.append(Group(tuple(_log_row(cells, widths, 0, row_h, "#ffffff", False)), dy=y,
                           id=f"log-{campaign.id}", cls="log-row"))
        for t in range(n + 1, turns + 1):
            x = sum(widths[:t])
            items.append(Rect(x, y, widths[t], row_h, Style(fill="#d0d0d0", stroke="#777777",
                                                            width=0.2), cls="log-unused"))
    return block(items, 8 + len(campaigns) * row_h, id="log-grid", cls="log")


def _log_row(cells, widths, y, h, fill, bold) -> list[Primitive]:
    items: list[Primitive] = []
    x = 0.0
    for text, w in zip(cells, widths, strict=True):
        items.append(Rect(x, y, w, h, Style(fill=fill, stroke="#555555", width=0.25)))
        if text:
            items.append(centred(text, x + w / 2, y + h / 2 + 1.0, 3.0, w - 2, bold=bold))
        x += w
    return items


def total_block(game: Game, width: float) -> aids.Block:
    """The linked-campaign total box and what the total means (12.6)."""
    table = game.table("linked-result")
    items: list[Primitive] = [fitted(f"Linked campaign total 保持目標数総計{rules(table)}", 0, 4,
                                     3.6, width, bold=True),
                              Rect(0, 6, 40, 14, Style(stroke="#333333", width=0.6),
                                   id="log-total", cls="log-total"),
                              Text(42, 12, "= sum of the four final results", size=2.8)]
    y = 24.0
    for row in table.rows:
        result = table.result(row)
        line = (f"{aids.number_text(str(table.conditions(row)['total']))}: {result['label']} "
                f"{result['label_ja']}"
                f"{dagger(row.is_assumed)}")
        items.append(fitted(line, 2, y, 3.0, width - 2))
        y += 4.2
    return block(items, y, id="log-linked", cls="log")


def player_log_pages(game: Game, options: Options) -> list[KitPage]:
    """The player log: objectives held per turn and campaign, the linked total."""
    paper = options.paper.landscape
    width = paper.content()[2]
    sheet = game.record("sheets", "player-log", Sheet)
    section = sheet.sections[0]
    blocks = [aids.heading(f"{sheet.label}{dagger(sheet.is_assumed)}{rules(sheet)}", width, 5.0),
              aids.heading(f"{section.title} {section.title_ja or ''}", width, 3.6),
              log_grid(game, width), total_block(game, width)]
    return [KitPage("player log", Page(paper.width, paper.height, items, id=f"player-log-{i}"))
            for i, items in enumerate(aids.flow(blocks, paper.content()), 1)]


# --- registered parts ----------------------------------------------------------------------


@CODE.kit_part("map", replaces=True)
def nimitz_map(game: Game, options: Options) -> list[KitPage]:
    """The campaign map with the boxes beside its points (tiled), the battle sheet."""
    scale = kit_scale(game, options.paper)
    drawing, width, height = kit_drawing(game, scale, options.paper)
    return [*kit.tiled_pages(drawing, width, height, options, f"map {MAP_ID}"),
            battle_sheet_page(game, options)]


@CODE.kit_part("counters", replaces=True)
def nimitz_counters(game: Game, options: Options) -> list[KitPage]:
    """Every unit (front full strength, back damaged), every marker."""
    return counter_pages(game, options)


@CODE.kit_part("sheets", replaces=True)
def nimitz_sheets(game: Game, options: Options) -> list[KitPage]:
    """A setup sheet per campaign year, the player log, then the campaign display (turn
    track, storage boxes, Japanese tables), the sequence of play with what is done in each
    phase, and the generic pages of the other sheets (the battle-bonus markers as a short
    table per side) and the play aid of every table, flowed together."""
    own = {"player-log", BONUS_SHEET, SEQUENCE_SHEET,
           *(f"setup-{c.id}" for c in game.section("campaigns"))}
    width = options.paper.content()[2]
    lead = [*display_blocks(game, width), *sequence_blocks(game, width),
            *bonus_blocks(game, width)]
    return [*setup_pages(game, options), *player_log_pages(game, options),
            *kit.sheet_pages(game, options, lead=lead, own=own, setup=False)]


SEQUENCE_SHEET = "sequence-of-play"
#: The parts of the sequence the aid prints, each under its title: the campaign turn's
#: phases (no ``part``), then a battle's set-up and each round of it (10.1-10.22).
SEQUENCE_PARTS = ((None, "Each turn 毎ターンの手順"),
                  ("battle", "Each battle: set-up 戦闘の準備"),
                  ("battle-round", "Each battle round 戦闘ラウンドの手順"))


def sequence_blocks(game: Game, width: float) -> list[aids.Block]:
    """The sequence of play as a player follows it: each phase numbered with its rules and
    under it what is done in it (the ``sequence`` section's steps), the campaign turn first,
    then a battle's set-up and its rounds."""
    sheet = game.record("sheets", SEQUENCE_SHEET, Sheet)
    title: aids.Block | None = aids.heading(f"{sheet.label}{rules(sheet)}", width, 5.0)
    blocks: list[aids.Block] = []
    phases = sorted(game.sequence, key=lambda p: p.order or 0)
    for part, name in SEQUENCE_PARTS:
        members = [p for p in phases if p.extra.get("part") == part]
        if not members:
            continue
        blocks.append(with_title(title, aids.heading(name, width, 3.6)))  # a page's part
        title = None
        for number, phase in enumerate(members, 1):
            blocks.append(phase_block(phase, number, width))
    return [title, *blocks] if title is not None else blocks  # a sequence without phases


def with_title(title: aids.Block | None, heading: aids.Block) -> aids.Block:
    """``heading`` (a section's) under ``title`` (its sheet's, if any) as one heading that
    keeps its section whole on a page where it fits: no title alone at a page's foot."""
    if title is None:
        return replace(heading, whole=True)
    return aids.Block((*title.items, Group(heading.items, dy=title.height)),
                      title.height + heading.height, cls="heading", whole=True)


def phase_block(phase: Phase, number: int, width: float) -> aids.Block:
    """A phase: its number, name and rules in bold, its steps bulleted under it."""
    head, h = text_lines(f"{number}. {phase.label}{rules(phase)}", 0, 0, 2.8, width, bold=True)
    steps = aids.bullets(phase.steps, width - 4) if phase.steps else None
    items: list[Primitive] = [*head]
    if steps is not None:
        items.append(Group(steps.items, dx=4, dy=h))
        h += steps.height
    return aids.Block(tuple(items), h + 1.0, cls="phase")


BONUS_SHEET = "battle-bonus-tables"
#: The columns of each side's battle-bonus table: US markers are bought (a cost), Japanese
#: ones drawn from the cup (none).
BONUS_COLUMNS = {"us": ("bonus", "cost", "effect"), "japan": ("bonus", "effect")}


def bonus_blocks(game: Game, width: float) -> list[aids.Block]:
    """The battle-bonus sheet: per side its line and a short table of the markers it has
    (name, cost for the US, effect), from the bonus-marker table; then its other tables."""
    sheet = game.record("sheets", BONUS_SHEET, Sheet)
    table = game.table("bonus-marker")
    aids.first_print(table.id)  # printed here, a table per side: no sheet prints it again
    title: aids.Block | None = aids.heading(f"{sheet.label}{rules(sheet)}", width, 5.0)
    blocks: list[aids.Block] = []
    sections = list(sheet.sections)
    for side, section in zip(BONUS_COLUMNS, sections, strict=False):
        columns = BONUS_COLUMNS[side]
        rows = [row for row in table.rows if str(table.conditions(row)["side"]) == side
                and table.result(row).get("exists")]
        header = [aids.key_name(table, table.key(c)) if c == "bonus" else
                  aids.result_name(table, c) for c in columns]
        body = [[aids.value_text(table, table.conditions(row)["bonus"], None,
                                 table.key("bonus"))]
                + [aids.dashes(aids.result_text(table, table.result(row).get(c), {}, c))
                   + (dagger(row.is_assumed) if c == columns[-1] else "")
                   for c in columns[1:]] for row in rows]
        blocks.append(with_title(title, aids.heading(section.title or "", width, 3.6)))
        title = None
        blocks.append(aids.bullets(section.lines, width))
        blocks.extend(aids.grid_blocks([header], body, width, f"table {table.id!r} ({side})"))
    for other in sheet.tables:
        blocks.extend(aids.table_blocks(game.table(other), width, game))
    return [title, *blocks] if title is not None else blocks  # a sheet without sections

