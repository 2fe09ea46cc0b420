"""A session's position as a picture: the kit's hex map with every piece on the map drawn
in its hex by the kit's own counter code (its reduced side when it has lost a step), for
``warpress play status --map FILE`` (``.svg`` or ``.png``)."""

from __future__ import annotations

from ..engine.model import Game, Phase
from ..engine.play.pieces import reduced, units_of
from ..engine.play.sequence import phases
from ..engine.position import Position
from .impose import Piece
from .position_map import draw_map_with_pieces, piece_for


def phases_by_id(game: Game) -> dict[str, Phase]:
    return {p.id: p for p in phases(game)}


def stacks_of(game: Game, position: Position, map_id: str) -> list[tuple[str, list[Piece]]]:
    """Each occupied hex of the map and its counters, in piece order."""
    hexes = next(m for m in game.hex_maps if m.id == map_id).hex_set
    units = units_of(game)
    stacks: dict[str, list[Piece]] = {}
    for piece in position.pieces:
        if piece.kind != "hex" or piece.place not in hexes:
            continue
        face = reduced(game, piece) if piece.unit in units else False
        stacks.setdefault(piece.place, []).append(piece_for(game, piece.unit, face))
    return sorted(stacks.items())


def title_of(game: Game, position: Position) -> str:
    """``Battle · turn 3 · German movement``: the game, the turn and the phase's name."""
    named = phases_by_id(game).get(position.phase or "")
    phase = (named.name or named.id) if named is not None else ""
    over = " · game over" if position.over else ""
    return f"{game.info.name} · turn {position.turn}{' · ' + phase if phase else ''}{over}"


def draw_position(game: Game, position: Position, fmt: str) -> bytes:
    """The first hex map of ``game`` with ``position``'s pieces, as ``fmt`` bytes."""
    hex_map = game.hex_maps[0]
    return draw_map_with_pieces(game, hex_map.id, stacks_of(game, position, hex_map.id), fmt,
                                title=title_of(game, position))
