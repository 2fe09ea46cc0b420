"""components/impose.py: N-up placement, tiles covering a map with overlap."""

from __future__ import annotations

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.components.impose import (
    CROP,
    FOLD_GAP,
    LEAST_SHOWN,
    MIN_TEXT,
    OVERLAP,
    SEAM_CLEAR,
    STEP,
    TILE_TOP,
    Piece,
    SpatialIndex,
    Tile,
    _free_under,
    _meets,
    assembly_inset,
    assembly_items,
    calibration_items,
    glue_strips,
    grid_size,
    impose,
    impose_sizes,
    leaf_box,
    plan_tiles,
    seams,
    text_box,
    tile,
    tile_area,
    whole_boxes,
)
from warpress.components.page import MARGIN, paper
from warpress.components.primitives import Circle, Group, Line, Polygon, Rect, Text, texts, walk
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


@pytest.mark.parametrize("name", ["a4", "letter"])
@pytest.mark.parametrize(("w", "h", "bleed"), [(15.875, 15.875, 0.0), (63, 88, 3.0)])
def test_a_fold_sheet_prints_each_back_beside_its_front_mirrored_across_the_middle(
        name, w, h, bleed):
    pieces = [Piece(f"p{i}", w, h, (Rect(0, 0, w, h, id=f"front-{i}"),),
                    (Rect(0, 0, w, h, id=f"back-{i}"),)) for i in range(30)]
    sheets = impose(pieces, paper(name), bleed=bleed, duplex="fold", back_offset=(1.0, 1.0))
    assert sum(s.count for s in sheets) == 30
    for sheet in sheets:
        assert sheet.back is None  # nothing to print on the other side
        middle = sheet.paper.width / 2
        (fold,) = [i for i in walk(sheet.front) if isinstance(i, Line) and i.cls == "fold-line"]
        assert fold.x1 == fold.x2 == pytest.approx(middle)
        groups = {g.id: g for g in sheet.front if isinstance(g, Group) and g.clip}
        fronts = [g for g in groups.values() if not g.id.endswith("-back")]
        assert len(groups) == 2 * len(fronts) == 2 * sheet.count
        for front in fronts:
            back = groups[f"{front.id}-back"]
            assert front.dx + w <= middle - FOLD_GAP + 1e-6  # the fronts left of the fold
            assert back.dx == pytest.approx(2 * middle - front.dx - w)  # mirrored
            assert back.dy == pytest.approx(front.dy)  # no printer's offset to cancel
        (label,) = [t for t in texts(sheet.front) if t.cls == "fold-label"]
        assert label.size >= MIN_TEXT and label.y < min(g.dy for g in fronts) - bleed


def test_a_fold_sheet_of_pieces_without_backs_uses_the_whole_page():
    (folded,) = impose(_pieces(20, 20, 20, back=False), paper("a4"), duplex="fold")
    (plain,) = impose(_pieces(20, 20, 20, back=False), paper("a4"))
    assert folded == plain
    mixed = impose(_pieces(300, 12.7, 12.7, back=False) + _pieces(5, 12.7, 12.7), paper("a4"),
                   duplex="fold")  # the five with backs folded, the rest on whole sheets
    assert [s.back for s in mixed] == [None] * len(mixed)
    assert mixed[0].count == 5 and [s.count for s in mixed[1:]] == [
        s.count for s in impose(_pieces(300, 12.7, 12.7, back=False), paper("a4"))]


def _placed(items):
    """(x0, y0, x1, y1) of every piece on a page (its trim)."""
    return [(g.dx, g.dy, g.dx + g.clip[0] + g.clip[2], g.dy + g.clip[1] + g.clip[3])
            for g in items if isinstance(g, Group) and g.clip]


