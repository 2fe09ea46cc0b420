"""Derive Nimitz's campaign-map coastlines from Natural Earth (run once, by hand).

Not part of warpress at run time: it needs shapely and the Natural Earth data (public
domain) as the npm package ``world-atlas`` (2.0.2) ships it: TopoJSON of Natural Earth's
1:50m land. Usage::

    npm pack world-atlas@2.0.2 && tar xzf world-atlas-2.0.2.tgz
    python tools/derive_pacific_coastlines.py package/land-50m.json

and put what it prints in place of the ``coastlines`` section at the end of
games/nimitz/map.yaml.

The land inside the map's frame (longitude 100 E to 110 W, counted east past 180 as 180 to
250; latitude 62 N to 42 S), simplified to 0.12 degrees, islands under 0.03 square
degrees left out, in degrees with two decimals. The kit projects them (and the points'
longitudes and latitudes) onto the printed map.
"""

from __future__ import annotations

import json
import sys

import shapely
import shapely.affinity
from derive_world_map import decode_object
from shapely.geometry import box

WEST, EAST, NORTH, SOUTH = 100.0, 250.0, 62.0, -42.0
SIMPLIFY = 0.12
LEAST = 0.03

HEADER = f"""\
# Nimitz's campaign map: the land of the Pacific the map shows, as rings of "lon,lat
# lon,lat ..." (degrees; east of 180 counted on: 200 is 160 W). The frame: longitude
# {WEST:g} to {EAST:g}, latitude {NORTH:g} to {SOUTH:g}. Points are placed by their own
# lon, lat (map.yaml), projected the same way.
# Source: Natural Earth 1:50m Physical Vectors, land (public domain, naturalearthdata.com),
# as TopoJSON in the npm package world-atlas 2.0.2 (ISC licence), clipped to the frame,
# simplified to {SIMPLIFY:g} degrees, islands under {LEAST:g} square degrees left out, by
# tools/derive_pacific_coastlines.py.
"""


def main(path: str) -> None:
    land = decode_object(json.load(open(path, encoding="utf-8")), "land")
    parts = []  # land wholly west of 0 degrees is counted east past 180 (the Americas)
    for p in getattr(land, "geoms", [land]):
        parts.append(shapely.affinity.translate(p, 360) if p.bounds[2] <= 0 else p)
    whole = shapely.union_all([shapely.make_valid(p) for p in parts])
    clipped = whole.intersection(box(WEST, SOUTH, EAST, NORTH)).simplify(SIMPLIFY)
    rings = []
    for p in getattr(clipped, "geoms", [clipped]):
        if p.geom_type != "Polygon" or p.area < LEAST:
            continue
        rings.append(" ".join(f"{x:.2f},{y:.2f}" for x, y in p.exterior.coords[:-1]))
    print(HEADER + "coastlines:")
    print("  - id: pacific")
    print("    name: The Pacific")
    print("    source: assumed")
    print('    note: "coastlines: Natural Earth 1:50m land (public domain), '
          'tools/derive_pacific_coastlines.py"')
    print(f"    west: {WEST:g}\n    east: {EAST:g}\n    north: {NORTH:g}\n    south: {SOUTH:g}")
    print("    rings:")
    for ring in sorted(rings, key=len, reverse=True):
        print(f'      - "{ring}"')


if __name__ == "__main__":
    main(sys.argv[1])
