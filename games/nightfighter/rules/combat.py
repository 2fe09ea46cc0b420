"""Combat [11, 17, 20], shoot-down, collision, reactions, corkscrews [17.3-17.4], flak [22].

``combat_hits`` reads the one combat table (2d6 + FP -> 0..4 hits) that attacks, defensive fire
and collisions share. ``resolve_attack`` runs the whole Combat-phase exchange between one
fighter and one bomber in the same hex and facing, as a pure step over a ``Night``.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from fractions import Fraction

from warpress.engine.dice import Dice, weights
from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import naval
from .common import RELATIVE, const, grid, modifier, relative_hex
from .detection import zone_of
from .movement import corkscrew_hex, remove_bomber
from .state import Bomber, Fighter, Night

# --- the combat table [11.0] --------------------------------------------------------------


def combat_hits(game: Game, total: int) -> int:
    """Hits for a modified 2d6 total: <=9: 0, 10: 1, 11: 2, 12: 3, >=13: 4 [11.0]."""
    return lookup(game.table("combat"), roll=total)["hits"]


def attack_roll(game: Game, dice: Dice, fp: int, name: str = "roll") -> int:
    """Roll 2d6, add the FP, read the hits [11.0, 17.4.2, 17.3.1]."""
    return combat_hits(game, dice.roll("2d6", name) + fp)


def attack_fp(game: Game, base_fp: int, *, corkscrewed: bool = False, expert: bool = False,
              green: bool = False, unfavourable: bool = False, oblique: bool = False,
              alert_target: bool = False, alert_rule: bool = False) -> int:
    """A fighter's FP after the 17.1 modifiers: base 0 against a corkscrewed target (E20),
    base 0 for oblique guns on an alert bomber (28.2) or from an unfavourable position
    (28.4.1); +2 Experte, -1 novice, -2 unfavourable. May be negative."""
    table = game.table("combat")
    fp = base_fp
    if corkscrewed:
        fp = modifier(table, "corkscrewed-target")
    elif oblique and alert_target and alert_rule:
        fp = modifier(table, "oblique-vs-alert")
    elif oblique and unfavourable:
        fp = modifier(table, "oblique-unfavourable")
    if expert:
        fp += modifier(table, "expert")
    if green:
        fp += modifier(table, "green")
    if unfavourable:
        fp += modifier(table, "unfavourable")
    return fp


def defensive_fp(game: Game, bomber_fp: int, *, vs_oblique: bool = False,
                 village_inn: bool = False) -> int:
    """Defensive FP: -1 against oblique guns, +1 Village Inn; never pilot modifiers [17.4.2]."""
    table = game.table("combat")
    return bomber_fp + (modifier(table, "defensive-vs-oblique") if vs_oblique else 0) + (
        modifier(table, "village-inn") if village_inn else 0)


def collision_fp(game: Game, oblique: bool = False) -> int:
    """FP of the collision attack after an evade die of 1: 2, or 0 after oblique guns [17.3.1]."""
    return lookup(game.table("collision"), oblique="yes" if oblique else "no")["fp"]


def hits_distribution(game: Game, fp: int) -> dict[int, Fraction]:
    """Exact distribution of hits for 2d6 + ``fp``."""
    out: dict[int, Fraction] = {}
    for total, p in weights("2d6").items():
        hits = combat_hits(game, total + fp)
        out[hits] = out.get(hits, Fraction(0)) + p
    return dict(sorted(out.items()))


# --- shoot-down, evade, flash [17.3] ------------------------------------------------------


def shootdown(game: Game, dice: Dice, name: str = "shootdown") -> str:
    """The shoot-down table: evade, flash, follow or none [17.3]."""
    return lookup(game.table("shootdown"), roll=dice.roll("d6", name))["effect"]


def evade_result(game: Game, dice: Dice, oblique: bool = False) -> tuple[str, str | None]:
    """The evade die: (collision, None) on a 1, else (evade, relative direction); after an
    oblique attack every result but 1 is ignored (no evade) [17.3.1]."""
    result = lookup(game.table("evade"), roll=dice.roll("d6", "evade"))["result"]
    if result == "collision":
        return "collision", None
    if oblique:
        return "none", None
    return "evade", result


# --- reactions [17.4] ---------------------------------------------------------------------


def reacts(game: Game, roll: int, *, warning: bool, alerted: bool) -> bool:
    """First reaction roll: Normal column reacts on 6, Alert (warning) on 5-6; +2 alert;
    modified results past the table use its last row [17.4, 17.4.1, E40]."""
    table = game.table("reaction")
    total = roll + (modifier(table, "alerted") if alerted else 0)
    key = table.key("roll")
    total = min(total, key.max)
    return bool(lookup(table, roll=total, warning="yes" if warning else "no")["reacts"])


def reaction_effect(game: Game, roll: int, *, oblique: bool = False, expert: bool = False,
                    held_fire: bool = False, green: bool = False,
                    illuminated: bool = False) -> str:
    """Second reaction roll: <=2 corkscrew, 3-4 defensive fire, >=5 none [17.4]."""
    table = game.table("reaction-effect")
    total = roll
    for flag, mod_id in ((oblique, "oblique"), (expert, "expert"), (held_fire, "held-fire"),
                         (green, "green"), (illuminated, "illuminated")):
        if flag:
            total += modifier(table, mod_id)
    return lookup(table, roll=total)["effect"]


def corkscrew_direction(game: Game, roll: int) -> str:
    """Corkscrew direction: 1-2 left, 3-4 forward, 5-6 right [17.4.3]."""
    return lookup(game.table("corkscrew"), roll=roll)["direction"]


def lit_for_reaction(game: Game, night: Night, bomber: Bomber) -> bool:
    """-1 on the second reaction roll: a flare-illuminated zone or a Full moon [17.4, 14.3]."""
    return (night.env.moon == "full"
            or zone_of(game, bomber.hex, night.flare_zones) is not None
            or (naval.in_task_force_box(game, night, bomber.hex) and naval.task_force_lit(night)))


def has_warning(game: Game, bomber: Bomber, fighter: Fighter) -> bool:
    """Alert column: Monica or Village Inn; Boozer only against Lichtenstein BC / SN-2b
    [17.4, 24.2.1, 24.2.2, 24.2.4]; tail-warning radar for fighters and intruders [17.4.4]."""
    kit = bomber.equipment
    if kit & {"monica", "village-inn", "tail-warning-radar"}:
        return True
    if "boozer" in kit and fighter.unit:
        radar = game.get("units", fighter.unit).stats.get("ai_radar") or {}
        return str(radar.get("name", "")) in ("Lichtenstein BC", "Lichtenstein SN-2b")
    return False


# --- one attack, start to end -------------------------------------------------------------


@dataclass(frozen=True)
class AttackReport:
    """What happened in one exchange (the umpire's record; see Part 6 for what is told)."""

    reaction: str = "none"
    defensive_hits: int = 0
    aborted: bool = False
    corkscrew: str | None = None
    fp: int | None = None
    hits: int = 0
    destroyed: bool = False
    shootdown: str | None = None
    evade: str | None = None
    collision_hits: int = 0
    after: str | None = None
    fighter_destroyed: bool = False


def check_attack(game: Game, night: Night, fighter: Fighter, bomber: Bomber, *,
                 deconfliction: bool = False, oblique: bool = False,
                 dived: bool = False) -> None:
    """Raise RuleViolation naming the rule unless ``fighter`` may attack ``bomber`` now
    [11.0, 11.1, 17.4.2, 18.0, 20.0]."""
    if not bomber.on_map:
        raise RuleViolation("11.0", f"bomber {bomber.id!r} is not on the map")
    if fighter.hex != bomber.hex:
        raise RuleViolation("11.0", f"fighter {fighter.id!r} in {fighter.hex} is not in the "
                                    f"bomber's hex {bomber.hex}")
    if fighter.facing != bomber.facing:
        raise RuleViolation("11.0", f"fighter {fighter.id!r} does not face as the bomber")
    if fighter.sighting != bomber.id:
        raise RuleViolation("11.0", f"fighter {fighter.id!r} has not sighted {bomber.id!r}")
    if fighter.attacked:
        raise RuleViolation("11.0", f"fighter {fighter.id!r} has attacked this turn")
    if fighter.dives_left > 0:
        raise RuleViolation("18.0", "a fighter that still has altitude advantage cannot attack")
    if oblique and dived:
        raise RuleViolation("18.0", "no oblique-gun attack in a turn the fighter dived")
    if deconfliction:
        g = grid(game)
        limit = const(game, "deconfliction-range")
        for other in night.fighters:
            if other.id != fighter.id and other.on_map and other.hex and (
                    g.distance(other.hex, fighter.hex) <= limit):
                raise RuleViolation("11.1", f"deconfliction: fighter {other.id!r} is within "
                                            f"{limit} hexes")


def _defensive_fire(game: Game, dice: Dice, bomber: Bomber, oblique: bool) -> int:
    fp = defensive_fp(game, bomber.fp, vs_oblique=oblique,
                      village_inn="village-inn" in bomber.equipment)
    return attack_roll(game, dice, fp, "defensive_fire")


def _lose_bomber(night: Night, bomber_id: str) -> Night:
    """Every sighting, AI contact and capture of a corkscrewing bomber is lost [17.4.3]."""
    fighters = tuple(
        replace(f, sighting=None if f.sighting == bomber_id else f.sighting,
                ai_contact=None if f.ai_contact == bomber_id else f.ai_contact)
        for f in night.fighters
    )
    return replace(night, fighters=fighters,
                   captures=tuple(c for c in night.captures if c[1] != bomber_id))


def corkscrew(game: Game, night: Night, bomber_id: str, dice: Dice) -> tuple[Night, str]:
    """The secret corkscrew roll and move [17.4.3]: the bomber goes to its rear-left or
    rear-right hex or stays; every fighter loses it; it becomes alert."""
    bomber = night.bomber(bomber_id)
    direction = corkscrew_direction(game, dice.roll("d6", "corkscrew"))
    target = corkscrew_hex(game, night, bomber, direction)
    night = _lose_bomber(night, bomber_id)
    return night.with_bomber(replace(bomber, hex=target, alert=True)), direction


def follow_hexes(game: Game, bomber: Bomber) -> tuple[str, ...]:
    """The 3 hexes a sighting fighter may follow into: rear-left, same, rear-right [17.4.3]."""
    hexes = [relative_hex(game, bomber.hex, bomber.facing, RELATIVE["rear-left"]),
             bomber.hex,
             relative_hex(game, bomber.hex, bomber.facing, RELATIVE["rear-right"])]
    return tuple(h for h in hexes if h is not None)


def _hit_fighter(night: Night, fighter: Fighter, hits: int) -> tuple[Night, Fighter, bool]:
    fighter = replace(fighter, hits=fighter.hits + hits)
    dead = fighter.hits >= fighter.damage
    if dead:
        fighter = replace(fighter, status="destroyed", hex=None, sighting=None,
                          ai_contact=None)
    return night.with_fighter(fighter), fighter, dead


def resolve_attack(
    game: Game,
    night: Night,
    fighter_id: str,
    bomber_id: str,
    dice: Dice,
    *,
    attack: bool = True,
    oblique: bool = False,
    deconfliction: bool = False,
    illuminated: bool | None = None,
    unfavourable: bool = False,
    dived: bool | None = None,
    follow: str | None = None,
) -> tuple[Night, AttackReport]:
    """Combat phase for one fighter and one bomber in the same hex and facing [11, 17, 20].

    Order: attack declared; first reaction roll, and if it reacts the second; corkscrew
    (defensive fire first, then the secret direction; the fighter may ``follow`` into one of
    3 hexes) or defensive fire (any hit aborts); the attack (2d6 + FP); destroyed -> the
    shoot-down table; the bomber is alert; a bomber that did not react rolls again after the
    attack [17.4.1]. Dice names: reaction, reaction_effect, defensive_fire, corkscrew, roll,
    shootdown, evade, collision, flash.
    """
    fighter, bomber = night.fighter(fighter_id), night.bomber(bomber_id)
    if attack:  # first: it names what keeps this attack from being made (11.0 hex, facing...)
        check_attack(game, night, fighter, bomber, deconfliction=deconfliction,
                     oblique=oblique, dived=fighter.dived if dived is None else dived)
    if fighter.hex != bomber.hex or fighter.facing != bomber.facing:
        raise RuleViolation("17.4", "a reaction needs the fighter in the bomber's hex with its "
                                    "facing")
    if illuminated is None:
        illuminated = lit_for_reaction(game, night, bomber)
    report = AttackReport()
    effect = _reaction(game, dice, bomber, fighter, attack=attack, oblique=oblique,
                       illuminated=illuminated, alerted=bomber.alert)
    report = replace(report, reaction=effect)
    corkscrewed = False
    if effect in ("corkscrew", "return-fire"):
        hits = _defensive_fire(game, dice, bomber, oblique)
        night, fighter, dead = _hit_fighter(night, fighter, hits)
        report = replace(report, defensive_hits=hits, aborted=hits > 0,
                         fighter_destroyed=dead)
        night = night.with_bomber(replace(bomber, alert=True))
        if dead:
            return night, report
    if effect == "corkscrew":
        night, direction = corkscrew(game, night, bomber_id, dice)
        bomber = night.bomber(bomber_id)
        corkscrewed = True
        report = replace(report, corkscrew=direction)
        fighter = night.fighter(fighter_id)
        if follow is not None and not oblique:
            if follow not in follow_hexes(game, replace(bomber, hex=fighter.hex)):
                raise RuleViolation("17.4.3", f"hex {follow!r} is not one of the 3 corkscrew "
                                              "hexes")
            regained = follow == bomber.hex
            fighter = replace(fighter, hex=follow, sighting=bomber_id if regained else None)
            night = night.with_fighter(fighter)
    if not attack or report.aborted or (corkscrewed and (oblique
                                                         or fighter.sighting != bomber_id)):
        return night, report
    return _attack(game, night, fighter, night.bomber(bomber_id), dice, report,
                   oblique=oblique, unfavourable=unfavourable, corkscrewed=corkscrewed,
                   illuminated=illuminated)


def _reaction(game: Game, dice: Dice, bomber: Bomber, fighter: Fighter, *, attack: bool,
              oblique: bool, illuminated: bool, alerted: bool) -> str:
    """Both reaction rolls; "none" when the first roll does not react."""
    if not reacts(game, dice.roll("d6", "reaction"), warning=has_warning(game, bomber, fighter),
                  alerted=alerted):
        return "none"
    return reaction_effect(game, dice.roll("d6", "reaction_effect"), oblique=oblique and attack,
                           expert=fighter.expert, held_fire=not attack, green=fighter.green,
                           illuminated=illuminated)


def _attack(game: Game, night: Night, fighter: Fighter, bomber: Bomber, dice: Dice,
            report: AttackReport, *, oblique: bool, unfavourable: bool, corkscrewed: bool,
            illuminated: bool) -> tuple[Night, AttackReport]:
    base = _fighter_fp(game, fighter, oblique)
    fp = attack_fp(game, base, corkscrewed=corkscrewed, expert=fighter.expert,
                   green=fighter.green, unfavourable=unfavourable, oblique=oblique)
    hits = attack_roll(game, dice, fp, "roll")
    fighter = replace(fighter, attacked=True)
    night = night.with_fighter(fighter)
    bomber = replace(bomber, hits=bomber.hits + hits, alert=True)
    report = replace(report, fp=fp, hits=hits)
    if bomber.hits >= bomber.damage:
        night = remove_bomber(night.with_bomber(bomber), bomber, "destroyed")
        return _shootdown(game, night, night.fighter(fighter.id), dice,
                          replace(report, destroyed=True), oblique)
    night = night.with_bomber(bomber)
    if report.reaction == "none" and not corkscrewed:
        after = _reaction(game, dice, bomber, fighter, attack=True, oblique=oblique,
                          illuminated=illuminated, alerted=True)
        report = replace(report, after=after)
        if after in ("corkscrew", "return-fire"):
            extra = _defensive_fire(game, dice, bomber, oblique)
            night, fighter, dead = _hit_fighter(night, fighter, extra)
            report = replace(report, defensive_hits=report.defensive_hits + extra,
                             fighter_destroyed=dead)
        if after == "corkscrew":
            night, direction = corkscrew(game, night, bomber.id, dice)
            report = replace(report, corkscrew=direction)
    return night, report


def _fighter_fp(game: Game, fighter: Fighter, oblique: bool) -> int:
    if not fighter.unit:
        return fighter.fp
    stats = game.get("units", fighter.unit).stats
    value = stats.get("oblique_fp") if oblique else stats.get("fp")
    if value is None:
        raise RuleViolation("20.0", f"fighter {fighter.id!r} has no "
                                    f"{'oblique guns' if oblique else 'FP'}")
    return int(value)


def _shootdown(game: Game, night: Night, fighter: Fighter, dice: Dice, report: AttackReport,
               oblique: bool) -> tuple[Night, AttackReport]:
    """The shoot-down table after the player destroys a bomber [17.3, 17.3.1, 17.3.2]."""
    effect = shootdown(game, dice)
    report = replace(report, shootdown=effect)
    if effect == "evade":
        result, direction = evade_result(game, dice, oblique)
        report = replace(report, evade=result)
        if result == "collision":
            hits = attack_roll(game, dice, collision_fp(game, oblique), "collision")
            night, fighter, dead = _hit_fighter(night, fighter, hits)
            return night, replace(report, collision_hits=hits, fighter_destroyed=dead)
        if result == "evade":
            heading = (fighter.facing + RELATIVE[direction]) % 6
            target = grid(game).neighbour_in_direction(fighter.hex, heading)
            fighter = replace(fighter, hex=target, facing=heading, evaded_turn=night.turn,
                              status="off-map" if target is None else fighter.status,
                              sighting=None, ai_contact=None)
            night = night.with_fighter(fighter)
    elif effect == "flash":
        turns = lookup(game.table("flash"), roll=dice.roll("d6", "flash"))["dazzled_turns"]
        night = night.with_fighter(replace(fighter, dazzled_until=night.turn + turns))
    elif effect == "follow":
        turns = const(game, "follow-dazzle-turns")
        night = night.with_fighter(replace(fighter, dazzled_until=night.turn + turns))
    return night, report


# --- flak [22.0, 26.1] --------------------------------------------------------------------


def flak_dice(game: Game, check: int, task_force: bool = False) -> int:
    """Hit dice after the flak check: 0 unless double 6; then 4, or 8 over a task force."""
    return lookup(game.table("flak"), roll=check, task_force="yes" if task_force else "no")[
        "hit_dice"]


def flak_hits(rolls: Iterable[int], sighting: int) -> int:
    """1 hit per announced die equal to the fighter's sighting number [22.0]."""
    return sum(1 for r in rolls if r == sighting)


def flak(game: Game, dice: Dice, sightings: Sequence[int], task_force: bool = False) -> tuple[
        tuple[int, ...], tuple[int, ...]]:
    """One Flak phase: the 2d6 check, then (on 6-6) the announced dice and each fighter's
    hits, in the order of ``sightings`` [22.0, 26.1]."""
    count = flak_dice(game, dice.roll("2d6", "check"), task_force)
    rolls = tuple(dice.roll("d6", "rolls") for _ in range(count))
    return rolls, tuple(flak_hits(rolls, s) for s in sightings)
