"""Solitaire 「飛龍奮戦す」 (12.0): the US movement cards and the US air-operation policy."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from warpress.engine.dice import Dice
from warpress.engine.errors import BadInput
from warpress.engine.model import Game
from warpress.engine.tables import lookup

from . import area as A
from .area import Air, CarrierArea
from .combat import group_move, launch
from .common import (
    const,
    distance,
    divisions,
    grid,
    is_attack,
    is_fighter,
    midway_hex,
    northing,
    track_start,
    violation,
)
from .movement import allowance
from .search import spend_aop

RESHUFFLE = "reshuffle"


def move_card(game: Game, card: int) -> dict:
    """The solitaire-move row of an event card number (12.3(2))."""
    return lookup(game.table("solitaire-move"), card=card)


# --------------------------------------------------------------------------- the card deck


@dataclass(frozen=True)
class Cards:
    """The solitaire event cards: the deck, the discards (E21) and cards out of play."""

    deck: tuple[int, ...]
    discard: tuple[int, ...] = ()


def solitaire_cards(game: Game) -> Cards:
    """The event cards at the start of 「飛龍奮戦す」 (12.2): #04 in the Japanese hand, #07 used
    (a discard, E21/E22), the other six in the deck."""
    hand, used = set(), set()
    for item in game.setup:
        if item.scenario == "solitaire":
            for p in item.place:
                card = p.get("card")
                if card is not None and "hand" in str(p.where):
                    hand.add(int(card))
                elif card is not None:
                    used.add(int(card))
    numbers = sorted(int(c.number) for c in game.cards)
    deck = tuple(n for n in numbers if n not in hand | used)
    return Cards(deck=deck, discard=tuple(sorted(used)))


def take_card_instead_of_op(game: Game, times_used: int, aop: int) -> int:
    """12.3(7): once per game the Japanese may spend 1 AOP to take a card instead of flying;
    returns the AOP left."""
    allowed = const(game, "solitaire-card-instead-of-op")
    if times_used >= allowed:
        raise violation("12.3(7)", f"the Japanese may take a card instead of an air operation "
                                   f"{allowed} time(s) per game")

    return spend_aop(game, aop)


def draw_move_card(game: Game, cards: Cards, dice: Dice) -> tuple[int, Cards]:
    """Draw the US movement card (12.3(2)); #08 shuffles discards and deck and draws again.

    A card is drawn at random (one roll of a die with as many faces as cards);
    a drawn card goes to the discards (E21). The reshuffle card is set aside:
    it is not among the cards shuffled back.
    """
    card, cards = _draw(cards, dice)
    while move_card(game, card)["move"] == RESHUFFLE:
        pool = tuple(sorted(c for c in cards.deck + cards.discard if c != card))
        cards = Cards(deck=pool, discard=())
        card, cards = _draw(cards, dice)
    return card, Cards(cards.deck, cards.discard + (card,))


def _draw(cards: Cards, dice: Dice) -> tuple[int, Cards]:
    """Draw a card at random: one roll of a die with as many faces as cards."""
    if not cards.deck:
        raise violation("12.3(2)", "the event deck is empty: no card to draw")
    index = 0 if len(cards.deck) == 1 else dice.roll(f"d{len(cards.deck)}", "card") - 1
    card = cards.deck[index]
    return card, Cards(cards.deck[:index] + cards.deck[index + 1:], cards.discard)


# --------------------------------------------------------------------------- the US move


def solitaire_move(game: Game, us_hex: str, ichikokan_hex: str, card: int, *,
                   turn: int, japan_hexes: Sequence[str] = ()) -> str:
    """Where the card sends the US fleet (12.3(2)), a hex id.

    Each hex of the move must bring the fleet nearer the 1st Air Fleet (toward)
    or take it farther (away); the fleet never enters Midway's hex (6.1(2)) and by
    day never a Japanese fleet's (``japan_hexes``, the 1st Air Fleet's at least; it
    stops in the hex before, 6.1(4)); on the night turn it may share one (12.3(5)).
    The move stops early where no hex qualifies. Among the hexes reached, the card's
    preference (the more northerly or southerly hex centre) decides, then the map order.
    """
    row = move_card(game, card)
    if row["move"] == RESHUFFLE:
        raise violation("12.3(2)", "card #08 is not a move: reshuffle and draw again")
    if row["move"] == "stay":
        return us_hex
    night = turn == const(game, "night-turn")
    forbidden = {midway_hex(game)} | (set() if night else {ichikokan_hex, *japan_hexes})
    steps = min(int(row["hexes"]), allowance(game, "us-fleet", turn))
    sign = 1 if row["move"] == "toward" else -1
    level = _strict_moves(game, us_hex, ichikokan_hex, steps, sign, forbidden)
    prefer = {"north": 1, "south": -1}.get(str(row["prefer"]), 0)
    order = {h: i for i, h in enumerate(grid(game).all_hexes())}
    return min(level, key=lambda h: (prefer * northing(game, h), order[h]))


def _strict_moves(game: Game, start: str, target: str, steps: int, sign: int,
                  forbidden: set[str]) -> set[str]:
    """The hexes ``steps`` moves from ``start``, each move nearer (sign 1) or farther (-1)."""
    level = {start}
    for _ in range(steps):
        nxt = {n for h in level for n in grid(game).neighbours(h)
               if n not in forbidden
               and sign * distance(game, n, target) < sign * distance(game, h, target)}
        if not nxt:
            break
        level = nxt
    return level


# --------------------------------------------------------------------------- US air policy


def us_carriers(game: Game, state: CarrierArea) -> list[str]:
    """The US carriers afloat, in data order."""
    return [c for d in divisions(game, "us") for c in A.division_carriers(game, d)
            if c not in state.sunk]


def us_cap_fighters(game: Game, state: CarrierArea) -> list[Air]:
    """US fighters in any task force's CAP box."""
    return [u for d in divisions(game, "us") for u in state.in_box(d, _cap(game, d))]


