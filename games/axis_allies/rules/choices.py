"""The legal answers of each decision of an Axis & Allies session, grouped into options,
made of the searches and checks of ``moves.py``, ``battles.py`` and ``session.py`` (every
answer listed is accepted).

The listing is bounded so that a person can read it and a random agent play a game through:

* purchase: per unit type affordable, the counts 1, 2, 3, 5, 10 and the most affordable;
  development dice 1 to 6 (fewer when the IPC do not stretch); ``end``;
* movement: one option per group of units (a power's units of one type in one space that
  moved alike); per reachable end one move of 1 unit and one of the whole group; an armor
  group also per territory it would blitz through; transports and carriers one by one (by
  piece id, with their cargo);
* casualties: one loss per order of the unit types hit (casualty orders by type), the
  same loss listed once;
* submarine withdrawal: 1 submarine and all of them, per sea zone;
* placement: per unit type waiting and per place, 1 unit and as many as fit.

Any other answer the rules allow is accepted when typed (``move`` of 3 infantry of a group
of 5, ``lose`` naming piece ids, ``order``).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from warpress.engine.decisions import Action, Option
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.position import Pending, Piece

from . import battles as bt
from .board import is_sea, points
from .common import unit_types, weapon_ids
from .moves import (
    COMBAT,
    NONCOMBAT,
    Run,
    _stopped,
    air_ends,
    coast_adj,
    kind_of,
    land_paths,
    plan_move,
    ship_paths,
    units_text,
)
from .orders import check_end_noncombat, check_place, check_rocket, rocket_targets, unit_cost
from .positions import at, factories, ipc, left, purchased, weapons

BUY_COUNTS = (1, 2, 3, 5, 10)
MOST_DEVELOP = 6


def _legal(check: Callable[[], Any]) -> bool:
    try:
        check()
    except (RuleViolation, BadInput):
        return False
    return True


def _lazy(label: str, make: Callable[[], Iterable[Action]]) -> Option:
    return Option(label, lambda: tuple(make()))


# --- ① -----------------------------------------------------------------------------------


def _purchase_options(run: Run, due: Pending) -> list[Option]:
    have = ipc(run.pos, run.power)
    out = []
    for t in unit_types(run.game):
        cost = unit_cost(run.game, run.pos, run.power, t)
        most = have // cost if cost else 0
        if most < 1:
            continue
        counts = sorted({c for c in BUY_COUNTS if c <= most} | {most})
        out.append(Option(f"buy {t} ({cost} IPC each)",
                          lambda t=t, counts=counts: tuple(
                              Action.of("buy", unit=t, count=c, note=f"{c * cost_of(run, t)} IPC")
                              for c in counts)))
    dice = min(have // 5, MOST_DEVELOP)
    owned = weapons(run.pos, run.power)
    if dice >= 1 and not run.data("developed") and not owned >= set(weapon_ids(run.game)):
        out.append(Option("develop weapons (5 IPC a die)",
                          lambda: tuple(Action.of("develop", dice=n, note=f"{5 * n} IPC")
                                        for n in range(1, dice + 1))))
    out.append(Option.single(Action.of("end", note="to combat movement")))
    return out


def cost_of(run: Run, t: str) -> int:
    return unit_cost(run.game, run.pos, run.power, t)


# --- ② and ④ -------------------------------------------------------------------------------


def groups(run: Run, phase: str) -> list[tuple[str, list[Piece]]]:
    """The power's units that may move now, in groups that move alike: (label, pieces)."""
    out: dict[tuple, list[Piece]] = {}
    for p in run.pos.pieces:
        if p.side != run.power or p.kind != "area" or p.unit == "factory":
            continue
        if _stopped(run, p, phase):
            continue
        if p.unit in ("transport", "carrier"):
            key: tuple = (p.place, p.id)
        else:
            key = (p.place, p.unit, bool(p.props.get("aboard")), int(p.props.get("used", 0)),
                   tuple(sorted(p.flags)))
        out.setdefault(key, []).append(p)
    return [(_group_label(run, pieces), pieces) for _k, pieces in sorted(out.items(),
                                                                         key=lambda kv: str(kv[0]))]


def _group_label(run: Run, pieces: list[Piece]) -> str:
    p = pieces[0]
    if p.unit in ("transport", "carrier"):
        cargo = [c.unit for c in at(run.pos, p.place) if c.props.get("aboard") == p.id]
        return f"{p.id} in {p.place}" + (f" with {units_text(cargo)}" if cargo else "")
    aboard = " aboard" if p.props.get("aboard") else ""
    return f"{len(pieces)} {p.unit}{aboard} in {p.place} ({left(run.game, run.pos, p)} move left)"


def _moves_of(run: Run, pieces: list[Piece], phase: str) -> list[Action]:
    p = pieces[0]
    frm = p.place
    what = p.id if p.unit in ("transport", "carrier") else p.unit
    counts = [1] if len(pieces) == 1 or what == p.id else [1, len(pieces)]
    k = kind_of(run.game, p.unit)
    ends: list[tuple[str, list[str]]] = []
    if k == "land" and p.props.get("aboard"):
        ends = [(t, []) for t in coast_adj(run.game)[frm] if not is_sea(points(run.game)[t])]
    elif k == "land":
        for dest, paths in land_paths(run, frm, left(run.game, run.pos, p), p.unit,
                                      phase).items():
            ends.append((dest, []))  # the shortest way, blitzing least (the default path)
            ends += [(dest, path[1:-1]) for path in paths[1:] if phase == COMBAT]
        ends += [(z, []) for z in coast_adj(run.game)[frm]]
    elif k == "sea":
        ends = [(z, []) for z in ship_paths(run, p, frm, phase)]
    else:
        ends = [(s, []) for s in air_ends(run, p, frm, phase)]
    out = []
    seen = set()
    for dest, via in ends:
        for n in counts:
            key = (dest, tuple(via), n)
            if key in seen:
                continue
            seen.add(key)
            via_text = ",".join(via) if via else None
            if _legal(lambda dest=dest, via=via, n=n: plan_move(run, frm, dest, what, n, via,
                                                                 phase)):
                out.append(Action.of("move", **{"from": frm, "to": dest, "unit": what,
                                                 "count": n if n > 1 else None,
                                                 "via": via_text}))
    return out


