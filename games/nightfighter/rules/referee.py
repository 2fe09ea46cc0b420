"""The referee tables of Nightfighter (``warpress tables nightfighter``).

Each table reads its numbers from ``games/nightfighter/tables.yaml`` through the procedures
of the sibling modules; the names of tables, inputs and result fields are the catalogue's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warpress.engine.dice import Dice, GivenDice
from warpress.engine.model import Game
from warpress.engine.registry import Answer, Input, OddsAnswer
from warpress.engine.tables import lookup

from .. import CODE
from . import combat, detection, movement, radars, searchlights
from .common import (
    check_hex,
    check_sighting,
    matching_odds,
    modifier,
    mp_for_turn,
    parse_mp,
    unit,
)

YES_NO = "bool"
MOONS = ("full", "half", "new")
VISIBILITIES = ("poor", "average", "good")


def _errata(game: Game, table_id: str, row_errata: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*game.table(table_id).errata, *row_errata)))


# --- environment [3.3] --------------------------------------------------------------------


@CODE.table(
    "moon",
    rules=["3.3.1"],
    inputs=[Input("roll", "roll", "2d6 moon roll", die="2d6"),
            Input("europe_after_april_1942", YES_NO,
                  "European theatre, April 1942 or later (+2)", default=False)],
    results=["moon"],
    odds_field="moon",
)
def moon(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Moon phase: 2-4 Full, 5-6 Half, 7+ New; +2 Europe from April 1942 [3.3.1]."""
    table = game.table("moon")
    total = dice.roll("2d6", "roll")
    if args["europe_after_april_1942"]:
        total += modifier(table, "europe-after-april-1942")
    return Answer({"moon": lookup(table, roll=total)["moon"]}, rules=("3.3.1",))


