"""The carrier area (2.1(2), 8.3, 9.4(2), 9.6) as an explicit frozen state.

``CarrierArea`` holds every aircraft unit in play with its box (display and box
ids from the game's ``displays``), the damage markers, sunk carriers, the
Midway Garrison and Invasion Force tracks and the base hits. Every transition
is a pure function ``(game, state, ...) -> new state``; an illegal move raises
``RuleViolation`` naming the rule. Capacities come from the constants
(``deck-capacity``, ``carrier-capacity``, ``runway-capacity``, ``base-capacity``),
the legal moves from the displays' arrows.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field, replace

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Box, Game
from warpress.engine.tables import lookup

from .common import (
    DIE,
    air_displays,
    base_damage,
    base_display,
    const,
    die_min,
    display,
    division_carriers,
    is_attack,
    is_fighter,
    is_land_based,
    track_start,
    unit,
    unit_side,
    violation,
)

COMBAT_AREA = "combat-area"
NIGHT_ONLY_RULE = "10.2(2)d"


@dataclass(frozen=True)
class Air:
    """One aircraft unit in play: its type, steps and where it is.

    ``display``/``box`` are ids of the game's displays (a division, a task force
    or the base), or ``combat-area`` and a hex id for a group in flight.
    ``home`` is ``carrier`` or ``land`` (8.3(4), 9.5(3)).
    """

    uid: str
    type: str
    steps: int
    display: str
    box: str
    home: str = "carrier"
    group: str | None = None
    launched: bool = False

    @property
    def airborne(self) -> bool:
        """The unit is in the combat area (in an air group)."""
        return self.display == COMBAT_AREA


@dataclass(frozen=True)
class CarrierArea:
    """Both sides' carrier areas, the base and the two tracks (frozen)."""

    units: tuple[Air, ...] = ()
    damage: frozenset[tuple[str, str]] = frozenset()
    sunk: frozenset[str] = frozenset()
    garrison: int = 0
    invasion: int = 0
    base_hits: int = 0
    base_hits_turn: int = 0
    removed: tuple[Air, ...] = field(default=(), compare=False)

    def unit(self, uid: str) -> Air:
        """The unit ``uid`` in play, else BadInput."""
        for item in self.units:
            if item.uid == uid:
                return item
        raise BadInput(f"no aircraft unit {uid!r} in play (units: "
                       f"{', '.join(u.uid for u in self.units) or 'none'})")

    def in_box(self, display_id: str, box_id: str) -> tuple[Air, ...]:
        """The units in one box."""
        return tuple(u for u in self.units if u.display == display_id and u.box == box_id)

    def group(self, group_id: str) -> tuple[Air, ...]:
        """The units of an air group in flight."""
        return tuple(u for u in self.units if u.airborne and u.group == group_id)


def new_area(game: Game, units: Iterable[Air] = (), **kwargs) -> CarrierArea:
    """A carrier area with the tracks at their start values (3.3), checked."""
    values = {"garrison": track_start(game, "garrison"),
              "invasion": track_start(game, "invasion-force")}
    values.update(kwargs)
    state = CarrierArea(units=tuple(units), **values)
    check_state(game, state)
    return state


def make_unit(game: Game, uid: str, type_id: str, display_id: str, box_id: str,
              steps: int | None = None) -> Air:
    """An aircraft unit of a type the game has, at full steps unless given (2.2(4))."""
    spec = unit(game, type_id)
    if spec.type == "fleet":
        raise BadInput(f"unit type {type_id!r} is a fleet, not an aircraft unit")
    full = spec.steps or 1
    steps = full if steps is None else steps
    if not 1 <= steps <= full:
        raise BadInput(f"steps={steps} is not allowed for {type_id} (1..{full})")
    home = "land" if is_land_based(game, type_id) else "carrier"
    return Air(uid, type_id, steps, display_id, box_id, home)


# --------------------------------------------------------------------------- boxes


def box(game: Game, display_id: str, box_id: str) -> Box:
    """A box of a carrier-area display; an unknown id is BadInput."""
    return display(game, display_id).box(box_id)


