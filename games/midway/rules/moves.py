"""What a player of Midway may do now: the decisions a session asks, a command's working
set (:class:`Run`), the arguments it reads and the checks that refuse what the rules
forbid, each naming its rule. The session (``session.py``) applies the commands; the
listings of legal answers (``choices.py``) are made of the same checks, so that every
answer listed is accepted.

``data`` of a position holds the turn's bookkeeping:

* ``declared``: the base-attack declaration of the turn (6.4(1)); ``base_ops`` and
  ``base_ops_done``: the base-attack air operations owed and flown (6.4(3)),
  ``base_attackers``: attack aircraft launched in them;
* ``plan``: the US plan of the turn (6.2(1), never shown to the Japanese), ``revealed``:
  the US fleet is on the map; ``moved``: the Japanese fleets moved this turn;
* ``search``: the cards played in the search phase and the sides asked (11.0(2));
* ``op``: the air operation going on: its ``side`` and ``kind`` (``air``, ``base``,
  ``night``), the units on deck at its start (8.4(1)), the groups in the combat area at
  its start (8.5), the units moved, the groups launched and not yet flown, the groups
  flown;
* ``strike``: the air attack going on (9.0-9.6, ``strikes.py``);
* ``card_taken``: the solitaire Japanese took their card instead of an air operation
  (12.3(7)); ``groups``: air groups formed so far (their ids ``g1``, ``g2`` ...);
* ``events``: what the players were told this turn and the last.
"""

from __future__ import annotations

import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import quote
from warpress.engine.model import Game
from warpress.engine.position import Pending, Position, freeze, thaw
from warpress.engine.referee import Announcement

from . import area as A
from . import combat as C
from . import movement as M
from .area import Air, CarrierArea
from .common import (
    air_displays,
    base_display,
    carrier,
    check_hex,
    const,
    display,
    distance,
    division_carriers,
    divisions,
    grid,
    is_attack,
    is_fighter,
    midway_hex,
    other,
    unit_side,
)
from .positions import (
    AOP,
    ICHIKOKAN,
    INVASION,
    US_FLEET,
    data,
    fleet_hex,
    hand,
    pile,
    to_area,
    with_area,
    with_data,
)

SIDES = ("japan", "us")
SOLITAIRE = "solitaire"
NEW = "new"

#: each decision: the actions that answer it and the rules behind it
KINDS: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = {
    "setup": (("place", "ready"), ("3.1(2)", "3.2(2)", "3.2(3)")),
    "declare": (("declare",), ("6.4(1)",)),
    "plan": (("plan",), ("6.2(1)", "3.2(1)")),
    "movement": (("sail", "end-move"), ("6.1", "6.3")),
    "air-op": (("move", "launch", "fly", "return", "reorganize", "take-card", "end-op"),
               ("8.2", "8.3", "8.4", "8.5")),
    "base-op": (("move", "launch", "fly", "return", "reorganize", "end-op"),
                ("6.4(3)", "8.2", "8.3", "8.4")),
    "night-op": (("move", "end-op"), ("10.2(2)d",)),
    "target": (("target",), ("9.1",)),
    "intercept": (("intercept", "pass"), ("9.2",)),
    "lose": (("lose",), ("9.2(3)", "9.3(3)")),
    "assign": (("assign",), ("9.4",)),
    "runway": (("runway",), ("9.6(2)",)),
    "land": (("land",), ("9.5(1)",)),
    "return": (("return",), ("9.5(2)", "9.5(3)")),
    "surface": (("hit",), ("10.1(2)",)),
    "search-card": (("play", "pass"), ("11.0(2)",)),
    "scuttle": (("play", "pass"), ("2.3", "4.2")),
}
#: actions of one side only
ONLY = {"declare": "japan", "sail": "japan", "plan": "us", "take-card": "japan",
        "hit": "japan"}


