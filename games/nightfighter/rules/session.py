"""The automatic referee of Nightfighter: one player flies the night fighters, this module
plays the umpire [1.2.2, 5.0] over the engine's frozen ``Night``.

The referee takes and returns the engine's ``Position`` (every fighter and bomber a piece); it
works on a :class:`~.position.NightSession`, the umpire's ``Night`` with what the session
needs: the scenario record, the phase waiting for the player, this turn's announcements, the
delayed entrants, the searchlight search markers, the counters placed this phase (``position``
converts one into the other without loss). ``new`` sets up [3.4] and runs the umpire's phases
(1 Bomber Movement, 2 Bomber Entry) up to the first phase the player acts in; ``apply`` runs
one command and then the umpire's phases up to the next player decision [4.0], following the
contract's phase-advance rule: a command of a later phase ends the current one (running the
phases between), one of an earlier phase is refused (rule 4.0). ``decision`` lists the
player's legal answers now (every distinct outcome of each fighter's move plans, every hex for
each search counter, the sighting roll, each possible attack, the end of the turn).

Player phases and commands:

=================== ========================== ==============================================
phase               commands                   waits while
=================== ========================== ==============================================
fighter-movement    evade, descend, move       a fighter has still to move (or may leave the
                                               radio beacon box). Leaving the phase with a
                                               fighter unmoved is REFUSED (9.0: every fighter
                                               must move, at least 2 MP); the referee never
                                               moves a fighter for the player.
radar-search        search                     a search counter of the scenario is unplaced
sighting            sight                      the sighting roll is not made
combat              attack                     a fighter may still attack (sighted target in
                                               its hex with its facing)
end-of-turn         end-turn                   always (the player ends the turn)
=================== ========================== ==============================================

``sight`` makes the general sighting roll [10.1] with the session dice; every fighter keeps
the **nearest** sighted bomber within its range (ties: the lower hex id; a fighter that already
maintains a sighting keeps it) [10.1, 10.2]; then every fighter without a sighting that has an
AI contact, or else a searchlight-captured bomber in range (the nearest), makes its
acquired-target roll [15.1]. ``move`` takes ``{"fighter", "path"}`` and, additively,
``"leave_map": true`` (a plan that flies off the map is refused with 9.2.1 unless it says so)
and ``"hex"``/``"facing"`` for a fighter leaving the radio beacon box [23.0]. ``attack`` takes
``{"fighter", "oblique"}`` and, additively, ``"follow": "same"|"none"`` (default ``same``: after
a corkscrew the fighter follows into its own hex, one of the 3 corkscrew hexes [17.4.3]).

Default umpire policy (Appendix B; every choice uses the session dice, so a session replays):

=================================== ============================================================
choice point [rule]                 policy
=================================== ============================================================
chit face [8.1.2]                   random (secret d2), for the whole game
bomber selection [3.4]              random counters of each type (secret)
pool draws [8.1.1, 27.1]            random (engine ``_draw_entrants``; one intruder per draw)
entry delay [8.1.4]                 single-entrant turns only: random 0, 1 or 2 turns (secret d3)
entry MP [8.2.1, E24]               random among 1..max MP that do not end on another bomber
movement order ties [7.2.1]         the engine's order (row, then id); intruders after bombers
sweep ties, no-bomber sweep [13.1.2] random among the candidate hexes (secret)
GCI/MEW sweep hex [25]              random among the candidate hexes (secret)
search-marker hex [14.2.1, L4]      random hex of the zone from a separate marker stream: never
                                    derived from the bomber's hex
capture / AI contact ties [14.2.1,  random (secret)
19.1.2]
displacement [16.0]                 rolled as a corkscrew (engine); no optional displacement
intruder MP [27.2.1]                random: max or max - 1 (secret)
Serrate ties [27.2.2]               random (secret)
Chase path [27.2.3]                 a plan entering the target's hex with its facing if one
                                    exists, else the one ending nearest the hex behind it
fake rolls [27.2.4]                 none
hand-off [14.2.4]                   the player always tries (4 dice, announced)
fighter corkscrew hex [17.4.4]      the fighter stays in its hex
=================================== ============================================================

Not covered (refused or not offered, so nothing is silently wrong): jamming [24.5] (the
scenario loader refuses it); homing radars Flensburg, Naxos, Serrate counters [24.2.3, 24.3.2,
24.4] (only search/GCI/MEW radars are offered); the GCI same-hex notice text [25.1.1] (the
sweep is placed, no separate message); naval operations [26] (task force, flare droppers,
torpedo bombers: the scenario loader refuses their units); Schraege Musik
upgrade rolls [20.1] (oblique guns only where the unit has an oblique FP); optional rules
[28.1-28.6] (messages M11 attack position and M13 follow roll are therefore never sent); the
umpire's optional intruder displacement [16.0] and the stacking care of 27.2.1; the player's
own choices where the referee has no command for them: breaking a sighting or keeping another
than the nearest [10.1, 10.2], declining a hand-off [14.2.4], using all dives at once
[18.0], the fighter's corkscrew hex against an intruder [17.4.4] (it stays). Fighters start
with the facing the scenario gives (the player's choice at setup, 3.2).

Dice: every command draws three seeds from the session dice and splits them into three
streams: the *public* stream (rolls the player makes or sees: environment, sighting,
searchlight, hand-off, flak, attack, defensive fire, shoot-down), the *secret* stream (the
umpire's hidden rolls and choices) and the *marker* stream (search-marker hexes). So the
number of hidden rolls never shifts a public roll: what the player sees depends on hidden
positions only where the rules reveal them (invariant I60).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

from warpress.engine.decisions import Decision
from warpress.engine.dice import Dice, SeededDice
from warpress.engine.errors import BadInput, InputProblems, RuleViolation
from warpress.engine.model import Game
from warpress.engine.position import Position, freeze, thaw
from warpress.engine.referee import Announcement, ScenarioInfo, Step

from .. import CODE
from . import combat, detection, information, intruders, movement, phases, radars, searchlights
from .choices import (
    ACTIONS,
    COMMAND_PHASE,
    WANTED,
    active,
    awaiting,
    boxed_at_start,
    can_attack,
    decision,
    declared,
    fighter_status,
    has_oblique,
    may_leave_box,
    may_move,
)
from .common import check_hex, const, facing_of, facing_text, grid, parse_mp
from .position import DEFENDER, NightSession, as_position, night_session, read
from .scenario import (
    BEACON_BOX,
    SHIPPED,
    Scenario,
    load_scenario,
    phase_ids,
    shipped_path,
)
from .scenario import resolve as resolve_scenario
from .state import Bomber, Fighter, Night, player_view

PUBLIC_ROLLS = frozenset({
    "moon", "visibility", "clouds", "sighting", "cloud_bonus", "visibility_bonus", "acquired",
    "searchlight", "hand_off", "check", "rolls", "roll", "defensive_fire", "shootdown",
    "evade", "flash", "collision", "intruder_reaction", "intruder_attack",
})
BOMBER_STATUS = {"destroyed": "shot-down", "delayed": "pool"}
GONE = ("exited", "destroyed")


# --- dice ---------------------------------------------------------------------------------


class Streams:
    """Three dice streams seeded from the session dice (see the module docstring)."""

    def __init__(self, dice: Dice):
        seeds = [sum(dice.roll("d1000", f"seed_{name}") * 1000 ** k for k in range(3))
                 for name in ("public", "secret", "marker")]
        self.public, self.secret, self.marker = (SeededDice(s) for s in seeds)

    def roll(self, die: str, name: str = "roll") -> int:
        return (self.public if name in PUBLIC_ROLLS else self.secret).roll(die, name)

    def pick(self, options: Sequence[Any], name: str = "choice", marker: bool = False) -> Any:
        """The umpire's random pick among ``options`` (no roll for one option)."""
        if not options:
            raise BadInput("nothing to choose from")
        if len(options) == 1:
            return options[0]
        stream = self.marker if marker else self.secret
        return options[stream.roll(f"d{len(options)}", name) - 1]

    def choose(self, name: str = "choice") -> Callable[[Sequence[Any]], Any]:
        return lambda options: self.pick(options, name)

    def memo_choose(self, name: str = "choice") -> Callable[[Sequence[Any]], Any]:
        """A random pick that answers the same options the same way (one intruder's move)."""
        seen: dict[tuple, Any] = {}

        def choose(options: Sequence[Any]) -> Any:
            key = tuple(options)
            if key not in seen:
                seen[key] = self.pick(options, name)
            return seen[key]

        return choose

    def public_rolls(self, name: str, start: int) -> tuple[int, ...]:
        return tuple(v for n, _d, v in self.public.rolls[start:] if n == name)