def holder_boxes(game: Game, holder: str) -> tuple[tuple[str, Box], ...]:
    """(display, box) of the deck/runway boxes and hangar of one carrier or the base."""
    return tuple((d.id, b) for d in air_displays(game) for b in d.boxes if b.holds == holder)


def deck_boxes(game: Game, holder: str) -> tuple[tuple[str, Box], ...]:
    """(display, box) of the deck boxes of a carrier, or the runway boxes of the base."""
    return tuple((d, b) for d, b in holder_boxes(game, holder) if b.kind in ("deck", "runway"))


def hangar_box(game: Game, holder: str) -> tuple[str, Box]:
    """(display, box) of the hangar of a carrier or the base."""
    (found,) = [(d, b) for d, b in holder_boxes(game, holder) if b.kind == "hangar"]
    return found


def base_holder(game: Game) -> str:
    """The ``holds`` id of the base boxes (``midway``)."""
    return next(b.holds for b in base_display(game).boxes if b.holds)


def is_base(game: Game, holder: str | None) -> bool:
    """Whether ``holder`` is Midway base (not a carrier)."""
    return holder is not None and holder == base_holder(game)


def capacity(game: Game, holder: str) -> int:
    """Units a carrier (deck + hangar) or the base (runway + hangar) may hold (8.3(3), 9.6(1))."""
    return const(game, "base-capacity" if is_base(game, holder) else "carrier-capacity")


def deck_limit(game: Game, holder: str) -> int:
    """Units on a carrier's deck or the base runway (8.3(5), 9.6(1))."""
    return const(game, "runway-capacity" if is_base(game, holder) else "deck-capacity")


def aboard(game: Game, state: CarrierArea, holder: str) -> tuple[Air, ...]:
    """Units on the deck/runway or in the hangar of one carrier or the base."""
    places = {(d, b.id) for d, b in holder_boxes(game, holder)}
    return tuple(u for u in state.units if (u.display, u.box) in places)


def on_deck(game: Game, state: CarrierArea, holder: str) -> tuple[Air, ...]:
    """Units on the deck (or the base runway) of ``holder``."""
    places = {(d, b.id) for d, b in deck_boxes(game, holder)}
    return tuple(u for u in state.units if (u.display, u.box) in places)


def damaged_boxes(game: Game, state: CarrierArea, holder: str) -> tuple[str, ...]:
    """Deck or runway boxes of ``holder`` with a damage marker."""
    return tuple(b.id for d, b in deck_boxes(game, holder) if (d, b.id) in state.damage)


def status(game: Game, state: CarrierArea, carrier_id: str) -> str:
    """``intact``, ``damaged`` or ``sunk`` (9.3, 9.4(2))."""
    if carrier_id in state.sunk:
        return "sunk"
    return "damaged" if damaged_boxes(game, state, carrier_id) else "intact"


def base_destroyed(game: Game, state: CarrierArea) -> bool:
    """The base function is destroyed after ``base-function-destroyed-hits`` hits (9.6(2))."""
    return state.base_hits >= const(game, "base-function-destroyed-hits")


# --------------------------------------------------------------------------- legality


def check_place(game: Game, state: CarrierArea, air: Air, display_id: str, box_id: str) -> None:
    """Raise RuleViolation unless ``air`` may stand in that box now (8.3, 9.4(2), 9.6)."""
    target = box(game, display_id, box_id)
    owner = display(game, display_id).side
    if owner != unit_side(game, air.type):
        raise violation("8.3", f"{air.uid} ({air.type}) cannot use the {owner} display "
                               f"{display_id!r}")
    if target.kind == "launch":
        raise violation("8.4(1)", f"{air.uid}: {box_id!r} is the way to the combat area, not a box")
    if air.home == "land" and display_id != base_display(game).id:
        raise violation("9.5(3)", f"{air.uid} is a land-based unit: it never goes to a carrier")
    if target.kind == "cap":
        if not is_fighter(game, air.type):
            raise violation("8.3(2)", f"{air.uid} ({air.type}) is not a fighter: only fighters "
                                      f"may enter the CAP box")
        return
    if target.kind == "return":
        return
    _check_holder(game, state, air, display_id, target)


