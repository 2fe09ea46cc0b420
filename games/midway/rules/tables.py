"""The referee tables of Midway (``warpress tables midway``).

Each table is a thin layer over the procedures of this package: it checks the
inputs against the game's data (ranges that live in the YAML), calls the
procedure and answers with the rules (and errata) behind the result.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from warpress.engine.dice import Dice, distribution
from warpress.engine.errors import BadInput
from warpress.engine.model import Deck, Game
from warpress.engine.registry import Answer, Input, OddsAnswer
from warpress.engine.tables import lookup

from .. import CODE
from .common import (
    DIE,
    base_damage,
    carriers,
    const,
    die_min,
    hit_number,
    track_start,
    track_values,
)

# The procedures are imported inside the tables that use them, so that a cold
# ``warpress lookup`` loads only what its table needs.

SIDE = ("japan", "us")


def _label(game: Game, section: str, record_id: str, english: str) -> str:
    """An English term with the rules' Japanese term beside it, read from the data."""
    name_ja = game.get(section, record_id).name_ja
    return f"{english} ({name_ja})" if name_ja else english


def _side(game: Game, side: str) -> str:
    """``Japanese 日本軍`` / ``US 米軍``."""
    for item in game.info.sides:
        if item.id == side:
            return item.label
    return side


def _deck_size(game: Game) -> int:
    """Cards in the event deck (2.3)."""
    return game.record("decks", "event", Deck).count


# --------------------------------------------------------------------------- search (7.x)


def _strikes(game: Game) -> tuple[int, int, str]:
    """``base_strikes``' bounds (``Input.bounds``): the most air operations of a base attack."""
    most = max(const(game, "base-attack-ops-near"), const(game, "base-attack-ops-far"))
    return 0, most, "air operations of one base-attack phase"


def _either_track(game: Game) -> tuple[int, int, str]:
    """``track``'s bounds: the Midway Garrison's or the Invasion Force's track."""
    top = max(max(track_values(game, "garrison")), max(track_values(game, "invasion-force")))
    return 0, top, "the garrison or invasion-force track"


def _aop_track(game: Game) -> tuple[int, int, str]:
    """An AOP's bounds: the boxes of the AOP track (7.3)."""
    values = [v for v in game.get("tracks", "aop").values if isinstance(v, int)]
    return min(values), max(values), "a box of the AOP track"


def _event_cards(game: Game) -> tuple[int, int, str]:
    """``card``'s bounds: the event cards the solitaire table has rows for."""
    key = game.table("solitaire-move").key("card")
    return key.min, key.max, "the event cards"


@CODE.table(
    "search",
    rules=["7.1", "7.2", "7.3", "7.4"],
    inputs=[
        Input("side", "enum", "the searching side", choices=SIDE),
        Input("distance", "int", "hexes from the side's carrier fleet to the nearest enemy "
              "fleet (the US counts the Invasion Force)", min=1),
        Input("base_distance", "int", "us only: Midway to the nearest Japanese fleet",
              min=1, default=None),
        Input("base_destroyed", "bool", "the base function is destroyed (9.6(2))",
              default=False),
        Input("base_strikes", "int", "japan only: air operations flown in this turn's "
              "base-attack phase", default=0, bounds=lambda game: _strikes(game)),
    ],
    results=["aop"],
    odds_field="aop",
)
def search_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Search result and AOP of one side (7.1-7.4)."""
    # start-up: 1 more module, only when this runs
    from . import search as S

    if args["side"] == "japan":
        if args["base_distance"] is not None:
            raise BadInput("input base_distance is for side=us only (Midway searches for the US)")
        aop = S.japan_aop(game, args["distance"], args["base_strikes"])
        rules = ("7.1", "7.2", "7.3") + (("7.4",) if args["base_strikes"] else ())
        return Answer({"aop": aop}, rules=rules, text=_search_text(game, "japan", aop))
    if args["base_strikes"]:
        raise BadInput("input base_strikes is for side=japan only (7.4)")
    aop = S.us_aop(game, args["distance"], args["base_distance"], args["base_destroyed"])
    rules = ("7.1", "7.2", "7.3") + (("9.6(2)",) if args["base_destroyed"] else ())
    return Answer({"aop": aop}, rules=rules, text=_search_text(game, "us", aop))


def _search_text(game: Game, side: str, aop: int) -> str:
    """A short answer of the search table."""
    return (f"{_side(game, side)} {_label(game, 'sequence', 'search', 'search')}: "
            f"{aop} AOP")


@CODE.table(
    "base-attack",
    rules=["6.4"],
    inputs=[Input("distance", "int", "hexes from the 1st Air Fleet to Midway",
                  bounds=lambda game: (1, const(game, "base-attack-range"),
                                       "a base attack's range, 6.4(2)"))],
    results=["operations"],
    odds_field="operations",
)
def base_attack_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Air operations of a base attack: 1 within 2 hexes, 2 at 3-5 (6.4(2)(3))."""
    # start-up: 1 more module, only when this runs
    from . import search as S

    ops = S.base_attack_operations(game, args["distance"])
    text = f"{ops} air operation(s) in the {_label(game, 'sequence', 'base-attack', 'base attack')}"
    return Answer({"operations": ops}, rules=("6.4(2)", "6.4(3)"), text=text)


