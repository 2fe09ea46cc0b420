"""Launches and air strikes (8.4, 9.0-9.6): target, CAP, escort, anti-aircraft, attack, return.

``air_strike`` resolves one group's attack on a carrier division / task force,
the base or the Invasion Force over a :class:`~.area.CarrierArea` and returns the
new state with a :class:`StrikeReport`. The per-roll numbers come from the
tables ``aa-dice``, ``aa-hit``, ``attack-modifier``, ``carrier-damage`` and
``return-box`` and from the units' stats.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from warpress.engine.dice import Dice
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import area as A
from .area import Air, CarrierArea
from .common import (
    DIE,
    base_display,
    check_hex,
    const,
    display,
    distance,
    division_carriers,
    divisions,
    hit_number,
    is_attack,
    is_dive_bomber,
    is_fighter,
    other,
    unit_side,
    unit_stat,
    violation,
)

INVASION = "invasion"

#: The rules and errata a strike on each kind of target follows.
STRIKE_RULES = {
    "carrier": ("9.1", "9.2", "9.3", "9.4(1)", "9.4(2)", "9.5"),
    "base": ("6.4", "9.2", "9.3(1)", "9.4(3)", "9.6"),
    "invasion": ("9.3(1)", "9.4(3)", "9.5"),
}
STRIKE_ERRATA = {"carrier": ("E17", "E25"), "base": ("E7", "E14", "E16", "E23"),
                 "invasion": ()}

#: ``losses(units, hits) -> uids``: who loses each step (the receiving player's choice).
Losses = Callable[[Sequence[Air], int], list[str]]


def in_order(units: Sequence[Air], hits: int) -> list[str]:
    """Default loss choice: steps come off the units in the order given, one unit at a time."""
    sequence = [u.uid for u in units for _ in range(u.steps)]
    return sequence[:hits]


# --------------------------------------------------------------------------- launch (8.4)


def launch(game: Game, state: CarrierArea, uids: Sequence[str], hex_id: str, group: str, *,
           night: bool = False) -> CarrierArea:
    """Launch units from decks/runway into the combat area as one air group (8.4(1)-(3)).

    No launches on the night turn (10.2(2)d). Group size: Japanese up to
    ``group-size-japan`` across carriers (air rendezvous); a US carrier group up to
    ``group-size-us-carrier`` from one carrier; a base group up to ``group-size-us-base``.
    """
    if night and not const(game, "night-launch-allowed"):
        raise violation("10.2(2)d", "no launches on the night turn")
    units = [state.unit(u) for u in uids]
    if not units:
        raise violation("8.4(2)", "a group needs at least one unit")
    holders = {_deck_holder(game, u) for u in units}
    _check_group_size(game, units, holders)
    for air in units:
        state = A.put(state, replace(air, display=A.COMBAT_AREA, box=hex_id, group=group,
                                      launched=True))
    return state


def _deck_holder(game: Game, air: Air) -> str:
    """The carrier (or base) whose deck ``air`` stands on; only deck units launch."""
    target = A.box(game, air.display, air.box) if not air.airborne else None
    if target is None or target.kind not in ("deck", "runway"):
        raise violation("8.4(1)", f"{air.uid} is not on a flight deck or runway: only units on "
                                  f"deck at the start of the air operation may launch")
    return str(target.holds)


def _check_group_size(game: Game, units: Sequence[Air], holders: set[str]) -> None:
    """Group limits of 8.4(2)(3): one side, one carrier for the US, the sizes."""
    sides = {unit_side(game, u.type) for u in units}
    if len(sides) != 1:
        raise violation("8.4(2)", "a group holds one side's units")
    if sides == {"japan"}:
        limit, rule = const(game, "group-size-japan"), "8.4(3)"
    elif any(A.is_base(game, h) for h in holders):
        limit, rule = const(game, "group-size-us-base"), "8.4(3)"
        if len(holders) != 1:
            raise violation("8.4(2)", "a base group cannot take carrier aircraft")
    else:
        limit, rule = const(game, "group-size-us-carrier"), "8.4(2)"
        if len(holders) != 1:
            raise violation("8.4(2)", f"a US carrier group launches from one carrier, not "
                                      f"{', '.join(sorted(holders))}")
    if len(units) > limit:
        raise violation(rule, f"a group of {len(units)} units; at most {limit}")


def group_move(game: Game, units: Sequence[Air]) -> int:
    """A group's movement allowance: the lowest of its units' (8.5(2))."""
    return min(int(unit_stat(game, u.type, "move")) for u in units)


def fly(game: Game, state: CarrierArea, group: str, to_hex: str, *,
        just_launched: bool = False) -> CarrierArea:
    """Move an air group in the combat area (8.4(1), 8.5(1)(2)).

    A group launched in this operation moves up to ``launch-move`` hexes whatever
    its printed allowance; a group that started the operation in the combat area
    moves up to its slowest unit's allowance, and is no longer "just launched"
    (it returns to Return 2 after attacking, 9.5(2)). The launch move is "up to"
    2 hexes (E15).
    """
    units = state.group(group)
    if not units:
        raise violation("8.5", f"no air group {group!r} in the combat area")
    check_hex(game, to_hex, "to_hex")
    reach = const(game, "launch-move") if just_launched else group_move(game, units)
    dist = distance(game, units[0].box, to_hex)
    if dist > reach:
        rule = "8.4(1)" if just_launched else "8.5(2)"
        raise violation(rule, f"group {group} moves {dist} hexes; at most {reach}")
    for air in units:
        state = A.put(state, replace(air, box=to_hex, launched=just_launched and air.launched))
    return state


def no_target(game: Game, state: CarrierArea, group: str, display_id: str) -> CarrierArea:
    """A group with no target in range goes straight to Return 2 of an own fleet (8.5(3))."""
    box_id = str(lookup(game.table("return-box"), case="no-target")["box"])
    return send_to_return(game, state, [u.uid for u in state.group(group)], display_id, box_id)


# --------------------------------------------------------------------------- the strike


@dataclass(frozen=True)
class Strike:
    """One air attack: the group, its target and the players' choices made before rolling.

    ``target`` is a division / task force display id, the base display id or
    ``invasion``; ``assign`` maps each attack unit to a carrier of the target
    division (9.4); ``cap`` lists the intercepting CAP fighters (9.2);
    ``return_to`` is the own display whose return box the survivors use (9.5(2));
    ``cap_return`` maps an interceptor to the (display, box) it lands in (9.5(1));
    ``runway_boxes`` are the runway boxes the US gives up to base hits (9.6(2)).
    """

    group: tuple[str, ...]
    target: str
    assign: Mapping[str, str] = field(default_factory=dict)
    cap: tuple[str, ...] = ()
    base_attack_phase: bool = False
    return_to: str | None = None
    cap_return: Mapping[str, tuple[str, str]] = field(default_factory=dict)
    runway_boxes: tuple[str, ...] = ()


@dataclass(frozen=True)
class StrikeReport:
    """What happened, step by step."""

    cap_hits: int = 0
    escort_hits: int = 0
    aa_dice: int = 0
    aa_hits: int = 0
    attack_hits: Mapping[str, int] = field(default_factory=dict)
    base_hits_applied: int = 0
    sunk: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    rules: tuple[str, ...] = ()
    errata: tuple[str, ...] = ()


def air_strike(game: Game, state: CarrierArea, strike: Strike, dice: Dice, *,
               attacker_losses: Losses = in_order,
               defender_losses: Losses = in_order) -> tuple[CarrierArea, StrikeReport]:
    """Resolve one air attack end to end (9.1-9.6) and return the new state and a report."""
    side = check_strike(game, state, strike)
    before_sunk, before_removed = state.sunk, {u.uid for u in state.removed}
    state, cap_hits, escort_hits = intercept(game, state, strike, dice,
                                             attacker_losses, defender_losses)
    state, aa_dice, aa_hits = anti_aircraft(game, state, strike, dice, attacker_losses)
    state, hits, applied = attack(game, state, strike, side, dice)
    state = return_home(game, state, strike, side)
    report = StrikeReport(
        cap_hits=cap_hits, escort_hits=escort_hits, aa_dice=aa_dice, aa_hits=aa_hits,
        attack_hits=hits, base_hits_applied=applied,
        sunk=tuple(sorted(state.sunk - before_sunk)),
        removed=tuple(u.uid for u in state.removed if u.uid not in before_removed),
        rules=STRIKE_RULES[target_kind(game, strike.target)],
        errata=STRIKE_ERRATA[target_kind(game, strike.target)],
    )
    return state, report


def check_strike(game: Game, state: CarrierArea, strike: Strike) -> str:
    """Check the group, target, assignments and interceptors before any roll; return the side."""
    units = [state.unit(u) for u in strike.group]
    if not units or any(not u.airborne for u in units):
        raise violation("9.0", "only a group in the combat area attacks")
    if len({u.group for u in units}) != 1 or len({u.box for u in units}) != 1:
        raise violation("8.4(2)", "the units of one strike form one group in one hex")
    sides = {unit_side(game, u.type) for u in units}
    side = sides.pop()
    if not any(is_attack(game, u.type) for u in units):
        raise violation("9.0", "fighters alone cannot attack a fleet or the base")
    _check_target(game, state, strike, side)
    _check_assignments(game, state, strike, units)
    _check_interceptors(game, state, strike, side)
    return side


def _check_target(game: Game, state: CarrierArea, strike: Strike, side: str) -> None:
    """The target is an enemy division / task force, the base or the Invasion Force."""
    base = base_display(game).id
    if strike.target == INVASION:
        if side != "us" or state.invasion < 1:
            raise violation("9.4(3)", "only the US attacks the Invasion Force, while it is afloat")
        return
    if strike.target == base:
        if side != "japan":
            raise violation("9.1", "the US does not attack its own base")
        if not strike.base_attack_phase:  # E16: Midway is "no target" in the air-ops phase
            raise violation("6.4", "the Japanese may attack Midway only in the base-attack "
                                   "phase, never in the air operations phase")
        return
    if strike.target not in divisions(game, other(side)):
        allowed = ", ".join((*divisions(game, other(side)), base, INVASION))
        raise violation("9.1", f"target {strike.target!r} is not an enemy division or task "
                               f"force ({allowed})")
    if all(c in state.sunk for c in division_carriers(game, strike.target)):
        raise violation("9.1", f"every carrier of {strike.target} is sunk")
    if strike.base_attack_phase:
        raise violation("6.4", "the base-attack phase attacks only Midway")


def _check_assignments(game: Game, state: CarrierArea, strike: Strike,
                       units: Sequence[Air]) -> None:
    """Every attack unit is assigned to a carrier afloat in the target (9.4)."""
    if strike.target not in divisions(game, "japan") + divisions(game, "us"):
        return
    allowed = [c for c in division_carriers(game, strike.target) if c not in state.sunk]
    for air in units:
        if not is_attack(game, air.type):
            continue
        target = strike.assign.get(air.uid)
        if target not in allowed:
            raise violation("9.4", f"assign {air.uid} to a carrier of {strike.target} before "
                                   f"rolling ({', '.join(allowed)}), not {target!r}")


def _check_interceptors(game: Game, state: CarrierArea, strike: Strike, side: str) -> None:
    """Only fighters in the target's CAP box intercept (9.2)."""
    if not strike.cap:
        return
    if strike.target == INVASION:
        raise violation("9.2", "the Invasion Force has no CAP")
    for uid in strike.cap:
        air = state.unit(uid)
        kind = A.box(game, air.display, air.box).kind if not air.airborne else None
        if air.display != strike.target or kind != "cap":
            raise violation("9.2", f"{uid} is not in the CAP box of {strike.target}: only the "
                                   f"target's CAP intercepts")


