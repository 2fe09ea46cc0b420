"""An air attack played step by step in a session (9.0-9.6): the rolls are the folder's
procedures (``combat.py``, ``area.py``); between them the players make the choices the
rules give them, each asked as a decision.

The attack in ``data["strike"]`` goes through its stages in order:

============ ========= ==================================================================
stage        decides   what
============ ========= ==================================================================
target       attacker  the division / task force (9.1), or the Invasion Force
intercept    defender  the CAP fighters that intercept, one at a time (9.2)
cap-fire               CAP fire; the attacker takes the hits (9.2(1)(3))
escort-fire            the escorts' fire; the defender takes the hits on its CAP (9.2(2))
aa                     anti-aircraft fire; hits on attack aircraft only (9.3)
assign       attacker  each attack aircraft to a carrier of the target (9.4)
attack                 the attack rolls and their damage (9.4(1)-(3), 9.6(2)(3))
runway       US        the runway box each base hit takes (9.6(2))
land         defender  where each interceptor lands (9.5(1); solitaire: 12.3(4)a)
return       attacker  the own division, task force or base the group returns to (9.5(2))
============ ========= ==================================================================

Losses (``lose``) are asked after each fire of the side that takes them, one step at a
time, only while the choice matters (9.2(3), 9.3(3)).
"""

from __future__ import annotations

from typing import Any

from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import area as A
from . import combat as C
from .area import Air, CarrierArea
from .common import (
    DIE,
    base_damage,
    base_display,
    const,
    division_carriers,
    divisions,
    hit_number,
    other,
    unit_stat,
)
from .moves import (
    Run,
    attackers_of,
    cap_box,
    fighters_of,
    return_displays,
    side_of,
    strike_targets,
)

STAGES = ("target", "intercept", "cap-fire", "escort-fire", "aa", "assign", "attack",
          "runway", "land", "return")


def begin(run: Run, gid: str, hex_id: str) -> None:
    """A group has flown into ``hex_id``: an attack starts if the hex holds a target."""
    units = run.area.group(gid)
    side = side_of(run.game, units[0])
    base_phase = run.op["kind"] == "base"
    targets = strike_targets(run, side, hex_id, base_phase)
    if not targets:
        return
    strike: dict[str, Any] = {
        "group": gid, "side": side, "hex": hex_id, "units": [u.uid for u in units],
        "launched": units[0].launched, "base": base_phase, "targets": targets,
        "target": targets[0] if len(targets) == 1 else None,
        "stage": "intercept" if len(targets) == 1 else "target",
        "cap": [], "cap_done": False, "assign": {}, "runway": [], "applied": 0,
        "losses": None, "landed": [], "hits": {}}
    run.set(strike=strike)
    if strike["target"]:
        run.say(f"group {gid} attacks {_target_name(run.game, strike['target'])}", "9.1")


def _target_name(game: Game, target: str) -> str:
    if target == C.INVASION:
        return "the Invasion Force"
    return next(d.name for d in game.displays if d.id == target)


def dice_text(count: int) -> str:
    """``1 die``, ``3 dice``."""
    return f"{count} {'die' if count == 1 else 'dice'}"


def defender(strike: dict[str, Any]) -> str:
    return other(strike["side"])


def alive(run: Run, uids: list[str]) -> list[Air]:
    present = {u.uid: u for u in run.area.units}
    return [present[u] for u in uids if u in present]


def cap_candidates(run: Run, strike: dict[str, Any]) -> list[Air]:
    """The fighters in the target's CAP box not yet intercepting (9.2)."""
    if strike["target"] == C.INVASION:
        return []
    box = cap_box(run.game, strike["target"])
    return [u for u in run.area.in_box(strike["target"], box) if u.uid not in strike["cap"]]


def proceed(run: Run) -> bool:
    """Run the attack's automatic stages up to the next decision (True: one is due) or its
    end (False: the attack is over and removed from ``data``)."""
    while True:
        strike = run.strike
        if strike is None:
            return False
        losses = strike.get("losses")
        if losses:
            if _losses(run, strike, losses):
                return True
            continue
        stage = strike["stage"]
        if STEPS[stage](run, strike):
            return True


def _save(run: Run, strike: dict[str, Any], **changes: Any) -> None:
    strike.update(changes)
    run.set(strike=strike)


def _target(run: Run, strike: dict[str, Any]) -> bool:
    if strike["target"] is None:
        run.due("target", strike["side"], group=strike["group"], targets=strike["targets"])
        return True
    _save(run, strike, stage="intercept")
    return False


def _intercept(run: Run, strike: dict[str, Any]) -> bool:
    if not strike["cap_done"] and cap_candidates(run, strike):
        run.due("intercept", defender(strike), group=strike["group"],
                target=strike["target"], intercepting=strike["cap"])
        return True
    _save(run, strike, stage="cap-fire")
    return False


