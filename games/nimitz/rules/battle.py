"""A battle (10.0-10.22) played in a session: the folder's battle procedures (``combat.py``)
run in order over the units at one point, the US player's decisions asked on the way.

The battle's state is ``data.battle`` of the position:

* ``slot``: where each unit stands on the battle sheet: a ship in ``japanese-sea``,
  ``coastal`` or ``us-sea`` (a US submarine with no Japanese ship to fight is ``out``,
  10.1.2); a ground unit in its side's ``position``, on its ``beach`` or on a ``transport``
  (coastal area, 8.3); an aircraft at its ``airfield`` or beside its ``carrier``, or in the
  area it flew to this round (``island`` included);
* ``home``: each carrier aircraft's carrier; ``complement``: what each carrier carried at
  the start (10.20.2); ``capacity``: each side's airfield (10.1.2, 10.2, 10.18.2);
* ``marker`` (the battle round track, 10.3), ``round``, ``plan`` (Japanese markers drawn each
  round, 10.4), ``jp`` (the markers drawn this round, 10.7), ``escort`` (an escort fleet
  still waiting for a hit), ``bpp``/``bought``/``used`` (the US markers, 10.5);
* ``stage`` and ``step``: where the procedure stands; ``queue``: hits scored and not yet
  applied, in order (10.10.2).

US decisions: ``place`` (a ship's area, 10.1.2; a submarine's when the Japanese ships are in
two areas, E22), ``bonus``/``spend``/``done`` (10.5), ``strike`` (a US first strike, 10.5),
``fly`` (each US aircraft's area, 10.8), ``hit`` (which unit takes a hit when units tie for
it, 10.10.2, 1.3), ``remove`` (US aircraft beyond a carrier's or an airfield's room,
10.20.4, 10.21.2), ``pin`` (the pinning marker, 10.5). Markers that add, cancel or re-roll a
hit are played at their first chance.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import RuleViolation

from . import combat as cb
from .common import DIE, AttackValue, const, table_row, unit_value
from .positions import (
    BATTALION_BOX,
    BOMBING,
    DAMAGED,
    FULL,
    JAPAN,
    US,
    Run,
    complement,
    kind,
    name,
    point_name,
    restack,
)

AREAS = ("japanese-sea", "island", "coastal", "us-sea")
SEAS = ("japanese-sea", "coastal", "us-sea")
AIRFIELD = {US: "us-airfield", JAPAN: "japanese-airfield"}
ON_ISLAND = ("position", "beach")
#: the combat steps of a round, in order (10.6, 10.10; E11)
STEPS = ("a", "b", "c", "d", "e", "f", "g")
STEP_NAMES = {"a": "air combat", "b": "AA fire", "c": "bombing", "d": "torpedo", "e": "ASW",
              "f": "naval gunfire", "g": "ground combat"}
STEP_RULES = {"a": "10.11", "b": "10.12", "c": "10.13", "d": "10.14", "e": "10.15",
              "f": "10.16", "g": "10.17"}


def other(side: str) -> str:
    return JAPAN if side == US else US


def state(run: Run) -> dict[str, Any]:
    return run.data["battle"]


# --- who is where ---------------------------------------------------------------------------


def units(run: Run, side: str, where: Callable[[str], bool] = lambda s: True) -> list[str]:
    """Pieces of ``side`` in the battle whose slot passes ``where``, in piece order."""
    b = state(run)
    return [pid for pid, slot in b["slot"].items() if slot != "out" and where(slot)
            and pid in run.pieces and run.pieces[pid].side == side]


def ships_in(run: Run, side: str, area: str, subs: bool | None = None) -> list[str]:
    return [pid for pid in units(run, side, lambda s: s == area)
            if kind(run.game, run.pieces[pid]).ship
            and (subs is None or kind(run.game, run.pieces[pid]).sub == subs)]


def flying(run: Run, side: str, area: str) -> list[str]:
    return [pid for pid in units(run, side, lambda s: s == area)
            if kind(run.game, run.pieces[pid]).aircraft]


def ground_on_island(run: Run, side: str) -> list[str]:
    return units(run, side, lambda s: s in ON_ISLAND)


def transported(run: Run, side: str) -> list[str]:
    return units(run, side, lambda s: s == "transport")


def land_air(run: Run, side: str) -> list[str]:
    return [pid for pid in units(run, side) if kind(run.game, run.pieces[pid]).land_air]


def carrier_air(run: Run, side: str) -> list[str]:
    return [pid for pid in units(run, side) if kind(run.game, run.pieces[pid]).carrier_air]


def marked(run: Run, marker: str) -> bool:
    """A Japanese marker drawn this round that takes effect (10.7; kamikaze void in 1942 and
    1943)."""
    b = state(run)
    if marker not in b["jp"]:
        return False
    if marker == "kamikaze":
        if run.campaign in const(run.game, "kamikaze-void-campaigns"):
            return False
        return any(kind(run.game, run.pieces[p]).ship for p in units(run, US))
    return True


def holds(run: Run, marker: str) -> bool:
    """A US marker bought for this battle and not used yet (10.5)."""
    b = state(run)
    return marker in b["bought"] and marker not in b["used"]


def use(run: Run, marker: str, text: str) -> None:
    state(run)["used"].append(marker)
    run.say(f"US {text}", "10.5")


# --- set-up (10.1, 10.2) ------------------------------------------------------------------------


def begin(run: Run, point: str) -> None:
    """10.1.1: every unit at the point goes to the battle sheet."""
    run.data["battle"] = {
        "point": point, "stage": "setup-us", "step": None, "round": 0, "marker": 0,
        "plan": 0, "slot": {}, "home": {}, "complement": {}, "capacity": {US: 0, JAPAN: 0},
        "airfield_hit": {US: False, JAPAN: False}, "bpp": 0, "spent": 0, "bought": [],
        "used": [], "jp": [], "escort": False, "queue": [], "rolled": False, "struck": [],
        "hawaii": point == "hawaiian-islands", "kept": None}
    run.say(f"battle at {point_name(run.game, point)}", "10.0", "10.1.1")


def _piece_ids(run: Run, side: str) -> list[str]:
    return [p.id for p in run.at(state(run)["point"], side)]


def unplaced_us_ships(run: Run) -> list[str]:
    """US surface ships other than carriers whose area the player picks (10.1.2)."""
    b = state(run)
    return [pid for pid in _piece_ids(run, US) if pid not in b["slot"]
            and kind(run.game, run.pieces[pid]).ship
            and not kind(run.game, run.pieces[pid]).carrier and not kind(run.game,
                                                                          run.pieces[pid]).sub]


def place_us_ship(run: Run, pid: str, area: str) -> None:
    if pid not in unplaced_us_ships(run):
        raise RuleViolation("10.1.2", f"{pid!r} is not a US ship waiting for its area")
    if area not in ("us-sea", "coastal"):
        raise RuleViolation("10.1.2", "a US ship goes to the US sea area or the coastal area")
    state(run)["slot"][pid] = area
    run.say(f"{name(run.game, run.pieces[pid])} to the {_area(area)}", "10.1.2")


def _setup_us(run: Run, dice: Dice) -> None:
    """10.1.2-10.1.3: carriers to the US sea area, land aircraft to the airfield (capacity =
    their number, with BWs in the bombing box at the Marianas, 12.2), garrisoned ground units
    to the position, transported ones on transports, each carrier's aircraft beside it."""
    b = state(run)
    if unplaced_us_ships(run):
        run.due("place", ("10.1.2",), ships=unplaced_us_ships(run))
        return
    for pid in _piece_ids(run, US):
        k = kind(run.game, run.pieces[pid])
        if pid in b["slot"] or k.sub:
            continue
        if k.carrier:
            b["slot"][pid] = "us-sea"
            _launch_complement(run, pid)
        elif k.land_air:
            b["slot"][pid] = "airfield"
        elif k.ground:
            b["slot"][pid] = "transport" if "transport" in run.pieces[pid].flags else "position"
    bombers = [p.id for p in run.at(BOMBING, US, "box")] if b["point"] == "mariana-islands" else []
    b["capacity"][US] = len(land_air(run, US)) + len(bombers)
    b["bombers"] = bombers
    b["stage"] = "setup-jp"