def test_a_short_tail_shares_the_last_sheet_of_another_size():
    big, small = _pieces(150, 15.875, 15.875), _pieces(3, 12.7, 12.7)
    laid = impose_sizes([big, small], paper("a4"))
    assert laid[1] == [] and len(laid[0]) == 1  # no sheet for three pieces
    sheet = laid[0][0]
    assert sheet.count == 153
    fronts, backs = _placed(sheet.front), _placed(sheet.back)
    assert len(fronts) == len(backs) == 153
    x, y, w, h = sheet.paper.content(sheet.footer)
    for i, a in enumerate(fronts):  # inside the printable area, none over another
        assert x - 0.01 <= a[0] and a[2] <= x + w + 0.01 and y - 0.01 <= a[1]
        assert a[3] <= y + h + 0.01
        assert all(not (a[0] < b[2] - 0.01 and b[0] < a[2] - 0.01 and a[1] < b[3] - 0.01
                        and b[1] < a[3] - 0.01) for b in fronts[i + 1:])


def test_a_tail_that_does_not_fit_elsewhere_keeps_its_own_sheet():
    full, small = _pieces(204, 15.875, 15.875), _pieces(3, 12.7, 12.7)
    laid = impose_sizes([full, small], paper("a4"))
    assert [s.count for s in laid[0]] == [204] and [s.count for s in laid[1]] == [3]


@settings(max_examples=40, deadline=None)
@given(width=st.floats(50, 1200), height=st.floats(50, 1200),
       name=st.sampled_from(["a4", "letter", "a3", "tabloid"]))
def test_tiles_cover_the_whole_map_with_the_overlap(width, height, name):
    tiles = tile((), width, height, paper(name), overlap=10.0)
    xs = sorted({t.x for t in tiles})
    ys = sorted({t.y for t in tiles})
    first, last = tiles[0], tiles[-1]
    assert xs[0] == 0 and ys[0] == 0
    assert last.x + last.w == pytest.approx(width)  # the last tiles end at the map's end
    assert last.y + last.h == pytest.approx(height)
    assert all(t.x == t.seam_left for t in tiles if t.seam_left is not None)  # from the trim
    assert all(t.y == t.seam_top for t in tiles if t.seam_top is not None)
    for a, b in zip(xs, xs[1:], strict=False):
        assert a + first.w - b >= 10.0 - 1e-6
    for a, b in zip(ys, ys[1:], strict=False):
        assert a + first.h - b >= 10.0 - 1e-6
    labels = [t.label for t in tiles]
    assert len(set(labels)) == len(labels) and labels[0] == "A1"


def _cuts(at: float, spans) -> list:
    return [(a, b) for a, b, _w in spans if a - SEAM_CLEAR < at < b + SEAM_CLEAR]


@settings(max_examples=60, deadline=None)
@given(length=st.floats(200, 900), starts=st.lists(st.floats(0, 880), max_size=40),
       count_more=st.integers(0, 1))
def test_seams_cut_no_text_where_the_tiles_leave_them_a_lane(length, starts, count_more):
    """Texts 3 mm tall scattered along the map: wherever the tiles' bounds let the seams
    pass between them they do, together (a seam moved for one text leaves the next its
    room), and each tile shows between LEAST_SHOWN of a page and a page."""
    room, overlap = 180.0, 8.0
    shown = room - overlap
    spans = [(a, a + 3.0, 1) for a in starts if a + 3.0 < length]
    count = math.ceil((length - overlap) / shown) + count_more
    cuts = seams(count, length, room, overlap, spans, clean=True)
    assert cuts is not None and len(cuts) == count - 1
    edges = [0.0, *cuts]
    for a, b in zip(edges, edges[1:], strict=False):
        assert shown * LEAST_SHOWN - 1e-6 <= b - a <= shown + 1e-6
    assert length - cuts[-1] <= room + 1e-6
    if count == 2:  # a clear place for the one seam, found by walking its range, is taken
        lo, hi = max(shown * LEAST_SHOWN, length - room), shown
        clear = [x for x in (lo + k * 0.05 for k in range(int((hi - lo) / 0.05) + 1))
                 if not _cuts(x, spans)]
        assert bool(_cuts(cuts[0], spans)) == (not clear)


