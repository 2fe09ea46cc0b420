"""Victory decided from data (docs/playing.md, "Victory").

A ``victory`` record with ``check`` is evaluated by a session: ``hold`` (a side holds all,
or ``any``, of some hexes), ``points`` (victory points from hexes held and enemy units or
steps eliminated: ``target`` wins at once, ``levels`` grade the margin at the end) or
``eliminate`` (a side has no unit left on the map). ``at`` says when: ``phase-end`` and
``turn-end`` checks end the game when met (sudden death), ``end`` ones at the end of the
last turn. At the end, when no record decides, the first ``otherwise`` given decides (a
side or ``draw``), else the game is a draw. The verdict names its record and rule.
"""

from __future__ import annotations

from typing import Literal, overload

from ..model import Game, Place, VictoryCondition, VictoryPoints
from ..position import Position, Verdict
from .board import Board, board_of
from .pieces import enemies, full_steps, matches, sides, unit_of


def conditions(game: Game) -> list[VictoryCondition]:
    return [c for c in game.victory if c.check is not None]


def _hexes(board: Board, c: VictoryCondition | VictoryPoints) -> list[str]:
    indexes = board.places(Place(hexes=c.hexes, features=c.features, kinds=c.kinds))
    return sorted(board.names[i] for i in indexes)


def points(game: Game, position: Position, c: VictoryCondition, side: str | None) -> int:
    """``side``'s victory points by record ``c``."""
    board = board_of(game)
    total = 0
    foes = enemies(game, side)
    for source in c.points:
        if source.hexes or source.features or source.kinds:
            held = [h for h in _hexes(board, source) if position.control.get(h) == side]
            total += source.vp * len(held)
        if source.eliminated is not None:
            for piece in position.pieces:
                if piece.side not in foes or not matches(game, piece, source.eliminated):
                    continue
                if source.per_step:
                    lost = full_steps(unit_of(game, piece)) - max(piece.step, 0)
                    total += source.vp * lost
                elif piece.kind == "eliminated":
                    total += source.vp
    return total


def _holder(game: Game, position: Position, c: VictoryCondition) -> str | None:
    hexes = _hexes(board_of(game), c)
    if not hexes:
        return None
    candidates = [c.side] if c.side else list(sides(game))
    for side in candidates:
        held = [h for h in hexes if position.control.get(h) == side]
        if (c.any and held) or (not c.any and len(held) == len(hexes)):
            return side
    return None


def _rules(c: VictoryCondition) -> tuple[str, ...]:
    return c.rule


def _verdict(c: VictoryCondition, winner: str | None, reason: str,
             result: str | None = None) -> Verdict:
    return Verdict(winner, result or (c.result or "win" if winner else "draw"), reason,
                   _rules(c), c.id)


def decide(game: Game, position: Position, c: VictoryCondition,
           final: bool) -> Verdict | None:
    """The verdict of record ``c`` now, if it decides the game (``final``: the last turn is
    over)."""
    if c.turns and position.turn not in c.turns and not final:
        return None
    if c.check == "hold":
        holder = _holder(game, position, c)
        if holder is not None:
            hexes = ", ".join(_hexes(board_of(game), c))
            return _verdict(c, holder, f"{holder} holds {'one of ' if c.any else ''}{hexes}")
        return None
    if c.check == "eliminate":
        for side in ([c.side] if c.side else sides(game)):
            foes = enemies(game, side)
            left = [p for p in position.pieces if p.side in foes and p.kind == "hex"]
            if not left and any(p.side in foes for p in position.pieces):
                return _verdict(c, side, f"no unit of {', '.join(sorted(foes))} is left on "
                                         f"the map")
        return None
    if c.check == "points":
        return _by_points(game, position, c, final)
    return None


def _by_points(game: Game, position: Position, c: VictoryCondition,
               final: bool) -> Verdict | None:
    scoring = [c.side] if c.side else list(sides(game))
    score = {s: points(game, position, c, s) for s in scoring}
    shown = ", ".join(f"{s} {v} VP" for s, v in score.items())
    if c.target is not None:
        reached = [s for s in scoring if score[s] >= c.target]
        if reached:
            return _verdict(c, reached[0], f"{shown}: {reached[0]} has {c.target} or more")
        if not final or c.at != "end" and not c.levels:
            return None
    if not final:
        return None
    if len(scoring) == 1:
        return None
    ranked = sorted(scoring, key=lambda s: -score[s])
    margin = score[ranked[0]] - score[ranked[1]]
    if margin <= 0:
        return None
    result = c.result or "win"
    for level in sorted(c.levels, key=lambda lv: -lv.margin):
        if margin >= level.margin:
            result = level.result
            break
    else:
        if c.levels:
            return None
    return _verdict(c, ranked[0], f"{shown}: {ranked[0]} leads by {margin}", result)


@overload
def check(game: Game, position: Position, at: str, final: Literal[True]) -> Verdict: ...


@overload
def check(game: Game, position: Position, at: str, final: bool = False) -> Verdict | None: ...


def check(game: Game, position: Position, at: str, final: bool = False) -> Verdict | None:
    """The first verdict of the records checked ``at`` (phase-end, turn-end, end); at the
    end every record is checked, then ``otherwise``."""
    order = {"phase-end": ("phase-end",), "turn-end": ("phase-end", "turn-end"),
             "end": ("phase-end", "turn-end", "end")}[at]
    for c in conditions(game):
        if c.at in order:
            verdict = decide(game, position, c, final)
            if verdict is not None:
                return verdict
    if not final:
        return None
    for c in conditions(game):
        if c.otherwise:
            if c.otherwise == "draw":
                return Verdict(None, "draw", f"no side met {c.name or c.id}", c.rule, c.id)
            return Verdict(c.otherwise, c.result or "win",
                           f"no side met {c.name or c.id}: {c.otherwise} wins", c.rule, c.id)
    return Verdict(None, "draw", "the last turn ended and no victory condition was met")
