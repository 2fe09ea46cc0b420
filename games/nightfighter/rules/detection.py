"""Finding bombers: sighting [10, 15], radar search and sweeps [13, 24, 25], AI radar [19, 21.1],
searchlights and hand-off [14], tail warning [27.3].

Every function is pure: it reads the game data and a ``Night`` and returns results (or a new
``Night``). Where the rules leave a choice to the umpire (ties, sweep hexes), functions return
the candidates in a fixed order and step functions take a ``choose`` policy (default: first).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from .common import (
    TASK_FORCE_ZONE,
    applies,
    column_of,
    const,
    grid,
    modifier,
    modifier_item,
    row_of,
)
from .movement import displace, displace_lost
from .state import Bomber, Environment, Fighter, Night

Choose = Callable[[Sequence[Any]], Any]


def first(options: Sequence[Any]) -> Any:
    """The default umpire policy: the first of the (sorted) options."""
    return options[0]


# --- environment --------------------------------------------------------------------------


def roll_environment(game: Game, dice: Dice, *, europe_after_april_1942: bool = False,
                     pacific: bool = False) -> Environment:
    """Roll moon (2d6), visibility (2d6) and clouds (d6) with the theatre modifiers [3.3]."""
    moon_table, vis_table = game.table("moon"), game.table("visibility")
    moon_roll = dice.roll("2d6", "moon")
    if europe_after_april_1942:
        moon_roll += modifier(moon_table, "europe-after-april-1942")
    vis_roll = dice.roll("2d6", "visibility")
    if pacific:
        vis_roll += modifier(vis_table, "pacific")
    vis = lookup(vis_table, roll=vis_roll)
    clouds = lookup(game.table("clouds"), roll=dice.roll("d6", "clouds"))["clouds"]
    return Environment(moon=lookup(moon_table, roll=moon_roll)["moon"],
                       visibility=vis["visibility"], range=vis["range"],
                       lit_range=vis["lit_range"], clouds=clouds)


def environment(game: Game, moon: str, visibility: str, clouds: str = "clear",
                altitude: str = "normal") -> Environment:
    """An environment a scenario sets (not rolled): ranges from the visibility table."""
    rows = [game.table("visibility").result(r) for r in game.table("visibility").rows]
    row = next((r for r in rows if r["visibility"] == visibility), None)
    if row is None:
        raise BadInput(f"input visibility={visibility!r} is not allowed (poor|average|good)")
    return Environment(moon=moon, visibility=visibility, range=row["range"],
                       lit_range=row["lit_range"], clouds=clouds, altitude=altitude)


# --- zones --------------------------------------------------------------------------------


def zone_letters(game: Game) -> tuple[str, ...]:
    """The searchlight zone letters of the map (features searchlight-zone-X) [14.2]."""
    return tuple(f.label for f in game.hex_map().features if f.kind == "searchlight-zone")


def zone_hexes(game: Game, letter: str) -> frozenset[str]:
    """The hexes of searchlight zone ``letter`` (map feature searchlight-zone-X) [14.2]."""
    for feature in game.hex_map().features:
        if feature.kind == "searchlight-zone" and feature.label == letter:
            return frozenset(feature.hexes)
    raise BadInput(f"input zone={letter!r} is not a searchlight zone "
                   f"({'|'.join(zone_letters(game))})")


def zone_of(game: Game, hex_id: str | None, zones: Iterable[str]) -> str | None:
    """The available zone holding ``hex_id`` (None: outside every one)."""
    if hex_id is None:
        return None
    return next((z for z in zones if hex_id in zone_hexes(game, z)), None)


def illuminated_cloud(game: Game, night: Night, hex_id: str | None) -> bool:
    """Cloud plus an available searchlight zone: every zone hex is illuminated cloud [14.1]."""
    searchlit = [z for z in night.zones if not (night.task_force and z == TASK_FORCE_ZONE)]
    return night.env.clouds == "overcast" and zone_of(game, hex_id, searchlit) is not None


# --- general sighting [10] ----------------------------------------------------------------


def sighting_dice(game: Game, visibility: str, moon: str) -> int:
    """General sighting dice: Poor 1 / Average 2 / Good 3, +1 Half or Full moon [10.1]."""
    return lookup(game.table("sighting-dice"), visibility=visibility, moon=moon)["dice"]


def announce(results: Iterable[int]) -> tuple[int, ...]:
    """The numbers announced after a sighting roll: duplicates removed [10.1]."""
    return tuple(sorted(set(results)))


def sighting_range(game: Game, env: Environment, *, captured: bool = False,
                   altitude_advantage: bool = False, in_illuminated_cloud: bool = False) -> int:
    """Sighting range: x; y if captured (not with altitude advantage); 1 in illuminated
    cloud [3.3.2, 14.2.5, 14.3, 18.0, E17, E28]."""
    table = game.table("sighting-range")
    if in_illuminated_cloud:
        value = lookup(table, target="illuminated-cloud", altitude_advantage="no")["range"]
    else:
        value = lookup(table, target="captured" if captured else "normal",
                       altitude_advantage="yes" if altitude_advantage else "no")["range"]
    text = str(value)
    if text == "x":
        return env.range
    if text == "y":
        return env.lit_range
    return int(text)


def fighter_range_to(game: Game, night: Night, fighter: Fighter, bomber: Bomber) -> int:
    """The sighting range that applies between one fighter and one bomber."""
    return sighting_range(
        game, night.env,
        captured=night.captured(bomber.id),
        altitude_advantage=fighter.dives_left > 0,
        in_illuminated_cloud=illuminated_cloud(game, night, bomber.hex),
    )


def can_sight(fighter: Fighter, turn: int) -> bool:
    """Not dazzled, not evading, not corkscrewed this turn [17.3.2, 27.3.1, 17.4.4]."""
    return (fighter.on_map and not fighter.dazzled(turn) and not fighter.evading
            and not fighter.corkscrewed)


def in_range(game: Game, night: Night, fighter: Fighter, bomber: Bomber) -> bool:
    """Whether ``bomber`` is within ``fighter``'s sighting range."""
    if fighter.hex is None or bomber.hex is None:
        return False
    distance = grid(game).distance(fighter.hex, bomber.hex)
    return distance <= fighter_range_to(game, night, fighter, bomber)


