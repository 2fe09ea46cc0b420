"""Derive the Axis & Allies world board's outlines from Natural Earth (run once, by hand).

Not part of warpress at run time: it needs shapely and numpy and the Natural Earth data
(public domain) as the npm package ``world-atlas`` (2.0.2) ships it: TopoJSON of Natural
Earth's 1:50m admin-0 countries. Usage::

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python tools/derive_world_map.py package/countries-50m.json CENTERS > \\
        games/axis_allies/world-outlines.yaml

CENTERS is the Classic board's label points (name  (x,y) on a 3500x2000 board), a public
reference of where each area sits on the published board. What it does:

1. Each territory is a list of Natural Earth countries (``TERRITORIES``); a country that
   several territories share is split between them by the nearest of their seeds (a real
   longitude, latitude of each). Island territories Natural Earth has no polygon for are a
   small round island at their real position (``ISLANDS``). Land no territory names
   (Greenland, Iceland ...) stays land out of play.
2. The board's projection: longitude runs from 100 W across the world to 85 W (375
   degrees: the Americas' west coast on the right edge, the east on the left, as on the
   published board); x and y are piecewise-linear in longitude and latitude, fitted so
   that each territory's real position lands where the published board puts it (so
   Europe is large, as there), then scaled to 770 x 440 mm.
3. Sea zones: the sea (the board less the land) split among the sea zones' positions on
   the published board, nearest first, each water body only among its own zones.
4. The whole coverage simplified together (shared borders stay shared), rounded to 0.1 mm.
"""

from __future__ import annotations

import json
import re
import sys

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Point, Polygon, box
from shapely.ops import unary_union

W, H = 770.0, 440.0
LON0, LON1 = -100.0, 275.0  # the board's west and east edges (degrees, east of 100 W)
LAT0, LAT1 = 82.0, -62.0  # top and bottom
REF_W, REF_H = 3500.0, 2000.0
SIMPLIFY = 0.6  # mm
#: Territories drawn on the right (west) side of the board: longitudes west of 0 get +360.
WEST = {"alaska", "west-us", "west-canada", "mexico", "hawaiian-islands", "midway"}