# --- small helpers ------------------------------------------------------------------------


class _Run:
    """A mutable working copy during one step; ``freeze`` gives the new frozen state."""

    def __init__(self, game: Game, s: NightSession, st: Streams, scenario: Scenario):
        self.game, self.sc, self.st = game, scenario, st
        self.s = s
        self.said: list[Announcement] = []

    @property
    def night(self) -> Night:
        return self.s.night

    @night.setter
    def night(self, value: Night) -> None:
        self.s = replace(self.s, night=value)

    def set(self, **kw: Any) -> None:
        self.s = replace(self.s, **kw)

    def say(self, text: str, rules: Sequence[str], phase: str | None = None, **data: Any) -> None:
        self.said.append(Announcement(self.night.turn, phase or self.s.phase, text,
                                      tuple(rules), dict(data)))

    def freeze(self) -> Step:
        turn = self.night.turn
        kept = tuple(a for a in self.s.announcements if a.turn == turn)
        new = tuple(self.said)
        fresh = tuple(a for a in new if a.turn == turn)
        return Step(as_position(replace(self.s, announcements=kept + fresh), self.game.id), new)


def _facing_word(facing: int) -> str:
    """``facing S (3)``: the compass word of the map and the number the commands take."""
    return f"facing {facing_text(facing)}"


def _waits(game: Game, sc: Scenario, s: NightSession) -> bool:
    """Whether the current phase waits for the player."""
    phase, night = s.phase, s.night
    if phase == "fighter-movement":
        return any(may_move(s, f) or may_leave_box(game, s, f) for f in night.fighters)
    if phase == "radar-search":
        return len(s.placed) < len(sc.counter_ids())
    if phase == "sighting":
        return not s.sighted and any(f.on_map for f in night.fighters)
    if phase == "combat":
        return any(can_attack(game, sc, night, f) for f in night.fighters)
    return phase == "end-of-turn"


# --- setup [3.4] --------------------------------------------------------------------------


def _setup(game: Game, sc: Scenario, st: Streams) -> tuple[Night, list[tuple[str, tuple]]]:
    notes: list[tuple[str, tuple]] = []
    date = sc.date or ""
    europe_late = sc.theatre == "europe" and date >= "1942-04"
    rolled = detection.roll_environment(game, st, europe_after_april_1942=europe_late,
                                        pacific=sc.theatre == "pacific")
    moon = rolled.moon if sc.moon == "random" else sc.moon
    vis = rolled.visibility if sc.visibility == "random" else sc.visibility
    clouds = rolled.clouds if sc.clouds == "random" else sc.clouds
    env = detection.environment(game, moon, vis, clouds, sc.altitude)
    notes.append((f"Environment: moon {moon}, visibility {vis} (sighting range {env.range}, "
                  f"captured {env.lit_range}), clouds {clouds}, altitude {sc.altitude}",
                  ("3.3.1", "3.3.2", "3.3.3")))
    bombers = []
    for force in sc.attackers:
        unit = game.get("units", force.unit)
        pool = list(unit.stats["counter_ids"])
        for _ in range(force.count):
            pick = st.pick(pool, "bomber_selection")
            pool.remove(pick)
            bombers.append(movement.new_bomber(game, unit, pick, force.equipment))
    fighters = []
    for flight in sc.defenders:
        unit = game.get("units", flight.unit)
        for fid, where in zip(flight.ids, flight.deploy, strict=True):
            boxed = where == BEACON_BOX
            fighters.append(Fighter(
                fid, unit=unit.id, hex=None if boxed else where, facing=flight.facing,
                status="beacon-box" if boxed else "on-map",
                mp=movement.fighter_chart_mp(game, unit.id), fp=int(unit.stats.get("fp") or 0),
                damage=int(unit.stats["damage"]), expert=fid in sc.experten,
                dives_left=const(game, "max-dives") if fid in sc.altitude_advantage else 0))
    night = Night(turn=1, env=env, bombers=tuple(bombers), fighters=tuple(fighters),
                  chit_face=st.pick(("red", "yellow"), "chit_face"), zones=sc.zones,
                  radar_guided=sc.radar_guided, flak=sc.flak)
    return night, notes


# --- umpire phases ------------------------------------------------------------------------


def _markers(night: Night) -> dict[tuple[str, str], tuple[str, int]]:
    return {(m.kind, m.fighter or ""): (m.hex, m.facing) for m in player_view(night).markers}


def _bomber_movement(r: _Run) -> None:
    """Phase 1 [7, 14.2.4, 27.2]: bombers, hand-offs, intruders, marker updates (M1, M2, M3)."""
    game, before = r.game, r.night
    start = len(r.st.public.rolls)
    captured = frozenset(b for _, b in before.captures)
    night = phases.bomber_movement(game, before, r.st, hand_offs=captured)
    rolls = r.st.public_rolls("hand_off", start)
    for zone, bid in before.captures:
        now = next((z for z, b in night.captures if b == bid), None)
        if now == zone:
            continue
        if now is not None:
            r.say(f"Hand-off: the bomber captured in zone {zone} flew into zone {now}; you roll "
                  f"{_dice(rolls)}: captured in zone {now}", ("14.2.4",), zone=zone, to=now)
        elif night.bomber(bid).on_map:
            text = f"The bomber captured in zone {zone} left the zone: capture lost"
            if rolls:
                text += f" (hand-off roll {_dice(rolls)} failed)"
            r.say(text, ("14.2.3", "14.2.4"), zone=zone)
    r.night = night
    for b in night.on_map_bombers():
        if b.kind == "intruder":
            _move_intruder(r, b.id)
    _say_markers(r, _markers(before), _markers(r.night))


def _say_markers(r: _Run, old: dict, new: dict) -> None:
    """M1: markers follow their aircraft to the true hex and facing (7.0); gone ones go."""
    for (kind, fighter), (hex_id, facing) in sorted(new.items()):
        if (kind, fighter) in old and old[(kind, fighter)] != (hex_id, facing):
            who = f" of {fighter}" if fighter else ""
            r.say(f"Marker update: {kind.replace(':', ' ')}{who} now at {hex_id} "
                  f"{_facing_word(facing)}", ("7.0",), kind=kind.split(":")[0], hex=hex_id,
                  facing=facing, fighter=fighter or None)
    for kind, fighter in sorted(set(old) - set(new)):
        who = f" of {fighter}" if fighter else ""
        r.say(f"Marker removed: {kind.replace(':', ' ')}{who} (no longer on the map, sighted "
              "or acquired)", ("7.0", "7.2.2"), kind=kind.split(":")[0], fighter=fighter or None)


def _dice(rolls: Sequence[int]) -> str:
    return ", ".join(str(v) for v in rolls) if rolls else "-"