def test_a_seam_moved_off_a_text_leaves_the_next_seam_its_lane():
    """Three tiles along 500 mm, each showing at most 172: the first seam at its even share
    (166.7) is clear, but leaves the second (at most 338.7) no lane past the text ending at
    339.5; the seams taken together put the first at 172 and the second in 340.5-344."""
    spans = [(168.0, 171.0, 1), (300.0, 339.5, 1)]
    cuts = seams(3, 500.0, 180.0, 8.0, spans)
    assert cuts is not None
    assert not [c for c in cuts if _cuts(c, spans)]
    assert cuts[0] == pytest.approx(172.0) and 340.5 <= cuts[1] <= 344.0


def test_a_seam_never_cuts_a_box_to_spare_a_text():
    boxes = [(100.0, 140.0, 10)]
    texts_ = [(141.5, 160.0, 1)]
    cuts = seams(2, 300.0, 180.0, 8.0, boxes + texts_)
    assert cuts is not None and not _cuts(cuts[0], boxes)


def test_every_text_is_kept_whole_and_a_kept_group_with_all_it_holds():
    heading = Text(0, 4, "Moon [3.3.1]", size=3.0)
    block = Group((heading, Rect(0, 6, 20, 19)), dy=100, cls="whole")
    loose = Text(50, 20, "Hawaiian Islands", size=3.0)
    found = whole_boxes((block, loose), SpatialIndex((block, loose)))
    assert len(found) == 2
    (kept, weight), (text, text_weight) = sorted(found, key=lambda f: -f[1])
    assert weight >= 10 and kept[1] == pytest.approx(101.0) and kept[3] >= 125.0
    assert text_weight == 1 and text == pytest.approx(text_box(loose))


def test_a_turned_text_covers_its_turned_box():
    flat = Text(10, 20, "Radio beacon box", size=3.0)
    turned = Text(10, 20, "Radio beacon box", size=3.0, rotate=90)
    x0, y0, x1, y1 = text_box(flat)
    tx0, ty0, tx1, ty1 = text_box(turned)
    assert ty1 - ty0 == pytest.approx(x1 - x0) and tx1 - tx0 == pytest.approx(y1 - y0)
    assert tx0 < 10 < tx1 and ty0 == pytest.approx(20 + (x0 - 10))


def test_a_large_enough_paper_prints_the_map_on_one_sheet():
    assert len(tile((), 250, 180, paper("a3"))) == 1


# --- tiling: the real overlap, fewest tiles, glue and trim lines, titles clear of marks ---


def _hex_drawing(n: int):
    from warpress.components.hexmap import hex_map_drawing
    from warpress.engine.model import Axis, HexMap

    hex_map = HexMap(id=f"grid-{n}", name=f"{n} by {n}", columns=Axis(count=n, pad=2),
                     rows=Axis(count=n, pad=2), hex_size_mm=19)
    return hex_map_drawing(hex_map)


@settings(max_examples=40, deadline=None)
@given(width=st.floats(50, 1500), height=st.floats(50, 1500),
       name=st.sampled_from(["a4", "letter", "a3", "tabloid"]))