def _check_holder(game: Game, state: CarrierArea, air: Air, display_id: str, target: Box) -> None:
    """Raise unless ``holder`` (carrier or base) can take ``air`` in ``target`` now."""
    holder = target.holds
    if holder in state.sunk:
        raise violation("9.4(2)", f"{holder} is sunk: {air.uid} cannot go there")
    if is_base(game, holder) and base_destroyed(game, state):
        raise violation("9.6(2)", f"the base function is destroyed: {air.uid} cannot use "
                                  f"{target.id!r}")
    others = [u for u in aboard(game, state, holder) if u.uid != air.uid]
    limit = capacity(game, holder)
    if len(others) >= limit:
        rule = "9.6(1)" if is_base(game, holder) else "8.3(3)"
        raise violation(rule, f"{holder} already holds {len(others)} units (at most {limit})")
    if target.kind in ("deck", "runway"):
        if (display_id, target.id) in state.damage:
            raise violation("9.4(2)", f"{target.id!r} has a damage marker: it is unusable")
        if any(u.uid != air.uid for u in state.in_box(display_id, target.id)):
            raise violation("8.3(5)", f"{target.id!r} already has a unit (one per deck box, "
                                      f"{deck_limit(game, holder)} on the deck)")


def check_state(game: Game, state: CarrierArea) -> None:
    """Raise RuleViolation if ``state`` breaks a standing limit (the invariants of 8.3, 9.6)."""
    full = const(game, "unit-steps-max")
    for air in state.units:
        if not 1 <= air.steps <= full:
            raise violation("2.2(4)", f"{air.uid} has {air.steps} steps (1..{full})")
        if not air.airborne:
            box(game, air.display, air.box)
            if air.home == "land" and air.display != base_display(game).id:
                raise violation("9.5(3)", f"land-based {air.uid} is in {air.display}")
    for d in air_displays(game):
        for b in d.boxes:
            if b.kind == "cap" and any(not is_fighter(game, u.type)
                                       for u in state.in_box(d.id, b.id)):
                raise violation("8.3(2)", f"a non-fighter is in the CAP box of {d.id}")
    for holder in {b.holds for d in air_displays(game) for b in d.boxes if b.holds}:
        _check_holder_limits(game, state, holder)
    if state.base_hits_turn > const(game, "base-hits-per-turn"):
        raise violation("9.6(3)", f"{state.base_hits_turn} base hits this turn")
    if state.garrison < const(game, "garrison-air-attack-floor"):
        raise violation("9.6(3)", f"Garrison {state.garrison} is below the air-attack floor")


def _check_holder_limits(game: Game, state: CarrierArea, holder: str) -> None:
    """Raise if a carrier or the base breaks its capacity or deck limits."""
    units = aboard(game, state, holder)
    if holder in state.sunk and units:
        raise violation("9.4(2)", f"sunk {holder} still holds {joined_ids(units)}")
    if len(units) > capacity(game, holder):
        rule = "9.6(1)" if is_base(game, holder) else "8.3(3)"
        raise violation(rule, f"{holder} holds {len(units)} units (at most "
                              f"{capacity(game, holder)})")
    deck = on_deck(game, state, holder)
    free = len(deck_boxes(game, holder)) - len(damaged_boxes(game, state, holder))
    if len(deck) > min(free, deck_limit(game, holder)):
        raise violation("8.3(5)", f"{holder} has {len(deck)} units on deck, {free} usable boxes")
    for d, b in deck_boxes(game, holder):
        inside = state.in_box(d, b.id)
        if len(inside) > (b.capacity or 1) or (inside and (d, b.id) in state.damage):
            raise violation("8.3(5)", f"box {b.id!r} holds {joined_ids(inside)}")


def joined_ids(units: Iterable[Air]) -> str:
    """Unit ids for messages."""
    return ", ".join(u.uid for u in units) or "nothing"


