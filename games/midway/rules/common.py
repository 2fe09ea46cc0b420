"""Shared helpers of the Midway engine: the registered engine, data access, the hex map.

Every number of the rules is read from the game's YAML through these helpers
(``const``, ``unit_stat``, ``track_values``); nothing here writes a rule's number.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from warpress.engine.dice import faces
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.hexgrid import HexGrid
from warpress.engine.model import Display, Game, Record, Unit

if TYPE_CHECKING:
    from warpress.engine.hexgrid import HexGrid


SIDES = ("japan", "us")
DIE = "d6"

_GRIDS: dict[int, tuple[Game, HexGrid]] = {}


def const(game: Game, constant_id: str) -> Any:
    """A constant of the rules, by id (the one place its number lives)."""
    return game.constant(constant_id)


def die_max(die: str = DIE) -> int:
    """The highest result ``die`` can show."""
    return max(faces(die))


def die_min(die: str = DIE) -> int:
    """The lowest result ``die`` can show."""
    return min(faces(die))


def clamp(value: int, lo: int, hi: int) -> int:
    """``value`` limited to ``lo..hi``."""
    return max(lo, min(hi, value))


def hit_number(value: int, die: str = DIE) -> int:
    """A "roll at or below" number limited to what the die can show (0: nothing hits)."""
    return clamp(value, 0, die_max(die))


def other(side: str) -> str:
    """The enemy of ``side``."""
    return SIDES[1 - SIDES.index(side)]


# --------------------------------------------------------------------------- the hex map


def grid(game: Game) -> HexGrid:
    """The operations area as a :class:`HexGrid` (built once per loaded game)."""
    hit = _GRIDS.get(id(game))
    if hit is not None and hit[0] is game:
        return hit[1]

    hexmap = game.hex_map()
    built = HexGrid(hexmap.columns.all_labels(), hexmap.rows.all_labels(), hexmap.hex_id,
                    hexmap.orientation, hexmap.offset)
    _GRIDS[id(game)] = (game, built)
    return built


def check_hex(game: Game, hex_id: str, name: str = "hex") -> str:
    """``hex_id`` if it is on the map, else BadInput naming it and the map's extent."""
    area = grid(game)
    if hex_id not in area:
        raise BadInput(f"{name} {hex_id!r} is not on the map (columns {area.columns[0]}-"
                       f"{area.columns[-1]}, rows {area.rows[0]}-{area.rows[-1]})")
    return hex_id


def midway_hex(game: Game) -> str:
    """The hex of Midway Island (constant ``midway-hex``)."""
    return str(const(game, "midway-hex"))


def northing(game: Game, hex_id: str) -> int:
    """Twice the height of a hex centre on the map (smaller is further north), exact.

    Rows run north (row 1) to south; a flat-topped hex centre's height is
    proportional to ``r + q/2`` in cube coordinates.
    """
    cube = grid(game).cube(hex_id)
    return 2 * cube.r + cube.q


def distance(game: Game, a: str, b: str) -> int:
    """Hex distance: the start hex is not counted, the target hex is (7.2)."""
    return grid(game).distance(check_hex(game, a), check_hex(game, b))


# --------------------------------------------------------------------------- units and records


def unit(game: Game, unit_id: str) -> Unit:
    """An aircraft or fleet unit by id; an id the game lacks is BadInput listing the ids."""
    for item in game.units:
        if item.id == unit_id:
            return item
    ids = ", ".join(u.id for u in game.units if u.type != "fleet")
    raise BadInput(f"unit type {unit_id!r} is not in midway (aircraft: {ids})")


def unit_stat(game: Game, unit_id: str, stat: str, default: Any = 0) -> Any:
    """A printed value of an aircraft type (``air``, ``attack``, ``move``, ``dive_bomber``)."""
    value = unit(game, unit_id).stats.get(stat, default)
    return default if value is None else value


def is_fighter(game: Game, unit_id: str) -> bool:
    """A unit with an air-combat strength is a fighter (2.2(3))."""
    return unit(game, unit_id).type == "fighter"