# --------------------------------------------------------------------------- steps


def _alive(state: CarrierArea, uids: Sequence[str]) -> list[Air]:
    """The units of ``uids`` still in play."""
    present = {u.uid: u for u in state.units}
    return [present[u] for u in uids if u in present]


def _fighters(game: Game, units: Sequence[Air]) -> list[Air]:
    """The fighters among ``units``."""
    return [u for u in units if is_fighter(game, u.type)]


def _attackers(game: Game, units: Sequence[Air]) -> list[Air]:
    """The attack aircraft among ``units``."""
    return [u for u in units if is_attack(game, u.type)]


def _fire(game: Game, shooters: Sequence[Air], bonus: int, dice: Dice, name: str) -> int:
    """1d6 per fighter step; each roll at or below air-combat (+bonus) is a hit (9.2)."""
    hits = 0
    for air in shooters:
        hit_on = hit_number(int(unit_stat(game, air.type, "air")) + bonus)
        hits += sum(dice.roll(DIE, name) <= hit_on for _ in range(air.steps))
    return hits


def _apply_losses(state: CarrierArea, units: Sequence[Air], hits: int, choose: Losses
                  ) -> CarrierArea:
    """Take ``hits`` steps from ``units``, chosen by the receiving player."""
    hits = min(hits, sum(u.steps for u in units))
    for uid in choose(units, hits)[:hits]:
        state = A.lose_steps(state, uid)
    return state


