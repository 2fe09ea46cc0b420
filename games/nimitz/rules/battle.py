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

from warpress.engine.dice import Dice
from warpress.engine.errors import RuleViolation

from . import combat as cb
from .common import DIE, const, table_row
from .fire import STEP_FNS, STEPS, aa_fire, alike, bombing, process_queue, targets
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
from .sheet import (
    AREAS,
    SEAS,
    area_name,
    carrier_air,
    destroy,
    discard,
    flying,
    ground_on_island,
    holds,
    land_air,
    marked,
    names,
    other,
    sheet_count,
    ships_in,
    state,
    transported,
    units,
    use,
)


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
    run.say(f"{name(run.game, run.pieces[pid])} to the {area_name(area)}", "10.1.2")


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
                areas.append(f"{area_name(area)}: {names(run, here)}")
        ground = ground_on_island(run, side) + transported(run, side)
        if ground:
            areas.append(f"ground: {names(run, ground)}")
        if land_air(run, side):
            areas.append(f"airfield (capacity {state(run)['capacity'][side]}): "
                         f"{names(run, land_air(run, side))}")
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
    run.say(f"{name(run.game, run.pieces[pid])} to the {area_name(area)}", "10.1.2", "E22")


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
        discard(run, "first-strike")
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
    out = [a for a in AREAS if targets(run, JAPAN, a, "bomb", US)]
    if marked(run, "search-failure"):
        out = [a for a in out if a != "japanese-sea"]
    return out


def strike(run: Run, carrier: str, area: str) -> None:
    """10.5 先制攻撃: the carrier's aircraft attack before the Japanese aircraft move."""
    b = state(run)
    if carrier not in _strikers(run):
        raise RuleViolation("10.5", f"{carrier!r} cannot launch a first strike")
    if area not in strike_areas(run):
        raise RuleViolation("10.5", f"no Japanese target in the {area_name(area)}")
    planes = [p for p, h in b["home"].items() if h == carrier and b["slot"].get(p) == "carrier"]
    use(run, "first-strike", f"first strike: {name(run.game, run.pieces[carrier])}'s aircraft "
                             f"attack the {area_name(area)}")
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
                aa_fire(run, dice, [s["area"]], against=s["side"])
            else:
                bombing(run, dice, [s["area"]], sides=(s["side"],))
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
            f"the {area_name(area)}", "10.7")
    _begin_strike(run, JAPAN, aboard[best], area, "jp-strike-after")


def _jp_strike_after(run: Run, dice: Dice) -> None:
    """10.7 先制攻撃: a US carrier it damaged loses all its aircraft; US land aircraft beyond
    a cut airfield capacity go at once (the player chooses)."""
    b = state(run)
    for pid, carrier in list(b["home"].items()):
        if run.pieces[pid].side == US and pid in b["slot"] and _room(run, carrier) == 0:
            destroy(run, pid)
    if _airfield_excess(run, US, land_air(run, US)):
        b["stage"] = "us-air"


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
    run.say(f"{name(run.game, run.pieces[pid])} flies to the {area_name(area)}", "10.8")


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
        moves.append(f"{names(run, group)}: die {rolled} -> "
                     f"{area_name(area) if area else 'stay'}")
    if moves:
        run.say("Japanese aircraft: " + "; ".join(moves), "10.9", "10.9.1",
                *(("10.7", "E2") if forced else ()), "E12")
    if holds(run, "asw") and any(ships_in(run, s, a, True) and ships_in(run, other(s), a)
                                 for s in (US, JAPAN) for a in SEAS):
        b["asw_first"] = b["round"]
        use(run, "asw", "ASW: this round the ASW attacks come before the torpedoes")
    b["stage"], b["step"], b["rolled"] = "combat", "a", False


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
        destroy(run, pid)
    if gone:
        run.say(f"no room: {', '.join(_plane_names(run, gone))} removed from the battle", *rules)


def _plane_names(run: Run, ids: list[str]) -> list[str]:
    return [name(run.game, run.pieces[p]) for p in ids if p in run.pieces]


def _ask_remove(run: Run, planes: list[str], room: int, rule: str) -> bool:
    """The US player picks the aircraft to remove, one at a time (10.20.4, 10.21.2)."""
    excess = len(planes) - room
    if excess <= 0:
        return True
    if alike(run, planes):
        for pid in planes[:excess]:
            destroy(run, pid)
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
    destroy(run, pid)
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
            destroy(run, pid)
        run.say(f"the {side} airfield has no capacity left: its land aircraft are removed",
                "10.21")
        return True
    return _ask_remove(run, planes, room, "10.21.2")


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
            discard(run, marker)
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
        discard(run, "escort-fleet")
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