def _launch_complement(run: Run, carrier: str) -> None:
    """10.1.3, 10.2.5: the carrier's complement beside it, new counters every battle."""
    b = state(run)
    planes = complement(run.game, run.campaign, run.pieces[carrier].unit)
    n = 0
    for unit_id, count in planes:
        for _ in range(count):
            n += 1
            pid = f"{carrier}:{unit_id}#{n}"
            run.put(type(run.pieces[carrier])(pid, unit_id, run.pieces[carrier].side, "area",
                                              "battle", FULL))
            b["slot"][pid] = "carrier"
            b["home"][pid] = carrier
    b["complement"][carrier] = n


def _setup_jp(run: Run, dice: Dice) -> None:
    """10.2-10.2.5: land aircraft to the airfield, ground units to the position or on
    transports, ships by the carrier and landing cases (E10, E30), submarines by the US
    ships."""
    b = state(run)
    ids = _piece_ids(run, JAPAN)
    ships = [run.pieces[p] for p in ids if kind(run.game, run.pieces[p]).ship]
    for pid in ids:
        k = kind(run.game, run.pieces[pid])
        if k.land_air:
            b["slot"][pid] = "airfield"
        elif k.ground:
            b["slot"][pid] = "transport" if "transport" in run.pieces[pid].flags else "position"
    landing = cb.landing_case(bool(transported(run, JAPAN)), bool(ground_on_island(run, JAPAN)),
                              bool(land_air(run, JAPAN) or land_air(run, US)))
    us_carrier = any(kind(run.game, run.pieces[p]).carrier for p in units(run, US))
    units_ = [kind(run.game, s).unit for s in ships]
    placed = cb.place_japanese_ships(run.game, units_, landing, us_carrier,
                                     bool(ships_in(run, US, "coastal")))
    by_unit = {s.unit: s.id for s in ships}
    for area, members in placed.items():
        for unit in members:
            b["slot"][by_unit[unit.id]] = area
            if kind(run.game, unit.id).carrier:
                _launch_complement(run, by_unit[unit.id])
    b["capacity"][JAPAN] = len(land_air(run, JAPAN))
    carrier = any(kind(run.game, s).carrier for s in ships)
    case = "10.2.3" if not carrier else "10.2.1" if landing else "10.2.2"
    run.say(_setup_text(run), "10.1", "10.2", case, *(("E10",) if case == "10.2.2" else ()))
    b["stage"] = "subs"


def _setup_text(run: Run) -> str:
    parts = []
    for side in (US, JAPAN):
        areas = []
        for area in SEAS:
            here = ships_in(run, side, area)
            if here:
                areas.append(f"{_area(area)}: {_names(run, here)}")
        ground = ground_on_island(run, side) + transported(run, side)
        if ground:
            areas.append(f"ground: {_names(run, ground)}")
        if land_air(run, side):
            areas.append(f"airfield (capacity {state(run)['capacity'][side]}): "
                         f"{_names(run, land_air(run, side))}")
        parts.append(f"{side}: " + ("; ".join(areas) or "nothing"))
    return "set-up: " + " | ".join(parts)


def sub_areas(run: Run) -> list[str]:
    """Areas holding Japanese ships, where US submarines go (10.1.2, E22)."""
    return [a for a in SEAS if ships_in(run, JAPAN, a)]


def unplaced_subs(run: Run) -> list[str]:
    b = state(run)
    return [pid for pid in _piece_ids(run, US) if pid not in b["slot"]
            and kind(run.game, run.pieces[pid]).sub]


def place_sub(run: Run, pid: str, area: str) -> None:
    if pid not in unplaced_subs(run):
        raise RuleViolation("10.1.2", f"{pid!r} is not a US submarine waiting for its area")
    if area not in sub_areas(run):
        raise RuleViolation("10.1.2", "a US submarine goes to an area with Japanese ships "
                                      f"({', '.join(sub_areas(run))})")
    state(run)["slot"][pid] = area
    run.say(f"{name(run.game, run.pieces[pid])} to the {_area(area)}", "10.1.2", "E22")


def _subs(run: Run, dice: Dice) -> None:
    b = state(run)
    waiting, areas = unplaced_subs(run), sub_areas(run)
    if waiting and len(areas) > 1:
        run.due("place", ("10.1.2", "E22"), ships=waiting, areas=areas)
        return
    for pid in waiting:
        b["slot"][pid] = areas[0] if areas else "out"
        if not areas:
            run.say(f"{name(run.game, run.pieces[pid])} finds no Japanese ship: it stays out "
                    "of the battle", "10.1.2")
    b["stage"] = "rounds"


def _rounds(run: Run, dice: Dice) -> None:
    """10.3, 10.4: the number of rounds and the Japanese battle-plan count."""
    b = state(run)
    roll = dice.roll(DIE, "rounds")
    b["marker"] = cb.battle_rounds(run.game, roll)
    count = cb.battle_plan_units(
        sum(1 for p in units(run, JAPAN) if kind(run.game, run.pieces[p]).ship),
        len(ground_on_island(run, JAPAN) + transported(run, JAPAN)), len(land_air(run, JAPAN)))
    b["plan"] = cb.battle_plan_draws(run.game, count)
    b["bpp"] = cb.battle_points(run.game, 0)
    run.say(f"battle rounds: die {roll} -> {b['marker']}; Japanese battle-plan count: {count} "
            f"units -> {b['plan']} marker(s) a round", "10.3", "10.4")
    b["stage"] = "bonus"