def intercept(game: Game, state: CarrierArea, strike: Strike, dice: Dice,
              attacker_losses: Losses, defender_losses: Losses) -> tuple[CarrierArea, int, int]:
    """CAP fire, then the surviving escorts' fire (9.2(1)(2))."""
    cap = _alive(state, strike.cap)
    if not cap:
        return state, 0, 0
    group = _alive(state, strike.group)
    bonus = 0 if _fighters(game, group) else const(game, "cap-unescorted-bonus")
    cap_hits = _fire(game, cap, bonus, dice, "cap")
    state = _apply_losses(state, group, cap_hits, attacker_losses)
    escorts = _fighters(game, _alive(state, strike.group))
    escort_hits = _fire(game, escorts, 0, dice, "escort")
    state = _apply_losses(state, _alive(state, strike.cap), escort_hits, defender_losses)
    return state, cap_hits, escort_hits


def aa_dice(game: Game, state: CarrierArea, target: str) -> int:
    """Anti-aircraft dice of the target (9.3): per carrier by status, or the track value."""
    if target == INVASION:
        return state.invasion
    if target == base_display(game).id:
        return state.garrison
    table = game.table("aa-dice")
    return sum(int(lookup(table, carrier=s)["dice"])
               for s in A.division_status(game, state, target).values())