def awaiting(kind: str, side: str | None, solitaire: bool = False) -> list[str]:
    """The actions a decision accepts, by its kind and side only (never by a hand)."""
    names = [a for a in KINDS[kind][0] if ONLY.get(a, side) == side]
    if not solitaire:
        names = [a for a in names if a != "take-card"]
    return names


# --- one command's working set ---------------------------------------------------------


@dataclass
class Run:
    """A command's position as it changes, the dice of the step and what the players are
    told."""

    game: Game
    pos: Position
    dice: Dice | None = None
    said: list[Announcement] = field(default_factory=list)
    _cache: tuple[Position, CarrierArea] | None = field(default=None, repr=False)
    _thawed: tuple[Position, dict[str, str]] | None = field(default=None, repr=False)

    @property
    def area(self) -> CarrierArea:
        """The carrier area of the position now (made again once the position changed)."""
        if self._cache is None or self._cache[0] is not self.pos:
            self._cache = (self.pos, to_area(self.game, self.pos))
        return self._cache[1]

    def put(self, area: CarrierArea) -> None:
        self.pos = with_area(self.game, self.pos, area)

    def set(self, **values: Any) -> None:
        self.pos = with_data(self.pos, **values)

    def get(self, key: str, default: Any = None) -> Any:
        """A value of ``data`` as plain JSON values (a fresh copy, free to change)."""
        value = data(self.pos, key, default)
        if not isinstance(value, Mapping | tuple):
            return value
        if self._thawed is None or self._thawed[0] is not self.pos:
            self._thawed = (self.pos, {})
        held = self._thawed[1]
        if key not in held:
            held[key] = json.dumps(thaw(value))
        return json.loads(held[key])

    def say(self, text: str, *rules: str, **facts: Any) -> None:
        self.said.append(Announcement(self.pos.turn, self.pos.phase or "", text, rules,
                                      freeze(facts) if facts else {}))

    def due(self, kind: str, side: str, **values: Any) -> None:
        self.pos = replace(self.pos, side=side,
                           pending=(Pending(kind, side, KINDS[kind][1], freeze(values)),))

    def done(self) -> None:
        """The decision due is answered."""
        self.pos = replace(self.pos, pending=())

    @property
    def solitaire(self) -> bool:
        return self.pos.scenario == SOLITAIRE

    @property
    def night(self) -> bool:
        return self.pos.turn == const(self.game, "night-turn")

    def hand(self, side: str) -> tuple[str, ...]:
        return pile(self.pos, hand(side))

    def aop(self, side: str) -> int:
        return int(self.pos.tracks[AOP[side]])

    @property
    def op(self) -> dict[str, Any] | None:
        return self.get("op")

    @property
    def strike(self) -> dict[str, Any] | None:
        return self.get("strike")

    def roll(self, die: str, name: str) -> int:
        assert self.dice is not None
        return self.dice.roll(die, name)


# --- arguments ------------------------------------------------------------------------


def _hexes(game: Game, text: Any, what: str) -> list[str]:
    """Hexes typed ``F-4,E-3,D-3`` (or with arrows, ``F-4→E-3``)."""
    value = str(text or "").replace("→", ",").replace("->", ",")
    parts = [p.strip() for p in value.split(",") if p.strip()]
    if not parts:
        raise BadInput(f"{what} {quote(text)} names no hex (hexes like F-4, comma-separated)")
    return [check_hex(game, p, what) for p in parts]


def _one_of(value: Any, allowed: Sequence[str], what: str) -> str:
    text = str(value if value is not None else "").strip()
    if text not in allowed:
        raise BadInput(f"{what} {quote(text)} is not one of {', '.join(allowed)}")
    return text


def _unit_id(run: Run, text: Any, what: str) -> str:
    value = str(text or "").strip()
    ids = {p.id for p in run.pos.pieces if p.unit not in ("damage", ICHIKOKAN, INVASION,
                                                          US_FLEET)}
    if value not in ids:
        raise BadInput(f"{what} {quote(value)} is not an aircraft unit (ids like a6m-hiryu-1; "
                       f"`warpress play status` lists them)")
    return value


