"""Counters' text is never clipped by the cut nor laid over another element; digits keep
1 mm from the cut (components/clearance.py), on every kit, A4 and Letter."""

from __future__ import annotations

import pytest
from warpress.components import clearance
from warpress.components.counters import draw, face_of
from warpress.components.kit import kit_pages, parse_options
from warpress.components.primitives import Polygon, Rect, Style, Text
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin

GROUND = Rect(0, 0, 15.875, 15.875, Style(fill="#ffffff", stroke=None), cls="counter-face")


def test_every_counter_of_every_kit_keeps_its_text_clear(player_kits):
    checked = 0
    for (game_id, paper), (_game, pages) in player_kits.items():
        sides = [c for page in pages for c in clearance.counters(page.items)]
        problems = clearance.problems(pages)
        assert not problems, f"{game_id} {paper}: {[p.line() for p in problems[:5]]}"
        checked += len(sides)
    assert checked > 1000  # every kit's counters were found and checked


def test_digits_keep_a_millimetre_from_the_cut(player_kits):
    for (game_id, _paper), (_game, pages) in player_kits.items():
        for piece, w, h, items in (c for page in pages for c in clearance.counters(page.items)):
            for text, box, _ in _texts(items):
                if any(ch.isdigit() for ch in text.text):
                    room = min(box.x0, box.y0, w - box.x1, h - box.y1)
                    assert room >= clearance.CUT_DIGITS_MM - clearance.SLACK, (
                        game_id, piece, text.text, room)


def _texts(items):
    for item, dx, dy, owner in clearance._walk(items[1:]):
        if isinstance(item, Text) and item.text.strip():
            yield item, clearance.ink_box(item).moved(dx, dy), owner


def test_a_text_past_the_cut_is_named():
    found = clearance.piece_problems("counter-x-1", 15.875, 15.875,
                                     (GROUND, Text(15.5, 14.0, "Flensburg", size=3.0)))
    assert [p.why for p in found] == ["runs past the cut (at least 0.4 mm)"]
    assert "counter 'counter-x-1': 'Flensburg' runs past the cut" in found[0].line()


def test_a_digit_near_the_cut_is_named_and_a_word_there_is_not():
    near = Text(0.6, 8.0, "3", size=3.0)
    word = Text(0.6, 8.0, "Zero", size=3.0)
    assert clearance.piece_problems("c", 15.875, 15.875, (GROUND, near))
    assert not clearance.piece_problems("c", 15.875, 15.875, (GROUND, word))


def test_overlapping_texts_and_a_text_over_a_shape_are_named():
    one = Text(2, 6, "Plot", size=3.0)
    two = Text(3, 7, "search", size=3.0)
    arrow = Polygon(((2.5, 3.0), (4.0, 3.0), (4.0, 9.0)), Style(fill="#000000", stroke=None))
    whys = [p.why for p in clearance.piece_problems("c", 15.875, 15.875, (GROUND, one, two))]
    assert whys == ["overlaps 'search'"]
    whys = [p.why for p in clearance.piece_problems("c", 15.875, 15.875, (GROUND, one, arrow))]
    assert whys == ["overlaps a drawn element"]


def test_text_inside_an_unfilled_frame_is_clear_of_it():
    frame = Rect(1, 1, 13.875, 13.875, Style(fill=None, stroke="#000000", width=0.6))
    text = Text(7.9, 9.0, "Sighting", size=2.5, anchor="middle")
    assert not clearance.piece_problems("c", 15.875, 15.875, (GROUND, frame, text))


def test_a_laid_out_counter_passes():
    game = builtin("midway")
    unit = game.units[0]
    assert not clearance.piece_problems(unit.id, 15.875, 15.875,
                                        draw(face_of(game, unit, size=15.875)))


def test_the_build_stops_on_a_clipped_counter_in_one_line(monkeypatch):
    monkeypatch.setattr(clearance, "CUT_MM", 3.0)  # no name fits so far from the cut
    with pytest.raises(BadInput) as caught:
        kit_pages(builtin("midway"), parse_options("a4", "pdf", "long", "0,0", "counters"))
    message = str(caught.value)
    assert "\n" not in message and message.startswith("counter 'counter-")
    assert "shorten it in the data" in message
