"""Reinforcements and replacements from data (docs/playing.md, "Reinforcements" and
"Replacements").

A ``reinforcements`` record brings its units on its ``turn``: with ``to:`` into that
off-map pool at the start of the turn (``reserve``: where replacements may rebuild them),
else in the side's ``do: reinforcements`` phase, where the side places each at one of the
places ``at`` (a hex no enemy holds, within stacking, passing the place's ``owned``,
``empty``, ``supply`` and ``limit`` filters); a unit with no such hex waits for the next
turn.

A side's ``replacements`` records give it points in its ``do: replacements`` phases (those
of the turn; ``keep`` saves what is not spent). A point restores one step of a reduced
unit on the map (where ``restore_at`` allows; by default any hex in supply), or brings an
eliminated unit (or one in the ``reserve`` pool) back with one step at one of the places
``at``. A unit rebuilt in a phase is not restored in the same phase.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import RuleViolation
from ..model import FrozenDict, Game, Place, Record, Reinforcement, Replacement
from ..position import Piece, Position
from ..records import evolve
from .context import Context
from .control import controlled, take_control
from .pieces import full_steps, matches, room, unit_of
from .setup import ARRIVING
from .supply import hex_in_supply, in_supply
from .zoc import enemy_hexes

#: the off-map pool replacements may rebuild from, besides the eliminated units
RESERVE = "reserve"


def _rule(records: Iterable[Record]) -> str:
    for r in records:
        if r.rule:
            return r.rule[0]
    return "reinforcements"


# --- places ----------------------------------------------------------------------------------


def place_hexes(ctx: Context, position: Position, side: str | None,
                places: tuple[Place, ...], piece: Piece) -> list[int]:
    """The hexes ``piece`` may be placed in by one of ``places``, in hex order."""
    board, game = ctx.board, ctx.game
    foes = enemy_hexes(game, position, side)
    placed = position.data.get("placed") or {}
    kept = controlled(game)
    out: set[int] = set()
    for place in places:
        for i in board.places(place):
            name = board.names[i]
            if i in foes or board.enter[i] is None:
                continue
            if place.empty and position.in_hex(name):
                continue
            if place.owned and (name not in kept or position.control.get(name) != side):
                continue
            if place.supply and not hex_in_supply(game, position, side, i):
                continue
            if place.limit is not None and placed.get(name, 0) >= place.limit:
                continue
            if not room(board, position, i, piece):
                continue
            out.add(i)
    return sorted(out)


def _placed(position: Position, hex_id: str) -> Position:
    placed = dict(position.data.get("placed") or {})
    placed[hex_id] = placed.get(hex_id, 0) + 1
    return position.with_data(placed=placed)


# --- reinforcements --------------------------------------------------------------------------


def arrive_in_pools(ctx: Context, position: Position) -> Position:
    """At the start of a turn, the units of ``to:`` records arrive in their pools."""
    for record in ctx.game.reinforcements:
        if record.to is None or record.turn != position.turn:
            continue
        for piece in _waiting(position, record.units, record.turn):
            ctx.say(position, f"{piece.id} arrives in the {record.to} pool", record.rule)
            position = position.with_piece(piece.at("pool", record.to))
    return position


def _waiting(position: Position, unit_ids: Iterable[str], turn: int) -> list[Piece]:
    return [p for p in position.at("pool", ARRIVING)
            if p.unit in unit_ids and (p.props.get("turn") or 0) <= turn]


def arriving(ctx: Context, position: Position, side: str | None) -> list[Piece]:
    """The side's units due to be placed now (their turn has come; ``at`` records)."""
    out = []
    for record in ctx.game.reinforcements:
        if record.to is not None or record.turn > position.turn:
            continue
        for piece in _waiting(position, record.units, position.turn):
            if piece.side == side and piece not in out:
                out.append(piece)
    return sorted(out, key=lambda p: p.id)