def _box_id(run: Run, text: Any, what: str) -> str:
    """A box typed ``DISPLAY/BOX`` or, for a carrier's boxes, ``BOX`` alone."""
    value = str(text or "").strip()
    boxes = all_boxes(run.game)
    if value in boxes:
        return value
    short = [b for b in boxes if b.split("/")[1] == value]
    if len(short) == 1:
        return short[0]
    raise BadInput(f"{what} {quote(value)} is not a box of the carrier area (like "
                   f"cardiv2/hiryu-hangar, hiryu-deck-front or tf16/cap)")


def all_boxes(game: Game) -> list[str]:
    return [f"{d.id}/{b.id}" for d in air_displays(game) for b in d.boxes
            if b.kind != "launch"]


def _display_id(game: Game, text: Any, what: str) -> str:
    ids = [d.id for d in air_displays(game)]
    return _one_of(text, ids, what)


def _target_id(game: Game, text: Any) -> str:
    allowed = [d.id for d in air_displays(game)] + [C.INVASION]
    return _one_of(text, allowed, "target")


def _carrier_id(game: Game, text: Any, what: str) -> str:
    value = str(text or "").strip()
    carrier(game, value)
    return value


def _card_id(game: Game, text: Any) -> str:
    value = str(text or "").strip()
    ids = [c.id for c in game.cards]
    if value.isdigit() and len(value) == 1:
        value = f"0{value}"
    return _one_of(value, ids, "card")


def _group(run: Run, text: Any) -> str:
    value = str(text or "").strip()
    if value == NEW or value in groups_in_air(run.area):
        return value
    forming = (run.op or {}).get("forming", {})
    if value in forming:
        return value
    found = ", ".join(sorted(groups_in_air(run.area))) or "none"
    raise BadInput(f"group {quote(value)} is not an air group in flight (groups: {found}; "
                   f"'{NEW}' forms a new one)")


#: each action's arguments, read in order
ARGS: dict[str, dict[str, str]] = {
    "place": {"unit": "unit", "box": "box"}, "ready": {},
    "declare": {"attack": "yes-no"}, "plan": {"route": "hexes"},
    "sail": {"fleet": "fleet", "path": "hexes"}, "end-move": {},
    "move": {"unit": "unit", "box": "box"}, "launch": {"unit": "unit", "group": "group"},
    "fly": {"group": "group", "hex": "hex"}, "return": {"group": "group", "to": "display"},
    "reorganize": {"unit": "unit", "other": "unit"}, "take-card": {}, "end-op": {},
    "target": {"target": "target"}, "intercept": {"unit": "unit"}, "pass": {},
    "lose": {"unit": "unit"}, "assign": {"unit": "unit", "carrier": "carrier"},
    "runway": {"box": "box"}, "land": {"unit": "unit", "box": "box"},
    "hit": {"target": "hit-target"}, "play": {"card": "card"},
}


def parse(run: Run, command: str, args: Mapping[str, Any]) -> dict[str, Any]:
    """The arguments of ``command`` read (BadInput names the one that is wrong): bad input
    is told before any rule, whatever the decision due."""
    game = run.game
    kinds = ARGS[command]
    unknown = sorted(set(args) - set(kinds))
    if unknown:
        raise BadInput(f"{command}: no argument {quote(unknown[0])} "
                       f"(arguments: {', '.join(kinds) or 'none'})")
    out: dict[str, Any] = {}
    for key, what in kinds.items():
        value = args.get(key)
        if value is None:
            raise BadInput(f"{command}: missing argument {key}")
        if what == "unit":
            out[key] = _unit_id(run, value, key)
        elif what == "box":
            out[key] = _box_id(run, value, key)
        elif what == "hexes":
            out[key] = _hexes(game, value, key)
        elif what == "hex":
            out[key] = check_hex(game, str(value).strip(), key)
        elif what == "fleet":
            out[key] = _one_of(value, (ICHIKOKAN, INVASION), key)
        elif what == "yes-no":
            out[key] = _one_of(str(value).lower(), ("yes", "no"), key) == "yes"
        elif what == "group":
            out[key] = _group(run, value)
        elif what == "display":
            out[key] = _display_id(game, value, key)
        elif what == "target":
            out[key] = _target_id(game, value)
        elif what == "carrier":
            out[key] = _carrier_id(game, value, key)
        elif what == "hit-target":
            value = str(value).strip()
            out[key] = value if value == C.INVASION else _carrier_id(game, value, key)
        elif what == "card":
            out[key] = _card_id(game, value)
    return out


