"""The referee tables of the Fateful Midway Card Game (``warpress tables midway-cards``).

Catalogue: air-combat, defense, ship-status, base-status, hand. Beyond it: attack-damage
(one card's damage after its secondary-damage card), strike (every card that got
through against one target, exact odds by dynamic programming over the cards left in
the secondary-damage deck) and victory. The game has no dice: a secondary-damage card
drawn is read as its card number, a "d16" (the deck's size, from the data).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

from warpress.engine.dice import Dice, GivenDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.inputs import quote, read_int
from warpress.engine.model import Game
from warpress.engine.registry import Answer, Input, OddsAnswer

from .. import CODE
from . import combat
from .common import (
    BASE_ID,
    SECONDARY_DECK,
    base_status,
    card,
    const,
    damage_status,
    deck_cards,
    deck_count,
    destroys,
    kind,
    ship,
    ship_vp,
    stat,
)
from .state import adjustment, winner

if TYPE_CHECKING:
    from . import combat

#: Level scales as printed on the cards; tests hold them equal to the constants
#: air-combat-levels and defense-levels.
AIR_LEVELS = ("A", "B", "C", "D")
DEFENSE_LEVELS = ("A", "B", "C")
#: The secondary-damage deck read as a die: one face per card (deck manifest count).
SECONDARY_DIE = "d16"


# --- air-combat and defense (7-1-2, 7-3) -----------------------------------------------------


@CODE.table(
    "air-combat",
    rules=["7-1-2"],
    inputs=[Input("attacker", "enum", "attacker's air-combat level for his mission",
                  choices=AIR_LEVELS),
            Input("defender", "enum", "defender's CAP (F) air-combat level",
                  choices=AIR_LEVELS)],
    results=["removed"],
    odds_field="removed",
)
def air_combat_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Which card of a pair (組) is removed: attacker, defender or both (任務完了)."""
    removed = combat.air_combat_result(game, args["attacker"], args["defender"])
    text = "mission complete 任務完了: both removed" if removed == "both" else None
    return Answer({"removed": removed}, rules=("7-1-2",),
                  text=f"removed: {removed}" + (f" ({text})" if text else ""))


@CODE.table(
    "defense",
    rules=["7-3", "3-3"],
    errata=["C-E2"],
    inputs=[Input("defense", "enum", "interception / evasion level of the defense card",
                  choices=DEFENSE_LEVELS),
            Input("attack", "enum", "anti-ship level of the aircraft card",
                  choices=DEFENSE_LEVELS),
            Input("kind", "enum", "defense card: AA (対空) or ES (回避)", choices=("AA", "ES"),
                  default="AA"),
            Input("base", "bool", "the target is the Midway base (AA cards only)",
                  default=False)],
    results=["stopped"],
    odds_field="stopped",
)
def defense_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Whether a defense card stops an aircraft card's attack (level >= anti-ship level)."""
    rules: tuple[str, ...] = ("7-3", "3-3")
    if args["base"]:
        allowed = tuple(str(k) for k in const(game, "base-defense-card-kinds"))
        if args["kind"] not in allowed:
            raise RuleViolation("12-4", f"the Midway base may use {'/'.join(allowed)} cards "
                                        f"only, not kind={args['kind']}")
        rules += ("12-4",)
    stopped = combat.stops(game, args["defense"], args["attack"])
    return Answer({"stopped": stopped}, rules=rules, errata=("C-E2",))


# --- ship-status and base-status (3-1, 7-4, 12-4, 11) ---------------------------------------


def _durabilities(game: Game, args: dict[str, Any]) -> tuple[int, int, str | None]:
    """(deck, side, ship id) from ship=ID or deck=N side=N."""
    ship_id = args["ship"]
    if ship_id is not None:
        if args["deck"] is not None or args["side"] is not None:
            raise BadInput(f"give ship={ship_id} or deck=N side=N, not both")
        record = ship(game, ship_id)
        return (int(record.stats["deck_durability"]), int(record.stats["side_durability"]),
                record.id)
    if args["deck"] is None or args["side"] is None:
        missing = "deck" if args["deck"] is None else "side"
        raise BadInput(f"missing input {missing!r} (integer 1.., the durability) "
                       "or give ship=ID")
    return args["deck"], args["side"], None


