"""Tests of hex grids: ids, cube maths, facing and Nightfighter arcs."""

from __future__ import annotations

import pytest
from hypothesis import assume, given, settings
from hypothesis import strategies as st
from warpress.engine.errors import BadInput
from warpress.engine.hexgrid import (
    FLAT_DIRECTIONS,
    Cube,
    HexError,
    HexGrid,
    cube_to_offset,
    in_cone,
    offset_to_cube,
    turn,
)

MIDWAY = HexGrid.letters(13, 10)  # flat-topped, even-q, A = column 0, ids "F-6"
NIGHT = HexGrid.numbered(18, 27)  # flat-topped, columns run down the long edge

GRIDS = [
    MIDWAY,
    NIGHT,
    HexGrid.letters(9, 7, offset="odd-q"),
    HexGrid.letters(7, 9, orientation="pointy", offset="odd-r"),
    HexGrid.letters(8, 6, orientation="pointy"),
]

# --------------------------------------------------------------------------- ids


def test_letters_ids_and_coords():
    assert MIDWAY.id_of(0, 0) == "A-1"
    assert MIDWAY.id_of(5, 5) == "F-6"
    assert MIDWAY.coords("F-6") == (5, 5)
    assert MIDWAY.coords("M-10") == (12, 9)
    assert len(MIDWAY) == 130
    assert MIDWAY.all_hexes()[:3] == ["A-1", "A-2", "A-3"]
    assert MIDWAY.all_hexes()[10] == "B-1"


def test_unknown_hex_message():
    with pytest.raises(HexError) as info:
        MIDWAY.coords("Z-99")
    assert str(info.value) == "hex 'Z-99' is not on the map (columns A-M, rows 1-10)"
    assert issubclass(HexError, BadInput) and issubclass(HexError, ValueError)
    with pytest.raises(HexError, match="'F6'"):
        MIDWAY.distance("F6", "A-1")
    with pytest.raises(HexError, match="column index 13"):
        MIDWAY.id_of(13, 0)


def test_contains():
    assert "F-6" in MIDWAY and "N-1" not in MIDWAY and 7 not in MIDWAY


def test_nightfighter_numbered_grid():
    assert len(NIGHT) == 486
    hexes = NIGHT.all_hexes()
    assert hexes[0] == "0101" and hexes[-1] == "1827"
    assert NIGHT.id_of(6, 11) == "0712"
    assert NIGHT.coords("0712") == (6, 11)
    assert "1828" not in NIGHT and "1901" not in NIGHT


def test_numbered_pads_to_the_widest_label():
    big = HexGrid.numbered(120, 5)
    assert big.id_of(6, 11 - 7) == "00705"


def test_letters_beyond_z():
    assert HexGrid.letters(28, 1).columns[-2:] == ("AA", "AB")


def test_grid_definition_errors():
    with pytest.raises(HexError, match="'even-q' does not fit pointy"):
        HexGrid(["A"], ["1"], orientation="pointy", offset="even-q")
    with pytest.raises(HexError, match="orientation 'round'"):
        HexGrid(["A"], ["1"], orientation="round")  # type: ignore[arg-type]
    with pytest.raises(HexError, match="occurs twice"):
        HexGrid(["1", "11"], ["11", "1"], hex_id="{col}{row}")
    with pytest.raises(HexError, match="format string"):
        HexGrid(["A"], ["1"], hex_id="{column}")


# --------------------------------------------------------------------------- Midway facts


def test_midway_example_path_is_adjacent():
    path = ["F-4", "E-3", "D-3"]
    for a, b in zip(path, path[1:], strict=False):
        assert MIDWAY.distance(a, b) == 1
        assert b in MIDWAY.neighbours(a)


@pytest.mark.parametrize(
    "a, b, dist",
    [("D-3", "F-3", 2), ("D-3", "F-6", 4), ("A-1", "F-6", 7), ("A-2", "F-6", 6), ("A-3", "F-6", 5)],
)
def test_midway_distances(a, b, dist):
    assert MIDWAY.distance(a, b) == dist


def test_midway_column_a_rows_3_to_8_are_five_from_midway():
    assert [MIDWAY.distance(f"A-{r}", "F-6") for r in range(3, 9)] == [5] * 6


def test_even_q_shoves_even_index_columns_down():
    # A (index 0) is shoved down: A-1's side neighbours in column B are B-1 and B-2.
    assert MIDWAY.neighbours("A-1") == ["B-1", "B-2", "A-2"]
    odd = HexGrid.letters(13, 10, offset="odd-q")
    assert odd.distance("F-4", "E-3") == 2  # the Midway path fails under odd-q


