"""Finding bombers: sighting [10, 15], radar search and sweeps [13, 24, 25], AI radar [19, 21.1],
searchlights and hand-off [14], tail warning [27.3].

Every function is pure: it reads the game data and a ``Night`` and returns results (or a new
``Night``). Where the rules leave a choice to the umpire (ties, sweep hexes), functions return
the candidates in a fixed order and step functions take a ``choose`` policy (default: first).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from typing import Any

from ...dice import Dice
from ...errors import BadInput, RuleViolation
from ...model import Game
from ...tables import lookup
from .common import (
    applies,
    check_hex,
    column_of,
    const,
    grid,
    modifier,
    modifier_item,
    record,
    row_of,
)
from .movement import displace, displace_lost
from .state import Bomber, Counter, Environment, Fighter, Night

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


def zone_hexes(game: Game, letter: str) -> frozenset[str]:
    """The hexes of searchlight zone ``letter`` (map feature searchlight-zone-X) [14.2]."""
    for feature in game.hex_map().features:
        if feature.kind == "searchlight-zone" and feature.label == letter:
            return frozenset(feature.hexes)
    letters = [f.label for f in game.hex_map().features if f.kind == "searchlight-zone"]
    raise BadInput(f"input zone={letter!r} is not a searchlight zone ({'|'.join(letters)})")


def zone_of(game: Game, hex_id: str | None, zones: Iterable[str]) -> str | None:
    """The available zone holding ``hex_id`` (None: outside every one)."""
    if hex_id is None:
        return None
    return next((z for z in zones if hex_id in zone_hexes(game, z)), None)


def illuminated_cloud(game: Game, night: Night, hex_id: str | None) -> bool:
    """Cloud plus an available searchlight zone: every zone hex is illuminated cloud [14.1]."""
    searchlit = [z for z in night.zones if not (night.task_force and z == "N")]
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
        not (night.task_force and z == "N") for z in night.zones)
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


# --- radar search [13, 24.5.1, 25] --------------------------------------------------------


def search_value(game: Game, radar_id: str, jamming: str = "none") -> int:
    """A search counter's value; heavy jamming makes it 4; MEW is never jammed [13.1, 24.5.1]."""
    radar = record(game, "radars", radar_id)
    printed = radar.get("search_value")
    if not radar.get("jammable", True):
        return printed
    value = lookup(game.table("search-radar-jamming"), jamming=jamming)["search_value"]
    return printed if value == "printed" else int(value)


def sweeps_allowed(game: Game, radar_id: str, jamming: str = "none") -> bool:
    """No sweep counters under light or heavy jamming (MEW never jammed) [24.5.1]."""
    if not record(game, "radars", radar_id).get("jammable", True):
        return True
    return bool(lookup(game.table("search-radar-jamming"), jamming=jamming)["sweeps"])


def radar_contact(game: Game, counter_hex: str, value: int, targets: Iterable[str]) -> bool:
    """Contact if any target is within ``value`` hexes of the search counter [13.1.1]."""
    g = grid(game)
    here = check_hex(game, counter_hex, "counter")
    return any(g.distance(here, t) <= value for t in targets)


def nearest(game: Game, origin: str, targets: Iterable[str]) -> tuple[str, ...]:
    """The targets at the least distance from ``origin`` (sorted ids)."""
    g = grid(game)
    found = sorted(set(targets), key=lambda t: (g.distance(origin, t), t))
    if not found:
        return ()
    best = g.distance(origin, found[0])
    return tuple(t for t in found if g.distance(origin, t) == best)


def sweep_candidates(game: Game, counter_hex: str, targets: Iterable[str]) -> tuple[str, ...]:
    """Where a sweep counter may go when there is no contact [13.1.2]: the hexes adjacent to
    the search counter nearest to the nearest target(s); with no targets, any adjacent hex."""
    g = grid(game)
    here = check_hex(game, counter_hex, "counter")
    adjacent = g.neighbours(here)
    near = nearest(game, here, targets)
    if not near:
        return tuple(sorted(adjacent))
    score = {h: min(g.distance(h, t) for t in near) for h in adjacent}
    best = min(score.values())
    return tuple(sorted(h for h in adjacent if score[h] == best))


def gci_sweep_candidates(game: Game, counter_hex: str,
                         targets: Iterable[str]) -> tuple[str, ...]:
    """GCI without contact [25.1]: on or next to the bomber nearest the counter; none if
    there are no bombers (which tells the player so)."""
    g = grid(game)
    reach = const(game, "gci-sweep-max-distance")
    near = nearest(game, check_hex(game, counter_hex, "counter"), targets)
    return tuple(sorted({h for t in near for h in g.within(t, reach)}))