# --- 10.5: the US markers ----------------------------------------------------------------------


def marker_cost(run: Run, marker: str) -> int:
    row = table_row(run.game, "bonus-marker", side=US, bonus=marker)
    if not row["exists"]:
        raise RuleViolation("10.5", f"{marker!r} is not a US bonus marker")
    return int(row["cost"])


def check_bonus(run: Run, marker: str) -> int:
    b = state(run)
    cost = marker_cost(run, marker)
    if marker in b["bought"]:
        raise RuleViolation("10.5", f"{marker!r} is bought already (each marker once a battle)")
    if cost > b["bpp"]:
        raise RuleViolation("10.5", f"{marker!r} costs {cost} BPP; {b['bpp']} are left")
    return cost


def buy_bonus(run: Run, marker: str) -> None:
    b = state(run)
    b["bpp"] -= check_bonus(run, marker)
    b["bought"].append(marker)
    run.say(f"US bonus marker bought: {marker} ({b['bpp']} BPP left)", "10.5")


def check_spend(run: Run) -> None:
    if int(run.data.get("sp", 0)) < 1:
        raise RuleViolation("10.5", "no SP left to turn into battle-plan points")


def spend(run: Run) -> None:
    check_spend(run)
    b = state(run)
    run.data["sp"] = int(run.data["sp"]) - 1
    b["spent"] += 1
    b["bpp"] += cb.battle_points(run.game, b["spent"]) - cb.battle_points(run.game,
                                                                           b["spent"] - 1)
    run.say(f"1 SP spent on the battle: {b['bpp']} BPP left", "10.5")


# --- the round ------------------------------------------------------------------------------


def _round_start(run: Run, dice: Dice) -> None:
    """10.6(1), 10.7: the Japanese markers of the round drawn from the cup."""
    b = state(run)
    b["round"] += 1
    b["struck"] = []
    drawn = []
    for _ in range(b["plan"]):
        if not run.data["cup"]:
            run.data["cup"], run.data["cup_used"] = list(run.data["cup_used"]), []
        if not run.data["cup"]:
            break
        cup = sorted(run.data["cup"])
        pick = cup[dice.roll(f"d{len(cup)}", "cup") - 1 if len(cup) > 1 else 0]
        run.data["cup"].remove(pick)
        drawn.append(pick)
    b["jp"] = drawn
    if "escort-fleet" in drawn:
        b["escort"] = True
    void = [m for m in drawn if m == "kamikaze" and not marked(run, m)]
    run.say(f"round {b['round']}: Japanese markers drawn: {', '.join(drawn) or 'none'}"
            + (" (kamikaze: no effect)" if void else ""), "10.6", "10.7")
    if "battalion-draw" in drawn:
        box = [p.id for p in run.at(BATTALION_BOX, JAPAN, "box")]
        if box:
            run.place(box[0], "point", b["point"], order=run.bottom(b["point"]))
            b["slot"][box[0]] = "position"
            run.say("battalion draw: a battalion from the box to the Japanese position", "10.7")
    b["stage"] = "first-strike"


def _first_strike(run: Run, dice: Dice) -> None:
    """10.5 and 10.7 先制攻撃: both drawn, both removed; else the US rolls (7+ strikes)."""
    b = state(run)
    b["stage"] = "jp-strike"
    if holds(run, "first-strike") and "first-strike" in b["jp"]:
        b["jp"].remove("first-strike")
        _discard(run, "first-strike")
        use(run, "first-strike", "first strike and the Japanese first strike cancel out")
    elif holds(run, "first-strike") and _strikers(run) and strike_areas(run):
        roll = dice.roll(DIE, "first-strike")
        if roll >= int(const(run.game, "us-first-strike-roll")):
            run.say(f"US first strike: die {roll}, the strike goes in", "10.5")
            run.due("strike", ("10.5",), carriers=_strikers(run), areas=strike_areas(run))
            return
        run.say(f"US first strike: die {roll}, the marker is kept for a later round", "10.5")


def _strikers(run: Run) -> list[str]:
    """US carriers able to launch a first strike: undamaged, with aircraft beside them."""
    b = state(run)
    return [c for c in units(run, US) if kind(run.game, run.pieces[c]).carrier
            and run.pieces[c].step == FULL
            and any(h == c and b["slot"].get(p) == "carrier" for p, h in b["home"].items())]


def strike_areas(run: Run) -> list[str]:
    """Areas a US first strike may attack: with Japanese ships (anti-ship) or the island
    (anti-ground), not the Japanese sea area after a search failure."""
    out = [a for a in AREAS if _targets(run, JAPAN, a, "bomb", US)]
    if marked(run, "search-failure"):
        out = [a for a in out if a != "japanese-sea"]
    return out


def strike(run: Run, carrier: str, area: str) -> None:
    """10.5 先制攻撃: the carrier's aircraft attack before the Japanese aircraft move."""
    b = state(run)
    if carrier not in _strikers(run):
        raise RuleViolation("10.5", f"{carrier!r} cannot launch a first strike")
    if area not in strike_areas(run):
        raise RuleViolation("10.5", f"no Japanese target in the {_area(area)}")
    planes = [p for p, h in b["home"].items() if h == carrier and b["slot"].get(p) == "carrier"]
    use(run, "first-strike", f"first strike: {name(run.game, run.pieces[carrier])}'s aircraft "
                             f"attack the {_area(area)}")
    _begin_strike(run, US, planes, area, "jp-strike")


def _begin_strike(run: Run, side: str, planes: list[str], area: str, then: str) -> None:
    b = state(run)
    for p in planes:
        b["slot"][p] = area
    b["strike"] = {"side": side, "planes": planes, "area": area, "step": "aa",
                   "rolled": False, "then": then}
    b["stage"] = "strike"


def _strike(run: Run, dice: Dice) -> None:
    """A first strike in its area: AA from the enemy ships there, then the bombing (no air
    combat); then the aircraft are back beside their carrier and fly no more this round."""
    b = state(run)
    s = b["strike"]
    while s["step"] != "back":
        if not s["rolled"]:
            s["rolled"] = True
            if s["step"] == "aa":
                _aa(run, dice, [s["area"]], against=s["side"])
            else:
                _bomb(run, dice, [s["area"]], sides=(s["side"],))
        if not process_queue(run):
            return
        s["step"], s["rolled"] = ("bomb" if s["step"] == "aa" else "back"), False
    for p in s["planes"]:
        if p in b["slot"]:
            b["slot"][p] = "carrier"
            b["struck"].append(p)
    b["strike"], b["stage"] = None, s["then"]


