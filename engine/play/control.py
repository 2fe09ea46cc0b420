"""Which hexes a game keeps the control of, and who holds them at the start.

A hex is held by the side whose unit was last in it (entering it on a move counts, as do
retreats, advances and placements). The game keeps the control of the hexes its
``play.control`` names (``features``, ``kinds``, ``hexes`` or ``all``), and of every hex a
victory condition or a placement rule reads (``owned: yes``). At the start a hex is
``play.control.initial``'s, unless a set-up unit stands in it.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..model import FrozenDict, Game, Place, Reinforcement, Replacement
from ..position import Position
from .board import board_of
from .context import Context

_KEPT: dict[int, tuple[Game, frozenset[str]]] = {}


def controlled(game: Game) -> frozenset[str]:
    """The hex ids whose control the game keeps (computed once per game)."""
    hit = _KEPT.get(id(game))
    if hit is None or hit[0] is not game:
        hit = _KEPT[id(game)] = (game, _kept(game))
    return hit[1]


def _kept(game: Game) -> frozenset[str]:
    if game.play is None or not game.hex_maps:
        return frozenset()
    board = board_of(game)
    rules = game.play.control
    if rules.all:
        return frozenset(board.names)
    indexes: set[int] = set()
    indexes |= board.places(Place(hexes=rules.hexes, features=rules.features,
                                  kinds=rules.kinds)) if (rules.hexes or rules.features
                                                          or rules.kinds) else set()
    for condition in game.victory:
        if condition.check in ("hold", "points"):
            if condition.hexes or condition.features or condition.kinds:
                indexes |= board.places(Place(hexes=condition.hexes,
                                              features=condition.features,
                                              kinds=condition.kinds))
            for source in condition.points:
                if source.hexes or source.features or source.kinds:
                    indexes |= board.places(Place(hexes=source.hexes, features=source.features,
                                                  kinds=source.kinds))
    arrivals: tuple[Replacement | Reinforcement, ...] = (*game.replacements,
                                                         *game.reinforcements)
    for record in arrivals:
        for place in record.at:
            if place.owned:
                indexes |= board.places(place)
    return frozenset(board.names[i] for i in indexes)


def initial_control(game: Game, position: Position) -> Position:
    """The control at the start: ``play.control.initial`` (if any), then each kept hex a
    set-up unit stands in is its side's."""
    kept = controlled(game)
    start = game.play.control.initial if game.play else None
    control = {h: start for h in sorted(kept) if start is not None}
    for piece in position.pieces:
        if piece.kind == "hex" and piece.place in kept and piece.side is not None:
            control[piece.place] = piece.side
    return position.with_control(FrozenDict(control)) if control else position


def take_control(ctx: Context, position: Position, side: str | None,
                 hexes: Iterable[str]) -> Position:
    """The hexes a unit of ``side`` entered are held by ``side`` (those whose control the
    game keeps)."""
    kept = controlled(ctx.game)
    changes = {h: side for h in hexes if h in kept and side is not None}
    return position.with_control(changes) if changes else position
