"""The Japanese side run by its procedures over a session's position: movement
determinations (7.2, 9.0-9.2.9, 12.4), strategic-bombing removals (12.2), reinforcements
(11.1, 12.1) and repair (11.2). The orders themselves are ``orders.py``'s; this module reads
the stacks from the position and puts the outcome back."""

from __future__ import annotations

from warpress.engine.dice import Dice

from . import orders as od
from .campaign import MapView, reinforcement_roll
from .common import DIE, const, table_row
from .positions import (
    BATTALION_BOX,
    DAMAGED,
    FULL,
    JAPAN,
    JP_BOX,
    US,
    Run,
    campaign,
    kind,
    name,
    point_ids,
    point_name,
    restack,
    special,
)

# --- the map as the orders read it -----------------------------------------------------------


def map_view(run: Run) -> MapView:
    """Which points hold which kinds of unit of each side now."""
    sets: dict[str, set[str]] = {k: set() for k in ("ug", "ua", "us", "jg", "ja", "js")}
    counts: dict[str, int] = {}
    for p in run.pieces.values():
        if p.kind != "point":
            continue
        k = kind(run.game, p)
        tag = "u" if p.side == US else "j"
        sets[tag + ("g" if k.ground else "a" if k.land_air else "s")].add(str(p.place))
        if p.side == US and k.land_air:
            counts[str(p.place)] = counts.get(str(p.place), 0) + 1
    return MapView(*(frozenset(sets[k]) for k in ("ug", "ua", "us", "jg", "ja", "js")),
                   us_land_air_count=counts)


def garrisons(run: Run) -> frozenset[str]:
    """Points with a garrisoned Japanese ground unit (not one that came by transport this
    turn) or land aircraft (9.2.5 footnote)."""
    out = set()
    for p in run.of(JAPAN):
        k = kind(run.game, p)
        if k.land_air or (k.ground and "transport" not in p.flags):
            out.add(str(p.place))
    return frozenset(out)


def objectives(run: Run) -> frozenset[str]:
    return frozenset(str(o) for o in campaign(run.game, run.campaign).get("objectives"))


def board(run: Run) -> od.Board:
    """What an order looks at: the map now, the campaign's objectives and the garrisons at
    the start of the phase (the PE checks the land-aircraft condition then)."""
    start = run.data.get("garrison_start")
    return od.Board(map_view(run), objectives(run),
                    frozenset(start) if start is not None else garrisons(run))


# --- stacks ---------------------------------------------------------------------------------


def _free(run: Run, point: str) -> list:
    return [p for p in run.at(point, JAPAN) if not {"complete", "moving"} & p.flags]


def stack_at(run: Run, point: str, hold_ground: bool = False) -> od.Stack:
    """The undetermined Japanese units at ``point``, each type's stack top first; the
    ground units and land aircraft that stay there counted (9.1's last unit);
    ``hold_ground``: ground units that cannot move (at a point with US units, 9.1) left out."""
    free = [p for p in _free(run, point)
            if not (hold_ground and kind(run.game, p).ground)]
    by = {"ship": [], "ground": [], "air": []}
    for p in free:
        by[kind(run.game, p).stack].append(p.id)
    staying = sum(1 for p in run.at(point, JAPAN) if p not in free
                  and kind(run.game, p).stack != "ship")
    return od.Stack(point, tuple(by["ship"]), tuple(by["ground"]), tuple(by["air"]), staying)


def undetermined(run: Run) -> list[str]:
    """Points with Japanese units still to determine, in map order."""
    return [pt for pt in point_ids(run.game) if _free(run, pt)]


def freeze_at_start(run: Run) -> None:
    """9.0 (1)-(3) and 12.4: single units, the moving markers, ground units with US units,
    and Okinawa and Iwo Jima in 1945 get move-complete markers before any roll."""
    view = map_view(run)
    for point in point_ids(run.game):
        here = run.at(point, JAPAN)
        for p in here:
            if "moving" in p.flags:
                run.flag(p.id, "complete", drop=("moving",))
        stack = stack_at(run, point)
        if stack.empty:
            continue
        _left, frozen = od.phase_freeze(run.game, stack, point in view.us_any, run.campaign)
        for pid in frozen:
            run.flag(pid, "complete")
        if frozen:
            run.say(f"{point_name(run.game, point)}: {_names(run, frozen)} "
                    f"{_verb(frozen, 'stays', 'stay')}",
                    *_freeze_rules(run, point, stack, frozen))