def _chase_plan(game: Game, hex_id: str, facing: int, target: Fighter, mp: int) -> str:
    """Chase policy [27.2.3]: a plan that enters the target's hex with its facing (so that the
    intruder can attack, 11.0), shortest first; else the plan ending nearest the hex behind
    the target, facing as it does. Never through the target's hex with another facing (the
    intruder would stop there, 27.2.4)."""
    g = grid(game)
    behind = g.neighbour_in_direction(target.hex, (target.facing + 3) % 6) or target.hex
    best: tuple[tuple[int, int, int], str] | None = None
    queue = [(hex_id, facing, 0, False, "")]
    seen = set()
    while queue:
        here, face, spent, can_turn, plan = queue.pop(0)
        if (here, face, spent, can_turn) in seen:
            continue
        seen.add((here, face, spent, can_turn))
        if here == target.hex and spent:
            if face == target.facing:
                return plan
            continue
        key = (g.distance(here, behind), face != target.facing, len(plan))
        if best is None or key < best[0]:
            best = (key, plan)
        if spent < mp and (nxt := g.neighbour_in_direction(here, face)) is not None:
            queue.append((nxt, face, spent + 1, True, plan + "F"))
        if can_turn:
            queue.append((here, (face + 1) % 6, spent, False, plan + "R"))
            queue.append((here, (face - 1) % 6, spent, False, plan + "L"))
    return best[1] if best else ""


def _move_intruder(r: _Run, iid: str) -> None:
    """An intruder's move and combat [27.2-27.2.4]; its AI and sighting are never told (L5)."""
    game, night = r.game, r.night
    intruder = night.bomber(iid)
    choose = r.st.memo_choose("intruder")
    kind = intruders.behaviour(game, night, intruder)
    target_id = None
    plan = None
    slower = r.st.pick((False, True), "intruder_mp")
    if kind == "chase":
        target_id = intruders.ai_target(game, night, intruder, choose)
        mp = movement.bomber_mp(game, intruder, night.turn)
        if slower:
            mp -= const(game, "intruder-mp-reduction-max")
        plan = _chase_plan(game, intruder.hex, intruder.facing, night.fighter(target_id), mp)
    r.night, kind = intruders.move_intruder(game, night, iid, slower=slower, plan=plan,
                                            choose=choose)
    moved = r.night.bomber(iid)
    if not moved.on_map:
        return
    victims = [f for f in r.night.fighters if f.on_map and f.hex == moved.hex
               and (target_id is None or f.id == target_id)]
    if kind in ("chase", "serrate") and victims:
        _intruder_attack(r, moved, victims[0])


def _intruder_attack(r: _Run, intruder: Bomber, fighter: Fighter) -> None:
    """27.2.4: a secret acquired-target sighting roll; with a sighting and the same facing the
    intruder attacks now: the player is told, the fighter reacts openly (Alert column with
    tail-warning radar, 17.4.4), then the intruder fires (no shoot-down table)."""
    game = r.game
    count = detection.captured_sighting_dice(game, moon=r.night.env.moon)
    seen = fighter.sighting_number in [r.st.secret.roll("d6", "intruder_sighting")
                                       for _ in range(count)]
    if not seen or fighter.facing != intruder.facing:
        return
    warning = fighter.id in r.sc.tail_warning_radar
    reacts = combat.reacts(game, r.st.roll("d6", "intruder_reaction"), warning=warning,
                           alerted=False)
    effect = "none"
    if reacts:
        effect = combat.reaction_effect(game, r.st.roll("d6", "intruder_reaction"))
    text = f"An intruder attacks your fighter {fighter.id} at {fighter.hex}"
    if effect == "corkscrew":
        lost = replace(fighter, sighting=None, ai_contact=None, corkscrewed=True)
        r.night = r.night.with_fighter(lost)
        r.say(text + ": your fighter corkscrews and stays in its hex; the attack misses; "
              "sightings and AI contacts lost", ("27.2.4", "17.4.4"), fighter=fighter.id)
        return
    if effect == "return-fire":
        dfp = game.get("units", fighter.unit).stats.get("defensive_fp")
        if dfp is not None:
            hits = combat.attack_roll(game, r.st, int(dfp), "defensive_fire")
            text += f"; your defensive fire scores {hits} hit(s)"
            if hits:
                hit = replace(intruder, hits=intruder.hits + hits, alert=True)
                if hit.hits >= hit.damage:
                    r.night = movement.remove_bomber(r.night.with_bomber(hit), hit, "destroyed")
                    r.say(text + ": the intruder is destroyed", ("27.2.4", "17.4.2", "11.0"),
                          fighter=fighter.id, destroyed=True)
                    return
                r.night = r.night.with_bomber(hit)
                r.say(text + ": the intruder aborts", ("27.2.4", "17.4.2"), fighter=fighter.id)
                return
    hits = combat.attack_roll(game, r.st, intruder.fp, "intruder_attack")
    r.night, _f, dead = combat._hit_fighter(r.night, r.night.fighter(fighter.id), hits)
    r.say(text + f"; the intruder's attack: {hits} hit(s)"
          + (f"; {fighter.id} is shot down" if dead else ""),
          ("27.2.4", "11.0"), fighter=fighter.id, hits=hits, destroyed=dead)


def _bomber_entry(r: _Run) -> None:
    """Phase 2 [8]: draws, chit, delays and entry MP by the policy; told nothing (L7)."""
    game, night = r.game, r.night
    entering: list[tuple[str, int]] = [(b, c) for b, c, t in r.s.delayed if t == night.turn]
    delayed = tuple(d for d in r.s.delayed if d[2] != night.turn)
    due = dict(r.sc.arrival).get(night.turn, 0)
    if due:
        chosen = phases._draw_entrants(game, night, r.st, due)
        if chosen:
            night, chit = phases.draw_chit(game, night, r.st)
            numbers = movement.chit_numbers(game, chit, night.chit_face)
            columns = movement.entry_columns(game, numbers, len(chosen))
            delay_max = const(game, "entry-delay-max-turns")
            for bid, column in zip(chosen, columns, strict=False):
                delay = r.st.pick(tuple(range(delay_max + 1)), "delay") if len(chosen) == 1 else 0
                if delay:
                    night = night.with_bomber(replace(night.bomber(bid), status="delayed"))
                    delayed += ((bid, column, night.turn + delay),)
                else:
                    entering.append((bid, column))
    for bid, column in entering:
        bomber = night.bomber(bid)
        top = movement.bomber_mp(game, bomber, night.turn)
        taken = {b.hex for b in night.on_map_bombers()}
        free = [mp for mp in range(const(game, "entry-mp-min"), top + 1)
                if movement.entry_path(game, column, mp, top).end not in taken]
        mp = r.st.pick(free or [const(game, "entry-mp-min")], "entry_mp")
        if movement.entry_path(game, column, mp, top).end in taken:
            continue  # no free hex in the column this turn: it waits in the pool
        night = movement.enter_bomber(game, night, bid, column, mp)
    r.night = night
    r.set(delayed=delayed)


def _tail_warnings(r: _Run) -> None:
    """Start of Fighter Movement [27.3]: one warning per equipped fighter (M4)."""
    warned = []
    for f in r.night.fighters:
        if f.on_map and f.id in r.sc.tail_warning_radar and detection.tail_warning(
                r.game, r.night, f):
            warned.append(f.id)
            r.say(f"Tail warning for {f.id}", ("27.3",), fighter=f.id)
    boxed = tuple((f.id, "boxed") for f in r.night.fighters if f.status == "beacon-box")
    r.set(warned=frozenset(warned), moved=frozenset(), declared=frozenset(boxed))