def test_tiles_use_the_page_overlap_at_least_the_glue_strip_and_are_as_few_as_fit(
        width, height, name):
    tiles = tile((), width, height, paper(name))
    first = tiles[0]
    aw, ah = tile_area(first.page)
    assert first.w <= aw + 1e-6 and first.h <= ah + 1e-6
    by_place = {(t.col, t.row): t for t in tiles}
    for (c, r), t in by_place.items():
        right, below = by_place.get((c + 1, r)), by_place.get((c, r + 1))
        if right:  # a full page wide, the real overlap printed, the seam within it
            assert t.w == pytest.approx(aw)
            assert t.x + t.w - right.x == pytest.approx(t.overlap_x)
            assert t.overlap_x >= OVERLAP - 1e-6
            assert right.x - 1e-6 <= t.seam_right == right.seam_left <= (t.x + t.w - OVERLAP
                                                                          + 1e-6)
        else:
            assert t.x + t.w == pytest.approx(width)  # the last ends at the map's edge
        if below:
            assert t.h == pytest.approx(ah)
            assert t.y + t.h - below.y == pytest.approx(t.overlap_y)
            assert t.overlap_y >= OVERLAP - 1e-6
            assert below.y - 1e-6 <= t.seam_bottom == below.seam_top <= (t.y + t.h - OVERLAP
                                                                         + 1e-6)
    cols, rows = max(t.col for t in tiles) + 1, max(t.row for t in tiles) + 1
    assert (cols - 1) * aw - (cols - 2) * OVERLAP < width or cols == 1  # one fewer: too short
    assert (rows - 1) * ah - (rows - 2) * OVERLAP < height or rows == 1
    other = plan_tiles(width, height, paper(name))
    assert len(tiles) == other.count
    for page in (paper(name).portrait, paper(name).landscape):  # no orientation needs fewer
        w2, h2 = tile_area(page)
        fewest = (1 if width <= w2 else math.ceil((width - OVERLAP) / (w2 - OVERLAP))) * (
            1 if height <= h2 else math.ceil((height - OVERLAP) / (h2 - OVERLAP)))
        assert len(tiles) <= fewest


def test_the_assembly_page_prints_the_real_overlap():
    tiles = tile((), 400, 700, paper("a4"))
    items = assembly_items(tiles, 400, 700, paper("a4").landscape, "Big map")
    text = " ".join(t.text for t in texts(items))
    across, down = glue_strips(tiles)
    assert across >= OVERLAP - 1e-6 and down >= OVERLAP - 1e-6
    assert f"at least {math.floor(across)} mm overlap side by side" in text
    assert f"at least {math.floor(down)} mm overlap top to bottom" in text
    right = next(t for t in tiles if t.col == 1 and t.row == 0)
    assert tiles[0].overlap_x == pytest.approx(tiles[0].x + tiles[0].w - right.x)


def test_the_assembly_diagram_goes_under_a_short_last_row_else_on_a_page_of_its_own():
    tall = tile((), 231, 283, paper("a4"))  # two tiles, the second with a third of it free
    at, items = assembly_inset(tall, 231, 283, "Short map")
    assert tall[at].row == max(t.row for t in tall)
    x, top, w, h = _free_under(tall[at])
    boxes = [leaf_box(i) for i in walk(items)]
    assert all(b is not None and b[1] >= top - 1e-6 and b[3] <= top + h + 1e-6
               and x - 1e-6 <= b[0] and b[2] <= x + w + 1e-6 for b in boxes)
    text = " ".join(t.text for t in texts(items))
    assert "2 tiles" in text and "overlap top to bottom" in text
    assert {t.text for t in texts(items)} >= {t.label for t in tall}
    full = tile((), 400, 700, paper("a4"))  # every tile full: the diagram takes a page
    assert assembly_inset(full, 400, 700, "Big map") is None


def test_a_legend_band_takes_the_assembly_diagram_on_a_tile_the_legend_leaves_empty():
    """A map whose last row is full to the page's foot but whose legend band (under the
    drawing, the legend on the row's first tile) leaves the other tiles empty there: the
    diagram goes into that band, inside what the tile shows once glued."""
    band_top = 640.0
    tiles = tile((), 400, 760, paper("a4"))  # the legend's 120 mm band under 640 mm of map
    assert assembly_inset(tiles, 400, 760, "Wide map") is None  # no room under the tiles
    at, items = assembly_inset(tiles, 400, 760, "Wide map", band_top)
    t = tiles[at]
    assert t.row == max(x.row for x in tiles) and t.col > 0
    x0, y0, x1, _y1 = t.shown()
    left, top = MARGIN + CROP + x0 - t.x, MARGIN + TILE_TOP + max(band_top, y0) - t.y
    right = MARGIN + CROP + x1 - t.x
    boxes = [leaf_box(i) for i in walk(items)]
    assert all(b is not None and left <= b[0] and b[2] <= right and b[1] >= top
               for b in boxes)
    assert {x.text for x in texts(items)} >= {x.label for x in tiles}