def _fire(run: Run, shooters: list[Air], bonus: int, name: str) -> tuple[int, int]:
    """1d6 per fighter step, a hit at or below air-combat strength + ``bonus`` (9.2)."""
    hits = dice = 0
    for air in shooters:
        hit_on = hit_number(int(unit_stat(run.game, air.type, "air")) + bonus)
        for _ in range(air.steps):
            dice += 1
            hits += run.roll(DIE, name) <= hit_on
    return dice, hits


def _cap_fire(run: Run, strike: dict[str, Any]) -> bool:
    cap = alive(run, strike["cap"])
    if not cap:
        _save(run, strike, stage="aa")
        return False
    group = alive(run, strike["units"])
    bonus = 0 if fighters_of(run.game, group) else int(const(run.game, "cap-unescorted-bonus"))
    dice, hits = _fire(run, cap, bonus, "cap")
    run.say(f"CAP fire: {dice_text(dice)}, {hits} hit(s) on group {strike['group']}"
            + (" (no escort: +1)" if bonus else ""), "9.2(1)")
    _save(run, strike, stage="escort-fire",
          losses=_loss(strike["side"], group, hits, "9.2(3)"))
    return False


def _escort_fire(run: Run, strike: dict[str, Any]) -> bool:
    escorts = fighters_of(run.game, alive(run, strike["units"]))
    cap = alive(run, strike["cap"])
    if escorts and cap:
        dice, hits = _fire(run, escorts, 0, "escort")
        run.say(f"escort fire: {dice_text(dice)}, {hits} hit(s) on the CAP", "9.2(2)")
        _save(run, strike, losses=_loss(defender(strike), cap, hits, "9.2(3)"))
    _save(run, strike, stage="aa")
    return False


def _aa(run: Run, strike: dict[str, Any]) -> bool:
    group = alive(run, strike["units"])
    attackers = attackers_of(run.game, group)
    if not attackers:
        _save(run, strike, stage="land")
        return False
    count = C.aa_dice(run.game, run.area, strike["target"])
    hit_on = C.aa_hit_on(run.game, bool(fighters_of(run.game, group)))
    hits = sum(run.roll(DIE, "aa") <= hit_on for _ in range(count))
    run.say(f"anti-aircraft fire: {dice_text(count)} hitting on {hit_on} or less, {hits} hit(s)",
            "9.3", "9.3(2)")
    _save(run, strike, stage="assign", losses=_loss(strike["side"], attackers, hits, "9.3(3)"))
    return False


def _loss(side: str, pool: list[Air], hits: int, rule: str) -> dict[str, Any] | None:
    if hits <= 0 or not pool:
        return None
    return {"side": side, "pool": [u.uid for u in pool], "left": hits, "rule": rule}


def forced_loss(run: Run, losses: dict[str, Any]) -> str | None:
    """The unit that must lose the next step when the choice does not matter: one unit
    left, or hits enough to take every step."""
    pool = alive(run, losses["pool"])
    if len(pool) == 1 or losses["left"] >= sum(u.steps for u in pool):
        return pool[0].uid
    return None


def _losses(run: Run, strike: dict[str, Any], losses: dict[str, Any]) -> bool:
    pool = alive(run, losses["pool"])
    if losses["left"] <= 0 or not pool:
        _save(run, strike, losses=None)
        return False
    uid = forced_loss(run, losses)
    if uid is None:
        run.due("lose", losses["side"], hits=losses["left"],
                units=[u.uid for u in pool], rule=losses["rule"])
        return True
    take_step(run, strike, uid)
    return False


def take_step(run: Run, strike: dict[str, Any], uid: str) -> None:
    """One step off ``uid`` (a 2-step unit flips, a 1-step unit is eliminated, 2.2(4))."""
    losses = strike["losses"]
    air = run.area.unit(uid)
    run.put(A.lose_steps(run.area, uid))
    gone = "eliminated" if air.steps == 1 else "loses a step"
    run.say(f"{uid} {gone}", losses["rule"])
    losses["left"] -= 1
    _save(run, strike, losses=losses if losses["left"] > 0 else None)


def _assign(run: Run, strike: dict[str, Any]) -> bool:
    attackers = attackers_of(run.game, alive(run, strike["units"]))
    if not attackers:
        _save(run, strike, stage="land")
        return False
    if strike["target"] not in divisions(run.game, other(strike["side"])):
        _save(run, strike, stage="attack")
        return False
    options = assignable(run, strike)
    left = [u for u in attackers if u.uid not in strike["assign"]]
    if left and len(options) == 1:
        strike["assign"].update({u.uid: options[0] for u in left})
        left = []
    if left:
        run.due("assign", strike["side"], group=strike["group"], target=strike["target"],
                units=[u.uid for u in left], carriers=options)
        return True
    _save(run, strike, stage="attack")
    return False


