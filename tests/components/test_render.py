"""The two backends draw one description; glyphs are checked; golden primitives."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from warpress.components.kit import check_glyphs
from warpress.components.pieces import unit_pieces
from warpress.components.primitives import Group, Page, Rect, Style, Text, walk
from warpress.components.render_pdf import pdf_bytes
from warpress.components.render_svg import svg_text
from warpress.engine.errors import BadInput
from warpress.engine.loader import load_game

GOLDEN = Path(__file__).parent / "golden"
UPDATE = os.environ.get("WARPRESS_UPDATE_GOLDEN") == "1"

PAGE = Page(100, 80, (Rect(5, 5, 20, 10, Style(fill="#ffcc00"), id="box", cls="box"),
                      Text(10, 30, "赤城 Akagi", size=4, id="label", cls="name"),
                      Group((Rect(0, 0, 5, 5),), dx=50, dy=50, clip=(0, 0, 3, 3), id="g")),
            id="page-1")


def test_svg_keeps_ids_and_classes_and_mm_size():
    svg = svg_text(PAGE)
    assert 'width="100mm"' in svg and 'viewBox="0 0 100 80"' in svg
    assert 'class="box"' in svg and 'id="box"' in svg and 'id="label"' in svg
    assert "赤城 Akagi" in svg and "IPAex" in svg
    assert 'clip-path="url(#clip-1)"' in svg


def test_both_backends_are_deterministic():
    assert svg_text(PAGE) == svg_text(PAGE)
    assert pdf_bytes([PAGE], "t") == pdf_bytes([PAGE], "t")


def test_a_glyph_the_font_lacks_stops_the_build_naming_the_text():
    page = Page(100, 80, (Text(1, 1, "range ⅞ ok"),), id="p", title="Tiny: counters")
    with pytest.raises(BadInput, match=r"Tiny: counters \(page p\): text 'range ⅞ ok' .*⅞"):
        check_glyphs([page])


#: What the counter key calls the tank's values.
NAMES = ('  stats:\n    attack: {name: attack, rule: "1"}\n'
         '    move: {name: movement, rule: "1"}\n')
#: One counter of each layout: the tiny game's tank drawn as the style says (front, back).
GOLDEN_STYLES = {
    "nato": "{layout: nato, symbol: armour, factors: [attack, move], corners: {top_left: id}}",
    "silhouette": "{layout: silhouette, symbol: cruiser, factors: [attack, move]}",
    "marker": "{layout: marker, symbol: star, word: Tank}",
}


@pytest.mark.parametrize("layout", sorted(GOLDEN_STYLES))
def test_golden_counter_svgs(tiny_game, layout):
    """The SVG of one counter (front and reduced back) per layout, byte for byte; refresh
    with WARPRESS_UPDATE_GOLDEN=1 after a change made on purpose (and look at the files)."""
    (tiny_game / "style.yaml").write_text(
        f"style:\n  counters:\n    armor: {GOLDEN_STYLES[layout]}\n{NAMES}", encoding="utf-8")
    game = load_game(str(tiny_game))
    tank = game.get("units", "tank")
    piece = unit_pieces(game, tank)[0]
    assert any(i.cls == f"unit-symbol {GOLDEN_SYMBOL[layout]}" for i in walk(piece.front))
    page = Page(2 * piece.w + 3, piece.h + 2, (Group(piece.front, dx=1, dy=1),
                                               Group(piece.back, dx=piece.w + 2, dy=1)),
                id=f"golden-{layout}")
    actual = svg_text(page)
    path = GOLDEN / f"counter-{layout}.svg"
    if UPDATE or not path.exists():
        path.write_text(actual, encoding="utf-8")
        if not UPDATE:
            pytest.fail("golden file was missing and has been written; run again")
    assert actual == path.read_text(encoding="utf-8"), (
        f"counter layout {layout!r} changed: look at it, then rerun with "
        "WARPRESS_UPDATE_GOLDEN=1 if intended")


GOLDEN_SYMBOL = {"nato": "armour", "silhouette": "cruiser", "marker": "star"}


def test_card_text_that_cannot_fit_stops_the_build():
    from dataclasses import replace

    from warpress.components.pieces import card_front
    from warpress.engine.loader import builtin

    game = builtin("midway")
    card = replace(game.cards[0], text="A very long effect. " * 200)
    with pytest.raises(BadInput, match=r"card 01: text does not fit the card"):
        card_front(game, card, game.decks[0])
