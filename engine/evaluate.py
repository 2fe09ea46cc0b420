"""How good a position is for one side, read from the game's data: what the greedy agent
maximises and where a search agent's playouts stop.

The score of a finished game is its verdict (a win :data:`WIN`, a loss ``-WIN``, a draw
0). Before that it adds, each from the data, the side's lead in:

- victory points, by every ``points`` victory record (``engine.play.victory.points``);
- hexes held that a ``hold`` victory record names (holding one the enemy needs counts as
  much as holding one's own);
- strength on the map: each piece's printed attack and defence (the CRT's stats; a piece
  of a game without a CRT counts its steps);
- supply: a unit out of supply counts against its side;
- nearness: the mean distance of the side's units to the victory hexes it does not hold
  yet (against the enemy's), a small pull so that a one-step look-ahead moves toward what
  wins.

Every term is "this side minus its enemies", so a score is zero-sum between two sides; the
sides of one alliance count together (a verdict may name the alliance that won).
"""

from __future__ import annotations

from collections import deque
from collections.abc import Mapping
from dataclasses import replace
from fractions import Fraction

from .model import Game, Place, VictoryCondition, VictoryPoints
from .play.board import Board, board_of
from .play.pieces import enemies, members, party, stats, units_of
from .play.victory import conditions, points
from .position import ON_BOARD, Position

#: the score of a game won (a loss is its negative)
WIN = 1000.0
#: weights of the terms (per victory point, per objective hex, per strength point, per unit
#: out of supply, per hex of mean distance)
WEIGHTS = {"points": 4.0, "hexes": 6.0, "strength": 1.0, "supply": 1.5, "near": 0.5}

_OBJECTIVES: dict[int, tuple[Game, tuple[int, ...], Mapping[int, int]]] = {}


def score(game: Game, position: Position, side: str | None) -> float:
    """``side``'s score of ``position`` (see the module docstring)."""
    verdict = position.verdict
    if verdict is not None:
        if verdict.winner is None:
            return 0.0
        return WIN if party(game, verdict.winner) == party(game, side) else -WIN
    foes = enemies(game, side) if game.info.sides else frozenset()
    total = WEIGHTS["strength"] * _strength(game, position, side, foes)
    if game.play is None or not game.hex_maps:
        return total
    board = board_of(game)
    total += WEIGHTS["points"] * _points(game, position, side, foes)
    total += WEIGHTS["hexes"] * _held(game, board, position, side, foes)
    total += WEIGHTS["supply"] * _supply(position, side, foes)
    theirs = [_distance(game, board, position, f) for f in sorted(foes)]
    total += WEIGHTS["near"] * ((sum(theirs) / len(theirs) if theirs else 0.0)
                                - _distance(game, board, position, side))
    return total


def _strength(game: Game, position: Position, side: str | None, foes: frozenset[str]) -> float:
    names = _strength_stats(game)
    known = units_of(game) if game.units else {}
    own = members(game, side) if game.info.sides else frozenset({side})
    total = 0.0
    for piece in position.pieces:
        if piece.kind not in ON_BOARD or piece.side is None:
            continue
        sign = 1.0 if piece.side in own else -1.0 if piece.side in foes else 0.0
        if not sign:
            continue
        if names and piece.unit in known:
            face = stats(game, piece)
            total += sign * sum(float(face.get(n) or 0) for n in names
                                if isinstance(face.get(n), int | float))
        else:
            total += sign * piece.step
    return total


def _strength_stats(game: Game) -> tuple[str, ...]:
    combat = game.play.combat if game.play else None
    if combat is None:
        return ()
    crt = game.table(combat.table).crt
    return tuple(n for n in (getattr(crt, "attack", None), getattr(crt, "defence", None)) if n)


def _points(game: Game, position: Position, side: str | None, foes: frozenset[str]) -> float:
    total = 0.0
    for c in conditions(game):
        if c.check == "points" and c.points:
            mine = points(game, position, c, side)
            theirs = max((points(game, position, c, f) for f in foes), default=0)
            total += mine - theirs
    return total


def _held(game: Game, board: Board, position: Position, side: str | None,
          foes: frozenset[str]) -> float:
    total = 0.0
    for hex_index in objectives(game)[0]:
        holder = position.control.get(board.names[hex_index])
        total += 1.0 if holder == side else -1.0 if holder in foes else 0.0
    return total


def _supply(position: Position, side: str | None, foes: frozenset[str]) -> float:
    total = 0.0
    for piece in position.pieces:
        if "oos" in piece.flags and piece.kind in ON_BOARD:
            total += -1.0 if piece.side == side else 1.0 if piece.side in foes else 0.0
    return total


def _distance(game: Game, board: Board, position: Position, side: str | None) -> float:
    """The mean distance of ``side``'s units to the nearest objective it does not hold."""
    hexes, _ = objectives(game)
    wanted = [h for h in hexes if position.control.get(board.names[h]) != side]
    if not wanted:
        return 0.0
    far = _distances(board, tuple(wanted))
    mine = [far.get(board.index[p.place], len(board.names)) for p in position.pieces
            if p.side == side and p.kind == "hex" and p.place is not None]
    return sum(mine) / len(mine) if mine else 0.0


def objectives(game: Game) -> tuple[tuple[int, ...], Mapping[int, int]]:
    """The hexes the ``hold`` and ``points`` victory records name, and their distances."""
    hit = _OBJECTIVES.get(id(game))
    if hit is None or hit[0] is not game:
        board = board_of(game)
        found: set[int] = set()
        for c in conditions(game):
            sources: list[VictoryCondition | VictoryPoints] = (
                [c, *c.points] if c.check == "points" else [c])
            for source in sources:
                if source.hexes or source.features or source.kinds:
                    found |= board.places(Place(hexes=source.hexes, features=source.features,
                                                kinds=source.kinds))
        hexes = tuple(sorted(found))
        hit = _OBJECTIVES[id(game)] = (game, hexes, _distances(board, hexes))
    return hit[1], hit[2]


_FAR: dict[tuple[int, tuple[int, ...]], dict[int, int]] = {}


def _distances(board: Board, targets: tuple[int, ...]) -> dict[int, int]:
    """Hexes (steps over the map's neighbours) from every hex to the nearest of
    ``targets``, computed once per board and target set."""
    key = (id(board), targets)
    hit = _FAR.get(key)
    if hit is None:
        hit = _FAR[key] = _bfs(board, targets)
    return hit


def _bfs(board: Board, targets: tuple[int, ...]) -> dict[int, int]:
    far = {t: 0 for t in targets}
    queue = deque(targets)
    while queue:
        here = queue.popleft()
        for n in board.neighbours[here]:
            if n not in far:
                far[n] = far[here] + 1
                queue.append(n)
    return far


def lead(game: Game, position: Position) -> Fraction | float:
    """How one-sided a finished game was: the winner's score without the verdict (0 for a
    draw or an unfinished game)."""
    verdict = position.verdict
    if verdict is None or verdict.winner is None:
        return 0.0
    return score(game, replace(position, verdict=None), verdict.winner)