def _record_of(game: Game, piece: Piece) -> Reinforcement:
    for record in game.reinforcements:
        if piece.unit in record.units and record.turn == piece.props.get("turn"):
            return record
    return next(r for r in game.reinforcements if piece.unit in r.units)


def entry_hexes(ctx: Context, position: Position, piece: Piece) -> list[int]:
    record = _record_of(ctx.game, piece)
    return place_hexes(ctx, position, piece.side, record.at, piece)


def place(ctx: Context, position: Position, unit_id: str, hex_id: str) -> Position:
    """Place an arriving reinforcement."""
    piece = position.piece(unit_id)
    rule = _rule(ctx.game.reinforcements)
    if piece not in arriving(ctx, position, position.side):
        raise RuleViolation(rule, f"{unit_id} is not a reinforcement of {position.side} due "
                                  f"now")
    target = ctx.board.hex(hex_id, "reinforcement hex")
    allowed = entry_hexes(ctx, position, piece)
    if target not in allowed:
        names = ", ".join(ctx.board.names[i] for i in allowed[:10]) or "none"
        raise RuleViolation(_record_of(ctx.game, piece).rule[0] if _record_of(
            ctx.game, piece).rule else rule, f"{unit_id} may not enter at {hex_id} (may: "
                                             f"{names}{', ...' if len(allowed) > 10 else ''})")
    ctx.say(position, f"{unit_id} enters at {hex_id}", _record_of(ctx.game, piece).rule)
    position = position.with_piece(evolve(piece, kind="hex", place=hex_id,
                                           props=FrozenDict()))
    position = _placed(position, hex_id)
    return take_control(ctx, position, piece.side, [hex_id])


def unplaced(ctx: Context, position: Position) -> list[Piece]:
    """Arriving units that could be placed but are not (ending the phase is refused)."""
    return [p for p in arriving(ctx, position, position.side) if entry_hexes(ctx, position, p)]


def delay_rest(ctx: Context, position: Position) -> Position:
    """Units with no hex to enter wait for the next turn."""
    for piece in arriving(ctx, position, position.side):
        ctx.say(position, f"{piece.id} finds no hex to enter and waits a turn",
                _record_of(ctx.game, piece).rule)
        position = position.with_piece(evolve(piece, props=FrozenDict(
            {**piece.props, "turn": position.turn + 1})))
    return position


# --- replacements ----------------------------------------------------------------------------


def records_now(game: Game, position: Position, side: str | None) -> list[Replacement]:
    return [r for r in game.replacements
            if r.side == side and (not r.turns or position.turn in r.turns)]


def start_points(ctx: Context, position: Position, side: str | None) -> Position:
    records = records_now(ctx.game, position, side)
    kept = (position.data.get("kept") or {}).get(side or "", 0)
    points = sum(r.points for r in records) + kept
    if points:
        ctx.say(position, f"{side} receives {points} replacement point"
                          f"{'s' if points != 1 else ''}", (_rule(records),))
    return position.with_data(points=points)


def points_left(position: Position) -> int:
    return int(position.data.get("points") or 0)


def end_points(ctx: Context, position: Position, side: str | None) -> Position:
    left = points_left(position)
    keep = any(r.keep for r in records_now(ctx.game, position, side))
    kept = dict(position.data.get("kept") or {})
    kept[side or ""] = left if keep else 0
    if left and not keep:
        ctx.say(position, f"{left} replacement point{'s' if left != 1 else ''} not spent "
                          f"{'are' if left != 1 else 'is'} lost",
                (_rule(records_now(ctx.game, position, side)),))
    return position.with_data(points=0, kept=kept)


def restorable(ctx: Context, position: Position, side: str | None) -> list[Piece]:
    """Reduced units on the map a point may restore now."""
    records = [r for r in records_now(ctx.game, position, side) if r.restore]
    out = []
    for piece in position.pieces:
        if piece.side != side or piece.kind != "hex" or "rebuilt" in piece.flags:
            continue
        if piece.step >= full_steps(unit_of(ctx.game, piece)):
            continue
        if any(matches(ctx.game, piece, r.units) and _restore_here(ctx, position, r, piece)
               for r in records):
            out.append(piece)
    return out


