"""Axis & Allies in the engine's :class:`~warpress.engine.position.Position`.

Where everything is in a position:

* ``pieces``: one piece per unit, ``POWER.TYPE.N`` (``germany.infantry.3``), its ``side``
  the power that owns it, ``kind`` ``area`` and ``place`` the territory or sea zone it
  stands in (the board's point ids); a unit bought in ① and not yet placed waits in the
  pool ``purchased`` (kind ``pool``). Land units aboard a transport and fighters aboard a
  carrier stand in the carrier's sea zone with ``props.aboard`` naming it. A factory keeps
  ``props.factory``: ``original`` (there at the start of the game) or ``built``. What a
  unit did this turn is in its flags (``FLAGS``) and ``props`` (``used``: spaces moved;
  ``from``: the space it last entered the one it stands in from). A unit destroyed leaves
  the position; ``data.lost`` counts it.
* ``control``: every land territory -> the power that holds it (``neutral``).
* ``turn``: the round (1 = Spring 1942); ``side``: the power whose turn it is; ``phase``:
  the action going on (the sequence ids: ① ``weapons-development-purchase``, ②
  ``combat-movement``, ③ ``combat``, ④ ``non-combat-movement``, ⑤ ``placement``).
* ``data``: ``ipc`` (each power's IPC in hand), ``weapons`` (developed), ``lost``, the
  turn's bookkeeping (``developed``, ``captured``, ``placed``, ``assaults``), the battles
  still to fight and the one going on (``battle``), the id counters (``serial``), the
  events of this turn and the last.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace
from typing import Any

from warpress.engine.errors import BadInput
from warpress.engine.model import FrozenDict, Game
from warpress.engine.position import Piece, Position, freeze, thaw

from .board import NEUTRAL, alliance, capitals, income_value, is_sea, npl, points, start_control
from .common import const, domain, has_tag, unit_row, unit_types

SCENARIO = "standard"
PURCHASED = "purchased"
#: what a piece did this turn (cleared when a power's turn starts)
FLAGS = ("moved", "moved-nc", "fought", "amphibious", "unloaded", "bombarded", "retreated",
         "carried", "new", "rocket")
#: the props a turn sets (cleared with the flags)
TURN_PROPS = ("used", "from")
FIRST_PHASE = "weapons-development-purchase"


SEASONS = ("spring", "summer", "autumn", "winter")


def season(game: Game, round_number: int) -> str:
    """``Spring 1942`` for round 1 (4 rounds a year, constants start-season, start-year)."""
    first = SEASONS.index(str(const(game, "start-season")))
    k = first + round_number - 1
    year = int(const(game, "start-year")) + k // int(const(game, "rounds-per-year"))
    return f"{SEASONS[k % len(SEASONS)].capitalize()} {year}"


def powers(game: Game) -> tuple[str, ...]:
    """The five powers in turn order (constant turn-order, I1)."""
    return tuple(const(game, "turn-order"))


def piece_id(power: str, unit_type: str, n: int) -> str:
    return f"{power}.{unit_type}.{n}"


class Facts:
    """What the session asks of the game's data again and again, read once: each power's
    alliance, the neutral territories and the sea zones, the unit table, the routes, the
    units' worth and the territories' income values."""

    def __init__(self, game: Game):
        self.game = game
        self.alliance = {p: alliance(game, p) for p in powers(game)}
        self.enemy_pairs = frozenset((x, y) for x in self.alliance for y in self.alliance
                                     if self.alliance[x] != self.alliance[y])
        printed = start_control(game)
        self.neutrals = frozenset(t for t, who in printed.items() if who == NEUTRAL)
        self.seas = frozenset(p for p, point in points(game).items() if is_sea(point))
        self.rows = {t: unit_row(game, t) for t in unit_types(game)}
        self.domain = {t: domain(game, t) for t in self.rows}
        self.aircraft = frozenset(t for t in self.rows if has_tag(game, t, "aircraft"))
        # what the agents' score counts (rules/score.py): a unit's cost, attack and defence;
        # a territory's income value
        self.unit_worth = {t: sum(int(row[k] or 0) for k in ("cost", "attack", "defense"))
                           for t, row in self.rows.items()}
        self.income = {t: income_value(game, t) for t in points(game)}


_FACTS: list[Facts] = []


def facts(game: Game) -> Facts:
    """The game's :class:`Facts` (the last game asked is kept)."""
    if _FACTS and _FACTS[0].game is game:
        return _FACTS[0]
    made = Facts(game)
    _FACTS[:] = [made]
    return made


