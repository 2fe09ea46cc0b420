"""Redraw docs/img/hex-map-legend.png and docs/img/area-map.png from the package.

    python docs/img/make_map_images.py

The hex map is a small example written here (every terrain texture it uses, a river
and a border on hexsides, a city, a port and an airfield, entry hexes and a zone),
drawn with its legend as a game's map sheet is; the area map is a corner of Axis &
Allies' world map.
"""

import io
from pathlib import Path

from PIL import Image
from warpress.components.hexmap import hex_map_drawing
from warpress.components.primitives import Group, Page
from warpress.components.render_pdf import pdf_bytes, png_pages
from warpress.engine.loader import load_game
from warpress.engine.model import Axis, Feature, FrozenDict, HexMap
from warpress.games.axis_allies.kit import world_map_drawing

HERE = Path(__file__).resolve().parent
EXTRA = ("terrain", "hexsides", "symbol", "color", "line")


def feature(**keys) -> Feature:
    extra = {k: keys.pop(k) for k in list(keys) if k in EXTRA}
    return Feature(extra=FrozenDict(extra), **keys)


EXAMPLE = HexMap(
    id="example", name="Example map", name_ja="地図の例", hex_id="{col}{row}", hex_size_mm=16,
    columns=Axis(count=8, labels="letters"), rows=Axis(count=5), features=(
        feature(id="forest", kind="terrain", terrain="woods", hexes=("B2", "B3", "C2", "C3")),
        feature(id="alps", kind="terrain", terrain="mountains", hexes=("F1", "G1", "G2")),
        feature(id="marsh", kind="terrain", terrain="swamp", hexes=("D5", "E5")),
        feature(id="lake", kind="terrain", terrain="sea", hexes=("H4", "H5", "G5")),
        feature(id="rhine", kind="river", name="River",
                hexsides=("D1/E1", "D2/E1", "D2/E2", "D3/E2", "D3/E3", "D4/E3")),
        feature(id="frontier", kind="border", name="Border",
                hexsides=("F2/G2", "F3/G2", "F3/G3", "F4/G3", "F4/G4", "F5/G4")),
        feature(id="town", kind="city", name="Arnhem", hexes=("C4",)),
        feature(id="harbour", kind="port", name="Port", hexes=("G4",)),
        feature(id="strip", kind="airfield", name="Airfield", hexes=("A5",)),
        feature(id="entry", kind="entry", name="Blue entry hexes", label="Blue enters",
                color="blue", hexes=("A1", "A2")),
        feature(id="objective", kind="zone", name="Objective zone", color="orange",
                line="dashed", hexes=("E3", "E4", "F4")),
    ))


def png(page: Page, name: str, dpi: int) -> None:
    """The page as a PNG of at most 128 colours (a third of the bytes, no visible loss)."""
    picture = Image.open(io.BytesIO(png_pages(pdf_bytes([page], name), dpi)[0]))
    picture.quantize(128).save(HERE / f"{name}.png", optimize=True)


def hex_map_legend() -> None:
    items, w, h = hex_map_drawing(EXAMPLE)
    png(Page(w + 4, h + 4, (Group(items, dx=2, dy=2),), id="hex-map"), "hex-map-legend", 110)


def area_map() -> None:
    items, _w, _h = world_map_drawing(load_game("axis-allies"))
    corner = (140, 40, 200, 130)  # Europe, mm on the world map
    png(Page(corner[2], corner[3], (Group(items, dx=-corner[0], dy=-corner[1], clip=corner),),
             id="area-map"), "area-map", 80)


if __name__ == "__main__":
    hex_map_legend()
    area_map()
