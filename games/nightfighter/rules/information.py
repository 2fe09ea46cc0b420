"""What the player of a refereed night knows, and positions drawn to agree with it: the
search space of an agent that flies the night fighters and looks ahead (engine/agents.py).

The player knows his own fighters and counters, the environment, the scenario (its attacking
force, its arrival schedule, its zones and radars), this turn's announcements, the markers
of the bombers he has sighted or acquired (their true hex and facing, no id: 5.1) and how
many attackers are shot down (his score). He does not know which counters the umpire drew
(3.4), where the other attackers are, which of them are in the pool, delayed or gone, the
entry chits and their face (L7), a bomber's hits, nor the sighting number of a marked one.

:func:`masked` is that knowledge as a position: every marked bomber becomes an anonymous
piece ``known-N`` at its hex and facing (numbered by hex, facing and the markers on it; the
fighters' sightings and AI contacts and the searchlight captures point at it), the shot-down
attackers anonymous pieces ``lost-N``; every other attacker, the chits and the delayed
entrants are left out. Two positions that differ only in what the player cannot see mask to
the same position.

:func:`determinise` draws a position that masks to the one given: the umpire's counters drawn
anew from each type of the force (3.4), the marked and the shot-down ones picked among them,
and every other attacker placed by the arrival schedule (entered on a turn the schedule
allows, in a random column with random entry MP, flown down its column since: 7.2, 8.2) so
that every fact this turn revealed holds (:func:`facts`): the radar contacts and sweeps of
the search counters placed this turn (13.1.1, 13.1.2), the searchlight search markers (a
bomber in the zone) and their absence (none there: 14.2.1), the AI contacts and their absence
(19.1.2), the sighting roll's announced hexes (10.1), a tail warning or none while the
fighters have not moved (27.3). Once the turn's sighting roll is made, a hidden attacker is
kept out of every fighter's sighting range as well (a roll that showed nothing there may
only have missed its number, but nothing says so). An attacker that cannot be placed so
waits in the pool. What is left out of the facts: the sweeps of GCI and MEW counters, and
whatever earlier turns told (the view keeps this turn's announcements only).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace

from warpress.engine.model import Game
from warpress.engine.position import Position

from . import detection, movement, radars
from .common import const, grid, record
from .position import as_position, read
from .scenario import Scenario, phase_ids
from .state import Bomber, Night

KNOWN, LOST = "known", "lost"
#: tries to place the hidden attackers before the last draw is kept
TRIES = 40


# --- the mask ------------------------------------------------------------------------------


def _refs(night: Night, bomber_id: str) -> tuple[tuple[str, str], ...]:
    """The markers on a bomber (5.1): (kind, fighter or zone)."""
    out = [(kind, f.id) for f in night.fighters
           for kind, target in (("sighting", f.sighting), ("ai-contact", f.ai_contact))
           if target == bomber_id]
    out += [("captured", zone) for zone, target in night.captures if target == bomber_id]
    return tuple(sorted(out))


def _rename(night: Night, names: dict[str, str]) -> Night:
    """The fighters' sightings and AI contacts and the captures pointed at ``names``."""
    fighters = tuple(replace(f, sighting=names.get(f.sighting), ai_contact=names.get(
        f.ai_contact)) for f in night.fighters)
    captures = tuple((zone, names[b]) for zone, b in night.captures if b in names)
    return replace(night, fighters=fighters, captures=captures)


def masked(game: Game, position: Position, side: str | None = None) -> Position:
    """What the player knows of ``position`` (see the module docstring)."""
    s, _sc = read(game, position)
    night = s.night
    known = sorted((b for b in night.on_map_bombers() if night.known(b.id)),
                   key=lambda b: (b.hex, b.facing, _refs(night, b.id)))
    names = {b.id: f"{KNOWN}-{n}" for n, b in enumerate(known, 1)}
    lost = sum(b.status == "destroyed" for b in night.bombers)
    bombers = tuple(Bomber(names[b.id], hex=b.hex, facing=b.facing, status=b.status)
                    for b in known)
    bombers += tuple(Bomber(f"{LOST}-{n}", status="destroyed") for n in range(1, lost + 1))
    night = replace(_rename(night, names), bombers=bombers, chit_face="", chits_drawn=())
    return as_position(replace(s, night=night, delayed=()), position.game)