def mew_sweeps(game: Game, counter_hex: str, targets: Iterable[str],
               choose: Choose = first) -> tuple[str, ...]:
    """MEW [25.2.1, 25.2.2]: a sweep in the exact hex of each detected target, then on or next
    to undetected targets nearest first, one per target, up to the MEW's sweeps."""
    g = grid(game)
    here = check_hex(game, counter_hex, "counter")
    value = search_value(game, "mew")
    limit = record(game, "radars", "mew").get("sweeps")
    reach = const(game, "gci-sweep-max-distance")
    ordered = sorted(targets, key=lambda t: (g.distance(here, t), t))
    detected = [t for t in ordered if g.distance(here, t) <= value]
    rest = [t for t in ordered if g.distance(here, t) > value]
    sweeps = [*detected[:limit]]
    for t in rest[: max(0, limit - len(sweeps))]:
        sweeps.append(choose(tuple(sorted(g.within(t, reach)))))
    return tuple(sweeps)


def radar_search(game: Game, night: Night, placements: Sequence[tuple[str, str]], *,
                 jamming: str | None = None, choose: Choose = first) -> Night:
    """Radar Search phase [13.1.1-13.1.3, 25]: old counters go; each (radar, hex) placed gets
    contact or a sweep toward the bombers. ``choose`` is the umpire's pick among candidates;
    ``jamming`` defaults to the night's search-radar jamming [24.5.1]."""
    jamming = night.search_jamming if jamming is None else jamming
    targets = [b.hex for b in night.on_map_bombers()]
    counters = []
    for radar_id, hex_id in placements:
        here = check_hex(game, hex_id, "counter")
        radar = record(game, "radars", radar_id)
        value = search_value(game, radar_id, jamming)
        contact = radar_contact(game, here, value, targets)
        sweeps: tuple[str, ...] = ()
        if radar_id == "mew":
            sweeps = mew_sweeps(game, here, targets, choose)
        elif radar.get("kind") == "gci":
            if here in targets and lookup(game.table("search-radar-jamming"),
                                          jamming=jamming)["gci_same_hex"]:
                sweeps = (here,)
            elif not contact and sweeps_allowed(game, radar_id, jamming):
                options = gci_sweep_candidates(game, here, targets)
                sweeps = (choose(options),) if options else ()
        elif not contact and sweeps_allowed(game, radar_id, jamming):
            sweeps = (choose(sweep_candidates(game, here, targets)),)
        counters.append(Counter(radar_id, here, contact, sweeps))
    return replace(night, counters=tuple(counters))


# --- AI radar [19, 21.1] ------------------------------------------------------------------


@dataclass(frozen=True)
class Radar:
    """An AI radar: range, arc, minimum-range modifier, band, jamming-resistant [19.1]."""

    name: str
    range: int
    arc: str
    modifier: int
    band: str
    anti_jam: bool = False


def parse_radar(text: str) -> Radar:
    """Read a chart string like ``"2 Narrow (0) L-band"`` (``¶`` = jamming-resistant) [19.1]."""
    import re

    match = re.match(r"^\s*(\d+)\s+(Narrow|Wide|Hemi)\s*\(\s*([+-]?\d+)\s*\)\s*([PLSX])-band"
                     r"\s*(¶?)\s*$", text, re.IGNORECASE)
    if match is None:
        raise BadInput(f"radar {text!r} is not like '2 Narrow (0) L-band'")
    return Radar(text, int(match[1]), match[2].capitalize(), int(match[3]), match[4].upper(),
                 bool(match[5]))


def unit_radar(game: Game, unit_id: str) -> Radar | None:
    """The AI radar of a unit type (stats.ai_radar), or None."""
    data = game.get("units", unit_id).stats.get("ai_radar")
    if not data:
        return None
    return Radar(data["name"], int(data["range"]), str(data["arc"]), int(data["modifier"]),
                 str(data["band"]), bool(data.get("anti_jam")))


def ai_range(game: Game, radar: Radar, altitude: str = "normal") -> int:
    """AI range; at low altitude P and L see the own hex only, S halves (down) [21.1]."""
    if altitude != "low":
        return radar.range
    rule = lookup(game.table("low-altitude-ai"), band=radar.band)["range"]
    if rule == "unchanged":
        return radar.range
    if str(rule).startswith("half"):
        return _scaled(radar.range, rule)
    return int(rule)


def ai_candidates(game: Game, hex_id: str, facing: int, radar: Radar, targets: Iterable[str],
                  altitude: str = "normal") -> tuple[str, ...]:
    """The nearest targets inside the radar's arc and range (ties for the umpire) [19.1.2]."""
    g = grid(game)
    reach = ai_range(game, radar, altitude)
    inside = [t for t in targets if g.in_arc(hex_id, facing, t, radar.arc.lower(), reach)]
    return nearest(game, hex_id, inside)


