"""Battle procedures (10.0-10.22): attacks, hit allocation, AA rows, aircraft.

Each procedure is a small function over frozen values; the numbers (bonus
marker values, capacities, the attack and destination tables) are read from
the game's data.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from warpress.engine.dice import Dice, weights
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game, Unit

from .common import (
    DIE,
    AttackValue,
    Piece,
    const,
    is_carrier,
    is_escort,
    stat,
    table_row,
    unit_value,
)

# --------------------------------------------------------------------------- attacks

#: Japanese bonus markers that change attack values (10.7): the stats they touch and
#: the constants holding "+N" and "superior +M" (None: the superior value is unchanged).
VALUE_MARKERS: dict[str, tuple[frozenset[str], str, str | None]] = {
    "air-superiority": (frozenset({"air", "anti_ship", "anti_ground"}),
                        "air-superiority-bonus", "air-superiority-superior-bonus"),
    "attack-plan": (frozenset({"air", "anti_ship", "anti_ground", "gunnery", "aa", "torpedo",
                               "asw", "ground"}), "attack-plan-bonus", None),
    "infantry-combat": (frozenset({"ground"}),
                        "infantry-combat-bonus", "infantry-combat-superior-bonus"),
    "surface-fleet-success": (frozenset({"gunnery", "aa"}),
                              "surface-fleet-bonus", "surface-fleet-superior-bonus"),
    "submarine-warfare": (frozenset({"torpedo", "asw"}),
                          "submarine-warfare-bonus", "submarine-warfare-superior-bonus"),
}
#: Markers that change an attack without changing its value.
HIT_MARKERS = ("kamikaze",)


def marked_value(game: Game, value: AttackValue, stat_kind: str,
                 markers: Iterable[str]) -> AttackValue:
    """A Japanese value with the drawn bonus markers added (10.7: 4 -> 7/2, 4/2 -> 7/4)."""
    for marker in markers:
        if marker in HIT_MARKERS:
            continue
        if marker not in VALUE_MARKERS:
            allowed = ", ".join((*VALUE_MARKERS, *HIT_MARKERS))
            raise BadInput(f"input markers={marker!r} does not change attacks (allowed: {allowed})")
        stats, plus, plus_sup = VALUE_MARKERS[marker]
        if stat_kind in stats:
            sup = int(const(game, plus_sup)) if plus_sup else 0
            value = value.plus(int(const(game, plus)), sup)
    return value


def kamikaze_hits(game: Game, stat_kind: str, markers: Iterable[str],
                  campaign: str | None) -> int:
    """Extra hits of the kamikaze marker on one bomber's anti-ship attack (10.7)."""
    if "kamikaze" not in markers or stat_kind != "anti_ship":
        return 0
    if campaign is None:
        raise BadInput("input markers=kamikaze needs campaign=1942|1943|1944|1945 "
                       "(no effect in 1942 and 1943)")
    if campaign in const(game, "kamikaze-void-campaigns"):
        return 0
    return int(const(game, "kamikaze-extra-hits"))


_HITS: dict[tuple[int, int, int, int], tuple[object, int]] = {}


def attack_hits(game: Game, value: AttackValue, roll: int) -> int:
    """Hits of one attack die: <= normal 1 hit, <= superior 2 hits (table attack)."""
    table = game.table("attack")
    key = (id(table), value.normal, value.superior, roll)
    hit = _HITS.get(key)
    if hit is not None and hit[0] is table:
        return hit[1]
    row = table_row(game, "attack", value=value.normal, superior=value.superior, roll=roll)
    _HITS[key] = (table, int(row["hits"]))
    return _HITS[key][1]


def attack(game: Game, value: AttackValue, dice: Dice, name: str = "roll",
           extra_hits: int = 0) -> int:
    """Roll one attack and return its hits (plus any marker's extra hits)."""
    return attack_hits(game, value, dice.roll(DIE, name)) + extra_hits


def hit_weights(game: Game, value: AttackValue, extra_hits: int = 0) -> dict[int, Fraction]:
    """The exact distribution of one attack's hits."""
    out: dict[int, Fraction] = {}
    for face, p in weights(DIE).items():
        hits = attack_hits(game, value, face) + extra_hits
        out[hits] = out.get(hits, Fraction(0)) + p
    return out