# --- the facts a position must keep ---------------------------------------------------------


@dataclass(frozen=True)
class Fact:
    """What this turn revealed about where the attackers are: ``some`` attacker in
    ``hexes`` (or ``none`` there), or a ``check`` of every attacker's hex (a sweep's
    direction); ``rule`` the rule that revealed it."""

    text: str
    rule: str
    hexes: frozenset[str] = frozenset()
    some: bool = False
    check: Callable[[tuple[str, ...]], bool] | None = None

    def holds(self, hexes: Iterable[str]) -> bool:
        hexes = tuple(hexes)
        if self.check is not None:
            return self.check(hexes)
        return any(h in self.hexes for h in hexes) == self.some


def _since(game: Game, phase: str, than: str) -> bool:
    """Whether ``phase`` comes after ``than`` in the turn: what ``than`` revealed is this
    turn's, about the attackers where they still are."""
    order = phase_ids(game)
    return order.index(phase) > order.index(than)


def facts(game: Game, position: Position) -> tuple[Fact, ...]:
    """The facts this turn revealed to the player (see the module docstring); read from
    the position's public part only, so a position and its mask give the same facts."""
    s, sc = read(game, position)
    night = s.night
    marked = frozenset(b.hex for b in night.on_map_bombers() if night.known(b.id))
    out: list[Fact] = []
    for reader in (_radar_facts, _searchlight_facts, _ai_facts, _sighting_facts,
                   _warning_facts):
        out += reader(game, s, sc, marked)
    return tuple(out)


def _within(game: Game, hex_id: str, reach: int) -> frozenset[str]:
    return frozenset(grid(game).within(hex_id, reach))


def _radar_facts(game: Game, s, sc: Scenario, marked: frozenset[str]) -> list[Fact]:
    if s.phase != "radar-search" and not _since(game, s.phase, "radar-search"):
        return []
    out = []
    for cid, c in zip(s.placed, s.night.counters, strict=False):
        reach = _within(game, c.hex, radars.search_value(game, c.radar, s.night.search_jamming))
        word = "contact" if c.contact else "no contact"
        out.append(Fact(f"{cid} at {c.hex}: {word}", "13.1.1", reach, c.contact))
        standard = c.radar != "mew" and record(game, "radars", c.radar).get("kind") != "gci"
        if c.sweeps and standard:
            out.append(Fact(f"{cid} at {c.hex}: sweep at {c.sweeps[0]}", "13.1.2",
                            check=_sweep_check(game, c.hex, c.sweeps[0])))
    return out


def _sweep_check(game: Game, here: str, sweep: str) -> Callable[[tuple[str, ...]], bool]:
    return lambda hexes: sweep in radars.sweep_candidates(game, here, hexes)


def _searchlight_facts(game: Game, s, sc: Scenario, marked: frozenset[str]) -> list[Fact]:
    night = s.night
    if not _since(game, s.phase, "searchlight") or night.env.clouds == "overcast":
        return []
    lit = {zone for zone, _hex in s.searchlights}
    captured = {zone for zone, _b in night.captures}
    out = []
    for zone in night.zones:
        if zone in captured or zone in night.flare_zones:
            continue
        some = zone in lit
        out.append(Fact(f"searchlight zone {zone}: {'a' if some else 'no'} search marker",
                        "14.2.1", detection.zone_hexes(game, zone), some))
    return out