def _flak(r: _Run) -> None:
    """Phase 4 [22.0]: the 2d6 check and, on 6-6, the announced dice and hits (M5)."""
    r.night, report = phases.flak_phase(r.game, r.night, r.st)
    if report.check is None:
        return
    text = f"Flak: 2d6 = {report.check}"
    if report.rolls or report.task_force_rolls:
        text += f"; flak dice {_dice(report.rolls + report.task_force_rolls)}"
        for fid, n in report.hits:
            text += f"; {fid}: {n} hit(s)"
            if r.night.fighter(fid).status == "destroyed":
                text += f"; {fid} is shot down"
    else:
        text += ": no effect"
    r.say(text, ("22.0",), check=report.check, rolls=list(report.rolls), hits=dict(report.hits))


def _ai_search(r: _Run) -> None:
    """Phase 6 [19.1.2]: contacts by the engine; new ones and losses announced (M7)."""
    before = {f.id: f.ai_contact for f in r.night.fighters}
    r.night = radars.ai_search(r.game, r.night, r.st.choose("ai_tie"), r.st)
    for f in r.night.fighters:
        if f.ai_contact is not None:
            b = r.night.bomber(f.ai_contact)
            r.say(f"AI contact for {f.id} at {b.hex} {_facing_word(b.facing)}", ("19.1.2",),
                  fighter=f.id, hex=b.hex, facing=b.facing)
        elif before.get(f.id) is not None:
            r.say(f"AI contact of {f.id} lost", ("19.1.2",), fighter=f.id)


def _searchlight(r: _Run) -> None:
    """Phase 7 [14.2.1-14.2.2, 14.1, 21.2]: a search marker at a random hex of every free zone
    holding a bomber (L3, L4); the player's roll with the session dice; capture (M8)."""
    game, night = r.game, r.night
    if night.env.clouds == "overcast":
        return  # 14.1: no search in cloud
    markers = []
    for zone in night.zones:
        if any(z == zone for z, _ in night.captures):
            continue
        hexes = sorted(detection.zone_hexes(game, zone))
        occupied = any(b.hex in hexes for b in night.on_map_bombers())
        if not occupied and zone not in night.flare_zones:
            continue
        where = r.st.pick(hexes, f"marker_{zone}", marker=True)
        markers.append((zone, where))
        if night.env.altitude == "high":
            r.say(f"Searchlight zone {zone}: search marker at {where} (high altitude: no roll)",
                  ("14.2.1", "21.2"), zone=zone, hex=where)
            continue
        start = len(r.st.public.rolls)
        after = searchlights.searchlight_search(game, night, zone, r.st,
                                                choose=r.st.choose("capture_tie"))
        rolls = r.st.public_rolls("searchlight", start)
        if after.captures == night.captures:
            r.say(f"Searchlight zone {zone}: search marker at {where}; you roll {_dice(rolls)}: "
                  "no capture", ("14.2.1",), zone=zone, hex=where, rolls=list(rolls))
            continue
        night = after
        target = night.bomber(night.captures[-1][1])
        markers.pop()
        r.say(f"Searchlight zone {zone}: search marker at {where}; you roll {_dice(rolls)}: "
              f"capture at {target.hex} {_facing_word(target.facing)}", ("14.2.1",),
              zone=zone, hex=where, rolls=list(rolls), capture=target.hex,
              facing=target.facing)
    r.night = night
    r.set(searchlights=tuple(markers))


def _sighting_start(r: _Run) -> None:
    """Start of phase 8 [10.2, 21.2.1]: sightings out of range are lost (M10); contrails (M9)."""
    before = {f.id: f.sighting for f in r.night.fighters}
    r.night = detection.maintain_sightings(r.game, r.night, r.st)
    for f in r.night.fighters:
        if before.get(f.id) is not None and f.sighting is None:
            r.say(f"Sighting of {f.id} lost: out of range", ("10.2",), fighter=f.id)
    if r.sc.contrails:
        for f in r.night.fighters:
            if detection.contrails(r.game, r.night, f):
                r.say(f"Contrails encountered by {f.id}", ("21.2.1",), fighter=f.id)
    r.set(sighted=False)


def _reactions(r: _Run) -> None:
    """End of Combat [17.4]: a bomber sharing hex and facing with a fighter that did not
    attack may still react (M12)."""
    for f in r.night.fighters:
        if not f.on_map or f.attacked:
            continue
        for b in r.night.on_map_bombers():
            if b.hex == f.hex and b.facing == f.facing and r.night.fighter(f.id).on_map:
                r.night, report = combat.resolve_attack(r.game, r.night, f.id, b.id, r.st,
                                                        attack=False)
                _say_reaction(r, f.id, report)


def _say_reaction(r: _Run, fid: str, report: combat.AttackReport) -> None:
    if report.reaction == "return-fire" or report.defensive_hits:
        r.say(f"A bomber in the hex of {fid} fires defensively: {report.defensive_hits} hit(s)"
              + (f"; {fid} is shot down" if report.fighter_destroyed else ""),
              ("17.4", "17.4.2"), fighter=fid, hits=report.defensive_hits)
    if report.corkscrew is not None:
        r.say(f"A bomber in the hex of {fid} corkscrewed", ("17.4.3",), fighter=fid)


def _end_of_turn(r: _Run) -> None:
    """Phase 10 [4.0, 14.2.1, 26.2.2]: search markers removed, the turn advances."""
    r.night = phases.end_turn(r.night)
    r.set(searchlights=())


# --- the phase machine --------------------------------------------------------------------


def _radar_search_start(r: _Run) -> None:
    r.night = replace(r.night, counters=())  # 13.1.3
    r.set(placed=())


#: The umpire's part at the start of each phase [4.0] (phases not listed have none).
PHASE_START = {
    "bomber-movement": _bomber_movement, "bomber-entry": _bomber_entry,
    "fighter-movement": _tail_warnings, "flak": _flak, "radar-search": _radar_search_start,
    "ai-search": _ai_search, "searchlight": _searchlight, "sighting": _sighting_start,
}


def _enter(r: _Run, phase: str) -> None:
    """Start ``phase``: the umpire's part of it [4.0]."""
    r.set(phase=phase)
    if active(r.sc, phase) and phase in PHASE_START:
        PHASE_START[phase](r)


def _leave(r: _Run) -> None:
    """End the current phase (refused while the rules need the player to act)."""
    phase = r.s.phase
    if phase == "fighter-movement":
        unmoved = [f.id for f in r.night.fighters if may_move(r.s, f)]
        if unmoved:
            raise RuleViolation("9.0", f"every night fighter must move (at least "
                                       f"{const(r.game, 'fighter-min-mp')} MP) before the "
                                       f"phase ends; not moved yet: {', '.join(unmoved)}")
    elif phase == "combat":
        _reactions(r)
    elif phase == "end-of-turn":
        _end_of_turn(r)


def _next(game: Game, phase: str) -> str:
    phases = phase_ids(game)
    return phases[(phases.index(phase) + 1) % len(phases)]


def _run_to_player(r: _Run) -> None:
    """Run umpire phases until one waits for the player or the game ends [4.0, 4.1]."""
    for _ in range(len(phase_ids(r.game)) * 2):
        if _check_end(r):
            return
        if active(r.sc, r.s.phase) and _waits(r.game, r.sc, r.s):
            return
        _leave(r)
        if _check_end(r):
            return
        _enter(r, _next(r.game, r.s.phase))
    raise RuntimeError("the phase machine did not reach a player phase")


