"""Naval operations [26]: the Task Force box (zone N), flare droppers and torpedo bombers.

Flare droppers enter at a flare-dropper entry hex (the chit's top number) and follow the
chain of hexes its arrows show (map features ``flare-path-NN``, assumed).
A torpedo bomber launches when it ends its move in the Task Force box; a flare dropper
ending there puts the flare counter 3 turns ahead [26.2.2].
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game

from .common import TASK_FORCE_ZONE, grid
from .detection import zone_of
from .movement import flare_counter, flare_lit, remove_bomber
from .state import ON_MAP, Bomber, Night


def flare_route(game: Game, number: int) -> tuple[str, ...]:
    """The hexes of the arrow path from flare-dropper entry hex ``number``, in order."""
    try:
        return tuple(game.hex_map().feature(f"flare-path-{number:02d}").hexes)
    except BadInput:
        raise BadInput(f"input number={number!r} is not a flare-dropper entry hex (01-18)") \
            from None


@dataclass(frozen=True)
class RouteMove:
    """Hexes entered along a flare path, the final facing, and whether it left the map."""

    path: tuple[str, ...]
    facing: int
    exited: bool


def route_move(game: Game, route: tuple[str, ...], hex_id: str | None, mp: int,
               facing: int) -> RouteMove:
    """Follow ``route`` from ``hex_id`` (None: entering, the entry hex costs 1 MP) [26.2.1];
    past the last hex it leaves the map (one more MP)."""
    g = grid(game)
    if hex_id is None:
        index = -1
    elif hex_id in route:
        index = route.index(hex_id)
    else:
        raise RuleViolation("26.2.1", f"hex {hex_id!r} is not on the flare dropper's path")
    path: list[str] = []
    for _ in range(mp):
        if index + 1 >= len(route):
            return RouteMove(tuple(path), facing, True)
        index += 1
        if path or hex_id is not None:
            facing = g.direction(path[-1] if path else hex_id, route[index])
        path.append(route[index])
    return RouteMove(tuple(path), facing, False)


def enter_flare_dropper(game: Game, night: Night, bomber_id: str, number: int,
                        mp_used: int) -> Night:
    """A flare dropper enters at entry hex ``number`` facing its arrow, using 1..MP [26.2.1]."""
    bomber = night.bomber(bomber_id)
    route = flare_route(game, number)
    first, second = route[0], route[1]
    move = route_move(game, route, None, mp_used, grid(game).direction(first, second))
    return night.with_bomber(replace(bomber, hex=move.path[-1], facing=move.facing,
                                     status=ON_MAP, route=number, moved=mp_used))


def move_flare_dropper(game: Game, night: Night, bomber: Bomber, mp: int) -> Night:
    """Bomber Movement for a flare dropper: along its path, not down a column [26.2.1]."""
    move = route_move(game, flare_route(game, bomber.route), bomber.hex, mp, bomber.facing)
    if move.exited:
        return remove_bomber(night, bomber, "exited")
    end = move.path[-1] if move.path else bomber.hex
    return night.with_bomber(replace(bomber, hex=end, facing=move.facing, moved=mp))


def in_task_force_box(game: Game, night: Night, hex_id: str | None) -> bool:
    """Whether ``hex_id`` is in the Task Force box (zone N with the Task Force) [26.1]."""
    return night.task_force and zone_of(game, hex_id, (TASK_FORCE_ZONE,)) is not None


def after_movement(game: Game, night: Night) -> Night:
    """End of the Bomber Movement phase at sea: torpedo bombers in the box have launched
    [26.3]; a flare dropper in the box moves the flare counter to turn + 3 [26.2.2]."""
    if not night.task_force:
        return night
    for b in night.on_map_bombers():
        if not in_task_force_box(game, night, b.hex):
            continue
        if b.kind == "torpedo" and not b.launched:
            night = night.with_bomber(replace(b, launched=True))
        elif b.kind == "flare-dropper":
            night = replace(night, flare_counter=flare_counter(game, night.turn,
                                                               night.flare_counter))
    return night


def task_force_lit(night: Night) -> bool:
    """The task force is flare-illuminated until the turn marker reaches the counter."""
    return flare_lit(night.turn, night.flare_counter)
