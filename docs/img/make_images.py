"""Redraw docs/img/counter-layouts.png and docs/img/unit-symbols.png (needs pdftoppm).

    python docs/img/make_images.py
"""

import subprocess
from pathlib import Path

from warpress.components.pieces import unit_pieces
from warpress.components.primitives import Group, Page, Rect, Style, Text
from warpress.components.render_pdf import pdf_bytes
from warpress.components.symbols import AIRCRAFT, ICONS, NATO_DOMAIN, SHIPS, symbol
from warpress.engine.loader import load_game
from warpress.games.axis_allies import kit as axis_allies
from warpress.games.midway_cards import kit as midway_cards
from warpress.games.nimitz import kit as nimitz

HERE = Path(__file__).resolve().parent


def png(page: Page, name: str, dpi: int) -> None:
    pdf = HERE / f"{name}.pdf"
    pdf.write_bytes(pdf_bytes([page], name))
    subprocess.run(["pdftoppm", "-r", str(dpi), "-png", "-singlefile", str(pdf),
                    str(HERE / name)], check=True)
    pdf.unlink()


def counter_layouts() -> None:
    """One counter of each layout, front and reduced back where it has one."""
    nz, aa = load_game("nimitz"), load_game("axis-allies")
    mc, mw = load_game("midway-cards"), load_game("midway")
    s = 15.875
    mix = next(r for r in aa.section("counter-mix")
               if r.get("unit") == "armor" and r.get("side") == "germany")
    marine, akagi = nz.get("units", "us-1st-marine-division"), nz.get("units", "akagi")
    d3a = unit_pieces(mw, mw.get("units", "d3a"))[0]
    pairs = [
        ("nato", nimitz.unit_face(nz, marine, s, False), nimitz.unit_face(nz, marine, s, True)),
        ("nato", axis_allies.unit_counter(aa, mix, s), None),
        ("silhouette", nimitz.unit_face(nz, akagi, s, False),
         nimitz.unit_face(nz, akagi, s, True)),
        ("silhouette", d3a.front, d3a.back),
        ("marker", midway_cards.marker_face(mc, mc.get("markers", "disabled-yellow")), None),
    ]
    items = []
    x = 2.0
    for label, front, back in pairs:
        items.append(Text(x, 3.5, label, size=2.2))
        items.append(Group(front, dx=x, dy=5))
        if back:
            items.append(Group(back, dx=x + s + 1, dy=5))
            x += s + 1
        x += s + 4
    png(Page(x, s + 7, tuple(items), id="layouts"), "counter-layouts", 220)


def unit_symbols() -> None:
    """Every symbol the layouts know, with its name."""
    rows = [("nato", list(NATO_DOMAIN)), ("silhouette", [*SHIPS, *AIRCRAFT]),
            ("marker", [*ICONS, "roundel"])]
    cell, per_row = 16.0, 10
    items = []
    y = 2.0
    for layout, names in rows:
        items.append(Text(2, y + 3, layout, size=2.6, bold=True))
        y += 5
        for i, name in enumerate(names):
            col, row = i % per_row, i // per_row
            x, top = 2 + col * (cell + 1), y + row * (cell + 5)
            items.append(Rect(x, top, cell, cell, Style(fill="#eef2f7", stroke="#8899aa",
                                                        width=0.2)))
            items.append(symbol(layout, name, x + 1.5, top + 2, cell - 3, cell - 4, "#000000"))
            items.append(Text(x + cell / 2, top + cell + 2.6, name, size=1.9, anchor="middle"))
        y += ((len(names) - 1) // per_row + 1) * (cell + 5) + 2
    png(Page(2 + per_row * (cell + 1) + 1, y, tuple(items), id="symbols"), "unit-symbols", 150)


if __name__ == "__main__":
    counter_layouts()
    unit_symbols()
