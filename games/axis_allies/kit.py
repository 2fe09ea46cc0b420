"""Axis & Allies' own kit pages: the world map on real coastlines, the battle board, the
national production chart, the weapons development chart, a unit reference card per
power, and counters for every unit type in each power's colour.

Everything comes from the game's YAML: the map from the ``world`` point map (owners,
production, capital and original-factory flags, connections) and the ``outlines``
section (each area's outline, world-outlines.yaml), the
powers' colours from ``game.sides``, the battle-board columns and the reference cards
from the ``unit`` table (the table the engine reads), the production chart from the
``national-production`` track and the ``starting-ipc-*`` constants, the weapons chart
from the ``weapons`` section and the ``weapons-development`` table, and the counters
from the ``counter-mix`` section (starting forces plus a reserve per power).
"""

from __future__ import annotations

import functools
import math
from dataclasses import dataclass, field, replace

import numpy as np
from warpress.components import aids, areamap, holds, kit, labels
from warpress.components.counters import counter_size, draw, face_of
from warpress.components.fonts import text_width, wrap
from warpress.components.impose import SEAM_CLEAR, Piece, planned_seams
from warpress.components.kit import KitPage, Options
from warpress.components.labels import LabelPlacer
from warpress.components.legend import legend_block
from warpress.components.marks import dagger, rule_ref
from warpress.components.page import Paper
from warpress.components.pieces import centred, fit_text, marker_pieces, marker_word
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
from warpress.engine.errors import BadInput
from warpress.engine.model import Display, Game, Point, PointMap, Side, Table, Track, Unit

from . import CODE

MAP_ID = "world"
INK = "#222222"
GREY = "#666666"
SEA_FILL = "#d6e8f7"
SEA_INK = "#2c5d8a"
NEUTRAL_FILL = "#f7f7f4"
BOARD = "#fbfbf8"  # the paper beyond every area
ROUTE_STYLES = {
    "land": Style(stroke="#8a6d3b", width=0.6),
    "coast": Style(stroke="#5a7fa6", width=0.35, dash=(1.2, 0.8)),
    "sea": Style(stroke="#5a7fa6", width=0.45),
}
BARRIER = Style(stroke="#3a3a3a", width=1.2)
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


NAME_SIZE = 2.5
HATCH = Style(stroke="#b5b5b5", width=0.3)
NAME_W = 26.0  # names wrap to this width
STACK = "stack"  # the class word of an area's box for its stack
Box4 = tuple[float, float, float, float]  # x0, y0, x1, y1 (mm)
LANE = 1.5  # mm either side of a seam's line kept clear besides the tiler's own clearance


@dataclass
class Area:
    """A territory or sea zone on the map: its outline and the block drawn for it (in the
    area where it fits, else beside it with a leader line: ``callout``)."""

    point: Point
    region: areamap.Region
    x: float  # the block's centre
    y: float
    lines: list[str]
    w: float
    h: float
    stack: float  # side of the box that holds the area's stack
    anchor: tuple[float, float] = (0.0, 0.0)  # a point well inside the area
    callout: bool = False  # the whole block beside the area
    detached: tuple[float, float] | None = None  # the stack box's centre, beside the area
    boxless: bool = False  # no room for a stack box near: the pieces stand on the area
    apart: bool = False  # its stack box lies in the area apart from its name: no leader
    tight: bool = False  # its name fits with no room for marks beside it: it needs its box

    @property
    def name_h(self) -> float:
        return len(self.lines) * NAME_SIZE * 1.2 + 0.8

    def boxes(self) -> list[labels.Box]:
        """What the block covers: the whole block, or the name and the detached box."""
        if self.boxless:
            room = mark_room(self.point)
            return [labels.Box(self.x - self.w / 2 - room, self.y - self.name_h / 2,
                               self.x + self.w / 2 + room, self.y + self.name_h / 2)]
        if self.detached is None:
            return [labels.Box(self.x - self.w / 2, self.y - self.h / 2, self.x + self.w / 2,
                               self.y + self.h / 2)]
        bx, by = self.detached
        hx, hy = box_half(self)  # the production circle and capital star stick out
        return [labels.Box(self.x - self.w / 2, self.y - self.name_h / 2,
                           self.x + self.w / 2, self.y + self.name_h / 2),
                labels.Box(bx - hx, by - hy, bx + hx, by + hy)]

    @property
    def cell(self) -> tuple[tuple[float, float], ...]:
        """The area's largest outer ring."""
        return self.region.main

    def inside(self, x: float, y: float) -> bool:
        return self.region.inside(x, y)

    @property
    def land(self) -> bool:
        return self.point.kind != "sea"

    @property
    def neutral(self) -> bool:
        return self.land and (str(self.point.extra.get("owner") or "neutral") == "neutral"
                              or "neutral" in self.point.flags)


#: The id of the outline of land that no territory names (drawn, never played on).
OUT_OF_PLAY = "out-of-play"
OUT_OF_PLAY_FILL = "#e6e3da"


def map_size(point_map: PointMap, scale: float = 1.0) -> tuple[float, float]:
    """The map area in mm, from the data, drawn at ``scale`` (``board_scale``)."""
    return (point_map.width_mm or 770.0) * scale, (point_map.height_mm or 440.0) * scale


#: The most the kit shrinks the board to spare a column of tiles on a paper (Letter: three
#: columns of tiles reach a little less than the board's width).
SHRINK = 0.98


def board_scale(game: Game, paper: Paper) -> float:
    """1, or SHRINK where the board drawn that much smaller takes fewer columns of tiles
    on ``paper`` (``planned_seams``)."""
    w, h = map_size(game.record("point_maps", MAP_ID, PointMap))
    full = len(planned_seams(w, h, paper)[0])
    return SHRINK if len(planned_seams(w * SHRINK, h * SHRINK, paper)[0]) < full else 1.0


def block_size(point: Point, stack: float) -> tuple[list[str], float, float]:
    """An area's name lines and the size of its block (name over its stack box; a neutral
    territory's name over the word "neutral")."""
    name = (point.name or point.id).replace(" Sea Zone", "")
    lines = wrap(name, NAME_SIZE, NAME_W)
    neutral = point.kind != "sea" and (str(point.extra.get("owner") or "neutral") == "neutral"
                                       or "neutral" in point.flags)
    below = 5.0 if neutral else stack + 2.0
    width = max(text_width(line, NAME_SIZE) for line in lines) + 1.0
    w = max(width, text_width(NEUTRAL_WORD, 2.4) + 1.2) if neutral else max(stack + 5.0, width)
    return lines, w, len(lines) * NAME_SIZE * 1.2 + 1.5 + below


def outlines(game: Game, scale: float = 1.0) -> dict[str, areamap.Region]:
    """Each area's outline (world-outlines.yaml: rings and holes in mm), at ``scale``."""

    def ring(text: str) -> tuple[areamap.Point, ...]:
        return tuple((x * scale, y * scale) for x, y in areamap.parse_ring(text))

    out = {}
    for record in game.section("outlines"):
        rings = tuple(ring(r) for r in record.get("rings") or ())
        holes = tuple(ring(r) for r in record.get("holes") or ())
        out[record.id] = areamap.Region(rings, holes)
    return out


def layout(game: Game, point_map: PointMap, clear: tuple[Box4, ...] = (),
           scale: float = 1.0) -> dict[str, Area]:
    """Each area's outline and its block: in the area as near its inner point as it fits;
    else its name in the area and its stack box beside it; else (a small island, Gibraltar)
    the whole block beside it; each thing beside its area clear of every other block and
    of the boxes ``clear`` (where the map's tiles meet). BadInput naming an area without an
    outline or whose block finds no room."""
    w, h = map_size(point_map, scale)
    regions = outlines(game, scale)
    stack = holds.least(game) + 1.0
    areas: dict[str, Area] = {}
    for point in point_map.points:
        region = regions.get(point.id)
        if region is None or not region.rings:
            raise BadInput(f"{point.origin}: map area {point.id!r} has no outline in the "
                           f"outlines section (world-outlines.yaml)")
        lines, bw, bh = block_size(point, stack)
        anchor = areamap.inner_point(region)
        areas[point.id] = Area(point, region, *anchor, lines, bw, bh, stack, anchor)
    taken: list[Box4] = list(clear)
    rest = []
    for area in areas.values():  # first every block that fits whole in its area
        spot = areamap.place_in(area.region, area.anchor, area.w, area.h, avoid=taken)
        if spot is None:
            rest.append(area)
            continue
        area.x, area.y = spot
        taken.append(_tuple(area.boxes()[0]))
    for area in rest:  # then, in the area, its name and its box apart, else its name alone
        area.w = _name_w(area)
        if not area.neutral and _inside_pair(area, taken, clear):
            continue
        named = None
        for room in ((mark_room(area.point), 0.0) if not area.neutral else ()):
            named = areamap.place_in(area.region, area.anchor, area.w + 2 * room, area.name_h,
                                     margin=0.4, avoid=taken)
            if named is not None:
                area.tight = not room
                break
        area.callout = named is None
        if named is not None:
            area.x, area.y = named
            area.detached = named  # its box goes beside it (``place_beside``)
            room = 0.0 if area.tight else mark_room(area.point)  # its marks may go beside it
            name = area.boxes()[0]
            taken.append((name.x0 - room, name.y0, name.x1 + room, name.y1))
        else:
            area.w = block_size(area.point, stack)[1]
    ground = Ground(areas, w, h)
    beside = [a for a in areas.values() if (a.callout or a.detached is not None)
              and not a.apart]
    place_beside(beside, Board(list(clear), fixed_blocks(areas), w, h, ground))
    return areas


_LAYOUT: list[tuple[Game, tuple[Box4, ...], float, dict[str, Area]]] = []


