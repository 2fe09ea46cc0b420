"""The label placer: labels inside the frame, clear of what is taken, or a clear error."""

from __future__ import annotations

import pytest
from warpress.components.labels import (
    Box,
    LabelPlacer,
    around,
    overlapping_pairs,
    placed_texts,
    segment_hits,
    text_box,
)
from warpress.components.primitives import Text
from warpress.engine.errors import BadInput


def test_a_label_skips_positions_that_cover_a_taken_box():
    taken = Box(40, 40, 60, 52)
    placer = LabelPlacer(Box(0, 0, 100, 100), [taken])
    label = placer.place(Text(0, 0, "Midway", size=3), around(50, 50, 3, 20), "test")
    assert not text_box(label).overlaps(taken)
    assert text_box(label).inside(placer.frame)


def test_a_label_never_leaves_the_frame():
    placer = LabelPlacer(Box(0, 0, 100, 100))
    label = placer.place(Text(0, 0, "Invasion Force enters", size=3),
                         [(-5, 10, "start"), (2, 10, "start")], "test")
    assert (label.x, label.anchor) == (2, "start")


def test_two_labels_placed_at_one_spot_do_not_overlap():
    placer = LabelPlacer(Box(0, 0, 100, 100))
    spots = around(50, 50, 3, 20)
    first = placer.place(Text(0, 0, "Akagi", size=3), spots, "a")
    second = placer.place(Text(0, 0, "Kaga", size=3), spots, "b")
    assert not text_box(first).overlaps(text_box(second))


def test_a_label_that_fits_nowhere_stops_the_build_naming_it():
    placer = LabelPlacer(Box(0, 0, 10, 10))
    with pytest.raises(BadInput, match="feature midway: label 'Midway Island'"):
        placer.place(Text(0, 0, "Midway Island", size=3), around(5, 5, 3, 4), "feature midway")


def test_overlapping_pairs_finds_exactly_the_overlaps():
    boxes = [("a", Box(0, 0, 10, 5)), ("b", Box(9, 0, 20, 5)), ("c", Box(21, 0, 30, 5)),
             ("d", Box(0, 6, 10, 9))]
    assert overlapping_pairs(boxes) == [("a", "b")]


def test_segment_hits_a_box_it_crosses_and_not_one_it_passes():
    box = Box(10, 10, 20, 20)
    assert segment_hits(box, (0, 15), (30, 15))
    assert segment_hits(box, (12, 12), (13, 13))
    assert not segment_hits(box, (0, 0), (30, 5))
    assert not segment_hits(box, (0, 25), (9, 0))


def _midway():
    from warpress.components.hexmap import hex_map_drawing
    from warpress.engine.loader import builtin

    return hex_map_drawing(builtin("midway").hex_map(), game_id="midway")


def _nimitz():
    from warpress.components.page import paper
    from warpress.engine.loader import builtin
    from warpress.games.nimitz.kit import kit_drawing, kit_scale

    game = builtin("nimitz")
    return kit_drawing(game, kit_scale(game, paper("a4")), paper("a4"))  # with its legend


def _nightfighter(which: str):
    from warpress.engine.loader import builtin
    from warpress.games.nightfighter.kit import map_drawing

    return lambda: map_drawing(builtin("nightfighter"), which)


def _axis_allies():
    from warpress.engine.loader import builtin
    from warpress.games.axis_allies.kit import world_map_drawing

    return world_map_drawing(builtin("axis-allies"))


MAPS = {"midway": _midway, "nimitz": _nimitz, "nightfighter-player": _nightfighter("player"),
        "nightfighter-referee": _nightfighter("referee"), "axis-allies": _axis_allies}


@pytest.mark.parametrize("name", sorted(MAPS))
def test_no_two_texts_of_a_map_overlap_and_none_crosses_the_frame(name):
    items, width, height = MAPS[name]()
    boxes = [(f"{t.text!r} at {b.x0:.1f},{b.y0:.1f}", b) for t, b in placed_texts(items)]
    assert len(boxes) > 100
    frame = Box(0, 0, width, height)
    assert [n for n, b in boxes if not b.inside(frame)] == []
    assert overlapping_pairs(boxes) == []