def _lines(t: Tile, cls: str) -> list[Line]:
    return [i for i in walk(t.items) if isinstance(i, Line) and i.cls == cls]


def test_each_overlap_has_a_glue_line_where_the_neighbours_trim_line_lies():
    tiles = tile((), 500, 600, paper("a4"))
    by_place = {(t.col, t.row): t for t in tiles}
    x0 = None
    for (c, r), t in by_place.items():
        edge = next(i for i in walk(t.items) if isinstance(i, Rect) and i.cls == "tile-edge")
        x0, y0 = edge.x, edge.y
        for (dc, dr), vertical in (((1, 0), True), ((0, 1), False)):
            other = by_place.get((c + dc, r + dr))
            glue = [ln for ln in _lines(t, "glue-line") if (ln.x1 == ln.x2) == vertical]
            if other is None:
                assert not glue
                continue
            trims = [ln for ln in _lines(other, "trim-line") if (ln.x1 == ln.x2) == vertical]
            assert len(glue) == 1 and len(trims) == 1
            if vertical:  # in map mm: the glue line on t is where the neighbour is cut
                assert glue[0].x1 - x0 + t.x == pytest.approx(trims[0].x1 - x0 + other.x)
            else:
                assert glue[0].y1 - y0 + t.y == pytest.approx(trims[0].y1 - y0 + other.y)
    assert x0 is not None


def test_no_tile_title_lies_over_a_mark_or_line():
    for width, height in ((500, 600), (231, 210), (1200, 300)):
        for t in tile((), width, height, paper("a4")):
            (title,) = [i for i in texts(t.items) if i.cls == "tile-label"]
            marks = [i for i in walk(t.items) if isinstance(i, Line | Circle) and i.cls in (
                "registration", "glue-line", "trim-line")]
            assert marks or len(tile((), width, height, paper("a4"))) == 1
            for mark in marks:
                assert not _meets(text_box(title), leaf_box(mark)), (t.label, title.text, mark)
            assert title.size >= MIN_TEXT


def test_a_tile_carries_only_what_falls_on_it_and_all_of_that():
    drawing, width, height = _hex_drawing(30)
    tiles = tile(drawing, width, height, paper("a4"))
    hexes = [i for i in walk(drawing) if isinstance(i, Polygon) and (i.id or "").startswith("hex-")]
    on_tiles = 0
    for t in tiles:
        content = next(i for i in t.items if isinstance(i, Group) and i.cls.startswith("tile"))
        shown = {i.id for i in walk(content.items) if isinstance(i, Polygon)
                 and (i.id or "").startswith("hex-")}
        on_tiles += len(shown)
        window = (*t.shown()[:2], t.x + t.w, t.y + t.h)  # nothing left of or above a trim
        wanted = {h.id for h in hexes if _meets(leaf_box(h), window)}
        assert shown == wanted, t.label
    # every hex is printed about once, not once per tile (the work grows with the hexes)
    assert on_tiles < 2 * len(hexes) < len(tiles) * len(hexes)


def test_selection_keeps_moved_scaled_and_rotated_groups_by_their_boxes():
    inner = Group((Rect(0, 0, 10, 10, id="a"), Rect(100, 0, 10, 10, id="b")), dx=50, scale=2)
    turned = Group((Rect(0, 0, 10, 10, id="c"), Rect(0, 0, 1, 1, id="d")), dx=300, rotate=90)
    index = SpatialIndex((inner, turned))
    ids = {i.id for i in walk(index.select((40, 0, 40, 30)))} - {None}
    assert ids == {"a"}  # b lies at x 250-270 once moved and scaled
    ids = {i.id for i in walk(index.select((280, 0, 30, 30)))} - {None}
    assert ids == {"c", "d"}  # a rotated group is kept whole: x 290-300 after turning


