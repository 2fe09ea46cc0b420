"""Search and air operation points (7.x), the base-attack range (6.4), initiative (8.1)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from .common import DIE, check_hex, clamp, const, distance, midway_hex, violation

# --------------------------------------------------------------------------- search (7.1-7.4)


def search_value(game: Game, capability: int, dist: int) -> int:
    """One searcher's raw result: capability minus distance (7.2)."""
    return capability - dist


def clamp_result(game: Game, value: int) -> int:
    """A search result held to ``search-result-min..search-result-max`` (7.2, 7.3)."""
    return clamp(value, const(game, "search-result-min"), const(game, "search-result-max"))


def base_capability(game: Game, base_destroyed: bool) -> int:
    """Midway's search capability: 8, or 0 once the base function is destroyed (9.6(2))."""
    key = "search-capability-base-destroyed" if base_destroyed else "search-capability-base"
    return const(game, key)


def japan_aop(game: Game, dist: int, base_strikes: int = 0) -> int:
    """Japanese AOP: 6 - distance, clamped to 1..4, minus this turn's base-attack ops (7.4).

    ``base_strikes`` air operations flown in the base-attack phase each cost
    ``base-attack-aop-cost`` AOP, down to ``aop-min-after-base-attack`` and no further.
    """
    capability = const(game, "search-capability-ichikokan")
    result = clamp_result(game, search_value(game, capability, dist))
    cost = base_strikes * const(game, "base-attack-aop-cost")
    return max(const(game, "aop-min-after-base-attack"), result - cost)


def us_aop(game: Game, dist: int, base_distance: int | None = None,
           base_destroyed: bool = False) -> int:
    """US AOP: the larger of the fleet's (7 - distance) and the base's (8 - distance), 1..4.

    The Invasion Force counts as an enemy fleet for ``dist`` and ``base_distance``
    (7.2 example 2); a side with several results takes the largest (7.2).
    """
    values = [search_value(game, const(game, "search-capability-us-fleet"), dist)]
    if base_distance is not None:
        values.append(search_value(game, base_capability(game, base_destroyed), base_distance))
    return clamp_result(game, max(values))


def nearest(game: Game, origin: str, targets: Iterable[str]) -> int | None:
    """Distance from ``origin`` to the nearest of ``targets`` (None if there is none)."""
    dists = [distance(game, origin, t) for t in targets]
    return min(dists) if dists else None


@dataclass(frozen=True)
class Positions:
    """Where the fleets are after movement: hex ids (None: not on the map)."""

    ichikokan: str
    us_fleet: str
    invasion_force: str | None = None


def search_phase(game: Game, where: Positions, *, turn: int, base_destroyed: bool = False,
                 base_strikes: int = 0) -> dict[str, int]:
    """Both sides' AOP for this turn from the fleets' hexes (7.1-7.4; night 10.2(1)).

    The Japanese search from the 1st Air Fleet to the US fleet; the US from its
    fleet and from Midway to the nearest Japanese fleet, the Invasion Force included.
    """
    if turn == const(game, "night-turn"):
        night = const(game, "night-aop")
        return {"japan": night, "us": night}
    japan_targets = [where.ichikokan] + ([where.invasion_force] if where.invasion_force else [])
    us_dist = nearest(game, where.us_fleet, japan_targets)
    base_dist = nearest(game, midway_hex(game), japan_targets)
    j_dist = distance(game, where.ichikokan, where.us_fleet)
    return {
        "japan": japan_aop(game, j_dist, base_strikes),
        "us": us_aop(game, us_dist, base_dist, base_destroyed),
    }


# --------------------------------------------------------------------------- base attack (6.4)


def base_attack_operations(game: Game, dist: int) -> int:
    """Air operations of a base attack from ``dist`` hexes: 1 within 2 hexes, 2 at 3-5 (6.4(3)).

    Beyond ``base-attack-range`` the attack is forbidden (6.4(2)).
    """
    reach = const(game, "base-attack-range")
    if dist > reach:
        raise violation("6.4(2)", f"the 1st Air Fleet is {dist} hexes from Midway; a base "
                                  f"attack needs it within {reach}")
    if dist <= const(game, "base-attack-near-range"):
        return const(game, "base-attack-ops-near")
    return const(game, "base-attack-ops-far")


def base_attack_from(game: Game, fleet_hex: str) -> int:
    """Base-attack air operations with the 1st Air Fleet in ``fleet_hex`` (6.4(2)(3))."""
    dist = distance(game, check_hex(game, fleet_hex), midway_hex(game))
    return base_attack_operations(game, dist)