# --------------------------------------------------------------------------- geometry


def test_neighbours_in_direction_order():
    # 07 has index 6 (even), so under even-q it is shoved half a hex down.
    assert NIGHT.neighbours("0712") == ["0711", "0812", "0813", "0713", "0613", "0612"]
    assert NIGHT.neighbours("0812") == ["0811", "0911", "0912", "0813", "0712", "0711"]
    assert len(NIGHT.neighbours("0101")) == 3
    assert NIGHT.is_edge("0101") and not NIGHT.is_edge("0712")


def test_bomber_flies_down_the_column():
    # Nightfighter 7.1: a bomber at 0712 faces 0713; "down the column" is direction 3.
    assert NIGHT.direction("0712", "0713") == 3
    assert NIGHT.neighbour_in_direction("0712", 3) == "0713"
    assert NIGHT.neighbour_in_direction("0127", 3) is None
    assert NIGHT.direction_name(3) == "S"
    with pytest.raises(HexError, match="not adjacent"):
        NIGHT.direction("0712", "0714")


def test_turning():
    assert turn(0, 1) == 1
    assert turn(0, -1) == 5
    assert turn(5, 2) == 1
    assert HexGrid.turn(3, 6) == 3
    with pytest.raises(HexError, match="direction 6"):
        turn(6, 1)


def test_relative_direction():
    assert NIGHT.relative_direction(3, "0712", "0713") == 0  # ahead
    assert NIGHT.relative_direction(3, "0712", "0711") == 3  # behind
    assert NIGHT.relative_direction(0, "0712", "0812") == 1  # front right
    assert NIGHT.relative_direction(0, "0712", "0612") == 5  # front left
    assert NIGHT.relative_direction(3, "0712", "0613") == 1  # front right of a bomber
    # Centres exactly between two sectors (hex spines) go to the clockwise sector.
    assert NIGHT.relative_direction(0, "0712", "0811") == 1
    assert NIGHT.relative_direction(0, "0712", "0611") == 0
    assert NIGHT.relative_direction(3, "0712", "0720") == 0  # far ahead
    with pytest.raises(HexError, match="itself"):
        NIGHT.relative_direction(0, "0712", "0712")


def test_bearing():
    assert NIGHT.bearing(0, "0712", "0710") == pytest.approx(0)
    assert NIGHT.bearing(0, "0712", "0812") == pytest.approx(60)
    assert NIGHT.bearing(0, "0712", "0912") == pytest.approx(90)  # abeam right
    assert NIGHT.bearing(3, "0712", "0912") == pytest.approx(270)


def test_within_and_ring():
    assert len(NIGHT.within("0914", 2)) == 19
    assert len(NIGHT.ring("0914", 2)) == 12
    assert NIGHT.ring("0914", 0) == ["0914"]
    assert set(NIGHT.ring("0914", 1)) == set(NIGHT.neighbours("0914"))
    assert sorted(MIDWAY.within("A-1", 1)) == ["A-1", "A-2", "B-1", "B-2"]


def test_line():
    assert NIGHT.line("0712", "0715") == ["0712", "0713", "0714", "0715"]
    assert NIGHT.line("0712", "0712") == ["0712"]
    line = NIGHT.line("0101", "0501")
    assert line[0] == "0101" and line[-1] == "0501" and len(line) == 5
    # Along the bottom edge the default nudge would leave the map; the other is used.
    bottom = MIDWAY.line("A-10", "C-10")
    assert bottom[1] in MIDWAY


# --------------------------------------------------------------------------- arcs (19.1.1)


def test_arc_sizes_at_range_2():
    # 19.1.1 (model inferred): Narrow 3, Wide 9, Hemi 11 hexes at range 2 (own hex included).
    for facing in range(6):
        assert len(NIGHT.arc_hexes("0914", facing, "narrow", 2)) == 3
        assert len(NIGHT.arc_hexes("0914", facing, "wide", 2)) == 9
        assert len(NIGHT.arc_hexes("0914", facing, "hemi", 2)) == 11


def test_narrow_arc_is_the_column_ahead():
    assert NIGHT.arc_hexes("0712", 3, "narrow", 3) == ["0712", "0713", "0714", "0715"]