#: territory id -> Natural Earth country names (50m admin-0 "name").
TERRITORIES: dict[str, list[str]] = {
    "afghanistan": ["Afghanistan"],
    "alaska": ["United States of America"],
    "algeria": ["Algeria", "Morocco", "Tunisia"],
    "anglo-sudan-egypt": ["Egypt", "Sudan", "S. Sudan"],
    "angola": ["Angola"],
    "argentina-chile": ["Argentina", "Chile", "Uruguay", "Falkland Is."],
    "australia": ["Australia"],
    "borneo-celebes": ["Indonesia", "Malaysia", "Brunei"],
    "brazil": ["Brazil", "Guyana", "Suriname", "Paraguay", "France"],
    "caroline-islands": ["Micronesia", "Palau", "Marshall Is.", "N. Mariana Is.", "Guam"],
    "caucasus": ["Russia", "Georgia", "Armenia", "Azerbaijan"],
    "china": ["China"],
    "columbia": ["Colombia", "Venezuela", "Ecuador", "Trinidad and Tobago"],
    "congo": ["Dem. Rep. Congo", "Rwanda", "Burundi", "Uganda"],
    "cuba": ["Cuba", "Jamaica", "Haiti", "Dominican Rep.", "Bahamas", "Puerto Rico"],
    "east-indies": ["Indonesia", "Timor-Leste"],
    "east-canada": ["Canada"],
    "east-europe": ["Poland", "Belarus", "Lithuania", "Latvia", "Estonia", "Romania",
                    "Hungary", "Slovakia", "Moldova"],
    "east-us": ["United States of America"],
    "eire": ["Ireland"],
    "evenki-national-okrug": ["Russia"],
    "finland-norway": ["Finland", "Norway", "Åland"],
    "french-equatorial-africa": ["Chad", "Central African Rep.", "Congo", "Gabon", "Cameroon",
                                 "Eq. Guinea", "Nigeria"],
    "french-indo-china": ["Vietnam", "Laos", "Cambodia", "Thailand", "Malaysia", "Singapore"],
    "french-west-africa": ["Mauritania", "Mali", "Senegal", "Gambia", "Guinea", "Guinea-Bissau",
                           "Sierra Leone", "Liberia", "Côte d'Ivoire", "Burkina Faso", "Niger",
                           "Ghana", "Togo", "Benin"],
    "germany": ["Germany", "Austria", "Czechia", "Denmark"],
    "gibraltar": [],
    "hawaiian-islands": ["United States of America"],
    "india": ["India", "Pakistan", "Bangladesh", "Nepal", "Bhutan", "Sri Lanka", "Myanmar"],
    "italian-east-africa": ["Ethiopia", "Eritrea", "Somalia", "Somaliland", "Djibouti"],
    "japan": ["Japan"],
    "karelia-ssr": ["Russia"],
    "kazakh-ssr": ["Kazakhstan", "Uzbekistan", "Turkmenistan", "Kyrgyzstan", "Tajikistan"],
    "kenya-rhodesia": ["Kenya", "Tanzania", "Zambia", "Zimbabwe", "Malawi"],
    "kwangtung": ["China", "Hong Kong", "Macao", "Taiwan"],
    "libya": ["Libya"],
    "madagascar": ["Madagascar"],
    "manchuria": ["China", "North Korea", "South Korea"],
    "mexico": ["Mexico"],
    "midway": [],
    "mongolia": ["Mongolia"],
    "mozambique": ["Mozambique"],
    "new-guinea": ["Papua New Guinea", "Indonesia"],
    "new-zealand": ["New Zealand"],
    "novosibirsk": ["Russia"],
    "okinawa": ["Japan"],
    "panama": ["Panama", "Costa Rica", "Nicaragua", "Honduras", "El Salvador", "Guatemala",
               "Belize"],
    "persia": ["Iran", "Iraq", "Kuwait"],
    "peru": ["Peru", "Bolivia"],
    "philippines": ["Philippines"],
    "rio-del-oro": ["W. Sahara"],
    "russia": ["Russia"],
    "saudi-arabia": ["Saudi Arabia", "Yemen", "Oman", "United Arab Emirates", "Qatar",
                     "Bahrain"],
    "sinkiang": ["China"],
    "solomon-islands": ["Solomon Is.", "Papua New Guinea", "Vanuatu"],
    "south-africa": ["South Africa", "Namibia", "Botswana", "Lesotho", "eSwatini"],
    "south-europe": ["Italy", "Yugoslavia", "Serbia", "Croatia", "Bosnia and Herz.", "Slovenia",
                     "Montenegro", "Kosovo", "Albania", "Macedonia", "Greece", "Bulgaria"],
    "soviet-far-east": ["Russia"],
    "spain": ["Spain", "Portugal", "Andorra"],
    "sweden": ["Sweden"],
    "switzerland": ["Switzerland", "Liechtenstein"],
    "syria-jordan": ["Syria", "Jordan", "Lebanon", "Israel", "Palestine", "Cyprus",
                     "N. Cyprus"],
    "turkey": ["Turkey"],
    "ukraine-ssr": ["Ukraine"],
    "united-kingdom": ["United Kingdom", "Isle of Man"],
    "wake-island": [],
    "west-canada": ["Canada"],
    "west-europe": ["France", "Belgium", "Netherlands", "Luxembourg"],
    "west-us": ["United States of America"],
    "yakut-ssr": ["Russia"],
}

#: Seeds (longitude, latitude) that split a country several territories share.
SEEDS: dict[str, tuple[float, float]] = {
    "alaska": (-152, 63), "west-us": (-113, 40), "east-us": (-84, 38),
    "hawaiian-islands": (-157, 20.5), "east-canada": (-75, 52), "west-canada": (-115, 57),
    "karelia-ssr": (36, 64), "russia": (50, 56), "caucasus": (44, 45),
    "novosibirsk": (80, 56), "evenki-national-okrug": (98, 66), "yakut-ssr": (125, 63),
    "soviet-far-east": (150, 60),
    "china": (109, 32), "kwangtung": (113, 23.5), "manchuria": (126, 44), "sinkiang": (84, 41),
    "japan": (138, 36), "okinawa": (127.8, 26.4),
    "east-indies": (106, -4), "borneo-celebes": (117, 0), "new-guinea": (139, -4),
    "french-indo-china": (102, 10), "solomon-islands": (160, -9),
    "brazil": (-53, 4), "west-europe": (2, 47),
}
#: A piece of a shared country farther than this (degrees) from its territory's seed is
#: no part of the board (France's islands in the Indian Ocean).
FARTHEST = 25.0
#: Sea zones whose label point on the published board falls in another water body here:
#: a real position (longitude, latitude) instead.
SEA_SEEDS = {"baltic-sea-zone": (19.0, 57.0)}
#: Island territories without a Natural Earth polygon: (longitude, latitude).
ISLANDS = {"midway": (-177.4, 28.2), "wake-island": (166.6, 19.3)}
#: Gibraltar: cut from Spain's south tip round this point, this many mm.
GIBRALTAR = ((-5.35, 36.14), 9.0)
#: Island territories drawn at least this big (mm across), so that a player sees them.
LEAST_ISLAND = 7.0


