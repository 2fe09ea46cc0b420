"""Shared pieces of the Nimitz engine: data look-ups, attack values, input parsing.

Every number comes from the game's YAML (``games/nimitz``): constants by id,
tables by id, unit stats, the orders and campaigns sections. The die is one d10
whose face 0 reads 10 (2.4). Rule numbers are the Japanese rulebook's own;
"PE" is its 1942 play example.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from warpress.engine.errors import BadInput
from warpress.engine.graph import Graph
from warpress.engine.inputs import choices, likely_first, quote, read_int
from warpress.engine.model import Game, PointMap, Record, Unit
from warpress.engine.tables import lookup

DIE = "d10"
SIDES = ("us", "japan")
STATES = ("full", "damaged")
#: Attack values a unit prints (units.yaml stats); superior values beside them.
STATS = ("air", "anti_ship", "anti_ground", "gunnery", "aa", "torpedo", "asw", "ground")
SUPERIOR = {"air": "air_sup", "aa": "aa_sup"}


def const(game: Game, constant_id: str) -> Any:
    """The value of one constant of constants.yaml."""
    return game.constant(constant_id)


def table_row(game: Game, table_id: str, **keys: Any) -> dict[str, Any]:
    """The result fields of one row of a data table."""
    return lookup(game.table(table_id), **keys)


def extra(game: Game, section: str, record_id: str) -> Record:
    """A record of an extra section (orders, campaigns)."""
    return game.get(section, record_id)


def unit(game: Game, unit_id: str, name: str = "unit") -> Unit:
    """A unit by id; an id the game does not have is bad input listing the ids."""
    for item in game.units:
        if item.id == unit_id:
            return item
    ids = choices(likely_first(unit_id, [u.id for u in game.units]))
    raise BadInput(f"input {name}={quote(unit_id)} is not a Nimitz unit (units: {ids})")


def stat(item: Unit, key: str) -> Any:
    """One stat of a unit (None when the counter has no such value)."""
    return item.stats.get(key)


def is_carrier(item: Unit) -> bool:
    """CV, CVL and CVE are carriers (2.6.1)."""
    return item.type in ("CV", "CVL", "CVE")


def is_escort(item: Unit) -> bool:
    """BB, CA/CL and DD are escorts (2.6.1, 10.12.1)."""
    return item.type in ("BB", "CA", "CL", "DD")


def is_ship(item: Unit) -> bool:
    """Surface ships and submarines are ships (2.6)."""
    return is_carrier(item) or is_escort(item) or item.type == "SS"


def is_aircraft(item: Unit) -> bool:
    """Fighters and bombers (2.7.2)."""
    return item.type in ("fighter", "bomber")


def is_ground(item: Unit) -> bool:
    """Infantry and battalions are ground units (2.8)."""
    return item.type in ("infantry", "battalion")


def is_land_air(item: Unit) -> bool:
    """Land-based aircraft: every aircraft that is not carrier-based (2.7.1)."""
    return is_aircraft(item) and "carrier-based" not in item.tags


# --------------------------------------------------------------------------- map


def campaign_map(game: Game) -> PointMap:
    """The campaign map (2.1)."""
    return game.record("point_maps", "campaign", PointMap)


_GRAPHS: dict[int, tuple[PointMap, Graph]] = {}


def graph(game: Game) -> Graph:
    """The campaign map as a graph of points joined by routes (cached per map)."""
    point_map = campaign_map(game)
    hit = _GRAPHS.get(id(point_map))
    if hit is not None and hit[0] is point_map:
        return hit[1]
    made = Graph([p.id for p in point_map.points], [(r.a, r.b) for r in point_map.routes])
    _GRAPHS[id(point_map)] = (point_map, made)
    return made


def check_point(game: Game, point: str, name: str = "point") -> str:
    """Return ``point`` if it is on the campaign map, else BadInput naming the input."""
    ids = [p.id for p in campaign_map(game).points]
    if point not in ids:
        raise BadInput(f"input {name}={point!r} is not a point on the map "
                       f"(points: {', '.join(ids)})")
    return point


def check_points(game: Game, points: list[str] | tuple[str, ...], name: str) -> frozenset[str]:
    """Several points, each checked with :func:`check_point`."""
    return frozenset(check_point(game, p, name) for p in points)


def point_record(game: Game, point: str):
    """The map record of a point (capacity, flags)."""
    for p in campaign_map(game).points:
        if p.id == point:
            return p
    raise BadInput(f"{point!r} is not a point on the map")


# --------------------------------------------------------------------------- values


@dataclass(frozen=True)
class AttackValue:
    """An attack value as printed: normal, and superior (0 = none, 10.7 examples)."""

    normal: int
    superior: int = 0

    def __str__(self) -> str:
        return f"{self.normal}/{self.superior}" if self.superior else str(self.normal)

    def plus(self, normal: int, superior: int = 0) -> AttackValue:
        """This value with a bonus marker's "+N (superior +M)" added (10.7)."""
        return AttackValue(self.normal + normal, self.superior + superior)