# --------------------------------------------------------------------------- transitions


def put(state: CarrierArea, air: Air) -> CarrierArea:
    """``state`` with ``air`` replacing the unit of the same uid (no checks)."""
    units = tuple(air if u.uid == air.uid else u for u in state.units)
    return replace(state, units=units)


def place(game: Game, state: CarrierArea, uid: str, display_id: str, box_id: str) -> CarrierArea:
    """Put a unit in a box (setup, or where a rule moves it directly), checking the limits."""
    air = state.unit(uid)
    check_place(game, state, air, display_id, box_id)
    return put(state, replace(air, display=display_id, box=box_id, group=None, launched=False))


def arrow_exists(game: Game, display_id: str, src: str, dst: str, night: bool = False) -> bool:
    """Whether an arrow leads from box ``src`` to ``dst`` (night-only arrows only at night)."""
    for arrow in display(game, display_id).arrows:
        if arrow.from_ == src and arrow.to == dst:
            return night or NIGHT_ONLY_RULE not in arrow.rule
    return False


def move(game: Game, state: CarrierArea, uid: str, box_id: str, *,
         night: bool = False) -> CarrierArea:
    """Move a unit one box along an arrow of its display (8.3), checking the limits."""
    air = state.unit(uid)
    if air.airborne:
        raise violation("8.3", f"{uid} is in the combat area, not in the carrier area")
    if not arrow_exists(game, air.display, air.box, box_id, night):
        raise violation("8.3", f"no arrow leads from {air.box!r} to {box_id!r} in {air.display}")
    return place(game, state, uid, air.display, box_id)


def remove(state: CarrierArea, uids: Iterable[str]) -> CarrierArea:
    """Take units out of play (eliminated or removed from the game)."""
    gone = set(uids)
    kept = tuple(u for u in state.units if u.uid not in gone)
    out = tuple(u for u in state.units if u.uid in gone)
    return replace(state, units=kept, removed=state.removed + out)


def lose_steps(state: CarrierArea, uid: str, steps: int = 1) -> CarrierArea:
    """A unit loses steps (a 2-step unit flips); at 0 steps it is eliminated (2.2(4))."""
    air = state.unit(uid)
    if air.steps <= steps:
        return remove(state, [uid])
    return put(state, replace(air, steps=air.steps - steps))


def reorganize(game: Game, state: CarrierArea, keep: str, merge: str) -> CarrierArea:
    """Combine two 1-step units of one type in one box into a 2-step unit (8.3(4), E24)."""
    a, b = state.unit(keep), state.unit(merge)
    if keep == merge:
        raise violation("8.3(4)", f"{keep} cannot be combined with itself")
    if a.type != b.type:
        raise violation("8.3(4)", f"{a.uid} ({a.type}) and {b.uid} ({b.type}) are of different "
                                  f"types: they cannot be combined")
    if a.home != b.home:
        raise violation("8.3(4)", "carrier-based and land-based units cannot be combined")
    if (a.display, a.box) != (b.display, b.box):
        raise violation("8.3(4)", f"{a.uid} and {b.uid} are not in the same box")
    full = unit(game, a.type).steps or 1
    if a.steps != 1 or b.steps != 1 or full < 2:
        raise violation("8.3(4)", "only two 1-step units of a 2-step type can be combined")
    merged = replace(a, steps=a.steps + b.steps)
    return remove(put(state, merged), [merge])


# --------------------------------------------------------------------------- forced moves


Chooser = Callable[[Air, Sequence[tuple[str, str]]], tuple[str, str]]


def first_choice(_air: Air, options: Sequence[tuple[str, str]]) -> tuple[str, str]:
    """Default choice among legal boxes: the first, in the data's arrow order."""
    return options[0]


