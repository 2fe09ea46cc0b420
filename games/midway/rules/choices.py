"""The legal answers of each decision of a Midway session, grouped into options (one per
unit, per fleet, per group ...), made of the checks of ``moves.py`` so that every answer
listed is accepted; the prompt of a decision, from public facts only.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from itertools import combinations
from typing import Any

from warpress.engine.decisions import Action, Option
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.position import Pending

from . import area as A
from . import movement as M
from . import strikes
from .common import const, grid, midway_hex
from .flow import can_declare, search_card_holders, surface_targets
from .moves import (
    NEW,
    Run,
    check_end_move,
    check_end_op,
    check_fly,
    check_launch,
    check_move,
    check_place,
    check_plan,
    check_reorganize,
    check_return,
    check_sail,
    check_take_card,
    group_hex,
    group_reach,
    groups_in_air,
    reachable_targets,
    return_displays,
    side_of,
)
from .positions import ICHIKOKAN, INVASION, US_FLEET, fleet_hex

PLAYABLE = {"search-card": {"japan": ("02",), "us": ("07",)},
            "scuttle": {"japan": ("01",), "us": ("01",)}}


def _legal(check: Callable[[], Any]) -> bool:
    try:
        check()
    except RuleViolation:
        return False
    return True


def _group(label: str, actions: Iterable[Action]) -> list[Option]:
    found = tuple(actions)
    return [Option(label, lambda: found)] if found else []


def _lazy(label: str, make: Callable[[], Iterable[Action]]) -> Option:
    return Option(label, lambda: tuple(make()))


def _single(name: str, label: str = "", **args: Any) -> Option:
    return Option.single(Action.of(name, label=label, **args))


# --- paths -------------------------------------------------------------------------------


def paths_from(game: Game, start: str, steps: int) -> dict[str, list[str]]:
    """Every hex a fleet reaches from ``start`` in at most ``steps`` hexes, never through
    Midway (6.1(2)), with one shortest path each (the path starts at ``start``)."""
    blocked = midway_hex(game)
    found = {start: [start]}
    frontier = [start]
    for _ in range(steps):
        nxt = []
        for here in frontier:
            for n in grid(game).neighbours(here):
                if n != blocked and n not in found:
                    found[n] = [*found[here], n]
                    nxt.append(n)
        frontier = nxt
    return found


def _fleet_paths(run: Run, fleet_id: str) -> list[list[str]]:
    game = run.game
    role = "ichikokan" if fleet_id == ICHIKOKAN else "invasion-force"
    allowance = M.allowance(game, role, run.pos.turn)
    piece = run.pos.piece(fleet_id)
    if piece.kind == "hex":
        return [p for h, p in paths_from(game, piece.place, allowance).items()
                if h != piece.place]
    out = []
    for entry in M.entry_hexes(game, fleet_id):
        left = allowance - const(game, "entry-hex-cost")
        out += list(paths_from(game, entry, left).values())
    return out


def _movement(run: Run, due: Pending) -> list[Option]:
    out = []
    for fleet_id in (ICHIKOKAN, INVASION):
        if fleet_id in run.get("moved", []) or run.pos.piece(fleet_id).kind == "eliminated":
            continue
        out += _group(f"sail {fleet_id}", (
            Action.of("sail", fleet=fleet_id, path=",".join(path))
            for path in _fleet_paths(run, fleet_id)
            if _legal(lambda path=path, fleet_id=fleet_id: check_sail(run, fleet_id, path))))
    if _legal(lambda: check_end_move(run)):
        out.append(_single("end-move"))
    return out


def _plan(run: Run, due: Pending) -> list[Option]:
    game = run.game
    here = fleet_hex(run.pos, US_FLEET)
    allowance = M.allowance(game, "us-fleet", run.pos.turn)
    starts = [here] if here else [h for h in game.hex_map().feature("us-start").hexes]

    def make(start: str) -> Iterable[Action]:
        for path in paths_from(game, start, allowance).values():
            if _legal(lambda path=path: check_plan(run, path)):
                yield Action.of("plan", route=",".join(path))

    return [_lazy(f"plan from {start}", lambda start=start: make(start)) for start in starts]


# --- set-up, declaration -----------------------------------------------------------------


def _setup(run: Run, due: Pending) -> list[Option]:
    side = due.side
    out = []
    for air in run.area.units:
        if side_of(run.game, air) != side:
            continue
        out += _group(f"place {air.uid}", (
            Action.of("place", unit=air.uid, box=f"{air.display}/{b.id}")
            for b in A.display(run.game, air.display).boxes
            if b.id != air.box and b.kind in ("deck", "runway", "hangar", "cap")
            and _legal(lambda b=b, air=air: check_place(run, side, air.uid,
                                                        f"{air.display}/{b.id}"))))
    return [*out, _single("ready")]


def _declare(run: Run, due: Pending) -> list[Option]:
    out = [_single("declare", "declare no (no base attack)", attack="no")]
    if can_declare(run):
        out.insert(0, _single("declare", "declare yes (attack Midway)", attack="yes"))
    return out


# --- air operations ------------------------------------------------------------------------


def _moves_of(run: Run, air: A.Air) -> Iterable[Action]:
    night = run.op["kind"] == "night"
    for arrow in A.display(run.game, air.display).arrows:
        if arrow.from_ != air.box or A.box(run.game, air.display, arrow.to).kind == "launch":
            continue
        box = f"{air.display}/{arrow.to}"
        if not night and A.NIGHT_ONLY_RULE in arrow.rule:
            continue
        if _legal(lambda box=box: check_move(run, air.uid, box)):
            yield Action.of("move", unit=air.uid, box=box)


def _launches_of(run: Run, air: A.Air) -> Iterable[Action]:
    op = run.op
    for gid in [*op["forming"], NEW]:
        if gid in op["flown"]:
            continue
        if _legal(lambda gid=gid: check_launch(run, air.uid, gid, gid == NEW)):
            yield Action.of("launch", unit=air.uid, group=gid)


def _flights(run: Run, gid: str) -> Iterable[Action]:
    op = run.op
    targets = reachable_targets(run, gid)
    if targets:
        hexes = targets
    elif gid in op["forming"]:
        hexes = grid(run.game).within(group_hex(run, gid), group_reach(run, gid))
    else:
        hexes = []
    for hex_id in hexes:
        if _legal(lambda hex_id=hex_id: check_fly(run, gid, hex_id)):
            yield Action.of("fly", group=gid, hex=hex_id)
    if not targets and gid in op["due"]:
        units = run.area.group(gid)
        for to in return_displays(run, units, op["side"]):
            if _legal(lambda to=to: check_return(run, gid, to)):
                yield Action.of("return", group=gid, to=to)


def _op(run: Run, due: Pending) -> list[Option]:
    op = run.op
    side = op["side"]
    out: list[Option] = []
    for gid in groups_in_air(run.area):
        if gid in op["flown"] or (gid not in op["due"] and gid not in op["forming"]):
            continue
        out.append(_lazy(f"group {gid}", lambda gid=gid: _flights(run, gid)))
    for air in run.area.units:
        if side_of(run.game, air) != side or air.airborne or air.uid in op["moved"]:
            continue
        out += _group(air.uid, (*_moves_of(run, air), *_launches_of(run, air)))
    if op["kind"] != "night":
        out += _reorganizations(run, side)
    if _legal(lambda: check_take_card(run)):
        out.append(_single("take-card", "take-card (instead of this air operation)"))
    if _legal(lambda: check_end_op(run)):
        out.append(_single("end-op"))
    return out


def _reorganizations(run: Run, side: str) -> list[Option]:
    op = run.op
    singles = [u for u in run.area.units if side_of(run.game, u) == side and u.steps == 1
               and not u.airborne and u.uid not in op["moved"]]
    return _group("reorganize", (
        Action.of("reorganize", unit=a.uid, other=b.uid) for a, b in combinations(singles, 2)
        if a.type == b.type and (a.display, a.box) == (b.display, b.box)
        and _legal(lambda a=a, b=b: check_reorganize(run, a.uid, b.uid))))


# --- an air attack ------------------------------------------------------------------------


def _target(run: Run, due: Pending) -> list[Option]:
    return [_single("target", target=t) for t in due.data["targets"]]


def _intercept(run: Run, due: Pending) -> list[Option]:
    strike = run.strike
    return [*(_single("intercept", unit=u.uid) for u in strikes.cap_candidates(run, strike)),
            _single("pass", "pass (no more interceptors)")]


def _lose(run: Run, due: Pending) -> list[Option]:
    return [_single("lose", unit=u) for u in due.data["units"]]


def _assign(run: Run, due: Pending) -> list[Option]:
    return [_group(f"assign {u}", (Action.of("assign", unit=u, carrier=c)
                                   for c in due.data["carriers"]))[0]
            for u in due.data["units"]]


def _runway(run: Run, due: Pending) -> list[Option]:
    return [_single("runway", box=f"{A.base_display(run.game).id}/{b}")
            for b in due.data["boxes"]]


def _land(run: Run, due: Pending) -> list[Option]:
    return [_single("land", unit=due.data["unit"], box=b) for b in due.data["boxes"]]


def _return(run: Run, due: Pending) -> list[Option]:
    return [_single("return", group=due.data["group"], to=d) for d in due.data["displays"]]


def _surface(run: Run, due: Pending) -> list[Option]:
    battle = run.get("surface")
    return [_single("hit", target=t) for t in surface_targets(run, due.data["on"],
                                                              battle["fleet"])]


def _cards(run: Run, due: Pending) -> list[Option]:
    side = due.side
    allowed = PLAYABLE[due.kind][side]
    out = [_single("play", card=c) for c in run.hand(side) if c in allowed
           and (due.kind != "search-card" or side in search_card_holders(run))]
    return [*out, _single("pass")]


OPTIONS: dict[str, Callable[[Run, Pending], list[Option]]] = {
    "setup": _setup, "declare": _declare, "plan": _plan, "movement": _movement,
    "air-op": _op, "base-op": _op, "night-op": _op, "target": _target,
    "intercept": _intercept, "lose": _lose, "assign": _assign, "runway": _runway,
    "land": _land, "return": _return, "surface": _surface, "search-card": _cards,
    "scuttle": _cards,
}

PROMPTS = {
    "setup": "{side}: arrange the aircraft on deck, in the hangars and in CAP, then ready",
    "declare": "japan: declare a base attack on Midway this turn, or not",
    "plan": "us: write the fleet's movement plan",
    "movement": "japan: move the fleets",
    "air-op": "{side}: an air operation",
    "base-op": "japan: base-attack air operation {number} of {of}",
    "night-op": "{side}: the night air operation: hangar units to the deck or CAP",
    "target": "{side}: the target of group {group}",
    "intercept": "{side}: CAP fighters intercepting group {group}",
    "lose": "{side}: the unit that loses a step ({hits} to take)",
    "assign": "{side}: each attack aircraft of group {group} against a carrier",
    "runway": "us: the runway box the base hit takes ({hits} to take)",
    "land": "{side}: where {unit} lands",
    "return": "{side}: where group {group} returns",
    "surface": "japan: the carrier (or the Invasion Force) a surface-battle hit goes to "
               "({hits} on the {on} fleet)",
    "search-card": "{side}: play a search card, or pass",
    "scuttle": "{side}: play card 01 (Scuttling Cancelled), or pass",
}


def prompt(due: Pending) -> str:
    values = {"side": due.side, **{k: v for k, v in due.data.items()}}
    return PROMPTS[due.kind].format_map(_Missing(values))


class _Missing(dict):
    def __missing__(self, key: str) -> str:
        return "?"
