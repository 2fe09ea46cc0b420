"""The combat of a battle round (10.10-10.18): the steps a-g in every area, step by step
(E27), the Japanese markers' values (10.7), the US markers played at their first chance
(10.5), and the hits, one at a time on the lowest cost first, damaged first at equal cost,
the player choosing among units that tie (10.10.2, 1.3)."""

from __future__ import annotations

from collections.abc import Callable

from warpress.engine.dice import Dice
from warpress.engine.errors import RuleViolation

from . import combat as cb
from .common import AttackValue, const, unit_value
from .positions import DAMAGED, FULL, JAPAN, US, Run, kind, name
from .sheet import (
    AIRFIELD,
    AREAS,
    SEAS,
    area_name,
    destroy,
    discard,
    flying,
    ground_on_island,
    holds,
    marked,
    other,
    ships_in,
    state,
    transported,
    units,
    use,
)

#: the combat steps of a round, in order (10.6, 10.10; E11)
STEPS = ("a", "b", "c", "d", "e", "f", "g")


def attack_value(run: Run, pid: str, stat: str) -> AttackValue | None:
    """A unit's value for an attack, with the Japanese markers of the round (10.7)."""
    piece = run.pieces[pid]
    value = unit_value(kind(run.game, piece).unit, stat)
    if value is None or (value.normal == 0 and value.superior == 0):
        return None
    if piece.side == JAPAN:
        found = [m for m in state(run)["jp"] if m in cb.VALUE_MARKERS and marked(run, m)]
        value = cb.marked_value(run.game, value, stat, found)
    return value


def attack_roll(run: Run, dice: Dice, pid: str, stat: str, reroll: str | None = None) -> int:
    """One attack's hits (2.6.4, 2.7.4); a US re-roll marker (sonar, siege) re-rolls its
    first miss."""
    value = attack_value(run, pid, stat)
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


def _air_combat(run: Run, dice: Dice) -> None:
    """10.11: both sides' air-to-air dice in each area, counted before any is applied."""
    said = []
    for area in AREAS:
        us, jp = flying(run, US, area), flying(run, JAPAN, area)
        if not us or not jp:
            continue
        us_hits = sum(attack_roll(run, dice, p, "air") for p in us)
        jp_hits = sum(attack_roll(run, dice, p, "air") for p in jp)
        if us_hits and holds(run, "melee"):
            us_hits += int(const(run.game, "bonus-extra-hits"))
            use(run, "melee", "melee: +1 air-combat hit")
        queue(run, JAPAN, area, us_hits, "aircraft", "a")
        queue(run, US, area, jp_hits, "aircraft", "a")
        said.append(f"{area_name(area)}: US {us_hits} hit(s), Japan {jp_hits}")
    if said:
        run.say("air combat: " + "; ".join(said), "10.11")


def aa_fire(run: Run, dice: Dice, areas=AREAS, against: str | None = None) -> None:
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
            hits = sum(attack_roll(run, dice, p, "aa") for p in pieces)
            if side == US:
                hits += _us_aa_extras(run, dice, area, hits)
            queue(run, other(side), area, hits, "aircraft", "b")
            said.append(f"{side} AA in the {area_name(area)}: {len(firing)} shot(s), {hits} hit(s)")
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
        extra += attack_roll(run, dice, best, "aa")
    if hits + extra and holds(run, "vt-fuze"):
        use(run, "vt-fuze", "VT fuze: +1 AA hit")
        extra += int(const(run.game, "bonus-extra-hits"))
    return extra


