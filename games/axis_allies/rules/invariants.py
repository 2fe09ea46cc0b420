"""The whole-game invariants of an Axis & Allies session, checked after every step of a
played game (the tests, a balance run): ``broken(game, before, action, after)`` lists what
the step broke (empty: nothing).

* no piece in two places: every id once, every piece on the board in a territory or sea
  zone of the board (or bought and waiting in the pool), cargo aboard a transport or carrier
  in its own space, within its room (constants transport-capacity, carrier-fighter-capacity);
* units conserved except by combat and purchase: a unit appears only when bought (paid at
  its cost, I17) and leaves the board only counted in ``data.lost`` (combat, aircraft with no
  landing place, units that found no place);
* IPC never negative (I17);
* one factory and one AA gun per territory (⑤, I16);
* control: every land territory held by a power or neutral, a neutral one never taken;
* between turns no space holds units of both alliances, and every aircraft is in a friendly
  territory or aboard a carrier (④, I11);
* the turn order (I1) and the verdict decided once.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from typing import Any

from warpress.engine.model import Game
from warpress.engine.position import Position, thaw

from .board import NEUTRAL, next_turn, points, start_control
from .common import const, domain
from .positions import PURCHASED, enemies, slots


def broken(game: Game, before: Position | None, action: tuple[str, Mapping[str, Any]] | None,
           after: Position) -> list[str]:
    out = _places(game, after) + _cargo(game, after) + _money(after) + _facilities(after)
    out += _control(game, after)
    if after.due is not None and after.due.kind == "purchase":
        out += _between_turns(game, after)
    if before is not None:
        out += _conserved(game, before, action, after) + _sequence(game, before, after)
        if before.verdict is not None and after.verdict != before.verdict:
            out.append("the verdict changed after the game was decided")
    return out


def _places(game: Game, position: Position) -> list[str]:
    out = []
    ids = Counter(p.id for p in position.pieces)
    out += [f"piece {i} is held twice" for i, n in ids.items() if n > 1]
    for p in position.pieces:
        if p.kind == "area" and p.place not in points(game):
            out.append(f"{p.id} stands in {p.place}, no space of the board")
        elif p.kind == "pool" and p.place != PURCHASED:
            out.append(f"{p.id} waits in pool {p.place}")
        elif p.kind not in ("area", "pool"):
            out.append(f"{p.id} is {p.kind}: a unit destroyed leaves the position")
    return out


def _cargo(game: Game, position: Position) -> list[str]:
    out = []
    by_id = {p.id: p for p in position.pieces}
    load: Counter = Counter()
    for p in position.pieces:
        holder_id = p.props.get("aboard")
        if holder_id is None:
            continue
        holder = by_id.get(holder_id)
        if holder is None or holder.place != p.place or holder.kind != "area":
            out.append(f"{p.id} is aboard {holder_id}, which is not in {p.place}")
            continue
        if holder.unit == "transport" and domain(game, p.unit) == "land":
            load[holder_id] += slots(game, p.unit)
        elif holder.unit == "carrier" and p.unit in const(game, "carrier-landing-units"):
            load[holder_id] += 1
        else:
            out.append(f"{p.id} ({p.unit}) cannot be aboard a {holder.unit}")
    for holder_id, n in load.items():
        room = const(game, "transport-capacity" if by_id[holder_id].unit == "transport"
                     else "carrier-fighter-capacity")
        if n > int(room):
            out.append(f"{holder_id} carries {n}, room {room}")
    return out


def _money(position: Position) -> list[str]:
    return [f"{p} has {n} IPC" for p, n in position.data["ipc"].items() if n < 0]


def _facilities(position: Position) -> list[str]:
    out = []
    for unit in ("factory", "antiaircraft"):
        here = Counter(p.place for p in position.pieces if p.unit == unit and p.kind == "area"
                       and not p.props.get("aboard"))
        out += [f"{n} {unit} in {t}" for t, n in here.items() if n > 1]
    return out


def _control(game: Game, position: Position) -> list[str]:
    printed = start_control(game)
    out = []
    if set(position.control) != set(printed):
        out.append("control does not cover exactly the land territories")
    for t, who in position.control.items():
        if (printed.get(t) == NEUTRAL) != (who == NEUTRAL):
            out.append(f"{t} is held by {who} (printed {printed.get(t)})")
    return out


def _between_turns(game: Game, position: Position) -> list[str]:
    """At the start of a turn: no space shared by enemies; aircraft landed."""
    out = []
    sides: dict[str, set[str]] = {}
    for p in position.pieces:
        if p.kind == "area" and p.unit != "factory":
            sides.setdefault(str(p.place), set()).add(str(p.side))
    for place, who in sides.items():
        if any(enemies(game, a, b) for a in who for b in who):
            out.append(f"{place} holds enemies at the start of a turn: {sorted(who)}")
    for p in position.pieces:
        if p.kind != "area" or domain(game, p.unit) != "air":
            continue
        if p.props.get("aboard"):
            continue
        owner = position.control.get(p.place)
        if owner is None or owner == NEUTRAL or enemies(game, p.side, owner):
            out.append(f"{p.id} is in {p.place} without a landing place")
    return out


def _conserved(game: Game, before: Position, action, after: Position) -> list[str]:
    out = []
    old = {p.id: p for p in before.pieces}
    new = {p.id: p for p in after.pieces}
    made = [new[i] for i in new if i not in old]
    gone = [old[i] for i in old if i not in new]
    name = action[0] if action else None
    if made and name != "buy":
        out.append(f"{len(made)} unit(s) appeared on {name}")
    for p in made:
        if p.kind != "pool" or p.place != PURCHASED:
            out.append(f"{p.id} appeared on the board, not in the pool of purchases")
    lost_before = thaw(before.data["lost"])
    lost_after = thaw(after.data["lost"])
    delta: Counter = Counter()
    for side, counts in lost_after.items():
        for unit, n in counts.items():
            delta[(side, unit)] += n - lost_before.get(side, {}).get(unit, 0)
    left = Counter((str(p.side), p.unit) for p in gone)
    if left != +delta:
        out.append(f"units left the board {dict(left)} but the losses counted {dict(+delta)}")
    if name == "buy" and made:
        spent = before.data["ipc"][before.side] - after.data["ipc"][after.side]
        if spent <= 0:
            out.append(f"{len(made)} unit(s) bought for {spent} IPC")
    return out


def _sequence(game: Game, before: Position, after: Position) -> list[str]:
    if after.over or before.side == after.side:
        return []
    power, round_number = next_turn(game, str(before.side), before.turn)
    if (after.side, after.turn) != (power, round_number):
        return [f"after {before.side} round {before.turn} came {after.side} round "
                f"{after.turn}, not {power} round {round_number}"]
    return []