# --- the carrier area -------------------------------------------------------------------


def groups_in_air(area: CarrierArea) -> dict[str, tuple[Air, ...]]:
    """Every air group in the combat area, by id."""
    out: dict[str, list[Air]] = {}
    for air in area.units:
        if air.airborne and air.group:
            out.setdefault(air.group, []).append(air)
    return {k: tuple(v) for k, v in sorted(out.items(), key=lambda kv: _group_order(kv[0]))}


def _group_order(gid: str) -> tuple[int, str]:
    return (int(gid[1:]) if gid[1:].isdigit() else 0, gid)


def side_of(game: Game, air: Air) -> str:
    return unit_side(game, air.type)


def afloat(area: CarrierArea, game: Game, side: str) -> list[str]:
    """The carriers of a side not sunk, in data order."""
    return [c for d in divisions(game, side) for c in division_carriers(game, d)
            if c not in area.sunk]


def origin_hex(run: Run, air: Air) -> str:
    """Where a unit launching from its deck (or the base runway) starts: its fleet's hex
    or Midway (8.4(1))."""
    holder = A.box(run.game, air.display, air.box).holds
    if A.is_base(run.game, holder):
        return midway_hex(run.game)
    fleet_id = ICHIKOKAN if side_of(run.game, air) == "japan" else US_FLEET
    found = fleet_hex(run.pos, fleet_id)
    if found is None:
        raise RuleViolation("8.4(1)", f"{air.uid}'s fleet is not on the map")
    return found


def target_hexes(run: Run, side: str, base_phase: bool) -> list[str]:
    """The hexes a group of ``side`` may attack now (8.4(4), 8.5(3)): the enemy fleets with
    a carrier afloat or the Invasion Force afloat; for the Japanese Midway, and only Midway,
    in the base-attack phase (6.4, E16); for the solitaire US the 1st Air Fleet only
    (12.3(4)e)."""
    game, area = run.game, run.area
    if side == "japan":
        if base_phase:
            return [midway_hex(game)]
        found = fleet_hex(run.pos, US_FLEET)
        return [found] if found and afloat(area, game, "us") else []
    out = []
    main = fleet_hex(run.pos, ICHIKOKAN)
    if main and afloat(area, game, "japan"):
        out.append(main)
    if run.solitaire:  # 12.3(4)e: the solitaire US always goes for the 1st Air Fleet
        return out
    invasion = fleet_hex(run.pos, INVASION)
    if invasion and area.invasion >= 1:
        out.append(invasion)
    return out


def strike_targets(run: Run, side: str, hex_id: str, base_phase: bool) -> list[str]:
    """What a group of ``side`` in ``hex_id`` may attack: the divisions or task forces with a
    carrier afloat (9.1), the Invasion Force, or Midway base."""
    game, area = run.game, run.area
    if side == "japan" and base_phase:
        return [base_display(game).id] if hex_id == midway_hex(game) else []
    out = []
    enemy = (US_FLEET,) if side == "japan" else (
        (ICHIKOKAN,) if run.solitaire else (ICHIKOKAN, INVASION))
    for fleet_id in enemy:
        if fleet_hex(run.pos, fleet_id) != hex_id:
            continue
        if fleet_id == INVASION:
            if area.invasion >= 1:
                out.append(C.INVASION)
            continue
        out += [d for d in divisions(game, other(side))
                if any(c not in area.sunk for c in division_carriers(game, d))]
    return out