def legal_targets(game: Game, state: CarrierArea, air: Air, displays: Sequence[str],
                  kinds: Iterable[str], night: bool = False) -> list[tuple[str, str]]:
    """Boxes of the given kinds in ``displays`` that ``air`` may enter now."""
    kinds = tuple(kinds)
    found = []
    for display_id in displays:
        for b in display(game, display_id).boxes:
            if b.kind not in kinds:
                continue
            try:
                check_place(game, state, air, display_id, b.id)
            except RuleViolation:
                continue
            found.append((display_id, b.id))
    return found


def hangars_from_return(game: Game, display_id: str) -> list[str]:
    """The hangars the Return 1 arrows of a display lead to (8.3(1))."""
    src = return_box(game, display_id, 1)
    return [a.to for a in display(game, display_id).arrows if a.from_ == src]


def return_box(game: Game, display_id: str, number: int) -> str:
    """Box id of Return 1 or Return 2 of a display."""
    boxes = [b.id for b in display(game, display_id).boxes if b.kind == "return"]
    wanted = f"return-{number}"
    if wanted not in boxes:
        raise BadInput(f"display {display_id!r} has no {wanted} box")
    return wanted


def advance_returns(game: Game, state: CarrierArea, side: str,
                    choose: Chooser = first_choice) -> CarrierArea:
    """The forced moves of an air operation (8.3(1)(3)): Return 1 -> a hangar, Return 2 -> Return 1.

    A unit in Return 1 that no carrier of its display can take (all full or
    sunk) is removed from the game (8.3(3)). Each unit moves once.
    """
    return operation_moves(game, state, side, (), choose)


def operation_moves(game: Game, state: CarrierArea, side: str,
                    moves: Sequence[tuple[str, str]] = (),
                    choose: Chooser = first_choice) -> CarrierArea:
    """The carrier-area part of one air operation (8.2, 8.3): each unit moves at most once.

    ``moves`` lists (unit, box) moves along the arrows, in the order made; a unit
    in Return 1 may be sent to the hangar of its choice here. Every unit left in
    a Return box then makes its forced move (8.3(1)); a Return 2 unit can only go
    to Return 1. A unit named twice, or of the other side, is a violation.
    """
    seen: set[str] = set()
    for uid, box_id in moves:
        air = state.unit(uid)
        if uid in seen:
            raise violation("8.2", f"{uid} already moved in this air operation")
        if unit_side(game, air.type) != side:
            raise violation("8.2", f"{uid} is not a {side} unit")
        seen.add(uid)
        state = move(game, state, uid, box_id)
    forced = [u for u in state.units if u.uid not in seen and not u.airborne
              and box(game, u.display, u.box).kind == "return"
              and unit_side(game, u.type) == side]
    return _forced(game, state, forced, choose)


def _forced(game: Game, state: CarrierArea, units: Sequence[Air],
            choose: Chooser) -> CarrierArea:
    """The forced moves of the given Return-box units (8.3(1)(3)), Return 1 first."""
    ones = [u for u in units if u.box == return_box(game, u.display, 1)]
    twos = [u for u in units if u.box == return_box(game, u.display, 2)]
    for air in ones:
        options = [(air.display, h) for h in hangars_from_return(game, air.display)
                   if (air.display, h) in legal_targets(game, state, air, [air.display],
                                                        ["hangar"])]
        state = place(game, state, air.uid, *choose(air, options)) if options \
            else remove(state, [air.uid])
    for air in twos:
        state = place(game, state, air.uid, air.display, return_box(game, air.display, 1))
    return state


# --------------------------------------------------------------------------- damage


def deck_box_for(game: Game, holder: str, label: str) -> tuple[str, str]:
    """The deck box a carrier-damage result names (``front``/``rear``)."""
    for d, b in deck_boxes(game, holder):
        if b.id.endswith(f"-{label}"):
            return d, b.id
    raise BadInput(f"{holder} has no {label!r} deck box")