def aa_hit_on(game: Game, escorted: bool) -> int:
    """The highest AA die that hits: 1, or 2 with no fighter left in the group (9.3(2))."""
    return int(lookup(game.table("aa-hit"), escorted=escorted)["hit_on"])


def anti_aircraft(game: Game, state: CarrierArea, strike: Strike, dice: Dice,
                  attacker_losses: Losses) -> tuple[CarrierArea, int, int]:
    """Anti-aircraft fire; hits fall on attack aircraft only (9.3(3))."""
    group = _alive(state, strike.group)
    count = aa_dice(game, state, strike.target)
    hit_on = aa_hit_on(game, bool(_fighters(game, group)))
    hits = sum(dice.roll(DIE, "aa") <= hit_on for _ in range(count))
    state = _apply_losses(state, _attackers(game, group), hits, attacker_losses)
    return state, count, hits


def target_kind(game: Game, target: str) -> str:
    """carrier, base or invasion: the ``target`` key of the attack-modifier table."""
    if target == INVASION:
        return "invasion"
    return "base" if target == base_display(game).id else "carrier"


def attack_number(game: Game, air: Air, kind: str, deck_loaded: bool, combined: bool) -> int:
    """The hit number of one attack unit: attack strength + modifiers (9.4(1), 9.6(2))."""
    row = lookup(game.table("attack-modifier"), target=kind,
                 dive_bomber=is_dive_bomber(game, air.type), deck_loaded=deck_loaded,
                 combined=combined)
    return hit_number(int(unit_stat(game, air.type, "attack")) + int(row["modifier"]))


def _combined(game: Game, air: Air, side: str, attackers: Sequence[Air],
              assign: Mapping[str, str]) -> bool:
    """A Japanese non-dive-bomber (B5N) attacking a carrier a dive bomber (D3A) also attacks."""
    if side != "japan" or is_dive_bomber(game, air.type):
        return False
    return any(is_dive_bomber(game, o.type) and assign.get(o.uid) == assign.get(air.uid)
               for o in attackers)