@CODE.table(
    "ship-status",
    rules=["3-1", "7-4"],
    errata=["C-E1", "C-E19"],
    inputs=[Input("ship", "text", "ship card id (akagi, yorktown ...)", default=None),
            Input("deck", "int", "deck durability (甲板耐久力), without ship=", min=1,
                  default=None),
            Input("side", "int", "side durability (舷側耐久力), without ship=", min=1,
                  default=None),
            Input("deck_damage", "int", "bombing (red) damage", min=0, default=0),
            Input("side_damage", "int", "torpedo (blue) damage", min=0, default=0),
            Input("disabled", "bool", "flight deck or propulsion hit (発着艦不能)",
                  default=False)],
    results=["status", "flight_ops", "vp", "vp_box"],
    odds_field="status",
)
def ship_status_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """A ship card's status from its damage: intact, 中破, 大破 or sunk, and its VP."""
    deck, side, ship_id = _durabilities(game, args)
    out = damage_status(game, deck, side, args["deck_damage"], args["side_damage"],
                        args["disabled"])
    vp = ship_vp(game, ship_id, out["vp_box"]) if ship_id else None
    result = {"status": out["status"], "flight_ops": out["flight_ops"], "vp": vp,
              "vp_box": out["vp_box"]}
    return Answer(result, rules=("3-1", "7-4"), errata=("C-E1", "C-E19"))


@CODE.table(
    "base-status",
    rules=["12-4", "11"],
    errata=["C-E1", "C-E21"],
    inputs=[Input("damage", "int", "damage on the Midway base", min=0)],
    results=["status", "vp"],
    odds_field="status",
)
def base_status_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """The Midway base: intact, 大破 (heavy, 10 VP) or destroyed (20 VP) by its damage."""
    return Answer(base_status(game, args["damage"]), rules=("12-4", "11"),
                  errata=("C-E1", "C-E21"))


# --- hand (9) ---------------------------------------------------------------------------------


def _hand(game: Game) -> tuple[int, int, str]:
    """``hand``'s bounds: at most the cards of the largest deck."""
    return 0, max(deck_count(game, d.id) for d in game.decks), "cards of the largest deck"


@CODE.table(
    "hand",
    rules=["9", "5-1"],
    errata=["C-E14"],
    inputs=[Input("hand", "int", "cards in hand now", bounds=lambda game: _hand(game)),
            Input("refill", "bool", "turn player, or used cards this turn (draws to the limit)",
                  default=True),
            Input("deck_left", "int", "cards left in the draw deck (caps the draw)", min=0,
                  default=None)],
    results=["draw", "discard", "hand_after"],
    odds_field="hand_after",
)
def hand_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Hand adjustment: cards to draw or discard to reach the hand limit (手札上限)."""
    limit = int(const(game, "hand-limit"))
    to_draw, discard = adjustment(args["hand"], limit, args["refill"], args["deck_left"])
    result = {"draw": to_draw, "discard": discard, "hand_after": args["hand"] + to_draw - discard}
    return Answer(result, rules=("9", "5-1"), errata=("C-E14",))


# --- attack-damage and strike (7-4, 12-1, 12-2) -----------------------------------------------


def secondary_die(game: Game) -> str:
    """The secondary-damage deck as a die: d<number of cards>."""
    return f"d{deck_count(game, SECONDARY_DECK)}"


def secondary_card(game: Game, number: int) -> str:
    """The secondary-damage card printed with ``number``."""
    for item in deck_cards(game, SECONDARY_DECK):
        if item.number == number:
            return item.id
    raise BadInput(f"no secondary-damage card number {number}")


def _attack_card(game: Game, text: str, target: str) -> str:
    """Check that a card id can attack this kind of target; return it."""
    card(game, text)
    what = kind(game, text)
    if what not in ("aircraft", "armament-change") or stat(game, text, "damage") is None:
        raise BadInput(f"input card={text!r} is not an attacking card (an aircraft card with an "
                       "A mission or an armament-change card)")
    combat.check_attackers(game, [text], BASE_ID if target == "base" else "ship")
    return text


@CODE.table(
    "attack-damage",
    rules=["7-4", "12-1", "12-2"],
    inputs=[Input("card", "text", "attacking card id (j-b5n, us-sbd, ac-d3a ...)"),
            Input("target", "enum", "ship card or the Midway base", choices=("ship", "base"),
                  default="ship"),
            Input("rearming", "bool", "「兵装変更中」 is on the table (US cards +1)",
                  default=False),
            Input("draw", "roll", "number of the secondary-damage card drawn",
                  die=SECONDARY_DIE)],
    results=["result", "damage", "kind", "disabled"],
    odds_field="damage",
)
def attack_damage_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """One attacking card's damage after its secondary-damage card (7-4)."""
    card_id = _attack_card(game, args["card"], args["target"])
    drawn = secondary_card(game, dice.roll(secondary_die(game), "draw"))
    target = BASE_ID if args["target"] == "base" else "ship"
    h = combat.hit(game, card_id, target, drawn, args["rearming"])
    result = {"result": h.result, "damage": h.damage, "kind": h.kind, "disabled": h.disabled}
    return Answer(result, rules=("7-4", "12-1") if target == BASE_ID else ("7-4",))