def _jp_strike(run: Run, dice: Dice) -> None:
    """10.7 先制攻撃: the carrier with the most aircraft strikes first (roll 10)."""
    b = state(run)
    b["stage"] = "us-air"
    if "first-strike" not in b["jp"]:
        return
    carriers = [c for c in units(run, JAPAN) if kind(run.game, run.pieces[c]).carrier]
    aboard = {c: [p for p, h in b["home"].items() if h == c and b["slot"].get(p) == "carrier"]
              for c in carriers}
    best = max(carriers, key=lambda c: len(aboard[c]), default=None)
    area = _jp_destination(run, aboard[best], cb.forced_roll(run.game)) if best else None
    if area is None:
        return
    run.say(f"Japanese first strike: {name(run.game, run.pieces[best])}'s aircraft attack "
            f"the {_area(area)}", "10.7")
    _begin_strike(run, JAPAN, aboard[best], area, "jp-strike-after")


def _jp_strike_after(run: Run, dice: Dice) -> None:
    """10.7 先制攻撃: a US carrier it damaged loses all its aircraft; US land aircraft beyond
    a cut airfield capacity go at once (the player chooses)."""
    b = state(run)
    for pid, carrier in list(b["home"].items()):
        if run.pieces[pid].side == US and pid in b["slot"] and _room(run, carrier) == 0:
            _destroy(run, pid)
    if _airfield_excess(run, US, land_air(run, US)):
        b["stage"] = "us-air"


# --- 10.8, 10.9: aircraft move --------------------------------------------------------------


def waiting_aircraft(run: Run) -> list[str]:
    """US aircraft still to send this round (10.8): at their airfield or beside an
    undamaged carrier, not back from a first strike."""
    b = state(run)
    out = []
    for pid in land_air(run, US) + carrier_air(run, US):
        slot = b["slot"][pid]
        if pid in b["struck"] or slot not in ("airfield", "carrier"):
            continue
        if slot == "carrier" and run.pieces[b["home"][pid]].step != FULL:
            continue
        out.append(pid)
    return out


def fly_areas(run: Run) -> list[str]:
    """Areas a US aircraft may go to (10.8): any, but not the Japanese sea area after a
    search failure (10.7)."""
    return [a for a in AREAS if not (a == "japanese-sea" and marked(run, "search-failure"))]


def fly(run: Run, pid: str, area: str) -> None:
    if pid not in waiting_aircraft(run):
        raise RuleViolation("10.8", f"{pid!r} is not a US aircraft waiting to fly this round")
    if area not in fly_areas(run):
        raise RuleViolation("10.7", "search failure: no US aircraft to the Japanese sea area "
                                    "this round" if area == "japanese-sea" else
                            f"{area!r} is not a battle area ({', '.join(AREAS)})")
    state(run)["slot"][pid] = area
    run.say(f"{name(run.game, run.pieces[pid])} flies to the {_area(area)}", "10.8")


def _us_air(run: Run, dice: Dice) -> None:
    if waiting_aircraft(run):
        run.due("fly", ("10.8",), aircraft=waiting_aircraft(run), areas=fly_areas(run))
        return
    state(run)["stage"] = "jp-air"


def _air_view(run: Run) -> cb.AirView:
    b = state(run)
    us_ships = frozenset(a for a in SEAS if ships_in(run, US, a, subs=False))
    jp_there = bool(ground_on_island(run, JAPAN)) or any(
        b["slot"][p] in ("airfield", "island") for p in land_air(run, JAPAN))
    planes = frozenset(a for a in AREAS if flying(run, US, a) or flying(run, JAPAN, a))
    us_land_air = any(kind(run.game, run.pieces[p]).land_air for p in flying(run, US, "island"))
    return cb.AirView(us_ships, us_land_air,
                      bool(ground_on_island(run, US)), jp_there, planes)


def _jp_destination(run: Run, group: list[str], roll: int) -> str | None:
    """10.9.1: the first area from the group's roll with a target for it (10.9.2 bombers,
    10.9.3 fighters; E12 cyclic)."""
    view = _air_view(run)
    bombers = any(kind(run.game, run.pieces[p]).bomber for p in group)
    valid = cb.bomber_areas(view) if bombers else cb.fighter_areas(view)
    return cb.air_destination(run.game, roll, valid)[1]


def _jp_groups(run: Run) -> list[list[str]]:
    """10.9: all land aircraft one group; each carrier's bombers, then its fighters; bombers
    move before fighters (the land group with them when it holds a bomber)."""
    b = state(run)
    base = [p for p in land_air(run, JAPAN) if b["slot"][p] == "airfield"]
    carriers = [c for c in units(run, JAPAN) if kind(run.game, run.pieces[c]).carrier]
    def aboard(c, bomber):
        return [p for p, h in b["home"].items() if h == c and b["slot"].get(p) == "carrier"
                and p not in b["struck"] and kind(run.game, run.pieces[p]).bomber == bomber]
    land_bombers = any(kind(run.game, run.pieces[p]).bomber for p in base)
    groups = [base] if base and land_bombers else []
    groups += [aboard(c, True) for c in carriers]
    groups += [base] if base and not land_bombers else []
    groups += [aboard(c, False) for c in carriers]
    return [g for g in groups if g]


def _jp_air(run: Run, dice: Dice) -> None:
    b = state(run)
    forced = marked(run, "carrier-attack") or marked(run, "kamikaze")
    moves = []
    for group in _jp_groups(run):
        rolled = cb.forced_roll(run.game) if forced else dice.roll(DIE, "air")
        area = _jp_destination(run, group, rolled)
        for p in group:
            if area is not None:
                b["slot"][p] = area
        moves.append(f"{_names(run, group)}: die {rolled} -> "
                     f"{_area(area) if area else 'stay'}")
    if moves:
        run.say("Japanese aircraft: " + "; ".join(moves), "10.9", "10.9.1",
                *(("10.7", "E2") if forced else ()), "E12")
    if holds(run, "asw") and any(ships_in(run, s, a, True) and ships_in(run, other(s), a)
                                 for s in (US, JAPAN) for a in SEAS):
        b["asw_first"] = b["round"]
        use(run, "asw", "ASW: this round the ASW attacks come before the torpedoes")
    b["stage"], b["step"], b["rolled"] = "combat", "a", False


# --- 10.10: combat ----------------------------------------------------------------------------


def _value(run: Run, pid: str, stat: str) -> AttackValue | None:
    """A unit's value for an attack, with the Japanese markers of the round (10.7)."""
    piece = run.pieces[pid]
    value = unit_value(kind(run.game, piece).unit, stat)
    if value is None or (value.normal == 0 and value.superior == 0):
        return None
    if piece.side == JAPAN:
        found = [m for m in state(run)["jp"] if m in cb.VALUE_MARKERS and marked(run, m)]
        value = cb.marked_value(run.game, value, stat, found)
    return value