def decode_object(topo: dict, name: str):
    """All the polygons of one TopoJSON object (Natural Earth's ``land``) as one geometry."""
    return unary_union(list(decode(topo, name).values()))


def decode(topo: dict, name: str = "countries") -> dict[str, MultiPolygon]:
    """Each geometry of a TopoJSON object (quantized) in longitude, latitude, by its
    ``name`` property (a country's name) or its index."""
    sx, sy = topo["transform"]["scale"]
    tx, ty = topo["transform"]["translate"]
    arcs = []
    for arc in topo["arcs"]:
        x = y = 0
        points = []
        for dx, dy in arc:
            x += dx
            y += dy
            points.append((x * sx + tx, y * sy + ty))
        arcs.append(points)

    def ring(indices):
        """A ring's points, longitudes unwrapped (a ring across 180 degrees runs on past it
        rather than round the world)."""
        out = []
        for i in indices:
            pts = arcs[i] if i >= 0 else arcs[~i][::-1]
            out.extend(pts if not out else pts[1:])
        for k in range(1, len(out)):
            lon, lat = out[k]
            while lon - out[k - 1][0] > 180:
                lon -= 360
            while lon - out[k - 1][0] < -180:
                lon += 360
            out[k] = (lon, lat)
        if min(lon for lon, _ in out) < -180:  # keep the ring east of 180 W
            out = [(lon + 360, lat) for lon, lat in out]
        return out

    countries = {}
    for g in topo["objects"][name]["geometries"]:
        polys = g["arcs"] if g["type"] == "MultiPolygon" else [g["arcs"]] if g.get("arcs") else []
        parts = [Polygon(ring(p[0]), [ring(h) for h in p[1:]]) for p in polys]
        whole = unary_union([shapely.make_valid(p) for p in parts if not p.is_empty])
        countries[(g.get("properties") or {}).get("name") or str(len(countries))] = MultiPolygon(
            [p for p in getattr(whole, "geoms", [whole]) if p.geom_type == "Polygon"])
    return countries


def reference_points(path: str) -> dict[str, tuple[float, float]]:
    out = {}
    for line in open(path, encoding="utf-8"):
        m = re.match(r"(.+?)\s+\((\d+),(\d+)\)", line.strip())
        if m:
            name = m.group(1).strip()
            out[name] = (float(m.group(2)) / REF_W * W, float(m.group(3)) / REF_H * H)
    return out


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def shifted(lon: float, west: bool) -> float:
    if west and lon < 0:
        return lon + 360
    return lon + 360 if lon < LON0 else lon


def fit(values: list[tuple[float, float]], knots: np.ndarray, lo: float, hi: float,
        least: float) -> np.ndarray:
    """Knot values of a piecewise-linear map through (degree, mm) pairs: least squares with
    a smoothness penalty, the ends pinned at lo and hi, increasing at ``least`` mm a degree
    at the least (degrees may run either way: knots in the order they map)."""
    n = len(knots)
    rows, rhs = [], []
    for d, mm in values:
        k = np.searchsorted(knots, d) - 1
        k = min(max(k, 0), n - 2)
        t = (d - knots[k]) / (knots[k + 1] - knots[k])
        row = np.zeros(n)
        row[k], row[k + 1] = 1 - t, t
        rows.append(row)
        rhs.append(mm)
    smooth = 0.6
    for k in range(1, n - 1):
        row = np.zeros(n)
        row[k - 1], row[k], row[k + 1] = smooth, -2 * smooth, smooth
        rows.append(row)
        rhs.append(0.0)
    for k, value in ((0, lo), (n - 1, hi)):
        row = np.zeros(n)
        row[k] = 40.0
        rows.append(row)
        rhs.append(40.0 * value)
    v = np.linalg.lstsq(np.array(rows), np.array(rhs), rcond=None)[0]
    steps = np.diff(knots)
    for k in range(1, n):  # increasing, then rescaled onto lo..hi
        v[k] = max(v[k], v[k - 1] + least * abs(steps[k - 1]))
    return lo + (v - v[0]) * (hi - lo) / (v[-1] - v[0])


def main(countries_path: str, centers_path: str) -> None:
    ids, _geoms, simple = derive(countries_path, centers_path)
    write(ids, simple)