def parse_value(text: Any, name: str = "value", limit: int = 20) -> AttackValue:
    """``"4"`` or ``"4/2"`` (normal/superior) -> AttackValue; anything else is bad input."""
    raw = str(text).strip()
    parts = raw.split("/")
    allowed = f"N or N/M (normal/superior), whole numbers 0-{limit}, superior <= normal"
    numbers = [read_int(p) for p in parts]
    if len(parts) not in (1, 2) or any(n is None or n < 0 for n in numbers):
        raise BadInput(f"input {name}={quote(raw)} is not allowed ({allowed})")
    normal = numbers[0]
    superior = numbers[1] if len(parts) == 2 else 0
    if normal > limit or superior > normal:
        raise BadInput(f"input {name}={quote(raw)} is not allowed ({allowed})")
    return AttackValue(normal, superior)


def unit_value(item: Unit, key: str) -> AttackValue | None:
    """A unit's printed value for one attack kind, or None when it has none."""
    normal = stat(item, key)
    if normal is None:
        return None
    sup_key = SUPERIOR.get(key)
    superior = stat(item, sup_key) if sup_key else None
    return AttackValue(int(normal), int(superior or 0))


@dataclass(frozen=True)
class Piece:
    """One unit (or an airfield) that can take hits: ``NAME:COST:full|damaged``.

    An airfield is written ``NAME:COST:N`` with N its capacity (10.18.2).
    """

    name: str
    cost: int
    state: str = "full"  # full | damaged | destroyed
    capacity: int | None = None
    hits: int = 0

    @property
    def is_airfield(self) -> bool:
        """An airfield takes hits as lost capacity (10.18.2)."""
        return self.capacity is not None


def parse_piece(game: Game, text: str, name: str = "units") -> Piece:
    """One ``NAME:COST:STATE`` item; COST may be left out for a unit id of the game."""
    allowed = ("NAME:COST:full|damaged (or NAME:COST:N for an airfield of capacity N; "
               "COST may be left out when NAME is a unit id)")
    parts = [p.strip() for p in text.split(":")]
    if len(parts) == 2:
        parts = [parts[0], "", parts[1]]
    if len(parts) != 3 or not parts[0]:
        raise BadInput(f"input {name}={text!r} is not allowed ({allowed})")
    label, cost_text, state = parts
    if cost_text == "":
        cost = piece_cost(game, label, name)
    elif (number := read_int(cost_text)) is not None and number >= 0:
        cost = number
    else:
        raise BadInput(f"input {name}={quote(text)}: cost {quote(cost_text)} is not a whole "
                       f"number ({allowed})")
    if (capacity := read_int(state)) is not None and capacity >= 0:
        return Piece(label, cost, "full" if capacity > 0 else "destroyed", capacity)
    if state.lower() not in STATES:
        raise BadInput(f"input {name}={text!r}: state {state!r} is not allowed ({allowed})")
    return Piece(label, cost, state.lower())


def piece_cost(game: Game, label: str, name: str) -> int:
    """Hit-allocation cost of a unit id or of "airfield" (2.6.3, 10.18.2)."""
    if label == "airfield":
        return int(const(game, "airfield-hit-cost"))
    item = unit(game, label, name)
    if is_carrier(item):
        return int(const(game, "carrier-hit-cost"))
    return int(stat(item, "cost_hit"))