# --------------------------------------------------------------------------- initiative (8.1)


@dataclass(frozen=True)
class Initiative:
    """One initiative roll: who flies (japan, us or reroll) and whether he draws a card."""

    winner: str
    draws_card: bool
    japan_total: int | None = None
    us_total: int | None = None


def roll_initiative(game: Game, japan: int, us: int, cards_left: int, dice: Dice) -> Initiative:
    """One roll of 8.1: each side with AOP rolls 1d6 + its AOP; ties by the initiative-tie table.

    A side with 0 AOP does not roll and the other has the initiative (8.1(3));
    with both at 0 the air operations phase is over (8.2).
    """
    if japan <= 0 and us <= 0:
        raise violation("8.2", "both sides have 0 AOP: the air operations phase is over")
    if japan <= 0 or us <= 0:
        return Initiative("japan" if us <= 0 else "us", False)
    j_total = dice.roll(DIE, "japan_roll") + japan
    u_total = dice.roll(DIE, "us_roll") + us
    if j_total != u_total:
        return Initiative("japan" if j_total > u_total else "us", False, j_total, u_total)
    comparison = "equal" if japan == us else ("japan-more" if japan > us else "us-more")
    row = lookup(game.table("initiative-tie"), aop=comparison, cards_left=cards_left > 0)
    return Initiative(str(row["winner"]), bool(row["draws_card"]), j_total, u_total)


def initiative(game: Game, japan: int, us: int, cards_left: int, dice: Dice) -> Initiative:
    """Roll for initiative until a side has it (a tie with equal AOP rolls again, 8.1(2))."""
    while True:
        result = roll_initiative(game, japan, us, cards_left, dice)
        if result.winner != "reroll":
            return result


def initiative_with_draw(game: Game, japan: int, us: int, deck: Sequence[str], dice: Dice
                         ) -> tuple[Initiative, str | None, tuple[str, ...]]:
    """Initiative (8.1) with the card draw of an unequal-AOP tie: the winner takes a random
    card from ``deck`` (if any is left); returns the result, the card drawn and the deck."""
    result = initiative(game, japan, us, len(deck), dice)
    if not result.draws_card:
        return result, None, tuple(deck)
    index = 0 if len(deck) == 1 else dice.roll(f"d{len(deck)}", "card") - 1
    return result, deck[index], tuple(deck[:index]) + tuple(deck[index + 1:])


def solitaire_initiative(game: Game, japan: int, us: int) -> str:
    """Solitaire: no roll; the side with more AOP flies, the US on equal AOP (12.3(3))."""
    if japan <= 0 and us <= 0:
        raise violation("8.2", "both sides have 0 AOP: the air operations phase is over")
    if japan == us:
        return str(const(game, "solitaire-tie-first"))
    return "japan" if japan > us else "us"


def spend_aop(game: Game, aop: int) -> int:
    """AOP left after one air operation; an operation with 0 AOP is forbidden (8.2)."""
    cost = const(game, "aop-per-air-operation")
    if aop < cost:
        raise violation("8.2", f"an air operation costs {cost} AOP; the side has {aop}")
    return aop - cost


# --------------------------------------------------------------------------- search cards (11.0(2))

PROTOTYPE_SCOUT = "試作高速偵察機"
SCOUT_MALFUNCTION = "偵察機の不調"


def card_id(game: Game, name_ja: str) -> str:
    """The id of the event card the rules name ``name_ja``."""
    for card in game.cards:
        if card.name_ja == name_ja:
            return card.id
    raise BadInput(f"midway has no card named {name_ja}")


def search_cards(game: Game, plays: Sequence[str]) -> tuple[str, ...]:
    """The search-phase cards that take effect, from the card ids played in order (11.0(2)).

    The Japanese decide first whether to play 試作高速偵察機 (Prototype High-Speed
    Scout); once the US has played 偵察機の不調 (Scout Plane Malfunction) it can no
    longer be played. If the US answers it with 偵察機の不調, the Prototype is
    discarded and only the Malfunction applies.
    """
    prototype = card_id(game, PROTOTYPE_SCOUT)
    malfunction = card_id(game, SCOUT_MALFUNCTION)
    applied: list[str] = []
    for card in plays:
        if card == prototype and malfunction in applied:
            raise violation("11.0(2)", f"card {prototype} ({PROTOTYPE_SCOUT}) cannot be played "
                                       f"after {malfunction} ({SCOUT_MALFUNCTION})")
        if card == malfunction and prototype in applied:
            applied.remove(prototype)
        applied.append(card)
    return tuple(applied)