def group_reach(run: Run, gid: str) -> int:
    """Hexes a group may fly now: the launch move if launched in this operation (8.4(1)),
    else its slowest unit's allowance (8.5(1)(2))."""
    if gid in (run.op or {}).get("forming", {}):
        return int(const(run.game, "launch-move"))
    return C.group_move(run.game, run.area.group(gid))


def group_hex(run: Run, gid: str) -> str:
    return run.area.group(gid)[0].box


def reachable_targets(run: Run, gid: str) -> list[str]:
    """The target hexes within the group's reach."""
    op = run.op or {}
    units = run.area.group(gid)
    side = side_of(run.game, units[0])
    here, reach = units[0].box, group_reach(run, gid)
    return [h for h in target_hexes(run, side, op.get("kind") == "base")
            if distance(run.game, here, h) <= reach]


def return_displays(run: Run, units: Sequence[Air], side: str) -> list[str]:
    """The own displays a group may return to (8.5(3), 9.5(2)(3)): a division or task force
    with a carrier afloat, or, for US units, Midway base while its function lasts (land-based
    units only there); in solitaire every US group goes to TF16 (12.3(4)d)."""
    game, area = run.game, run.area
    base = base_display(game).id
    if side == "us" and run.solitaire:
        return [str(const(game, "solitaire-us-return-task-force"))]
    if any(u.home == "land" for u in units):
        return [base]
    out = [d for d in divisions(game, side)
           if any(c not in area.sunk for c in division_carriers(game, d))]
    if side == "us" and not A.base_destroyed(game, area):
        out.append(base)
    return out or list(divisions(game, side))


# --- checks of an air operation ---------------------------------------------------------


def check_op_unit(run: Run, uid: str, rule: str = "8.2") -> Air:
    """A unit of the flying side that has not moved in this air operation."""
    op = run.op
    air = run.area.unit(uid)
    if side_of(run.game, air) != op["side"]:
        raise RuleViolation(rule, f"{uid} is not a {op['side']} unit")
    if uid in op["moved"]:
        raise RuleViolation("8.2", f"{uid} has already moved in this air operation")
    return air


def check_move(run: Run, uid: str, box: str) -> CarrierArea:
    """One box along an arrow of the carrier area (8.3; at night step d only from a hangar
    to the deck of the same carrier or the division's CAP box, 10.2(2)d)."""
    air = check_op_unit(run, uid, "8.3")
    if air.airborne:
        raise RuleViolation("8.3", f"{uid} is in the combat area, not in the carrier area")
    display_id, box_id = box.split("/")
    if display_id != air.display:
        raise RuleViolation("8.3", f"{uid} is in {air.display}: no arrow leads to {box}")
    night = run.op["kind"] == "night"
    if night and A.box(run.game, air.display, air.box).kind != "hangar":
        raise RuleViolation("10.2(2)d", f"at night only units in a hangar move, not {uid}")
    return A.move(run.game, run.area, uid, box_id, night=night)


def check_reorganize(run: Run, keep: str, merge: str) -> CarrierArea:
    """8.3(4): two 1-step units of one type in one box become one 2-step unit, in their
    owner's air operation (timing not stated: any time in it), never the solitaire US
    (12.3(4)f)."""
    op = run.op
    for uid in (keep, merge):
        air = check_op_unit(run, uid, "8.3(4)")
        if air.airborne:
            raise RuleViolation("8.3(4)", f"{uid} is in the combat area")
    if run.solitaire and op["side"] == "us":
        raise RuleViolation("12.3(4)f", "the solitaire US never reorganizes")
    return A.reorganize(run.game, run.area, keep, merge)