def derive(countries_path: str, centers_path: str):
    countries = decode(json.load(open(countries_path, encoding="utf-8")))
    ref = {slug(k): v for k, v in reference_points(centers_path).items()}
    ref = {k.replace("karelia-s-s-r", "karelia-ssr").replace("kazakh-s-s-r", "kazakh-ssr")
           .replace("ukraine-s-s-r", "ukraine-ssr").replace("yakut-s-s-r", "yakut-ssr"): v
           for k, v in ref.items()}
    # 1. territories in longitude, latitude
    owners: dict[str, list[str]] = {}
    for t, names in TERRITORIES.items():
        for name in names:
            owners.setdefault(name, []).append(t)
    land: dict[str, list] = {t: [] for t in TERRITORIES}
    for name, geom in countries.items():
        ts = owners.get(name)
        if not ts:
            continue
        for part in geom.geoms:
            if len(ts) == 1:
                land[ts[0]].append(part)
                continue
            seeded = [t for t in ts if t in SEEDS]
            for piece in split(part, seeded):
                land[piece[0]].append(piece[1])
    geo = {t: unary_union(parts) for t, parts in land.items() if parts}
    # real positions -> the fitted projection
    real = {t: g.representative_point() for t, g in geo.items()}
    for t, (lon, lat) in ISLANDS.items():
        real[t] = Point(lon, lat)
    real["gibraltar"] = Point(*GIBRALTAR[0])
    xs = [(shifted(p.x, t in WEST), ref[t][0]) for t, p in real.items() if t in ref]
    ys = [(p.y, ref[t][1]) for t, p in real.items() if t in ref]
    kx = np.arange(LON0, LON1 + 0.1, 12.5)
    ky = np.arange(LAT1, LAT0 + 0.1, 8.0)
    vx = fit(xs, kx, 0.0, W, 0.9)
    vy = fit([(-lat, mm) for lat, mm in ys], -ky[::-1], 0.0, H, 1.4)

    def project(lon, lat, west):
        return (float(np.interp(shifted(lon, west), kx, vx)),
                float(np.interp(-lat, -ky[::-1], vy)))

    def to_board(g, west):
        return shapely.transform(g, lambda a: np.array(
            [project(x, y, west) for x, y in a]), interleaved=True)

    board = box(0, 0, W, H)
    areas = {t: to_board(g.segmentize(1.0), t in WEST).buffer(0).intersection(board)
             for t, g in geo.items()}
    others = [to_board(g.segmentize(1.0), False).buffer(0) for name, g in countries.items()
              if name not in owners and name != "Antarctica"]
    for t, (lon, lat) in ISLANDS.items():
        areas[t] = Point(project(lon, lat, t in WEST)).buffer(LEAST_ISLAND / 2, 16)
    centre = Point(project(*GIBRALTAR[0], False))
    cut = centre.buffer(GIBRALTAR[1], 24).intersection(areas["spain"])
    areas["gibraltar"] = cut
    areas["spain"] = areas["spain"].difference(cut)
    for t in ("caroline-islands", "solomon-islands", "okinawa", "hawaiian-islands"):
        areas[t] = grown(areas[t])
    for t, g in areas.items():  # later areas never overlap earlier ones
        for u, h in areas.items():
            if u < t and g.intersects(h):
                areas[t] = areas[t].difference(h)
    out_of_play = unary_union(others).difference(unary_union(list(areas.values())))
    out_of_play = out_of_play.intersection(board)
    # 3. sea zones
    sea_ids = [p for p in ref if p.endswith("-sea-zone")]
    sea = board.difference(unary_union([*areas.values(), out_of_play]))
    seeds = {s: ref[s] for s in sea_ids}
    seeds.update({s: project(lon, lat, False) for s, (lon, lat) in SEA_SEEDS.items()})
    zones = split_sea(sea, seeds)
    for _none, lake in zones.pop("", []):
        owner = max(areas, key=lambda t: (areas[t].boundary.intersection(lake.buffer(0.05))
                                          .length, -areas[t].distance(lake)))
        areas[owner] = unary_union([areas[owner], lake])
    for s in list(zones):  # a zone's stray pieces go to the zone beside them
        parts = sorted(getattr(zones[s], "geoms", [zones[s]]), key=lambda p: -p.area)
        kept = [parts[0]]
        for stray in parts[1:]:
            shared = {z: zones[z].boundary.intersection(stray.buffer(0.05)).length
                      for z in zones if z != s}
            near = max(shared, key=shared.get)
            if shared[near] > 0.5:
                zones[near] = unary_union([zones[near], stray])
            else:
                kept.append(stray)
        zones[s] = unary_union(kept)
    # 4. simplify together, round
    ids = list(areas) + list(zones) + ["out-of-play"]
    geoms = [areas[t] for t in areas] + [zones[s] for s in zones] + [out_of_play]
    simple = shapely.coverage_simplify(np.array([shapely.make_valid(g) for g in geoms]),
                                       SIMPLIFY, simplify_boundary=False)
    simple = shapely.set_precision(simple, 0.1)
    return ids, geoms, simple


