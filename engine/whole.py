"""The whole-game invariants a played game must keep at every step (docs/playing.md): one
place per piece, stacking within its limit where the rules check it, steps within the
unit's range, no move past its allowance or through a zone of control that stops it, the
turn within the game, victory decided exactly once; in a card game every card in one pile
only, and no card gained or lost by a step (decks, hands, discards and the table together).
``broken`` lists what a step broke; a playout (a test, a balance run) asserts it is empty
after every action."""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

from .model import Game, Phase, PlayRules
from .play.board import Board, board_of
from .play.movement import allowance, check_path, reach
from .play.pieces import full_steps, overstacked, unit_of
from .play.sequence import phase, turns
from .position import ON_BOARD, Piece, Position


def broken(game: Game, before: Position | None, action: tuple[str, Mapping[str, Any]] | None,
           after: Position) -> list[str]:
    """What the step ``before`` -> ``after`` by ``action`` broke (empty: nothing)."""
    out = _pieces(game, before, after)
    if game.play is not None and game.hex_maps:
        out += _stacking(game, game.play, before, action, after)
        if before is not None and action is not None and action[0] == "move":
            out += _move(game, before, action[1], after)
    out += _turn(game, after)
    out += _at_points(game, after)
    out += _cards(before, after)
    if before is not None:
        out += _verdict(before, after)
    return out


def _at_points(game: Game, position: Position) -> list[str]:
    """A piece on a point map stands at one of its points."""
    points = {pt.id for m in game.point_maps for pt in m.points}
    if not points:
        return []
    return [f"{p.id} stands at {p.place}, no point of the map" for p in position.pieces
            if p.kind == "point" and p.place not in points]


def _cards(before: Position | None, after: Position) -> list[str]:
    """Each card in one pile only; the step moved cards, never made or lost one."""
    held = Counter(c for pile in after.cards.values() for c in pile)
    out = [f"card {c} is in two places" for c, n in sorted(held.items()) if n > 1]
    if before is not None:
        had = Counter(c for pile in before.cards.values() for c in pile)
        out += [f"card {c} was lost" for c in sorted(had - held)]
        out += [f"card {c} appeared" for c in sorted(held - had)]
    return out


def _pieces(game: Game, before: Position | None, position: Position) -> list[str]:
    """Each piece in one place of the map with its steps in range: every piece after the
    set-up, after a step the pieces it changed (a position shares the pieces a step leaves
    alone with the one before)."""
    out = []
    pieces: Sequence[Piece] = position.pieces
    if before is not None and len(before.pieces) == len(pieces) and all(
            a.id == b.id for a, b in zip(before.pieces, pieces, strict=True)):
        pieces = [b for a, b in zip(before.pieces, pieces, strict=True) if a is not b]
    else:
        ids = [p.id for p in pieces]
        if len(ids) != len(set(ids)):
            out.append("a piece id is held twice")
    hexes, units = _known(game)
    for p in pieces:
        if p.kind in ON_BOARD and not p.place:
            out.append(f"{p.id} is on the board but nowhere")
        if p.kind == "hex" and hexes and p.place not in hexes:
            out.append(f"{p.id} stands in {p.place}, no hex of the map")
        if p.unit in units:
            top = full_steps(unit_of(game, p))
            if p.kind == "eliminated":
                if p.step != 0:
                    out.append(f"{p.id} is eliminated with {p.step} steps")
            elif not 1 <= p.step <= top:
                out.append(f"{p.id} has {p.step} steps, outside 1..{top}")
    return out


_KNOWN: dict[int, tuple[Game, frozenset[str], frozenset[str]]] = {}


def _known(game: Game) -> tuple[frozenset[str], frozenset[str]]:
    """The map's hexes and the units' ids (once per game object)."""
    hit = _KNOWN.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _KNOWN[id(game)] = (game, frozenset(h for m in game.hex_maps for h in m.hex_set),
                                  frozenset(u.id for u in game.units))
    return hit[1], hit[2]


def _stacking(game: Game, play: PlayRules, before: Position | None,
              action: tuple[str, Mapping[str, Any]] | None, after: Position) -> list[str]:
    """Stacking where the rules check it: after every move (``end-of-move``, ``move``), and
    once the phase is over (``end-of-phase``). Where a retreat may end over the limit
    (``retreat.overstack: allowed``) it holds in the hex a unit's move, placement or
    advance ends in."""
    when = play.stacking.when
    board = board_of(game)
    sides = [s.id for s in game.info.sides]
    if when == "end-of-phase":
        if before is None or before.phase == after.phase or before.phase is None:
            return []
        ended = phase(game, before.phase)
        if ended.do not in ("move", "rail", "reinforcements", "replacements") or after.pending:
            return []
        side = ended.who
        return [f"after {ended.id}: {what}" for _h, what in overstacked(board, after, side)]
    if after.pending:
        return []
    if before is None or action is None or play.retreat.overstack != "allowed":
        return [what for side in sides for _h, what in overstacked(board, after, side)]
    # a retreat may end over the limit (``retreat.overstack: allowed``): the limit holds
    # where a unit's own move, placement or advance ends
    unit = action[1].get("unit") if action[0] in _ENTERING else None
    if not unit or not after.has(str(unit)):
        return []
    piece = after.piece(str(unit))
    return [what for h, what in overstacked(board, after, piece.side) if h == piece.place]


#: the actions that end with their unit in a hex the stacking limit holds for
_ENTERING = ("move", "place", "advance", "replace")


def _move(game: Game, before: Position, args: Mapping[str, Any], after: Position) -> list[str]:
    piece = before.piece(str(args["unit"]))
    moved = after.piece(piece.id)
    board = board_of(game)
    p = current_phase(game, before)
    rail = p is not None and p.do == "rail"
    if moved.kind != "hex":
        return [f"{piece.id} left the map on a move"]
    if moved.place is None:
        return []  # on the board but nowhere: _pieces says so
    path = _path_of(board, before, piece, moved.place, args)
    if path is None:
        return []
    try:
        cost = check_path(game, before, piece, p, path, rail)
    except Exception as exc:  # noqa: BLE001 - the invariant reports what the rule said
        return [f"{piece.id} moved {piece.place} -> {moved.place} against the rules: {exc}"]
    mp = allowance(game, before, piece, p, rail).mp
    if cost > mp:
        return [f"{piece.id} spent {cost} MP of {mp}"]
    return []


def _path_of(board: Board, before: Position, piece: Piece, target: str,
             args: Mapping[str, Any]) -> tuple[int, ...] | None:
    if args.get("path"):
        return tuple(board.index[h.strip()] for h in str(args["path"]).split(","))
    game = board.game
    p = current_phase(game, before)
    found = reach(game, before, piece, p, p is not None and p.do == "rail")
    index = board.index[target]
    return found.path(index) if index in found.costs else ()


def current_phase(game: Game, position: Position) -> Phase | None:
    return phase(game, position.phase) if position.phase else None


def _turn(game: Game, position: Position) -> list[str]:
    if game.play is None:
        return []
    if position.turn not in turns(game):
        return [f"turn {position.turn} is not a turn of the game"]
    return []


def _verdict(before: Position, after: Position) -> list[str]:
    if before.verdict is not None and after.verdict != before.verdict:
        return ["the verdict changed after the game was decided"]
    return []

