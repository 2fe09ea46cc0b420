"""The solitaire US (12.3(4)): what the procedure answers to each US decision, as an action
the session applies through the same checks as a player's.

The air operation follows 12.3(4), one action at a time, worked out again from the
position each time:

1. a group in the combat area attacks the 1st Air Fleet if it can reach it, else returns
   to TF16 (e, d);
2. with no US fighter in CAP, one deck fighter moves to its task force's CAP box (b);
3. each carrier's deck units launch as one group with its attack aircraft and fly at the
   1st Air Fleet, two hexes toward it when it is out of reach (b; E33);
4. hangar units move to the freed deck boxes, attack aircraft first, one attack aircraft
   and one fighter when both are there (c);
5. the operation ends; the Return boxes make their forced moves (d).

In an air attack the US intercepts with every CAP fighter of the task force attacked (a),
takes its losses on fighters first, then on the unit with most steps (E33), gives up an
empty runway box before one with a unit (as in the base-attack example, M-EX13) and
assigns its attack aircraft to the first carrier afloat of the target (9.4). The solitaire
US never reorganizes (f) and its night operation is done by ``flow`` (g).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from warpress.engine.errors import RuleViolation

from . import area as A
from . import strikes
from .common import distance, divisions, grid, is_attack, is_fighter
from .moves import (
    NEW,
    Run,
    afloat,
    cap_box,
    reachable_targets,
    return_displays,
)
from .positions import ICHIKOKAN, fleet_hex

Choice = tuple[str, Mapping[str, Any]]


def choose(run: Run) -> Choice:
    """The solitaire US's answer to the decision due."""
    due = run.pos.due
    return ANSWERS[due.kind](run, due.data)


# --- the air operation -------------------------------------------------------------------


def _air_op(run: Run, _data: Mapping[str, Any]) -> Choice:
    for step in (_due_groups, _cap_fighter, _launches, _hangar_to_deck):
        found = step(run)
        if found is not None:
            return found
    return "end-op", {}


def _due_groups(run: Run) -> Choice | None:
    op = run.op
    for gid in op["due"]:
        if gid in op["flown"] or not run.area.group(gid):
            continue
        targets = reachable_targets(run, gid)
        if targets:
            return "fly", {"group": gid, "hex": targets[0]}
        to = return_displays(run, run.area.group(gid), "us")[0]
        return "return", {"group": gid, "to": to}
    return None


def _us_cap(run: Run) -> list[A.Air]:
    """The fighters in the task forces' CAP boxes."""
    game = run.game
    return [u for d in divisions(game, "us") for u in run.area.in_box(d, cap_box(game, d))]


def _deck_units(run: Run, holder: str) -> list[A.Air]:
    op = run.op
    return [u for u in A.on_deck(run.game, run.area, holder)
            if u.uid in op["deck"] and u.uid not in op["moved"]]


def _cap_fighter(run: Run) -> Choice | None:
    if _us_cap(run):
        return None
    for holder in afloat(run.area, run.game, "us"):
        for air in _deck_units(run, holder):
            if is_fighter(run.game, air.type):
                return "move", {"unit": air.uid, "box": f"{air.display}/"
                                f"{cap_box(run.game, air.display)}"}
    return None


def _launches(run: Run) -> Choice | None:
    op = run.op
    game = run.game
    for gid, record in op["forming"].items():
        if gid in op["flown"]:
            continue
        holder = record["holders"][0]
        waiting = _deck_units(run, holder)
        if waiting:
            return "launch", {"unit": waiting[0].uid, "group": gid}
        return "fly", {"group": gid, "hex": _launch_hex(run, gid)}
    for holder in afloat(run.area, game, "us"):
        attackers = [u for u in _deck_units(run, holder) if is_attack(game, u.type)]
        if attackers:
            return "launch", {"unit": attackers[0].uid, "group": NEW}
    return None


def _launch_hex(run: Run, gid: str) -> str:
    """A launched group flies at the 1st Air Fleet; out of reach, to the hex within two
    nearest it (the first in map order on a tie; E33)."""
    targets = reachable_targets(run, gid)
    if targets:
        return targets[0]
    here = run.area.group(gid)[0].box
    main = fleet_hex(run.pos, ICHIKOKAN)
    reach = grid(run.game).within(here, 2)
    if main is None:
        return here
    return min(reach, key=lambda h: (distance(run.game, h, main), grid(run.game).coords(h)))


def _hangar_to_deck(run: Run) -> Choice | None:
    game, area = run.game, run.area
    op = run.op
    for holder in afloat(area, game, "us"):
        display_id, hangar = A.hangar_box(game, holder)
        waiting = [u for u in area.in_box(display_id, hangar.id) if u.uid not in op["moved"]]
        moved = [u for u in A.on_deck(game, area, holder) if u.uid in op["moved"]
                 and u.uid not in op["deck"]]
        attack = [u for u in waiting if is_attack(game, u.type)]
        fighters = [u for u in waiting if is_fighter(game, u.type)]
        a_done = any(is_attack(game, u.type) for u in moved)
        f_done = any(is_fighter(game, u.type) for u in moved)
        both = (attack or a_done) and (fighters or f_done)
        if both:
            wanted = attack[:1] if not a_done else []
            wanted += fighters[:1] if not f_done else []
        else:
            wanted = attack or fighters
        free = [b.id for d, b in A.deck_boxes(game, holder)
                if (d, b.id) not in area.damage and not area.in_box(d, b.id)]
        if wanted and free:
            return "move", {"unit": wanted[0].uid, "box": f"{display_id}/{free[0]}"}
    return None


# --- an air attack ------------------------------------------------------------------------


def _intercept(run: Run, _data: Mapping[str, Any]) -> Choice:
    found = strikes.cap_candidates(run, run.strike)
    return ("intercept", {"unit": found[0].uid}) if found else ("pass", {})


def _lose(run: Run, data: Mapping[str, Any]) -> Choice:
    game = run.game
    units = [run.area.unit(u) for u in data["units"]]
    best = min(units, key=lambda u: (not is_fighter(game, u.type), -u.steps, u.uid))
    return "lose", {"unit": best.uid}


def _assign(run: Run, data: Mapping[str, Any]) -> Choice:
    return "assign", {"unit": data["units"][0], "carrier": data["carriers"][0]}


def _runway(run: Run, data: Mapping[str, Any]) -> Choice:
    base = A.base_display(run.game).id
    boxes = sorted(data["boxes"], key=lambda b: (bool(run.area.in_box(base, b)), b))
    return "runway", {"box": f"{base}/{boxes[0]}"}


def _first(name: str, key: str, arg: str) -> Any:
    def answer(run: Run, data: Mapping[str, Any]) -> Choice:
        return name, {arg: data[key][0]}

    return answer


def _refuse(run: Run, data: Mapping[str, Any]) -> Choice:
    raise RuleViolation("12.3", f"the solitaire US makes no {run.pos.due.kind} decision")


ANSWERS = {"air-op": _air_op, "intercept": _intercept, "lose": _lose, "assign": _assign,
           "runway": _runway, "target": _first("target", "targets", "target"),
           "return": lambda run, data: ("return", {"group": data["group"],
                                                   "to": data["displays"][0]}),
           "setup": _refuse, "plan": _refuse, "base-op": _refuse, "night-op": _refuse,
           "declare": _refuse, "movement": _refuse, "land": _refuse, "surface": _refuse,
           "search-card": lambda run, data: ("pass", {}),
           "scuttle": lambda run, data: ("pass", {})}