@CODE.table(
    "initiative",
    rules=["8.1"],
    inputs=[
        Input("japan_roll", "roll", "Japanese initiative die", die=DIE),
        Input("us_roll", "roll", "US initiative die", die=DIE),
        Input("japan_aop", "int", "Japanese AOP now", bounds=lambda game: _aop_track(game)),
        Input("us_aop", "int", "US AOP now", bounds=lambda game: _aop_track(game)),
        Input("cards_left", "int", "cards left in the deck (default: the whole deck)",
              default=None, bounds=lambda game: (0, _deck_size(game), "the deck's cards")),
        Input("solitaire", "bool", "the solitaire game: no roll, the side with more AOP flies, "
              "the US on a tie (12.3(3))", default=False),
    ],
    results=["winner", "draws_card"],
    odds_field="winner",
)
def initiative_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Who has the initiative for the next air operation (8.1; solitaire 12.3(3))."""
    # start-up: 1 more module, only when this runs
    from . import search as S

    if args["cards_left"] is None:
        args["cards_left"] = _deck_size(game)
    if args["japan_aop"] == 0 and args["us_aop"] == 0:
        raise BadInput("inputs japan_aop=0 and us_aop=0: with no AOP on either side the air "
                       "operations phase is over (8.2); one side needs 1..4")
    if args["solitaire"]:
        winner = S.solitaire_initiative(game, args["japan_aop"], args["us_aop"])
        text = (_label(game, "constants", "initiative-die", "initiative")
                + f": {_side(game, winner)}, no roll and no card (solitaire)")
        return Answer({"winner": winner, "draws_card": False}, rules=("12.3(3)",), text=text)
    result = S.roll_initiative(game, args["japan_aop"], args["us_aop"], args["cards_left"], dice)
    if 0 in (args["japan_aop"], args["us_aop"]):
        rules: tuple[str, ...] = ("8.1(3)",)
    elif result.japan_total == result.us_total:
        rules = ("8.1(1)", "8.1(2)")
    else:
        rules = ("8.1(1)",)
    who = "roll again" if result.winner == "reroll" else _side(game, result.winner)
    text = _label(game, "constants", "initiative-die", "initiative") + f": {who}"
    text += ", who draws an event card" if result.draws_card else ""
    return Answer({"winner": result.winner, "draws_card": result.draws_card}, rules=rules,
                  text=text)


# --------------------------------------------------------------------------- air combat (9.x)


@CODE.table(
    "cap",
    rules=["9.2(1)"],
    inputs=[
        Input("air", "int", "air-combat strength of the CAP fighter", min=0),
        Input("escorted", "bool", "the attacking group has fighters"),
    ],
    results=["hit_on"],
    odds_field="hit_on",
)
def cap_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """CAP fire: each die at or below this number hits the attacking group (9.2(1))."""
    bonus = 0 if args["escorted"] else const(game, "cap-unescorted-bonus")
    hit_on = hit_number(args["air"] + bonus)
    text = (_label(game, "constants", "cap-unescorted-bonus", "CAP fire")
            + f": each fighter step's die hits on {hit_on} or less")
    return Answer({"hit_on": hit_on}, rules=("9.2(1)",), text=text)


@CODE.table(
    "anti-aircraft",
    rules=["9.3"],
    inputs=[
        Input("intact", "int", "undamaged carriers of the target division / task force",
              default=None, bounds=lambda game: _division_carriers(game)),
        Input("damaged", "int", "carriers with one damage marker", default=None,
              bounds=lambda game: _division_carriers(game)),
        Input("track", "int", "target is the base or the Invasion Force: its track value",
              default=None, bounds=lambda game: _either_track(game)),
        Input("escorted", "bool", "the attacking group still has a fighter"),
    ],
    results=["dice", "hit_on"],
)
def anti_aircraft_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Anti-aircraft dice and the highest die that hits (9.3)."""
    hit_on = int(lookup(game.table("aa-hit"), escorted=args["escorted"])["hit_on"])
    carriers_given = args["intact"] is not None or args["damaged"] is not None
    if carriers_given == (args["track"] is not None):
        raise BadInput("give intact=N and damaged=N (a carrier division or task force) or "
                       "track=N (the base or the Invasion Force), not both or neither")
    if args["track"] is not None:
        return Answer({"dice": args["track"], "hit_on": hit_on}, rules=("9.3(1)", "9.3(2)"),
                      text=_aa_text(game, args["track"], hit_on))
    intact, damaged = args["intact"] or 0, args["damaged"] or 0
    most = _most_carriers_per_division(game)
    if intact + damaged > most:
        raise BadInput(f"inputs intact={intact} and damaged={damaged}: a division or task force "
                       f"has at most {most} carriers")
    table = game.table("aa-dice")
    count = (intact * int(lookup(table, carrier="intact")["dice"])
             + damaged * int(lookup(table, carrier="damaged")["dice"]))
    return Answer({"dice": count, "hit_on": hit_on}, rules=("9.3", "9.3(2)"),
                  text=_aa_text(game, count, hit_on))