def assignable(run: Run, strike: dict[str, Any]) -> list[str]:
    """The carriers afloat of the target division (9.4)."""
    return [c for c in division_carriers(run.game, strike["target"])
            if c not in run.area.sunk]


def _attack(run: Run, strike: dict[str, Any]) -> bool:
    """The attack rolls (9.4): one die per step at or below the modified attack strength."""
    game = run.game
    kind = C.target_kind(game, strike["target"])
    attackers = attackers_of(game, alive(run, strike["units"]))
    area = run.area
    loaded = {c: A.attack_aircraft_on_deck(game, area, c) for c in set(strike["assign"].values())}
    hits: dict[str, int] = {}
    for air in attackers:
        where = strike["assign"][air.uid] if kind == "carrier" else kind
        combined = kind == "carrier" and C._combined(game, air, strike["side"], attackers,
                                                     strike["assign"])
        number = C.attack_number(game, air, kind, loaded.get(where, False), combined)
        scored = sum(run.roll(DIE, "attack") <= number for _ in range(air.steps))
        hits[where] = hits.get(where, 0) + scored
        run.say(f"{air.uid} attacks {where}: {dice_text(air.steps)} hitting on {number} or less, "
                f"{scored} hit(s)", "9.4(1)" if kind == "carrier" else "9.4(3)")
    if kind == "carrier":
        for carrier_id, count in hits.items():
            for _ in range(count):
                _hit_carrier(run, carrier_id)
        _save(run, strike, stage="land", hits=hits)
        return False
    if kind == "invasion":
        before = run.area.invasion
        run.put(A.hit_invasion(run.area, hits.get("invasion", 0)))
        after = run.area.invasion
        if after != before:
            run.say(f"Invasion Force track {before} -> {after or 'X'}"
                    + (": the Invasion Force is destroyed" if after == 0 else ""),
                    "9.4(3)")
        _save(run, strike, stage="land", hits=hits)
        return False
    result = base_damage(game, area.garrison, area.base_hits_turn, hits.get("base", 0))
    if result["ignored"]:
        run.say(f"{result['ignored']} hit(s) on Midway void (at most "
                f"{const(game, 'base-hits-per-turn')} a turn, never below Garrison "
                f"{const(game, 'garrison-air-attack-floor')})", "9.6(3)")
    _save(run, strike, stage="runway", hits=hits, applied=result["applied"])
    return False


def _hit_carrier(run: Run, carrier_id: str) -> None:
    before = run.area
    after = A.hit_carrier(run.game, before, carrier_id, run.dice)
    run.put(after)
    if carrier_id in after.sunk and carrier_id not in before.sunk:
        run.say(f"{carrier_id} is sunk: the units on its deck and in its hangar are lost",
                "9.4(2)")
    elif carrier_id not in before.sunk:
        box = next(iter(after.damage - before.damage), ("", "?"))[1]
        run.say(f"{carrier_id} is hit: a damage marker on {box}", "9.4(2)")


def runway_choices(run: Run) -> list[str]:
    """The runway boxes a base hit may take (9.6(2)): the intact ones."""
    game = run.game
    return [b.id for d, b in A.deck_boxes(game, A.base_holder(game))
            if (d, b.id) not in run.area.damage]


def runway_matters(run: Run, strike: dict[str, Any]) -> bool:
    """Whether the US has a choice that matters: intact boxes left beyond the hits and a
    unit on one of them."""
    game = run.game
    left = [b for b in runway_choices(run) if b not in strike["runway"]]
    base = base_display(game).id
    wanted = strike["applied"] - len(strike["runway"])
    return wanted > 0 and len(left) > wanted and any(run.area.in_box(base, b) for b in left)


def _runway(run: Run, strike: dict[str, Any]) -> bool:
    game = run.game
    if runway_matters(run, strike):
        run.due("runway", "us", hits=strike["applied"] - len(strike["runway"]),
                boxes=[b for b in runway_choices(run) if b not in strike["runway"]])
        return True
    before = run.area
    after, applied = A.hit_base(game, before, strike["applied"], strike["runway"])
    run.put(after)
    if applied:
        lost = sorted(b for d, b in after.damage - before.damage)
        run.say(f"Midway takes {applied} hit(s): Garrison {before.garrison} -> "
                f"{after.garrison}, runway box(es) {', '.join(lost) or 'none left'} lost",
                "9.6(2)")
        if A.base_destroyed(game, after) and not A.base_destroyed(game, before):
            run.say("the base function is destroyed: the base hangar is emptied and "
                    "Midway searches no more", "9.6(2)")
    _save(run, strike, stage="land")
    return False


