"""Supply (communication) from data (docs/playing.md, "Supply").

A unit is in supply when a path leads from its hex to one of its side's sources
(``supply.sources``: map edges, hexes, features) through no blocked hex: one an enemy unit
holds, one in an enemy zone of control (unless a friendly unit holds it, with
``friendly_negates_zoc``), prohibited terrain. The path is at most ``length`` hexes (or MP
with ``trace: mp``), or any length. The source hex counts as entered. Without supply rules
every unit is in supply.
"""

from __future__ import annotations

import heapq

from ..model import Game, Place, SupplyRules
from ..position import Piece, Position
from .board import ALL_MP, Board, board_of
from .memo import memo_args
from .zoc import enemy_hexes, enemy_zoc, friendly_hexes


def rules(game: Game) -> SupplyRules | None:
    return game.play.supply if game.play is not None else None


def supplied_hexes(game: Game, position: Position, side: str | None) -> frozenset[int] | None:
    """The hexes from which ``side`` traces supply (None: every hex, no supply rules)."""
    supply = rules(game)
    if supply is None:
        return None
    return memo_args(position, "supply", side, lambda: _trace(game, board_of(game), position,
                                                              side, supply))


def in_supply(game: Game, position: Position, piece: Piece) -> bool:
    """Whether ``piece`` (on the map) traces supply now."""
    if piece.kind != "hex":
        return False
    hexes = supplied_hexes(game, position, piece.side)
    return hexes is None or board_of(game).of(piece) in hexes


def hex_in_supply(game: Game, position: Position, side: str | None, hex_index: int) -> bool:
    hexes = supplied_hexes(game, position, side)
    return hexes is None or hex_index in hexes


def _open(game: Game, position: Position, side: str | None, supply: SupplyRules,
          board: Board) -> list[bool]:
    """Whether each hex may be entered by a supply path of ``side``."""
    blocked: set[int] = set()
    if "enemy-units" in supply.blocked:
        blocked |= enemy_hexes(game, position, side)
    if "enemy-zoc" in supply.blocked:
        zoc = enemy_zoc(game, position, side)
        if supply.friendly_negates_zoc:
            zoc = zoc - friendly_hexes(game, position, side)
        blocked |= zoc
    prohibited = "prohibited" in supply.blocked
    return [i not in blocked and not (prohibited and board.enter[i] is None)
            for i in range(len(board.names))]


def sources(board: Board, supply: SupplyRules, side: str | None) -> frozenset[int]:
    places: tuple[Place, ...] = supply.sources.get(side or "", ())
    out: frozenset[int] = frozenset()
    for place in places:
        out |= board.places(place)
    return out


def _trace(game: Game, board: Board, position: Position, side: str | None,
           supply: SupplyRules) -> frozenset[int]:
    """The hexes a unit of ``side`` may stand in and trace supply from: ``D(x)``, the
    hexes (or MP) from ``x`` to a source through open hexes, is searched outwards from the
    open sources (``D`` 0); a unit's hex is supplied when it is a source, or next to an open
    hex ``y`` with ``D(y)`` plus the step into ``y`` within the length."""
    passable = _open(game, position, side, supply, board)
    every = sources(board, supply, side)
    start = [s for s in every if passable[s]]
    length = supply.length
    by_mp = supply.trace == "mp"
    distance = _search(board, passable, start, length, by_mp)
    out = set(every)
    for y, used in distance.items():
        for x in board.neighbours[y]:
            step = _step(board, x, y, by_mp)
            if step is not None and (length is None or used + step <= length):
                out.add(x)
    return frozenset(out)


def _step(board: Board, x: int, y: int, by_mp: bool) -> int | None:
    """What the step from ``x`` into ``y`` adds to a supply path (None: it cannot be
    taken)."""
    if not by_mp:
        return None if board.crossing.get((x, y), 0) is None else 1
    step = board.step_cost(x, y)
    if step is None:
        return None
    return 1 if step == ALL_MP else max(step, 1)


def _search(board: Board, passable: list[bool], start: list[int], length: int | None,
            by_mp: bool) -> dict[int, int]:
    """``D`` over the open hexes: from each to the nearest open source (see ``_trace``)."""
    best = dict.fromkeys(start, 0)
    heap = [(0, s) for s in sorted(start)]
    while heap:
        cost, y = heapq.heappop(heap)
        if best.get(y) != cost:
            continue
        for x in board.neighbours[y]:
            if not passable[x]:
                continue
            step = _step(board, x, y, by_mp)
            if step is None:
                continue
            total = cost + step
            if length is not None and total > length:
                continue
            if total < best.get(x, 10**9):
                best[x] = total
                heapq.heappush(heap, (total, x))
    return best


def has_supply_phase(game: Game) -> bool:
    """Whether the sequence sets supply at a ``do: supply`` phase (else it is traced when
    it matters)."""
    return any(p.do == "supply" for p in game.sequence)


def out_of_supply(game: Game, position: Position, piece: Piece) -> bool:
    """Whether ``piece`` counts as out of supply now: its flag from the last ``do: supply``
    phase, or (without such a phase) traced now."""
    if rules(game) is None or piece.kind != "hex":
        return False
    if has_supply_phase(game):
        return "oos" in piece.flags
    return not in_supply(game, position, piece)