def _aa_text(game: Game, dice: int, hit_on: int) -> str:
    """A short answer of the anti-aircraft table."""
    return (_label(game, "tables", "aa-dice", "anti-aircraft fire")
            + f": {dice} dice, each {hit_on} or less hits an attack aircraft")


def _division_carriers(game: Game) -> tuple[int, int, str]:
    """A carrier count's bounds: 0 to the most carriers of a division or task force."""
    return 0, _most_carriers_per_division(game), "carriers of one division or task force"


def _most_carriers_per_division(game: Game) -> int:
    """The most carriers any division or task force has."""
    counts: dict[str, int] = {}
    for item in carriers(game):
        counts[item.get("division")] = counts.get(item.get("division"), 0) + 1
    return max(counts.values())


@CODE.table(
    "hit-number",
    rules=["9.4(1)", "9.4(3)", "9.6(2)(4)"],
    inputs=[
        Input("target", "enum", "what is attacked", choices=("carrier", "base", "invasion")),
        Input("attack", "int", "attack strength of the unit", min=0),
        Input("dive_bomber", "bool", "the unit is a dive bomber", default=False),
        Input("deck_loaded", "bool", "attack aircraft on the target carrier's deck",
              default=False),
        Input("combined", "bool", "a Japanese B5N attacking a carrier that a D3A attacks in "
              "the same strike", default=False),
    ],
    results=["hit_on"],
    odds_field="hit_on",
)
def hit_number_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """The highest die that hits: attack strength + modifiers (9.4(1), 9.4(3), 9.6(2))."""
    table = game.table("attack-modifier")
    row = lookup(table, target=args["target"], dive_bomber=args["dive_bomber"],
                 deck_loaded=args["deck_loaded"], combined=args["combined"])
    rules = {"carrier": ("9.4(1)",), "invasion": ("9.4(3)",), "base": ("9.6(2)", "9.6(4)")}
    errata = {"carrier": ("E25",), "invasion": (), "base": ("E7",)}
    hit_on = hit_number(args["attack"] + int(row["modifier"]))
    text = (_label(game, "tables", "attack-modifier", "attack")
            + f": modifier {int(row['modifier']):+d}, each step's die hits on {hit_on} or less")
    return Answer({"hit_on": hit_on}, rules=rules[args["target"]],
                  errata=errata[args["target"]], text=text)


