"""The referee tables of Nimitz (``warpress tables nimitz``)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Game
from warpress.engine.registry import Answer, Input, OddsAnswer, key_bounds

from .. import CODE
from . import combat
from .campaign import (
    MapView,
    campaign_level,
    held_points,
    invasion_objectives,
    reinforcement_roll,
    reinforcements,
    repair_supply,
    supply_check,
    supply_hits,
    unit_buy_cost,
)
from .common import (
    DIE,
    SIDES,
    STATS,
    check_point,
    check_points,
    extra,
    is_ship,
    parse_piece,
    parse_value,
    table_row,
    unit,
)
from .orders import Board, Stack, check_determinable, determine, outcome_odds

YEARS = ("1942", "1943", "1944", "1945")
ROLL = Input("roll", "roll", "d10 result (0 reads 10)", die=DIE)


# --------------------------------------------------------------------------- attack


def _attack_value(game: Game, args: dict[str, Any]) -> combat.AttackValue:
    value = parse_value(args["value"], limit=game.table("attack").key("value").max or 20)
    markers = args["markers"] or []
    if markers and args["stat"] == "any":
        raise BadInput(f"input markers={','.join(markers)!r} needs stat= "
                       f"(one of {', '.join(STATS)})")
    if markers:
        value = combat.marked_value(game, value, args["stat"], markers)
    return value


def _attack_extra(game: Game, args: dict[str, Any]) -> int:
    return combat.kamikaze_hits(game, args["stat"], args["markers"] or [], args["campaign"])


@CODE.table(
    "attack",
    rules=["2.6.4", "2.7.4", "10.11", "10.12"],
    inputs=[
        Input("value", "text", "attack value N or N/M (normal/superior)"),
        ROLL,
        Input("stat", "enum", "kind of value (for markers)", choices=("any", *STATS),
              default="any"),
        Input("markers", "ids", "Japanese bonus markers in effect, e.g. air-superiority",
              default=[]),
        Input("campaign", "enum", "campaign year (kamikaze)", choices=YEARS, default=None),
    ],
    results=["hits"],
    odds_field="hits",
)
def attack_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """One attack die: <= normal value 1 hit, <= superior value 2 hits."""
    value = _attack_value(game, args)
    extra = _attack_extra(game, args)
    hits = combat.attack(game, value, dice, "roll", extra)
    rules = ("2.6.4", "2.7.4", "10.11", "10.12") + (("10.7",) if args["markers"] else ())
    return Answer({"hits": hits, "value": str(value)}, rules=rules)


# --------------------------------------------------------------------------- aircraft


@CODE.table(
    "japanese-air",
    rules=["10.9.1"],
    inputs=[
        ROLL,
        Input("valid", "ids", "areas with a valid target (default: all four)", default=None),
        Input("forced", "bool", "carrier attack / first strike / kamikaze: roll reads 10",
              default=False),
        Input("group", "enum", "bombers or fighters: valid areas from the situation below",
              choices=("any", "bombers", "fighters"), default="any"),
        Input("us_ships", "ids", "areas with US ships other than submarines", default=[]),
        Input("us_land_air", "bool", "US land aircraft on the island", default=False),
        Input("us_ground", "bool", "US ground units on the island", default=False),
        Input("japanese_ground_or_air", "bool", "Japanese ground units or land aircraft on "
              "the island", default=False),
        Input("aircraft", "ids", "areas with Japanese or US aircraft (fighters)", default=[]),
    ],
    results=["area", "rolled", "moved"],
    odds_field="area",
    errata=["E12", "E2"],
)
def japanese_air(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Where a Japanese aircraft group goes (10.9.1), with the fall-through."""
    valid = _air_valid(game, args)
    roll = combat.forced_roll(game) if args["forced"] else dice.roll(DIE, "roll")
    rolled, area = combat.air_destination(game, roll, valid)
    rules = ("10.9.1",) + (("10.7",) if args["forced"] else ())
    rules += {"bombers": ("10.9.2",), "fighters": ("10.9.3",)}.get(args["group"], ())
    return Answer({"area": area or "stay", "rolled": rolled, "moved": area is not None},
                  rules=rules, errata=("E12",) + (("E2",) if args["forced"] else ()))


