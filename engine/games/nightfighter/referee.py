"""The referee tables of Nightfighter (shared/design/referee-catalogue.md, section 003).

Each table reads its numbers from ``games/nightfighter/tables.yaml`` through the procedures
of the sibling modules; the names of tables, inputs and result fields are the catalogue's.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...dice import Dice, GivenDice
from ...model import Game
from ...registry import Answer, Input, OddsAnswer
from ...tables import lookup
from . import combat, detection, movement
from .common import ENGINE, check_hex, check_sighting, modifier, mp_for_turn, parse_mp

YES_NO = "bool"
MOONS = ("full", "half", "new")
VISIBILITIES = ("poor", "average", "good")


def _errata(game: Game, table_id: str, row_errata: tuple[str, ...] = ()) -> tuple[str, ...]:
    return tuple(dict.fromkeys((*game.table(table_id).errata, *row_errata)))


# --- environment [3.3] --------------------------------------------------------------------


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
    "sighting-dice",
    rules=["10.1"],
    inputs=[Input("visibility", "enum", "visibility", choices=VISIBILITIES),
            Input("moon", "enum", "moon", choices=MOONS)],
    results=["dice"],
    odds_field="dice",
)
def sighting_dice(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """General sighting dice: Poor 1, Average 2, Good 3, +1 Half or Full moon [10.1]."""
    count = detection.sighting_dice(game, args["visibility"], args["moon"])
    return Answer({"dice": count}, rules=("10.1",))


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
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


@ENGINE.table(
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


def _flak_count(game: Game, args: dict[str, Any]) -> int:
    return combat.flak_dice(game, game.table("flak").key("roll").max, args["task_force"])


def _flak_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    check_sighting(game, args["sighting"])
    exact = combat.flak_odds(_flak_count(game, args))
    return OddsAnswer(result={"field": "hits"},
                      exact={str(k): p for k, p in exact.items() if p > Fraction(0)},
                      rules=("22.0", "26.1"), errata=("E21",))


@ENGINE.table(
    "flak",
    rules=["22.0", "26.1"],
    inputs=[Input("rolls", "rolls", "the 4 announced dice after a 6-6 (8 over a task force)",
                  die="d6"),
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
    rolls = [dice.roll("d6", "rolls") for _ in range(_flak_count(game, args))]
    if isinstance(dice, GivenDice):
        dice.check_all_used()
    return Answer({"hits": combat.flak_hits(rolls, sighting)}, rules=("22.0", "26.1"),
                  errata=("E21",))