def ai_search(game: Game, night: Night, choose: Choose = first,
              dice: Dice | None = None) -> Night:
    """AI Search phase [19.1.2]: each fighter that may detect holds the nearest bomber in arc
    and range (keeping its old contact among equals); others lose their contact. A bomber so
    lost to the player is displaced (``displacement``) when ``dice`` are given [16.0]."""
    before = night
    fighters = []
    bombers = night.on_map_bombers()
    for f in night.fighters:
        radar = unit_radar(game, f.unit) if f.unit else None
        if radar is None or not can_sight(f, night.turn) or jammed(night, radar):
            fighters.append(replace(f, ai_contact=None))
            continue
        hexes = ai_candidates(game, f.hex, f.facing, radar, [b.hex for b in bombers],
                              night.env.altitude)
        ids = sorted(b.id for b in bombers if b.hex in hexes)
        contact = f.ai_contact if f.ai_contact in ids else (choose(ids) if ids else None)
        fighters.append(replace(f, ai_contact=contact))
    return displace_lost(game, before, replace(night, fighters=tuple(fighters)), dice)


def jammed(night: Night, radar: Radar) -> bool:
    """Whether the night's AI jamming covers this radar's band [24.5.2]."""
    return night.ai_jamming != "none" and radar.band in night.jammed_bands


def jammed_ai_roll(game: Game, night: Night, fighter_id: str, dice: Dice,
                   choose: Choose = first) -> tuple[Night, tuple[int, ...]]:
    """A jammed AI radar: the player rolls (``jammed_ai``) heavy 1 / light 3 dice, +2
    Experte, +3 ¶; a bomber in arc and range whose sighting number is rolled is detected,
    the nearest of several [24.5.2]. The contact must be renewed every AI Search phase."""
    f = night.fighter(fighter_id)
    radar = unit_radar(game, f.unit) if f.unit else None
    if radar is None or not jammed(night, radar):
        raise RuleViolation("24.5.2", f"fighter {fighter_id!r} has no jammed AI radar")
    if not can_sight(f, night.turn):
        raise RuleViolation("17.3.2", f"fighter {fighter_id!r} cannot detect now")
    count = jammed_ai_dice(game, night.ai_jamming, expert=f.expert, anti_jam=radar.anti_jam)
    results = tuple(dice.roll("d6", "jammed_ai") for _ in range(count))
    matching = [b for b in night.on_map_bombers() if b.sighting in results]
    hexes = ai_candidates(game, f.hex, f.facing, radar, [b.hex for b in matching],
                          night.env.altitude)
    ids = sorted(b.id for b in matching if b.hex in hexes)
    return night.with_fighter(replace(f, ai_contact=choose(ids) if ids else None)), results


def jammed_ai_dice(game: Game, jamming: str, *, expert: bool = False,
                   anti_jam: bool = False) -> int:
    """Dice of a jammed AI radar: heavy 1 / light 3, +2 Experte, +3 ¶ [24.5.2]."""
    table = game.table("jammed-ai-dice")
    dice = lookup(table, jamming=jamming)["dice"]
    return dice + (modifier(table, "expert") if expert else 0) + (
        modifier(table, "anti-jam") if anti_jam else 0)


def follow_dice(game: Game, band: str | None, expert: bool = False) -> int:
    """Optional 28.1: dice to learn a corkscrew's hex: 1 / 2 (P, L, X contact) / 4 (S), +2."""
    table = game.table("corkscrew-follow-dice")
    dice = lookup(table, contact=band or "none")["dice"]
    return dice + (modifier(table, "expert") if expert else 0)


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
        dice = _scaled(dice, modifier(table, "confusion"))
    return dice


def _scaled(dice: int, how: str) -> int:
    """Apply a dice rule written in the data: ``half-round-up`` or ``half-round-down``."""
    if how == "half-round-up":
        return math.ceil(dice / 2)
    if how == "half-round-down":
        return dice // 2
    raise BadInput(f"unknown dice rule {how!r} in the data")


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
    flare = zone in night.flare_zones
    searchlit = not (night.task_force and zone == "N")
    cloud = night.env.clouds == "overcast"
    if night.env.altitude == "high":
        raise RuleViolation("21.2", "at high altitude search markers are placed, no roll made")
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


# --- contrails [21.2.1] -------------------------------------------------------------------


def contrails(game: Game, night: Night, fighter: Fighter) -> bool:
    """High altitude, contrails in play: the fighter is in a bomber's column between it and
    the entry edge (a lower row) (digest 21.2.1, INF-M)."""
    if night.env.altitude != "high" or not fighter.on_map or fighter.hex is None:
        return False
    col, row = column_of(game, fighter.hex), row_of(game, fighter.hex)
    return any(column_of(game, b.hex) == col and row_of(game, b.hex) > row
               for b in night.on_map_bombers())


# --- tail warning [27.3] ------------------------------------------------------------------


def tail_warning(game: Game, night: Night, fighter: Fighter) -> bool:
    """A warning when an enemy is in the fighter's hex (unless already sighted or acquired) or
    within 2 hexes behind it (outside its Hemi arc, digest N8) [27.3]."""
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