def is_attack(game: Game, unit_id: str) -> bool:
    """A unit with an attack strength is an attack aircraft (2.2(3))."""
    return "attack-aircraft" in unit(game, unit_id).tags


def is_dive_bomber(game: Game, unit_id: str) -> bool:
    """An attack aircraft with the bomb icon (2.2(3))."""
    return bool(unit_stat(game, unit_id, "dive_bomber", False)) and is_attack(game, unit_id)


def is_land_based(game: Game, unit_id: str) -> bool:
    """A US land-based unit of Midway (never lands on a carrier, 9.5(3))."""
    return "land-based" in unit(game, unit_id).tags


def unit_side(game: Game, unit_id: str) -> str:
    """The side of an aircraft or fleet type."""
    return str(unit(game, unit_id).side)


def carriers(game: Game, side: str | None = None) -> tuple[Record, ...]:
    """The carriers (extra section ``carriers``), of one side or all."""
    rows = game.section("carriers")
    return tuple(c for c in rows if side is None or c.get("side") == side)


def carrier(game: Game, carrier_id: str) -> Record:
    """A carrier record by id; an unknown id is BadInput."""
    for item in carriers(game):
        if item.id == carrier_id:
            return item
    ids = ", ".join(c.id for c in carriers(game))
    raise BadInput(f"carrier {carrier_id!r} is not in midway (carriers: {ids})")


def division_of(game: Game, carrier_id: str) -> str:
    """The division or task force (display id) a carrier belongs to."""
    return str(carrier(game, carrier_id).get("division"))


def division_carriers(game: Game, division: str) -> tuple[str, ...]:
    """The carriers of one division or task force."""
    return tuple(c.id for c in carriers(game) if c.get("division") == division)


def divisions(game: Game, side: str) -> tuple[str, ...]:
    """The carrier divisions / task forces of a side, in data order."""
    seen: list[str] = []
    for item in carriers(game, side):
        if item.get("division") not in seen:
            seen.append(str(item.get("division")))
    return tuple(seen)


def base_display(game: Game) -> Display:
    """The display of Midway base: the display whose boxes hold ``midway``."""
    for display in game.displays:
        if any(b.holds == "midway" for b in display.boxes):
            return display
    raise BadInput("midway has no base display")


def display(game: Game, display_id: str) -> Display:
    """A display (division, task force, base, card space) by id."""
    return game.record("displays", display_id, Display)


def air_displays(game: Game) -> tuple[Display, ...]:
    """The carrier-area displays: every division, task force and the base."""
    return tuple(d for d in game.displays if any(b.kind == "cap" for b in d.boxes))


def track_values(game: Game, track_id: str) -> tuple[int, ...]:
    """The numeric boxes of a track (X, the box below 1, left out)."""
    track = game.get("tracks", track_id)
    return tuple(v for v in track.values if isinstance(v, int) and not isinstance(v, bool))


def track_start(game: Game, track_id: str) -> int:
    """The start value of a track (3.3)."""
    return int(game.get("tracks", track_id).start)


def violation(rule: str, message: str) -> RuleViolation:
    """A RuleViolation naming ``rule``."""
    return RuleViolation(rule, message)


def base_damage(game: Game, garrison: int, hits_this_turn: int, hits: int) -> dict:
    """Base hits applied this time (9.6(2)(3)): at most 2 per turn, never below Garrison 2.

    Returns applied, ignored, the Garrison after and whether the base function is
    destroyed (``base-function-destroyed-hits`` hits in total, counted from the
    Garrison's start value since only base hits move it before the landing).
    """
    room_turn = max(0, const(game, "base-hits-per-turn") - hits_this_turn)
    room_floor = max(0, garrison - const(game, "garrison-air-attack-floor"))
    applied = min(hits, room_turn, room_floor)
    after = garrison - applied
    total = track_start(game, "garrison") - after
    return {"applied": applied, "ignored": hits - applied, "garrison": after,
            "base_destroyed": total >= const(game, "base-function-destroyed-hits")}
