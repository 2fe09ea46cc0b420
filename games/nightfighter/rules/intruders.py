"""Intruders [27]: behaviour fixed at the start of the Bomber Movement phase, Serrate and Chase
moves, the stop on entering the target's hex. Intruders move after all bombers [7.2.1, E7].
"""

from __future__ import annotations

from dataclasses import replace

from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import movement, radars
from .common import REAR_LEFT, column_of, grid, relative_hex
from .detection import Choose, first
from .state import Bomber, Night


def ai_target(game: Game, night: Night, intruder: Bomber, choose: Choose = first) -> str | None:
    """The defending fighter the intruder's AI radar detects (never jammed; no marker, the
    player is not told) [27.2.3]."""
    radar = radars.unit_radar(game, intruder.unit) if intruder.unit else None
    if radar is None:
        return None
    fighters = [f for f in night.fighters if f.on_map]
    hexes = radars.ai_candidates(game, intruder.hex, intruder.facing, radar,
                                    [f.hex for f in fighters], night.env.altitude)
    ids = sorted(f.id for f in fighters if f.hex in hexes)
    return choose(ids) if ids else None


def wide_arc_fighters(game: Game, night: Night, intruder: Bomber) -> tuple[str, ...]:
    """Defending fighters in the intruder's Wide arc at any range [27.2.2]."""
    g = grid(game)
    return tuple(sorted(f.id for f in night.fighters if f.on_map
                        and g.in_arc(intruder.hex, intruder.facing, f.hex, "wide")))


def behaviour(game: Game, night: Night, intruder: Bomber) -> str:
    """Chase (AI contact on a fighter, first), Serrate (a fighter in the Wide arc while flying
    down a column), or like a bomber (table intruder-behaviour) [27.2]."""
    column_flyer = intruder.facing == movement.bomber_facing(game)
    row = lookup(game.table("intruder-behaviour"),
                 ai_contact="yes" if ai_target(game, night, intruder) else "no",
                 fighter_in_wide_arc="yes" if (wide_arc_fighters(game, night, intruder)
                                                and column_flyer) else "no")
    return row["behaviour"]


def serrate_side(game: Game, night: Night, intruder: Bomber, choose: Choose = first) -> str:
    """Ahead, left or right: toward the nearest column holding a fighter of the Wide arc; ties
    for the umpire (ahead = the same column) [27.2.2]."""
    home = column_of(game, intruder.hex)
    cols = sorted({column_of(game, night.fighter(f).hex)
                   for f in wide_arc_fighters(game, night, intruder)},
                  key=lambda c: (abs(c - home), c))
    if not cols:
        raise RuleViolation("27.2.2", f"intruder {intruder.id!r} has no fighter in its Wide arc")
    best = [c for c in cols if abs(c - home) == abs(cols[0] - home)]
    column = choose(best)
    if column == home:
        return "ahead"
    left = relative_hex(game, intruder.hex, intruder.facing, REAR_LEFT)
    left_sign = (column_of(game, left) - home) if left else (1 if home == 1 else -1)
    return "left" if (column - home) * left_sign > 0 else "right"


def move_intruder(game: Game, night: Night, intruder_id: str, *, slower: bool = False,
                  plan: str | None = None, choose: Choose = first) -> tuple[Night, str]:
    """Move one intruder [27.2-27.2.4]: its maximum MP or one less (``slower``); Serrate
    displaces toward the fighter then flies straight; Chase follows the umpire's ``plan``
    like a fighter; like a bomber otherwise. It stops on entering its target's hex."""
    intruder = night.bomber(intruder_id)
    if intruder.kind != "intruder":
        raise RuleViolation("27.2", f"{intruder_id!r} is not an intruder")
    kind = behaviour(game, night, intruder)
    mp = movement.bomber_mp(game, intruder, night.turn)
    if slower:
        mp -= game.constant("intruder-mp-reduction-max")
    if kind == "chase":
        return _chase(game, night, intruder, plan, mp, choose), kind
    side = serrate_side(game, night, intruder, choose) if kind == "serrate" else "ahead"
    move = movement.serrate_path(game, intruder.hex, intruder.facing, side, mp)
    targets = {night.fighter(f).hex for f in wide_arc_fighters(game, night, intruder)}
    path = list(move.path)
    for i, hex_id in enumerate(path):
        if kind == "serrate" and hex_id in targets:
            return night.with_bomber(replace(intruder, hex=hex_id, moved=i + 1)), kind
    if move.exited:
        return movement.remove_bomber(night, intruder, "exited"), kind
    end = path[-1] if path else intruder.hex
    return night.with_bomber(replace(intruder, hex=end, moved=mp)), kind


def _chase(game: Game, night: Night, intruder: Bomber, plan: str | None, mp: int,
           choose: Choose) -> Night:
    """Chase [27.2.3]: the umpire flies it like a night fighter toward its AI target."""
    if plan is None:
        raise RuleViolation("27.2.3", "a chasing intruder moves by the umpire's plan")
    target = night.fighter(ai_target(game, night, intruder, choose))
    move = movement.check_fighter_plan(game, intruder.hex, intruder.facing, plan, max_mp=mp,
                                       min_mp=0)
    if target.hex in move.path:
        steps = movement.parse_plan(plan)
        moves = [i for i, s in enumerate(steps) if s == movement.MOVE]
        prefix = "".join(steps[: moves[move.path.index(target.hex)] + 1])
        move = movement.check_fighter_plan(game, intruder.hex, intruder.facing, prefix,
                                           max_mp=mp, min_mp=0)
    elif move.left_map:
        return movement.remove_bomber(night, intruder, "exited")
    end = move.path[-1] if move.path else intruder.hex
    return night.with_bomber(replace(intruder, hex=end, facing=move.facing,
                                     moved=move.mp_spent))