def convolve(a: dict[int, Fraction], b: dict[int, Fraction]) -> dict[int, Fraction]:
    """Distribution of the sum of two independent hit counts."""
    out: dict[int, Fraction] = {}
    for x, p in a.items():
        for y, q in b.items():
            out[x + y] = out.get(x + y, Fraction(0)) + p * q
    return out


def total_hit_weights(game: Game, values: Sequence[AttackValue]) -> dict[int, Fraction]:
    """Exact distribution of the total hits of several attacks (dynamic programming)."""
    dist = {0: Fraction(1)}
    for value in values:
        dist = convolve(dist, hit_weights(game, value))
    return dist


# --------------------------------------------------------------------------- hits


def _priority(piece: Piece, index: int) -> tuple[int, int, int]:
    """Lowest cost first; at equal cost a damaged unit before a full one (10.10.2)."""
    return (piece.cost, 0 if piece.state == "damaged" else 1, index)


def _alive(piece: Piece) -> bool:
    if piece.is_airfield:
        return (piece.capacity or 0) > 0
    return piece.state != "destroyed"


def hit_piece(game: Game, piece: Piece) -> Piece:
    """One hit: full -> damaged -> destroyed (2.5.2); an airfield loses capacity (10.18.2)."""
    if piece.is_airfield:
        loss = int(const(game, "airfield-capacity-loss-per-hit"))
        floor = int(const(game, "airfield-capacity-minimum"))
        capacity = max(floor, (piece.capacity or 0) - loss)
        state = "destroyed" if capacity <= floor else "damaged"
        return replace(piece, capacity=capacity, state=state, hits=piece.hits + 1)
    state = "damaged" if piece.state == "full" else "destroyed"
    return replace(piece, state=state, hits=piece.hits + 1)


@dataclass(frozen=True)
class Allocation:
    """Where hits went: the pieces after, hits with no target, whether ties were open."""

    pieces: tuple[Piece, ...]
    unused: int
    player_choice: bool


def allocate_hits(game: Game, pieces: Sequence[Piece], hits: int) -> Allocation:
    """Apply ``hits`` one at a time to the lowest-cost target, damaged first (10.10.2).

    Remaining ties are the player's choice (1.3): the order given decides here and
    ``player_choice`` says a tie existed. No unit takes more hits than it can;
    hits left with no target are lost (10.11 example).
    """
    if hits < 0:
        raise BadInput(f"input hits={hits!r} is not allowed (0 or more)")
    current = list(pieces)
    choice = False
    for spent in range(hits):
        ranked = sorted((_priority(p, i), i) for i, p in enumerate(current) if _alive(p))
        if not ranked:
            return Allocation(tuple(current), hits - spent, choice)
        best = ranked[0]
        if len(ranked) > 1 and ranked[1][0][:2] == best[0][:2]:
            choice = True
        current[best[1]] = hit_piece(game, current[best[1]])
    return Allocation(tuple(current), 0, choice)


# --------------------------------------------------------------------------- AA rows


def aa_value(item: Unit) -> AttackValue:
    """A ship's AA value (0 when it has none)."""
    value = unit_value(item, "aa")
    return value if value is not None else AttackValue(0, 0)


def aa_rows(game: Game, ships: Sequence[Unit], aircraft: int) -> tuple[tuple[Unit, ...], ...]:
    """The ships of one side that fire AA, escort row first, then carrier row (10.12.1).

    In each row each aircraft takes at most one shot, so at most ``aircraft`` ships
    fire; with more ships than aircraft the highest AA values fire. Submarines,
    ground units and airfields have no AA (2.6.1, 10.12.2).
    """
    if aircraft < 0:
        raise BadInput(f"input aircraft={aircraft!r} is not allowed (0 or more)")
    per_aircraft = int(const(game, "aa-shots-per-aircraft-per-row"))
    rows = []
    for member in (is_escort, is_carrier):
        row = [s for s in ships if member(s) and stat(s, "aa") is not None]
        row.sort(key=lambda s: (-aa_value(s).normal, -aa_value(s).superior))
        rows.append(tuple(row[: aircraft * per_aircraft]))
    return tuple(rows)