def _ai_facts(game: Game, s, sc: Scenario, marked: frozenset[str]) -> list[Fact]:
    night = s.night
    if not _since(game, s.phase, "ai-search"):
        return []
    g = grid(game)
    out = []
    for f in night.fighters:
        radar = radars.unit_radar(game, f.unit) if f.unit else None
        if radar is None or not detection.can_sight(f, night.turn) or radars.jammed(night,
                                                                                    radar):
            continue
        reach = radars.ai_range(game, radar, night.env.altitude)
        arc = frozenset(h for h in g.within(f.hex, reach)
                        if g.in_arc(f.hex, f.facing, h, radar.arc.lower(), reach))
        if f.ai_contact is None:
            out.append(Fact(f"no AI contact for {f.id}", "19.1.2", arc))
            continue
        held = next((b.hex for b in night.bombers if b.id == f.ai_contact), None)
        if held is not None:  # the contact is the nearest in its arc
            nearer = frozenset(h for h in arc if g.distance(f.hex, h) < g.distance(f.hex,
                                                                                 held))
            out.append(Fact(f"AI contact for {f.id} at {held}: the nearest", "19.1.2",
                            nearer))
    return out


def _rolled(game: Game, s) -> list:
    """This turn's sighting roll, as announced (none before it is made)."""
    if s.phase != "sighting" and not _since(game, s.phase, "sighting"):
        return []
    return [a for a in s.announcements if a.turn == s.night.turn and a.phase == "sighting"
            and "announced" in a.data]


def _sighting_facts(game: Game, s, sc: Scenario, marked: frozenset[str]) -> list[Fact]:
    return [Fact(f"a bomber sighted at {h}", "10.1", frozenset({h}), True)
            for a in _rolled(game, s) for h in a.data["sighted"]]


def _in_sight(game: Game, view: Position) -> frozenset[str]:
    """Where a fighter could have sighted a bomber by this turn's sighting roll (10.1), once
    it is made: the hidden attackers are kept out."""
    s, _sc = read(game, view)
    night = s.night
    if not _rolled(game, s):
        return frozenset()
    reach: set[str] = set()
    for f in night.fighters:
        if detection.can_sight(f, night.turn) and f.hex is not None:
            reach |= _within(game, f.hex, night.env.range)
    return frozenset(reach)


def _warning_facts(game: Game, s, sc: Scenario, marked: frozenset[str]) -> list[Fact]:
    night = s.night
    if s.phase != "fighter-movement":
        return []
    g = grid(game)
    reach = const(game, "tail-warning-range")
    out = []
    for f in night.fighters:
        if f.id not in sc.tail_warning_radar or not f.on_map or f.id in s.moved:
            continue
        behind = frozenset(h for h in g.within(f.hex, reach)
                           if h != f.hex and not g.in_arc(f.hex, f.facing, h, "hemi"))
        some = f.id in s.warned
        out.append(Fact(f"{'a' if some else 'no'} tail warning for {f.id}", "27.3",
                        behind | ({f.hex} - marked), some))
    return out


def violated(game: Game, view: Position, position: Position) -> list[str]:
    """The facts of ``view`` that ``position`` breaks (its attackers' hexes): none for a
    position drawn from it."""
    hexes = [b.hex for b in read(game, position)[0].night.on_map_bombers()]
    return [f"{f.text} ({f.rule})" for f in facts(game, view) if not f.holds(hexes)]


# --- a position drawn from the mask ----------------------------------------------------------


def _roster(game: Game, sc: Scenario, rng: random.Random) -> list[Bomber]:
    """The attacking force with counters drawn anew from each type (3.4), shuffled."""
    out = []
    for force in sc.attackers:
        unit = game.get("units", force.unit)
        for pick in rng.sample(list(unit.stats["counter_ids"]), force.count):
            out.append(movement.new_bomber(game, unit, pick, force.equipment))
    rng.shuffle(out)
    return out


