"""components/aids.py, the generic map and track blocks: every box that holds pieces is a
counter plus 2 mm and says so; labels stay clear of each other and inside the frame."""

from __future__ import annotations

import pytest
from warpress.components import aids
from warpress.components.labels import Box, overlapping_pairs, placed_texts
from warpress.components.primitives import Rect, walk
from warpress.engine.errors import BadInput
from warpress.engine.model import Point, PointMap, Route, Track


def holding(items) -> list[Rect]:
    return [r for r in walk(items) if isinstance(r, Rect) and "holds" in (r.cls or "").split()]


def world(*spots) -> PointMap:
    points = tuple(Point(id=f"p{i}", name=f"Point number {i}", x=x, y=y, capacity=i)
                   for i, (x, y) in enumerate(spots))
    return PointMap(id="w", points=points, routes=(Route(a="p0", b="p2"),), width_mm=200,
                    height_mm=120)


def test_a_point_map_draws_each_point_as_a_box_for_a_stack_with_its_name_clear():
    items, width, height = aids.point_map_drawing(
        world((0.1, 0.1), (0.25, 0.12), (0.5, 0.5), (1, 1)), 20.0)
    boxes = holding(items)
    assert sorted(r.id for r in boxes) == ["point-p0", "point-p1", "point-p2", "point-p3"]
    assert all(r.w == r.h == 20.0 for r in boxes)
    texts = [(t.text, b) for t, b in placed_texts(items)]
    assert {"Point number 0", "Point number 3"} <= {t for t, _ in texts}
    assert all(b.inside(Box(0, 0, width, height)) for _, b in texts)
    assert overlapping_pairs(texts + [(r.id, Box(r.x, r.y, r.x + r.w, r.y + r.h))
                                      for r in boxes]) == []


def test_a_long_track_wraps_into_rows_of_boxes_that_hold_a_counter():
    track = Track(id="turn", name="Turn", values=tuple(range(1, 21)), start=1,
                  labels={"3": "Spring 1942"})
    block = aids.track_block(track, 150.0, 17.875)
    boxes = holding(block.items)
    assert len(boxes) == 20 and all(r.w >= 17.875 and r.h >= 17.875 for r in boxes)
    assert max(r.x + r.w for r in boxes) <= 150.0
    assert len({r.y for r in boxes}) == 3  # 8 + 8 + 4


def test_points_too_close_for_their_boxes_stop_the_build_naming_them():
    with pytest.raises(BadInput, match="map w: points 'p0' and 'p1' are too close"):
        aids.point_map_drawing(world((0.1, 0.1), (0.14, 0.12), (0.5, 0.5)), 20.0)
