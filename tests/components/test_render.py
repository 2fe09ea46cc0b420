"""The two backends draw one description; glyphs are checked; golden primitives."""

from __future__ import annotations

import json
import os
from dataclasses import asdict
from pathlib import Path

import pytest
from warpress.components.kit import check_glyphs
from warpress.components.pieces import unit_pieces
from warpress.components.primitives import Group, Page, Rect, Style, Text
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


def test_golden_counter_primitives(tiny_game):
    game = load_game(str(tiny_game))
    piece = unit_pieces(game, game.get("units", "tank"))[0]
    actual = json.loads(json.dumps([asdict(i) for i in piece.front + piece.back],
                                   ensure_ascii=False, default=str))
    path = GOLDEN / "tiny-tank-counter.json"
    if UPDATE or not path.exists():
        path.write_text(json.dumps(actual, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
        if not UPDATE:
            pytest.fail("golden file was missing and has been written; run again")
    expected = json.loads(path.read_text(encoding="utf-8"))
    assert actual == expected, "layout changed: rerun with WARPRESS_UPDATE_GOLDEN=1 if intended"


def test_card_text_that_cannot_fit_stops_the_build():
    from dataclasses import replace

    from warpress.components.pieces import card_front
    from warpress.engine.loader import builtin

    game = builtin("midway")
    card = replace(game.cards[0], text="A very long effect. " * 200)
    with pytest.raises(BadInput, match=r"card 01: text does not fit the card"):
        card_front(game, card, game.decks[0])
