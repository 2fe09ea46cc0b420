"""Area maps: a cell round each area's map position, and a place in it for the area's block.

Cells are the Voronoi cells of the positions inside the map's frame (each a convex
polygon: the half-planes nearer its own position than any other's), so areas sit where
the data puts them and tile the whole map. ``place_block`` finds, inside a cell, the spot
nearest its position where a block (name, symbols, a box that holds a stack) fits whole.

A map drawn from real outlines has areas of any shape (``Region``: outer rings and holes);
``place_in`` finds a block's spot in one, ``borders`` the borders regions share.
"""

from __future__ import annotations

import functools
import itertools
import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import numpy.typing as npt

Point = tuple[float, float]


def clip(polygon: list[Point], a: float, b: float, c: float) -> list[Point]:
    """The part of a convex ``polygon`` where a*x + b*y <= c (Sutherland-Hodgman)."""
    out: list[Point] = []
    for i, p in enumerate(polygon):
        q = polygon[(i + 1) % len(polygon)]
        fp, fq = a * p[0] + b * p[1] - c, a * q[0] + b * q[1] - c
        if fp <= 0:
            out.append(p)
        if fp * fq < 0:
            t = fp / (fp - fq)
            out.append((p[0] + (q[0] - p[0]) * t, p[1] + (q[1] - p[1]) * t))
    return out