def _roll(run: Run, dice: Dice, pid: str, stat: str, reroll: str | None = None) -> int:
    """One attack's hits (2.6.4, 2.7.4); a US re-roll marker (sonar, siege) re-rolls its
    first miss."""
    value = _value(run, pid, stat)
    if value is None:
        return 0
    hits = cb.attack(run.game, value, dice, "attack")
    if hits == 0 and reroll and holds(run, reroll):
        use(run, reroll, f"{reroll}: {name(run.game, run.pieces[pid])} re-rolls a miss")
        hits = cb.attack(run.game, value, dice, "attack")
    return hits


def queue(run: Run, to: str, area: str, hits: int, what: str, source: str,
          by: str | None = None) -> None:
    """Hits scored on ``to``'s units in ``area`` (``what``: which of them may take them)."""
    if hits > 0:
        state(run)["queue"].append({"to": to, "area": area, "hits": hits, "what": what,
                                    "source": source, "by": by})


def _combat(run: Run, dice: Dice) -> None:
    """10.10.1: steps a-g in every area, step by step (E27); the hits of a step applied
    before the next step."""
    b = state(run)
    while b["step"] is not None:
        if not b["rolled"]:
            b["rolled"] = True
            STEP_FNS[_step_order(run)[b["step"]]](run, dice)
        if not process_queue(run):
            return
        b["step"], b["rolled"] = _next_step(run, b["step"]), False
    b["stage"] = "ground-move"


def _step_order(run: Run) -> dict[str, str]:
    """Steps by their slot: the US ASW marker swaps torpedo and ASW in the first round with
    submarines on both sides (10.5)."""
    b = state(run)
    if b.get("asw_first") == b["round"]:
        return {**{s: s for s in STEPS}, "d": "e", "e": "d"}
    return {s: s for s in STEPS}


def _next_step(run: Run, step: str) -> str | None:
    index = STEPS.index(step)
    return STEPS[index + 1] if index + 1 < len(STEPS) else None


def _air_combat(run: Run, dice: Dice) -> None:
    """10.11: both sides' air-to-air dice in each area, counted before any is applied."""
    said = []
    for area in AREAS:
        us, jp = flying(run, US, area), flying(run, JAPAN, area)
        if not us or not jp:
            continue
        us_hits = sum(_roll(run, dice, p, "air") for p in us)
        jp_hits = sum(_roll(run, dice, p, "air") for p in jp)
        if us_hits and holds(run, "melee"):
            us_hits += int(const(run.game, "bonus-extra-hits"))
            use(run, "melee", "melee: +1 air-combat hit")
        queue(run, JAPAN, area, us_hits, "aircraft", "a")
        queue(run, US, area, jp_hits, "aircraft", "a")
        said.append(f"{_area(area)}: US {us_hits} hit(s), Japan {jp_hits}")
    if said:
        run.say("air combat: " + "; ".join(said), "10.11")


def _aa(run: Run, dice: Dice, areas=AREAS, against: str | None = None) -> None:
    """10.12: each side's ships fire at enemy aircraft in their area, escort row then
    carrier row, one shot per aircraft per row, the highest AA firing."""
    said = []
    for area in areas:
        for side in (US, JAPAN):
            if against is not None and other(side) != against:
                continue
            planes = flying(run, other(side), area)
            ships = [kind(run.game, run.pieces[p]).unit for p in ships_in(run, side, area, False)]
            if not planes or not ships:
                continue
            firing = [s for row in cb.aa_rows(run.game, ships, len(planes)) for s in row]
            pieces = _pieces_of(run, ships_in(run, side, area, False), firing)
            hits = sum(_roll(run, dice, p, "aa") for p in pieces)
            if side == US:
                hits += _us_aa_extras(run, dice, area, hits)
            queue(run, other(side), area, hits, "aircraft", "b")
            said.append(f"{side} AA in the {_area(area)}: {len(firing)} shot(s), {hits} hit(s)")
    if said:
        run.say("AA fire: " + "; ".join(said), "10.12", "10.12.1")


def _pieces_of(run: Run, pieces: list[str], chosen) -> list[str]:
    """The pieces behind the units a procedure chose (a unit may have several counters)."""
    left = list(pieces)
    out = []
    for unit in chosen:
        pid = next(p for p in left if run.pieces[p].unit == unit.id)
        left.remove(pid)
        out.append(pid)
    return out


def _us_aa_extras(run: Run, dice: Dice, area: str, hits: int) -> int:
    """The air-defense system's extra shot and the VT fuze's extra hit (10.5)."""
    extra = 0
    if holds(run, "air-defense-system"):
        best = max(ships_in(run, US, area, False),
                   key=lambda p: (cb.aa_value(kind(run.game, run.pieces[p]).unit).normal, p))
        use(run, "air-defense-system", f"air-defense system: an extra shot by "
                                       f"{name(run.game, run.pieces[best])}")
        extra += _roll(run, dice, best, "aa")
    if hits + extra and holds(run, "vt-fuze"):
        use(run, "vt-fuze", "VT fuze: +1 AA hit")
        extra += int(const(run.game, "bonus-extra-hits"))
    return extra


def _bomb(run: Run, dice: Dice, areas=AREAS, sides=(US, JAPAN)) -> None:
    """10.13: bombers attack ships (anti-ship) in a sea area and ground units and the
    airfield (anti-ground) on the island (10.18.1); kamikaze (10.7)."""
    said = []
    kamikaze = marked(run, "kamikaze")
    for area in areas:
        stat = "anti_ground" if area == "island" else "anti_ship"
        for side in sides:
            bombers = [p for p in flying(run, side, area)
                       if kind(run.game, run.pieces[p]).bomber and _value(run, p, stat)]
            if not bombers or not _targets(run, other(side), area, "bomb"):
                continue
            hits = sum(_roll(run, dice, p, stat) for p in bombers)
            if side == JAPAN and kamikaze and stat == "anti_ship":
                hits += len(bombers) * int(const(run.game, "kamikaze-extra-hits"))
                for p in bombers:
                    _destroy(run, p)
                run.say(f"kamikaze: {len(bombers)} bomber(s) add a hit each and are lost",
                        "10.7")
            if side == US and hits and holds(run, "dive-bombing"):
                use(run, "dive-bombing", "dive bombing: +1 bombing hit")
                hits += int(const(run.game, "bonus-extra-hits"))
            queue(run, other(side), area, hits, "bomb", "c", side)
            said.append(f"{side} bombing in the {_area(area)}: {len(bombers)} bomber(s), "
                        f"{hits} hit(s)")
    if said:
        run.say("bombing: " + "; ".join(said), "10.13", "10.18.1")