def enemies(game: Game, a: str | None, b: str | None) -> bool:
    """Powers of opposite alliances (neutral is nobody's enemy)."""
    return (a, b) in facts(game).enemy_pairs


# --- the set-up -------------------------------------------------------------------------


def start(game: Game, scenario: str) -> Position:
    """The position of the set-up: the starting forces of every power (setup records with
    a unit), the printed owners, the starting IPC; fighters in a sea zone aboard the
    carriers there (own first, then allied)."""
    serial: dict[str, int] = {}
    pieces: list[Piece] = []
    for record in game.setup:
        if record.scenario not in (None, scenario) or record.side is None:
            continue
        for place in record.place:
            if not place.unit:
                continue
            where = str(place.where)
            if where not in points(game):
                raise BadInput(f"setup {record.id}: {where!r} is not on the board")
            for _ in range(place.count or 1):
                key = f"{record.side}.{place.unit}"
                serial[key] = serial.get(key, 0) + 1
                props = {"factory": "original"} if place.unit == "factory" else {}
                pieces.append(Piece(piece_id(record.side, place.unit, serial[key]), place.unit,
                                    record.side, "area", where, props=FrozenDict(props)))
    order = powers(game)
    data = {
        "ipc": {p: int(const(game, f"starting-ipc-{p}")) for p in order},
        "weapons": {p: [] for p in order},
        "lost": {p: {} for p in order},
        "serial": serial,
        "developed": False, "captured": [], "placed": {}, "assaults": {},
        "battles": [], "battle": None, "events": [],
    }
    position = Position(game=game.id, scenario=scenario, turn=1, phase=FIRST_PHASE,
                        side=order[0], pieces=tuple(pieces),
                        control=FrozenDict(start_control(game)),
                        data=FrozenDict({k: freeze(v) for k, v in data.items()}))
    seas = {p.place for p in pieces if is_sea(points(game)[p.place])}
    return board_carriers(game, position, seas)


# --- reading ---------------------------------------------------------------------------


class Index:
    """A position's pieces by place, worked out once per position; the powers with units
    (factories aside) in each place."""

    def __init__(self, position: Position):
        self.by_place: dict[str, list[Piece]] = {}
        self.pool: list[Piece] = []
        self._sides: dict[str, frozenset[str]] = {}
        for p in position.pieces:
            if p.kind == "area":
                self.by_place.setdefault(p.place, []).append(p)
            elif p.kind == "pool":
                self.pool.append(p)

    def sides(self, place: str) -> frozenset[str]:
        """The powers with units (factories aside) in ``place``."""
        found = self._sides.get(place)
        if found is None:
            found = self._sides[place] = frozenset(
                str(p.side) for p in self.by_place.get(place, ()) if p.unit != "factory")
        return found


_INDEX: dict[int, tuple[Position, Index]] = {}


def index(position: Position) -> Index:
    held = _INDEX.get(id(position))
    if held is not None and held[0] is position:
        return held[1]
    if len(_INDEX) > 64:
        _INDEX.clear()
    made = Index(position)
    _INDEX[id(position)] = (position, made)
    return made


def at(position: Position, place: str) -> list[Piece]:
    """The pieces in one territory or sea zone."""
    return index(position).by_place.get(place, [])


def occupied_places(position: Position) -> list[str]:
    return list(index(position).by_place)