def world_layout(game: Game, point_map: PointMap, owners: dict[str, str] | None = None,
                 clear: tuple[Box4, ...] = (), scale: float = 1.0) -> dict[str, Area]:
    """``layout`` of the world map (worked out once per game, ``clear`` and ``scale``: the
    layout is the slow part of a drawing), each territory held by ``owners`` where given."""
    found = next((areas for g, c, k, areas in _LAYOUT if g is game and c == clear
                  and k == scale), None)
    if found is None:
        found = layout(game, point_map, clear, scale)
        _LAYOUT[:] = [*(e for e in _LAYOUT if e[0] is game)][-2:] + [(game, clear, scale,
                                                                      found)]
    areas = {k: replace(a) for k, a in found.items()}
    for area_id, owner in (owners or {}).items():
        area = areas.get(area_id)
        if area is not None and area.land and not area.neutral:
            area.point = replace(area.point, extra={**area.point.extra, "owner": owner})
    return areas


def mark_room(point: Point) -> float:
    """Room each side of a territory's name for its production, capital and factory marks
    (drawn there when it has no stack box)."""
    if point.kind == "sea":
        return 0.0
    wide = (bool(point.extra.get("capital")) or "capital" in point.flags
            or "original-factory" in point.flags)
    return 13.0 if wide else 6.5


def _tuple(box: labels.Box) -> tuple[float, float, float, float]:
    return box.x0, box.y0, box.x1, box.y1


def _name_w(area: Area) -> float:
    return max(text_width(line, NAME_SIZE) for line in area.lines) + 1.0


Point2 = tuple[float, float]
FRAME = 0.8  # mm: a frame set beside its area stands this far round what it holds
GAP = 1.5  # mm: the least room between a frame and any other block or frame
BOX_REACH = (40.0, 64.0)  # mm: how far from its name a stack box looks, then at most
CALLOUT_REACH = 90.0  # mm: how far from its area a whole block may go
OVER_LAND = 30.0  # mm of leader a box is worth less when it lies whole on another territory
CROSSING = 60.0  # mm of leader a leader is worth less for each block of another area it crosses
GRID = 2.0  # mm: the step of the positions tried