def _torpedo(run: Run, dice: Dice) -> None:
    """10.14: submarines attack enemy surface ships in their area (not after a search
    failure in the Japanese sea area, for the US)."""
    said = []
    for area in SEAS:
        for side in (US, JAPAN):
            subs = ships_in(run, side, area, True)
            if side == US and area == "japanese-sea" and marked(run, "search-failure"):
                subs = []
            if not subs or not _targets(run, other(side), area, "surface"):
                continue
            hits = sum(_roll(run, dice, p, "torpedo", "sonar" if side == US else None)
                       for p in subs)
            queue(run, other(side), area, hits, "surface", "d")
            said.append(f"{side} torpedoes in the {_area(area)}: {hits} hit(s)")
    if said:
        run.say("torpedo: " + "; ".join(said), "10.14")


def _asw(run: Run, dice: Dice) -> None:
    """10.15: each enemy submarine attacked by one ship or submarine, the highest ASW."""
    said = []
    for area in SEAS:
        for side in (US, JAPAN):
            enemies = ships_in(run, other(side), area, True)
            mine = ships_in(run, side, area)
            if side == US and area == "japanese-sea" and marked(run, "search-failure"):
                mine = [p for p in mine if not kind(run.game, run.pieces[p]).sub]
            if not enemies or not mine:
                continue
            units_ = [kind(run.game, run.pieces[p]).unit for p in mine]
            attackers = cb.asw_attackers(run.game, units_, len(enemies))
            hits = sum(_roll(run, dice, p, "asw", "sonar" if side == US else None)
                       for p in _pieces_of(run, mine, attackers))
            queue(run, other(side), area, hits, "subs", "e")
            said.append(f"{side} ASW in the {_area(area)}: {len(attackers)} attack(s), "
                        f"{hits} hit(s)")
    if said:
        run.say("ASW: " + "; ".join(said), "10.15")


def _gunfire(run: Run, dice: Dice) -> None:
    """10.16: the ships in the coastal area fire at enemy ships there, ground units on the
    island (10.18.1) and the airfield; radar gunnery (10.5)."""
    said = []
    for side in (US, JAPAN):
        ships = [p for p in ships_in(run, side, "coastal", False) if _value(run, p, "gunnery")]
        if not ships or not _targets(run, other(side), "coastal", "gunfire", side):
            continue
        hits = sum(_roll(run, dice, p, "gunnery") for p in ships)
        if side == US and hits and holds(run, "radar-gunnery"):
            use(run, "radar-gunnery", "radar gunnery: +1 gunfire hit")
            hits += int(const(run.game, "bonus-extra-hits"))
        queue(run, other(side), "coastal", hits, "gunfire", "f", side)
        said.append(f"{side} gunfire: {len(ships)} ship(s), {hits} hit(s)")
    if said:
        run.say("naval gunfire: " + "; ".join(said), "10.16", "10.18.1")


def _ground(run: Run, dice: Dice) -> None:
    """10.17: ground units in their own position attack enemy ground units and the
    airfield; the artillery, assault and infantry-combat markers (10.5, 10.7)."""
    said = []
    for side in (US, JAPAN):
        attackers = units(run, side, lambda s: s == "position")
        if not _targets(run, other(side), "island", "ground"):
            continue
        hits = sum(_roll(run, dice, p, "ground", "siege" if side == US else None)
                   for p in attackers)
        hits += _ground_extras(run, dice, side, attackers)
        if attackers or hits:
            queue(run, other(side), "island", hits, "ground", "g", side)
            said.append(f"{side}: {len(attackers)} unit(s), {hits} hit(s)")
    if said:
        run.say("ground combat: " + "; ".join(said), "10.17")


def _ground_extras(run: Run, dice: Dice, side: str, attackers: list[str]) -> int:
    extra = 0
    if side == JAPAN and marked(run, "artillery-support") and ground_on_island(run, JAPAN):
        extra += 1
        run.say("Japanese artillery support: 1 hit", "10.7")
    if side == US and holds(run, "artillery-support") and any(
            not kind(run.game, run.pieces[p]).battalion for p in ground_on_island(run, US)):
        use(run, "artillery-support", "artillery support: 1 hit")
        extra += 1
    if side == US and attackers and holds(run, "assault"):
        best = max(attackers, key=lambda p: (_value(run, p, "ground").normal, p))
        use(run, "assault", f"assault: an extra attack by {name(run.game, run.pieces[best])}")
        extra += _roll(run, dice, best, "ground")
    return extra


STEP_FNS: dict[str, Callable[[Run, Dice], None]] = {
    "a": _air_combat, "b": _aa, "c": _bomb, "d": _torpedo, "e": _asw, "f": _gunfire,
    "g": _ground}


# --- 10.10.2: hits ----------------------------------------------------------------------------


def _targets(run: Run, side: str, area: str, what: str, by: str | None = None) -> list[str]:
    """``side``'s units in ``area`` that an attack of kind ``what`` may hit; the airfield as
    ``us-airfield``/``japanese-airfield`` (10.11-10.18)."""
    b = state(run)
    attacker = by or other(side)
    if what == "aircraft":
        return flying(run, side, area)
    if what == "subs":
        return ships_in(run, side, area, True)
    if what == "surface":
        return ships_in(run, side, area, False)
    out: list[str] = []
    if what in ("bomb", "gunfire") and area != "island":
        out += ships_in(run, side, area, False)
        if area == "coastal":
            out += transported(run, side)  # a transport's hits go to the units aboard (E9)
    island = area == "island" or what == "gunfire"
    if island and what in ("bomb", "gunfire", "ground"):
        if what == "ground" or ground_on_island(run, attacker) or not const(
                run.game, "island-targets-need-own-ground"):
            out += ground_on_island(run, side)
        if b["capacity"][side] > 0:
            out.append(AIRFIELD[side])
    return out


def _rank(run: Run, pid: str) -> tuple[int, int]:
    """10.10.2: lower cost first; at equal cost a damaged unit first."""
    b = state(run)
    if pid in AIRFIELD.values():
        side = US if pid == AIRFIELD[US] else JAPAN
        return int(const(run.game, "airfield-hit-cost")), 0 if b["airfield_hit"][side] else 1
    piece = run.pieces[pid]
    return kind(run.game, piece).cost_hit(run.game), 0 if piece.step == DAMAGED else 1


def candidates(run: Run) -> list[str]:
    """The units that may take the next hit of the first batch: the lowest rank among its
    targets (several when they tie: the player's choice, 1.3)."""
    b = state(run)
    if not b["queue"]:
        return []
    batch = b["queue"][0]
    found = _targets(run, batch["to"], batch["area"], batch["what"], batch["by"])
    if not found:
        return []
    best = min(_rank(run, p) for p in found)
    return [p for p in found if _rank(run, p) == best]


def _same(run: Run, ids: list[str]) -> bool:
    """Tied units that are all alike (the same unit, step and slot): no real choice."""
    b = state(run)
    looks = {(run.pieces[p].unit if p in run.pieces else p,
              run.pieces[p].step if p in run.pieces else 0, b["slot"].get(p)) for p in ids}
    return len(looks) == 1