def _goto(r: _Run, target: str) -> None:
    """The phase-advance rule: end phases up to ``target`` (a later one) and start it."""
    order = phase_ids(r.game).index
    if order(target) < order(r.s.phase):
        raise RuleViolation("4.0", f"the {r.s.phase} phase is running; a command of the "
                                   f"{target} phase comes earlier in the turn (allowed now: "
                                   f"{', '.join(awaiting(r.game, r.sc, r.s))})")
    while r.s.phase != target:
        _leave(r)
        if _check_end(r):
            return
        _enter(r, _next(r.game, r.s.phase))
        if _check_end(r):
            return


# --- end of game [4.1] --------------------------------------------------------------------


def _counts(night: Night) -> dict[str, int]:
    attackers = night.bombers
    return {
        "shot_down": sum(b.status == "destroyed" and b.kind != "intruder" for b in attackers),
        "intruders_shot_down": sum(b.status == "destroyed" and b.kind == "intruder"
                                   for b in attackers),
        "exited": sum(b.status == "exited" and b.kind != "intruder" for b in attackers),
        "fighters_lost": sum(f.status == "destroyed" for f in night.fighters),
        "fighters_left_map": sum(f.status == "off-map" for f in night.fighters),
    }


def _met(level: Any, counts: Mapping[str, int]) -> bool:
    return ((level.shot_down_at_least is None
             or counts["shot_down"] >= level.shot_down_at_least)
            and (level.exited_at_most is None or counts["exited"] <= level.exited_at_most))


def _check_end(r: _Run) -> bool:
    """4.1: end condition, victory achieved (top level, shoot-downs only), all attackers
    gone, all fighters gone. Returns whether the game is over."""
    if r.s.over:
        return True
    night, sc = r.night, r.sc
    counts = _counts(night)
    reasons: list[tuple[str, tuple[str, ...]]] = []
    if sc.turns is not None and night.turn > sc.turns:
        reasons.append((f"the scenario's {sc.turns} turns are played", ("4.1", "3.2")))
    if sc.bombers_gone is not None and counts["shot_down"] + counts["exited"] >= sc.bombers_gone:
        reasons.append((f"{sc.bombers_gone} bombers have exited or been shot down",
                        ("4.1", "3.2")))
    if all(b.status in GONE for b in night.bombers):
        reasons.append(("every attacker has exited or been shot down", ("4.1",)))
    if all(f.status in ("destroyed", "off-map") for f in night.fighters):
        reasons.append(("every night fighter has been shot down or has left the map",
                        ("4.1",)))
    top = sc.victory[-1] if sc.victory else None
    if top is not None and top.exited_at_most is None and _met(top, counts):
        reasons.append((f"the {top.name} victory conditions are achieved", ("4.1",)))
    if not reasons:
        return False
    _finish(r, counts, reasons)
    return True


def _finish(r: _Run, counts: Mapping[str, int],
            reasons: list[tuple[str, tuple[str, ...]]]) -> None:
    met = [lv for lv in r.sc.victory if _met(lv, counts)]
    level = met[-1].name if met else None
    result = {"normal": "victory", "decisive": "decisive victory"}.get(level or "", "defeat")
    why = [{"text": t, "rules": list(rules)} for t, rules in reasons]
    for lv in r.sc.victory:
        cond = []
        if lv.shot_down_at_least is not None:
            cond.append(f"shoot down at least {lv.shot_down_at_least} bombers")
        if lv.exited_at_most is not None:
            cond.append(f"let at most {lv.exited_at_most} exit")
        why.append({"text": f"{lv.name} victory ({' and '.join(cond)}): "
                            f"{'met' if lv in met else 'not met'}", "rules": ["4.1"]})
    summary = {"result": result, "level": level, "turn": r.night.turn, **counts,
               "reasons": why}
    r.set(result=summary)
    r.say(f"Game over on turn {r.night.turn}: {result} — {counts['shot_down']} bombers shot "
          f"down, {counts['exited']} exited, {counts['fighters_lost']} fighters lost "
          f"({'; '.join(t for t, _ in reasons)})", ("4.1",), result=result,
          shot_down=counts["shot_down"], exited=counts["exited"])


# --- player commands ----------------------------------------------------------------------


def _arg(args: Mapping[str, Any], key: str, command: str) -> Any:
    if key not in args or args[key] in (None, ""):
        raise BadInput(f"{command}: missing {key} ({WANTED[key]})")
    return args[key]


def _bad_args(r: _Run, command: str, args: Mapping[str, Any]) -> None:
    """Bad input in a command's arguments, found before any phase is left for it: an
    unknown fighter or counter, a hex not on the map, a facing that is none, a facing given
    to a fighter already on the map (it faces where its path ends). One line, exit 2, in
    whatever phase the command is typed."""
    if command in ("move", "evade", "descend", "attack"):
        f = _fighter(r, args, command)
        if command == "move":
            _entry_args(r, f, args)
    if command == "search":
        _counter(r, args)
        check_hex(r.game, _arg(args, "hex", "search"), "hex")


def _entry_args(r: _Run, f: Fighter, args: Mapping[str, Any]) -> None:
    """``move``'s hex and facing (``--enter``, ``--facing``): checked, and only for a fighter
    leaving the radio beacon box (23.0); one on the map goes and faces where its path
    ends."""
    if args.get("facing") is not None:
        facing_of(args["facing"])
    if args.get("hex") not in (None, ""):
        check_hex(r.game, args["hex"], "hex")
    given = [name for name, key in (("--enter", "hex"), ("--facing", "facing"))
             if args.get(key) not in (None, "")]
    if given and f.status != "beacon-box":
        raise BadInput(f"move: {' and '.join(given)} only for a fighter leaving the radio "
                       f"beacon box; {f.id} is {fighter_status(f)}: it goes and faces where "
                       "its path ends")
    if f.status == "beacon-box" and len(given) < 2:
        raise BadInput(f"move: {f.id} is in the radio beacon box: give the hex it enters and "
                       "the way it faces there (--enter HEX --facing F, e.g. --enter 1824 "
                       "--facing NW; 23.0)")


def _typed_facing(typed: Any) -> str:
    """A facing as typed (``NW``, ``5``) shown as everywhere else (``NW (5)``); a value that
    is no facing (a refused command's) as it was typed."""
    try:
        return facing_text(facing_of(typed))
    except BadInput:
        return str(typed)


def _counter(r: _Run, args: Mapping[str, Any]) -> str:
    allowed = r.sc.counter_ids()
    have = ", ".join(allowed) or "none"
    if args.get("counter") in (None, ""):
        raise BadInput(f"search: missing counter (this scenario's: {have})")
    counter = str(args["counter"]).strip()
    if counter not in allowed:
        raise BadInput(f"search: no search counter {counter!r} in this scenario "
                       f"(have: {have})")
    return counter


def _fighter(r: _Run, args: Mapping[str, Any], command: str) -> Fighter:
    fid = str(_arg(args, "fighter", command)).strip()
    ids = [f.id for f in r.night.fighters]
    if fid not in ids:
        raise BadInput(f"{command}: no night fighter {fid!r} (have: {', '.join(ids)})")
    return r.night.fighter(fid)


def _declare(r: _Run, args: Mapping[str, Any], command: str) -> None:
    f = _fighter(r, args, command)
    rule = "27.3.1" if command == "evade" else "18.0"
    if f.id in r.s.moved:
        raise RuleViolation(rule, f"{command} is declared before {f.id} moves; it has moved")
    if (f.id, command) in r.s.declared:
        raise RuleViolation(rule, f"{f.id} has already declared {command} this phase")
    if command == "evade" and f.id not in r.s.warned:
        raise RuleViolation("27.3.1", f"{f.id} may evade only on a tail warning (none this "
                                      "turn)")
    if command == "descend" and f.dives_left < 1:
        raise RuleViolation("18.0", f"{f.id} has no altitude advantage left (0 dives)")
    if not f.on_map:
        raise RuleViolation("9.2.1", f"{f.id} is not on the map ({fighter_status(f)})")
    r.set(declared=r.s.declared | {(f.id, command)})
    what = ("evades: +1 MP, loses its sightings and AI contact" if command == "evade"
            else "dives: +1 MP, must use its full MP")
    r.say(f"{f.id} {what}", (rule,), fighter=f.id)