def check_launch(run: Run, uid: str, gid: str, new: bool) -> tuple[CarrierArea, str]:
    """Launch a unit from the deck (or the runway) into a group forming in this operation
    (8.4(1)-(3)): only units on deck when the operation began; a new group starts with an
    attack aircraft (9.0: a group of fighters alone attacks nothing; ruling E29)."""
    op = run.op
    game = run.game
    if op["kind"] == "night":
        raise RuleViolation("10.2(2)d", "no launches on the night turn")
    air = check_op_unit(run, uid, "8.4(1)")
    if uid not in op["deck"]:
        raise RuleViolation("8.4(1)", f"{uid} was not on a flight deck or runway when this air "
                                      f"operation began: only those units launch")
    forming = op["forming"]
    if new:
        if not is_attack(game, air.type):
            raise RuleViolation("9.0", f"{uid} is a fighter: a new group starts with an attack "
                                       f"aircraft (fighters alone attack nothing; E29)")
        members: list[Air] = []
    elif gid not in forming:
        raise RuleViolation("8.4(2)", f"group {gid} is already in flight: its composition "
                                      f"cannot change")
    else:
        members = list(run.area.group(gid))
    holder = str(A.box(game, air.display, air.box).holds)
    if new and side_of(game, air) == "us" and holder in op.get("launched_from", []):
        raise RuleViolation("8.4(2)", f"units launched together from {holder} form one group: "
                                      f"{uid} joins it")
    holders = set(forming.get(gid, {}).get("holders", []))
    holders.add(holder)
    C._check_group_size(game, [*members, air], holders)
    start = origin_hex(run, air)
    if members and members[0].box != start:
        raise RuleViolation("8.4(3)", f"{uid} launches from {start}, group {gid} from "
                                      f"{members[0].box}")
    area = A.put(run.area, replace(air, display=A.COMBAT_AREA, box=start, group=gid,
                                   launched=True))
    return area, str(A.box(game, air.display, air.box).holds)


def check_fly(run: Run, gid: str, hex_id: str) -> CarrierArea:
    """A group flies (8.4(1), 8.5): within its reach; to a target hex when one is in reach
    (8.4(4), 8.5(3)); a group that began the operation in the combat area with no target
    in reach returns instead (``return``)."""
    op = run.op
    if op["kind"] == "night":
        raise RuleViolation("10.2(2)d", "no flights on the night turn")
    units = run.area.group(gid)
    if not units:
        raise BadInput(f"no air group {quote(gid)} in the combat area")
    if side_of(run.game, units[0]) != op["side"]:
        raise RuleViolation("8.2", f"group {gid} is not a {op['side']} group")
    if gid in op["flown"]:
        raise RuleViolation("8.2", f"group {gid} has already moved in this air operation")
    if gid not in op["due"] and gid not in op["forming"]:
        raise RuleViolation("8.2", f"group {gid} is not in flight")
    targets = reachable_targets(run, gid)
    if targets and hex_id not in targets:
        raise RuleViolation("8.5(3)" if gid in op["due"] else "8.4(4)",
                            f"group {gid} has a target in reach ({', '.join(targets)}): it "
                            f"must fly there and attack, not to {hex_id}")
    if not targets and gid in op["due"]:
        raise RuleViolation("8.5(3)", f"group {gid} has no target in reach: it returns to a "
                                      f"Return 2 box (return {gid} DISPLAY)")
    return C.fly(run.game, run.area, gid, hex_id, just_launched=gid in op["forming"])


def check_return(run: Run, gid: str, display_id: str) -> CarrierArea:
    """A group that began the operation in the combat area with no target in reach goes to
    Return 2 of an own fleet (8.5(3))."""
    op = run.op
    units = run.area.group(gid)
    if not units:
        raise BadInput(f"no air group {quote(gid)} in the combat area")
    side = side_of(run.game, units[0])
    if side != op["side"] or gid not in op["due"] or gid in op["flown"]:
        raise RuleViolation("8.5(3)", f"group {gid} does not move now")
    if reachable_targets(run, gid):
        raise RuleViolation("8.5(3)", f"group {gid} has a target in reach: it must attack")
    allowed = return_displays(run, units, side)
    if display_id not in allowed:
        raise RuleViolation("8.5(3)", f"group {gid} returns to {', '.join(allowed)}, not "
                                      f"{display_id}")
    return C.no_target(run.game, run.area, gid, display_id)


