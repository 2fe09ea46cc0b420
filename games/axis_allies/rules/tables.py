"""The referee tables of Axis & Allies (``warpress tables axis-allies``).

Catalogue: unit, research, placement-limit, victory, battle (odds). Beyond it:
development (a weapons-development roll), income and board-victory (over the
Classic board of the data), distance (moves on the board).
"""

from __future__ import annotations

from typing import Any

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput
from warpress.engine.inputs import quote
from warpress.engine.loader import builtin
from warpress.engine.model import Game
from warpress.engine.registry import Answer, Input, OddsAnswer

from .. import CODE
from . import battle as B
from . import board, research
from .battle import MOST_UNITS
from .common import DIE, unit_row
from .opening import SURVIVOR_KINDS
from .report import battle_answer


def _game():
    return builtin("axis-allies")


def _key(table_id: str, key_id: str):
    return _game().table(table_id).key(key_id)


# --------------------------------------------------------------------------- unit


@CODE.table(
    "unit",
    rules=["unit table", "① purchase", "L35-51"],
    inputs=[Input("type", "enum", "unit type",
                  choices=tuple(map(str, _key("unit", "type").values)))],
    results=["cost", "move", "attack", "defense"],
)
def unit(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Cost, movement, attack and defense of a unit (the national reference chart)."""
    row = unit_row(game, args["type"])
    return Answer({k: row[k] for k in ("cost", "move", "attack", "defense")},
                  rules=("unit table",))


# --------------------------------------------------------------------------- research

#: The most development dice one purchase takes (a tool limit: the rule text sets none).
#: A thousand dice cost 5,000 IPC; a larger count is a typing slip, and an exact
#: ``(5/6)**dice`` of it would not finish.
MOST_DICE = 1000


@CODE.table(
    "research",
    rules=["① weapons development", "L29-30"],
    inputs=[Input("dice", "int", "weapons-development dice bought", min=1, max=MOST_DICE)],
    results=["cost", "p_success"],
)
def research_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """IPC for N development dice and the chance that at least one shows a 6."""
    n = args["dice"]
    p = research.p_success(game, n)
    cost = research.dice_cost(game, n)
    return Answer({"cost": cost, "p_success": f"{p.numerator}/{p.denominator}"},
                  rules=("① weapons development",),
                  text=f"{n} dice: {cost} IPC, success {float(p):.4f}")


def _development_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    p = research.p_success(game, args["dice"])
    return OddsAnswer(result={"field": "success"}, exact={"yes": p, "no": 1 - p},
                      rules=("① weapons development",))


@CODE.table(
    "development",
    rules=["① weapons development", "L28-33"],
    errata=["E12"],
    inputs=[
        Input("dice", "int", "weapons-development dice bought", min=1, max=MOST_DICE),
        Input("developed", "ids", "weapons already developed", default=None),
        Input("rolls", "rolls", "the development dice", die=DIE),
        Input("chart", "rolls", "Weapons Development chart rolls, one per 6 (and re-rolls)",
              die=DIE),
    ],
    results=["cost", "sixes", "success", "weapons"],
    odds=_development_odds,
)
def development(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Roll development dice: success on any 6; one chart roll per 6 (re-roll duplicates)."""
    out = research.develop(game, args["dice"], args.get("developed") or [], dice)
    return Answer(out, rules=("① weapons development",), errata=("E12",))


# --------------------------------------------------------------------------- placement


@CODE.table(
    "placement-limit",
    rules=["⑤", "L108-110"],
    inputs=[
        Input("factory", "enum", "original (there at the start) or built during the game",
              choices=tuple(map(str, _key("placement-limit", "factory").values))),
        Input("income", "int", "income value of the factory's territory (built factories)",
              min=_key("placement-limit", "income").min, max=_key("placement-limit", "income").max,
              default=None),
        Input("territory", "text", "territory of the factory (its income from the board)",
              default=None),
        Input("place", "int", "units to place there this turn (checked against the limit)",
              min=0, default=None),
    ],
    results=["limit"],
)
def placement_limit(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """How many units one factory may place per turn (⑤)."""
    if args.get("territory") is not None:
        board.check_factory_kind(game, args["territory"], args["factory"])
    limit = board.placement_limit(game, args["factory"], args.get("income"),
                                  args.get("territory"), args.get("place"))
    return Answer({"limit": limit}, rules=("⑤",))


# --------------------------------------------------------------------------- victory


def _victory_inputs() -> list[Input]:
    items = []
    for key in _game().table("victory").keys:
        if key.kind == "enum":
            items.append(Input(key.id, "bool", key.name or key.id))
        else:
            items.append(Input(key.id, "int", key.name or key.id, min=key.min, max=key.max))
    order = ("axis_capitals_lost", "allied_capitals_lost", "axis_npl", "round_end")
    return sorted(items, key=lambda i: order.index(i.name) if i.name in order else 99)


@CODE.table(
    "victory",
    rules=["victory conditions", "L9-13"],
    errata=["E10"],
    inputs=_victory_inputs(),
    results=["winner", "reason"],
)
def victory(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Who has won at this check: capitals, or the Axis NPL at the end of a round."""
    out, rules, errata = board.victory_check(game, args["axis_capitals_lost"],
                                             args["allied_capitals_lost"], args["axis_npl"],
                                             args["round_end"])
    return Answer(out, rules=rules, errata=errata)


@CODE.table(
    "board-victory",
    rules=["victory conditions", "⑥ income", "L9-13", "L116-117"],
    errata=["E10"],
    inputs=[
        Input("control", "ids", "territories that changed hands since the start, as "
              "territory:power (e.g. russia:germany)", default=None),
        Input("round_end", "bool", "the check is at the end of a round", default=True),
    ],
    results=["winner", "reason", "axis_npl", "axis_capitals_lost", "allied_capitals_lost"],
)
def board_victory(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Victory over the Classic board: capitals held and the Axis NPL from the map."""
    control = board.control_after(game, args.get("control") or [], "control")
    out, rules, errata = board.board_victory(game, control, args["round_end"])
    return Answer(out, rules=rules, errata=errata)


@CODE.table(
    "income",
    rules=["⑥ income", "L115-117"],
    errata=["E11"],
    inputs=[
        Input("power", "enum", "the power collecting income",
              choices=tuple(s.id for s in _game().info.sides)),
        Input("control", "ids", "territories that changed hands since the start, as "
              "territory:power", default=None),
    ],
    results=["npl", "income", "territories"],
)
def income(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """A power's NPL (its territories' income values) and the IPC it collects in ⑥."""
    control = board.control_after(game, args.get("control") or [], "control")
    npl = board.npl(game, args["power"], control)
    held = board.territories_of(game, args["power"], control)
    return Answer({"npl": npl, "income": board.income(game, npl), "territories": len(held)},
                  rules=("⑥ income",), errata=("E11",))


@CODE.table(
    "distance",
    rules=["② combat movement", "④ non-combat movement", "unit table"],
    inputs=[
        Input("start", "text", "territory or sea zone id"),
        Input("end", "text", "territory or sea zone id"),
        Input("type", "enum", "unit type (land units by land, ships by sea, aircraft any way)",
              choices=tuple(map(str, _key("unit", "type").values)), default="fighter"),
    ],
    results=["distance", "move", "in_range"],
)
def distance(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Spaces between two points of the board for a unit type, and whether it reaches."""
    steps = board.distance(game, args["start"], args["end"], args["type"])
    move = unit_row(game, args["type"])["move"]
    return Answer({"distance": steps, "move": move,
                   "in_range": steps is not None and move is not None and steps <= move},
                  rules=("unit table",))


# --------------------------------------------------------------------------- battle


def _battle_odds(game: Game, args: dict[str, Any], exact: bool = False) -> OddsAnswer:
    """Floating point by default, exact fractions with ``exact`` (``report``); the
    survivors' fractions only when asked (``survivors=exact``, with ``exact``)."""
    survivors = args.get("survivors") or "float"
    if survivors == "exact" and not exact:
        raise BadInput(f"input survivors={quote(survivors)}: the survivors' exact fractions "
                       "need --exact")
    spec = B.make_spec(game, args)
    return battle_answer(game, spec, exact, _battle_errata(spec), survivors)


def _battle_errata(spec) -> tuple[str, ...]:
    return ("E1", "E3") if spec.kind == "land" else ("E1", "E4")


#: The most rounds a battle may be cut off after (a tool limit: the rule text has no round
#: cap). A 40-a-side battle is still undecided after 100 rounds with a chance of 5e-55.
MOST_ROUNDS = 100

ROLL_INPUTS = [
    Input("aa_rolls", "rolls", "AA dice, one per attacking aircraft in listed order", die=DIE),
    Input("sub_rolls", "rolls", "the attacking submarines' first-strike dice", die=DIE),
    Input("attacker_rolls", "rolls", "attacker's dice, round by round, unit by unit", die=DIE),
    Input("defender_rolls", "rolls", "defender's dice, round by round, unit by unit", die=DIE),
]


@CODE.table(
    "battle",
    rules=["③ combat", "land 1)-7)", "sea 1)-8)"],
    errata=["E1", "E3", "E4"],
    inputs=[
        Input("attacker", "text", "attacking units, e.g. '6 infantry, 3 armor, 2 fighter' (a "
              "type listed twice counts both)"),
        Input("defender", "text", "defending units, e.g. '8 infantry, 1 antiaircraft'"),
        Input("kind", "enum", "land or sea battle", choices=("land", "sea"), default="land"),
        Input("attacker_order", "ids", "attacker's casualty order (types, first lost first; "
              "default lowest cost first)", default=None),
        Input("defender_order", "ids", "defender's casualty order", default=None),
        Input("rounds", "int", "stop after this many rounds (default: to the end)", min=1,
              max=MOST_ROUNDS, default=None),
        Input("retreat_after", "int", "the attacker retreats after this round (land 6), "
              "sea 8))", min=1, max=MOST_ROUNDS, default=None),
        Input("retreat_at", "int", "the attacker retreats when a round leaves it this many "
              "units or fewer", min=1, max=MOST_UNITS, default=None),
        Input("attacker_weapons", "ids", "attacker's developed weapons", default=None),
        Input("defender_weapons", "ids", "defender's developed weapons", default=None),
        Input("survivors", "enum", "the surviving forces' chances: float (default), or exact "
              "fractions (with --exact; slower)", choices=SURVIVOR_KINDS, default=None),
        *ROLL_INPUTS,
    ],
    results=["winner", "attacker_takes", "attacker_left", "defender_left", "rounds",
             "aa_destroyed", "sub_sunk"],
    odds=_battle_odds,
    float_odds=True,
)
def battle(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Fight a land or sea battle (③): AA fire, submarine first strike, rounds to the end."""
    spec = B.make_spec(game, args)
    state = B.resolve(game, spec, dice)
    return Answer(B.result(game, spec, state), rules=B.rules_of(spec),
                  errata=_battle_errata(spec))
