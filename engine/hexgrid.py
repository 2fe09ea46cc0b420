"""Hex grids with printed labels, after Red Blob Games' "Hexagonal Grids" guide.

A :class:`HexGrid` is a rectangle of hexes stored in *offset* coordinates (the column
and row indexes of the printed labels, 0-based) and computed in *cube* coordinates
``(q, r, s)`` with ``q + r + s == 0``. Rows are numbered downward on the map (row
index 0 is the top row) and columns rightward (column index 0 is the left column).

Offset kinds (Red Blob names; parity refers to the **0-based index**, not the label):

* ``"odd-q"`` / ``"even-q"`` -- flat-topped hexes in vertical columns; the odd / even
  columns are shoved half a hex down;
* ``"odd-r"`` / ``"even-r"`` -- pointy-topped hexes in horizontal rows; the odd / even
  rows are shoved half a hex right.

Directions and facing (a convention of this module): the six directions are numbered
0..5 **clockwise**. For flat-topped hexes 0 is the top side (north, toward lower row
numbers), then 1 north-east, 2 south-east, 3 south, 4 south-west, 5 north-west. For
pointy-topped hexes 0 is the upper-right side (north-east), then 1 east, 2 south-east,
3 south-west, 4 west, 5 north-west. A facing is a direction; turning right is +1.

Arcs (Nightfighter rule 19.1.1; its figures are missing, so this model is inferred, medium
confidence):
an arc is the closed cone of directions around the facing, tested on hex centres --
Narrow: half-angle 0 degrees (the hexes straight ahead), Wide: 60 degrees (120 degrees
forward), Hemi: 90 degrees (the forward half, abeam hexes included). The own hex is in
every arc. The tests use exact integer dot products of cube vectors (the plane
``q + r + s == 0`` with the ordinary dot product is a similar copy of the map plane).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from typing import Literal, NamedTuple

from .errors import BadInput

Orientation = Literal["flat", "pointy"]
Offset = Literal["odd-q", "even-q", "odd-r", "even-r"]
Arc = Literal["narrow", "wide", "hemi"]

_OFFSETS_OF: dict[str, tuple[str, ...]] = {
    "flat": ("odd-q", "even-q"),
    "pointy": ("odd-r", "even-r"),
}
_DEFAULT_OFFSET: dict[str, Offset] = {"flat": "even-q", "pointy": "even-r"}
_DIRECTION_NAMES = {
    "flat": ("N", "NE", "SE", "S", "SW", "NW"),
    "pointy": ("NE", "E", "SE", "SW", "W", "NW"),
}


class HexError(BadInput):
    """A hex, a direction or a grid definition is not allowed; the message says why."""


# --------------------------------------------------------------------------- cube maths


class Cube(NamedTuple):
    """Cube coordinates of a hex (or a vector between hexes); ``q + r + s == 0``."""

    q: int
    r: int
    s: int

    def __add__(self, other: object) -> Cube:
        """Add two cube vectors."""
        if not isinstance(other, Cube):
            return NotImplemented
        return Cube(self.q + other.q, self.r + other.r, self.s + other.s)

    def __sub__(self, other: Cube) -> Cube:
        """Subtract two cube vectors."""
        return Cube(self.q - other.q, self.r - other.r, self.s - other.s)

    def scale(self, k: int) -> Cube:
        """Return the vector multiplied by ``k``."""
        return Cube(self.q * k, self.r * k, self.s * k)

    def length(self) -> int:
        """Return the hex distance of the vector from the origin."""
        return max(abs(self.q), abs(self.r), abs(self.s))

    def dot(self, other: Cube) -> int:
        """Return the dot product (proportional to the Euclidean one on the map)."""
        return self.q * other.q + self.r * other.r + self.s * other.s

    def rotate(self, steps: int) -> Cube:
        """Return the vector rotated ``steps`` times 60 degrees clockwise (negative: left)."""
        q, r, s = self
        for _ in range(steps % 6):
            q, r, s = -r, -s, -q
        return Cube(q, r, s)


#: Unit vectors in direction order 0..5 for flat-topped grids (N, NE, SE, S, SW, NW).
FLAT_DIRECTIONS = (
    Cube(0, -1, 1),
    Cube(1, -1, 0),
    Cube(1, 0, -1),
    Cube(0, 1, -1),
    Cube(-1, 1, 0),
    Cube(-1, 0, 1),
)
#: Unit vectors in direction order 0..5 for pointy-topped grids (NE, E, SE, SW, W, NW).
POINTY_DIRECTIONS = FLAT_DIRECTIONS[1:] + FLAT_DIRECTIONS[:1]


def cube_distance(a: Cube, b: Cube) -> int:
    """Return the number of hex steps from ``a`` to ``b``."""
    return (a - b).length()


def offset_to_cube(col: int, row: int, offset: str) -> Cube:
    """Convert 0-based offset coordinates to cube coordinates (Red Blob formulas)."""
    if offset == "odd-q":
        q, r = col, row - (col - (col & 1)) // 2
    elif offset == "even-q":
        q, r = col, row - (col + (col & 1)) // 2
    elif offset == "odd-r":
        q, r = col - (row - (row & 1)) // 2, row
    elif offset == "even-r":
        q, r = col - (row + (row & 1)) // 2, row
    else:
        raise HexError(f"unknown offset {offset!r}; allowed: odd-q, even-q, odd-r, even-r")
    return Cube(q, r, -q - r)


def cube_to_offset(cube: Cube, offset: str) -> tuple[int, int]:
    """Convert cube coordinates to 0-based offset ``(col, row)`` (Red Blob formulas)."""
    q, r = cube.q, cube.r
    if offset == "odd-q":
        return q, r + (q - (q & 1)) // 2
    if offset == "even-q":
        return q, r + (q + (q & 1)) // 2
    if offset == "odd-r":
        return q + (r - (r & 1)) // 2, r
    if offset == "even-r":
        return q + (r + (r & 1)) // 2, r
    raise HexError(f"unknown offset {offset!r}; allowed: odd-q, even-q, odd-r, even-r")


def cube_round(q: float, r: float, s: float) -> Cube:
    """Round fractional cube coordinates to the nearest hex."""
    rq, rr, rs = round(q), round(r), round(s)
    dq, dr, ds = abs(rq - q), abs(rr - r), abs(rs - s)
    if dq > dr and dq > ds:
        rq = -rr - rs
    elif dr > ds:
        rr = -rq - rs
    else:
        rs = -rq - rr
    return Cube(int(rq), int(rr), int(rs))


def cube_line(a: Cube, b: Cube, nudge: int = 1) -> list[Cube]:
    """Return the hexes on the straight line from ``a`` to ``b``, both included.

    Centres are linearly interpolated; ``nudge`` (+1 or -1) moves both ends by a tiny
    epsilon so a line running exactly along hex sides picks one side consistently.
    """
    n = cube_distance(a, b)
    eps = (1e-6 * nudge, 2e-6 * nudge, -3e-6 * nudge)
    aq, ar, as_ = a.q + eps[0], a.r + eps[1], a.s + eps[2]
    bq, br, bs = b.q + eps[0], b.r + eps[1], b.s + eps[2]
    if n == 0:
        return [a]
    return [
        cube_round(aq + (bq - aq) * i / n, ar + (br - ar) * i / n, as_ + (bs - as_) * i / n)
        for i in range(n + 1)
    ]


def in_cone(vector: Cube, forward: Cube, arc: str) -> bool:
    """Return whether ``vector`` lies in the closed arc ``arc`` around unit ``forward``.

    Narrow: on the forward ray; Wide: within 60 degrees of it; Hemi: within 90 degrees.
    The zero vector (the own hex) is in every arc.
    """
    if arc not in ("narrow", "wide", "hemi"):
        raise HexError(f"unknown arc {arc!r}; allowed: narrow, wide, hemi")
    if vector == (0, 0, 0):
        return True
    dot = vector.dot(forward)
    if dot < 0 or (dot == 0 and arc != "hemi"):
        return False
    norm2 = vector.dot(vector) * forward.dot(forward)
    if arc == "narrow":
        return dot * dot == norm2  # cos = 1
    if arc == "wide":
        return 4 * dot * dot >= norm2  # cos >= 1/2
    return True  # hemi: cos >= 0


# --------------------------------------------------------------------------- the grid


class HexGrid:
    """A rectangular map of hexes with printed column and row labels.

    ``columns`` and ``rows`` are the labels in order (index 0 = first). ``hex_id`` is a
    format string with ``{col}`` and ``{row}`` that spells a hex's printed id.
    ``offset`` defaults to ``"even-q"`` for flat-topped and ``"even-r"`` for
    pointy-topped grids; see the module docstring for the conventions.
    """

    def __init__(
        self,
        columns: Sequence[str],
        rows: Sequence[str],
        hex_id: str = "{col}-{row}",
        orientation: Orientation = "flat",
        offset: Offset | None = None,
    ):
        if orientation not in _OFFSETS_OF:
            raise HexError(f"unknown orientation {orientation!r}; allowed: flat, pointy")
        offset = offset if offset is not None else _DEFAULT_OFFSET[orientation]
        if offset not in _OFFSETS_OF[orientation]:
            allowed = ", ".join(_OFFSETS_OF[orientation])
            raise HexError(
                f"offset {offset!r} does not fit {orientation}-topped hexes; allowed: {allowed}"
            )
        if not columns or not rows:
            raise HexError(f"a grid needs columns and rows, got {len(columns)} x {len(rows)}")
        self.columns = tuple(str(c) for c in columns)
        self.rows = tuple(str(r) for r in rows)
        self.hex_id = hex_id
        self.orientation: Orientation = orientation
        self.offset: str = offset
        self.directions = FLAT_DIRECTIONS if orientation == "flat" else POINTY_DIRECTIONS
        self._ids: list[list[str]] = [[self._format(c, r) for r in self.rows] for c in self.columns]
        self._coords: dict[str, tuple[int, int]] = {}
        for ci, column in enumerate(self._ids):
            for ri, name in enumerate(column):
                if name in self._coords:
                    raise HexError(f"hex id {name!r} occurs twice; check hex_id {hex_id!r}")
                self._coords[name] = (ci, ri)

    def _format(self, col: str, row: str) -> str:
        """Spell the id of the hex with labels ``col`` and ``row``."""
        try:
            return self.hex_id.format(col=col, row=row)
        except (KeyError, IndexError, ValueError) as exc:
            raise HexError(
                f"hex_id {self.hex_id!r} must be a format string using {{col}} and {{row}}"
            ) from exc

    # ----------------------------------------------------------------- factories

    @classmethod
    def letters(
        cls,
        n_cols: int,
        n_rows: int,
        hex_id: str = "{col}-{row}",
        orientation: Orientation = "flat",
        offset: Offset | None = None,
    ) -> HexGrid:
        """Grid with columns A, B, ... (then AA, AB, ...) and rows 1..n: ids like ``"F-6"``."""
        columns = [_letters(i) for i in range(n_cols)]
        rows = [str(r) for r in range(1, n_rows + 1)]
        return cls(columns, rows, hex_id, orientation, offset)

    @classmethod
    def numbered(
        cls,
        n_cols: int,
        n_rows: int,
        hex_id: str = "{col}{row}",
        orientation: Orientation = "flat",
        offset: Offset | None = None,
    ) -> HexGrid:
        """Grid with zero-padded numbers, ids ``"CCRR"``: column 7 row 12 is ``"0712"``.

        Labels have at least two digits, more if the count needs them (column 7 of 120
        is ``"007"``).
        """
        cw, rw = max(2, len(str(n_cols))), max(2, len(str(n_rows)))
        columns = [f"{c:0{cw}d}" for c in range(1, n_cols + 1)]
        rows = [f"{r:0{rw}d}" for r in range(1, n_rows + 1)]
        return cls(columns, rows, hex_id, orientation, offset)

    # ----------------------------------------------------------------- ids and coordinates

    def __repr__(self) -> str:
        return (
            f"HexGrid({len(self.columns)} x {len(self.rows)}, {self.orientation}, "
            f"{self.offset}, ids {self.id_of(0, 0)!r}..{self.id_of(-1, -1)!r})"
        )

    def __contains__(self, hex_id: object) -> bool:
        return hex_id in self._coords

    def __len__(self) -> int:
        return len(self._coords)

    def __iter__(self) -> Iterator[str]:
        return iter(self.all_hexes())

    def all_hexes(self) -> list[str]:
        """Return every hex id in column-major order (first column top to bottom, ...)."""
        return [name for column in self._ids for name in column]

    def id_of(self, col_index: int, row_index: int) -> str:
        """Return the id of the hex at 0-based indexes (negative indexes count from the end)."""
        try:
            return self._ids[col_index][row_index]
        except IndexError:
            raise HexError(
                f"hex at column index {col_index}, row index {row_index} is not on the map "
                f"({len(self.columns)} columns, {len(self.rows)} rows)"
            ) from None

    def coords(self, hex_id: str) -> tuple[int, int]:
        """Return the 0-based ``(col_index, row_index)`` of a hex id."""
        try:
            return self._coords[hex_id]
        except (KeyError, TypeError):
            raise HexError(
                f"hex {hex_id!r} is not on the map (columns {self.columns[0]}-"
                f"{self.columns[-1]}, rows {self.rows[0]}-{self.rows[-1]})"
            ) from None

    def cube(self, hex_id: str) -> Cube:
        """Return the cube coordinates of a hex id."""
        return offset_to_cube(*self.coords(hex_id), self.offset)

    def at_cube(self, cube: Cube) -> str | None:
        """Return the id of the hex at ``cube``, or None if it is off the map."""
        col, row = cube_to_offset(cube, self.offset)
        if 0 <= col < len(self.columns) and 0 <= row < len(self.rows):
            return self._ids[col][row]
        return None

    # ----------------------------------------------------------------- distances and areas

    def distance(self, a: str, b: str) -> int:
        """Return the hex distance (count the target hex, not the start hex)."""
        return cube_distance(self.cube(a), self.cube(b))

    def neighbours(self, hex_id: str) -> list[str]:
        """Return the on-map neighbours of a hex, in direction order 0..5."""
        centre = self.cube(hex_id)
        found = (self.at_cube(centre + d) for d in self.directions)
        return [h for h in found if h is not None]

    def is_edge(self, hex_id: str) -> bool:
        """Return whether a hex has fewer than six on-map neighbours."""
        return len(self.neighbours(hex_id)) < 6

    def within(self, hex_id: str, n: int) -> list[str]:
        """Return the on-map hexes at distance <= ``n`` (own hex included), column-major."""
        centre = self.cube(hex_id)
        found = []
        for dq in range(-n, n + 1):
            for dr in range(max(-n, -dq - n), min(n, -dq + n) + 1):
                h = self.at_cube(centre + Cube(dq, dr, -dq - dr))
                if h is not None:
                    found.append(h)
        return sorted(found, key=self.coords)

    def ring(self, hex_id: str, n: int) -> list[str]:
        """Return the on-map hexes at distance exactly ``n``, walking clockwise.

        The walk starts at the hex ``n`` steps in direction 4 (as in Red Blob's guide,
        which starts at its direction 4 too).
        """
        centre = self.cube(hex_id)
        if n < 0:
            raise HexError(f"ring radius must be >= 0, not {n}")
        if n == 0:
            return [hex_id]
        found = []
        cube = centre + self.directions[4].scale(n)
        for side in range(6):
            for _ in range(n):
                h = self.at_cube(cube)
                if h is not None:
                    found.append(h)
                cube = cube + self.directions[side]
        return found

    def line(self, a: str, b: str) -> list[str]:
        """Return the hexes on the straight line from ``a`` to ``b``, both included.

        Where the line runs exactly along hex sides, the positive epsilon nudge decides;
        if that choice leaves the map, the opposite nudge is used. [inferred choice]
        """
        ca, cb = self.cube(a), self.cube(b)
        for nudge in (1, -1):
            hexes = [self.at_cube(c) for c in cube_line(ca, cb, nudge)]
            on_map = [h for h in hexes if h is not None]
            if len(on_map) == len(hexes):
                return on_map
        raise HexError(f"the line from {a!r} to {b!r} leaves the map")

    # ----------------------------------------------------------------- directions and facing

    def direction(self, a: str, b: str) -> int:
        """Return the direction 0..5 from hex ``a`` to the adjacent hex ``b``."""
        vector = self.cube(b) - self.cube(a)
        try:
            return self.directions.index(vector)
        except ValueError:
            raise HexError(f"hexes {a!r} and {b!r} are not adjacent") from None

    def direction_name(self, direction: int) -> str:
        """Return the compass name of a direction, e.g. ``"NE"``."""
        return _DIRECTION_NAMES[self.orientation][_check_direction(direction)]

    def neighbour_in_direction(self, hex_id: str, direction: int) -> str | None:
        """Return the adjacent hex in ``direction``, or None if that is off the map."""
        return self.at_cube(self.cube(hex_id) + self.directions[_check_direction(direction)])

    def relative_direction(self, facing: int, from_hex: str, to_hex: str) -> int:
        """Return where ``to_hex`` lies seen from ``from_hex`` facing ``facing``.

        0 = dead ahead, 1 = front right, 2 = rear right, 3 = behind, 4 = rear left,
        5 = front left. For a distant hex the result is the direction whose 60-degree
        sector holds its centre; a centre exactly between two sectors (on a hex
        "spine") goes to the clockwise one. [inferred choice]
        """
        vector = self.cube(to_hex) - self.cube(from_hex)
        if vector == (0, 0, 0):
            raise HexError(f"hex {to_hex!r} is {from_hex!r} itself: it has no direction")
        dots = [vector.dot(d) for d in self.directions]
        best = max(dots)
        absolute = next(i for i in range(6) if dots[i] == best and dots[(i + 1) % 6] != best)
        return (absolute - _check_direction(facing)) % 6

    def bearing(self, facing: int, from_hex: str, to_hex: str) -> float:
        """Return the angle in degrees, clockwise from ``facing``, to ``to_hex`` (0..360)."""
        vector = self.cube(to_hex) - self.cube(from_hex)
        if vector == (0, 0, 0):
            raise HexError(f"hex {to_hex!r} is {from_hex!r} itself: it has no bearing")
        forward = self.directions[_check_direction(facing)]
        right = forward.rotate(1) + forward.rotate(2)  # 90 degrees clockwise, length sqrt 3
        ahead = vector.dot(forward) / math.sqrt(2)
        side = vector.dot(right) / math.sqrt(6)
        return math.degrees(math.atan2(side, ahead)) % 360

    @staticmethod
    def turn(facing: int, steps: int) -> int:
        """Return the facing after turning ``steps`` x 60 degrees (positive: right)."""
        return turn(facing, steps)

    # ----------------------------------------------------------------- arcs (Nightfighter 19.1.1)

    def in_arc(
        self, origin: str, facing: int, target: str, arc: Arc, max_range: int | None = None
    ) -> bool:
        """Return whether ``target`` is in the ``arc`` of an aircraft at ``origin``.

        Nightfighter 19.1.1: Narrow = the hexes straight ahead (the line of hexes in the
        facing direction); Wide = 120 degrees forward, i.e. the wedge bounded by the two
        forward-diagonal hex lines, inclusive (9 hexes within range 2); Hemi = the
        forward half, abeam hexes included (inferred, low confidence; 11 hexes within
        range 2). The own hex is in every arc. ``max_range`` (if given) also requires
        distance <= range.
        """
        vector = self.cube(target) - self.cube(origin)
        if max_range is not None and vector.length() > max_range:
            return False
        return in_cone(vector, self.directions[_check_direction(facing)], arc)

    def arc_hexes(self, origin: str, facing: int, arc: Arc, max_range: int) -> list[str]:
        """Return the on-map hexes within ``max_range`` in the arc, column-major."""
        return [h for h in self.within(origin, max_range) if self.in_arc(origin, facing, h, arc)]


def turn(facing: int, steps: int) -> int:
    """Return the facing after turning ``steps`` x 60 degrees (positive: clockwise/right)."""
    return (_check_direction(facing) + steps) % 6


def _check_direction(direction: int) -> int:
    """Return ``direction`` if it is 0..5, else raise :class:`HexError` quoting it."""
    if isinstance(direction, bool) or not isinstance(direction, int) or not 0 <= direction <= 5:
        raise HexError(f"direction {direction!r} is not a hex direction (0-5, clockwise)")
    return direction


def _letters(index: int) -> str:
    """Return spreadsheet-style column letters: 0 -> A, 25 -> Z, 26 -> AA."""
    name = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        name = chr(ord("A") + rem) + name
    return name
