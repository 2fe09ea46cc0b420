"""Phase steps over a ``Night`` that combine several procedures [4.0].

Bomber Movement with searchlight hand-off and fog-of-war displacement [7, 14.2.4, 16.0],
Flak [22.0, 26.1], acquired-target sighting [15.1], End of Turn [4.0 phase 10]. Each step
returns a new ``Night`` (and a small report where the player is told something).
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from warpress.engine.dice import Dice
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game

from . import combat, detection, movement, naval, radars, searchlights
from .common import TASK_FORCE_ZONE, const, grid, row_of
from .state import Bomber, Night

# --- bomber movement, hand-off, displacement ----------------------------------------------


def _searchlit(night: Night) -> tuple[str, ...]:
    """Zones with available searchlights (the Task Force box has none) [14.2, 26.1]."""
    return tuple(z for z in night.zones if not (night.task_force and z == TASK_FORCE_ZONE))


def _step_capture(game: Game, night: Night, bomber: Bomber, zone: str, dice: Dice,
                  tries: frozenset[str]) -> tuple[Night, str | None]:
    """The captured bomber has just entered ``bomber.hex``: keep, hand off or lose [14.2.3-4]."""
    here = detection.zone_of(game, bomber.hex, night.zones)
    if here == zone:
        return night, zone
    others = [c for c in night.captures if c[1] != bomber.id]
    can_capture = night.env.clouds != "overcast" and night.env.altitude != "high"
    if (here is not None and here in _searchlit(night) and can_capture
            and all(z != here for z, _ in others) and bomber.id in tries
            and searchlights.hand_off(game, dice, bomber.sighting)):
        return replace(night, captures=(*others, (here, bomber.id))), here
    return replace(night, captures=tuple(others)), None


def bomber_movement(game: Game, night: Night, dice: Dice, *,
                    hand_offs: frozenset[str] = frozenset(),
                    alert_rule: bool = False) -> Night:
    """Bomber Movement phase for column flyers [7.2, 7.2.1, 7.2.2, 14.2.4, 16.0]: nearest the
    exit first; a captured bomber entering another free zone keeps its capture if the player
    tries (``hand_offs``) and rolls its sighting number on 4 dice (``hand_off``), else loses
    it and, unknown to the player, is displaced (``displacement``)."""
    order = sorted((b for b in night.on_map_bombers() if b.kind != "intruder"),
                   key=lambda b: (-row_of(game, b.hex), b.id))
    for bomber in order:
        if bomber.kind == "flare-dropper":
            mp = movement.bomber_mp(game, bomber, night.turn)
            night = naval.move_flare_dropper(game, night, bomber, mp)
            continue
        night = _move_one(game, night, bomber, dice, hand_offs, alert_rule)
    return naval.after_movement(game, night)


def _move_one(game: Game, night: Night, start: Bomber, dice: Dice, hand_offs: frozenset[str],
              alert_rule: bool) -> Night:
    """One bomber's move, hex by hex, with its capture checked on each hex entered."""
    mp = movement.bomber_mp(game, start, night.turn, alert_rule=alert_rule)
    move = movement.bomber_path(game, start.hex, mp)
    if alert_rule and start.alert and move.end in {b.hex for b in night.on_map_bombers()
                                                   if b.id != start.id}:
        mp = movement.bomber_mp(game, start, night.turn)  # 28.2: increase ignored
        move = movement.bomber_path(game, start.hex, mp)
    zone = next((z for z, b in night.captures if b == start.id), None)
    lost = False
    for hex_id in move.path:
        night = night.with_bomber(replace(night.bomber(start.id), hex=hex_id))
        if zone is not None:
            night, zone = _step_capture(game, night, night.bomber(start.id), zone, dice,
                                        hand_offs)
            lost = zone is None
    if move.exited:
        return movement.remove_bomber(night, night.bomber(start.id), "exited")
    if lost:
        night = movement.displace(game, night, start.id, dice)
    return night.with_bomber(replace(night.bomber(start.id), moved=mp))


# --- flak ---------------------------------------------------------------------------------


@dataclass(frozen=True)
class FlakReport:
    """What the player is told: the check, the announced dice and the hits per fighter."""

    check: int | None
    rolls: tuple[int, ...] = ()
    task_force_rolls: tuple[int, ...] = ()
    hits: tuple[tuple[str, int], ...] = ()


