"""Shared pieces of the Fateful Midway Card Game engine: data look-ups by id.

Every number comes from the game's YAML (``games/midway-cards``): constants by id,
tables by id, card stats by card id. Card *instances* in a game in progress are
written ``CARD-ID#N`` (``j-zero#3``); :func:`card_type` strips the suffix.
"""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Any

from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.model import Card, Deck, Game
from warpress.engine.tables import lookup

JAPAN = "japan"
US = "us"
SIDES = (JAPAN, US)

#: Decks of each side's action cards, and of its ship cards (ids in cards.yaml).
ACTION_DECK = {JAPAN: "japan-action", US: "us-action"}
SHIP_DECK = {JAPAN: "japan-ships", US: "us-ships"}
SECONDARY_DECK = "secondary-damage"
ARMAMENT_DECK = "armament-change"
BASE_ID = "midway-base"


def const(game: Game, constant_id: str) -> Any:
    """A constant's value (BadInput names the id when the data lacks it)."""
    return game.constant(constant_id)


def opponent(side: str) -> str:
    """The other side."""
    return US if side == JAPAN else JAPAN


def check_side(side: str, name: str = "side") -> str:
    """``side`` if it is japan or us, else BadInput naming the input."""
    if side not in SIDES:
        raise BadInput(f"input {name}={side!r} is not a side (japan|us)")
    return side


# --- levels ------------------------------------------------------------------------------


def rank(game: Game, scale: str, level: str, name: str = "level") -> int:
    """Strength of ``level`` on the constant ``scale`` (strongest = highest number)."""
    levels = tuple(str(v) for v in const(game, scale))
    if level not in levels:
        raise BadInput(f"input {name}={level!r} is not a level ({'|'.join(levels)})")
    return len(levels) - levels.index(level)


# --- cards -------------------------------------------------------------------------------


def card_type(instance: str) -> str:
    """``j-zero#3`` -> ``j-zero`` (a card id stays as it is)."""
    return instance.split("#", 1)[0]


def card(game: Game, instance: str, name: str = "card") -> Card:
    """The card record of a card id or instance; BadInput lists the ids allowed."""
    card_id = card_type(str(instance).strip())
    try:
        return game.record("cards", card_id, Card)
    except BadInput:
        pass
    raise BadInput(f"input {name}={instance!r} is not a card of {game.id} "
                   f"(cards: {', '.join(c.id for c in game.cards)})")


def is_card(game: Game, instance: str) -> bool:
    """True when ``instance`` names a card of the game (an id or an instance)."""
    try:
        card(game, instance)
    except BadInput:
        return False
    return True


def stat(game: Game, instance: str, key: str, default: Any = None) -> Any:
    """One stat of a card (``anti_ship``, ``damage``, ``vp_sunk`` ...)."""
    return card(game, instance).stats.get(key, default)


def kind(game: Game, instance: str) -> str:
    """aircraft | defense | tactics | armament-change | ship | base."""
    item = card(game, instance)
    if item.deck in SHIP_DECK.values():
        return "ship"
    if item.deck == BASE_ID:
        return "base"
    return str(item.stats.get("kind", item.deck))


def deck_cards(game: Game, deck_id: str) -> tuple[Card, ...]:
    """The card records of one deck, in data order."""
    return tuple(c for c in game.cards if c.deck == deck_id)


def deck_count(game: Game, deck_id: str) -> int:
    """The number of cards the deck manifest says the deck holds."""
    return int(game.record("decks", deck_id, Deck).count)


def instances(game: Game, deck_id: str) -> tuple[str, ...]:
    """Every physical card of a deck as an instance id (``j-zero#1`` .. ``j-zero#8``)."""
    out: list[str] = []
    for item in deck_cards(game, deck_id):
        out.extend(f"{item.id}#{n}" for n in range(1, item.count + 1))
    return tuple(out)


def owner(game: Game, instance: str) -> str:
    """The side whose card it is."""
    return str(card(game, instance).side)


def ships(game: Game, side: str) -> tuple[Card, ...]:
    """The ship cards of a side."""
    return deck_cards(game, SHIP_DECK[side])


def ship(game: Game, ship_id: str, name: str = "ship") -> Card:
    """A ship card by id; BadInput lists the ship ids."""
    all_ships = ships(game, JAPAN) + ships(game, US)
    for item in all_ships:
        if item.id == ship_id:
            return item
    raise BadInput(f"input {name}={ship_id!r} is not a ship card "
                   f"({'|'.join(s.id for s in all_ships)})")


def missions(game: Game, instance: str) -> tuple[str, ...]:
    """The missions an aircraft or armament-change card can fly (F, A, ground)."""
    return tuple(str(m) for m in stat(game, instance, "missions", ()) or ())


def air_level(game: Game, instance: str, mission: str) -> str:
    """The card's air-combat level for its declared mission (7-1-2)."""
    key = "air_combat_f" if mission == "F" else "air_combat_a"
    level = stat(game, instance, key)
    if level is None:
        raise RuleViolation("3-3", f"card {instance!r} has no air-combat level for mission "
                                   f"{mission!r}")
    return str(level)


def flown_type(game: Game, instance: str, mission: str) -> str:
    """The aircraft type a card counts as against a ship's ③ values for its mission.

    A card flying the other type's mission (a Zero as a bomber, an SBD as a fighter)
    counts as the type it flies when the constant ``dual-role-counts-as-flown-type``
    says so (assumed: the rules do not say).
    """
    own = str(stat(game, instance, "aircraft_type"))
    if not const(game, "dual-role-counts-as-flown-type"):
        return own
    if mission == "F":
        return "fighter"
    return "bomber" if own == "fighter" else own


# --- damage status -----------------------------------------------------------------------


def half(game: Game, durability: int) -> int:
    """Damage that counts as 'half' of a durability (3-1; rounding C-E19)."""
    exact = Fraction(str(const(game, "damage-status-fraction"))) * durability
    return math.ceil(exact) if const(game, "half-damage-rounding") == "up" else math.floor(exact)


def destroys(game: Game, durability: int, damage: int) -> bool:
    """True when ``damage`` sinks / destroys a card of ``durability`` (C-E1)."""
    if const(game, "sinking-threshold") == "reaches":
        return damage >= durability
    return damage > durability


def durability_state(game: Game, durability: int, damage: int) -> str:
    """below-half | half | sunk, the key of the ship-damage-status table."""
    if destroys(game, durability, damage):
        return "sunk"
    return "half" if damage >= half(game, durability) else "below-half"


def damage_status(game: Game, deck: int, side: int, deck_damage: int, side_damage: int,
                  disabled: bool) -> dict[str, Any]:
    """status, flight_ops and vp_box of a ship card from its damage (3-1, 7-4)."""
    row = lookup(
        game.table("ship-damage-status"),
        deck_state=durability_state(game, deck, deck_damage),
        side_state=durability_state(game, side, side_damage),
        disabled=disabled,
    )
    return {"status": row["status"], "flight_ops": bool(row["flight_ops"]),
            "vp_box": row["vp"]}


def ship_vp(game: Game, ship_id: str, vp_box: str) -> int:
    """The VP a ship card scores for the opponent in ``vp_box`` (sunk|heavy|medium|none)."""
    if vp_box == "none":
        return 0
    return int(stat(game, ship_id, f"vp_{vp_box}"))


def base_status(game: Game, damage: int) -> dict[str, Any]:
    """status and vp of the Midway base (12-4, 11), from the base-status table."""
    row = lookup(game.table("base-status"), damage=damage)
    return {"status": row["status"], "vp": int(row["vp"])}