def _move_options(run: Run, due: Pending) -> list[Option]:
    phase = COMBAT if due.kind == "combat-move" else NONCOMBAT
    out = [_lazy(label, lambda pieces=pieces: _moves_of(run, pieces, phase))
           for label, pieces in groups(run, phase)]
    if phase == COMBAT and "rockets" in weapons(run.pos, run.power):
        out += _rocket_options(run)
    if phase == COMBAT or _legal(lambda: check_end_noncombat(run)):
        note = "to combat" if phase == COMBAT else "aircraft without a landing place are lost"
        out.append(Option.single(Action.of("end", note=note)))
    return out


def _rocket_options(run: Run) -> list[Option]:
    guns = sorted({p.place for p in run.pos.pieces if p.side == run.power and p.kind == "area"
                   and p.unit == "antiaircraft" and not p.props.get("aboard")
                   and "rocket" not in p.flags})
    return [_lazy(f"rocket from {frm}", lambda frm=frm: [
        Action.of("rocket", **{"from": frm, "target": t}) for t in rocket_targets(run, frm)
        if _legal(lambda t=t: check_rocket(run, frm, t))]) for frm in guns]


# --- ③ -----------------------------------------------------------------------------------


def _battle_options(run: Run, due: Pending) -> list[Option]:
    return [Option.single(Action.of("fight", space=s)) for s in due.data["spaces"]]


def _casualty_options(run: Run, due: Pending) -> list[Option]:
    b = bt.battle(run)
    units = bt.eligible(run, b, str(due.data["whose"]))
    n = int(due.data["hits"])
    return [Option.single(Action.of("lose", units=units_text(types)))
            for types in bt.loss_sets(run.game, units, n)]


def _withdraw_options(run: Run, due: Pending) -> list[Option]:
    b = bt.battle(run)
    whose = str(due.data["whose"])
    n = len(bt.subs(run, b, whose))
    counts = sorted({1, n})
    out = [Option.single(Action.of("stay"))]
    if whose == "attacker":
        out += [Option.single(Action.of("withdraw", count=c)) for c in counts]
    else:
        out += [Option.single(Action.of("withdraw", count=c, to=z))
                for z in bt.withdraw_to(run, b, whose) for c in counts]
    return out


def _retreat_options(run: Run, due: Pending) -> list[Option]:
    b = bt.battle(run)
    out = [Option.single(Action.of("press"))]
    where = bt.retreat_to(run, b)
    if where == []:
        out.append(Option.single(Action.of("retreat")))
    elif where:
        out += [Option.single(Action.of("retreat", to=z)) for z in where]
    return out


# --- ⑤ -------------------------------------------------------------------------------------


def place_sites(run: Run, unit_type: str) -> list[str]:
    """Where a unit bought may be placed now."""
    game = run.game
    if unit_type == "factory":
        sites = [t for t, who in run.pos.control.items() if who == run.power]
    else:
        sites = [t for t in factories(run.pos) if run.pos.control.get(t) == run.power]
        if kind_of(game, unit_type) == "sea":
            sites = sorted({z for t in sites for z in coast_adj(game)[t]})
    return [s for s in sorted(sites) if _legal(lambda s=s: check_place(run, s, unit_type, 1))]


def placeable(run: Run) -> bool:
    """Whether a unit bought this turn can still be placed."""
    types = sorted({p.unit for p in purchased(run.pos, run.power)})
    return any(place_sites(run, t) for t in types)


def _place_actions(run: Run, unit_type: str, waiting: int) -> list[Action]:
    out = []
    for site in place_sites(run, unit_type):
        low, high = 1, waiting  # the most that fit: 1 fits (a site), find the largest
        while low < high:
            mid = (low + high + 1) // 2
            if _legal(lambda mid=mid, site=site: check_place(run, site, unit_type, mid)):
                low = mid
            else:
                high = mid - 1
        for n in sorted({1, low}):
            out.append(Action.of("place", where=site, unit=unit_type,
                                 count=n if n > 1 else None))
    return out


def _place_options(run: Run, due: Pending) -> list[Option]:
    waiting: dict[str, int] = {}
    for p in purchased(run.pos, run.power):
        waiting[p.unit] = waiting.get(p.unit, 0) + 1
    out = [_lazy(f"place {n} {t}", lambda t=t, n=n: _place_actions(run, t, n))
           for t, n in waiting.items()]
    if not placeable(run):
        out.append(Option.single(Action.of("end", note="the units left are lost")))
    return out


OPTIONS: dict[str, Callable[[Run, Pending], list[Option]]] = {
    "purchase": _purchase_options, "combat-move": _move_options,
    "non-combat-move": _move_options, "battle": _battle_options,
    "casualties": _casualty_options, "withdraw": _withdraw_options,
    "retreat": _retreat_options, "place": _place_options,
}