def flak_phase(game: Game, night: Night, dice: Dice) -> tuple[Night, FlakReport]:
    """Flak phase [22.0, 26.1]: if a fighter is in a flak zone, roll 2d6 (``check``) once; on
    6-6 roll 4 dice (``rolls``; 8 over the Task Force box) and hit every fighter in a flak
    zone once per die equal to its sighting number. Bombers are never hit."""
    if not night.flak and not night.task_force:
        return night, FlakReport(None)
    flak_zones = night.zones if night.flak else (TASK_FORCE_ZONE,)
    exposed = [f for f in night.fighters if f.on_map
               and detection.zone_of(game, f.hex, flak_zones) is not None]
    if not exposed:
        return night, FlakReport(None)
    over_tf = [f for f in exposed if night.task_force
               and detection.zone_of(game, f.hex, (TASK_FORCE_ZONE,)) == TASK_FORCE_ZONE]
    check = dice.roll("2d6", "check")
    land = len(over_tf) < len(exposed)
    rolls = tuple(dice.roll("d6", "rolls")
                  for _ in range(combat.flak_dice(game, check) if land else 0))
    tf_rolls = tuple(dice.roll("d6", "rolls")
                     for _ in range(combat.flak_dice(game, check, True) if over_tf else 0))
    hits = []
    for f in exposed:
        n = combat.flak_hits(tf_rolls if f in over_tf else rolls, f.sighting_number)
        hits.append((f.id, n))
        if n:
            night, _, _ = combat._hit_fighter(night, night.fighter(f.id), n)
    return night, FlakReport(check, rolls, tf_rolls, tuple(hits))


# --- acquired-target sighting [15.1] ------------------------------------------------------


def acquired_sighting(game: Game, night: Night, fighter_id: str, target_id: str, dice: Dice,
                      *, rear_rule: bool = False) -> tuple[Night, tuple[int, ...]]:
    """One fighter's roll to sight an acquired target [15.1, 15.1.1, 19.1.3, 28.6]: with an
    AI contact it must try that one, else only a searchlight-captured target; within sighting
    range; dice ``acquired``. Returns the new night and the announced dice."""
    fighter, bomber = night.fighter(fighter_id), night.bomber(target_id)
    if not detection.can_sight(fighter, night.turn):
        raise RuleViolation("15.1", f"fighter {fighter_id!r} cannot sight now (dazzled, "
                                    "evading or corkscrewed)")
    if fighter.sighting is not None:
        raise RuleViolation("10.2", f"fighter {fighter_id!r} already maintains a sighting")
    captured = night.captured(target_id)
    if fighter.ai_contact is not None and fighter.ai_contact != target_id:
        raise RuleViolation("15.1", f"fighter {fighter_id!r} has an AI contact and must try it")
    if fighter.ai_contact is None and not captured:
        raise RuleViolation("15.1", f"bomber {target_id!r} is not acquired by this fighter's "
                                    "AI radar or by a searchlight")
    if not detection.in_range(game, night, fighter, bomber):
        raise RuleViolation("15.1", f"bomber {target_id!r} is beyond fighter {fighter_id!r}'s "
                                    "sighting range")
    count = acquired_dice(game, night, fighter_id, target_id, rear_rule=rear_rule)
    results = tuple(dice.roll("d6", "acquired") for _ in range(count))
    if bomber.sighting in results:
        night = night.with_fighter(replace(fighter, sighting=target_id))
    return night, results


def acquired_dice(game: Game, night: Night, fighter_id: str, target_id: str, *,
                  rear_rule: bool = False) -> int:
    """The dice of an acquired-target roll from the state of the night [15.1.1, 19.1.3]."""
    fighter, bomber = night.fighter(fighter_id), night.bomber(target_id)
    captured = night.captured(target_id)
    ai = fighter.ai_contact == target_id
    radar = radars.unit_radar(game, fighter.unit) if fighter.unit else None
    mod = 0
    if ai and radar is not None:
        mod = detection.min_range_modifier(
            game, radar.modifier, band=radar.band, low_altitude=night.env.altitude == "low",
            same_facing=fighter.facing == bomber.facing, turned=fighter.turned,
            fighter_mp=fighter.mp_spent, target_mp=bomber.moved)
    rear = rear_rule and not grid(game).in_arc(fighter.hex, fighter.facing, bomber.hex, "hemi")
    return detection.captured_sighting_dice(
        game, moon=night.env.moon, expert=fighter.expert, green=fighter.green,
        both=ai and captured, radar_modifier=mod, searchlight=captured, rear=rear)


