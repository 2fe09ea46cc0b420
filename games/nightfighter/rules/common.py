"""Shared pieces of the Nightfighter engine: the map grid, MP values, data look-ups.

Every number comes from the game's YAML (``games/nightfighter``): constants by id,
tables by id, table modifiers by id. Hex ids are the printed CCRR ids (``"0712"`` is
column 07, row 12). Directions follow ``engine/hexgrid.py`` (flat-topped hexes,
0 = N toward row 01, clockwise: 1 NE, 2 SE, 3 S, 4 SW, 5 NW); bombers fly S.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from fractions import Fraction
from math import comb
from typing import Any

from warpress.engine.dice import weights
from warpress.engine.errors import BadInput
from warpress.engine.hexgrid import HexGrid
from warpress.engine.inputs import quote, read_int
from warpress.engine.model import Game, HexMap, Table

#: Directions relative to a facing, as ``HexGrid.relative_direction`` numbers them.
FRONT, FRONT_RIGHT, REAR_RIGHT, REAR, REAR_LEFT, FRONT_LEFT = range(6)
RELATIVE = {
    "front": FRONT,
    "front-right": FRONT_RIGHT,
    "rear-right": REAR_RIGHT,
    "rear": REAR,
    "rear-left": REAR_LEFT,
    "front-left": FRONT_LEFT,
}
FACINGS = ("N", "NE", "SE", "S", "SW", "NW")
#: 26.1: a scenario may put the Task Force counter in searchlight zone N (the Task Force box).
TASK_FORCE_ZONE = "N"

_GRIDS: dict[int, tuple[HexMap, HexGrid]] = {}


def grid(game: Game) -> HexGrid:
    """The game's 18x27 CCRR grid (cached per loaded map)."""
    hex_map = game.hex_map()
    hit = _GRIDS.get(id(hex_map))
    if hit is not None and hit[0] is hex_map:
        return hit[1]
    made = HexGrid(
        hex_map.columns.all_labels(),
        hex_map.rows.all_labels(),
        hex_map.hex_id,
        hex_map.orientation,
        hex_map.offset,
    )
    _GRIDS[id(hex_map)] = (hex_map, made)
    return made


def check_hex(game: Game, hex_id: Any, name: str = "hex") -> str:
    """Return ``hex_id`` if it is on the map, else BadInput naming the input."""
    g = grid(game)
    text = str(hex_id).strip()
    if text not in g:
        raise BadInput(
            f"input {name}={hex_id!r} is not a hex on the map (CCRR: columns "
            f"{g.columns[0]}-{g.columns[-1]}, rows {g.rows[0]}-{g.rows[-1]}, e.g. 0712)"
        )
    return text


def column_of(game: Game, hex_id: str) -> int:
    """The printed column number of a hex (``"0712"`` -> 7)."""
    g = grid(game)
    return int(g.columns[g.coords(hex_id)[0]])


def row_of(game: Game, hex_id: str) -> int:
    """The printed row number of a hex (``"0712"`` -> 12)."""
    g = grid(game)
    return int(g.rows[g.coords(hex_id)[1]])


def hex_at(game: Game, column: int, row: int) -> str | None:
    """The id of the hex at printed column and row numbers, or None off the map."""
    g = grid(game)
    col_label = next((c for c in g.columns if int(c) == column), None)
    row_label = next((r for r in g.rows if int(r) == row), None)
    if col_label is None or row_label is None:
        return None
    return g.hex_id.format(col=col_label, row=row_label)


def facing_text(facing: int) -> str:
    """A facing as every output shows it: the compass word and the number the commands take,
    ``NW (5)``."""
    return f"{FACINGS[facing]} ({facing})"


def facing_of(value: Any, name: str = "facing") -> int:
    """A facing typed as a compass word (N, NE, SE, S, SW, NW) or 0-5 -> 0..5."""
    text = str(value).strip().upper()
    if text in FACINGS:
        return FACINGS.index(text)
    number = read_int(text) if text[:1] not in "+-" else None
    if number is not None and 0 <= number <= 5:
        return number
    raise BadInput(f"input {name}={quote(value)} is not a facing (N|NE|SE|S|SW|NW or 0-5)")


def relative_hex(game: Game, hex_id: str, facing: int, relative: int) -> str | None:
    """The hex adjacent to ``hex_id`` in direction ``relative`` to ``facing`` (None: off map)."""
    return grid(game).neighbour_in_direction(hex_id, (facing + relative) % 6)


# --- constants and tables -----------------------------------------------------------------