@dataclass(frozen=True)
class SightingRoll:
    """The announced numbers of a general sighting roll and who may keep what."""

    announced: tuple[int, ...]
    cloud_bonus: tuple[int, ...]
    visibility_bonus: tuple[tuple[str, int], ...]
    sighted: tuple[tuple[str, tuple[str, ...]], ...]


def general_sighting(game: Game, night: Night, dice: Dice) -> SightingRoll:
    """The player's one roll for the whole force [10.1, 10.1.1]: base dice, a cloud bonus die
    where illuminated cloud is on the map, one bonus die per good-visibility fighter (novices
    excepted). Returns, per sighted bomber, the fighters that may keep it."""
    base = sighting_dice(game, night.env.visibility, night.env.moon)
    announced = announce(dice.roll("d6", "sighting") for _ in range(base))
    spotters = [f for f in night.fighters if can_sight(f, night.turn)]
    bombers = night.on_map_bombers()
    cloud_on_map = night.env.clouds == "overcast" and any(
        not (night.task_force and z == TASK_FORCE_ZONE) for z in night.zones)
    cloud = ()
    if cloud_on_map:
        cloud = tuple(dice.roll("d6", "cloud_bonus")
                      for _ in range(modifier(game.table("sighting-dice"), "illuminated-cloud")))
    vis_bonus = tuple(
        (f.id, dice.roll("d6", "visibility_bonus")) for f in spotters
        if _good_visibility(game, f) and not f.green
    )
    sighted = []
    for b in bombers:
        keepers = tuple(f.id for f in spotters if in_range(game, night, f, b) and (
            b.sighting in announced
            or (b.sighting in cloud and illuminated_cloud(game, night, b.hex) and not f.green)
            or any(fid == f.id and r == b.sighting for fid, r in vis_bonus)
        ))
        if keepers:
            sighted.append((b.id, keepers))
    return SightingRoll(announced, cloud, vis_bonus, tuple(sighted))


def _good_visibility(game: Game, fighter: Fighter) -> bool:
    if not fighter.unit:
        return False
    return bool(game.get("units", fighter.unit).stats.get("good_visibility"))


def keep_sightings(game: Game, night: Night, roll: SightingRoll, keep: dict[str, str],
                   dice: Dice | None = None) -> Night:
    """The player keeps at most one sighting per fighter, within its range [10.1, 10.2]; a
    sighted bomber nobody keeps and nothing else acquires is displaced (``displacement``)
    when ``dice`` are given [16.0]."""
    allowed = dict(roll.sighted)
    fighters = []
    for f in night.fighters:
        target = keep.get(f.id)
        if target is None:
            fighters.append(f)
            continue
        if f.id not in allowed.get(target, ()):
            raise RuleViolation("10.1", f"fighter {f.id!r} cannot keep a sighting of "
                                        f"{target!r}: not sighted within its range")
        if f.sighting is not None and f.sighting != target:
            raise RuleViolation("10.2", f"fighter {f.id!r} already maintains a sighting; "
                                        "drop it before the roll")
        fighters.append(replace(f, sighting=target))
    night = replace(night, fighters=tuple(fighters))
    if dice is not None:
        for bomber_id, _ in roll.sighted:
            night = displace(game, night, bomber_id, dice)
    return night