STRIKE_INPUTS = [
    Input("target", "text", "ship card id, or midway-base"),
    Input("cards", "ids", "attacking cards that got through (card ids, comma-separated)"),
    Input("deck_damage", "int", "deck (red) damage before; the base's damage", min=0,
          default=0),
    Input("side_damage", "int", "side (blue) damage before", min=0, default=0),
    Input("disabled", "bool", "already 発着艦不能", default=False),
    Input("rearming", "bool", "「兵装変更中」 is on the table (US cards +1)", default=False),
    Input("used", "ids", "numbers of the secondary-damage cards already out of the deck",
          default=()),
    Input("draws", "rolls", "numbers of the secondary-damage cards drawn, in card order",
          die=SECONDARY_DIE),
]


def _strike_setup(game: Game, args: dict[str, Any]) -> tuple[str, list[str], frozenset[int]]:
    """(target, attacking card ids, numbers of the secondary cards left): one player's
    cards against an enemy ship card or, for the Japanese, the base (7, 5-1(2))."""
    target = str(args["target"])
    if target != BASE_ID:
        ship(game, target, "target")
    cards = [_attack_card(game, c, "base" if target == BASE_ID else "ship")
             for c in args["cards"]]
    if not cards:
        raise BadInput("input cards= is empty (at least one attacking card)")
    combat.check_enemy(game, cards, target)
    numbers = {item.number for item in deck_cards(game, SECONDARY_DECK)}
    used: set[int] = set()
    for text in args["used"]:
        number = read_int(text)
        if number not in numbers:
            raise BadInput(f"input used={quote(text)} is not a secondary-damage card number "
                           f"(1-{max(numbers)})")
        used.add(number)
    left = frozenset(numbers - used)
    if len(cards) > len(left):
        raise BadInput(f"{len(cards)} cards attack but only {len(left)} secondary-damage "
                       "cards are left (used=)")
    return target, cards, left


def _strike_outcome(game: Game, args: dict[str, Any], target: str,
                    hits: list[combat.Hit]) -> dict[str, Any]:
    """Damage, 発着艦不能 and status of the target after the hits."""
    if target == BASE_ID:
        damage = args["deck_damage"] + sum(h.damage for h in hits)
        status = base_status(game, damage)["status"]
        return {"deck_damage": damage, "side_damage": 0, "disabled": False, "status": status,
                "sunk": status == "destroyed"}
    deck = args["deck_damage"] + sum(h.damage for h in hits if h.kind == "bombing")
    side = args["side_damage"] + sum(h.damage for h in hits if h.kind == "torpedo")
    disabled = args["disabled"] or any(h.disabled for h in hits)
    stats = ship(game, target).stats
    out = damage_status(game, int(stats["deck_durability"]), int(stats["side_durability"]),
                        deck, side, disabled)
    sunk = destroys(game, int(stats["deck_durability"]), deck) or destroys(
        game, int(stats["side_durability"]), side)
    return {"deck_damage": deck, "side_damage": side, "disabled": disabled,
            "status": out["status"], "sunk": sunk}


def _draw_fresh(game: Game, dice: Dice, left: set[int]) -> int:
    """Draw a card still in the deck: a number already out is drawn again (rejection)."""
    while True:
        number = dice.roll(secondary_die(game), "draws")
        if number in left:
            left.discard(number)
            return number
        if isinstance(dice, GivenDice):
            raise BadInput(f"input draws: card {number} is not in the secondary-damage deck "
                           "(drawn twice, or listed in used=)")