@CODE.table(
    "carrier-damage",
    rules=["9.4(2)"],
    inputs=[
        Input("damaged", "bool", "the carrier already has a damage marker"),
        Input("roll", "roll", "hit location die (not rolled for a damaged carrier)", die=DIE),
    ],
    results=["box", "sunk"],
    odds_field="box",
)
def carrier_damage_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Where a hit lands on a carrier, and whether it sinks (9.4(2))."""
    table = game.table("carrier-damage")
    if args["damaged"]:
        row = lookup(table, damaged=True, roll=die_min())
    else:
        row = lookup(table, damaged=False, roll=dice.roll(DIE, "roll"))
    text = _label(game, "tables", "carrier-damage", "carrier damage") + (
        ": sunk" if row["sunk"] else f": damage marker on the {row['box']} deck box")
    return Answer({"box": row["box"], "sunk": bool(row["sunk"])}, rules=("9.4(2)",), text=text)


@CODE.table(
    "base-damage",
    rules=["9.6(2)", "9.6(3)"],
    inputs=[
        Input("garrison", "int", "Midway Garrison track before the hits",
              bounds=lambda game: (const(game, "garrison-air-attack-floor"),
                                   track_start(game, "garrison"),
                                   "from the air-attack floor to the track's start")),
        Input("hits_this_turn", "int", "base hits already applied this turn", default=0,
              bounds=lambda game: (0, const(game, "base-hits-per-turn"), "hits a turn")),
        Input("hits", "int", "new hits scored on the base", min=0),
    ],
    results=["applied", "ignored", "garrison", "base_destroyed"],
    errata=["E8", "E23"],
)
def base_damage_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Base hits applied: at most 2 a turn, never below Garrison 2 (9.6(2)(3))."""
    result = base_damage(game, args["garrison"], args["hits_this_turn"], args["hits"])
    text = (_label(game, "constants", "base-hits-per-turn", "base hits")
            + f": {result['applied']} applied, {result['ignored']} void; "
            + _label(game, "tracks", "garrison", "Garrison") + f" {result['garrison']}")
    return Answer(result, rules=("9.6(2)", "9.6(3)"), text=text)


# --------------------------------------------------------------------------- night (10.x)


@CODE.table(
    "surface-battle",
    rules=["10.1(2)"],
    inputs=[Input("japan_roll", "roll", "Japanese die", die=DIE),
            Input("us_roll", "roll", "US die", die=DIE)],
    results=["hits_on_us", "hits_on_japan"],
    errata=["E18", "E19"],
    odds=lambda game, args: _surface_odds(game),
)
def surface_battle_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Night surface battle hits: Japanese roll - 2 on the US, US roll - 4 on the Japanese."""
    # start-up: 2 more modules, only when this runs
    from .night import surface_battle

    result = surface_battle(game, dice)
    text = (_label(game, "tables", "surface-battle", "surface battle")
            + f": {result['hits_on_us']} hit(s) on the US, {result['hits_on_japan']} on the "
            "Japanese (the Japanese allocate them)")
    return Answer(result, rules=("10.1(2)",), text=text)


def _surface_odds(game: Game) -> OddsAnswer:
    """Exact odds of each side's surface-battle hits."""
    # start-up: 2 more modules, only when this runs
    from .night import surface_battle

    dist = distribution(lambda d: tuple(sorted(surface_battle(game, d).items())))
    exact: dict[str, Fraction] = {}
    for field in ("hits_on_us", "hits_on_japan"):
        for result, p in dist.items():
            key = f"{field}={dict(result)[field]}"
            exact[key] = exact.get(key, Fraction(0)) + p
    exact = dict(sorted(exact.items()))
    return OddsAnswer(result={}, exact=exact, rules=("10.1(2)",), errata=("E18", "E19"))


@CODE.table(
    "night-landing",
    rules=["10.2(2)a"],
    inputs=[Input("side", "enum", "side of the landing step", choices=SIDE),
            Input("roll", "roll", "one die per step in Return 2", die=DIE)],
    results=["lost"],
    odds_field="lost",
)
def night_landing_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Is a step lost landing at night? (10.2(2)a)"""
    # start-up: 2 more modules, only when this runs
    from .night import night_landing_lost

    lost = night_landing_lost(game, args["side"], dice.roll(DIE, "roll"))
    text = (_label(game, "tables", "night-landing", "night landing")
            + (": the step is lost" if lost else ": the step lands"))
    return Answer({"lost": lost}, rules=("10.2(2)a",), text=text)


def _boxes(game: Game, track: str) -> tuple[int, int, str]:
    """An input's bounds (``Input.bounds``): the numbered boxes of ``track``."""
    values = track_values(game, track)
    return min(values), max(values), f"a box of the {track} track"