def const(game: Game, constant_id: str) -> Any:
    """A constant's value from constants.yaml."""
    return game.constant(constant_id)


def modifier(table: Table, modifier_id: str) -> Any:
    """The ``value`` of a table's modifier by id (the number the play aid prints)."""
    return modifier_item(table, modifier_id).value


def modifier_item(table: Table, modifier_id: str) -> Any:
    """A table's modifier record by id (its ``value``, ``when`` ...)."""
    for item in table.modifiers:
        if item.id == modifier_id:
            return item
    raise BadInput(f"table {table.id!r} has no modifier {modifier_id!r}")


def applies(item: Any, **state: Any) -> bool:
    """Whether a modifier's ``when`` conditions (``{moon: [full, half]}``) hold."""
    when = item.get("when") or {}
    return all(state.get(key) in (values if isinstance(values, list | tuple) else (values,))
               for key, values in when.items())


def record(game: Game, section: str, record_id: str) -> Any:
    """A record of an extra section (radars, equipment, entry-chits ...)."""
    return game.get(section, record_id)


# --- MP values ----------------------------------------------------------------------------

_MP_RE = re.compile(r"^\s*([0-9]+)\s*(\*?)\s*$")


@dataclass(frozen=True)
class MP:
    """A chart MP value: ``3*`` is base 3 with the asterisk (+1 on even turns) [7.2, 9.1]."""

    base: int
    asterisk: bool = False

    def __str__(self) -> str:
        return f"{self.base}{'*' if self.asterisk else ''}"


def parse_mp(value: Any, name: str = "mp") -> MP:
    """``"3*"`` -> MP(3, True); anything else that is not N or N* is BadInput."""
    match = _MP_RE.match(str(value))
    base = read_int(match[1]) if match else None
    if base is None or base < 1:
        raise BadInput(f"input {name}={quote(value)} is not an MP value (N or N*, e.g. 3 or "
                       "2*)")
    return MP(base, bool(match[2]))


def asterisk_turn(game: Game, turn: int) -> bool:
    """Whether ``turn`` is an asterisked turn of the track (even turns) [2.1.5, 7.2]."""
    parity = const(game, "asterisk-turn-parity")
    return (turn % 2 == 0) if parity == "even" else (turn % 2 == 1)


def mp_for_turn(game: Game, mp: MP, turn: int) -> int:
    """MP available on ``turn``: the base, +1 on asterisked turns for an N* value [7.2, 9.1]."""
    if turn < 1:
        raise BadInput(f"input turn={turn!r} is not a game turn (1 or more)")
    bonus = const(game, "asterisk-bonus-mp") if mp.asterisk and asterisk_turn(game, turn) else 0
    return mp.base + bonus


def sighting_number(aircraft_id: str) -> int:
    """The sighting number: the last digit of a 3-digit aircraft id [1.5, 2.2.1]."""
    text = str(aircraft_id)
    number = read_int(text[-1:]) if text[-1:] not in "+-" else None
    if number is None:
        raise BadInput(f"aircraft id {quote(aircraft_id)} does not end in a sighting number")
    return number


def check_sighting(game: Game, value: int, name: str = "sighting") -> int:
    """A sighting number 1-6 (constant sighting-numbers), else BadInput."""
    allowed = tuple(const(game, "sighting-numbers"))
    if value not in allowed:
        raise BadInput(f"input {name}={value!r} is not a sighting number "
                       f"({min(allowed)}-{max(allowed)})")
    return value


def unit(game: Game, unit_id: str, name: str = "unit") -> Any:
    """A unit type of the game, else BadInput listing the ids."""
    ids = [u.id for u in game.units]
    if unit_id not in ids:
        raise BadInput(f"input {name}={unit_id!r} is not a unit type of nightfighter "
                       f"({', '.join(ids)})")
    return game.get("units", unit_id)

def scaled(dice: int, how: str) -> int:
    """Apply a dice rule written in the data: ``half-round-up`` or ``half-round-down``."""
    if how == "half-round-up":
        return math.ceil(dice / 2)
    if how == "half-round-down":
        return dice // 2
    raise BadInput(f"unknown dice rule {how!r} in the data")


def matching_odds(count: int) -> dict[int, Fraction]:
    """Exact chance that k of ``count`` d6 show one given number (binomial, p = 1/6): flak hits
    [22.0], sighting matches [10.1, 15.1.1]."""
    p = weights("d6")[1]
    return {k: comb(count, k) * p**k * (1 - p) ** (count - k) for k in range(count + 1)}