def _cap(game: Game, display_id: str) -> str:
    """The CAP box id of a display."""
    return next(b.id for b in A.display(game, display_id).boxes if b.kind == "cap")


def _free_deck_boxes(game: Game, state: CarrierArea, holder: str) -> list[tuple[str, str]]:
    """Undamaged, empty deck boxes of a carrier."""
    return [(d, b.id) for d, b in A.deck_boxes(game, holder)
            if (d, b.id) not in state.damage and not state.in_box(d, b.id)]


@dataclass(frozen=True)
class PolicyStep:
    """The result of the US policy for one air operation: the new state and the launches."""

    state: CarrierArea
    launch: tuple[tuple[str, ...], ...]
    to_cap: tuple[str, ...]


def us_air_operation(game: Game, state: CarrierArea, fleet_hex: str) -> PolicyStep:
    """The solitaire US player's carrier-area moves in one air operation (12.3(4) b-d, f).

    b. attack aircraft on deck launch against the 1st Air Fleet; with no US
       fighter in CAP exactly one deck fighter moves to CAP and the other deck
       fighters launch with the attack aircraft (a group per carrier, from
       ``fleet_hex``);
    c. hangar units move to freed deck boxes, attack aircraft first; with
       fighters also in the hangar, one attack aircraft and one fighter;
    d. Return 1 / Return 2 units make their forced moves (8.3(1)).
    CAP fighters never move (a); the US never reorganizes (f).
    """
    deck = {c: A.on_deck(game, state, c) for c in us_carriers(game, state)}
    to_cap: list[str] = []
    if not us_cap_fighters(game, state):
        fighters = [u for c in deck for u in deck[c] if is_fighter(game, u.type)]
        for fighter in fighters[:const(game, "solitaire-us-cap-fighters")]:
            to_cap.append(fighter.uid)
            state = A.move(game, state, fighter.uid, _cap(game, fighter.display))
    launches = []
    for holder, units in deck.items():
        if any(is_attack(game, u.type) for u in units):
            group = tuple(u.uid for u in units if u.uid not in to_cap)
            state = launch(game, state, group, fleet_hex, f"{holder}-strike")
            launches.append(group)
    state = _hangar_to_deck(game, state)
    state = A.advance_returns(game, state, "us")
    return PolicyStep(state, tuple(launches), tuple(to_cap))


def _hangar_to_deck(game: Game, state: CarrierArea) -> CarrierArea:
    """12.3(4)c: hangar units to free deck boxes, attack aircraft first."""
    for holder in us_carriers(game, state):
        display_id, hangar = A.hangar_box(game, holder)
        units = state.in_box(display_id, hangar.id)
        attackers = [u for u in units if is_attack(game, u.type)]
        fighters = [u for u in units if is_fighter(game, u.type)]
        each = const(game, "solitaire-us-hangar-to-deck")
        movers = ([*attackers[:each], *fighters[:each]] if attackers and fighters
                  else attackers or fighters)
        for air in movers:
            free = _free_deck_boxes(game, state, holder)
            if not free:
                break
            state = A.move(game, state, air.uid, free[0][1])
    return state