@CODE.table(
    "landing",
    rules=["10.3"],
    inputs=[
        Input("invasion", "int", "Invasion Force track value",
              bounds=lambda game: _boxes(game, "invasion-force")),
        Input("garrison", "int", "Midway Garrison track value",
              bounds=lambda game: _boxes(game, "garrison")),
        Input("rolls", "rolls", "alternating dice, Japanese first: j,u,j,u,...", die=DIE),
    ],
    results=["outcome", "invasion", "garrison"],
    errata=["E9"],
    odds=lambda game, args: _landing_odds(game, args),
)
def landing_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """The landing on Midway at the end of Turn 7 (10.3)."""
    # start-up: 1 more module, only when this runs
    from . import landing as L

    result = L.landing(game, args["invasion"], args["garrison"], dice)
    text = _label(game, "victory", "landing", "landing") + f": {result['outcome']}"
    return Answer(result, rules=("10.3(1)", "10.3(2)"), errata=("E9",), text=text)


def _landing_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    """Exact odds of the landing's outcome (DP, see landing.py)."""
    # start-up: 1 more module, only when this runs
    from . import landing as L

    exact = L.landing_odds(game, args["invasion"], args["garrison"])
    text = (_label(game, "victory", "landing", "landing")
            + ": exact, by dynamic programming over (invasion, garrison)")
    return OddsAnswer(result={"field": "outcome"}, exact=exact, rules=("10.3",), errata=("E9",),
                      text=text)


# --------------------------------------------------------------------------- victory, solitaire


def _afloat(game: Game, side: str) -> tuple[int, int, str]:
    """Carriers afloat: 0 to the side's carriers."""
    # start-up: 1 more module, only when this runs
    from .victory import fleet_size

    return 0, fleet_size(game, side), f"the {side} carriers"


@CODE.table(
    "victory",
    rules=["4.1", "4.2", "4.3"],
    inputs=[
        Input("turn", "int", "the turn that ends (3: Day 1 check, 7: points)",
              bounds=lambda game: (1, const(game, "turns"), "a turn of the game")),
        Input("japan_carriers", "int", "Japanese carriers afloat",
              bounds=lambda game: _afloat(game, "japan")),
        Input("us_carriers", "int", "US carriers afloat",
              bounds=lambda game: _afloat(game, "us")),
        Input("midway", "enum", "turn 7: Midway captured or held", choices=("captured", "held"),
              default=None),
    ],
    results=["winner", "japan_points", "us_points"],
)
def victory_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Who has won at the end of a turn (4.1-4.3)."""
    # start-up: 1 more module, only when this runs
    from . import victory as V

    result = V.victory(game, args["turn"], args["japan_carriers"], args["us_carriers"],
                       args["midway"])
    rules = V.rules_for(game, args["turn"], args["japan_carriers"], args["us_carriers"])
    record = {"4.1": "day-1", "4.2": "day-2", "4.3": "automatic"}[rules[0]]
    who = {"japan": _side(game, "japan"), "us": _side(game, "us"), "draw": "a draw",
           "none": "nobody yet"}[result["winner"]]
    text = _label(game, "victory", record, "victory") + f": {who}"
    return Answer(result, rules=rules, errata=("E12",) if "4.3" == rules[0] else (), text=text)


@CODE.table(
    "solitaire-move",
    rules=["12.3(2)"],
    inputs=[Input("card", "int", "event card number drawn",
                  bounds=lambda game: _event_cards(game))],
    results=["move", "hexes", "prefer"],
    odds_field="move",
)
def solitaire_move_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """How the solitaire US fleet moves for an event card (12.3(2))."""
    # start-up: 5 more modules, only when this runs
    from .solitaire import move_card

    row = move_card(game, args["card"])
    text = _label(game, "tables", "solitaire-move", "US fleet") + f": {row['move']}"
    if row["hexes"]:
        text += f" {row['hexes']} hex(es), the more {row['prefer']}erly hex on a tie"
    return Answer({"move": row["move"], "hexes": row["hexes"], "prefer": row["prefer"]},
                  rules=("12.3(2)",), errata=tuple(game.table("solitaire-move").errata),
                  text=text)