def purchased(position: Position, power: str) -> list[Piece]:
    """The units ``power`` bought this turn and has not placed yet."""
    return [p for p in index(position).pool if p.side == power and p.place == PURCHASED]


def is_cargo(piece: Piece) -> bool:
    """Aboard a transport or a carrier."""
    return piece.props.get("aboard") is not None


def enemy_units(game: Game, position: Position, place: str, power: str) -> list[Piece]:
    """Units of the other alliance in ``place`` (factories are no units that fight)."""
    return [p for p in at(position, place) if p.unit != "factory" and enemies(game, power, p.side)]


def has_enemy(game: Game, position: Position, place: str, power: str) -> bool:
    """Units of the other alliance in ``place``."""
    pairs = facts(game).enemy_pairs
    return any((power, s) in pairs for s in index(position).sides(place))


def friendly_land(game: Game, position: Position, territory: str, power: str) -> bool:
    """Held by ``power`` or an ally."""
    owner = position.control.get(territory)
    return owner is not None and owner != NEUTRAL and not enemies(game, power, owner)


def enemy_land(game: Game, position: Position, territory: str, power: str) -> bool:
    return enemies(game, power, position.control.get(territory))


def ipc(position: Position, power: str) -> int:
    return int(position.data["ipc"][power])


def weapons(position: Position, power: str) -> frozenset[str]:
    return frozenset(position.data["weapons"][power])


def captured(position: Position) -> tuple[str, ...]:
    return tuple(position.data.get("captured") or ())


def factory_at(position: Position, territory: str) -> Piece | None:
    return next((p for p in at(position, territory) if p.unit == "factory"), None)


def factories(position: Position) -> dict[str, str]:
    """Territory -> original | built, for every factory on the board (⑤)."""
    return {p.place: str(p.props.get("factory", "built")) for p in position.pieces
            if p.unit == "factory" and p.kind == "area"}


def move_of(game: Game, position: Position, piece: Piece) -> int:
    """A unit's movement this turn: the unit table's, 2 more for aircraft with Long-Range
    Aircraft (constant long-range-aircraft-bonus)."""
    base = stat(game, piece.unit, "move")
    if has_tag(game, piece.unit, "aircraft") and "long-range-aircraft" in weapons(
            position, str(piece.side)):
        base += int(const(game, "long-range-aircraft-bonus"))
    return base


def stat(game: Game, unit_type: str, name: str) -> int:
    """A unit type's value in the unit table (0 for '-'), read once per game."""
    return int(facts(game).rows[unit_type][name] or 0)


def left(game: Game, position: Position, piece: Piece) -> int:
    """Movement a unit has left this turn."""
    return move_of(game, position, piece) - int(piece.props.get("used", 0))


def cargo_of(position: Position, holder: Piece) -> list[Piece]:
    """The units aboard a transport or carrier."""
    return [p for p in at(position, holder.place) if p.props.get("aboard") == holder.id]


def slots(game: Game, unit_type: str) -> int:
    """Room a land unit takes on a transport (constant transport-slots)."""
    table = dict(const(game, "transport-slots"))
    if unit_type not in table:
        raise BadInput(f"{unit_type} is not carried by transports")
    return int(table[unit_type])


def room_on(game: Game, position: Position, holder: Piece) -> int:
    """Free room aboard a transport (slots) or a carrier (fighters)."""
    aboard = cargo_of(position, holder)
    if holder.unit == "carrier":
        return int(const(game, "carrier-fighter-capacity")) - len(aboard)
    return int(const(game, "transport-capacity")) - sum(slots(game, p.unit) for p in aboard)


def capital_of(game: Game, power: str) -> str | None:
    return next((t for t, owner in capitals(game).items() if owner == power), None)


def npl_of(game: Game, position: Position, power: str) -> int:
    return npl(game, power, position.control)


# --- changing ----------------------------------------------------------------------------


def with_data(position: Position, **values: Any) -> Position:
    return position.with_data(**values)