def process_queue(run: Run) -> bool:
    """Apply the queued hits one at a time; False when the player must choose a unit."""
    b = state(run)
    while b["queue"]:
        batch = b["queue"][0]
        found = candidates(run)
        if batch["hits"] <= 0 or not found:
            if batch["hits"] > 0:
                run.say(f"{batch['hits']} hit(s) on {batch['to']} find no target: lost",
                        "10.10.2")
            b["queue"].pop(0)
            continue
        if len(found) > 1 and not _same(run, found):
            run.due("hit", ("10.10.2", "1.3"), side=batch["to"], candidates=found,
                    hits=batch["hits"], area=batch["area"])
            return False
        take_hit(run, found[0])
    return True


def take_hit(run: Run, pid: str) -> None:
    """One hit of the first batch on ``pid`` (it must be one of ``candidates``): a marker
    may cancel it (10.5, 10.7); else a full unit is damaged, a damaged one destroyed, an
    airfield loses 1 capacity (2.5.2, 10.18.2)."""
    b = state(run)
    if pid not in candidates(run):
        raise RuleViolation("10.10.2", f"{pid!r} may not take this hit: the lowest cost goes "
                                       f"first, damaged first ({', '.join(candidates(run))})")
    batch = b["queue"][0]
    batch["hits"] -= 1
    if not _cancelled(run, batch, pid):
        _apply(run, pid)
    if batch["hits"] <= 0:
        b["queue"].pop(0)


def _cancelled(run: Run, batch: dict, pid: str) -> bool:
    b = state(run)
    side = batch["to"]
    if side == JAPAN:
        if marked(run, "emergency-repair") and not b.get("repaired"):
            b["repaired"] = True
            run.say("Japanese emergency repair cancels the first hit of the round", "10.7")
            return True
        if b["escort"] and pid in run.pieces and kind(run.game, run.pieces[pid]).carrier:
            b["escort"] = False
            _discard(run, "escort-fleet")
            run.say(f"escort fleet cancels the hit on {name(run.game, run.pieces[pid])}",
                    "10.7")
            return True
        return False
    for marker, fits in _us_cancels(run, batch, pid):
        if fits and holds(run, marker):
            use(run, marker, f"{marker} cancels a hit on {_target_name(run, pid)}")
            return True
    return False


def _us_cancels(run: Run, batch: dict, pid: str):
    aircraft = pid in run.pieces and kind(run.game, run.pieces[pid]).aircraft
    ground = pid in run.pieces and kind(run.game, run.pieces[pid]).ground
    marines = any(kind(run.game, run.pieces[p]).marine for p in ground_on_island(run, US))
    yield "barrel-roll", aircraft and batch["source"] in ("a", "b")
    yield "seabees", pid == AIRFIELD[US]
    yield "leathernecks", marines and (ground or pid == AIRFIELD[US])
    yield "damage-control", True


def _apply(run: Run, pid: str) -> None:
    b = state(run)
    if pid in AIRFIELD.values():
        side = US if pid == AIRFIELD[US] else JAPAN
        loss = int(const(run.game, "airfield-capacity-loss-per-hit"))
        floor = int(const(run.game, "airfield-capacity-minimum"))
        b["capacity"][side] = max(floor, b["capacity"][side] - loss)
        b["airfield_hit"][side] = True
        run.say(f"{side} airfield hit: capacity {b['capacity'][side]}", "10.18.2")
        return
    piece = run.pieces[pid]
    if piece.step == FULL:
        run.step_to(pid, DAMAGED)
        run.say(f"{name(run.game, piece)} damaged", "10.10.2", "2.5.2")
    else:
        run.say(f"{name(run.game, piece)} destroyed", "10.10.2", "2.5.2")
        _destroy(run, pid)


def _destroy(run: Run, pid: str) -> None:
    """A unit out of the battle: carrier aircraft vanish (10.22.1), Japanese battalions go
    back to the battalion box (2.8.4), every other unit leaves the game."""
    b = state(run)
    b["slot"].pop(pid, None)
    piece = run.pieces[pid]
    k = kind(run.game, piece)
    if k.carrier_air:
        run.remove(pid)
        b["home"].pop(pid, None)
    elif k.battalion and piece.side == JAPAN:
        run.place(pid, "box", BATTALION_BOX, transport=False)
        run.step_to(pid, FULL)
    else:
        run.place(pid, "eliminated", None, transport=False, moved=False)
        run.step_to(pid, 0)
    if pid in b.get("bombers", []):
        b["bombers"].remove(pid)


def _target_name(run: Run, pid: str) -> str:
    if pid in AIRFIELD.values():
        return "the US airfield" if pid == AIRFIELD[US] else "the Japanese airfield"
    return name(run.game, run.pieces[pid])


# --- 10.19-10.21: after the combat -------------------------------------------------------------


def _ground_move(run: Run, dice: Dice) -> None:
    """10.19: beach -> position; transport -> beach (marines straight to the position)."""
    b = state(run)
    moved = []
    for pid in list(b["slot"]):
        slot = b["slot"][pid]
        if pid in run.pieces and kind(run.game, run.pieces[pid]).ground and slot in (
                "beach", "transport"):
            b["slot"][pid] = cb.ground_move(slot, kind(run.game, run.pieces[pid]).marine)
            moved.append(f"{name(run.game, run.pieces[pid])} -> {b['slot'][pid]}")
    if moved:
        run.say("ground units move: " + ", ".join(moved), "10.19")
    b["stage"] = "return"


def _return(run: Run, dice: Dice) -> None:
    """10.20: land aircraft to their airfield, carrier aircraft to their carrier (at most
    its complement, none to a damaged one); Japan drops the excess damaged first, then the
    cheapest (10.20.3); the US player chooses (10.20.4)."""
    b = state(run)
    for pid in land_air(run, US) + land_air(run, JAPAN):
        b["slot"][pid] = "airfield"
    for pid in list(b["home"]):
        if pid in b["slot"]:
            b["slot"][pid] = "carrier"
    for carrier in sorted(set(b["home"].values())):
        planes = [p for p, h in b["home"].items() if h == carrier and p in b["slot"]]
        if not planes:
            continue
        room = _room(run, carrier)
        if run.pieces[carrier].side == JAPAN or len(planes) <= room or room == 0:
            _drop(run, planes, room, "10.20.2", "10.20.3")
        elif not _ask_remove(run, planes, room, "10.20.4"):
            return
    b["stage"] = "airfield"


def _room(run: Run, carrier: str) -> int:
    b = state(run)
    piece = run.pieces.get(carrier)
    if piece is None or carrier not in b["slot"] or piece.step != FULL:
        return 0
    return b["complement"][carrier]