# --- end of turn --------------------------------------------------------------------------


def end_turn(night: Night) -> Night:
    """End of Turn [4.0 phase 10, 26.2.2]: the turn advances, this turn's flags are cleared,
    a flare counter reached by the turn marker is removed."""
    fighters = tuple(replace(f, mp_spent=0, turned=False, attacked=False, evading=False,
                             corkscrewed=False, dived=False) for f in night.fighters)
    bombers = tuple(replace(b, moved=0) for b in night.bombers)
    turn = night.turn + 1
    counter = night.flare_counter
    if counter is not None and turn >= counter:
        counter = None  # 26.2.2: removed as the turn marker reaches it
    return replace(night, turn=turn, fighters=fighters, bombers=bombers, flare_counter=counter)


# --- bomber entry [8] ---------------------------------------------------------------------


def draw_chit(game: Game, night: Night, dice: Dice) -> tuple[Night, str]:
    """Draw one entry chit at random from the cup (``chit``); all go back when it is empty
    [8.1.3]. The drawn chits are the umpire's secret."""
    ids = [c.id for c in game.section("entry-chits")]
    drawn = night.chits_drawn
    if len(drawn) >= len(ids) and const(game, "chits-refill-when-empty"):
        drawn = ()
    cup = [i for i in ids if i not in drawn]
    pick = cup[0] if len(cup) == 1 else cup[dice.roll(f"d{len(cup)}", "chit") - 1]
    return replace(night, chits_drawn=(*drawn, pick)), pick


def _draw_entrants(game: Game, night: Night, dice: Dice, entrants: int) -> list[str]:
    """Random draws from the pool (``pool``); one intruder per draw at most, the others
    go back and bombers are drawn instead [8.1.1, 27.1, E26]. Intruders come first (they
    take the chit's first column)."""
    limit = const(game, "intruders-per-entry-draw")
    pool = [b.id for b in night.bombers if b.status == "pool"]
    kinds = {b.id: b.kind for b in night.bombers}
    chosen: list[str] = []
    while len(chosen) < entrants and pool:
        index = 0 if len(pool) == 1 else dice.roll(f"d{len(pool)}", "pool") - 1
        pick = pool.pop(index)
        if kinds[pick] == "intruder" and sum(kinds[c] == "intruder" for c in chosen) >= limit:
            pool = [p for p in pool if kinds[p] != "intruder"]
            continue
        chosen.append(pick)
    return sorted(chosen, key=lambda c: kinds[c] != "intruder")


def _free_entry_mp(game: Game, night: Night, bomber: Bomber, column: int) -> int:
    """The default entry MP: the most that does not end on another bomber [8.2.1, E24]."""
    taken = {b.hex for b in night.on_map_bombers()}
    top = movement.bomber_mp(game, bomber, night.turn)
    for mp in range(top, const(game, "entry-mp-min") - 1, -1):
        if movement.entry_path(game, column, mp, top).end not in taken:
            return mp
    return top


def bomber_entry(game: Game, night: Night, dice: Dice, entrants: int, *,
                 mps: tuple[int, ...] | None = None) -> Night:
    """Bomber Entry phase [8.1.1-8.2.1]: draw ``entrants`` aircraft at random from the pool
    (``pool``), one chit, and enter them in its columns on the secret face, each using the MP
    the umpire picks (``mps``; default: the most that does not stack). A torpedo bomber
    takes the first column 07-12, drawing again while none is [26.3.1]."""
    chosen = _draw_entrants(game, night, dice, entrants)
    if not chosen:
        return night
    night, chit = draw_chit(game, night, dice)
    numbers = movement.chit_numbers(game, chit, night.chit_face)
    columns = list(movement.entry_columns(game, numbers, len(chosen)))
    for i, bomber_id in enumerate(chosen):
        bomber = night.bomber(bomber_id)
        column = columns[i]
        if bomber.kind == "flare-dropper":
            mp = mps[i] if mps else movement.bomber_mp(game, bomber, night.turn)
            night = naval.enter_flare_dropper(game, night, bomber_id, numbers[0], mp)
            continue
        if bomber.kind == "torpedo":
            while (found := movement.torpedo_column(game, numbers)) is None:
                night, chit = draw_chit(game, night, dice)
                numbers = movement.chit_numbers(game, chit, night.chit_face)
            column = found
        mp = mps[i] if mps else _free_entry_mp(game, night, bomber, column)
        night = movement.enter_bomber(game, night, bomber_id, column, mp)
    return night