def us_night_deploy(game: Game, state: CarrierArea) -> CarrierArea:
    """12.3(4)g, last step of the night operation: per carrier 1 fighter and 1 attack
    aircraft to the deck and, with 2 or more fighters, 1 more fighter to CAP."""
    for holder in us_carriers(game, state):
        display_id, hangar = A.hangar_box(game, holder)
        units = state.in_box(display_id, hangar.id)
        fighters = [u for u in units if is_fighter(game, u.type)]
        attackers = [u for u in units if is_attack(game, u.type)]
        each = const(game, "solitaire-us-night-deck")
        for air in [*fighters[:each], *attackers[:each]]:
            free = _free_deck_boxes(game, state, holder)
            if free:
                state = A.move(game, state, air.uid, free[0][1], night=True)
        if len(fighters) >= const(game, "solitaire-us-night-cap-fighters-needed"):
            for air in fighters[each:each + const(game, "solitaire-us-night-cap")]:
                state = A.move(game, state, air.uid, _cap(game, display_id), night=True)
    return state


def us_cap_return(game: Game, state: CarrierArea, interceptors: Sequence[str]
                  ) -> dict[str, tuple[str, str]]:
    """12.3(4)a: after intercepting, the player returns CAP fighters to the deck of any US
    carrier; here the first free undamaged deck boxes, carriers in data order (a
    fighter left without a box lands by the normal rules)."""
    chosen: dict[str, tuple[str, str]] = {}
    taken: set[tuple[str, str]] = set()
    for uid in interceptors:
        for holder in us_carriers(game, state):
            free = [b for b in _free_deck_boxes(game, state, holder) if b not in taken]
            if free and len(A.aboard(game, state, holder)) < A.capacity(game, holder):
                chosen[uid] = free[0]
                taken.add(free[0])
                break
    return chosen


def us_group_action(game: Game, state: CarrierArea, group: str, ichikokan_hex: str) -> str:
    """12.3(4)e: a US group in the combat area attacks the 1st Air Fleet if it can reach it
    (``attack``), else returns by 8.5(3) (``return``, inference)."""
    units = state.group(group)
    reach = group_move(game, units)
    return "attack" if distance(game, units[0].box, ichikokan_hex) <= reach else "return"


def solitaire_reorganize(game: Game, state: CarrierArea, keep: str, merge: str) -> CarrierArea:
    """12.3(4)f, 12.3(7): in solitaire only the Japanese reorganize (8.3(4))."""
    if A.unit_side(game, state.unit(keep).type) == "us":
        raise violation("12.3(4)f", "the solitaire US never reorganizes")
    return A.reorganize(game, state, keep, merge)


def us_return_display(game: Game) -> str:
    """After an air attack all solitaire US aircraft go to TF16's return box (12.3(4)d)."""
    target = str(const(game, "solitaire-us-return-task-force"))
    if target not in divisions(game, "us"):
        raise BadInput(f"solitaire-us-return-task-force {target!r} is not a US task force")
    return target


# --------------------------------------------------------------------------- the start (12.2)


def solitaire_start(game: Game) -> CarrierArea:
    """The carrier area at the start of 「飛龍奮戦す」, built from the setup records (12.2)."""
    units: list[Air] = []
    damage: set[tuple[str, str]] = set()
    sunk: set[str] = set()
    garrison = track_start(game, "garrison")
    pending: list[tuple[str, list[str]]] = []
    for item in game.setup:
        if item.scenario != "solitaire":
            continue
        for p in item.place:
            display_id = p.get("display")
            if p.unit and display_id:
                for _ in range(p.count or 1):
                    uid = f"{p.unit}-{p.per or display_id}-{len(units) + 1}"
                    units.append(A.make_unit(game, uid, p.unit, display_id, str(p.where), p.steps))
            elif p.marker == "damage" and p.get("face") == "sunk":
                sunk.add(str(p.where))
            elif p.marker == "damage" and display_id:
                pending.append((display_id, _box_words(game, display_id, str(p.where))))
            elif p.marker == "garrison":
                garrison = int(p.where)
    occupied = {(u.display, u.box) for u in units}
    base = A.base_display(game).id
    for display_id, options in pending:
        if display_id == base:
            runway = [b.id for _, b in A.deck_boxes(game, A.base_holder(game))]
            hits = track_start(game, "garrison") - garrison
            damage.update((display_id, b) for b in runway[:hits])
            continue
        free = [b for b in options if (display_id, b) not in occupied]
        damage.add((display_id, (free or options)[0]))
    hits = track_start(game, "garrison") - garrison
    return A.new_area(game, units, damage=frozenset(damage), sunk=frozenset(sunk),
                      garrison=garrison, base_hits=hits)


def _box_words(game: Game, display_id: str, text: str) -> list[str]:
    """The box ids named in a setup text such as ``"a-deck-front or a-deck-rear (choice)"``."""
    ids = {b.id for b in A.display(game, display_id).boxes}
    return [w for w in text.replace(",", " ").split() if w in ids]