# --------------------------------------------------------------------------- aircraft


def air_areas(game: Game) -> tuple[str, ...]:
    """Battle areas in "position number" order (the 10.9.1 table's position field)."""
    seen: dict[str, int] = {}
    for face in weights(DIE):
        row = table_row(game, "japanese-air", roll=face)
        seen[row["area"]] = int(row["position"])
    return tuple(sorted(seen, key=seen.__getitem__))


def air_destination(game: Game, roll: int, valid: Iterable[str]) -> tuple[str, str | None]:
    """Rolled area and the area the group goes to (10.9.1).

    With no valid target in the rolled area, the group tries the next higher
    position number, cyclically (E12); with none at all it stays (None).
    """
    rolled = table_row(game, "japanese-air", roll=roll)["area"]
    areas = air_areas(game)
    valid = set(valid)
    unknown = valid - set(areas)
    if unknown:
        raise BadInput(f"input valid={sorted(unknown)[0]!r} is not a battle area "
                       f"(areas: {', '.join(areas)})")
    start = areas.index(rolled)
    for step in range(len(areas)):
        area = areas[(start + step) % len(areas)]
        if area in valid:
            return rolled, area
    return rolled, None


@dataclass(frozen=True)
class AirView:
    """What Japanese aircraft can see when they pick a destination (10.9.2, 10.9.3)."""

    us_ships: frozenset[str] = frozenset()  # areas with US ships other than submarines
    us_land_air: bool = False  # US land aircraft on the island
    us_ground: bool = False  # US ground units on the island
    japanese_ground_or_air: bool = False  # Japanese ground units or land aircraft there
    aircraft: frozenset[str] = frozenset()  # areas with Japanese or US aircraft


def bomber_areas(view: AirView) -> frozenset[str]:
    """Areas a Japanese bomber group may go to (10.9.2)."""
    areas = set(view.us_ships)
    if view.us_land_air or (view.us_ground and view.japanese_ground_or_air):
        areas.add("island")
    return frozenset(areas)


def fighter_areas(view: AirView) -> frozenset[str]:
    """Areas a Japanese fighter group may go to: where aircraft are (10.9.3)."""
    return frozenset(view.aircraft)


def forced_roll(game: Game) -> int:
    """The destination roll carrier attack, first strike and kamikaze force (10.7, E2)."""
    return int(const(game, "forced-destination-roll"))


@dataclass(frozen=True)
class Plane:
    """A returning aircraft: name, cost and state."""

    name: str
    cost: int
    state: str = "full"


def _removal_order(planes: Sequence[Plane]) -> list[int]:
    """Damaged first, then lowest cost; input order breaks ties (10.20.3, 10.21.1)."""
    return sorted(range(len(planes)),
                  key=lambda i: (planes[i].state != "damaged", planes[i].cost, i))


@dataclass(frozen=True)
class Landing:
    """Aircraft that land and those removed; ``player_choice`` for the US (10.20.4, 10.21.2)."""

    landed: tuple[Plane, ...]
    removed: tuple[Plane, ...]
    player_choice: bool


def _keep(planes: Sequence[Plane], room: int, side: str) -> Landing:
    """The planes that land within ``room``; the US player chooses which are removed only
    when some land and some do not (with no room every one is removed: no choice)."""
    excess = max(0, len(planes) - room)
    drop = set(_removal_order(planes)[:excess])
    landed = tuple(p for i, p in enumerate(planes) if i not in drop)
    removed = tuple(p for i, p in enumerate(planes) if i in drop)
    return Landing(landed, removed, side == "us" and bool(removed) and bool(landed))


def carrier_return(game: Game, side: str, complement: int, damaged: bool,
                   planes: Sequence[Plane]) -> Landing:
    """Carrier aircraft back on their carrier (10.20.2-10.20.4).

    A carrier takes back at most the number it carried at the start of the battle;
    a damaged carrier takes back none. Japan removes the excess damaged first,
    then lowest cost; the US player chooses (the same order is the default).
    """
    if any(p.state == "destroyed" for p in planes):
        raise RuleViolation("10.11", "a destroyed aircraft does not return")
    room = 0 if damaged and const(game, "damaged-carrier-lands-none") else complement
    return _keep(planes, room, side)