def _air_valid(game: Game, args: dict[str, Any]):
    """Areas with a valid target: given, or from the situation (10.9.2, 10.9.3)."""
    if args["group"] == "any":
        return combat.air_areas(game) if args["valid"] is None else args["valid"]
    if args["valid"] is not None:
        raise BadInput("give either valid= or group= with the situation, not both")
    areas = combat.air_areas(game)
    for name in ("us_ships", "aircraft"):
        bad = [a for a in args[name] if a not in areas]
        if bad:
            raise BadInput(f"input {name}={bad[0]!r} is not a battle area "
                           f"(areas: {', '.join(areas)})")
    view = combat.AirView(frozenset(args["us_ships"]), args["us_land_air"], args["us_ground"],
                          args["japanese_ground_or_air"], frozenset(args["aircraft"]))
    if args["group"] == "bombers":
        return combat.bomber_areas(view)
    return combat.fighter_areas(view)


# --------------------------------------------------------------------------- costs


@CODE.table(
    "repair-cost",
    rules=["6.3"],
    inputs=[
        Input("cost", "int", "the unit's cost (carriers: purchase cost)", default=None,
              bounds=key_bounds("repair-cost", "cost", "a unit's cost")),
        Input("unit", "text", "or a unit id: its purchase cost is used", default=None),
    ],
    results=["supply"],
    odds_field="supply",
)
def repair_cost(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """SP to repair a damaged US unit: half its cost, rounded down, at least 1."""
    cost = args["cost"]
    if (cost is None) == (args["unit"] is None):
        raise BadInput("give exactly one of cost=N or unit=ID")
    if cost is None:
        cost = unit_buy_cost(game, args["unit"])
    return Answer({"supply": repair_supply(game, cost), "cost": cost}, rules=("6.3",))


@CODE.table(
    "battle-points",
    rules=["10.5"],
    inputs=[Input("supply", "int", "supply points spent on the battle",
                  bounds=key_bounds("battle-points", "supply", "SP spent on one battle"))],
    results=["bpp"],
    odds_field="bpp",
)
def battle_points(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """US battle-plan points: 3 free plus 3 per SP spent."""
    return Answer({"bpp": combat.battle_points(game, args["supply"])}, rules=("10.5",))


# --------------------------------------------------------------------------- hits


def _piece_result(piece) -> dict[str, Any]:
    out: dict[str, Any] = {"unit": piece.name, "cost": piece.cost, "hits": piece.hits,
                           "state": piece.state}
    if piece.is_airfield:
        out["capacity"] = piece.capacity
    return out


@CODE.table(
    "allocate-hits",
    rules=["10.10.2"],
    inputs=[
        Input("units", "ids", "NAME:COST:full|damaged,... (airfield: NAME:COST:capacity)"),
        Input("hits", "int", "hits scored", min=0),
        Input("side", "enum", "the side taking the hits", choices=SIDES),
    ],
    results=["units", "unused", "player_choice"],
)
def allocate_hits(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Hits to the lowest-cost units first, damaged before full strength."""
    if not args["units"]:
        raise BadInput("input units='' is not allowed (NAME:COST:full|damaged,...)")
    pieces = [parse_piece(game, text) for text in args["units"]]
    if any(p.name in ("transport", "TR") for p in pieces):
        raise RuleViolation("10.10.2", "a transport never takes hits: list the ground units "
                                       "aboard it instead")
    done = combat.allocate_hits(game, pieces, args["hits"])
    result = {"units": [_piece_result(p) for p in done.pieces], "unused": done.unused,
              "player_choice": done.player_choice}
    return Answer(result, rules=("10.10.2", "10.18.2", "1.3"))


# --------------------------------------------------------------------------- results


@CODE.table(
    "linked-result",
    rules=["12.6"],
    inputs=[Input("total", "int", "objectives held at the end of the four campaigns",
                  bounds=key_bounds("linked-result", "total", "the four campaigns' objectives"))],
    results=["result", "label", "label_ja"],
    odds_field="result",
)
def linked_result(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Result of the linked 1942-1945 campaign from its total objectives."""
    row = table_row(game, "linked-result", total=args["total"])
    return Answer(row, rules=("12.6",))


def _marker_names(game: Game) -> tuple[str, ...]:
    return tuple(game.table("bonus-marker").key("bonus").values)


@CODE.table(
    "bonus-marker",
    rules=["10.5", "10.7"],
    inputs=[
        Input("side", "enum", "whose marker", choices=SIDES),
        Input("name", "text", "the marker's id, e.g. melee"),
    ],
    results=["cost", "effect"],
    odds_field="cost",
)
def bonus_marker(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """A battle-bonus marker: its BPP cost (US) and effect."""
    names = _marker_names(game)
    name, side = args["name"], args["side"]
    own = [n for n in names
           if table_row(game, "bonus-marker", side=side, bonus=n)["exists"]]
    if name not in own:
        raise BadInput(f"input name={name!r} is not a {side} bonus marker "
                       f"(allowed: {', '.join(own)})")
    row = table_row(game, "bonus-marker", side=side, bonus=name)
    rule = "10.5" if side == "us" else "10.7"
    return Answer({"cost": row["cost"], "effect": row["effect"], "marker": row["marker"]},
                  rules=(rule,))


def exact_text(dist: dict[int, Fraction]) -> dict[str, Fraction]:
    """A hits distribution keyed by strings, lowest first."""
    return {str(k): v for k, v in sorted(dist.items())}


# --------------------------------------------------------------------------- extra tables


def _ships(game: Game, ids: list[str]) -> list:
    out = []
    for unit_id in ids:
        item = unit(game, unit_id, "ships")
        if not is_ship(item):
            raise BadInput(f"input ships={unit_id!r} is not a ship ({item.type})")
        out.append(item)
    return out


def _aa_values(game: Game, args: dict[str, Any]) -> tuple[list, list[combat.AttackValue]]:
    ships = _ships(game, args["ships"])
    rows = combat.aa_rows(game, ships, args["aircraft"])
    firing = [s for row in rows for s in row]
    markers = args["markers"] or []
    values = [combat.marked_value(game, combat.aa_value(s), "aa", markers) for s in firing]
    return firing, values


def _aa_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    firing, values = _aa_values(game, args)
    dist = combat.total_hit_weights(game, values)
    return OddsAnswer({"field": "hits", "firing": [s.id for s in firing]}, exact_text(dist))


@CODE.table(
    "aa-fire",
    rules=["10.12", "10.12.1"],
    inputs=[
        Input("ships", "ids", "unit ids of one side's ships in the area"),
        Input("aircraft", "int", "enemy aircraft in the area", min=0, max=60),
        Input("markers", "ids", "Japanese bonus markers in effect (Japanese ships)", default=[]),
        Input("rolls", "rolls", "one d10 per firing ship, escort row first", die=DIE),
    ],
    results=["firing", "hits"],
    odds=_aa_odds,
)
def aa_fire(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """AA fire of one side's ships: escort row, then carrier row, one shot per aircraft."""
    firing, values = _aa_values(game, args)
    hits = sum(combat.attack(game, v, dice, "rolls") for v in values)
    return Answer({"firing": [s.id for s in firing], "hits": hits},
                  rules=("10.12", "10.12.1"))


def _planes(game: Game, items: list[str]) -> list[combat.Plane]:
    planes = []
    for text in items:
        piece = parse_piece(game, text, "aircraft")
        if piece.is_airfield:
            raise BadInput(f"input aircraft={text!r}: state must be full or damaged")
        planes.append(combat.Plane(piece.name, piece.cost, piece.state))
    return planes


def _landing(done: combat.Landing) -> dict[str, Any]:
    return {"landed": [p.name for p in done.landed], "removed": [p.name for p in done.removed],
            "player_choice": done.player_choice}


@CODE.table(
    "carrier-return",
    rules=["10.20.2", "10.20.3", "10.20.4"],
    inputs=[
        Input("side", "enum", "the carrier's side", choices=SIDES),
        Input("complement", "int", "aircraft the carrier had at battle start", min=0, max=20),
        Input("damaged", "bool", "the carrier is damaged (or sunk)"),
        Input("aircraft", "ids", "returning aircraft NAME:COST:full|damaged,...", default=[]),
    ],
    results=["landed", "removed", "player_choice"],
)
def carrier_return(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Carrier aircraft landing on their carrier; the excess is removed from the battle."""
    planes = _planes(game, args["aircraft"])
    done = combat.carrier_return(game, args["side"], args["complement"], args["damaged"], planes)
    rule = "10.20.3" if args["side"] == "japan" else "10.20.4"
    return Answer(_landing(done), rules=("10.20.2", rule))


@CODE.table(
    "airfield-capacity",
    rules=["10.21"],
    inputs=[
        Input("side", "enum", "the airfield's side", choices=SIDES),
        Input("capacity", "int", "the airfield's capacity now", min=0, max=60),
        Input("aircraft", "ids", "land aircraft at it NAME:COST:full|damaged,...", default=[]),
    ],
    results=["landed", "removed", "player_choice"],
)
def airfield_capacity(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Land aircraft beyond the airfield's capacity are removed (Japan: damaged, cheap first)."""
    planes = _planes(game, args["aircraft"])
    done = combat.airfield_landing(game, args["side"], args["capacity"], planes)
    rule = "10.21.1" if args["side"] == "japan" else "10.21.2"
    return Answer(_landing(done), rules=("10.21", rule))


@CODE.table(
    "supply",
    rules=["11.4", "4.1"],
    inputs=[
        Input("us", "ids", "points with US ground units or land aircraft"),
        Input("japan", "ids", "points with Japanese ground units or land aircraft", default=[]),
    ],
    results=["held", "supplied", "out_of_supply"],
)
def supply(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """US supply check: a route from the West Coast through US-held points."""
    view = MapView(us_ground=check_points(game, args["us"], "us"),
                   japanese_ground=check_points(game, args["japan"], "japan"))
    checked = supply_check(game, view)
    hits = supply_hits(game, False)
    return Answer({"held": sorted(held_points(game, view)),
                   "supplied": [p for p, ok in checked.items() if ok],
                   "out_of_supply": [p for p, ok in checked.items() if not ok],
                   "hits_each": hits}, rules=("11.4", "4.1"))


@CODE.table(
    "japanese-reinforcement",
    rules=["11.1"],
    inputs=[
        ROLL,
        Input("supply_markers", "int", "Japanese supply markers (Standby orders)", min=0,
              default=0),
        Input("damaged", "int", "damaged Japanese units on the map (not infantry with US units)",
              min=0, default=0),
        Input("raiding_subs", "int", "US submarines placed in the commerce-raiding box",
              min=0, default=0),
        Input("campaign", "enum", "campaign year (1944: +2 infantry)", choices=YEARS,
              default="1942"),
    ],
    results=["modified", "ships", "infantry", "land_air", "battalions"],
    odds_field="modified",
)
def japanese_reinforcement(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Japanese reinforcements: d10 + supply markers - damaged - 2 per raiding submarine."""
    roll = dice.roll(DIE, "roll")
    modified = reinforcement_roll(game, roll, args["supply_markers"], args["damaged"],
                                  args["raiding_subs"])
    got = reinforcements(game, modified, campaign=args["campaign"])
    return Answer({"modified": modified, "ships": got.ships, "infantry": got.infantry,
                   "land_air": got.land_air, "battalions": got.battalions},
                  rules=("11.1",) + (("12.1",) if args["campaign"] == "1944" else ()))


def _order_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    stack, board = _order_situation(game, args)
    dist = outcome_odds(game, stack, board)
    return OddsAnswer({"field": "outcome"}, dict(sorted(dist.items())), rules=("9.1", "9.2"))


@CODE.table(
    "japanese-order",
    rules=["9.1", "9.2"],
    inputs=[
        Input("point", "text", "the point whose Japanese units are determined"),
        Input("ships", "int", "undetermined Japanese ships there", min=0, max=30, default=0),
        Input("ground", "int", "undetermined Japanese ground units there", min=0, max=30,
              default=0),
        Input("land_air", "int", "undetermined Japanese land aircraft there", min=0, max=30,
              default=0),
        Input("staying", "int", "Japanese ground/air there that do not move", min=0, default=0),
        Input("us", "ids", "points with US units", default=[]),
        Input("japan", "ids", "other points with garrisoned Japanese ground/air", default=[]),
        Input("campaign", "enum", "campaign (objective points)", choices=YEARS,
              default="1942"),
        Input("roll", "rolls", "order roll, then destination rolls", die=DIE),
    ],
    results=["order", "executed", "destination", "ships", "ground", "land_air", "battalions",
             "supply_markers"],
    odds=_order_odds,
)
def japanese_order(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """One Japanese movement determination at a point (order table, 9.1-9.2.8)."""
    stack, board = _order_situation(game, args)
    move = determine(game, stack, board, dice)
    result = {"order": move.order, "executed": move.executed, "destination": move.destination,
              "ships": len(move.ships), "ground": len(move.ground),
              "land_air": len(move.land_air), "battalions": move.battalions,
              "transport": move.transport, "supply_markers": move.supply_markers,
              "reason": move.reason}
    return Answer(result, rules=move.rules)


def _order_situation(game: Game, args: dict[str, Any]):
    point = check_point(game, args["point"], "point")
    check_determinable(game, point, args["campaign"])
    us = check_points(game, args["us"], "us")
    japan = check_points(game, args["japan"], "japan")
    if args["ground"] or args["land_air"] or args["staying"]:
        japan = japan | {point}
    stack = Stack(point, tuple(f"ship-{i + 1}" for i in range(args["ships"])),
                  tuple(f"ground-{i + 1}" for i in range(args["ground"])),
                  tuple(f"air-{i + 1}" for i in range(args["land_air"])), args["staying"])
    if stack.empty:
        raise BadInput("give ships=, ground= or land_air= (the units to determine)")
    objectives = frozenset(extra(game, "campaigns", args["campaign"]).get("objectives"))
    board = Board(MapView(us_ground=us, japanese_ground=japan), objectives)
    return stack, board


@CODE.table(
    "campaign-result",
    rules=["4.0", "11.5.1", "12.3"],
    inputs=[
        Input("campaign", "enum", "campaign year", choices=YEARS),
        Input("objectives", "int", "objective points the US holds",
              bounds=key_bounds("campaign-level", "objectives", "objectives held")),
        Input("invasion_cost", "int", "1945: total cost of the units in the Japan-invasion box",
              default=0, bounds=key_bounds("japan-invasion", "cost", "the box's total cost")),
    ],
    results=["total", "level", "label_ja", "dismissed"],
    odds_field="level",
)
def campaign_result(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """A campaign's victory level; in 1945 the invasion box adds objectives (12.3)."""
    campaign, total = args["campaign"], args["objectives"]
    rules: tuple[str, ...] = ("4.0", "11.5.1")
    if args["invasion_cost"]:
        if "12.3" not in extra(game, "campaigns", campaign).get("special_rules", ()):
            raise RuleViolation("12.3", f"the Japan-invasion box is used only in 1945, "
                                        f"not in {campaign}")
        total += invasion_objectives(game, args["invasion_cost"])
        rules += ("12.3",)
    row = campaign_level(game, campaign, total)
    return Answer({"total": total, "level": row["level"], "label_ja": row["label_ja"],
                   "dismissed": row["level"] == "dismissal"}, rules=rules)