def check_end_op(run: Run) -> None:
    """Every group in flight has moved (8.5; a group launched now has flown, 8.4(1)); the
    first base-attack operation launched an attack aircraft (6.4(3))."""
    op = run.op
    left = [g for g in [*op["due"], *op["forming"]] if g not in op["flown"]]
    if left:
        raise RuleViolation("8.5", f"group {left[0]} must move first (fly or return)")
    if op["kind"] == "base" and run.get("base_ops_done", 0) == 0 \
            and not run.get("base_attackers", 0):
        raise RuleViolation("6.4(3)", "a declared base attack is made now: at least one attack "
                                      "aircraft launches against Midway")


def check_take_card(run: Run) -> None:
    """12.3(7): once per game the solitaire Japanese take a card instead of an air
    operation."""
    op = run.op
    if not run.solitaire or op["side"] != "japan" or op["kind"] != "air":
        raise RuleViolation("12.3(7)", "only the solitaire Japanese take a card, instead of an "
                                       "air operation")
    if run.get("card_taken"):
        raise RuleViolation("12.3(7)", "the Japanese took their card already (once per game)")
    if op["moved"] or op["flown"] or op["forming"]:
        raise RuleViolation("12.3(7)", "the card is taken instead of the air operation, "
                                       "before anything moves in it")
    if not pile(run.pos, "deck"):
        raise RuleViolation("12.3(7)", "the deck holds no card")


# --- set-up (two-player) ----------------------------------------------------------------


def check_place(run: Run, side: str, uid: str, box: str) -> CarrierArea:
    """3.1(2), 3.2(2)(3): a side places its units freely on their carrier's deck or hangar
    or their division's CAP (fighters), base units on the runway, in the base hangar or
    the base CAP; the limits hold."""
    game = run.game
    air = run.area.unit(uid)
    if side_of(game, air) != side:
        raise RuleViolation("3.1(2)" if side == "japan" else "3.2(2)",
                            f"{uid} is not a {side} unit")
    display_id, box_id = box.split("/")
    target = A.box(game, display_id, box_id)
    piece = run.pos.piece(uid)
    home = piece.props.get("carrier")
    own = display_id == air.display and (target.kind == "cap" or target.holds == home)
    if not own or target.kind not in ("deck", "runway", "hangar", "cap"):
        raise RuleViolation("3.1(2)" if side == "japan" else "3.2(2)",
                            f"{uid} starts on {home}'s deck or hangar or in its division's "
                            f"CAP box, not {box}")
    return A.place(game, run.area, uid, display_id, box_id)


# --- the US plan ------------------------------------------------------------------------


def check_plan(run: Run, route: Sequence[str]) -> list[str]:
    """The US plan (6.2(1)): from the fleet's hex (on Turn 1 the start hex, columns F-H, not
    Midway, 3.2(1)) along adjacent hexes, within the allowance, never through Midway; the
    refusals never quote the route (the plan is secret until executed)."""
    game = run.game
    start = fleet_hex(run.pos, US_FLEET)
    if start is None:
        column = grid(game).columns[grid(game).coords(route[0])[0]]
        if column not in const(game, "us-start-columns") or route[0] == midway_hex(game):
            raise RuleViolation("3.2(1)", f"the US fleet starts in column "
                                          f"{', '.join(const(game, 'us-start-columns'))}, not "
                                          f"on Midway")
    elif route[0] != start:
        raise RuleViolation("6.2(1)", "a plan starts at the US fleet's hex")
    try:
        return M.check_path(game, "us-fleet", route, run.pos.turn)
    except RuleViolation as exc:
        raise RuleViolation(exc.rule, _plan_problem(exc.rule)) from None