def maintain_sightings(game: Game, night: Night, dice: Dice | None = None) -> Night:
    """Start of the Sighting phase: sightings out of range are lost [10.2]; a bomber so lost
    to the player is displaced (``displacement``) when ``dice`` are given [16.0]."""
    before = night
    fighters = []
    for f in night.fighters:
        if f.sighting is not None:
            b = night.bomber(f.sighting)
            if not b.on_map or not in_range(game, night, f, b):
                f = replace(f, sighting=None)
        fighters.append(f)
    return displace_lost(game, before, replace(night, fighters=tuple(fighters)), dice)


# --- acquired-target sighting [15.1.1, 19.1.3] --------------------------------------------


def captured_sighting_dice(game: Game, *, moon: str, expert: bool = False, green: bool = False,
                           both: bool = False, radar_modifier: int = 0,
                           searchlight: bool = False, rear: bool = False) -> int:
    """Dice to sight an acquired target: 3, +2 Experte, +1 Half/Full, +1 AI and searchlight,
    the radar's min-range modifier unless searchlight-captured, -2 novice, -2 rear (28.6);
    at least 1 [15.1.1, 19.1.3]."""
    table = game.table("captured-sighting-dice")
    total = 0
    if expert:
        total += modifier(table, "expert")
    moon_item = modifier_item(table, "moon")
    if applies(moon_item, moon=moon):
        total += moon_item.value
    if both:
        total += modifier(table, "both")
    if not (searchlight or both):
        total += radar_modifier
    if green:
        total += modifier(table, "green")
    if rear:
        total += modifier(table, "rear")
    key = table.key("modifier_total")
    total = max(key.min, min(key.max, total))
    return lookup(table, modifier_total=total)["dice"]


def min_range_modifier(game: Game, base: int, *, band: str = "L", low_altitude: bool = False,
                       same_facing: bool = True, turned: bool = False, fighter_mp: int = 0,
                       target_mp: int = 0) -> int:
    """The radar's bracketed modifier with its extra -1s [19.1.3]: low altitude (not X band),
    not facing as the target, turned last Fighter Movement, spent 2+ MP more than the target."""
    table = game.table("captured-sighting-dice")
    total = base
    if low_altitude:
        total += lookup(game.table("low-altitude-ai"), band=band)["min_range_extra"]
    if not same_facing:
        total += modifier(table, "not-same-facing")
    if turned:
        total += modifier(table, "turned")
    if fighter_mp - target_mp >= const(game, "min-range-mp-margin"):
        total += modifier(table, "more-mp")
    return total


def matches(rolls: Iterable[int], sighting: int) -> int:
    """How many dice show ``sighting``."""
    return sum(1 for r in rolls if r == sighting)


def attack_position(game: Game, rolls: Iterable[int], sighting: int,
                    maintained: bool = False) -> str | None:
    """Optional 28.4: favourable with 2+ matching dice or a maintained sighting; None if no
    die matched (not sighted)."""
    count = matches(rolls, sighting)
    if not maintained and count == 0:
        return None
    table = game.table("attack-position")
    return lookup(table, maintained="yes" if maintained else "no",
                  matching=max(count, 1))["position"]


# --- contrails [21.2.1] -------------------------------------------------------------------


def contrails(game: Game, night: Night, fighter: Fighter) -> bool:
    """High altitude, contrails in play: the fighter is in a bomber's column between it and
    the entry edge (a lower row) (inferred from 21.2.1, medium confidence)."""
    if night.env.altitude != "high" or not fighter.on_map or fighter.hex is None:
        return False
    col, row = column_of(game, fighter.hex), row_of(game, fighter.hex)
    return any(column_of(game, b.hex) == col and row_of(game, b.hex) > row
               for b in night.on_map_bombers())


# --- tail warning [27.3] ------------------------------------------------------------------


def tail_warning(game: Game, night: Night, fighter: Fighter) -> bool:
    """A warning when an enemy is in the fighter's hex (unless already sighted or acquired) or
    within 2 hexes behind it (outside its Hemi arc) [27.3]."""
    g = grid(game)
    reach = const(game, "tail-warning-range")
    for b in night.on_map_bombers():
        if b.hex == fighter.hex:
            if not night.known(b.id):
                return True
            continue
        if g.distance(fighter.hex, b.hex) <= reach and not g.in_arc(
                fighter.hex, fighter.facing, b.hex, "hemi"):
            return True
    return False
