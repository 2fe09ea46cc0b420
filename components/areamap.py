"""Area maps: a cell round each area's map position, and a place in it for the area's block.

Cells are the Voronoi cells of the positions inside the map's frame (each a convex
polygon: the half-planes nearer its own position than any other's), so areas sit where
the data puts them and tile the whole map. ``place_block`` finds, inside a cell, the spot
nearest its position where a block (name, symbols, a box that holds a stack) fits whole.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

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
        for k in range(24 if reach else 0):
            a = math.radians(15 * k)
            ux, uy = math.cos(a), math.sin(a)
            cell = clip(cell, ux, uy, ux * px + uy * py + reach)  # type: ignore[operator]
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