def _plan_problem(rule: str) -> str:
    return {"6.1": "a step of the plan is not to an adjacent hex",
            "6.1(2)": "no fleet may enter or pass through Midway",
            "6.1(1)": "the plan is longer than the fleet's allowance this turn"}.get(
        rule, "the plan breaks the movement rules")


# --- the Japanese fleets ----------------------------------------------------------------


def check_sail(run: Run, fleet_id: str, path: Sequence[str]) -> list[str]:
    """A Japanese fleet's move (6.1, 6.3): each fleet moves once a phase; entering at its
    entry hexes (1 hex of movement); the Invasion Force from Turn 4; not ending with the
    other Japanese fleet (6.1(2)) nor, by day, in the US fleet's hex (6.1(4), E30)."""
    game = run.game
    if fleet_id in run.get("moved", []):
        raise RuleViolation("6.1", f"{fleet_id} has moved this turn")
    piece = run.pos.piece(fleet_id)
    entering = piece.kind != "hex"
    if fleet_id == INVASION and run.pos.turn < const(game, "invasion-force-entry-turn"):
        raise RuleViolation("6.3(1)", "the Invasion Force enters on Turn "
                                      f"{const(game, 'invasion-force-entry-turn')}")
    if piece.kind == "eliminated":
        raise RuleViolation("6.1(3)", "the Invasion Force is destroyed")
    if not entering and path[0] != piece.place:
        raise RuleViolation("6.1", f"{fleet_id} is in {piece.place}: a path starts there, not "
                                   f"at {path[0]}")
    hexes = M.check_path(game, "ichikokan" if fleet_id == ICHIKOKAN else "invasion-force",
                         path, run.pos.turn, entering=entering)
    end = hexes[-1]
    partner = INVASION if fleet_id == ICHIKOKAN else ICHIKOKAN
    M.check_japanese_ends(end, fleet_hex(run.pos, partner))
    us = fleet_hex(run.pos, US_FLEET)
    if not run.night and us is not None and end == us:
        raise RuleViolation("6.1(4)", f"the US fleet is in {end}: no day surface battle, a "
                                      f"Japanese fleet does not end there (E30)")
    if fleet_id == ICHIKOKAN and run.get("declared"):
        M.check_base_attack_end(game, end)
    return hexes


def check_end_move(run: Run) -> None:
    """The Japanese movement ends: a fleet due to enter has entered (6.3(1)); after a
    declared base attack the 1st Air Fleet is within range (6.4(2)); by day no Japanese
    fleet is in the US fleet's hex (6.1(4), E30: after the night they may share one)."""
    game = run.game
    main = run.pos.piece(ICHIKOKAN)
    if main.kind != "hex":
        raise RuleViolation("6.3(1)", "the 1st Air Fleet enters this turn at "
                                      f"{', '.join(M.entry_hexes(game, ICHIKOKAN))}")
    invasion = run.pos.piece(INVASION)
    if invasion.kind == "track" and run.pos.turn >= const(game, "invasion-force-entry-turn"):
        raise RuleViolation("6.3(1)", "the Invasion Force enters this turn at "
                                      f"{', '.join(M.entry_hexes(game, INVASION))}")
    if run.get("declared"):
        M.check_base_attack_end(game, main.place)
    us = fleet_hex(run.pos, US_FLEET)
    for fleet_id in (ICHIKOKAN, INVASION):
        if not run.night and us is not None and fleet_hex(run.pos, fleet_id) == us:
            raise RuleViolation("6.1(4)", f"the {fleet_id} is in the US fleet's hex {us}: no "
                                          f"day surface battle, it moves out (E30)")


def fighters_of(game: Game, units: Sequence[Air]) -> list[Air]:
    return [u for u in units if is_fighter(game, u.type)]


def attackers_of(game: Game, units: Sequence[Air]) -> list[Air]:
    return [u for u in units if is_attack(game, u.type)]



def cap_box(game: Game, display_id: str) -> str:
    return next(b.id for b in display(game, display_id).boxes if b.kind == "cap")