def strike_odds(game: Game, args: dict[str, Any]) -> OddsAnswer:
    """Exact distribution of the target's status, by dynamic programming over the set of
    secondary-damage cards left (draws without replacement)."""
    target, cards, left = _strike_setup(game, args)
    rearming = args["rearming"]
    site = BASE_ID if target == BASE_ID else target
    memo: dict[tuple[frozenset[int], int], dict[tuple[int, int, bool], Fraction]] = {}

    def go(deck: frozenset[int], index: int) -> dict[tuple[int, int, bool], Fraction]:
        """Distribution of (bombing, torpedo, disabled) still to come from card ``index``."""
        if index == len(cards):
            return {(0, 0, False): Fraction(1)}
        key = (deck, index)
        if key not in memo:
            out: dict[tuple[int, int, bool], Fraction] = {}
            share = Fraction(1, len(deck))
            for number in deck:
                h = combat.hit(game, cards[index], site, secondary_card(game, number), rearming)
                bomb, torp = (h.damage, 0) if h.kind == "bombing" else (0, h.damage)
                for (b, t, dis), p in go(deck - {number}, index + 1).items():
                    k = (b + bomb, t + torp, dis or h.disabled)
                    out[k] = out.get(k, Fraction(0)) + share * p
            memo[key] = out
        return memo[key]

    dist: dict[str, Fraction] = {}
    for (bomb, torp, dis), p in go(left, 0).items():
        hits = [combat.Hit("", site, "bombing", "", "", bomb, dis),
                combat.Hit("", site, "torpedo", "", "", torp, dis)]
        status = _strike_outcome(game, args, target, hits)["status"]
        dist[status] = dist.get(status, Fraction(0)) + p
    order = ("intact", "medium", "heavy", "sunk", "destroyed")
    exact = {s: dist[s] for s in order if s in dist}
    return OddsAnswer(result={"field": "status"}, exact=exact, rules=("7-4",))


@CODE.table(
    "strike",
    rules=["7-4", "3-1", "12-1"],
    errata=["C-E1", "C-E19"],
    inputs=STRIKE_INPUTS,
    results=["hits", "deck_damage", "side_damage", "disabled", "status", "sunk"],
    odds=strike_odds,
)
def strike_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Every card that got through against one target: secondary damage and status."""
    target, cards, left = _strike_setup(game, args)
    site = BASE_ID if target == BASE_ID else target
    deck = set(left)
    hits = []
    for c in cards:
        drawn = secondary_card(game, _draw_fresh(game, dice, deck))
        hits.append(combat.hit(game, c, site, drawn, args["rearming"]))
    if isinstance(dice, GivenDice) and dice.remaining():
        extra = len(next(iter(dice.remaining().values())))
        raise BadInput(f"input draws: {len(cards)} card(s) attack, so give {len(cards)} "
                       f"secondary-damage card number(s), not {len(cards) + extra}")
    result = {"hits": [{"card": h.card, "secondary": h.secondary, "result": h.result,
                        "damage": h.damage, "kind": h.kind} for h in hits]}
    result.update(_strike_outcome(game, args, target, hits))
    return Answer(result, rules=("7-4", "3-1", "12-1") if site == BASE_ID else ("7-4", "3-1"),
                  errata=("C-E1", "C-E19"))


# --- victory (11) -----------------------------------------------------------------------------


@CODE.table(
    "victory",
    rules=["11", "12-4"],
    errata=["C-E21"],
    inputs=[Input("japan_out", "bool", "all Japanese carriers 大破 or sunk"),
            Input("us_out", "bool", "all US carriers 大破 or sunk"),
            Input("base_damage", "int", "damage on the Midway base at game end", min=0),
            Input("japan_vp", "int", "Japanese VP", min=0, default=0),
            Input("us_vp", "int", "US VP", min=0, default=0)],
    results=["winner", "reason"],
    odds_field="winner",
)
def victory_table(game: Game, args: dict[str, Any], dice: Dice) -> Answer:
    """Who wins at game end (11): carriers out, the base rule (12-4), then VP."""
    if args["japan_out"] and args["us_out"]:
        raise BadInput("japan_out=yes and us_out=yes: only one side is attacked at a time, "
                       "so the game ends when the first side is out (11)")
    who, why = winner(game, args["japan_out"], args["us_out"], args["base_damage"],
                      args["japan_vp"], args["us_vp"])
    return Answer({"winner": who, "reason": why}, rules=("11", "12-4"), errata=("C-E21",))