def _verb(ids, one: str, many: str) -> str:
    return one if len(ids) == 1 else many


def _freeze_rules(run: Run, point: str, stack: od.Stack, frozen) -> tuple[str, ...]:
    if point in od.no_determination_points(run.game, run.campaign):
        return ("12.4",)
    single = not stack.ships and len(stack.ground) + len(stack.land_air) == 1
    return ("9.0(1)",) if single and not stack.staying else ("9.0(3)",)


# --- one determination ----------------------------------------------------------------------


def determine_at(run: Run, point: str, dice: Dice, recon: bool = False) -> od.Move | None:
    """One determination for the Japanese units at ``point`` (9.1): the order rolled, its
    units frozen (Standby, +1 supply marker) or moved; recon marks them moving (7.2)."""
    view = map_view(run)
    stack = stack_at(run, point, hold_ground=recon and point in view.us_any)
    if stack.empty:
        return None
    move = od.determine(run.game, stack, board(run), dice)
    mark = "moving" if recon else "complete"
    order = run.game.get("orders", move.order).label
    if move.executed == "standby":
        ids = move.ships + move.ground + move.land_air
        for pid in ids:
            run.flag(pid, mark)
        run.data["jp_supply"] = int(run.data.get("jp_supply", 0)) + move.supply_markers
        why = "" if move.order == "standby" else f" ({move.reason}: Standby)"
        run.say(f"{point_name(run.game, point)}: die {move.roll}, {order}{why}: {_names(run, ids)} "
                f"{_verb(ids, 'stays', 'stay')}; +{move.supply_markers} Japanese supply marker",
                *move.rules,
                roll=move.roll, order=move.order, executed="standby", point=point)
        return move
    _execute(run, point, move, mark)
    return move


def _execute(run: Run, point: str, move: od.Move, mark: str) -> None:
    dest = str(move.destination)
    us_there = dest in map_view(run).us_any
    ids = list(move.ships + move.ground + move.land_air)
    for pid in ids:
        ground = kind(run.game, run.piece(pid)).ground
        run.place(pid, "point", dest, order=run.bottom(dest), **{mark: True},
                  transport=ground and us_there)
    drawn = _draw_battalions(run, move.battalions)
    for pid in drawn:
        run.place(pid, "point", dest, order=run.bottom(dest), **{mark: True}, transport=True)
    extra = f" and {len(drawn)} battalion(s) from the battalion box" if drawn else ""
    transport = " (by transport)" if us_there and (move.ground or drawn) else ""
    order = run.game.get("orders", move.order).label
    run.say(f"{point_name(run.game, point)}: die {move.roll}, {order}: {_names(run, ids)}{extra} "
            f"to {point_name(run.game, dest)}{transport}", *move.rules, roll=move.roll,
            order=move.order, executed=move.executed, point=point, destination=dest)
    run.data.setdefault("arrived", [])
    if dest not in run.data["arrived"]:
        run.data["arrived"].append(dest)


def _draw_battalions(run: Run, wanted: int) -> list[str]:
    """Up to ``wanted`` battalions from the battalion box (9.1, 11.1): as many as it holds."""
    box = sorted((p.id for p in run.at(BATTALION_BOX, JAPAN, "box")),
                 key=lambda pid: int(pid.partition("#")[2] or 0))
    return box[:wanted]


def finish_phase(run: Run, dice: Dice) -> None:
    """9.2.9: move-complete markers off; the stacks that gained units shuffled (11.5)."""
    for p in run.of(JAPAN):
        if {"complete", "moving"} & p.flags:
            run.flag(p.id, drop=("complete", "moving"))
    for point in run.data.pop("arrived", []):
        restack(run, point, dice)
    run.data.pop("garrison_start", None)