def evolve_piece(piece: Piece, *, place: str | None = None, kind: str | None = None,
                 side: str | None = None, add: Iterable[str] = (), drop: Iterable[str] = (),
                 props: Mapping[str, Any] | None = None) -> Piece:
    """A piece moved, flagged or with props set (a None prop is removed)."""
    new_props = dict(piece.props)
    for key, value in (props or {}).items():
        if value is None:
            new_props.pop(key, None)
        else:
            new_props[key] = value
    return replace(piece, kind=kind or piece.kind,
                   place=place if place is not None else piece.place, side=side or piece.side,
                   flags=(piece.flags | frozenset(add)) - frozenset(drop),
                   props=FrozenDict(new_props))


def remove_pieces(position: Position, gone: Iterable[Piece]) -> Position:
    """Units destroyed: out of the position, counted in ``data.lost``."""
    ids = {p.id for p in gone}
    if not ids:
        return position
    lost = thaw(position.data["lost"])
    for p in position.pieces:
        if p.id in ids:
            counts = lost.setdefault(str(p.side), {})
            counts[p.unit] = counts.get(p.unit, 0) + 1
    kept = tuple(p for p in position.pieces if p.id not in ids)
    return replace(position, pieces=kept).with_data(lost=lost)


def add_pieces(position: Position, power: str, unit_type: str, count: int) -> Position:
    """``count`` new units of ``power`` in its pool of purchases."""
    serial = dict(thaw(position.data["serial"]))
    key = f"{power}.{unit_type}"
    made = []
    for _ in range(count):
        serial[key] = serial.get(key, 0) + 1
        props = {"factory": "built"} if unit_type == "factory" else {}
        made.append(Piece(piece_id(power, unit_type, serial[key]), unit_type, power, "pool",
                          PURCHASED, props=FrozenDict(props)))
    return replace(position, pieces=position.pieces + tuple(made)).with_data(serial=serial)


def board_carriers(game: Game, position: Position, zones: Iterable[str]) -> Position:
    """Fighters in each sea zone go aboard the carriers there: those already aboard one of
    them stay, the others take the room left, on their own power's carriers first, then an
    ally's (⑤ L113 aside: placement puts no fighter aboard, and a fighter placed never
    stands in a sea zone). Fighters with no room stay unboarded (lost at the end of the
    non-combat movement, ④)."""
    changed: list[Piece] = []
    capacity = int(const(game, "carrier-fighter-capacity"))
    for zone in sorted(set(zones)):
        here = at(position, zone)
        carriers = [p for p in here if p.unit == "carrier"]
        fighters = [p for p in here if p.unit in const(game, "carrier-landing-units")]
        load = {c.id: 0 for c in carriers}
        aboard = {}
        for f in fighters:
            holder = f.props.get("aboard")
            if holder in load and not enemies(game, f.side, _side_of(carriers, holder)):
                load[holder] += 1
                aboard[f.id] = holder
        for f in fighters:
            if f.id in aboard:
                continue
            choice = next((c for c in sorted(carriers, key=lambda c: (c.side != f.side, c.id))
                           if load[c.id] < capacity and not enemies(game, f.side, c.side)), None)
            holder = choice.id if choice else None
            if holder:
                load[holder] += 1
            if f.props.get("aboard") != holder:
                changed.append(evolve_piece(f, props={"aboard": holder}))
        if not carriers:
            changed += [evolve_piece(f, props={"aboard": None}) for f in fighters
                        if f.props.get("aboard") is not None and f not in changed]
    return position.with_pieces(changed)


def _side_of(carriers: list[Piece], holder: str) -> str | None:
    return next((c.side for c in carriers if c.id == holder), None)


def fighting(game: Game, piece: Piece, power: str) -> bool:
    """A unit that takes part in a battle of ``power``'s alliance side: not a factory, not a
    land unit aboard a transport, not an ally's fighter carried on ``power``'s carrier."""
    if piece.unit == "factory":
        return False
    if piece.props.get("aboard") is None:
        return True
    return domain(game, piece.unit) == "air" and piece.side == power