@CODE.table(
    "visibility",
    rules=["3.3.2"],
    inputs=[Input("roll", "roll", "2d6 visibility roll", die="2d6"),
            Input("pacific", YES_NO, "Pacific theatre (+2)", default=False)],
    results=["visibility", "range", "lit_range"],
    odds_field="visibility",
)
def visibility(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Visibility and sighting ranges x/y: Poor 0/1, Average 0/3, Good 1/5; +2 Pacific [3.3.2]."""
    table = game.table("visibility")
    total = dice.roll("2d6", "roll")
    if args["pacific"]:
        total += modifier(table, "pacific")
    row = lookup(table, roll=total)
    return Answer({k: row[k] for k in ("visibility", "range", "lit_range")}, rules=("3.3.2",))


@CODE.table(
    "clouds",
    rules=["3.3.3"],
    inputs=[Input("roll", "roll", "d6 cloud roll", die="d6")],
    results=["clouds"],
    odds_field="clouds",
)
def clouds(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Clouds: 1-3 overcast, 4-6 clear [3.3.3]."""
    return Answer({"clouds": lookup(game.table("clouds"), roll=dice.roll("d6", "roll"))["clouds"]},
                  rules=("3.3.3",))


# --- sighting [10, 15] --------------------------------------------------------------------


def _good_visibility_fighters(game: Game) -> tuple[int, int, str]:
    """``good_visibility``'s bounds: the good-visibility night-fighter counters (6.0)."""
    count = sum(len(u.stats.get("counter_ids") or ()) for u in game.units
                if u.stats.get("good_visibility"))
    return 0, count, "night fighters with good visibility (not novices)"


@CODE.table(
    "sighting-dice",
    rules=["10.1", "10.1.1"],
    inputs=[Input("visibility", "enum", "visibility", choices=VISIBILITIES),
            Input("moon", "enum", "moon", choices=MOONS),
            Input("illuminated_cloud", YES_NO, "illuminated cloud is on the map (a bonus die)",
                  default=False),
            Input("good_visibility", "int", "night fighters with good visibility on the map, "
                  "novices left out (a bonus die each)", default=0,
                  bounds=lambda game: _good_visibility_fighters(game))],
    results=["dice", "cloud_bonus", "visibility_bonus"],
    odds_field="dice",
)
def sighting_dice(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """General sighting dice [10.1] and the bonus dice of another colour [10.1.1].

    Poor 1, Average 2, Good 3, +1 Half or Full moon; one bonus die where illuminated cloud
    is on the map (it counts only for bombers in illuminated-cloud hexes), one per
    good-visibility night fighter (it counts only within that fighter's sighting range);
    novices use none [28.5]."""
    table = game.table("sighting-dice")
    count = detection.sighting_dice(game, args["visibility"], args["moon"])
    cloud = modifier(table, "illuminated-cloud") if args["illuminated_cloud"] else 0
    seeing = args["good_visibility"] * modifier(table, "good-visibility-fighter")
    rules = ("10.1",) + (("10.1.1",) if cloud or seeing else ())
    text = f"sighting: {count} dice"
    if cloud:
        text += f", {cloud} cloud bonus die (bombers in illuminated cloud only)"
    if seeing:
        text += (f", {seeing} visibility bonus dice (each within its fighter's sighting "
                 "range only)")
    return Answer({"dice": count, "cloud_bonus": cloud, "visibility_bonus": seeing},
                  rules=rules, text=text)


@CODE.table(
    "jammed-ai-dice",
    rules=["24.5.2"],
    inputs=[Input("jamming", "enum", "jamming of the radar's band", choices=("heavy", "light")),
            Input("expert", YES_NO, "Experte (+2 dice, 17.2)", default=False),
            Input("anti_jam", YES_NO, "a jamming-resistant radar, marked ¶ (+3 dice)",
                  default=False)],
    results=["dice"],
    odds_field="dice",
)
def jammed_ai_dice(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Dice a jammed AI radar rolls: heavy 1, light 3; +2 Experte, +3 ¶ [24.5.2]."""
    count = radars.jammed_ai_dice(game, args["jamming"], expert=args["expert"],
                                  anti_jam=args["anti_jam"])
    rules = ("24.5.2",) + (("17.2",) if args["expert"] else ())
    return Answer({"dice": count}, rules=rules, errata=_errata(game, "jammed-ai-dice"))


@CODE.table(
    "corkscrew-follow-dice",
    rules=["28.1"],
    inputs=[Input("contact", "enum", "the AI radar band in contact with the bomber, or none",
                  choices=("none", "P", "L", "S", "X")),
            Input("expert", YES_NO, "Experte (+2 dice, 17.2)", default=False)],
    results=["dice"],
    odds_field="dice",
)
def corkscrew_follow_dice(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Optional 28.1: dice to learn a corkscrew's hex: 1 with no AI contact, 2 with a P, L or X
    band contact, 4 with S band; +2 Experte."""
    band = None if args["contact"] == "none" else args["contact"]
    count = radars.follow_dice(game, band, expert=args["expert"])
    rules = ("28.1",) + (("17.2",) if args["expert"] else ())
    return Answer({"dice": count}, rules=rules, errata=_errata(game, "corkscrew-follow-dice"))


@CODE.table(
    "captured-sighting-dice",
    rules=["15.1.1", "19.1.3"],
    inputs=[Input("moon", "enum", "moon", choices=MOONS),
            Input("expert", YES_NO, "Experte pilot (+2)", default=False),
            Input("green", YES_NO, "novice pilot (-2)", default=False),
            Input("both", YES_NO, "target acquired by AI radar and searchlight (+1)",
                  default=False),
            Input("radar_modifier", "int", "AI radar minimum-range modifier with its extra -1s",
                  min=-9, max=3, default=0),
            Input("searchlight", YES_NO, "target held by a searchlight (radar modifier unused)",
                  default=False),
            Input("rear", YES_NO, "optional 28.6: target outside the Hemi arc (-2)",
                  default=False)],
    results=["dice"],
    odds_field="dice",
)
def captured_sighting_dice(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Dice to sight an acquired target: 3 and modifiers, at least 1 [15.1.1, 19.1.3]."""
    count = detection.captured_sighting_dice(
        game, moon=args["moon"], expert=args["expert"], green=args["green"], both=args["both"],
        radar_modifier=args["radar_modifier"], searchlight=args["searchlight"],
        rear=args["rear"])
    rules = ["15.1.1", "19.1.3"] + (["28.6"] if args["rear"] else [])
    return Answer({"dice": count}, rules=tuple(rules))


# --- reactions [17.4] ---------------------------------------------------------------------


@CODE.table(
    "reaction",
    rules=["17.4", "17.4.1"],
    inputs=[Input("roll", "roll", "d6 first reaction roll", die="d6"),
            Input("warning", YES_NO, "Monica, Village Inn, Boozer or tail warning (Alert column)",
                  default=False),
            Input("alerted", YES_NO, "the bomber has an Alert marker (+2)", default=False)],
    results=["reacts"],
    odds_field="reacts",
    errata=["E40"],
)
def reaction(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """First reaction roll: Normal reacts on 6, Alert on 5-6; +2 alert bomber [17.4, 17.4.1]."""
    result = combat.reacts(game, dice.roll("d6", "roll"), warning=args["warning"],
                           alerted=args["alerted"])
    return Answer({"reacts": result}, rules=("17.4", "17.4.1"), errata=("E40",))


@CODE.table(
    "reaction-effect",
    rules=["17.4"],
    inputs=[Input("roll", "roll", "d6 second reaction roll", die="d6"),
            Input("oblique", YES_NO, "fighter attacks with oblique guns (+2)", default=False),
            Input("expert", YES_NO, "Experte pilot (+1)", default=False),
            Input("held_fire", YES_NO, "the fighter did not attack this phase (+1)",
                  default=False),
            Input("green", YES_NO, "novice pilot (-1)", default=False),
            Input("illuminated", YES_NO, "flare-lit zone or full moon (-1)", default=False)],
    results=["effect"],
    odds_field="effect",
)
def reaction_effect(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Second reaction roll: <=2 corkscrew, 3-4 defensive fire, >=5 none [17.4]."""
    effect = combat.reaction_effect(
        game, dice.roll("d6", "roll"), oblique=args["oblique"], expert=args["expert"],
        held_fire=args["held_fire"], green=args["green"], illuminated=args["illuminated"])
    return Answer({"effect": effect}, rules=("17.4",))


@CODE.table(
    "corkscrew",
    rules=["17.4.3"],
    inputs=[Input("roll", "roll", "d6 corkscrew roll (secret)", die="d6")],
    results=["direction"],
    odds_field="direction",
)
def corkscrew(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Corkscrew direction: 1-2 left, 3-4 forward (stays), 5-6 right [17.4.3]."""
    return Answer({"direction": combat.corkscrew_direction(game, dice.roll("d6", "roll"))},
                  rules=("17.4.3",))


# --- combat [11, 17.3] --------------------------------------------------------------------


@CODE.table(
    "combat",
    rules=["11.0"],
    inputs=[Input("roll", "roll", "2d6 total", die="2d6"),
            Input("fp", "int", "firepower after modifiers (may be negative)", min=-20, max=20)],
    results=["hits"],
    odds_field="hits",
)
def combat_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Hits for 2d6 + FP: <=9 0, 10 1, 11 2, 12 3, >=13 4 [11.0]."""
    return Answer({"hits": combat.attack_roll(game, dice, args["fp"], "roll")}, rules=("11.0",))


@CODE.table(
    "shootdown",
    rules=["17.3"],
    inputs=[Input("roll", "roll", "d6 shoot-down roll", die="d6")],
    results=["effect"],
    odds_field="effect",
)
def shootdown(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Shoot-down table: 1 evade, 2 flash, 3-5 follow, 6 none [17.3]."""
    return Answer({"effect": combat.shootdown(game, dice, "roll")}, rules=("17.3",))


# --- bomber movement [7] ------------------------------------------------------------------


@CODE.table(
    "bomber-move",
    rules=["7.1", "7.2", "7.2.2"],
    inputs=[Input("hex", "text", "bomber's hex, CCRR (e.g. 0712)"),
            Input("mp", "text", "chart MP: N or N* (+1 on even turns)"),
            Input("turn", "int", "game turn", min=1)],
    results=["path", "exited"],
    odds_field="exited",
)
def bomber_move(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """A bomber's move straight down its column; from row 27 one more MP exits [7.1-7.2.2]."""
    hex_id = check_hex(game, args["hex"], "hex")
    mp = mp_for_turn(game, parse_mp(args["mp"]), args["turn"])
    move = movement.bomber_path(game, hex_id, mp)
    return Answer({"path": list(move.path), "exited": move.exited},
                  rules=("7.1", "7.2", "7.2.2"))


# --- flak [22.0, 26.1] --------------------------------------------------------------------


def _flak_count(game: Game, args: dict[str, Any], dice: Dice | None = None) -> int:
    """4 hit dice, or 8 over a task force: said with task_force=yes, or 8 dice typed."""
    fires = game.table("flak").key("roll").max
    if isinstance(dice, GivenDice) and not args["task_force"]:
        typed = len(dice.remaining().get("rolls", ()))
        if typed == combat.flak_dice(game, fires, True):
            return typed
    return combat.flak_dice(game, fires, args["task_force"])


def _flak_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    check_sighting(game, args["sighting"])
    exact = matching_odds(_flak_count(game, args))
    return OddsAnswer(result={"field": "hits"},
                      exact={str(k): p for k, p in exact.items() if p > Fraction(0)},
                      rules=("22.0", "26.1"), errata=("E21",))


@CODE.table(
    "flak",
    rules=["22.0", "26.1"],
    inputs=[Input("rolls", "rolls", "the 4 announced dice after a 6-6 (8 over a task force: "
                  "type 8)", die="d6"),
            Input("sighting", "int", "the fighter's sighting number", min=1, max=6),
            Input("task_force", YES_NO, "the fighter is over the Task Force box (8 dice)",
                  default=False)],
    results=["hits"],
    odds=_flak_odds,
    errata=["E21"],
)
def flak(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Flak hits after a double 6: one per die equal to the fighter's sighting number [22.0]."""
    sighting = check_sighting(game, args["sighting"])
    rolls = [dice.roll("d6", "rolls") for _ in range(_flak_count(game, args, dice))]
    if isinstance(dice, GivenDice):
        dice.check_all_used()
    return Answer({"hits": combat.flak_hits(rolls, sighting)}, rules=("22.0", "26.1"),
                  errata=("E21",))


# --- play-aid tables beyond the catalogue -------------------------------------------------


@CODE.table(
    "flak-check",
    rules=["22.0", "26.1"],
    inputs=[Input("roll", "roll", "2d6 flak check (once per Flak phase)", die="2d6"),
            Input("task_force", YES_NO, "a fighter is over the Task Force box", default=False)],
    results=["fires", "hit_dice"],
    odds_field="fires",
    errata=["E21"],
)
def flak_check(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """The flak check: only a double 6 fires, then 4 hit dice (8 over a task force) [22.0]."""
    row = lookup(game.table("flak"), roll=dice.roll("2d6", "roll"),
                 task_force="yes" if args["task_force"] else "no")
    return Answer({"fires": row["hit_dice"] > 0, "hit_dice": row["hit_dice"]},
                  rules=("22.0", "26.1"),
                  errata=("E21",))


@CODE.table(
    "searchlight-dice",
    rules=["14.2.1", "14.2.4", "14.3"],
    inputs=[Input("mode", "enum", "searchlight, radar-guided, hand-off or flare (flare-only zone)",
                  choices=("searchlight", "radar-guided", "hand-off", "flare")),
            Input("visibility", "enum", "visibility", choices=VISIBILITIES, default="average"),
            Input("moon", "enum", "moon", choices=MOONS, default="new"),
            Input("flare_too", YES_NO, "the searchlit zone is also flare-illuminated (+1)",
                  default=False),
            Input("confusion", YES_NO, "optional 28.3: a fighter in or next to the zone (half)",
                  default=False),
            Input("jammed", YES_NO, "searchlight radar jammed (24.5.3)", default=False)],
    results=["dice"],
    odds_field="dice",
)
def searchlight_dice(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Searchlight dice: visibility + moon, 4 radar-guided or hand-off, flares 1 (+1 moon)."""
    env = detection.environment(game, args["moon"], args["visibility"])
    count = searchlights.searchlight_dice(game, env, mode=args["mode"], flare_too=args["flare_too"],
                                       confusion=args["confusion"], jammed=args["jammed"])
    rules = ["14.2.1", "14.2.4", "14.3"] + (["28.3"] if args["confusion"] else []) + (
        ["24.5.3"] if args["jammed"] else [])
    return Answer({"dice": count}, rules=tuple(rules))


@CODE.table(
    "min-range-modifier",
    rules=["19.1.3", "21.1"],
    inputs=[Input("radar_modifier", "int", "the bracketed value of the AI radar", min=-9, max=3),
            Input("band", "enum", "radar band", choices=("P", "L", "S", "X"), default="L"),
            Input("low_altitude", YES_NO, "fighter at low altitude (-1, X band exempt)",
                  default=False),
            Input("same_facing", YES_NO, "fighter faces as the target", default=True),
            Input("turned", YES_NO, "fighter turned in the last Fighter Movement phase (-1)",
                  default=False),
            Input("fighter_mp", "int", "MP the fighter spent this turn", min=0, max=12,
                  default=0),
            Input("target_mp", "int", "MP the target spent this turn", min=0, max=12,
                  default=0)],
    results=["modifier"],
    odds_field="modifier",
)
def min_range(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """The AI radar's minimum-range modifier with its extra -1s [19.1.3]."""
    value = detection.min_range_modifier(
        game, args["radar_modifier"], band=args["band"], low_altitude=args["low_altitude"],
        same_facing=args["same_facing"], turned=args["turned"], fighter_mp=args["fighter_mp"],
        target_mp=args["target_mp"])
    return Answer({"modifier": value}, rules=("19.1.3", "21.1"))


@CODE.table(
    "firepower",
    rules=["17.1", "17.4.2"],
    inputs=[Input("fp", "int", "the chart FP (fighter, oblique, or bomber for defensive fire)",
                  min=-9, max=20),
            Input("corkscrewed", YES_NO, "target corkscrewed this turn (base 0)", default=False),
            Input("expert", YES_NO, "Experte (+2)", default=False),
            Input("green", YES_NO, "novice (-1)", default=False),
            Input("unfavourable", YES_NO, "optional 28.4: unfavourable position (-2)",
                  default=False),
            Input("oblique", YES_NO, "oblique guns", default=False),
            Input("alert_target", YES_NO, "optional 28.2: the target is an alert bomber "
                  "(oblique guns' base FP 0)", default=False),
            Input("defensive", YES_NO, "defensive fire by the bomber", default=False),
            Input("vs_oblique", YES_NO, "defensive fire at an oblique attacker (-1)",
                  default=False),
            Input("village_inn", YES_NO, "defensive fire with Village Inn (+1)", default=False)],
    results=["fp"],
    odds_field="fp",
)
def firepower(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """FP after the 17.1 modifiers (or defensive FP, 17.4.2), for the combat table's fp."""
    if args["defensive"]:
        value = combat.defensive_fp(game, args["fp"], vs_oblique=args["vs_oblique"],
                                    village_inn=args["village_inn"])
        return Answer({"fp": value}, rules=("17.4.2",))
    value = combat.attack_fp(game, args["fp"], corkscrewed=args["corkscrewed"],
                             expert=args["expert"], green=args["green"],
                             unfavourable=args["unfavourable"], oblique=args["oblique"],
                             alert_target=args["alert_target"], alert_rule=True)
    rules = ("17.1",) + (("28.2",) if args["oblique"] and args["alert_target"] else ()) + (
        ("28.4", "28.4.1") if args["oblique"] and args["unfavourable"] else
        ("28.4",) if args["unfavourable"] else ())
    return Answer({"fp": value}, rules=rules, errata=("E20",) if args["corkscrewed"] else ())


@CODE.table(
    "aircraft",
    rules=["6.0", "19.1"],
    inputs=[Input("unit", "text", "unit type id (e.g. bf110g-4, lancaster)")],
    results=["name", "side", "type", "mp", "fp", "defensive_fp", "oblique_fp", "damage",
             "ai_radar", "good_visibility"],
)
def aircraft(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """An aircraft type's chart line: MP, FP (defensive, oblique), damage, AI radar [6.0]."""
    record = unit(game, args["unit"])
    stats = record.stats
    radar = stats.get("ai_radar")
    text = None
    if radar:
        text = (f"{radar['name']}: {radar['range']} {radar['arc']} ({radar['modifier']}) "
                f"{radar['band']}-band{' ¶' if radar.get('anti_jam') else ''}")
    return Answer({
        "name": record.name, "side": record.side, "type": record.type,
        "mp": str(stats.get("mp")), "fp": stats.get("fp"),
        "defensive_fp": stats.get("defensive_fp"), "oblique_fp": stats.get("oblique_fp"),
        "damage": stats.get("damage"), "ai_radar": text,
        "good_visibility": bool(stats.get("good_visibility")),
    }, rules=("6.0", "19.1"))


def _sighting_roll_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    check_sighting(game, args["sighting"])
    exact = matching_odds(args["dice"])
    miss = exact[0]
    return OddsAnswer(result={"field": "sighted"}, exact={"no": miss, "yes": 1 - miss},
                      rules=("10.1", "15.1.1"))


@CODE.table(
    "sighting-roll",
    rules=["10.1", "15.1.1", "28.4"],
    inputs=[Input("dice", "int", "how many dice are rolled", min=1, max=12),
            Input("rolls", "rolls", "the results, one per die", die="d6"),
            Input("sighting", "int", "the target's sighting number", min=1, max=6)],
    results=["sighted", "matching", "announced"],
    odds=_sighting_roll_odds,
)
def sighting_roll(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """A sighting roll: announced numbers (no duplicates), sighted, dice matching [10.1]."""
    sighting = check_sighting(game, args["sighting"])
    rolls = [dice.roll("d6", "rolls") for _ in range(args["dice"])]
    if isinstance(dice, GivenDice):
        dice.check_all_used()
    count = detection.matches(rolls, sighting)
    return Answer({"sighted": count > 0, "matching": count,
                   "announced": list(detection.announce(rolls))}, rules=("10.1", "15.1.1"))
