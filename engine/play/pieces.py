"""Pieces as the play forms read them: a unit's record, its face's stats, whether a
selector names it, how much of a stacking limit it takes, who the enemy is."""

from __future__ import annotations

from collections.abc import Mapping
from fractions import Fraction
from typing import Any

from ..errors import BadInput
from ..model import Game, Selector, StackingLimit, Unit
from ..position import Piece, Position
from ..records import evolve
from .board import Board
from .memo import memo

_UNITS: dict[int, tuple[Game, dict[str, Unit]]] = {}


def units_of(game: Game) -> dict[str, Unit]:
    """The game's units by id (computed once per game object)."""
    hit = _UNITS.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _UNITS[id(game)] = (game, {u.id: u for u in game.units})
    return hit[1]


def unit_of(game: Game, piece: Piece) -> Unit:
    try:
        return units_of(game)[piece.unit]
    except KeyError:
        raise BadInput(f"piece {piece.id!r} is a counter of {piece.unit!r}, which is no unit "
                       f"of {game.id}") from None


def full_steps(unit: Unit) -> int:
    return unit.steps or 1


def reduced(game: Game, piece: Piece) -> bool:
    """Whether the piece shows a reduced face (fewer steps than its unit has)."""
    return piece.step < full_steps(unit_of(game, piece))


def stats(game: Game, piece: Piece) -> Mapping[str, Any]:
    """The stats the piece's face shows: the unit's, with its ``back`` over them when
    reduced."""
    unit = unit_of(game, piece)
    if piece.step < full_steps(unit) and isinstance(unit.back, Mapping):
        return {**unit.stats, **unit.back}
    return unit.stats


def stat(game: Game, piece: Piece, name: str) -> Fraction:
    """A number of the piece's face; BadInput naming the stats it has when it lacks one."""
    value = stats(game, piece).get(name)
    if isinstance(value, bool) or not isinstance(value, int | float):
        have = ", ".join(stats(game, piece)) or "none"
        raise BadInput(f"unit {piece.unit!r} has no number {name!r} (stats: {have})")
    return Fraction(str(value)) if isinstance(value, float) else Fraction(value)


def printed_strength(game: Game, piece: Piece, name: str, step: int | None = None) -> Fraction:
    """The printed ``name`` stat of the piece at ``step`` steps (its present one by
    default): what an exchange compares; 0 once eliminated."""
    step = piece.step if step is None else step
    if step <= 0:
        return Fraction(0)
    return stat(game, evolve(piece, step=step), name)


def matches(game: Game, piece: Piece, selector: Selector | None) -> bool:
    """Whether ``selector`` names the piece (None names every piece)."""
    if selector is None:
        return True
    unit = unit_of(game, piece)
    if selector.types and unit.type not in selector.types:
        return False
    if selector.tags and not set(selector.tags) & set(unit.tags):
        return False
    if selector.units and unit.id not in selector.units and piece.id not in selector.units:
        return False
    return not (selector.side and piece.side != selector.side)


def sides(game: Game) -> tuple[str, ...]:
    return tuple(s.id for s in game.info.sides)


def enemies(game: Game, side: str | None) -> frozenset[str]:
    """The sides at war with ``side``: every other side (alliances are one side here);
    ``side`` may also name an alliance (a verdict's winner may be one)."""
    alliance = party(game, side)
    return frozenset(s.id for s in game.info.sides
                     if s.id != side and (s.alliance or s.id) != alliance)


def party(game: Game, side: str | None) -> str | None:
    """Who wins or loses with ``side``: its alliance, or the side itself when it has none
    (an alliance's id names the alliance)."""
    mine = next((s for s in game.info.sides if s.id == side), None)
    return (mine.alliance or mine.id) if mine is not None else side


def members(game: Game, side: str | None) -> frozenset[str]:
    """The sides that win or lose with ``side`` (itself among them; an alliance's id: its
    sides)."""
    mine = party(game, side)
    return frozenset({s.id for s in game.info.sides if party(game, s.id) == mine}
                     | ({side} if side is not None else set()))


def parties(game: Game) -> tuple[str, ...]:
    """Who can win, in the order of the sides: the alliances and the sides of none."""
    return tuple(dict.fromkeys(s.alliance or s.id for s in game.info.sides))


def limit_at(board: Board, hex_index: int, side: str | None) -> StackingLimit | None:
    return board.limits(side)[hex_index]


def load(game: Game, limit: StackingLimit, piece: Piece) -> int:
    """How much of ``limit`` the piece takes: 1 unit, or its steps."""
    return piece.step if limit.of == "steps" else 1


def _loads(board: Board, position: Position) -> dict[int, tuple[tuple[str, str | None, int], ...]]:
    """Every occupied hex -> its pieces as (id, side, step), worked out once per position."""
    def make() -> dict[int, tuple[tuple[str, str | None, int], ...]]:
        out: dict[int, list[tuple[str, str | None, int]]] = {}
        for p in position.pieces:
            if p.kind == "hex":
                out.setdefault(board.of(p), []).append((p.id, p.side, p.step))
        return {k: tuple(v) for k, v in out.items()}

    return memo(position, "loads", make)


def room(board: Board, position: Position, hex_index: int, piece: Piece,
         leaving: frozenset[str] = frozenset()) -> bool:
    """Whether ``piece`` may stand in the hex without passing its stacking limit (pieces
    ``leaving`` the hex do not count)."""
    limit = board.limits(piece.side)[hex_index]
    if limit is None:
        return True
    steps = limit.of == "steps"
    used = 0
    for pid, side, step in _loads(board, position).get(hex_index, ()):
        if pid != piece.id and pid not in leaving and (limit.side is None or side == limit.side):
            used += step if steps else 1
    return used + (piece.step if steps else 1) <= limit.limit


def overstacked(board: Board, position: Position, side: str | None) -> list[tuple[str, str]]:
    """``(hex, what)`` for every hex where ``side``'s pieces pass their limit."""
    game = board.game
    out = []
    for hex_id in sorted({p.place for p in position.of_side(side)
                          if p.kind == "hex" and p.place is not None}):
        limit = limit_at(board, board.index[hex_id], side)
        if limit is None:
            continue
        here = [p for p in position.in_hex(hex_id) if limit.side is None or p.side == limit.side]
        used = sum(load(game, limit, p) for p in here)
        if used > limit.limit:
            ids = ", ".join(p.id for p in here)
            out.append((hex_id, f"hex {hex_id} holds {used} {limit.of} ({ids}): stacking "
                                f"limit {limit.limit}"))
    return out


def stacking_rule(game: Game) -> str:
    """The rule of the stacking limits (the first cited), for refusals."""
    for s in game.stacking:
        if s.rule:
            return s.rule[0]
    return "stacking"