def _flown(game: Game, bomber: Bomber, turn: int, rng: random.Random,
           entries: list[int]) -> Bomber:
    """An attacker that entered on a turn of ``entries`` in a random column with random
    entry MP and flew down its column since (7.2, 8.2.1): on the map, or exited."""
    entered = entries[rng.randrange(len(entries))]
    columns = grid(game).columns
    column = int(columns[rng.randrange(len(columns))])
    top = movement.bomber_mp(game, bomber, entered)
    path = movement.entry_path(game, column, rng.randint(const(game, "entry-mp-min"), top),
                               top)
    here, exited = path.end, path.exited
    for later in range(entered + 1, turn + 1):
        if exited:
            break
        step = movement.bomber_path(game, here, movement.bomber_mp(game, bomber, later))
        here, exited = step.end or here, step.exited
    if exited:
        return replace(bomber, hex=None, status="exited")
    return replace(bomber, hex=here, facing=movement.bomber_facing(game), status="on-map")


def _entries(sc: Scenario, turn: int) -> list[int]:
    """The entry turn of every attacker the arrival schedule has let in by ``turn``."""
    return [t for t, n in sc.arrival for _ in range(n) if t <= turn]


def _place(game: Game, night: Night, hidden: list[Bomber], known: list[str], found: tuple,
           kept_out: frozenset[str], rng: random.Random, entries: list[int]) -> list[Bomber]:
    """The hidden attackers flown to where the schedule may put them (as many as it has let
    in besides the marked and the shot-down ones), none where a fact says no attacker is;
    an attacker for every fact that says one is somewhere."""
    barred = frozenset().union(*(f.hexes for f in found if f.check is None and not f.some),
                               kept_out)
    taken = set(known)
    entered = len(entries) - sum(1 for b in night.bombers)
    placed = []
    for n, b in enumerate(hidden):
        b = replace(b, hex=None, status="pool")
        if n < entered:
            for _ in range(TRIES):
                flown = _flown(game, b, night.turn, rng, entries)
                if flown.hex is None or (flown.hex not in barred and flown.hex not in taken):
                    b = flown
                    break
        taken.add(b.hex)
        placed.append(b)
    for fact in found:
        if fact.check is not None or not fact.some or fact.holds(taken):
            continue
        spots = sorted(fact.hexes - barred - taken)
        spare = [i for i, b in enumerate(placed) if b.status != "on-map" or not any(
            f.some and f.check is None and b.hex in f.hexes for f in found)]
        if spots and spare:
            i = spare[rng.randrange(len(spare))]
            where = spots[rng.randrange(len(spots))]
            taken.discard(placed[i].hex)
            taken.add(where)
            placed[i] = replace(placed[i], hex=where, status="on-map",
                                facing=movement.bomber_facing(game))
    return placed


def determinise(game: Game, view: Position, side: str | None, rng: random.Random) -> Position:
    """A position drawn at random that masks to ``view`` and keeps its facts (see the module
    docstring); after :data:`TRIES` draws that break a fact (a sweep's direction), the
    last draw."""
    s, sc = read(game, view)
    night = s.night
    found = facts(game, view)
    kept_out = _in_sight(game, view)
    roster = _roster(game, sc, rng)
    known = [b for b in night.bombers if b.id.startswith(KNOWN)]
    lost = [b for b in night.bombers if b.id.startswith(LOST)]
    names = {b.id: r.id for b, r in zip(known, roster, strict=False)}
    marked = [replace(r, hex=b.hex, facing=b.facing, status="on-map")
              for b, r in zip(known, roster, strict=False)]
    shot = [replace(r, status="destroyed") for r in roster[len(known):len(known) + len(lost)]]
    rest = roster[len(known) + len(lost):]
    for _ in range(TRIES):
        placed = _place(game, night, rest, [b.hex for b in marked], found, kept_out, rng,
                        _entries(sc, night.turn))
        hexes = [b.hex for b in (*marked, *placed) if b.status == "on-map"]
        if all(f.holds(hexes) for f in found):
            break
    bombers = tuple(marked + shot + placed)
    drawn = replace(_rename(night, names), bombers=bombers,
                    chit_face=rng.choice(("red", "yellow")))
    return as_position(replace(s, night=drawn), view.game)


__all__ = ["Fact", "determinise", "facts", "masked", "violated"]