def _drop(run: Run, planes: list[str], room: int, *rules: str) -> None:
    """The aircraft beyond ``room`` removed: damaged first, then the lowest cost (10.20.3,
    10.21.1); with no room, every one."""
    order = sorted(planes, key=lambda p: (run.pieces[p].step != DAMAGED,
                                          kind(run.game, run.pieces[p]).cost_hit(run.game), p))
    gone = order[:max(0, len(planes) - room)]
    for pid in gone:
        _destroy(run, pid)
    if gone:
        run.say(f"no room: {', '.join(_plane_names(run, gone))} removed from the battle", *rules)


def _plane_names(run: Run, ids: list[str]) -> list[str]:
    return [name(run.game, run.pieces[p]) for p in ids if p in run.pieces]


def _ask_remove(run: Run, planes: list[str], room: int, rule: str) -> bool:
    """The US player picks the aircraft to remove, one at a time (10.20.4, 10.21.2)."""
    excess = len(planes) - room
    if excess <= 0:
        return True
    if _same(run, planes):
        for pid in planes[:excess]:
            _destroy(run, pid)
        return True
    run.due("remove", (rule,), aircraft=planes, excess=excess)
    return False


def removable(run: Run) -> list[str]:
    due = run.pos.pending[0] if run.pos.pending else None
    return list(due.data["aircraft"]) if due and due.kind == "remove" else []


def remove(run: Run, pid: str) -> None:
    if pid not in removable(run):
        raise RuleViolation("10.20.4", f"{pid!r} is not one of the aircraft to choose from")
    run.say(f"{name(run.game, run.pieces[pid])} removed: no room to land", "10.20.4", "10.21.2")
    _destroy(run, pid)
    run.clear_due()


def _airfield(run: Run, dice: Dice) -> None:
    """10.21: land aircraft beyond their airfield's capacity are removed (BWs in the
    bombing box count at the Marianas, 12.2)."""
    b = state(run)
    japanese = land_air(run, JAPAN)
    if len(japanese) > b["capacity"][JAPAN]:
        _drop(run, japanese, b["capacity"][JAPAN], "10.21", "10.21.1")
    if not _airfield_excess(run, US, land_air(run, US) + list(b.get("bombers", []))):
        return
    b["stage"] = "round-end"


def _airfield_excess(run: Run, side: str, planes: list[str]) -> bool:
    b = state(run)
    room = b["capacity"][side]
    if len(planes) <= room:
        return True
    if room == 0:
        for pid in planes:
            _destroy(run, pid)
        run.say(f"the {side} airfield has no capacity left: its land aircraft are removed",
                "10.21")
        return True
    return _ask_remove(run, planes, room, "10.21.2")


# --- 10.22: the round's end ---------------------------------------------------------------------


def sheet_count(run: Run, side: str) -> int:
    """Units on the sheet: ships, ground units (on transports too), land and carrier
    aircraft (E24: as the battle-duration marker counts them)."""
    return len(units(run, side))


def _round_end(run: Run, dice: Dice) -> None:
    b = state(run)
    if marked(run, "battle-duration"):
        change = cb.battle_duration(run.game, sheet_count(run, JAPAN), sheet_count(run, US))
        b["marker"] += change
        run.say(f"battle duration: Japan {sheet_count(run, JAPAN)}, US {sheet_count(run, US)}"
                f" units: {change:+d} round", "10.7", "E13", "E24")
    b["stage"] = "next-round"
    if holds(run, "pinning"):
        run.due("pin", ("10.5",), marker=b["marker"])


def pin(run: Run, way: str) -> None:
    b = state(run)
    step = int(const(run.game, "battle-duration-change"))
    b["marker"] += step if way == "longer" else -step
    use(run, "pinning", f"pinning: the battle is {way} by {step} round")
    run.clear_due()


def _next_round(run: Run, dice: Dice) -> None:
    """10.22: the marker moves down; the battle ends when one side is gone or the marker
    leaves the track; 11.5.2 after round 1 at Hawaii."""
    b = state(run)
    for marker in b["jp"]:
        if marker != "escort-fleet" or not b["escort"]:
            _discard(run, marker)
    b["jp"], b["repaired"] = [], False
    if b["hawaii"] and b["round"] == 1 and units(run, JAPAN):
        run.data["hawaii_lost"] = True
        b["stage"] = "end"
        return
    b["marker"] -= 1
    if b["marker"] <= 0 or not units(run, US) or not units(run, JAPAN):
        b["stage"] = "end"
    else:
        b["stage"] = "round-start"


def _discard(run: Run, marker: str) -> None:
    if marker not in run.data["cup_used"]:
        run.data["cup_used"].append(marker)


def _end(run: Run, dice: Dice) -> None:
    """10.22, 10.22.1: the survivors back on the point (the Japanese restacked), the carrier
    aircraft off; 12.2 the BWs stay in their box till the combat phase ends."""
    b = state(run)
    for pid in list(b["home"]):
        if pid in run.pieces:
            run.remove(pid)
    for pid in list(b["slot"]):
        if pid in run.pieces:
            run.flag(pid, drop=("transport",))
    if b["escort"]:
        _discard(run, "escort-fleet")
    restack(run, b["point"], dice)
    run.say(f"the battle at {point_name(run.game, b['point'])} ends after round {b['round']}: "
            f"US {sheet_count(run, US)}, Japan {sheet_count(run, JAPAN)} unit(s) left", "10.22",
            "10.22.1")
    run.data["battle"] = None


STAGES: dict[str, Callable[[Run, Dice], None]] = {
    "setup-us": _setup_us, "setup-jp": _setup_jp, "subs": _subs, "rounds": _rounds,
    "round-start": _round_start, "first-strike": _first_strike, "strike": _strike,
    "jp-strike": _jp_strike, "jp-strike-after": _jp_strike_after,
    "us-air": _us_air, "jp-air": _jp_air, "combat": _combat, "ground-move": _ground_move,
    "return": _return, "airfield": _airfield, "round-end": _round_end,
    "next-round": _next_round, "end": _end}


def advance(run: Run, dice: Dice) -> None:
    """Run the battle until a US decision is due or it is over (``data.battle`` None)."""
    while run.data.get("battle") is not None and not run.pos.pending:
        stage = state(run)["stage"]
        if stage == "bonus":
            run.due("bonus", ("10.5",), bpp=state(run)["bpp"])
            return
        STAGES[stage](run, dice)


def after_answer(run: Run, stage: str | None = None) -> None:
    """A decision of the battle answered: on to ``stage`` (or the same one)."""
    run.clear_due()
    if stage is not None:
        state(run)["stage"] = stage


# --- words ------------------------------------------------------------------------------------


def _area(area: str) -> str:
    return {"japanese-sea": "Japanese sea area", "coastal": "coastal area",
            "us-sea": "US sea area", "island": "island"}.get(area, area)


def _names(run: Run, ids) -> str:
    return ", ".join(name(run.game, run.pieces[p]) for p in ids if p in run.pieces)
