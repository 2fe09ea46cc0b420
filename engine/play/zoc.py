"""Zones of control from data (docs/playing.md, "Zones of control").

A unit the ``zoc.units`` selector names exerts a zone of control into each hex next to
it, except across a hexside of a kind in ``zoc.hexsides`` or into a hex of a terrain in
``zoc.terrain``. What a zone does is a switch: ``none``; ``stop`` (a unit entering an
enemy zone ends its move); ``locking`` (and a unit that begins its move in one may not
leave it); ``leave_cost`` MP to leave; ``zoc_to_zoc`` whether a move may go straight from
one enemy-zone hex into another. Retreats and supply read the same zones
(``friendly_negates_zoc`` in their rules).
"""

from __future__ import annotations

from ..model import Game, ZocRules
from ..position import Position
from .board import Board, board_of
from .memo import memo_args
from .pieces import enemies, matches


def rules(game: Game) -> ZocRules:
    return game.play.zoc if game.play is not None else ZocRules()


def zoc_of(game: Game, position: Position, side: str | None) -> frozenset[int]:
    """The hexes in the zone of control of ``side``'s units (hex numbers of the board)."""
    zoc = rules(game)
    if zoc.kind == "none":
        return frozenset()
    return memo_args(position, "zoc", side, lambda: _zoc(game, board_of(game), position,
                                                          side, zoc))


def _zoc(game: Game, board: Board, position: Position, side: str | None,
         zoc: ZocRules) -> frozenset[int]:
    out: set[int] = set()
    closed_sides, closed_hexes = board.zoc_closed_sides, board.zoc_closed_hexes
    for piece in position.pieces:
        if piece.side != side or piece.kind != "hex" or not matches(game, piece, zoc.units):
            continue
        here = board.of(piece)
        for n in board.neighbours[here]:
            if n not in closed_hexes and (here, n) not in closed_sides:
                out.add(n)
    return frozenset(out)


def enemy_zoc(game: Game, position: Position, side: str | None) -> frozenset[int]:
    """The hexes in the zone of control of any enemy of ``side``."""
    def make() -> frozenset[int]:
        out: frozenset[int] = frozenset()
        for enemy in sorted(enemies(game, side)):
            out |= zoc_of(game, position, enemy)
        return out

    return memo_args(position, "enemy_zoc", side, make)


def enemy_hexes(game: Game, position: Position, side: str | None) -> frozenset[int]:
    """The hexes an enemy of ``side`` occupies."""
    def make() -> frozenset[int]:
        board = board_of(game)
        foes = enemies(game, side)
        return frozenset(board.index[h] for h, s in position.occupied.items() if s in foes)

    return memo_args(position, "enemy_hexes", side, make)


def friendly_hexes(game: Game, position: Position, side: str | None) -> frozenset[int]:
    def make() -> frozenset[int]:
        board = board_of(game)
        return frozenset(board.index[h] for h, s in position.occupied.items() if s == side)

    return memo_args(position, "friendly_hexes", side, make)