def hit_carrier(game: Game, state: CarrierArea, carrier_id: str, dice: Dice,
                name: str = "hit_location") -> CarrierArea:
    """One hit on a carrier (9.4(2)): a damage marker on a random deck box, or sunk.

    An undamaged carrier rolls on the carrier-damage table for the box; the unit
    on it is removed. A carrier already damaged sinks: every unit on its deck and
    in its hangar is removed. A hit on a sunk carrier has no effect (9.4).
    """
    if carrier_id in state.sunk:
        return state
    damaged = bool(damaged_boxes(game, state, carrier_id))
    table = game.table("carrier-damage")
    if damaged:
        row = lookup(table, damaged=True, roll=die_min())
        if row["sunk"]:
            return sink(game, state, carrier_id)
    free = [(d, b.id) for d, b in deck_boxes(game, carrier_id) if (d, b.id) not in state.damage]
    if len(free) == 1:
        target = free[0]
    else:
        row = lookup(table, damaged=False, roll=dice.roll(DIE, name))
        target = deck_box_for(game, carrier_id, str(row["box"]))
    state = remove(state, [u.uid for u in state.in_box(*target)])
    return replace(state, damage=state.damage | {target})


def sink(game: Game, state: CarrierArea, carrier_id: str) -> CarrierArea:
    """A carrier sinks: its deck and hangar units are removed, its marker flipped (9.4(2))."""
    state = remove(state, [u.uid for u in aboard(game, state, carrier_id)])
    return replace(state, sunk=state.sunk | {carrier_id})


def hit_base(game: Game, state: CarrierArea, hits: int,
             boxes: Sequence[str] = ()) -> tuple[CarrierArea, int]:
    """Apply air hits to Midway (9.6(2)(3)); return the new state and the hits applied.

    Each applied hit moves the Garrison 1 left and costs a runway box of the US's
    choice (``boxes``; by default empty boxes first), removing a unit on it; after
    the third hit in total the hangar's units are removed too. A hit with no runway
    box left only moves the track (E23).
    """
    result = base_damage(game, state.garrison, state.base_hits_turn, hits)
    applied = result["applied"]
    chosen = list(boxes)
    for _ in range(applied):
        state = _lose_runway_box(game, state, chosen)
    state = replace(state, garrison=result["garrison"], base_hits=state.base_hits + applied,
                    base_hits_turn=state.base_hits_turn + applied)
    if base_destroyed(game, state):
        hangar = hangar_box(game, base_holder(game))
        state = remove(state, [u.uid for u in state.in_box(hangar[0], hangar[1].id)])
    return state, applied


def _lose_runway_box(game: Game, state: CarrierArea, chosen: list[str]) -> CarrierArea:
    """Put a damage marker on a runway box (the US's choice, else an empty one first)."""
    left = [(d, b.id) for d, b in deck_boxes(game, base_holder(game))
            if (d, b.id) not in state.damage]
    if not left:
        return state
    if chosen:
        wanted = chosen.pop(0)
        matches = [p for p in left if p[1] == wanted]
        if not matches:
            raise violation("9.6(2)", f"runway box {wanted!r} is not an intact runway box "
                                      f"(intact: {', '.join(p[1] for p in left)})")
        target = matches[0]
    else:
        target = sorted(left, key=lambda p: bool(state.in_box(*p)))[0]
    state = remove(state, [u.uid for u in state.in_box(*target)])
    return replace(state, damage=state.damage | {target})


def hit_invasion(state: CarrierArea, hits: int) -> CarrierArea:
    """Each hit moves the Invasion Force marker 1 box left; at X (0) it is destroyed (9.4(3))."""
    return replace(state, invasion=max(0, state.invasion - hits))


def new_turn(state: CarrierArea) -> CarrierArea:
    """Start a turn: the base-hit count of the turn is reset (9.6(3))."""
    return replace(state, base_hits_turn=0)


def division_status(game: Game, state: CarrierArea, division: str) -> dict[str, str]:
    """Status of each carrier of a division / task force."""
    return {c: status(game, state, c) for c in division_carriers(game, division)}


def attack_aircraft_on_deck(game: Game, state: CarrierArea, holder: str) -> bool:
    """At least one attack aircraft on this carrier's deck (9.4(1), E25)."""
    return any(is_attack(game, u.type) for u in on_deck(game, state, holder))