def airfield_landing(game: Game, side: str, capacity: int, planes: Sequence[Plane]) -> Landing:
    """Land aircraft beyond the airfield's capacity are removed (10.21)."""
    if capacity < int(const(game, "airfield-capacity-minimum")):
        raise BadInput(f"input capacity={capacity!r} is below the lowest capacity")
    return _keep(planes, capacity, side)


# --------------------------------------------------------------------------- set-up


def airfield_capacity(land_aircraft: int) -> int:
    """An airfield starts with capacity = its side's land aircraft (10.1.2, 10.2)."""
    return land_aircraft


def complement(game: Game, carrier_id: str, campaign: str = "1942") -> dict[str, int]:
    """A carrier's aircraft from the campaign sheet, by type (10.1.3, 10.2.5)."""
    out: dict[str, int] = {}
    for item in game.setup:
        if item.scenario != campaign:
            continue
        for place in item.place:
            if place.per == carrier_id and place.unit:
                out[place.unit] = out.get(place.unit, 0) + (place.count or 1)
    if not out:
        raise BadInput(f"no {campaign} carrier complement for {carrier_id!r}")
    return out


def landing_case(transported: bool, ground_on_island: bool, air_on_island: bool) -> bool:
    """10.2.1 applies when Japan has a landing force or either side has land air there."""
    return transported or ground_on_island or air_on_island


def place_japanese_ships(game: Game, ships: Sequence[Unit], landing: bool,
                         us_carrier: bool = False,
                         us_coastal_ships: bool = False) -> dict[str, tuple[Unit, ...]]:
    """Areas of the Japanese ships at battle start (10.2.1-10.2.4, E10)."""
    carriers = [s for s in ships if is_carrier(s)]
    escorts = [s for s in ships if is_escort(s)]
    subs = [s for s in ships if s.type == "SS"]
    areas: dict[str, list[Unit]] = {"japanese-sea": [], "coastal": [], "us-sea": []}
    if not carriers:
        areas["coastal"] += escorts
    elif not landing:
        areas["japanese-sea"] += carriers + escorts
    else:
        areas["japanese-sea"] += carriers
        wanted = len(carriers) * int(const(game, "escorts-per-carrier-in-japanese-sea"))
        pool = sorted(escorts, key=lambda s: stat(s, "gunnery") or 0)
        sea: list[Unit] = []
        while pool and len(sea) < wanted:
            sea.append(pool.pop(0))  # step 1: lowest gunnery to the Japanese sea area
            if pool and len(sea) < wanted:
                areas["coastal"].append(pool.pop())  # step 2: highest gunnery to coastal
        areas["japanese-sea"] += sea
        areas["coastal"] += pool
    sub_area = "us-sea" if us_carrier else "coastal" if us_coastal_ships else "japanese-sea"
    areas[sub_area] += subs
    return {k: tuple(v) for k, v in areas.items()}


def battle_rounds(game: Game, roll: int) -> int:
    """Rounds of a battle from the battle round record track (10.3)."""
    return int(table_row(game, "battle-rounds", roll=roll)["rounds"])


def battle_plan_units(ships: int, ground: int, land_air: int) -> int:
    """Units counted for the battle-plan count: no carrier aircraft, no transports (10.4)."""
    return ships + ground + land_air


def battle_plan_draws(game: Game, units: int) -> int:
    """Japanese bonus markers drawn each round (10.4)."""
    return int(table_row(game, "battle-plan-count", unit_count=units)["draws"])


def battle_points(game: Game, supply: int) -> int:
    """US BPP: 3 free plus 3 per supply point spent (10.5)."""
    return int(table_row(game, "battle-points", supply=supply)["bpp"])