def attack(game: Game, state: CarrierArea, strike: Strike, side: str, dice: Dice
           ) -> tuple[CarrierArea, dict[str, int], int]:
    """The attack rolls (9.4) and their effect: carrier damage, track moves, base hits."""
    kind = target_kind(game, strike.target)
    attackers = _attackers(game, _alive(state, strike.group))
    loaded = {c: A.attack_aircraft_on_deck(game, state, c)
              for c in set(strike.assign.values())} if kind == "carrier" else {}
    hits: dict[str, int] = {}
    for air in attackers:
        where = strike.assign[air.uid] if kind == "carrier" else kind
        number = attack_number(game, air, kind, loaded.get(where, False),
                               kind == "carrier" and _combined(game, air, side, attackers,
                                                               strike.assign))
        scored = sum(dice.roll(DIE, "attack") <= number for _ in range(air.steps))
        hits[where] = hits.get(where, 0) + scored
    applied = 0
    if kind == "carrier":
        for carrier_id, count in hits.items():
            for _ in range(count):
                state = A.hit_carrier(game, state, carrier_id, dice)
    elif kind == "base":
        state, applied = A.hit_base(game, state, hits.get("base", 0), strike.runway_boxes)
    else:
        state = A.hit_invasion(state, hits.get("invasion", 0))
    return state, hits, applied


# --------------------------------------------------------------------------- return (9.5)


def return_case(game: Game, strike: Strike, launched: bool) -> str:
    """The return-box table's case for the group."""
    if strike.target == base_display(game).id:
        return "attacked-base"  # 9.6(5) applies after base attacks only (E14)
    return "attacked-on-launch" if launched else "attacked-from-combat-area"


def return_home(game: Game, state: CarrierArea, strike: Strike, side: str) -> CarrierArea:
    """Interceptors land (9.5(1), E17); the group goes to a Return box (9.5(2), 9.6(5))."""
    state = _land_cap(game, state, strike)
    group = _alive(state, strike.group)
    if not group:
        return state
    case = return_case(game, strike, group[0].launched)
    box_id = str(lookup(game.table("return-box"), case=case)["box"])
    target = strike.return_to or default_return(game, state, group, side)
    return send_to_return(game, state, [u.uid for u in group], target, box_id)


def default_return(game: Game, state: CarrierArea, group: Sequence[Air], side: str) -> str:
    """A display to return to: the base for land-based units, else the first own division."""
    if any(u.home == "land" for u in group):
        return base_display(game).id
    for division in divisions(game, side):
        if any(c not in state.sunk for c in division_carriers(game, division)):
            return division
    return divisions(game, side)[0]


def send_to_return(game: Game, state: CarrierArea, uids: Sequence[str], display_id: str,
                   box_id: str) -> CarrierArea:
    """Put airborne units in a Return box of an own display (8.5(3), 9.5(2)(3))."""
    for uid in uids:
        air = state.unit(uid)
        if display(game, display_id).side != unit_side(game, air.type):
            raise violation("9.5(2)", f"{uid} returns to an own division, task force or base")
        state = A.place(game, state, uid, display_id, box_id)
    return state


def _land_cap(game: Game, state: CarrierArea, strike: Strike) -> CarrierArea:
    """Interceptors land on a deck or hangar of the target, or are removed (9.5(1), E17)."""
    if strike.target == INVASION:
        return state
    if strike.target != base_display(game).id and all(
            c in state.sunk for c in division_carriers(game, strike.target)):
        # every CAP fighter, those that did not intercept (or none did) included (E17)
        everyone = [u for u in state.units if u.display == strike.target
                    and A.box(game, u.display, u.box).kind == "cap"]
        return A.remove(state, [u.uid for u in everyone])
    for air in _alive(state, strike.cap):
        chosen = strike.cap_return.get(air.uid)
        if chosen is not None:
            state = A.place(game, state, air.uid, *chosen)
            continue
        options = [(strike.target, a.to) for a in display(game, strike.target).arrows
                   if a.from_ == air.box
                   and (strike.target, a.to) in A.legal_targets(game, state, air,
                                                                 [strike.target],
                                                                 ["deck", "runway", "hangar"])]
        state = (A.place(game, state, air.uid, *options[0]) if options
                 else A.remove(state, [air.uid]))
    return state