class Ground:
    """Which area each point of the map lies in, on a 2 mm grid (-1: land out of play):
    what is set beside its area goes on its own ground or the sea where it can, so it hides
    no other territory."""

    def __init__(self, areas: dict[str, Area], w: float, h: float):
        self.xs = np.arange(0.0, w + GRID, GRID)
        self.ys = np.arange(0.0, h + GRID, GRID)
        self.index = {k: i for i, k in enumerate(areas)}
        self.kind = np.array([LAND if a.land and not a.neutral else NEUTRAL if a.land else SEA
                              for a in areas.values()] + [SEA], dtype=np.int32)
        self.grid = np.full((len(self.ys), len(self.xs)), -1, dtype=np.int32)
        for area in sorted(areas.values(), key=lambda a: (a.land, -sum(
                abs(areamap.ring_area(r)) for r in a.region.rings))):
            for ring in area.region.rings:  # the sea, then the land, the larger first
                i0, j0, i1, j1 = self._span(*_ring_box(ring))
                if i1 > i0 and j1 > j0:
                    sub = areamap.grid_inside(ring, self.xs[i0:i1], self.ys[j0:j1])
                    self.grid[j0:j1, i0:i1][sub] = self.index[area.point.id]

        played = self.grid >= 0
        kinds = self.kind[self.grid]  # the index -1 (out of play) reads the last: the sea
        self.sums = {k: _sums(played & (kinds == k)) for k in (SEA, LAND, NEUTRAL)}
        self.own: dict[str, np.ndarray] = {}

    def _span(self, x0: float, y0: float, x1: float, y1: float) -> tuple[int, int, int, int]:
        return (max(int(math.ceil(x0 / GRID)), 0), max(int(math.ceil(y0 / GRID)), 0),
                int(x1 // GRID) + 1, int(y1 // GRID) + 1)

    def foreign(self, boxes: np.ndarray, area: Area) -> np.ndarray:
        """How much each of ``boxes`` (rows x0, y0, x1, y1) hides other areas: the share of
        its grid points on another territory, less for a neutral one (no piece stands
        there), and for a sea zone's box a little for another sea zone."""
        ny, nx = self.grid.shape
        i0 = np.clip(np.ceil(boxes[:, 0] / GRID), 0, nx).astype(int)
        j0 = np.clip(np.ceil(boxes[:, 1] / GRID), 0, ny).astype(int)
        i1 = np.clip(np.floor(boxes[:, 2] / GRID) + 1, 0, nx).astype(int)
        j1 = np.clip(np.floor(boxes[:, 3] / GRID) + 1, 0, ny).astype(int)
        i1, j1 = np.maximum(i1, i0), np.maximum(j1, j0)

        def count(sums: np.ndarray) -> np.ndarray:
            return sums[j1, i1] - sums[j0, i1] - sums[j1, i0] + sums[j0, i0]

        key = area.point.id
        if key not in self.own:
            self.own[key] = _sums(self.grid == self.index.get(key, -2))
        own = count(self.own[key])
        mine = LAND if area.land and not area.neutral else NEUTRAL if area.land else SEA
        cells = {k: count(sums) - (own if k == mine else 0) for k, sums in self.sums.items()}
        weight = HIDES[LAND] * cells[LAND] + HIDES[NEUTRAL] * cells[NEUTRAL]
        if not area.land:
            weight = weight + HIDES[SEA] * cells[SEA]
        return weight / np.maximum((i1 - i0) * (j1 - j0), 1)


def _sums(mask: np.ndarray) -> np.ndarray:
    """The summed-area table of ``mask``: [j, i] counts the cells above and left of it."""
    out = np.zeros((mask.shape[0] + 1, mask.shape[1] + 1), dtype=np.int64)
    out[1:, 1:] = mask.astype(np.int64).cumsum(0).cumsum(1)
    return out


SEA, LAND, NEUTRAL = 0, 1, 2
HIDES = {LAND: 1.0, NEUTRAL: 0.4, SEA: 0.25}  # how much a box on each kind of area hides


def _ring_box(ring) -> Box4:
    return (min(x for x, _ in ring), min(y for _, y in ring), max(x for x, _ in ring),
            max(y for _, y in ring))


def box_half(area: Area) -> tuple[float, float]:
    """Half the width and height a stack box takes with its marks (the production circle
    on its left edge, the capital star on its right)."""
    marks = 3.2 if area.land else 0.7
    return area.stack / 2 + marks, area.stack / 2 + 0.7


def _clamp(v: float, lo: float, hi: float) -> float:
    return min(max(v, lo), hi)


def leader_ends(area: Area, box: labels.Box) -> tuple[Point2, Point2]:
    """A leader from the area to ``box`` (what is set beside it): from the area's inner
    point (a whole block beside), or from just outside its name on the side facing the
    box, to the nearest point of the box."""
    if area.callout:
        start = area.anchor
    else:
        name = area.boxes()[0]
        cx, cy = (box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2
        start = (_clamp(cx, name.x0 - 1.0, name.x1 + 1.0), _clamp(cy, name.y0 - 1.0,
                                                                   name.y1 + 1.0))
    end = (_clamp(start[0], box.x0, box.x1), _clamp(start[1], box.y0, box.y1))
    return start, end


def leader(area: Area) -> tuple[Point2, Point2]:
    """The leader of an area whose box or block is set beside it, as drawn."""
    return leader_ends(area, area.boxes()[-1])


def leader_boxes(area: Area) -> list[labels.Box]:
    """What the leader of an area set beside it covers, as small boxes along it (its dot at
    the area's end the largest): no label goes under them."""
    (ax, ay), (bx, by) = leader(area)
    r = 1.0
    out = [labels.Box(ax - r, ay - r, ax + r, ay + r)]
    steps = max(1, int(math.dist((ax, ay), (bx, by))))
    for k in range(1, steps + 1):
        x, y = ax + (bx - ax) * k / steps, ay + (by - ay) * k / steps
        out.append(labels.Box(x - 0.3, y - 0.3, x + 0.3, y + 0.3))
    return out


def segments_cross(p: Point2, q: Point2, r: Point2, s: Point2) -> bool:
    """True when the segments p-q and r-s cross (touching ends do not count)."""
    def turn(a: Point2, b: Point2, c: Point2) -> float:
        return (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0])
    return (turn(r, s, p) * turn(r, s, q) < 0) and (turn(p, q, r) * turn(p, q, s) < 0)


def _hits_any(p: Point2, q: Point2, boxes: np.ndarray) -> np.ndarray:
    """Which of ``boxes`` (rows x0, y0, x1, y1) the segment p-q passes through."""
    (x1, y1), (x2, y2) = p, q
    dx, dy = x2 - x1, y2 - y1
    lo = np.zeros(len(boxes))
    hi = np.ones(len(boxes))
    ok = np.ones(len(boxes), dtype=bool)
    for d, near, far in ((dx, x1 - boxes[:, 0], boxes[:, 2] - x1),
                         (dy, y1 - boxes[:, 1], boxes[:, 3] - y1)):
        if abs(d) < 1e-12:
            ok &= (near > 0) & (far > 0)
            continue
        t0, t1 = -near / d, far / d
        lo = np.maximum(lo, np.minimum(t0, t1))
        hi = np.minimum(hi, np.maximum(t0, t1))
    return ok & (lo < hi)


@dataclass
class Board:
    """What a box set beside its area must keep clear of: the lanes where the tiles meet,
    every block in its area and every frame and leader set so far."""

    lanes: list[Box4]
    blocks: dict[str, list[Box4]]  # each area's blocks in its area (its name, its block)
    w: float
    h: float
    ground: Ground
    frames: dict[str, Box4] = field(default_factory=dict)
    leaders: dict[str, tuple[Point2, Point2]] = field(default_factory=dict)

    def __post_init__(self) -> None:
        self._refresh()

    def _refresh(self) -> None:
        rows = [(k, b) for k, bs in self.blocks.items() for b in bs]
        rows += list(self.frames.items())
        self.owner = [k for k, _ in rows]
        self.array = np.array([b for _, b in rows] or [(0.0, 0.0, 0.0, 0.0)], dtype=float)
        self.lane_array = np.array(self.lanes or [(-9.0, -9.0, -9.0, -9.0)], dtype=float)

    def set(self, area_id: str, frame: Box4, ends: tuple[Point2, Point2]) -> None:
        self.frames[area_id], self.leaders[area_id] = frame, ends
        self._refresh()

    def lift(self, area_id: str) -> None:
        self.frames.pop(area_id, None)
        self.leaders.pop(area_id, None)
        self._refresh()

    def free(self, frames: np.ndarray) -> np.ndarray:
        """Which of ``frames`` (rows x0, y0, x1, y1) lie in the map, off the lanes and GAP
        from every block and frame."""
        x0, y0, x1, y1 = (frames[:, k:k + 1] for k in range(4))
        ok = (x0[:, 0] >= 0) & (y0[:, 0] >= 0) & (x1[:, 0] <= self.w) & (y1[:, 0] <= self.h)
        a, lanes = _near(self.array, frames, GAP), _near(self.lane_array, frames, 0.0)
        ok &= ~np.any((x0 < lanes[:, 2]) & (lanes[:, 0] < x1) & (y0 < lanes[:, 3])
                      & (lanes[:, 1] < y1), axis=1)
        ok &= ~np.any((x0 < a[:, 2] + GAP) & (a[:, 0] < x1 + GAP) & (y0 < a[:, 3] + GAP)
                      & (a[:, 1] < y1 + GAP), axis=1)
        return ok

    def crossings(self, area_id: str, ends: tuple[Point2, Point2], frame: Box4) -> int | None:
        """How many blocks or frames of other areas the leader ``ends`` runs through and
        how many other leaders run through ``frame``; None when it crosses another
        leader."""
        box = labels.Box(*frame)
        through = 0
        for k, (r, s) in self.leaders.items():
            if k == area_id:
                continue
            if segments_cross(*ends, r, s):
                return None
            through += labels.segment_hits(box, r, s)
        hit = _hits_any(*ends, self.array)
        return through + len({k for h, k in zip(hit, self.owner, strict=True)
                              if h and k != area_id})


def _near(boxes: np.ndarray, frames: np.ndarray, gap: float) -> np.ndarray:
    """The rows of ``boxes`` within ``gap`` of the span of all ``frames``."""
    x0, y0 = frames[:, 0].min() - gap, frames[:, 1].min() - gap
    x1, y1 = frames[:, 2].max() + gap, frames[:, 3].max() + gap
    return boxes[(boxes[:, 0] < x1) & (boxes[:, 2] > x0) & (boxes[:, 1] < y1)
                 & (boxes[:, 3] > y0)]


@functools.lru_cache(maxsize=4)
def _offsets(reach: float) -> np.ndarray:
    """Grid offsets within ``reach`` of the origin, nearest first: rows (dx, dy)."""
    n = int(reach // GRID)
    out = sorted((math.hypot(i * GRID, j * GRID), i * GRID, j * GRID)
                 for i in range(-n, n + 1) for j in range(-n, n + 1))
    return np.array([(dx, dy) for d, dx, dy in out if d <= reach], dtype=float)


def best_spot(area: Area, board: Board, half: tuple[float, float], reach: float
              ) -> tuple[float, Point2] | None:
    """The centre, within ``reach`` of its area's name (or inner point), of a box of half
    size ``half`` whose frame is free (``Board.free``) and whose leader crosses no other
    leader, of the least cost: the leader's length, more when the box lies on other areas
    (``Ground.foreign``) and for each block the leader runs through (``Board.crossings``);
    with that cost. None when there is none."""
    hx, hy = half
    if area.callout:
        (ox, oy), name = area.anchor, None
    else:
        name = area.boxes()[0]
        ox, oy = (name.x0 + name.x1) / 2, (name.y0 + name.y1) / 2
    off = _offsets(reach)
    xs, ys = ox + off[:, 0], oy + off[:, 1]
    boxes = np.stack([xs - hx, ys - hy, xs + hx, ys + hy], axis=1)
    frames = boxes + np.array([-FRAME, -FRAME, FRAME, FRAME])
    if name is None:
        sx, sy = np.full(len(xs), ox), np.full(len(ys), oy)
    else:
        sx = np.clip(xs, name.x0 - 1.0, name.x1 + 1.0)
        sy = np.clip(ys, name.y0 - 1.0, name.y1 + 1.0)
    length = np.hypot(np.clip(sx, boxes[:, 0], boxes[:, 2]) - sx,
                      np.clip(sy, boxes[:, 1], boxes[:, 3]) - sy)
    ok = board.free(frames) & ((length >= 3.0) if area.callout else True)
    cost = length + OVER_LAND * board.ground.foreign(boxes, area)
    found = np.nonzero(ok)[0]
    best: tuple[float, Point2] | None = None
    for k in found[np.argsort(cost[found], kind="stable")]:
        if best is not None and cost[k] >= best[0]:
            break
        box = labels.Box(*boxes[k])
        crossed = board.crossings(area.point.id, leader_ends(area, box), tuple(frames[k]))
        if crossed is not None and (best is None or cost[k] + CROSSING * crossed < best[0]):
            best = (float(cost[k] + CROSSING * crossed), (float(xs[k]), float(ys[k])))
    return best


def _search(area: Area, board: Board) -> tuple[float, Point2] | None:
    if area.callout:
        return best_spot(area, board, (area.w / 2, area.h / 2), CALLOUT_REACH)
    half = box_half(area)
    for reach in BOX_REACH:
        found = best_spot(area, board, half, reach)
        if found is not None:
            return found
    return None


def _put(area: Area, board: Board, spot: Point2 | None) -> None:
    """Set what goes beside ``area`` at ``spot`` (None: a territory keeps no box)."""
    if area.callout:
        if spot is None:
            raise BadInput(f"{area.point.origin}: map area {area.point.id!r}: its name and a "
                           f"box for a stack ({area.w:.0f}x{area.h:.0f} mm) find no room "
                           f"near it")
        area.x, area.y = spot
    else:
        area.detached, area.boxless = spot, spot is None
    if spot is None:
        board.lift(area.point.id)
        return
    box = area.boxes()[-1]
    board.set(area.point.id, (box.x0 - FRAME, box.y0 - FRAME, box.x1 + FRAME, box.y1 + FRAME),
              leader(area))


PASSES = 2  # times every box set beside its area is tried again with the others in place


def place_beside(beside: list[Area], board: Board) -> None:
    """Set what does not fit in its area (its stack box, or its whole block) beside it,
    each as near as it can with a leader that crosses no other: the whole blocks first,
    then the sea zones' boxes, then the territories'; then each again, moved where it is
    nearer with the others in place."""
    order = sorted(beside, key=lambda a: (not a.callout, a.land))
    for area in order:
        found = _search(area, board)
        _put(area, board, found[1] if found else None)
    for _ in range(PASSES):
        moved = False
        for area in order:
            before = _cost(area, board)
            board.lift(area.point.id)
            found = _search(area, board)
            if found is not None and found[0] < before - 0.5:
                _put(area, board, found[1])
                moved = True
            else:
                _put(area, board, _spot_of(area))
        if not moved:
            break
    for _ in range(PASSES):  # then the worst placed try moving a neighbour's box
        if not any([_make_room(area, order, board) for area in order
                    if _cost(area, board) > FAR]):
            break


FAR = 12.0  # mm: a box whose cost is more tries moving a neighbour's box to come nearer
NEIGHBOURS = 8  # how many of the nearest boxes (set beside their areas) it tries


def _make_room(area: Area, beside: list[Area], board: Board) -> bool:
    """Bring the box of ``area`` (or a box at all, when it has none) nearer by moving the
    box of one of its nearest neighbours, where the two together then cost less; True when
    it does."""
    here = (area.x, area.y)
    others = [a for a in beside if a is not area and _spot_of(a) is not None]
    near = sorted(others, key=lambda a: (math.dist(_spot_of(a) or here, here), a.point.id))
    for other in near[:NEIGHBOURS]:
        before = _cost(area, board) + _cost(other, board)
        mine, was = _spot_of(area), _spot_of(other)
        board.lift(other.point.id)
        board.lift(area.point.id)
        found = _search(area, board)
        if found is not None:
            _put(area, board, found[1])
            again = _search(other, board)
            if again is not None and found[0] + again[0] < before - 0.5:
                _put(other, board, again[1])
                return True
        _put(area, board, mine)
        _put(other, board, was)
    return False


def _spot_of(area: Area) -> Point2 | None:
    if area.callout:
        return area.x, area.y
    return area.detached


def _cost(area: Area, board: Board) -> float:
    """The cost (``best_spot``) of where the box or block beside ``area`` stands now."""
    if _spot_of(area) is None:
        return math.inf
    box = area.boxes()[-1]
    cells = np.array([[box.x0, box.y0, box.x1, box.y1]])
    frame = (box.x0 - FRAME, box.y0 - FRAME, box.x1 + FRAME, box.y1 + FRAME)
    crossed = board.crossings(area.point.id, leader(area), frame)
    return (math.dist(*leader(area)) + OVER_LAND * float(board.ground.foreign(cells, area)[0])
            + (math.inf if crossed is None else CROSSING * crossed))


def fixed_blocks(areas: dict[str, Area]) -> dict[str, list[Box4]]:
    """What each area holds in its area before anything is set beside it: its whole block,
    or its name, or its name and its box apart."""
    out: dict[str, list[Box4]] = {}
    for k, area in areas.items():
        if area.callout:
            continue
        if area.apart:
            out[k] = [_tuple(b) for b in area.boxes()]
            continue
        out[k] = [_tuple(area.boxes()[0])]
    return out


def _inside_pair(area: Area, taken: list[Box4], lanes: tuple[Box4, ...]) -> bool:
    """Set the area's stack box and its name apart in the area (its box as near its inner
    point as it fits, its name as near over the box as it fits, no lane where the tiles
    meet between them) where both fit; True when they do."""
    hx, hy = box_half(area)
    box = areamap.place_in(area.region, area.anchor, 2 * hx, 2 * hy, margin=0.4, avoid=taken)
    if box is None:
        return False
    bx, by = box
    mine = (bx - hx, by - hy, bx + hx, by + hy)
    near = (bx, by - hy - area.name_h / 2 - 1.0)
    name = areamap.place_in(area.region, near, area.w, area.name_h, margin=0.4,
                            avoid=[*taken, mine])
    if name is None or math.dist(name, near) > NAME_APART:
        return False
    if any(labels.segment_hits(labels.Box(*lane), name, box) for lane in lanes):
        return False
    area.x, area.y = name
    area.detached, area.apart = box, True
    taken.extend(_tuple(b) for b in area.boxes())
    return True


NAME_APART = 12.0  # mm: how far a name set apart from its box in its area may stray


def area_fill(game: Game, area: Area) -> str:
    if not area.land:
        return SEA_FILL
    if area.neutral:
        return NEUTRAL_FILL
    return mix(power_colour(game, str(area.point.extra.get("owner"))), 0.3)


def cell_items(game: Game, area: Area) -> Group:
    """An area's outline, filled: sea blue, land in its owner's tint (neutral grey-beige);
    its holes are the areas inside it, drawn over it."""
    p = area.point
    fill = area_fill(game, area)
    style = (Style(fill=fill, stroke="#9cbfdd", width=0.3) if not area.land else
             Style(fill=fill, stroke="#6b5d45", width=0.35))
    owner = "neutral" if area.neutral else str(p.extra.get("owner"))
    cls = "cell sea" if not area.land else f"cell land owner-{owner}"
    return Group(tuple(Polygon(ring, style) for ring in area.region.rings),
                 id=f"cell-{p.id}", cls=cls)


def hatch_items(area: Area, step: float = 3.0) -> list[Primitive]:
    """Diagonal hatching across a neutral territory (the stretches of each line inside it)."""
    x0, y0, x1, y1 = area.region.bounds()
    out: list[Primitive] = []
    c = x0 - y1 - step
    while c < x1 - y0:
        c += step
        for a, b in _chords(area.region, c):
            out.append(Line(*a, *b, HATCH))
    return out


def _chords(region: areamap.Region, c: float):
    """Where the line x - y = c lies inside the region: its stretches, end to end."""
    hits = []
    for ring in (*region.rings, *region.holes):
        for i in range(len(ring)):
            (ax, ay), (bx, by) = ring[i - 1], ring[i]
            fa, fb = ax - ay - c, bx - by - c
            if (fa < 0) != (fb < 0):
                t = fa / (fa - fb)
                hits.append((ax + (bx - ax) * t, ay + (by - ay) * t))
    hits.sort()
    return [(hits[k], hits[k + 1]) for k in range(0, len(hits) - 1, 2)]


def neighbours(areas: dict[str, Area]):
    """Every pair of areas whose outlines share a border at least 1 mm long, with its
    longest stretch (a polyline)."""
    for pair, lines in areamap.borders({k: a.region for k, a in areas.items()}).items():
        line = lines[0]
        if sum(math.dist(p, q) for p, q in zip(line, line[1:], strict=False)) >= 1.0:
            a, b = sorted(pair)
            yield a, b, line


def barrier_items(point_map: PointMap, areas: dict[str, Area]) -> list[Primitive]:
    """A thick line on every border of two territories or two sea zones that the rules do
    not let pieces cross (no connection); a coast joins a sea zone only where a mark says
    so (the legend says it)."""
    joined = {frozenset((r.a, r.b)) for r in point_map.routes}
    out: list[Primitive] = []
    for pair, lines in areamap.borders({k: a.region for k, a in areas.items()}).items():
        a, b = sorted(pair)
        if pair in joined or areas[a].land != areas[b].land:
            continue
        if sum(math.dist(p, q) for line in lines for p, q in zip(line, line[1:],
                                                                 strict=False)) < 1.0:
            continue
        out.append(Group(tuple(Polygon(tuple(line), BARRIER, closed=False) for line in lines),
                         id=f"barrier-{a}-{b}", cls="barrier"))
    return out


MARK = 7.0  # mm: the length of a connection's mark across a shared border
FAR_SIZE = 2.0  # mm (5.7 pt): the far areas' names in an area's cell


def route_items(game: Game, point_map: PointMap, areas: dict[str, Area],
                placer: LabelPlacer) -> tuple[list[Primitive], list[tuple[str, str, str]]]:
    """The connections, none through a third area: a short mark across the border two
    connected areas share, on a stretch of it clear of the blocks; for two areas whose cells
    do not touch (or that wrap round the board's east-west edge) the far area's name in each
    one's cell ("→ Red Sea"), or where a name does not fit, a lettered badge in both cells
    that the legend explains. Returns (items, [(letter, area, area)])."""
    borders = {frozenset((a, b)): edge for a, b, edge in neighbours(areas)}
    blocks = [_block_box(a) for a in areas.values()]
    items: list[Primitive] = []
    far = []
    for route in point_map.routes:
        a, b = areas[route.a], areas[route.b]
        rid = f"route-{route.a}-{route.b}"
        edge = borders.get(frozenset((route.a, route.b)))
        ends = border_mark(a, b, edge, blocks) if edge else None
        if ends is None and edge and seen_border(a, b, edge):
            continue  # a border the player sees, and no barrier on it: nothing to name
        if ends is None:
            far.append((route.a, route.b, rid))
            continue
        style = ROUTE_STYLES.get(route.kind or "sea", ROUTE_STYLES["sea"])
        items.append(mark_items(ends, style, rid, f"connection {route.kind or ''}".strip()))
        placer.take(labels.Box(min(e[0] for e in ends) - 1, min(e[1] for e in ends) - 1,
                               max(e[0] for e in ends) + 1, max(e[1] for e in ends) + 1))
    fills = {k: area_fill(game, a) for k, a in areas.items()}
    names = far_labels(point_map.points)
    lettered: list[tuple[str, str, str]] = []
    for a_id, b_id, rid in far:
        a, b = areas[a_id], areas[b_id]
        named = [far_name(a, names[b_id], placer, fills[a_id], f"{rid}-a"),
                 far_name(b, names[a_id], placer, fills[b_id], f"{rid}-b")]
        if all(named):
            items.extend(i for n in named for i in n)
            continue
        for n in named:  # give back the room of a name that is not printed
            if n:
                placer.taken.pop(next(i for i in range(len(placer.taken) - 1, -1, -1)
                                      if placer.taken[i] == n.box))
        letter = chr(ord("A") + len(lettered))
        lettered.append((letter, a_id, b_id))
        items += [*badge(a, letter, placer, f"{rid}-a"), *badge(b, letter, placer, f"{rid}-b")]
    return items, lettered


SEEN = 5.0  # mm: a border this long is one a player sees on the map


def seen_border(a: Area, b: Area, edge) -> bool:
    """True when ``a`` and ``b`` are two territories or two sea zones whose shared border
    ``edge`` is at least SEEN long: two such areas connect unless a barrier is drawn on their
    border (the legend says so), so a connection there needs no mark or name."""
    length = sum(math.dist(p, q) for p, q in zip(edge, edge[1:], strict=False))
    return a.land == b.land and length >= SEEN


def mark_items(ends, style: Style, rid: str, cls: str) -> Group:
    """A connection's mark: a short bar across the border, a dot at each end."""
    (x1, y1), (x2, y2) = ends
    bar = replace(style, width=max(style.width, 0.7), dash=())
    dot = Style(fill=bar.stroke, stroke=None)
    return Group((Line(x1, y1, x2, y2, bar), Circle(x1, y1, 0.8, dot), Circle(x2, y2, 0.8, dot)),
                 id=rid, cls=f"{cls} border-mark")


def border_mark(a: Area, b: Area, edge, blocks: list[labels.Box]):
    """The ends of a mark across the border ``edge`` (a polyline) of ``a`` and ``b``: the
    first spot along its longest segments where a MARK-long bar from ``a`` to ``b`` lies in
    those two areas only and clear of every block; None where there is none."""
    segments = sorted(zip(edge, edge[1:], strict=False), key=lambda pq: -math.dist(*pq))
    for (px, py), (qx, qy) in segments[:12]:
        length = math.dist((px, py), (qx, qy))
        if length < 1.5:
            break
        nx, ny = -(qy - py) / length, (qx - px) / length
        for t in (0.5, 0.3, 0.7):
            mx, my = px + (qx - px) * t, py + (qy - py) * t
            for half in (MARK / 2, MARK / 3):
                ends = ((mx - nx * half, my - ny * half), (mx + nx * half, my + ny * half))
                if not a.inside(*ends[0]):
                    ends = ends[::-1]
                if not (a.inside(*ends[0]) and b.inside(*ends[1])):
                    continue
                if not in_two_cells(ends, a, b):
                    continue
                box = labels.Box(min(e[0] for e in ends) - 1, min(e[1] for e in ends) - 1,
                                 max(e[0] for e in ends) + 1, max(e[1] for e in ends) + 1)
                if not any(box.overlaps(block) for block in blocks):
                    return ends
    return None


def in_two_cells(ends, a: Area, b: Area, samples: int = 24) -> bool:
    """True when every point of the segment ``ends`` lies in area ``a`` or ``b``."""
    (x1, y1), (x2, y2) = ends
    for k in range(samples + 1):
        x, y = x1 + (x2 - x1) * k / samples, y1 + (y2 - y1) * k / samples
        if not (a.inside(x, y) or b.inside(x, y)):
            return False
    return True


class Named(list):
    """A far area's name as printed (its halo and text) and the box it took."""

    box: labels.Box


def far_name(area: Area, label: str, placer: LabelPlacer, fill: str, rid: str
             ) -> Named | None:
    """``label``, the name of an area ``area`` connects to without touching ("→ Red"),
    placed in ``area``'s cell as near its block as it fits clear of every block, mark and
    label; None where it does not fit."""
    name = f"→ {label}"
    w, h = text_width(name, FAR_SIZE) + 1.2, FAR_SIZE * 1.3 + 0.4
    spot = _spot(area, placer, w, h)
    if spot is None:
        return None
    x, y = spot
    out = Named([Rect(x, y, w, h, Style(fill=fill, stroke=None, opacity=0.85), r=0.6),
                 Text(x + 0.6, y + 0.2 + FAR_SIZE, name, size=FAR_SIZE, fill=_ink(area), id=rid,
                      cls="far-connection map-label")])
    out.box = labels.Box(x, y, x + w, y + h)
    placer.take(out.box)
    return out


BADGE = 4.2  # mm: a lettered connection's badge


def badge(area: Area, letter: str, placer: LabelPlacer, rid: str) -> list[Primitive]:
    """A lettered badge in ``area``'s cell, as near its block as it fits; BadInput naming the
    area when it fits nowhere."""
    spot = _spot(area, placer, BADGE, BADGE)
    if spot is None:
        raise BadInput(f"map area {area.point.id!r}: no room in its cell for the mark of a "
                       f"connection to an area it does not touch; move its x, y")
    x, y = spot
    placer.take(labels.Box(x, y, x + BADGE, y + BADGE))
    r = BADGE / 2
    return [Circle(x + r, y + r, r, Style(fill="#ffffff", stroke=_ink(area), width=0.35),
                   cls="connection-badge"),
            Text(x + r, y + r + 0.75, letter, size=2.2, anchor="middle", bold=True,
                 fill=_ink(area), id=rid, cls="far-connection lettered map-label")]


def _ink(area: Area) -> str:
    return SEA_INK if not area.land else INK


def _spot(area: Area, placer: LabelPlacer, w: float, h: float):
    """Top-left corner of a free w x h box in the area, else beside its block."""
    inside = next((p for p in _spots(area, w, h) if _fits(area, placer, p, w, h)), None)
    if inside is not None or area.callout:
        return inside
    return next((p for p in _spots(area, w, h, beside=True)
                 if _fits(area, placer, p, w, h, beside=True)), None)


def _fits(area: Area, placer: LabelPlacer, spot, w: float, h: float,
          beside: bool = False) -> bool:
    x, y = spot
    box = labels.Box(x, y, x + w, y + h)
    if not placer.free(box):
        return False
    if area.callout or beside:  # a mark beside the area's block
        return math.dist(((box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2), (area.x, area.y)) \
            < max(area.w, area.h) / 2 + 12
    return area.region.box_inside(box.x0, box.y0, box.x1, box.y1)


def _short(point: Point) -> str:
    return (point.name or point.id).replace(" Sea Zone", "")


def far_labels(points) -> dict[str, str]:
    """Each area's name as another area's cell names it: short, a sea zone's with "(sea)"
    where a territory has the same short name ("→ Mexico (sea)" and "→ Mexico")."""
    shorts = {p.id: _short(p) for p in points}
    land = {shorts[p.id] for p in points if p.kind != "sea"}
    return {p.id: f"{shorts[p.id]} (sea)" if p.kind == "sea" and shorts[p.id] in land
            else shorts[p.id] for p in points}


def _spots(area: Area, w: float, h: float, beside: bool = False):
    """Top-left corners for a w x h box in an area: under, over, beside its block, then the
    area's whole extent on a 2 mm grid, nearest the block first."""
    left, top = area.x - area.w / 2, area.y - area.h / 2
    near = [(area.x - w / 2, top + area.h + 1.0), (area.x - w / 2, top - h - 1.0),
            (left + area.w + 1.0, area.y - h / 2), (left - w - 1.0, area.y - h / 2)]
    x0, y0, x1, y1 = area.region.bounds()
    if area.callout or beside:
        x0, y0, x1, y1 = left - 14 - w, top - 14 - h, left + area.w + 14, top + area.h + 14
    grid = [(x, y) for x in _steps(x0, x1 - w) for y in _steps(y0, y1 - h)]
    grid.sort(key=lambda p: math.dist((p[0] + w / 2, p[1] + h / 2), (area.x, area.y)))
    return near + grid


def _steps(start: float, stop: float, step: float = 2.0) -> list[float]:
    return [start + i * step for i in range(max(0, int((stop - start) // step) + 1))]


NEUTRAL_WORD = "neutral 中立"


def area_items(game: Game, area: Area) -> Group:
    """An area's block: the name, the box for its stack (class ``holds``), production,
    capital and starting industrial complex (land), or "neutral"; the box where the layout
    set it (under the name, or beside the area)."""
    p = area.point
    items: list[Primitive] = []
    ink = SEA_INK if not area.land else INK
    top = -(area.name_h if area.detached or area.boxless else area.h) / 2
    for i, line in enumerate(area.lines):
        items.append(Text(0, top + NAME_SIZE * (1.0 + 1.2 * i), line, size=NAME_SIZE,
                          anchor="middle", bold=True, fill=ink, cls="area-name map-label"))
    s = area.stack
    box_x, box_y = -s / 2, top + len(area.lines) * NAME_SIZE * 1.2 + 1.5
    if area.detached:
        box_x, box_y = area.detached[0] - area.x - s / 2, area.detached[1] - area.y - s / 2
    if area.boxless:
        kind = "territory" if area.land else "sea"
        marks = _name_marks(game, area, top) if area.land else []
        return Group(tuple(items + marks), dx=area.x, dy=area.y, id=f"{kind}-{p.id}",
                     cls=_area_classes(area))
    if area.neutral:
        half = text_width(NEUTRAL_WORD, 2.4) / 2 + 0.6
        items += [Rect(-half, box_y + 0.4, 2 * half, 3.4,
                       Style(fill=NEUTRAL_FILL, stroke=None), r=0.8),
                  Text(0, box_y + 3.0, NEUTRAL_WORD, size=2.4, anchor="middle", fill=GREY,
                       cls="neutral-mark")]
    else:
        colour = SEA_INK if not area.land else power_colour(game, str(p.extra.get("owner")))
        fill = mix(area_fill(game, area), 0.45)
        # a box beside its area is no place in it (exports anchor no piece there)
        beside = (area.detached and not area.apart) or area.callout
        box_id = f"stack-beside-{p.id}" if beside else f"stack-{p.id}"
        items.append(Rect(box_x, box_y, s, s, Style(fill=fill, stroke=colour, width=0.35,
                                                    dash=(1.5, 0.8)), r=1.5,
                          id=box_id, cls=holds.cls(STACK, "land" if area.land else "sea")))
    if area.land and not area.neutral:
        items += _land_marks(game, p, box_x, box_y, s)
    kind = "territory" if area.land else "sea"
    classes = _area_classes(area)
    return Group(tuple(items), dx=area.x, dy=area.y, id=f"{kind}-{p.id}", cls=classes)


def _name_marks(game: Game, area: Area, top: float) -> list[Primitive]:
    """A territory without a stack box: production left of its name, the capital star and
    the industrial complex right of it."""
    p = area.point
    half = max(text_width(line, NAME_SIZE) for line in area.lines) / 2
    y = top + NAME_SIZE * 0.65
    colour = power_colour(game, str(p.extra.get("owner")))
    items: list[Primitive] = []
    production = p.extra.get("production") or 0
    if production:
        items += [Circle(-half - 3.4, y, 2.8, Style(fill="#ffffff", stroke=INK, width=0.35),
                         cls="production"),
                  Text(-half - 3.4, y + 1.05, str(production), size=2.9, anchor="middle",
                       bold=True, cls="production-value")]
    right = half + 1.0
    if bool(p.extra.get("capital")) or "capital" in p.flags:
        items.append(Polygon(star(right + 3.0, y, 3.0), Style(fill=colour, stroke="#000000",
                                                               width=0.25), cls="capital-mark"))
        right += 6.0
    if "original-factory" in p.flags:
        items += factory_icon(right, y - 2.2, colour)
    return items


def _area_classes(area: Area) -> str:
    p = area.point
    if not area.land:
        return "sea-zone"
    owner = "neutral" if area.neutral else str(p.extra.get("owner"))
    capital = bool(p.extra.get("capital")) or "capital" in p.flags
    factory = "original-factory" in p.flags
    words = ["territory", "land", f"owner-{owner}"]
    words += ["capital"] * capital + ["factory"] * factory + ["neutral"] * area.neutral
    return " ".join(words)


def _land_marks(game: Game, p: Point, x: float, y: float, s: float) -> list[Primitive]:
    """Production in a circle on the box's left edge, the capital star on its right edge,
    the industrial complex at its bottom right."""
    colour = power_colour(game, str(p.extra.get("owner")))
    items: list[Primitive] = []
    production = p.extra.get("production") or 0
    if production:
        items += [Circle(x, y + 3.4, 2.8, Style(fill="#ffffff", stroke=INK, width=0.35),
                         cls="production"),
                  Text(x, y + 4.45, str(production), size=2.9, anchor="middle", bold=True,
                       cls="production-value")]
    if bool(p.extra.get("capital")) or "capital" in p.flags:
        items.append(Polygon(star(x + s, y + 3.6, 3.2), Style(fill=colour, stroke="#000000",
                                                              width=0.25), cls="capital-mark"))
    if "original-factory" in p.flags:
        items += factory_icon(x + s - 3.0, y + s - 2.6, colour)
    return items


def star(x: float, y: float, r: float) -> tuple[tuple[float, float], ...]:
    """A five-pointed star of outer radius ``r`` centred on (x, y), point up."""
    out = []
    for i in range(10):
        rr = r if i % 2 == 0 else r * 0.45
        a = math.radians(-90 + 36 * i)
        out.append((x + rr * math.cos(a), y + rr * math.sin(a)))
    return tuple(out)


def factory_icon(x: float, y: float, colour: str) -> list[Primitive]:
    """A small industrial-complex symbol: a saw-tooth roof and a chimney."""
    roof = ((x, y + 4.4), (x, y + 1.6), (x + 1.5, y + 0.6), (x + 1.5, y + 1.6), (x + 3, y + 0.6),
            (x + 3, y + 1.6), (x + 4.5, y + 0.6), (x + 4.5, y - 0.8), (x + 5.5, y - 0.8),
            (x + 5.5, y + 4.4))
    return [Polygon(roof, Style(fill=colour, stroke="#000000", width=0.2), cls="factory-icon")]


def legend_entries(game: Game) -> list[tuple[list[Primitive], str]]:
    """The map's legend: the powers' colours, neutral ground, the area marks and the lines,
    each a swatch in a 10x6 mm box and its words."""
    entries: list[tuple[list[Primitive], str]] = []
    for side in game.info.sides:
        colour = power_colour(game, side.id)
        entries.append(([Rect(0, 0, 10, 6, Style(fill=mix(colour, 0.3), stroke=colour,
                                                  width=0.5), r=1)],
                        f"{side.name} {side.name_ja or ''}".strip()))
    neutral = [Rect(0, 0, 10, 6, Style(fill=NEUTRAL_FILL, stroke="#8a7a5a", width=0.3)),
               *(Line(i, 6, i + 6, 0, HATCH) for i in (0.0, 4.0))]
    entries.append((neutral, "neutral 中立: no unit may enter"))
    entries.append(([Rect(0, 0, 10, 6, Style(fill=OUT_OF_PLAY_FILL, stroke="#9a927f",
                                             width=0.3))],
                    "land that is no territory: out of play"))
    entries.append(([Rect(3.5, 0.5, 6, 5, Style(fill="#ffffff", stroke=INK, width=0.5), r=1),
                     Line(0.5, 5.5, 3.5, 3, Style(stroke=INK, width=0.35)),
                     Circle(0.9, 5.2, 0.8, Style(fill=INK, stroke=None))],
                    "a box (or a whole block) set beside its area, joined to it by a line"))
    entries.append(([Circle(5, 3, 2.8, Style(fill="#ffffff", stroke=INK, width=0.35)),
                     Text(5, 4.05, "3", size=2.9, anchor="middle", bold=True)],
                    "production (IPC) 生産力"))
    entries.append(([Polygon(star(5, 3, 3.2), Style(fill="#999999", stroke="#000000",
                                                     width=0.25))], "capital 首都"))
    entries.append((factory_icon(2.2, 1.4, "#999999"), "starting industrial complex 工場"))
    entries.append(([Rect(2, 0, 6, 6, Style(fill="#ffffff", stroke=INK, width=0.35,
                                            dash=(1.5, 0.8)), r=1)],
                    "box for the area's stack スタック"))
    for kind, label in (("land", "land connection 陸路"),
                        ("coast", "coast connection 沿岸: a coast touches only the sea zones "
                                  "it is joined to"),
                        ("sea", "sea connection 海路")):
        entries.append(([Line(0, 3, 10, 3, ROUTE_STYLES[kind])], label))
    entries.append(([Line(0, 3, 10, 3, BARRIER)],
                    "no passage 通行不可: two territories or two sea zones that share a "
                    "border connect unless this line is on it"))
    entries.append(([Text(0, 4, "→", size=3.0, fill=SEA_INK)],
                    "connected to the area named, where the two do not touch on this map "
                    "(or their border has no room for a mark)"))
    return entries


def world_legend(game: Game, lettered=()):
    """The legend as a layout for the tiler: the width it gets -> (items, height); each
    lettered connection is an entry naming its two areas."""
    title = f"{game.info.name}: world map 世界地図"
    point_map = game.record("point_maps", MAP_ID, PointMap)
    names = far_labels(point_map.points)
    entries = legend_entries(game)
    notes = []
    if lettered:
        entries.append(([Circle(5, 3, 2.1, Style(fill="#ffffff", stroke=INK, width=0.35)),
                         Text(5, 3.75, "A", size=2.2, anchor="middle", bold=True)],
                        "lettered connection: the two areas with the same letter connect"))
        notes.append("Lettered connections (where the far area's name has no room): "
                      + "; ".join(f"{letter} {names[a]} — {names[b]}"
                                  for letter, a, b in lettered) + ".")
    credit = ("Coastlines and borders: Natural Earth (public domain). North is at the top; "
              "the board wraps round east to west.")
    return lambda width: legend_block(title, entries, width, notes, subtitle=credit)


def world_map_drawing(game: Game) -> tuple[tuple[Primitive, ...], float, float]:
    """The whole area map at full size (``world_map`` without its lettered connections)."""
    items, w, h, _lettered = world_map(game)
    return items, w, h


def seam_lanes(game: Game, paper: Paper, legend, scale: float = 1.0) -> tuple[Box4, ...]:
    """The lanes along the lines where the kit's tiles of the world map meet on ``paper``
    (``planned_seams``): the layout keeps its blocks out of them, so no seam cuts a box."""
    w, h = map_size(game.record("point_maps", MAP_ID, PointMap), scale)
    across, down = planned_seams(w, h, paper, legend)
    half = SEAM_CLEAR + LANE
    return (*((x - half, -1.0, x + half, h + 1.0) for x in across),
            *((-1.0, y - half, w + 1.0, y + half) for y in down if y < h))


def world_map(game: Game, owners: dict[str, str] | None = None, clear: tuple[Box4, ...] = (),
              scale: float = 1.0):
    """The whole area map at full size: the sea zones, the land out of play, the
    territories (each over what surrounds it), borders no piece may cross, connections,
    callouts, the areas' blocks (the legend is ``world_legend``, placed by the tiler); and
    the connections drawn as lettered badges, (letter, area, area), for the legend.
    ``owners`` (territory -> power, a session's control) tints each territory in the
    colour of the power that holds it now instead of its printed owner; ``clear`` are the
    lanes no block takes (``seam_lanes``); ``scale``, the board's (``board_scale``)."""
    point_map = game.record("point_maps", MAP_ID, PointMap)
    w, h = map_size(point_map, scale)
    areas = world_layout(game, point_map, owners, clear, scale)
    placer = LabelPlacer(labels.Box(0, 0, w, h), [
        *(b for a in areas.values() for b in a.boxes()),
        *(b for a in areas.values() if (a.callout or a.detached) and not a.apart
          for b in leader_boxes(a)),
        *(labels.Box(*lane) for lane in clear)])
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill=SEA_FILL, width=0.5),
                                   cls="map-border")]
    order = sorted(areas.values(), key=lambda a: (a.land, -sum(
        abs(areamap.ring_area(r)) for r in a.region.rings)))
    seas = [cell_items(game, a) for a in order if not a.land]
    lands = [cell_items(game, a) for a in order if a.land]
    items += [Group(tuple(seas), cls="cells sea-cells"), *out_of_play_items(game, scale),
              Group(tuple(lands), cls="cells land-cells")]
    items.append(Group(tuple(h for a in areas.values() if a.neutral for h in hatch_items(a)),
                       cls="neutral-hatching"))
    items.append(Group(tuple(barrier_items(point_map, areas)), cls="barriers"))
    routes, lettered = route_items(game, point_map, areas, placer)
    items.append(Group(tuple(routes), cls="connections"))
    items.append(Group(tuple(i for a in areas.values() if a.callout or a.detached
                             for i in callout_items(game, a)), cls="callouts"))
    items.append(Group(tuple(_halo(game, a) for a in areas.values()), cls="halos"))
    items.append(Group(tuple(area_items(game, a) for a in areas.values() if not a.land),
                       cls="sea-zones"))
    items.append(Group(tuple(area_items(game, a) for a in areas.values() if a.land),
                       cls="territories"))
    items.append(Rect(0, 0, w, h, Style(width=0.5), cls="map-frame"))
    return tuple(items), w, h, lettered


def out_of_play_items(game: Game, scale: float = 1.0) -> list[Primitive]:
    """Land no territory names (Greenland, Iceland ...), drawn plain: no piece goes there."""
    region = outlines(game, scale).get(OUT_OF_PLAY)
    if region is None:
        return []
    style = Style(fill=OUT_OF_PLAY_FILL, stroke="#9a927f", width=0.3)
    return [Group(tuple(Polygon(r, style) for r in region.rings), id="out-of-play",
                  cls="out-of-play")]


def callout_items(game: Game, area: Area) -> list[Primitive]:
    """What is set beside its area (the whole block, or the stack box): a frame in the
    area's colour and a leader from the frame to a dot in the area (by the area's name)."""
    if area.apart:
        return []
    box = area.boxes()[-1]
    (ax, ay), (cx, cy) = leader(area)
    ink = SEA_INK if not area.land else power_colour(game, str(area.point.extra.get("owner")))
    return [Line(cx, cy, ax, ay, Style(stroke=INK, width=0.35), cls="callout-leader"),
            Circle(ax, ay, 0.9, Style(fill=INK, stroke=None), cls="callout-dot"),
            Rect(box.x0 - FRAME, box.y0 - FRAME, box.w + 2 * FRAME, box.h + 2 * FRAME,
                 Style(fill=mix(area_fill(game, area), 0.8), stroke=ink, width=0.5), r=1.2,
                 id=f"callout-{area.point.id}", cls="callout")]


def _block_box(area: Area) -> labels.Box:
    return area.boxes()[0]


def _halo(game: Game, area: Area) -> Rect:
    """Behind an area's name, its cell's colour, so no connection line runs through it."""
    fill = mix(area_fill(game, area), 0.8) if area.callout else area_fill(game, area)
    rows = len(area.lines) * NAME_SIZE * 1.2 + 0.6
    width = max(text_width(line, NAME_SIZE) for line in area.lines) + 1.2
    top = area.y - (area.name_h if area.detached or area.boxless else area.h) / 2
    return Rect(area.x - width / 2, top - 0.2, width, rows,
                Style(fill=fill, stroke=None), r=0.8)


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
    display = game.record("displays", "battle-board", Display)
    stat = "attack" if group == "attacker" else "defense"
    units = units_by_value(game, stat)
    colour = "#a33a2a" if group == "attacker" else "#2a5aa3"
    label = "Attacker 攻撃側" if group == "attacker" else "Defender 防御側"
    items: list[Primitive] = [Rect(x, y, w, 7, Style(fill=colour, stroke=None)),
                              centred(label, x + w / 2, y + 5.2, 4.4, w - 4, fill="#ffffff",
                                      bold=True)]
    col_w = w / len(BOARD_VALUES)
    for i, value in enumerate(BOARD_VALUES):
        box = display.box(f"{group}-{value}")
        items.append(board_column(box, value, units.get(value, []), x + i * col_w, y + 8,
                                  col_w, h - 8, colour))
    return items


def board_column(box, value: int, names: list[str], x: float, y: float, w: float, h: float,
                 colour: str) -> Group:
    """One column: the hit value, who stands there, room for the pieces."""
    head = "≦" + str(value) if value > 1 else "1"
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill=mix(colour, 0.08), stroke=colour,
                                                     width=0.4), cls=holds.cls("board-column")),
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
    display = game.record("displays", "battle-board", Display)
    title = f"{display.label}  {rule_ref(display.rule)}".rstrip()
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
    items = (Rect(0, 0, w, h, Style(stroke="#c02020", width=1.2), cls=holds.cls("transports")),
             Text(3, 6, f"{box.name} {box.name_ja or ''}", size=3.4, bold=True, fill="#c02020"),
             Text(3, 11, "transports never roll; they are hit only when nothing else is left "
                  f"{rule_ref(box.rule)}", size=fit_text("transports never roll; they are "
                                                            "hit only when nothing else is left "
                                                            "[sea 1), L85]", 2.4, w - 6),
                  fill=GREY))
    return Group(items, dx=x, dy=y, id=f"board-{box.id}", cls="board-box transports")


def _casualty_box(display, x: float, y: float, w: float, h: float) -> Group:
    box = display.box("casualties")
    note = box.note or ""
    lines = wrap(note, 2.4, w - 6)[:3]
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill="#f6e7e7", stroke="#555555",
                                                     width=0.8, dash=(2, 1)),
                                   cls=holds.cls("casualties")),
                              Text(3, 6, f"{box.name} {box.name_ja or ''}", size=3.6, bold=True)]
    items += [Text(3, 11 + i * 3.1, line, size=2.4, fill=GREY) for i, line in enumerate(lines)]
    return Group(tuple(items), dx=x, dy=y, id=f"board-{box.id}", cls="board-box casualties")