def check_purchase(game: Game, markers: Sequence[str], supply: int) -> int:
    """BPP left after buying ``markers``; over budget or a repeat breaks 10.5."""
    budget = battle_points(game, supply)
    uses = int(const(game, "us-bonus-uses-per-battle"))
    for marker in set(markers):
        if markers.count(marker) > uses:
            raise RuleViolation("10.5", f"US marker {marker!r} bought more than once")
    spent = 0
    for marker in markers:
        row = table_row(game, "bonus-marker", side="us", bonus=marker)
        if not row["exists"]:
            raise BadInput(f"{marker!r} is not a US bonus marker")
        spent += int(row["cost"])
    if spent > budget:
        raise RuleViolation("10.5", f"markers cost {spent} BPP, only {budget} available")
    return budget - spent


# --------------------------------------------------------------------------- markers


def first_strike(game: Game, roll: int, japan_also: bool = False) -> tuple[bool, bool]:
    """US first strike at round start: (strikes, marker kept) (10.5 table, T97/T98)."""
    if japan_also:
        return False, False
    strikes = roll >= int(const(game, "us-first-strike-roll"))
    return strikes, not strikes


def battle_duration(game: Game, japanese_units: int, us_units: int) -> int:
    """Rounds added (+) or removed (-) by the battle-duration marker (10.7, E13, E24)."""
    step = int(const(game, "battle-duration-change"))
    if japanese_units > us_units:
        return step
    if us_units > japanese_units:
        return -step
    return 0


def cancel_hits(game: Game, hits: int, markers_left: int = 1) -> int:
    """Hits left after cancelling markers (emergency repair, escort fleet, seabees ...)."""
    per = int(const(game, "hits-cancelled-per-marker"))
    return max(0, hits - per * markers_left)


def bonus_extra_hits(game: Game, hits: int) -> int:
    """Hits with a US add-on marker (melee, VT fuze, dive bombing, radar gunnery; 10.5)."""
    return hits + int(const(game, "bonus-extra-hits")) if hits > 0 else hits


def asw_attackers(game: Game, ships: Sequence[Unit], subs: int) -> tuple[Unit, ...]:
    """Ships that attack enemy submarines: one per submarine, highest ASW first (10.15)."""
    per_sub = int(const(game, "asw-attacks-per-submarine"))
    able = [s for s in ships if stat(s, "asw") is not None]
    able.sort(key=lambda s: -int(stat(s, "asw")))
    return tuple(able[: subs * per_sub])


def island_ground_targetable(game: Game, own_ground_on_island: bool) -> bool:
    """Enemy ground units on the island can be bombed / shelled only if the attacker
    has ground units on the island (10.18.1, E14); the airfield always can."""
    return own_ground_on_island or not const(game, "island-targets-need-own-ground")


def ground_move(where: str, marine: bool) -> str:
    """Ground-unit movement step (10.19): beach -> position; transport -> beach
    (marines straight to the position); position stays."""
    if where == "beach":
        return "position"
    if where == "transport":
        return "position" if marine else "beach"
    if where == "position":
        return "position"
    raise BadInput(f"input where={where!r} is not allowed (transport|beach|position)")


# --------------------------------------------------------------------------- air combat


@dataclass(frozen=True)
class Flyer:
    """An aircraft in an area: what takes hits and its air-to-air value (None: bomber)."""

    piece: Piece
    air: AttackValue | None = None


def air_combat(game: Game, us: Sequence[Flyer], japan: Sequence[Flyer], dice: Dice,
               melee: bool = False) -> tuple[tuple[Piece, ...], tuple[Piece, ...]]:
    """Air combat in one area (10.11): every aircraft with air-to-air rolls, US first.

    Both sides' hits are counted before any is applied (simultaneous fire); hits go
    to the enemy's aircraft in the area only, lowest cost first, damaged first.
    ``melee`` is the US marker: +1 hit when the US scores (10.5).
    """
    if not us or not japan:
        return tuple(f.piece for f in us), tuple(f.piece for f in japan)
    us_hits = sum(attack(game, f.air, dice, "us") for f in us if f.air is not None)
    jp_hits = sum(attack(game, f.air, dice, "japan") for f in japan if f.air is not None)
    if melee:
        us_hits = bonus_extra_hits(game, us_hits)
    us_after = allocate_hits(game, [f.piece for f in us], jp_hits).pieces
    jp_after = allocate_hits(game, [f.piece for f in japan], us_hits).pieces
    return us_after, jp_after
