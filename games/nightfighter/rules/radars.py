"""Radar: ground search radar and sweeps [13, 24.5.1, 25], AI radar [19, 21.1, 24.5.2].

Pure functions over the data and a ``Night``; where the rules leave the umpire a choice
(sweep hexes, ties between equally near bombers) a ``choose`` policy picks (default: first).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from .common import check_hex, const, grid, modifier, record, scaled
from .detection import Choose, can_sight, first
from .movement import displace_lost
from .state import Counter, Night

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
        return scaled(radar.range, rule)
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