# --- national production chart -------------------------------------------------------------


def production_pages(game: Game, options: Options) -> list[KitPage]:
    """The national production chart: one box per IPC value of the track, each a counter
    plus 2 mm (class ``holds``: the powers' markers go there), each power's starting box
    marked, the Axis economic-victory level flagged; as many rows as a page holds in a block,
    the notes under the last rows (a row moves on with them rather than leave them alone on
    a page), flowed (with the aids: a row or two that a Letter page does not hold shares a
    sheet with them)."""
    paper = options.paper.portrait
    _x0, _y0, w, h = paper.content()
    track = game.record("tracks", "national-production", Track)
    title = f"{track.label}{dagger(track.field_assumed('values'))}  {rule_ref(track.rule)}".rstrip()
    values = list(track.values)
    size = holds.least(game)
    per_row = int(w // size)
    box_w = w / per_row
    rows = -(-len(values) // per_row)
    free = rows * per_row - len(values)  # empty cells after the last box: the notes go there
    notes, notes_h = _production_notes(game, track, free * box_w - 3.0, NOTE_SIZE)
    beside = free > 0 and notes_h <= size - 1.0
    if not beside:
        notes = [Text(0, 3 + i * 4, note, size=fit_text(note, 2.8, w))
                 for i, note in enumerate(_note_texts(game, track))]
        notes_h = 4.0 * len(notes) + 3.0
    starts = _starting_levels(game)
    blocks = []
    for number, (first, count) in enumerate(_npl_chunks(len(values), per_row, size, h,
                                                         0.0 if beside else notes_h), 1):
        part = values[first:first + count]
        head = title if number == 1 else f"{track.label} (continued)"
        items: list[Primitive] = [Text(0, 5, head, size=fit_text(head, 5, w), bold=True)]
        for i, value in enumerate(part):
            r, c = divmod(i, per_row)
            items.append(npl_box(game, value, track, starts.get(int(value), []), box_w, size,
                                 c * box_w, 9 + r * size))
        height = 9 + -(-len(part) // per_row) * size
        if first + count == len(values) and beside:  # the notes in the last row's room
            items.append(Group(tuple(notes), dx=(len(part) % per_row) * box_w + 3.0,
                               dy=height - size + (size - notes_h) / 2, cls="npl-notes"))
        elif first + count == len(values):  # the notes under the last rows
            items.append(Group(tuple(notes), dy=height + 2.0, cls="npl-notes"))
            height += notes_h
        blocks.append(aids.Block(tuple(items), height, id=f"npl-chart-{number}", cls="track"))
    return kit.flowed_pages(blocks, paper, "national production")


def _npl_chunks(count: int, per_row: int, size: float, page_h: float, notes_h: float
                ) -> list[tuple[int, int]]:
    """(first, how many) values of each block of the chart: as many rows as a page holds,
    the last block's rows with the notes under them on one page (its last row on with
    them when they do not fit under it: a short block shares a page with the aids)."""
    rows = -(-count // per_row)
    full = max(1, int((page_h - 9) // size))
    with_notes = max(1, int((page_h - 9 - notes_h) // size))
    chunks = [full] * (rows // full) + ([rows % full] if rows % full else [])
    if chunks[-1] > with_notes:
        chunks[-1:] = [chunks[-1] - 1, 1]
    out, first = [], 0
    for n in chunks:
        out.append((first, min(n * per_row, count - first)))
        first += n * per_row
    return out


def _starting_levels(game: Game) -> dict[int, list[str]]:
    out: dict[int, list[str]] = {}
    for side in game.info.sides:
        value = game.constant(f"starting-ipc-{side.id}")
        out.setdefault(int(value), []).append(side.id)
    return out


def npl_box(game: Game, value, track, starters: list[str], w: float, h: float, x: float,
            y: float) -> Group:
    """One box of the production chart."""
    flagged = str(value) in track.labels
    style = Style(fill="#fff3c4" if flagged else "#ffffff", stroke="#333333",
                  width=0.8 if flagged else 0.25)
    items: list[Primitive] = [Rect(0, 0, w, h, style, id=f"npl-box-{value}",
                                   cls=holds.cls("npl-box")),
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


NOTE_SIZE = 2.1  # mm (6 pt): the production chart's notes beside its last boxes


def _production_notes(game: Game, track, w: float, size: float
                      ) -> tuple[list[Primitive], float]:
    """The chart's notes (``_note_texts``) wrapped to ``w`` at ``size``: their lines and the
    height they take."""
    items: list[Primitive] = []
    y = 0.0
    for note in _note_texts(game, track):
        more, used = aids.text_lines(note, 0, y, size, w, leading=1.25)
        items += more
        y += used
    return items, y


def _note_texts(game: Game, track) -> list[str]:
    """The production chart's notes: the flagged levels, the starting levels, income."""
    notes = [f"★ {value}: {label}" for value, label in track.labels.items()]
    starts = ", ".join(f"{s.name} {game.constant(f'starting-ipc-{s.id}')}"
                       f"{dagger(game.get('constants', f'starting-ipc-{s.id}').is_assumed)}"
                       for s in game.info.sides)
    notes.append(f"Starting NPL (coloured tabs) 初期国家生産力: {starts}")
    notes.append("Income = NPL (国家生産力レベル); move your NPL marker whenever a territory "
                 "changes hands.")
    return notes


# --- weapons development chart -------------------------------------------------------------


def weapons_page(game: Game, options: Options) -> KitPage:
    """The weapons development chart: roll, weapon, effect, a box per power for its
    control marker."""
    paper = options.paper.landscape
    x0, y0, w, _h = paper.content()
    table = game.table("weapons-development")
    title = (f"{table.label}{dagger(table.field_assumed('rows'))}  {rule_ref(table.rule)}"
             f"  dice: {table.dice}")
    items: list[Primitive] = [Text(x0, y0 + 5, title, size=fit_text(title, 5, w), bold=True)]
    sides = game.info.sides
    mark = math.ceil(holds.least(game)) + 4.0  # a column holding one power's marker
    widths = [12.0, 42.0, w - 54 - mark * len(sides), *[mark] * len(sides)]
    y = y0 + 9
    heads = ["d6", "Weapon 兵器", "Effect 効果", *[s.name for s in sides]]
    items.extend(_row(x0, y, widths, heads, HEAD_H, head=True, sides=sides, game=game))
    y += HEAD_H
    weapons = {r.id: r for r in game.section("weapons")}
    for row in table.rows:
        weapon = weapons[table.result(row)["weapon"]]
        items.append(weapon_row(game, row, table, weapon, x0, y, widths))
        y += widths[-1]
    aids.first_print(table.id)  # printed here: no play aid prints the chart again
    cost = game.constant("research-die-cost")  # the sheet's notes print with the play aids
    items.append(Text(x0, y + 5, f"Development die 兵器開発用のサイコロ: {cost} IPC each",
                      size=2.8, bold=True))
    return KitPage("weapons development", Page(paper.width, paper.height, tuple(items),
                                               id="weapons-development"))


HEAD_H = 8.5  # mm: the chart's heading row, a power's English and Japanese names


def _row(x, y, widths, texts, h, head=False, sides=(), game=None) -> list[Primitive]:
    items: list[Primitive] = []
    for i, (text, cw) in enumerate(zip(texts, widths, strict=True)):
        fill = "#e8e8e8"
        if head and i >= 3 and game is not None:
            fill = power_colour(game, sides[i - 3].id)
        style = Style(fill=fill, stroke="#555555", width=0.2)
        ink = ink_on(fill) if fill.startswith("#") else INK
        side = sides[i - 3] if head and i >= 3 and sides else None
        if side is not None and side.name_ja:  # a power by its names, English over Japanese
            items.append(Rect(x, y, cw, h, style))
            for dy, line in ((h * 0.42, text), (h * 0.82, side.name_ja)):
                items.append(Text(x + cw / 2, y + dy, line, size=fit_text(line, 2.6, cw - 2.0),
                                  anchor="middle", bold=True, fill=ink))
        else:
            items.extend(cell(x, y, cw, h, text, 2.8, style, bold=True, fill=ink))
        x += cw
    return items


def weapon_row(game: Game, row, table, weapon, x0: float, y: float, widths) -> Group:
    """One weapon: the die face, its name, its effect and one marker box per power."""
    h = widths[-1]
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
        items.append(Rect(x, 0, h, h, Style(stroke="#777777", width=0.2)))
        items.append(Rect(x + 1.5, 1.5, h - 3, h - 3, Style(fill=mix(colour, 0.15),
                                                            stroke=colour, width=0.5), r=1,
                          id=f"weapon-{weapon.id}-{side.id}", cls=holds.cls("weapon-box")))
        x += h
    return Group(tuple(items), dx=x0, dy=y, id=f"weapon-{weapon.id}", cls="weapon-row")


# --- unit reference cards ------------------------------------------------------------------


#: What a unit carries, from the constant that says how much (the engine reads the same).
CARRIES = {"transport": ("transport-capacity", "slots 枠"),
           "carrier": ("carrier-fighter-capacity", "fighters 戦闘機")}


def unit_card(game: Game, w: float) -> tuple[Group, float]:
    """The unit reference card, one for every power (the powers' units are the same): each
    unit's counter (drawn as the counter sheets draw it, in no power's colour), cost, move,
    attack, defense and what a ship carries, from the unit table and the constants; each
    power's starting IPC in its colour."""
    table = game.table("unit")
    items: list[Primitive] = [Rect(0, 0, w, 10, Style(fill="#4a4a4a", stroke=None))]
    title = f"{table.label}{dagger(table.is_assumed)}  {rule_ref(table.rule)}".rstrip()
    items.append(Text(3, 7, title, size=fit_text(title, 4.6, w - 6), bold=True, fill="#ffffff"))
    units = [game.record("units", str(row.get("type")), Unit) for row in table.rows]
    side = max(counter_size(game, u) for u in units) + 2 * PICTURE_PAD
    widths = [side, w - side - 4 * 20 - 30, 20.0, 20.0, 20.0, 20.0, 30.0]
    heads = ["", "Unit 兵種", "Cost 費用", "Move 移動力", "Attack 攻撃力", "Defense 防御力",
             "Carries 積載"]
    y = 12.0
    items.extend(_card_row(widths, heads, y, 6.0, Style(fill="#dddddd", stroke="#555555",
                                                        width=0.2), bold=True))
    y += 6
    for row, unit in zip(table.rows, units, strict=True):
        result = table.result(row)
        values = [_stat(result.get(k)) for k in ("cost", "move", "attack", "defense")]
        label = f"{row.name.title()} {row.name_ja or ''}".strip() + dagger(row.is_assumed)
        items.extend(_card_row(widths, ["", label, *values, _carries(game, row)], y, side,
                               Style(stroke="#999999", width=0.2)))
        size = counter_size(game, unit)
        items.append(Group(unit_counter(game, {"unit": unit.id, "side": None}, size),
                           dx=(side - size) / 2, dy=y + (side - size) / 2,
                           cls="unit-card-counter"))
        y += side
    y = _starting_ipc(game, items, y + 2.0, w)
    note = "Attack / defense: a die roll at or under the value hits; – never rolls."
    items.append(Text(1, y + 4, note, size=fit_text(note, 2.4, w - 2), fill=GREY))
    height = y + 6
    items.insert(0, Rect(0, 0, w, height, Style(fill="#ffffff", stroke="#4a4a4a", width=0.8)))
    return Group(tuple(items), id="unit-card", cls="unit-card"), height


PICTURE_PAD = 0.8  # mm round the counter printed in each row of the unit card


def _carries(game: Game, row) -> str:
    """What a unit carries (``2 slots``), from its constant; a dagger in a proof."""
    unit_type = str(row.get("type") or "")
    if unit_type not in CARRIES:
        return ""
    constant_id, what = CARRIES[unit_type]
    constant = game.get("constants", constant_id)
    return f"{constant.value} {what}{dagger(constant.is_assumed)}"


def _starting_ipc(game: Game, items: list[Primitive], y: float, w: float) -> float:
    """Each power's starting IPC in a chip of its colour, in one row."""
    sides = game.info.sides
    label = "Starting IPC 初期IPC"
    items.append(Text(1, y + 4.2, label, size=3.0, bold=True))
    x0 = text_width(label, 3.0) + 4
    each = (w - x0) / len(sides)
    for i, side in enumerate(sides):
        colour = power_colour(game, side.id)
        constant = game.get("constants", f"starting-ipc-{side.id}")
        text = f"{side.name} {constant.value}{dagger(constant.is_assumed)}"
        items.append(Rect(x0 + i * each, y, each - 1.5, 6.0, Style(fill=colour, stroke=None),
                          r=1))
        items.append(Text(x0 + i * each + (each - 1.5) / 2, y + 4.2, text,
                          size=fit_text(text, 3.0, each - 3), anchor="middle", bold=True,
                          fill=ink_on(colour)))
    return y + 6.0


def _stat(value) -> str:
    return "–" if value is None else str(value)


def _card_row(widths, texts, y, h, style, bold=False) -> list[Primitive]:
    items: list[Primitive] = []
    x = 0.0
    for i, (text, cw) in enumerate(zip(texts, widths, strict=True)):
        name = i <= 1  # the counter's cell, then the unit's name
        items.extend(cell(x, y, cw, h, text, 3.0, style, bold=bold or not name,
                          anchor="start" if name else "middle"))
        x += cw
    return items


def unit_card_block(game: Game, width: float) -> aids.Block:
    """The unit reference card as a block the aids flow with (it shares their page)."""
    card, height = unit_card(game, width)
    aids.first_print("unit")  # printed here: no play aid prints the unit table again
    return aids.Block((card,), height + 2.0, id="unit-reference", cls="block")


def victory_block(game: Game, width: float) -> aids.Block | None:
    """The victory check as a player reads it: the row no round-end answers as the sentence
    that opens it, then each other row as "<winner> win: <why>." (the rows of the table the
    engine reads, in their order); None when the kit has printed it already."""
    table = game.record("tables", "victory", Table)
    if not aids.first_print(table.id):
        return None
    top = aids.heading(aids.table_title(table), width, 3.2)
    items: list[Primitive] = list(top.items)
    y = top.height
    for row in table.rows:
        result = table.result(row)
        reason = str(result.get("reason"))
        if str(table.conditions(row).get("round_end")) in ("no", "False"):
            line = reason[0].upper() + reason[1:] + ":"
        else:
            winner = str(result.get("winner"))
            verb = "wins" if winner == "none" else "win"
            line = f"• {aids.result_name(table, winner)} {verb}: {reason}."
        more, used = aids.text_lines(line, 0, y, aids.SMALL * 1.15, width, dash=True)
        items += more
        y += used
    return aids.Block(tuple(items), y + 2.0, id=f"table-{table.id}", cls="table")


# --- counters ------------------------------------------------------------------------------


def unit_counter(game: Game, mix_record, size: float) -> tuple[Primitive, ...]:
    """A unit counter in its power's colour, in the layout of the style (at the end of
    games/axis_allies/game.yaml)."""
    unit = game.record("units", str(mix_record.get("unit")), Unit)
    colour = power_colour(game, str(mix_record.get("side")))
    face = face_of(game, unit, ground=colour, size=size,
                   what=f"counter-{mix_record.get('side')}-{unit.id}")
    if face.look.layout == "marker":
        face = replace(face, word=marker_word(game, unit))
    return draw(face)


@CODE.kit_part(COUNTER_FACE)
def counter_face(game: Game, record, side: str | None, _reduced: bool):
    """A unit counter in its power's colour, as the counter sheets print it (markers: the
    generic drawing)."""
    if record not in game.units:
        return None
    return unit_counter(game, {"unit": record.id, "side": side}, counter_size(game, record))


def unit_counter_pieces(game: Game) -> list[Piece]:
    """Every power's counters of every unit type, as many as the counter mix says."""
    pieces: list[Piece] = []
    for record in game.section("counter-mix"):
        unit = game.record("units", str(record.get("unit")), Unit)
        s = counter_size(game, unit)
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


def tiled_world(game: Game, paper: Paper):
    """``world_map`` as the kit tiles it on ``paper``, at the board's scale there
    (``board_scale``): its blocks kept out of the lanes where the tiles meet
    (``seam_lanes``); with the lanes, last. Worked out once per game and paper (the game
    is frozen: kept in its own ``__dict__``, as its cached properties are)."""
    kept = game.__dict__.setdefault("_tiled_world", {})
    if paper not in kept:
        kept[paper] = _tiled_world(game, paper)
    return kept[paper]


def _tiled_world(game: Game, paper: Paper):
    scale = board_scale(game, paper)
    drawing, width, height, lettered = world_map(game, scale=scale)
    clear: tuple[Box4, ...] = ()
    for _ in range(3):  # the lanes depend on the legend's height, the legend on the layout
        clear = seam_lanes(game, paper, world_legend(game, lettered), scale)
        drawing, width, height, again = world_map(game, clear=clear, scale=scale)
        if again == lettered:
            break
        lettered = again
    return drawing, width, height, lettered, clear


@CODE.kit_part("map", replaces=True)
def axis_allies_map(game: Game, options: Options) -> list[KitPage]:
    """The world map (tiled), the battle board, the national production chart, the
    weapons development chart, then the generic round track."""
    drawing, width, height, lettered, _clear = tiled_world(game, options.paper)
    pages = kit.tiled_pages(drawing, width, height, options, f"map {MAP_ID}",
                            legend=world_legend(game, lettered))
    pages += [battle_board_page(game, options), *production_pages(game, options),
              weapons_page(game, options)]
    own_tracks = {"national-production"}
    rest = replace(game, point_maps=(), displays=(),
                   tracks=tuple(t for t in game.tracks if t.id not in own_tracks))
    return pages + kit.map_pages(rest, options)


@CODE.kit_part("counters", replaces=True)
def axis_allies_counters(game: Game, options: Options) -> list[KitPage]:
    """Counters for every unit type in each power's colour (counter mix), then markers."""
    return counter_pages(game, options)


@CODE.kit_part("sheets", replaces=True)
def axis_allies_sheets(game: Game, options: Options) -> list[KitPage]:
    """A unit reference card per power, then the generic pages of the other sheets and
    the play aid of every table."""
    width = options.paper.content()[2]
    victory = victory_block(game, width)
    return kit.sheet_pages(game, options, lead=[unit_card_block(game, width),
                                                *([victory] if victory else [])],
                           own={"reference-chart"})
