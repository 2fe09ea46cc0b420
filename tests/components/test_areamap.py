"""Area outlines: the block placement in a region agrees with the one-point tests."""

from __future__ import annotations

import numpy as np
from warpress.components import areamap

#: An L-shaped region with a square hole in its long arm.
L_SHAPE = areamap.Region(
    rings=(((0.0, 0.0), (60.0, 0.0), (60.0, 20.0), (20.0, 20.0), (20.0, 50.0), (0.0, 50.0)),),
    holes=(((30.0, 5.0), (40.0, 5.0), (40.0, 15.0), (30.0, 15.0)),))


def test_boxes_inside_agrees_with_box_inside_box_by_box():
    xs, ys = np.meshgrid(np.arange(-5.0, 65.0, 2.5), np.arange(-5.0, 55.0, 2.5))
    x0, y0 = xs.ravel(), ys.ravel()
    x1, y1 = x0 + 8.0, y0 + 6.0
    many = areamap.boxes_inside(L_SHAPE, x0, y0, x1, y1)
    one = [L_SHAPE.box_inside(*b) for b in zip(x0, y0, x1, y1, strict=True)]
    assert many.tolist() == one
    assert any(one) and not all(one)


def test_place_in_finds_the_nearest_spot_that_fits_and_avoids_what_is_taken():
    spot = areamap.place_in(L_SHAPE, (35.0, 10.0), 8.0, 6.0, margin=0.5)
    assert spot is not None
    x, y = spot
    assert L_SHAPE.box_inside(x - 4.5, y - 3.5, x + 4.5, y + 3.5)  # not over the hole
    taken = (x - 5.0, y - 4.0, x + 5.0, y + 4.0)
    other = areamap.place_in(L_SHAPE, (35.0, 10.0), 8.0, 6.0, margin=0.5, avoid=[taken])
    assert other is not None and other != spot
    ox, oy = other
    assert not (ox - 4.5 < taken[2] and taken[0] < ox + 4.5 and oy - 3.5 < taken[3]
                and taken[1] < oy + 3.5)
    assert areamap.place_in(L_SHAPE, (10.0, 10.0), 70.0, 6.0) is None  # wider than the land