def _restore_here(ctx: Context, position: Position, record: Replacement, piece: Piece) -> bool:
    places = record.restore_at or (Place(supply=True),)
    here = ctx.board.of(piece)
    for place in places:
        if here not in ctx.board.places(place):
            continue
        if place.supply and not in_supply(ctx.game, position, piece):
            continue
        if place.owned and position.control.get(piece.place or "") != piece.side:
            continue
        return True
    return False


def rebuildable(ctx: Context, position: Position, side: str | None) -> list[Piece]:
    """Eliminated (or reserve) units a point may bring back."""
    records = [r for r in records_now(ctx.game, position, side) if r.rebuild and r.at]
    candidates = [p for p in position.pieces if p.side == side and (
        p.kind == "eliminated" or p.kind == "pool" and p.place == RESERVE)]
    return [p for p in candidates if any(matches(ctx.game, p, r.units) for r in records)]


def rebuild_hexes(ctx: Context, position: Position, piece: Piece) -> list[int]:
    records = [r for r in records_now(ctx.game, position, piece.side)
               if r.rebuild and matches(ctx.game, piece, r.units)]
    places = tuple(p for r in records for p in r.at)
    probe = evolve(piece, step=1)
    return place_hexes(ctx, position, piece.side, places, probe)


def replace_unit(ctx: Context, position: Position, unit_id: str,
                 hex_id: str | None) -> Position:
    """Spend a point on ``unit_id``: restore a step, or rebuild it at ``hex_id``."""
    side = position.side
    records = records_now(ctx.game, position, side)
    rule = _rule(records) if records else "replacements"
    if points_left(position) <= 0:
        raise RuleViolation(rule, f"{side} has no replacement point left")
    piece = position.piece(unit_id)
    if piece.side != side:
        raise RuleViolation(rule, f"{unit_id} is not a unit of {side}")
    if piece.kind == "hex":
        if hex_id is not None and hex_id != piece.place:
            raise RuleViolation(rule, f"{unit_id} is on the map in {piece.place}: a point "
                                      f"restores it where it is")
        if piece not in restorable(ctx, position, side):
            why = ("it has all its steps" if piece.step >= full_steps(unit_of(ctx.game, piece))
                   else "it was rebuilt this phase" if "rebuilt" in piece.flags
                   else "it may not be restored where it is (out of supply?)")
            raise RuleViolation(rule, f"{unit_id} cannot be restored: {why}")
        ctx.say(position, f"{unit_id} is restored to {piece.step + 1} step"
                          f"{'s' if piece.step + 1 > 1 else ''}", (rule,))
        position = position.with_piece(evolve(piece, step=piece.step + 1).flagged("replaced"))
    else:
        if piece not in rebuildable(ctx, position, side):
            raise RuleViolation(rule, f"{unit_id} cannot be rebuilt ({piece.kind}"
                                      f"{' ' + piece.place if piece.place else ''})")
        if hex_id is None:
            raise RuleViolation(rule, f"name the hex {unit_id} is rebuilt in (replace "
                                      f"{unit_id} HEX)")
        target = ctx.board.hex(hex_id, "replacement hex")
        allowed = rebuild_hexes(ctx, position, piece)
        if target not in allowed:
            names = ", ".join(ctx.board.names[i] for i in allowed[:10]) or "none"
            raise RuleViolation(rule, f"{unit_id} may not be rebuilt in {hex_id} (may: "
                                      f"{names}{', ...' if len(allowed) > 10 else ''})")
        ctx.say(position, f"{unit_id} is rebuilt in {hex_id} with 1 step", (rule,))
        position = position.with_piece(evolve(piece, kind="hex", place=hex_id, step=1,
                                               flags=frozenset({"rebuilt"})))
        position = _placed(position, hex_id)
        position = take_control(ctx, position, side, [hex_id])
    return position.with_data(points=points_left(position) - 1)