def voronoi_cells(sites: Sequence[Point], frame: tuple[float, float, float, float],
                  reach: float | None = None) -> list[list[Point]]:
    """Each site's cell inside the frame (x0, y0, x1, y1), as a list of corners; with
    ``reach``, no farther than that from its site (a 24-gon round it), so that an area at
    the edge of empty board does not spread over all of it."""
    x0, y0, x1, y1 = frame
    cells = []
    for i, (px, py) in enumerate(sites):
        cell = [(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
        others = sorted((math.dist((px, py), s), j) for j, s in enumerate(sites) if j != i)
        for distance, j in others:
            if not cell:
                break
            if distance > 2 * max(math.dist((px, py), v) for v in cell):
                break  # no farther site can cut this cell any more
            qx, qy = sites[j]
            # points nearer (px, py) than (qx, qy): (q - p) . x <= (|q|^2 - |p|^2) / 2
            cell = clip(cell, qx - px, qy - py, (qx * qx + qy * qy - px * px - py * py) / 2)
        if reach:
            for k in range(24):
                a = math.radians(15 * k)
                ux, uy = math.cos(a), math.sin(a)
                cell = clip(cell, ux, uy, ux * px + uy * py + reach)
        cells.append(cell)
    return cells


def inside(polygon: Sequence[Point], x: float, y: float) -> bool:
    """True when (x, y) is inside the convex ``polygon`` (either winding) or on its edge."""
    sign = 0
    for i, (ax, ay) in enumerate(polygon):
        bx, by = polygon[(i + 1) % len(polygon)]
        cross = (bx - ax) * (y - ay) - (by - ay) * (x - ax)
        if abs(cross) < 1e-9:
            continue
        if sign == 0:
            sign = 1 if cross > 0 else -1
        elif (cross > 0) != (sign > 0):
            return False
    return True


def place_block(polygon: Sequence[Point], near: Point, w: float, h: float, margin: float = 1.0,
                step: float = 1.0) -> Point | None:
    """The centre nearest ``near`` (on a ``step`` mm grid) of a w x h block that lies whole
    inside the convex ``polygon`` with ``margin`` mm to spare; None if it fits nowhere."""
    xs = [p[0] for p in polygon]
    ys = [p[1] for p in polygon]
    hw, hh = w / 2 + margin, h / 2 + margin
    best: tuple[float, Point] | None = None
    x = math.floor(min(xs)) + hw
    while x <= max(xs) - hw:
        y = math.floor(min(ys)) + hh
        while y <= max(ys) - hh:
            d = math.dist((x, y), near)
            if (best is None or d < best[0]) and all(
                    inside(polygon, cx, cy) for cx, cy in ((x - hw, y - hh), (x + hw, y - hh),
                                                           (x + hw, y + hh), (x - hw, y + hh))):
                best = (d, (x, y))
            y += step
        x += step
    return best[1] if best else None


def shared_edge(a: Sequence[Point], b: Sequence[Point], tolerance: float = 0.01
                ) -> tuple[Point, Point] | None:
    """The border two cells share (a segment at least 1 mm long), or None."""
    def on(p: Point, poly: Sequence[Point]) -> bool:
        for i, q in enumerate(poly):
            r = poly[(i + 1) % len(poly)]
            length = math.dist(q, r)
            if length and abs((r[0] - q[0]) * (p[1] - q[1]) - (r[1] - q[1]) * (p[0] - q[0])
                              ) / length < tolerance and min(q[0], r[0]) - tolerance <= p[0] \
                    <= max(q[0], r[0]) + tolerance and min(q[1], r[1]) - tolerance <= p[1] \
                    <= max(q[1], r[1]) + tolerance:
                return True
        return False

    common = [p for p in a if on(p, b)]
    if len(common) < 2:
        return None
    p, q = max(((p, q) for p in common for q in common), key=lambda pq: math.dist(*pq))
    return (p, q) if math.dist(p, q) >= 1.0 else None


def spread(sites: list[Point], frame: tuple[float, float, float, float],
           radii: Sequence[float], passes: int = 400) -> list[Point]:
    """``sites`` pushed apart, pair by pair, until no two are nearer than the sum of their
    radii (or ``passes`` run out), each kept its radius inside the frame. Deterministic."""
    x0, y0, x1, y1 = frame
    pts = [list(p) for p in sites]
    for _ in range(passes):
        moved = False
        for i in range(len(pts)):
            for j in range(i + 1, len(pts)):
                apart = radii[i] + radii[j]
                dx, dy = pts[j][0] - pts[i][0], pts[j][1] - pts[i][1]
                d = math.hypot(dx, dy)
                if d >= apart:
                    continue
                moved = True
                if d < 1e-9:
                    dx, dy, d = 1.0, 0.0, 1.0
                push = (apart - d) / 4
                ux, uy = dx / d, dy / d
                pts[i][0] -= ux * push
                pts[i][1] -= uy * push
                pts[j][0] += ux * push
                pts[j][1] += uy * push
        for p, r in zip(pts, radii, strict=True):
            p[0] = min(max(p[0], x0 + r), x1 - r)
            p[1] = min(max(p[1], y0 + r), y1 - r)
        if not moved:
            break
    return [(p[0], p[1]) for p in pts]


# --- areas of any shape: outer rings and holes (a map drawn from real outlines) ------------


def parse_ring(text: str) -> list[Point]:
    """``"x,y x,y ..."`` -> [(x, y), ...]."""
    return [(float(a), float(b)) for a, _, b in (p.partition(",") for p in text.split())]


def in_ring(ring: Sequence[Point], x: float, y: float) -> bool:
    """True when (x, y) is inside ``ring`` (any simple polygon; even-odd rule)."""
    hit = False
    n = len(ring)
    for i in range(n):
        ax, ay = ring[i]
        bx, by = ring[i - 1]
        if (ay > y) != (by > y) and x < ax + (bx - ax) * (y - ay) / (by - ay):
            hit = not hit
    return hit


@dataclass(frozen=True)
class Region:
    """An area of any shape: its outer rings and its holes (in mm)."""

    rings: tuple[tuple[Point, ...], ...]
    holes: tuple[tuple[Point, ...], ...] = ()

    def inside(self, x: float, y: float) -> bool:
        return (any(in_ring(r, x, y) for r in self.rings)
                and not any(in_ring(h, x, y) for h in self.holes))

    @property
    def main(self) -> tuple[Point, ...]:
        """The largest outer ring."""
        return max(self.rings, key=lambda r: abs(ring_area(r)))

    def box_inside(self, x0: float, y0: float, x1: float, y1: float) -> bool:
        """True when the box lies whole in the region: its corners inside and no corner of
        the region's outline inside the box."""
        if not all(self.inside(x, y) for x, y in ((x0, y0), (x1, y0), (x1, y1), (x0, y1))):
            return False
        return not any(x0 < x < x1 and y0 < y < y1
                       for ring in (*self.rings, *self.holes) for x, y in ring)

    def bounds(self) -> tuple[float, float, float, float]:
        xs = [x for r in self.rings for x, _ in r]
        ys = [y for r in self.rings for _, y in r]
        return min(xs), min(ys), max(xs), max(ys)


def ring_area(ring: Sequence[Point]) -> float:
    """Signed area (shoelace)."""
    return sum(ring[i - 1][0] * ring[i][1] - ring[i][0] * ring[i - 1][1]
               for i in range(len(ring))) / 2


def grid_inside(ring: Sequence[Point], xs: npt.ArrayLike, ys: npt.ArrayLike
                ) -> npt.NDArray[np.bool_]:
    """A boolean array (len(ys) x len(xs)): which grid points lie in ``ring`` (even-odd,
    vectorised over the grid)."""
    gx, gy = np.meshgrid(np.asarray(xs, float), np.asarray(ys, float))
    hit = np.zeros(gx.shape, dtype=bool)
    pts = np.asarray(ring, float)
    for (ax, ay), (bx, by) in zip(pts, np.roll(pts, 1, axis=0), strict=True):
        if ay == by:
            continue
        crosses = (ay > gy) != (by > gy)
        hit ^= crosses & (gx < ax + (bx - ax) * (gy - ay) / (by - ay))
    return hit


def place_in(region: Region, near: Point, w: float, h: float, margin: float = 1.0,
             step: float = 1.0, avoid: Sequence[tuple[float, float, float, float]] = ()
             ) -> Point | None:
    """The centre nearest ``near`` (on a ``step`` mm grid over the region's largest ring) of
    a w x h block lying whole in ``region`` with ``margin`` mm to spare, overlapping none of
    the boxes (x0, y0, x1, y1) to ``avoid``; None if none."""
    hw, hh = w / 2 + margin, h / 2 + margin
    ring = region.main
    x0 = min(x for x, _ in ring) + hw
    x1 = max(x for x, _ in ring) - hw
    y0 = min(y for _, y in ring) + hh
    y1 = max(y for _, y in ring) - hh
    if x1 < x0 or y1 < y0:
        return None
    xs = np.arange(math.floor(x0), x1 + 1e-9, step)
    ys = np.arange(math.floor(y0), y1 + 1e-9, step)
    js, is_ = np.nonzero(grid_inside(ring, xs, ys))
    cx, cy = xs[is_], ys[js]
    if len(avoid):
        b = np.asarray(avoid, float)
        hit = ((cx[:, None] - hw < b[:, 2]) & (b[:, 0] < cx[:, None] + hw)
               & (cy[:, None] - hh < b[:, 3]) & (b[:, 1] < cy[:, None] + hh))
        keep = ~hit.any(axis=1)
        cx, cy = cx[keep], cy[keep]
    order = np.lexsort((cy, cx, np.hypot(cx - near[0], cy - near[1])))
    cx, cy = cx[order], cy[order]
    for start in range(0, len(cx), CHUNK):  # nearest first, a chunk at a time
        x, y = cx[start:start + CHUNK], cy[start:start + CHUNK]
        fits = np.nonzero(boxes_inside(region, x - hw, y - hh, x + hw, y + hh))[0]
        if len(fits):
            return float(x[fits[0]]), float(y[fits[0]])
    return None


CHUNK = 64  # candidate spots tested at once
Floats = npt.NDArray[np.float64]
Bools = npt.NDArray[np.bool_]


def rings_inside(region: Region, px: Floats, py: Floats) -> Bools:
    """``Region.inside`` of every point (px[k], py[k]) at once."""
    hit = np.zeros(len(px), dtype=bool)
    for ring in region.rings:
        hit |= _in_ring_many(ring, px, py)
    for hole in region.holes:
        hit &= ~_in_ring_many(hole, px, py)
    return hit


@functools.lru_cache(maxsize=4096)
def _edges(ring: tuple[Point, ...]
           ) -> tuple[Floats, Floats, Floats, Floats, tuple[float, float, float, float]]:
    """A ring's corners and the corners before them, as arrays, and its bounds."""
    pts = np.asarray(ring, float)
    ax, ay = pts[:, 0], pts[:, 1]
    return (ax, ay, np.roll(ax, 1), np.roll(ay, 1),
            (float(ax.min()), float(ay.min()), float(ax.max()), float(ay.max())))


def _in_ring_many(ring: Sequence[Point], px: Floats, py: Floats) -> Bools:
    """``in_ring`` of every point (px[k], py[k]) at once (the same arithmetic)."""
    ax, ay, bx, by, (x0, y0, x1, y1) = _edges(tuple(ring))
    if not np.any((px >= x0) & (px <= x1) & (py >= y0) & (py <= y1)):
        return np.zeros(len(px), dtype=bool)
    y = py[:, None]
    crosses = (ay > y) != (by > y)
    with np.errstate(divide="ignore", invalid="ignore"):
        hit = crosses & (px[:, None] < ax + (bx - ax) * (y - ay) / (by - ay))
    inside: Bools = (np.count_nonzero(hit, axis=1) % 2) == 1
    return inside


def boxes_inside(region: Region, x0: Floats, y0: Floats, x1: Floats, y1: Floats) -> Bools:
    """``Region.box_inside`` of every box (x0[k], y0[k], x1[k], y1[k]) at once."""
    ok = np.ones(len(x0), dtype=bool)
    for cx, cy in ((x0, y0), (x1, y0), (x1, y1), (x0, y1)):
        ok &= rings_inside(region, cx, cy)
    corners = np.asarray([p for ring in (*region.rings, *region.holes) for p in ring], float)
    vx, vy = corners[:, 0], corners[:, 1]
    within = ((x0[:, None] < vx) & (vx < x1[:, None]) & (y0[:, None] < vy) & (vy < y1[:, None]))
    fits: Bools = ok & ~within.any(axis=1)
    return fits


def inner_point(region: Region, step: float = 1.0) -> Point:
    """A point well inside the region's largest ring: of a grid over it, the one farthest
    from the ring's corners (a cheap pole of inaccessibility)."""
    ring = region.main
    xs = np.arange(min(x for x, _ in ring), max(x for x, _ in ring), step)
    ys = np.arange(min(y for _, y in ring), max(y for _, y in ring), step)
    if len(xs) == 0 or len(ys) == 0:
        return ring[0]
    ok = grid_inside(ring, xs, ys)
    if not ok.any():
        return ring[0]
    gx, gy = np.meshgrid(xs, ys)
    px, py = gx[ok], gy[ok]
    pts = np.asarray(ring, float)
    far = np.full(px.shape, np.inf)
    for vx, vy in pts:
        far = np.minimum(far, (px - vx) ** 2 + (py - vy) ** 2)
    k = int(np.argmax(far))
    return float(px[k]), float(py[k])


#: an outline edge, its two ends in order (``_edge_key``)
Edge = tuple[Point, Point]


def _edge_key(p: Point, q: Point) -> Edge:
    a = (round(p[0], 1), round(p[1], 1))
    b = (round(q[0], 1), round(q[1], 1))
    return (a, b) if a <= b else (b, a)


def borders(regions: dict[str, Region]) -> dict[frozenset[str], list[list[Point]]]:
    """Every pair of regions that share outline edges, with the borders they share as
    polylines (the regions' outlines must meet corner to corner, as a simplified coverage
    does)."""
    owners: dict[Edge, set[str]] = {}
    for rid, region in regions.items():
        for ring in (*region.rings, *region.holes):
            for i in range(len(ring)):
                owners.setdefault(_edge_key(ring[i - 1], ring[i]), set()).add(rid)
    pairs: dict[frozenset[str], list[Edge]] = {}
    for edge, ids in owners.items():
        if len(ids) == 2:
            pairs.setdefault(frozenset(ids), []).append(edge)
    return {pair: chains(edges) for pair, edges in sorted(pairs.items(), key=lambda kv:
                                                          sorted(kv[0]))}


def chains(edges: list[Edge]) -> list[list[Point]]:
    """Edges (pairs of points) joined end to end into polylines, longest first."""
    at: dict[Point, list[Edge]] = {}
    for e in edges:
        for p in e:
            at.setdefault(p, []).append(e)
    unused = set(edges)
    out = []
    for start in sorted(edges):
        if start not in unused:
            continue
        unused.discard(start)
        line = [start[0], start[1]]
        for end in (1, 0):  # grow from the last point, then from the first
            while True:
                tip = line[-1] if end else line[0]
                nxt = next((e for e in at[tip] if e in unused), None)
                if nxt is None:
                    break
                unused.discard(nxt)
                other = nxt[1] if nxt[0] == tip else nxt[0]
                if end:
                    line.append(other)
                else:
                    line.insert(0, other)
        out.append(line)
    return sorted(out, key=lambda line: -sum(math.dist(a, b)
                                              for a, b in itertools.pairwise(line)))