# --- 12.2: strategic bombing ------------------------------------------------------------------


def bombing_targets(run: Run) -> list[str]:
    """Japanese ships, ground units and land aircraft in Japan (12.2)."""
    return [p.id for p in run.at("japan", JAPAN)]


def bomb(run: Run, piece_id: str) -> None:
    """One BW's removal (12.2): the unit to its reinforcement-box stack (a battalion to the
    battalion box)."""
    k = kind(run.game, run.piece(piece_id))
    box = BATTALION_BOX if k.battalion else JP_BOX[k.stack]
    run.place(piece_id, "box", box, order=run.bottom(box, "box"), complete=False,
              moving=False)
    run.say(f"strategic bombing: {name(run.game, run.piece(piece_id))} leaves Japan for the "
            f"{'battalion box' if k.battalion else 'reinforcement box'}", "12.2")


# --- 11.1: reinforcements ---------------------------------------------------------------------


def damaged_for_roll(run: Run) -> int:
    """Damaged Japanese units on the map, not damaged ground units (E31) at a point with US
    units (11.1)."""
    us_points = map_view(run).us_any
    return sum(1 for p in run.of(JAPAN) if p.step == DAMAGED
               and not (kind(run.game, p).ground and p.place in us_points))


def reinforce(run: Run, dice: Dice) -> None:
    """11.1 (12.1): the reinforcement roll and its units from the box tops to Japan."""
    roll = dice.roll(DIE, "reinforcement")
    supply, damaged = int(run.data.get("jp_supply", 0)), damaged_for_roll(run)
    raiders = int(run.data.get("raiders", 0))
    modified = reinforcement_roll(run.game, roll, supply, damaged, raiders)
    row = table_row(run.game, "japanese-reinforcement", roll=modified)
    want = {"ship": int(row["ships"]), "ground": int(row["infantry"]), "air": int(row["land_air"])}
    rules = ["11.1"]
    if "12.1" in special(run.game, run.campaign):
        want["ground"] += int(const(run.game, "japanese-1944-extra-infantry"))
        rules.append("12.1")
    arrived, short = [], 0
    for stack, count in want.items():
        tops = run.at(JP_BOX[stack], JAPAN, "box")[:count]
        arrived += [p.id for p in tops]
        short += count - len(tops)
    per = int(const(run.game, "battalions-per-missing-reinforcement"))
    battalions = _draw_battalions(run, short * per)
    for pid in arrived + battalions:
        run.place(pid, "point", "japan", order=run.bottom("japan"))
    run.data["jp_supply"] = 0
    run.say(f"Japanese reinforcement: die {roll} + {supply} supply marker(s) - {damaged} "
            f"damaged - {2 * raiders} (raiding) = {modified}: "
            f"{_names(run, arrived) or 'no unit'} to Japan"
            + (f", {len(battalions)} battalion(s) for {short} unit(s) the box lacks"
               if short else ""), *rules, "E31", roll=roll, modified=modified)
    restack(run, "japan", dice)


# --- 11.2: repair ----------------------------------------------------------------------------


def repair(run: Run) -> None:
    """11.2: damaged Japanese units to the bottom of their reinforcement stack at full
    strength, except ground units at a point with US units and a point's last ground unit
    or land aircraft."""
    us_points = map_view(run).us_any
    done = []
    for point in point_ids(run.game):
        here = run.at(point, JAPAN)
        ground_air = [p for p in here if not kind(run.game, p).ship]
        left = len(ground_air)
        for p in here:
            k = kind(run.game, p)
            if p.step != DAMAGED or (k.ground and point in us_points):
                continue
            if not k.ship:
                if left <= 1:
                    continue
                left -= 1
            box = JP_BOX[k.stack]
            run.place(p.id, "box", box, order=run.bottom(box, "box"), transport=False)
            run.step_to(p.id, FULL)
            done.append(p.id)
    if done:
        run.say(f"Japanese repair: {_names(run, done)} to the reinforcement box", "11.2")


# --- words ---------------------------------------------------------------------------------




def _names(run: Run, ids) -> str:
    return ", ".join(name(run.game, run.piece(pid)) for pid in ids)
