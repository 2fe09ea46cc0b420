"""Searchlights and flares [14, 21.2, 24.5.3, 26.2.2, 28.3]: dice, captures, hand-off.

A zone holds at most one capture; in cloud searchlights cannot search (flares still can);
at high altitude markers are placed but no roll is made.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace

from warpress.engine.dice import Dice
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import naval
from .common import TASK_FORCE_ZONE, const, grid, modifier, scaled
from .detection import Choose, first, sighting_dice, zone_hexes
from .state import Bomber, Environment, Night

# --- searchlights [14] --------------------------------------------------------------------


def searchlight_dice(game: Game, env: Environment, *, mode: str = "searchlight",
                     flare_too: bool = False, confusion: bool = False, jammed: bool = False,
                     searchlights_too: bool = False) -> int:
    """Dice of one searchlight roll [14.2.1, 14.2.4, 14.3, 24.5.3, 28.3]: visibility + moon, or
    4 radar-guided or hand-off; a flare zone 1 (+1 moon; exactly 1 in cloud with searchlights,
    E23); +1 with flares too; confusion halves rounded up (not hand-off)."""
    table = game.table("searchlight-dice")
    if jammed and mode == "radar-guided":
        mode = modifier(table, "jammed")
    if mode == "flare" and env.clouds == "overcast" and searchlights_too:
        moon = "new"
    else:
        moon = env.moon
    row = lookup(table, mode=mode, moon=moon)
    dice = row["dice"] if row["dice"] is not None else sighting_dice(game, env.visibility,
                                                                     env.moon)
    if flare_too and mode != "flare":
        dice += modifier(table, "flare-too")
    if confusion and mode != "hand-off":
        dice = scaled(dice, modifier(table, "confusion"))
    return dice



def capture_candidates(game: Game, night: Night, zone: str,
                       results: Iterable[int]) -> tuple[str, ...]:
    """Bombers of ``zone`` whose sighting number was rolled, the nearest to any night fighter
    first; the ties at the least distance for the umpire [14.2.1, E22]."""
    g = grid(game)
    hexes = zone_hexes(game, zone)
    rolled = set(results)
    found = [b for b in night.on_map_bombers() if b.hex in hexes and b.sighting in rolled]
    fighters = [f.hex for f in night.fighters if f.on_map and f.hex]
    if not found:
        return ()

    def gap(b: Bomber) -> int:
        return min((g.distance(b.hex, h) for h in fighters), default=0)

    best = min(gap(b) for b in found)
    return tuple(sorted(b.id for b in found if gap(b) == best))


def search_dice_for_zone(game: Game, night: Night, zone: str, *,
                         confusion_rule: bool = False) -> int:
    """Dice of the searchlight (or flare) roll of ``zone`` from the night [14.1-14.3, 21.2,
    24.5.3, 28.3]; RuleViolation where no roll is made."""
    if zone not in night.zones:
        raise RuleViolation("14.2", f"zone {zone!r} is not available in this scenario")
    if any(z == zone for z, _ in night.captures):
        raise RuleViolation("14.2.2", f"zone {zone!r} already holds a capture")
    flare = zone in night.flare_zones or (
        night.task_force and zone == TASK_FORCE_ZONE and naval.task_force_lit(night))
    searchlit = not (night.task_force and zone == TASK_FORCE_ZONE)
    cloud = night.env.clouds == "overcast"
    if night.env.altitude == "high":
        raise RuleViolation("21.2", "at high altitude search markers are placed, no roll made")
    if not searchlit and not flare:
        raise RuleViolation("26.1", "the Task Force box has no searchlights")
    if cloud and not flare:
        raise RuleViolation("14.1", "searchlights cannot search or capture in cloud")
    confusion = confusion_rule and _fighter_near_zone(game, night, zone)
    if flare and (cloud or not searchlit):
        return searchlight_dice(game, night.env, mode="flare", searchlights_too=searchlit,
                                confusion=confusion)
    mode = "radar-guided" if night.radar_guided else "searchlight"
    return searchlight_dice(game, night.env, mode=mode, flare_too=flare, confusion=confusion,
                            jammed=night.searchlight_jammed)


def _fighter_near_zone(game: Game, night: Night, zone: str) -> bool:
    """Optional 28.3: a night fighter in a zone hex or adjacent to the zone."""
    g = grid(game)
    reach = const(game, "confusion-range")
    hexes = zone_hexes(game, zone)
    return any(f.on_map and f.hex and min(g.distance(f.hex, h) for h in hexes) <= reach
               for f in night.fighters)


def searchlight_search(game: Game, night: Night, zone: str, dice: Dice, *,
                       confusion_rule: bool = False, choose: Choose = first) -> Night:
    """One searchlight roll for ``zone`` [14.2.1-14.2.2, 14.1, 14.3, 21.2]: a capture if a
    rolled number (dice ``searchlight``) matches a bomber there; one capture per zone."""
    count = search_dice_for_zone(game, night, zone, confusion_rule=confusion_rule)
    results = [dice.roll("d6", "searchlight") for _ in range(count)]
    options = capture_candidates(game, night, zone, results)
    if not options:
        return night
    return replace(night, captures=(*night.captures, (zone, choose(options))))


def hand_off(game: Game, dice: Dice, sighting: int) -> bool:
    """Hand-off [14.2.4]: 4 dice; the target's sighting number among them keeps the capture."""
    count = searchlight_dice(game, Environment(), mode="hand-off")
    results = [dice.roll("d6", "hand_off") for _ in range(count)]
    return sighting in results