def bombing(run: Run, dice: Dice, areas=AREAS, sides=(US, JAPAN)) -> None:
    """10.13: bombers attack ships (anti-ship) in a sea area and ground units and the
    airfield (anti-ground) on the island (10.18.1); kamikaze (10.7)."""
    said = []
    kamikaze = marked(run, "kamikaze")
    for area in areas:
        stat = "anti_ground" if area == "island" else "anti_ship"
        for side in sides:
            bombers = [p for p in flying(run, side, area)
                       if kind(run.game, run.pieces[p]).bomber and attack_value(run, p, stat)]
            if not bombers or not targets(run, other(side), area, "bomb"):
                continue
            hits = sum(attack_roll(run, dice, p, stat) for p in bombers)
            if side == JAPAN and kamikaze and stat == "anti_ship":
                hits += len(bombers) * int(const(run.game, "kamikaze-extra-hits"))
                for p in bombers:
                    destroy(run, p)
                run.say(f"kamikaze: {len(bombers)} bomber(s) add a hit each and are lost",
                        "10.7")
            if side == US and hits and holds(run, "dive-bombing"):
                use(run, "dive-bombing", "dive bombing: +1 bombing hit")
                hits += int(const(run.game, "bonus-extra-hits"))
            queue(run, other(side), area, hits, "bomb", "c", side)
            said.append(f"{side} bombing in the {area_name(area)}: {len(bombers)} bomber(s), "
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
            if not subs or not targets(run, other(side), area, "surface"):
                continue
            hits = sum(attack_roll(run, dice, p, "torpedo", "sonar" if side == US else None)
                       for p in subs)
            queue(run, other(side), area, hits, "surface", "d")
            said.append(f"{side} torpedoes in the {area_name(area)}: {hits} hit(s)")
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
            hits = sum(attack_roll(run, dice, p, "asw", "sonar" if side == US else None)
                       for p in _pieces_of(run, mine, attackers))
            queue(run, other(side), area, hits, "subs", "e")
            said.append(f"{side} ASW in the {area_name(area)}: {len(attackers)} attack(s), "
                        f"{hits} hit(s)")
    if said:
        run.say("ASW: " + "; ".join(said), "10.15")


def _gunfire(run: Run, dice: Dice) -> None:
    """10.16: the ships in the coastal area fire at enemy ships there, ground units on the
    island (10.18.1) and the airfield; radar gunnery (10.5)."""
    said = []
    for side in (US, JAPAN):
        ships = [p for p in ships_in(run, side, "coastal", False)
                 if attack_value(run, p, "gunnery")]
        if not ships or not targets(run, other(side), "coastal", "gunfire", side):
            continue
        hits = sum(attack_roll(run, dice, p, "gunnery") for p in ships)
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
        if not targets(run, other(side), "island", "ground"):
            continue
        hits = sum(attack_roll(run, dice, p, "ground", "siege" if side == US else None)
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
        best = max(attackers, key=lambda p: (attack_value(run, p, "ground").normal, p))
        use(run, "assault", f"assault: an extra attack by {name(run.game, run.pieces[best])}")
        extra += attack_roll(run, dice, best, "ground")
    return extra


STEP_FNS: dict[str, Callable[[Run, Dice], None]] = {
    "a": _air_combat, "b": aa_fire, "c": bombing, "d": _torpedo, "e": _asw, "f": _gunfire,
    "g": _ground}


def targets(run: Run, side: str, area: str, what: str, by: str | None = None) -> list[str]:
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
    found = targets(run, batch["to"], batch["area"], batch["what"], batch["by"])
    if not found:
        return []
    best = min(_rank(run, p) for p in found)
    return [p for p in found if _rank(run, p) == best]


def alike(run: Run, ids: list[str]) -> bool:
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
        if len(found) > 1 and not alike(run, found):
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
            discard(run, "escort-fleet")
            run.say(f"escort fleet cancels the hit on {name(run.game, run.pieces[pid])}",
                    "10.7")
            return True
        return False
    for marker, fits in _us_cancels(run, batch, pid):
        if fits and holds(run, marker):
            use(run, marker, f"{marker} cancels a hit on {target_name(run, pid)}")
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
        destroy(run, pid)


def target_name(run: Run, pid: str) -> str:
    if pid in AIRFIELD.values():
        return "the US airfield" if pid == AIRFIELD[US] else "the Japanese airfield"
    return name(run.game, run.pieces[pid])