# --- calibration: both scales read for both flips, in the labelled steps -------------------


def _seen_from_front(line: Line, page, duplex: str, error: tuple[float, float]) -> Line:
    """Where a back line lands, seen through the sheet, when the printer shifts the back
    page by ``error`` (mm in the back page's own coordinates)."""
    u, v = error
    x1, y1, x2, y2 = line.x1 + u, line.y1 + v, line.x2 + u, line.y2 + v
    if duplex == "long":  # portrait, long edge: the back is mirrored left-right
        return Line(page.width - x1, y1, page.width - x2, y2, cls=line.cls)
    return Line(x1, page.height - y1, x2, page.height - y2, cls=line.cls)


def _reading(front, back, axis: str) -> float:
    """The labelled value of the front line a back line continues, as a player reads it."""
    along = (lambda ln: ln.x1) if axis == "x" else (lambda ln: ln.y1)
    across = (lambda ln: (ln.y1, ln.y2)) if axis == "x" else (lambda ln: (ln.x1, ln.x2))
    fronts = [ln for ln in front if isinstance(ln, Line) and f"vernier-{axis}" in (ln.cls or
                                                                                    "")]
    backs = [ln for ln in back if f"vernier-{axis}" in ln.cls]
    gap, best = min(((abs(along(f) - along(b)), f) for f in fronts for b in backs
                     if _ends_meet(across(f), across(b))), key=lambda pair: pair[0])
    assert gap < 0.05
    labels = {}
    for t in (i for i in front if isinstance(i, Text) and i.cls == f"vernier-label {axis}"):
        labels[round(t.x if axis == "x" else t.y - 0.8, 3)] = float(t.text)
    (p0, v0), (p1, v1) = sorted(labels.items())[:2]
    return v0 + (along(best) - p0) * (v1 - v0) / (p1 - p0)


def _ends_meet(a: tuple[float, float], b: tuple[float, float]) -> bool:
    return min(abs(p - q) for p in a for q in b) < 2.5


@pytest.mark.parametrize("duplex", ["long", "short"])
@pytest.mark.parametrize("error", [(0.0, 0.0), (0.6, -1.4), (-2.0, 0.4), (1.2, 2.0)])
def test_calibration_reads_the_back_offset_that_cancels_the_error_on_both_axes(duplex, error):
    page = paper("a4").portrait
    front = list(walk(calibration_items(page, False, duplex)))
    back = [_seen_from_front(i, page, duplex, error)
            for i in walk(calibration_items(page, True, duplex)) if isinstance(i, Line)
            and i.cls and "vernier" in i.cls]
    offset = (_reading(front, back, "x"), _reading(front, back, "y"))
    # the offset moves the back on its own page: it cancels the printer's shift
    assert offset[0] == pytest.approx(-error[0], abs=1e-6)
    assert offset[1] == pytest.approx(-error[1], abs=1e-6)


def test_calibration_steps_are_the_labelled_steps():
    page = paper("a4").portrait
    front = [i for i in walk(calibration_items(page, False)) if isinstance(i, Line)
             and i.cls and "vernier-x" in i.cls]
    back = [i for i in walk(calibration_items(page, True)) if isinstance(i, Line)
            and i.cls and "vernier-x" in i.cls]
    pitch_front = sorted(ln.x1 for ln in front)
    pitch_back = sorted(ln.x1 for ln in back)
    assert pitch_front[1] - pitch_front[0] - (pitch_back[1] - pitch_back[0]) == pytest.approx(STEP)
    assert "0.2 mm steps" in " ".join(t.text for t in texts(calibration_items(page, False)))
    assert "0.2 mm" in calibration_items.__doc__