def test_wide_and_hemi_for_a_south_facing_fighter():
    wide = NIGHT.arc_hexes("0912", 3, "wide", 2)
    assert wide == ["0713", "0813", "0814", "0912", "0913", "0914", "1013", "1014", "1113"]
    hemi = NIGHT.arc_hexes("0912", 3, "hemi", 2)
    assert set(hemi) - set(wide) == {"0712", "1112"}  # the abeam hexes (inferred, low confidence)


def test_own_hex_is_in_every_arc():
    for arc in ("narrow", "wide", "hemi"):
        assert NIGHT.in_arc("0712", 0, "0712", arc)


def test_arc_range_and_errors():
    assert NIGHT.in_arc("0712", 3, "0720", "narrow")
    assert not NIGHT.in_arc("0712", 3, "0720", "narrow", max_range=2)
    with pytest.raises(HexError, match="arc 'rear'"):
        NIGHT.in_arc("0712", 3, "0713", "rear")  # type: ignore[arg-type]


def test_wide_arc_is_the_two_diagonal_wedge():
    # The inferred model: {a*dL + b*dR : a, b >= 0}.
    for f, d in enumerate(FLAT_DIRECTIONS):
        left, right = FLAT_DIRECTIONS[f - 1], FLAT_DIRECTIONS[(f + 1) % 6]
        wedge = {left.scale(a) + right.scale(b) for a in range(5) for b in range(5)}
        for q in range(-4, 5):
            for r in range(-4, 5):
                v = Cube(q, r, -q - r)
                if v.length() <= 4:
                    assert in_cone(v, d, "wide") == (v in wedge)


# --------------------------------------------------------------------------- properties


@st.composite
def grid_and_hexes(draw, count=2):
    grid = draw(st.sampled_from(GRIDS))
    hexes = draw(st.lists(st.sampled_from(grid.all_hexes()), min_size=count, max_size=count))
    return grid, hexes


@settings(max_examples=200, deadline=None)
@given(grid_and_hexes(3))
def test_distance_is_a_metric(data):
    grid, (a, b, c) = data
    assert grid.distance(a, b) == grid.distance(b, a)
    assert (grid.distance(a, b) == 0) == (a == b)
    assert grid.distance(a, c) <= grid.distance(a, b) + grid.distance(b, c)


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(1))
def test_neighbours_are_at_distance_one(data):
    grid, (h,) = data
    for n in grid.neighbours(h):
        assert grid.distance(h, n) == 1
        assert grid.neighbour_in_direction(h, grid.direction(h, n)) == n
        assert grid.direction(n, h) == turn(grid.direction(h, n), 3)
    assert set(grid.neighbours(h)) == set(grid.within(h, 1)) - {h}


@settings(max_examples=200, deadline=None)
@given(
    st.integers(-50, 50),
    st.integers(-50, 50),
    st.sampled_from(["odd-q", "even-q", "odd-r", "even-r"]),
)
def test_cube_offset_round_trip(col, row, offset):
    cube = offset_to_cube(col, row, offset)
    assert cube.q + cube.r + cube.s == 0
    assert cube_to_offset(cube, offset) == (col, row)


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(1))
def test_grid_cube_round_trip(data):
    grid, (h,) = data
    assert grid.at_cube(grid.cube(h)) == h


@settings(max_examples=200, deadline=None)
@given(grid_and_hexes(2), st.integers(0, 5))
def test_arcs_are_nested(data, facing):
    grid, (a, b) = data
    narrow = grid.in_arc(a, facing, b, "narrow")
    wide = grid.in_arc(a, facing, b, "wide")
    hemi = grid.in_arc(a, facing, b, "hemi")
    assert not narrow or wide
    assert not wide or hemi


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(2), st.integers(0, 5))
def test_hemi_arcs_of_opposite_facings_cover_everything(data, facing):
    grid, (a, b) = data
    assert grid.in_arc(a, facing, b, "hemi") or grid.in_arc(a, turn(facing, 3), b, "hemi")


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(2))
def test_line_steps_are_adjacent(data):
    grid, (a, b) = data
    try:
        line = grid.line(a, b)
    except HexError:
        assume(False)
    assert len(line) == grid.distance(a, b) + 1
    for x, y in zip(line, line[1:], strict=False):
        assert grid.distance(x, y) == 1


@settings(max_examples=100, deadline=None)
@given(grid_and_hexes(1), st.integers(0, 4))
def test_rings_partition_within(data, n):
    grid, (h,) = data
    rings = [x for k in range(n + 1) for x in grid.ring(h, k)]
    assert sorted(rings) == sorted(grid.within(h, n))
    assert all(grid.distance(h, x) == n for x in grid.ring(h, n))
