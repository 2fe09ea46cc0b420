"""components/impose.py: N-up placement, tiles covering a map with overlap."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.components.impose import Piece, grid_size, impose, tile
from warpress.components.page import paper
from warpress.components.primitives import Rect
from warpress.engine.errors import BadInput


def _pieces(n: int, w: float, h: float, back: bool = True) -> list[Piece]:
    face = (Rect(0, 0, w, h),)
    return [Piece(f"p{i}", w, h, face, face if back else None) for i in range(n)]


def test_nine_cards_fit_a4_and_letter_with_bleed():
    for name in ("a4", "letter"):
        assert grid_size(paper(name), 63, 88, 3) == (3, 3)


def test_a_piece_larger_than_the_page_is_refused():
    with pytest.raises(BadInput, match="counter 'p0' .* is larger than the printable area"):
        impose(_pieces(1, 300, 300), paper("a4"), what="counter")


def test_pieces_without_backs_give_no_back_page():
    (sheet,) = impose(_pieces(4, 20, 20, back=False), paper("a4"))
    assert sheet.back is None and sheet.count == 4


def test_two_hundred_counters_fill_pages_in_order():
    sheets = impose(_pieces(200, 15.875, 15.875), paper("a4"))
    assert sum(s.count for s in sheets) == 200
    best = max(grid_size(paper("a4").portrait, 15.875, 15.875, 0),
               grid_size(paper("a4").landscape, 15.875, 15.875, 0), key=lambda g: g[0] * g[1])
    assert sheets[0].count == min(200, best[0] * best[1])


@settings(max_examples=40, deadline=None)
@given(width=st.floats(50, 1200), height=st.floats(50, 1200),
       name=st.sampled_from(["a4", "letter", "a3", "tabloid"]))
def test_tiles_cover_the_whole_map_with_the_overlap(width, height, name):
    tiles = tile((), width, height, paper(name), overlap=10.0)
    xs = sorted({t.x for t in tiles})
    ys = sorted({t.y for t in tiles})
    first = tiles[0]
    assert xs[0] == 0 and ys[0] == 0
    assert xs[-1] + first.w == pytest.approx(width) or (len(xs) == 1 and first.w >= width - 1e-6)
    assert ys[-1] + first.h == pytest.approx(height) or (len(ys) == 1 and first.h >= height - 1e-6)
    for a, b in zip(xs, xs[1:], strict=False):
        assert a + first.w - b >= 10.0 - 1e-6
    for a, b in zip(ys, ys[1:], strict=False):
        assert a + first.h - b >= 10.0 - 1e-6
    labels = [t.label for t in tiles]
    assert len(set(labels)) == len(labels) and labels[0] == "A1"


def test_a_large_enough_paper_prints_the_map_on_one_sheet():
    assert len(tile((), 250, 180, paper("a3"))) == 1