def _move(r: _Run, args: Mapping[str, Any]) -> None:
    f = _fighter(r, args, "move")
    path = str(_arg(args, "path", "move")) if f.status != "beacon-box" else str(
        args.get("path") or "")
    if f.id in r.s.moved:
        raise RuleViolation("9.0", f"{f.id} has already moved this phase")
    if f.status == "beacon-box":
        if not movement.may_leave_beacon_box(r.game, r.night.turn, r.night.beacon_departure,
                                             sum(1 for m in r.s.moved
                                                 if m in boxed_at_start(r.s))):
            raise RuleViolation("23.0", "one fighter leaves the radio beacon box per Fighter "
                                        "Movement phase, none if another left last turn")
        hex_id = check_hex(r.game, _arg(args, "hex", "move"), "hex")
        facing = facing_of(_arg(args, "facing", "move"))
        night = movement.leave_beacon_box(r.game, r.night, f.id, hex_id, facing, path)
    else:
        if not may_move(r.s, f):
            raise RuleViolation("17.3.1" if f.on_map else "9.2.1",
                                f"{f.id} does not move this phase ({fighter_status(f)})")
        declared = {what for fid, what in r.s.declared if fid == f.id}
        night = movement.move_fighter(r.game, r.night, f.id, path,
                                      dives=1 if "descend" in declared else 0,
                                      evade="evade" in declared)
    moved = night.fighter(f.id)
    if moved.status == "off-map" and not args.get("leave_map"):
        raise RuleViolation("9.2.1", f"plan {path!r} flies {f.id} off the map, and a fighter "
                                     "that leaves never returns; add --leave-map to mean it")
    if f.status == "on-map" and moved.evading:
        night = movement.displace_lost(r.game, r.night, night, r.st)
    r.night = night
    r.set(moved=r.s.moved | {f.id})
    where = "leaves the map" if moved.status == "off-map" else (
        f"moves to {moved.hex} {_facing_word(moved.facing)}")
    r.say(f"{f.id} {where} ({moved.mp_spent} MP)", ("9.0", "9.1", "9.2"), fighter=f.id,
          hex=moved.hex, facing=moved.facing, mp=moved.mp_spent)


def _search(r: _Run, args: Mapping[str, Any]) -> None:
    counter = _counter(r, args)
    if counter in r.s.placed:
        raise RuleViolation("13.1.1", f"counter {counter!r} is already placed this phase")
    hex_id = check_hex(r.game, _arg(args, "hex", "search"), "hex")
    radar = counter.split("#")[0]
    placed = radars.radar_search(r.game, r.night, [(radar, hex_id)],
                                 choose=r.st.choose("sweep")).counters[0]
    r.night = replace(r.night, counters=(*r.night.counters, placed))
    r.set(placed=(*r.s.placed, counter))
    text = f"{radar.capitalize()} at {hex_id}: " + ("contact" if placed.contact else "no contact")
    if placed.sweeps:
        text += f"; sweep at {', '.join(placed.sweeps)}"
    r.say(text, ("13.1.1", "13.1.2"), counter=counter, hex=hex_id, contact=placed.contact,
          sweeps=list(placed.sweeps))


def _sight(r: _Run) -> None:
    """General roll [10.1], keep the nearest per fighter [10.2], acquired rolls [15.1]."""
    game, night = r.game, r.night
    start = len(r.st.public.rolls)
    roll = detection.general_sighting(game, night, r.st)
    g = grid(game)
    keep: dict[str, str] = {}
    for f in night.fighters:
        if f.sighting is not None:
            continue
        options = [b for b, who in roll.sighted if f.id in who]
        if options:
            best = min(options, key=lambda b: (g.distance(f.hex, night.bomber(b).hex),
                                               night.bomber(b).hex))
            keep[f.id] = best
    text = f"Sighting roll: {_dice(roll.announced)}"
    bonus = r.st.public_rolls("cloud_bonus", start) + r.st.public_rolls("visibility_bonus", start)
    if bonus:
        text += f" (bonus dice {_dice(bonus)})"
    shown = sorted({night.bomber(b).hex for b, _ in roll.sighted})
    text += (f": bombers sighted at {', '.join(shown)}" if shown else ": nothing sighted")
    r.say(text, ("10.1", "10.1.1"), announced=list(roll.announced), sighted=shown)
    night = detection.keep_sightings(game, night, roll, keep, r.st)
    for fid, b in sorted(keep.items()):
        bomber = night.bomber(b)
        r.say(f"{fid} keeps the sighting at {bomber.hex} {_facing_word(bomber.facing)}",
              ("10.1", "10.2"), fighter=fid, hex=bomber.hex, facing=bomber.facing)
    r.night = night
    _acquired(r)
    r.set(sighted=True)


def _acquired(r: _Run) -> None:
    game = r.game
    g = grid(game)
    for f in r.night.fighters:
        if f.sighting is not None or not detection.can_sight(f, r.night.turn):
            continue
        target = f.ai_contact
        if target is None:
            lit = [r.night.bomber(b) for _, b in r.night.captures]
            lit = [b for b in lit if detection.in_range(game, r.night, f, b)]
            if not lit:
                continue
            target = min(lit, key=lambda b: (g.distance(f.hex, b.hex), b.hex)).id
        bomber = r.night.bomber(target)
        if not detection.in_range(game, r.night, f, bomber):
            continue
        r.night, rolls = phases.acquired_sighting(game, r.night, f.id, target, r.st)
        got = r.night.fighter(f.id).sighting == target
        r.say(f"{f.id} tries to sight the acquired bomber at {bomber.hex}: you roll "
              f"{_dice(rolls)}: " + ("sighted" if got else "not sighted"), ("15.1", "15.1.1"),
              fighter=f.id, hex=bomber.hex, rolls=list(rolls), sighted=got)


def _attack(r: _Run, args: Mapping[str, Any]) -> None:
    f = _fighter(r, args, "attack")
    oblique = bool(args.get("oblique", False))
    if f.sighting is None:
        raise RuleViolation("11.0", f"{f.id} has not sighted a bomber: an attack needs a "
                                    "sighted bomber in the same hex with the same facing")
    if oblique and not has_oblique(r.game, f):
        raise RuleViolation("20.0", f"{f.id} ({f.unit}) has no oblique guns")
    follow = None if args.get("follow") == "none" else f.hex
    start = len(r.st.public.rolls)
    r.night, report = combat.resolve_attack(r.game, r.night, f.id, f.sighting, r.st,
                                            oblique=oblique,
                                            deconfliction=r.sc.deconfliction, follow=follow)
    _say_attack(r, f.id, report, r.st.public_rolls("roll", start), oblique)