def landing_options(run: Run, strike: dict[str, Any], air: Air) -> list[tuple[str, str]]:
    """Where an interceptor may land (9.5(1)): along the arrows from its CAP box to a deck
    or hangar with room; the solitaire US fighters on the deck of any US carrier, the
    player's choice (12.3(4)a)."""
    game, area = run.game, run.area
    if run.solitaire and side_of(game, air) == "us":
        found = [(d, b.id) for d in divisions(game, "us") for c in division_carriers(game, d)
                 if c not in area.sunk for dd, b in A.deck_boxes(game, c)
                 if _fits(game, area, air, dd, b.id)]
        if found:
            return found
    target = strike["target"]
    arrows = [a.to for a in A.display(game, target).arrows if a.from_ == air.box]
    return [(target, b) for b in arrows
            if A.box(game, target, b).kind in ("deck", "runway", "hangar")
            and _fits(game, area, air, target, b)]


def _fits(game: Game, area: CarrierArea, air: Air, display_id: str, box_id: str) -> bool:
    try:
        A.check_place(game, area, air, display_id, box_id)
    except Exception:  # noqa: BLE001 - RuleViolation: the box cannot take it
        return False
    return True


def lander(run: Run, strike: dict[str, Any]) -> str:
    """Who chooses where the interceptors land: the defender; for the solitaire US, the
    player (12.3(4)a)."""
    side = defender(strike)
    return "japan" if run.solitaire and side == "us" else side


def _land(run: Run, strike: dict[str, Any]) -> bool:
    """9.5(1): interceptors land; with every carrier of the division sunk every fighter of
    its CAP box is lost (E17)."""
    game = run.game
    target = strike["target"]
    if target == C.INVASION:
        _save(run, strike, stage="return")
        return False
    if target in divisions(game, defender(strike)) and all(
            c in run.area.sunk for c in division_carriers(game, target)):
        box = cap_box(game, target)
        lost = [u.uid for u in run.area.in_box(target, box)]
        if lost:
            run.put(A.remove(run.area, lost))
            run.say(f"every carrier of {target} is sunk: its CAP fighters are lost "
                    f"({', '.join(lost)})", "9.5(1)")
        _save(run, strike, stage="return")
        return False
    waiting = [u for u in alive(run, strike["cap"]) if u.uid not in strike["landed"]
               and not u.airborne and A.box(game, u.display, u.box).kind == "cap"]
    for air in waiting:
        options = landing_options(run, strike, air)
        if len(options) > 1:
            run.due("land", lander(run, strike), unit=air.uid,
                    boxes=[f"{d}/{b}" for d, b in options])
            return True
        land(run, strike, air.uid, options[0] if options else None)
    _save(run, strike, stage="return")
    return False


def land(run: Run, strike: dict[str, Any], uid: str, where: tuple[str, str] | None) -> None:
    if where is None:
        run.put(A.remove(run.area, [uid]))
        run.say(f"{uid} finds no room to land and is lost", "9.5(1)", "8.3(3)")
    else:
        run.put(A.place(run.game, run.area, uid, *where))
        run.say(f"{uid} lands on {where[1]}", "9.5(1)")
    strike["landed"].append(uid)
    _save(run, strike)


def return_box(run: Run, strike: dict[str, Any]) -> str:
    """Return 1 after a base attack (9.6(5)) or an attack right after launch, else Return 2
    (9.5(2))."""
    if strike["target"] == base_display(run.game).id:
        case = "attacked-base"
    else:
        case = "attacked-on-launch" if strike["launched"] else "attacked-from-combat-area"
    return str(lookup(run.game.table("return-box"), case=case)["box"])


def _return(run: Run, strike: dict[str, Any]) -> bool:
    group = alive(run, strike["units"])
    if not group:
        finish(run, strike)
        return False
    options = return_displays(run, group, strike["side"])
    if len(options) > 1:
        run.due("return", strike["side"], group=strike["group"], displays=options)
        return True
    send_home(run, strike, options[0])
    return False


def send_home(run: Run, strike: dict[str, Any], display_id: str) -> None:
    box = return_box(run, strike)
    group = alive(run, strike["units"])
    run.put(C.send_to_return(run.game, run.area, [u.uid for u in group], display_id, box))
    run.say(f"group {strike['group']} returns to {display_id} {box}", "9.5(2)",
            *(("9.6(5)",) if strike["target"] == base_display(run.game).id else ()))
    finish(run, strike)


def finish(run: Run, strike: dict[str, Any]) -> None:
    """The attack is over; base-attack attackers are counted (6.4(3))."""
    run.set(strike=None)


STEPS = {"target": _target, "intercept": _intercept, "cap-fire": _cap_fire,
         "escort-fire": _escort_fire, "aa": _aa, "assign": _assign, "attack": _attack,
         "runway": _runway, "land": _land, "return": _return}