def grown(g, least: float = LEAST_ISLAND):
    """Each island of ``g`` at least ``least`` mm across."""
    parts = []
    for p in getattr(g, "geoms", [g]):
        x0, y0, x1, y1 = p.bounds
        size = max(x1 - x0, y1 - y0)
        parts.append(p.buffer((least - size) / 2, 16) if size < least else p)
    return unary_union(parts)


def split(part, seeded: list[str]):
    """A country's polygon among the territories seeded: nearest seed (in degrees)."""
    if len(seeded) == 1:
        return [(seeded[0], part)]
    pts = shapely.MultiPoint([SEEDS[t] for t in seeded])
    cells = shapely.voronoi_polygons(pts, extend_to=box(-400, -100, 400, 100))
    out = []
    for cell in cells.geoms:
        t = next(t for t in seeded if cell.contains(Point(SEEDS[t])))
        piece = part.intersection(cell)
        if not piece.is_empty and piece.distance(Point(SEEDS[t])) < FARTHEST:
            out.append((t, piece))
    return out


def split_sea(sea, seeds: dict[str, tuple[float, float]]):
    """The sea among the zones: each water body among the zones seeded in it (a seed on
    land goes to the nearest water); a water body without a zone is a lake, given to the
    land round it (key '')."""
    bodies = list(getattr(sea, "geoms", [sea]))
    placed = {}
    for s, (x, y) in seeds.items():
        p = Point(x, y)
        body = min(range(len(bodies)), key=lambda i: bodies[i].distance(p))
        placed.setdefault(body, []).append((s, p))
    zones: dict = {}
    for i, body in enumerate(bodies):
        inside = placed.get(i, [])
        if not inside:
            zones.setdefault("", []).append(body)
            continue
        if len(inside) == 1:
            zones[inside[0][0]] = unary_union([zones.get(inside[0][0], Polygon()), body])
            continue
        cells = shapely.voronoi_polygons(shapely.MultiPoint([p for _s, p in inside]),
                                         extend_to=body.envelope.buffer(10))
        for cell in cells.geoms:
            s = next(s for s, p in inside if cell.contains(p))
            piece = body.intersection(cell)
            zones[s] = unary_union([zones.get(s, Polygon()), piece])
    zones[""] = [(None, b) for b in zones.get("", [])]
    return zones


def rings_of(g) -> tuple[list[str], list[str]]:
    """A geometry's outer rings and its holes as "x,y x,y ..." strings (mm, 0.1 mm), rings
    under 0.5 mm2 left out."""
    outer, holes = [], []
    for p in getattr(g, "geoms", [g]):
        if p.is_empty or p.geom_type != "Polygon":
            continue
        for ring, into in ((p.exterior, outer), *((r, holes) for r in p.interiors)):
            if Polygon(ring).area >= 0.5:
                into.append(" ".join(f"{x:g},{y:g}" for x, y in ring.coords[:-1]))
    return outer, holes


HEADER = """\
# The world board's outlines: every territory and sea zone of the world map (map.yaml) as
# the area the kit draws, in mm on the 770 x 440 mm board (x right, y down), "x,y x,y ..."
# per ring; holes are the islands and lakes inside an area; out-of-play is land no
# territory names (Greenland, Iceland ...).
# Source: Natural Earth 1:50m Cultural Vectors, admin-0 countries (public domain,
# naturalearthdata.com), as TopoJSON in the npm package world-atlas 2.0.2 (ISC licence),
# derived by tools/derive_world_map.py: countries grouped into the Classic board's
# territories, the projection fitted to the Classic board's public label points (where
# each area sits on the published board), sea zones split among the sea zones' label
# points, all simplified together (0.6 mm) so shared borders stay shared. Midway and Wake
# are round islands at their real position; Gibraltar is cut from Spain round its own.
"""
NOTE = "outline: Natural Earth 1:50m (public domain), tools/derive_world_map.py"


def write(ids, geoms) -> None:
    print(HEADER + "outlines:", end="\n")
    for t, g in zip(ids, geoms, strict=True):
        outer, holes = rings_of(g)
        print(f"  - id: {t}")
        print(f"    source: assumed\n    note: \"{NOTE}\"")
        print("    rings:")
        for r in outer:
            print(f"      - \"{r}\"")
        if holes:
            print("    holes:")
            for r in holes:
                print(f"      - \"{r}\"")


if __name__ == "__main__":
    main(*sys.argv[1:3])
