"""The referee tables of Nimitz (shared/design/referee-catalogue.md, nimitz 002)."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from ...dice import Dice
from ...errors import BadInput
from ...model import Game
from ...registry import Answer, Input
from . import combat
from .common import DIE, ENGINE, SIDES, STATS, parse_piece, parse_value, table_row

YEARS = ("1942", "1943", "1944", "1945")
ROLL = Input("roll", "roll", "d10 result (0 reads 10)", die=DIE)


def _key_range(game: Game, table_id: str, key: str) -> tuple[int | None, int | None]:
    item = game.table(table_id).key(key)
    return item.min, item.max


# --------------------------------------------------------------------------- attack


def _attack_value(game: Game, args: dict[str, Any]) -> combat.AttackValue:
    value = parse_value(args["value"])
    markers = args["markers"] or []
    if markers and args["stat"] == "any":
        raise BadInput(f"input markers={','.join(markers)!r} needs stat= "
                       f"(one of {', '.join(STATS)})")
    if markers:
        value = combat.marked_value(game, value, args["stat"], markers)
    return value


def _attack_extra(game: Game, args: dict[str, Any]) -> int:
    return combat.kamikaze_hits(game, args["stat"], args["markers"] or [], args["campaign"])


@ENGINE.table(
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


@ENGINE.table(
    "japanese-air",
    rules=["10.9.1"],
    inputs=[
        ROLL,
        Input("valid", "ids", "areas with a valid target (default: all four)", default=None),
        Input("forced", "bool", "carrier attack / first strike / kamikaze: roll reads 10",
              default=False),
    ],
    results=["area", "rolled", "moved"],
    odds_field="area",
    errata=["E12", "E2"],
)
def japanese_air(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Where a Japanese aircraft group goes (10.9.1), with the fall-through."""
    areas = combat.air_areas(game)
    valid = areas if args["valid"] is None else args["valid"]
    roll = combat.forced_roll(game) if args["forced"] else dice.roll(DIE, "roll")
    rolled, area = combat.air_destination(game, roll, valid)
    rules = ("10.9.1",) + (("10.7",) if args["forced"] else ())
    return Answer({"area": area or "stay", "rolled": rolled, "moved": area is not None},
                  rules=rules, errata=("E12",) + (("E2",) if args["forced"] else ()))


# --------------------------------------------------------------------------- costs


@ENGINE.table(
    "repair-cost",
    rules=["6.3"],
    inputs=[
        Input("cost", "int", "the unit's cost (carriers: purchase cost)", min=0, default=None),
        Input("unit", "text", "or a unit id: its purchase cost is used", default=None),
    ],
    results=["supply"],
)
def repair_cost(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """SP to repair a damaged US unit: half its cost, rounded down, at least 1."""
    from .campaign import repair_supply, unit_buy_cost

    cost = args["cost"]
    if (cost is None) == (args["unit"] is None):
        raise BadInput("give exactly one of cost=N or unit=ID")
    if cost is None:
        cost = unit_buy_cost(game, args["unit"])
    return Answer({"supply": repair_supply(game, cost), "cost": cost}, rules=("6.3",))


@ENGINE.table(
    "battle-points",
    rules=["10.5"],
    inputs=[Input("supply", "int", "supply points spent on the battle", min=0)],
    results=["bpp"],
)
def battle_points(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """US battle-plan points: 3 free plus 3 per SP spent."""
    lo, hi = _key_range(game, "battle-points", "supply")
    if hi is not None and args["supply"] > hi:
        raise BadInput(f"input supply={args['supply']!r} is not allowed (integer {lo}..{hi})")
    return Answer({"bpp": combat.battle_points(game, args["supply"])}, rules=("10.5",))


# --------------------------------------------------------------------------- hits


def _piece_result(piece) -> dict[str, Any]:
    out: dict[str, Any] = {"unit": piece.name, "cost": piece.cost, "hits": piece.hits,
                           "state": piece.state}
    if piece.is_airfield:
        out["capacity"] = piece.capacity
    return out


@ENGINE.table(
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
    done = combat.allocate_hits(game, pieces, args["hits"])
    result = {"units": [_piece_result(p) for p in done.pieces], "unused": done.unused,
              "player_choice": done.player_choice}
    how = ("US hits on Japanese units: lowest cost first, damaged first"
           if args["side"] == "japan" else
           "Japanese hits on US units: the player chooses, lower cost first")
    return Answer(result, rules=("10.10.2", "10.18.2", "1.3"), text=how)


# --------------------------------------------------------------------------- results


@ENGINE.table(
    "linked-result",
    rules=["12.6"],
    inputs=[Input("total", "int", "objectives held at the end of the four campaigns", min=0)],
    results=["result", "label", "label_ja"],
    odds_field=None,
)
def linked_result(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Result of the linked 1942-1945 campaign from its total objectives."""
    lo, hi = _key_range(game, "linked-result", "total")
    if hi is not None and args["total"] > hi:
        raise BadInput(f"input total={args['total']!r} is not allowed (integer {lo}..{hi})")
    row = table_row(game, "linked-result", total=args["total"])
    return Answer(row, rules=("12.6",), text=f"{row['label']} ({row['label_ja']})")


def _marker_names(game: Game) -> tuple[str, ...]:
    return tuple(game.table("bonus-marker").key("bonus").values)


@ENGINE.table(
    "bonus-marker",
    rules=["10.5", "10.7"],
    inputs=[
        Input("side", "enum", "whose marker", choices=SIDES),
        Input("name", "text", "the marker's id, e.g. melee"),
    ],
    results=["cost", "effect"],
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
    return {str(k): v for k, v in sorted(dist.items())}