def _say_attack(r: _Run, fid: str, report: combat.AttackReport, rolls: tuple[int, ...],
                oblique: bool) -> None:
    parts = [f"{fid} attacks" + (" with oblique guns" if oblique else "")]
    if report.reaction == "return-fire" or (report.defensive_hits and report.corkscrew is None):
        parts.append(f"the bomber fires defensively: {report.defensive_hits} hit(s) on {fid}")
    if report.corkscrew is not None:
        parts.append("the bomber corkscrews" + (f" after firing: {report.defensive_hits} "
                                                f"hit(s) on {fid}" if report.defensive_hits
                                                else ""))
        regained = r.night.fighter(fid).sighting is not None
        parts.append("you follow and regain the sighting" if regained
                     else "the sighting is lost")
    if report.aborted:
        parts.append("the attack is aborted")
    if report.fp is not None:
        parts.append(f"you roll {_dice(rolls)} + FP {report.fp}: {report.hits} hit(s)")
    if report.destroyed:
        parts.append("the bomber is destroyed")
        if report.shootdown:
            parts.append(f"shoot-down table: {report.shootdown}")
        if report.evade == "collision":
            parts.append(f"collision: {report.collision_hits} hit(s)")
    if report.fighter_destroyed:
        parts.append(f"{fid} is shot down")
    rules = ["11.0", "17.4"] + (["17.3"] if report.destroyed else [])
    r.say("; ".join(parts), rules, fighter=fid, hits=report.hits, destroyed=report.destroyed,
          defensive_hits=report.defensive_hits, corkscrewed=report.corkscrew is not None)


def _sight_command(r: _Run, args: Mapping[str, Any]) -> None:
    if r.s.sighted:
        raise RuleViolation("10.1", "one sighting roll per Sighting phase")
    _sight(r)


def _end_turn(r: _Run, args: Mapping[str, Any]) -> None:
    _leave(r)
    if not _check_end(r):
        _enter(r, "bomber-movement")


#: What each of the player's commands does in its phase (choices.COMMAND_PHASE) [4.0].
HANDLERS: dict[str, Callable[[_Run, Mapping[str, Any]], None]] = {
    "move": _move,
    "evade": lambda r, args: _declare(r, args, "evade"),
    "descend": lambda r, args: _declare(r, args, "descend"),
    "search": _search,
    "sight": _sight_command,
    "attack": _attack,
    "end-turn": _end_turn,
}


# --- the referee --------------------------------------------------------------------------


@CODE.session
class NightfighterReferee:
    """The Nightfighter umpire for one player (see the module docstring for the policy)."""

    game_id = "nightfighter"
    #: the player's commands as the command line offers them (choices.ACTIONS)
    actions = ACTIONS
    commands = tuple(spec.name for spec in ACTIONS)
    #: double-blind: the player's view hides the bombers the rules do not show him [5.0]
    hidden = True
    #: how far agents look ahead by default (engine.agents.lookahead): a step of the night
    #: costs milliseconds (the umpire's phases run inside it), so greedy weighs 48 answers
    #: on one drawn position, one dice draw each, and MCTS spends 64 steps 6 deep over 24
    lookahead = {"greedy": {"limit": 48, "rolls": 8, "samples": 1},
                 "mcts": {"budget": 64, "depth": 6, "width": 24}}
    #: how the text views show a field (the views' JSON keeps the number)
    field_text = {"facing": facing_text}
    #: how the log shows a command's argument as typed (the log keeps what was typed)
    arg_text = {"facing": _typed_facing}

    def scenarios(self, game: Game) -> tuple[ScenarioInfo, ...]:
        """Every shipped scenario, loaded and checked; InputProblems with the problems of every
        broken one."""
        out, problems = [], []
        for name in SHIPPED:
            try:
                sc = load_scenario(game, name)
            except InputProblems as exc:
                problems.extend(exc.problems)
                continue
            out.append(ScenarioInfo(name, sc.title, str(shipped_path(name)), sc.summary()))
        if problems:
            raise InputProblems(problems)
        return tuple(out)

    def set_aside(self, game: Game, position: Position, piece_id: str) -> Position:
        """The night's set-up without night fighter ``piece_id`` (restricted play: balance):
        the scenario's defending force one fighter fewer, the counters it names kept
        [3.2, 23.0]. Bombers are drawn each night, so none is set aside."""
        piece = position.piece(piece_id)
        if piece.side != DEFENDER:
            raise BadInput(f"restricted play: {piece_id!r} is a bomber; the stream is drawn "
                           "each night, only night fighters are set aside")
        data = thaw(position.data)
        force = data["scenario"]["scenario"]["defending_force"]
        for flight in force:
            ids = [str(c) for c in flight.get("counters") or
                   game.get("units", flight["unit"]).stats.get("counter_ids", ())[:flight["count"]]]
            if piece_id in ids:
                k = ids.index(piece_id)
                flight.update(count=flight["count"] - 1, counters=ids[:k] + ids[k + 1:],
                              deploy=flight["deploy"][:k] + flight["deploy"][k + 1:])
        scenario = data["scenario"]["scenario"]
        scenario["defending_force"] = [f for f in force if f["count"]]
        for key, named in (scenario.get("switches") or {}).items():  # experten and the like
            if isinstance(named, list):
                scenario["switches"][key] = [str(n) for n in named if str(n) != piece_id]
        data["announcements"].append({
            "turn": position.turn, "phase": "setup", "data": {}, "rules": ["3.2"],
            "text": f"Restricted play: night fighter {piece_id} set aside"})
        aside = replace(position, data=freeze(data),
                        pieces=tuple(p for p in position.pieces if p.id != piece_id))
        night_session(game, aside)  # the set-up still reads as a night
        return aside

    def scenario_file(self, game: Game, name_or_path: str | None) -> Path:
        return resolve_scenario(name_or_path)[0]

    def load_scenario(self, game: Game, name_or_path: str | None) -> Scenario:
        return load_scenario(game, name_or_path)

    def new(self, game: Game, scenario: Scenario, dice: Dice) -> Step:
        st = Streams(dice)
        night, notes = _setup(game, scenario, st)
        s = NightSession(scenario=scenario.data, name=scenario.name, path=scenario.path,
                         night=night, phase="bomber-movement")
        r = _Run(game, s, st, scenario)
        for text, rules in notes:
            r.say(text, rules, phase="setup")
        r.say(f"Scenario {scenario.title}: fighters {', '.join(scenario.fighter_ids)}; "
              f"{scenario.turns or '-'} turns", ("3.2", "3.4"), phase="setup")
        _enter(r, "bomber-movement")
        _run_to_player(r)
        return r.freeze()

    def apply(self, game: Game, state: Position, command: str, args: Mapping[str, Any],
              dice: Dice) -> Step:
        s, sc = read(game, state)
        if command not in self.commands:
            raise BadInput(f"unknown command {command!r} (commands: {', '.join(self.commands)})")
        if not isinstance(args, Mapping):
            raise BadInput(f"{command}: arguments must be an object, got {args!r}")
        if s.over:
            raise RuleViolation("4.1", f"the game is over; {command!r} is refused (status and "
                                       "reveal still work)")
        r = _Run(game, s, Streams(dice), sc)
        _bad_args(r, command, args)  # bad input first, in any phase: exit 2, not a refusal
        _goto(r, COMMAND_PHASE[command])
        if r.s.over:
            return r.freeze()
        HANDLERS[command](r, args)
        _run_to_player(r)
        return r.freeze()

    def decision(self, game: Game, state: Position) -> Decision | None:
        """The player's decision now and its legal answers (choices); None once over."""
        s, sc = read(game, state)
        return decision(game, sc, s)

    # --- views ----------------------------------------------------------------------------

    def player_view(self, game: Game, state: Position, side: str | None = None
                    ) -> dict[str, Any]:
        if side not in (None, DEFENDER):
            raise BadInput(f"side {side!r}: the player flies the night fighters "
                           f"({DEFENDER!r}); the referee plays the attackers")
        return _player_view(game, *read(game, state))

    def referee_view(self, game: Game, state: Position) -> dict[str, Any]:
        """The whole truth (``reveal``): the player's view and every attacker, the entry
        chits, delays, captures and sightings."""
        s, sc = read(game, state)
        view = _player_view(game, s, sc)
        night = s.night
        view["bombers"] = [{
            "id": b.id, "unit": b.unit, "kind": b.kind, "hex": b.hex, "facing": b.facing,
            "hits": b.hits, "damage": b.damage, "alert": b.alert,
            "status": BOMBER_STATUS.get(b.status, b.status),
        } for b in night.bombers]
        view["chit_face"] = night.chit_face
        view["chits_drawn"] = list(night.chits_drawn)
        view["delayed"] = [{"id": b, "column": c, "turn": t} for b, c, t in s.delayed]
        view["captures"] = [{"zone": z, "bomber": b} for z, b in night.captures]
        view["sightings"] = [{"fighter": f.id, "bomber": f.sighting, "ai_contact": f.ai_contact}
                             for f in night.fighters]
        return view

    # --- what an agent of the player knows (information.py) -------------------------------

    def agent_view(self, game: Game, state: Position, side: str | None = None) -> Position:
        """What the player knows, as a position: what an agent flying the fighters searches
        from (information.masked)."""
        return information.masked(game, state, side)

    def determinise(self, game: Game, view: Position, side: str | None,
                    rng: random.Random) -> Position:
        """A position drawn to agree with what the player knows (information.determinise)."""
        return information.determinise(game, view, side, rng)

    def score(self, game: Game, state: Position, side: str) -> float:
        """How the night stands for ``side`` before its end (what agents that look ahead
        weigh): attackers shot down and exited (4.1), fighters lost or gone (9.2.1), the
        radar contacts, sightings and AI contacts held, a fighter in an attacker's hex and
        more so with its facing (11.0: where it may attack), and how near each fighter is
        to the nearest attacker on the map (up to 15 hexes: less than a fighter gone), less
        when it faces the map's edge close by (it must fly on, 9.0, and would leave)."""
        s, _sc = read(game, state)
        night = s.night
        counts = _counts(night)
        value = (10.0 * counts["shot_down"] + 6.0 * counts["intruders_shot_down"]
                 - 3.0 * counts["exited"] - 12.0 * counts["fighters_lost"]
                 - 10.0 * counts["fighters_left_map"]
                 + 1.0 * sum(c.contact for c in night.counters))
        g = grid(game)
        targets = [b.hex for b in night.on_map_bombers()]
        behind = {(b.hex, b.facing) for b in night.on_map_bombers()}
        for f in night.fighters:
            if not f.on_map:
                continue
            value += 3.0 * (f.sighting is not None) + 1.0 * (f.ai_contact is not None)
            value += 2.0 * ((f.hex, f.facing) in behind) + 1.0 * (f.hex in targets)
            value -= 2.0 * (3 - _room_ahead(g, f.hex, f.facing, 3))
            if targets:
                value -= 0.2 * min(15, min(g.distance(f.hex, h) for h in targets))
        return value if side == DEFENDER else -value

    def summary(self, game: Game, state: Position) -> dict[str, Any] | None:
        s, _sc = read(game, state)
        return dict(s.result) if s.result is not None else None

    # --- persistence ----------------------------------------------------------------------

    def dump(self, state: Position) -> dict[str, Any]:
        return state.to_json()

    def load(self, game: Game, data: Any) -> Position:
        """A position from :meth:`dump`'s JSON, checked (BadInput naming the key)."""
        position = Position.from_json(data)
        read(game, position)
        return position

    # --- maps -----------------------------------------------------------------------------

    def render_player_map(self, game: Game, state: Position, fmt: str = "svg") -> bytes:
        return self._render(game, self.player_view(game, state), fmt, referee=False)

    def render_referee_map(self, game: Game, state: Position, fmt: str = "svg") -> bytes:
        return self._render(game, self.referee_view(game, state), fmt, referee=True)

    @staticmethod
    def _render(game: Game, view: dict[str, Any], fmt: str, referee: bool) -> bytes:
        # start-up: 114 more modules (reportlab, Pillow), only when this runs
        from ..referee_view import MAP_FORMATS

        if fmt not in MAP_FORMATS:
            raise BadInput(f"map format {fmt!r} is not one of {', '.join(MAP_FORMATS)}")
        return MAP_FORMATS[fmt](game, view, referee)


def _room_ahead(g: Any, hex_id: str, facing: int, most: int) -> int:
    """How many hexes (up to ``most``) lie ahead of a fighter before the map's edge."""
    for n in range(most):
        hex_id = g.neighbour_in_direction(hex_id, facing)
        if hex_id is None:
            return n
    return most


def _player_view(game: Game, s: NightSession, sc: Scenario) -> dict[str, Any]:
    """What the player may know [1.2.2, 5.1]: his fighters, his counters, the markers of the
    bombers he has sighted or acquired, this turn's announcements."""
    night = s.night
    view = player_view(night)
    env = view.env
    markers = [_marker(m) for m in view.markers]
    lights = [{"zone": z, "hex": h, "kind": "search"} for z, h in s.searchlights]
    lights += [{"zone": m["zone"], "hex": m["hex"], "kind": "capture"}
               for m in markers if m["kind"] == "captured"]
    return {
        "game": "nightfighter", "scenario": s.name, "title": sc.title,
        "turn": night.turn, "turns": sc.turns, "phase": s.phase,
        "awaiting": awaiting(game, sc, s),
        "environment": {"moon": env.moon, "visibility": env.visibility, "range": env.range,
                        "lit_range": env.lit_range, "clouds": env.clouds,
                        "altitude": env.altitude},
        "fighters": [_fighter_view(game, s, f) for f in view.fighters],
        "counters": [{"radar": c.radar, "counter": cid, "hex": c.hex, "contact": c.contact,
                      "sweeps": list(c.sweeps)}
                     for cid, c in zip(s.placed, night.counters, strict=False)],
        "markers": markers, "searchlights": lights, "zones": list(sc.zones),
        "radar_guided": sc.radar_guided, "flak": sc.flak,
        "search_counters": list(sc.counter_ids()),
        "score": _score(s),
        "announcements": [a.as_json() for a in s.announcements],
        "over": s.over, "summary": dict(s.result) if s.result else None,
    }


def _fighter_view(game: Game, s: NightSession, f: Fighter) -> dict[str, Any]:
    night = s.night
    return {
        "id": f.id, "unit": f.unit, "hex": f.hex, "facing": f.facing,
        "status": fighter_status(f), "hits": f.hits, "damage": f.damage,
        "mp": parse_mp(f.mp).base, "mp_asterisk": parse_mp(f.mp).asterisk,
        "mp_max": movement.fighter_max_mp(game, f.mp, night.turn), "dives_left":
        f.dives_left, "dazzled": f.dazzled(night.turn), "moved": f.id in s.moved,
        "attacked": f.attacked, "evading": f.evading, "expert": f.expert,
        "tail_warning": f.id in s.warned,
        "can_move": may_move(s, night.fighter(f.id)) or may_leave_box(
            game, s, night.fighter(f.id)),
        "declared": list(declared(s, f.id)),
    }


def _marker(m: Any) -> dict[str, Any]:
    kind, _, zone = m.kind.partition(":")
    return {"kind": kind, "hex": m.hex, "facing": m.facing, "fighter": m.fighter,
            "zone": zone or None}


def _score(s: NightSession) -> dict[str, Any]:
    """Bombers shot down (intruders too) while the night goes on; at its end the counts the
    victory levels read [4.1]."""
    counts = _counts(s.night)
    if s.over:
        return {"shot_down": counts["shot_down"], "exited": counts["exited"],
                "intruders_shot_down": counts["intruders_shot_down"]}
    return {"shot_down": counts["shot_down"] + counts["intruders_shot_down"]}


__all__ = ["NightSession", "NightfighterReferee", "Streams", "as_position",
           "night_session"]
