"""The frozen state of a game in progress, and pure step functions over it.

A ``State`` holds both players' draw decks, hands and discard piles (card instances,
``j-zero#3``; the top of a deck is its first card), the ship cards' damage, the Midway
base's damage, the shared secondary-damage deck, the armament-change pile and the turn.
Every step function takes a ``State`` (and the loaded ``Game``) and returns a new one;
none does I/O, and shuffles are seeded from the state (``seed``, ``shuffles``), so a step
is a function of its arguments. A step the rules forbid raises ``RuleViolation``.
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game

from .common import (
    ACTION_DECK,
    ARMAMENT_DECK,
    BASE_ID,
    JAPAN,
    SECONDARY_DECK,
    SIDES,
    US,
    card,
    card_type,
    const,
    damage_status,
    deck_count,
    instances,
    kind,
    opponent,
    owner,
    ship_vp,
    ships,
    stat,
)

#: ship card ③ stats and the aircraft type each one limits
CAPACITY_STATS = {"aircraft_f": "fighter", "aircraft_b": "bomber", "aircraft_t": "torpedo-bomber"}


@dataclass(frozen=True)
class Player:
    """One player's cards: draw deck (top first), hand, discard pile, captured ships."""

    side: str
    deck: tuple[str, ...] = ()
    hand: tuple[str, ...] = ()
    discard: tuple[str, ...] = ()
    deck_number: int = 1  # 1 = first deck (1山目), 2 = second deck (2山目)
    used: bool = False  # used hand cards in this turn (hand adjustment, 9)
    drawn: tuple[str, ...] = ()  # cards drawn in this turn's draw phase
    captured: tuple[str, ...] = ()  # enemy ship cards this player sank (7-4)
    redraws: int = 0  # opening redraws taken (6)


@dataclass(frozen=True)
class ShipState:
    """One ship card's damage: red (deck) and blue (side) markers, yellow, sunk."""

    id: str
    deck_damage: int = 0
    side_damage: int = 0
    disabled: bool = False  # 発着艦不能 from 飛行甲板使用不能 / 推進機被弾 (yellow marker)
    sunk: bool = False

    @property
    def damage(self) -> int:
        """Deck and side damage together."""
        return self.deck_damage + self.side_damage


@dataclass(frozen=True)
class State:
    """A game in progress (see the module docstring)."""

    japan: Player
    us: Player
    ships: tuple[ShipState, ...]
    base_damage: int = 0
    secondary_deck: tuple[str, ...] = ()
    secondary_discard: tuple[str, ...] = ()
    armament_pile: tuple[str, ...] = ()
    rearming: bool = False  # the 「兵装変更中」 card is on the table (12-2)
    rearmed_in_first_deck: bool = False
    turn: int = 1
    turn_player: str = JAPAN
    end_after_turn: int | None = None  # a second deck ran out: last turn (11, C-E13)
    over: bool = False
    end_reason: str = ""
    seed: int = 0
    shuffles: int = 0
    rearmed_this_turn: bool = False
    attacked_this_turn: bool = False
    log: tuple[str, ...] = field(default=(), compare=False)

    def player(self, side: str) -> Player:
        """One side's cards."""
        return self.japan if side == JAPAN else self.us

    def ship(self, ship_id: str) -> ShipState:
        """A ship card's state by id (RuleViolation if not in play)."""
        for item in self.ships:
            if item.id == ship_id:
                return item
        raise RuleViolation("7-2", f"{ship_id!r} is not a ship card in play "
                                   f"({', '.join(s.id for s in self.ships)})")


def with_player(state: State, player: Player) -> State:
    """``state`` with one player's cards replaced."""
    return replace(state, **{player.side: player})


def with_ship(state: State, new: ShipState) -> State:
    """``state`` with one ship card replaced."""
    return replace(state, ships=tuple(new if s.id == new.id else s for s in state.ships))


def _shuffled(cards: Sequence[str], seed: int, salt: int) -> tuple[str, ...]:
    """A seeded shuffle: the same seed and salt give the same order."""
    out = list(cards)
    random.Random(seed * 1_000_003 + salt).shuffle(out)
    return tuple(out)


# --- setting up --------------------------------------------------------------------------------


def new_game(game: Game, seed: int = 0, shuffle: bool = True) -> State:
    """Setup (6): shuffled action decks, opening hands (J 7, US 6), ships, piles.

    The opening redraw of a hand without an attack card (6, C-E18) is left to the
    caller (its procedure is not given).
    """
    players = []
    for n, side in enumerate(SIDES):
        deck = instances(game, ACTION_DECK[side])
        deck = _shuffled(deck, seed, n) if shuffle else deck
        size = int(const(game, f"opening-hand-{side}"))
        players.append(Player(side, deck=deck[size:], hand=deck[:size]))
    secondary = instances(game, SECONDARY_DECK)
    return State(
        japan=players[0],
        us=players[1],
        ships=tuple(ShipState(s.id) for side in SIDES for s in ships(game, side)),
        secondary_deck=_shuffled(secondary, seed, 2) if shuffle else secondary,
        armament_pile=instances(game, ARMAMENT_DECK),
        turn_player=str(const(game, "first-player")),
        seed=seed,
        shuffles=3,
    )


def has_attack_card(game: Game, hand: Sequence[str]) -> bool:
    """True when a hand holds an 'attack card': an aircraft card able to fly A (C-E18)."""
    return any(kind(game, c) == "aircraft" and "A" in (stat(game, c, "missions") or ())
               for c in hand)


def redraw_opening(state: State, game: Game, side: str) -> State:
    """Setup (6): a player whose opening hand holds no attack card may redraw it, once.

    The procedure is not given: the hand is shuffled back into the deck and as many cards
    are drawn again (assumed, setup note).
    """
    p = state.player(side)
    allowed = int(const(game, "opening-redraws"))
    if state.turn != 1 or state.attacked_this_turn or p.discard:
        raise RuleViolation("6", "the opening redraw is made at setup only")
    if p.redraws >= allowed:
        raise RuleViolation("6", f"{side} may redraw the opening hand {allowed} time(s) only")
    if has_attack_card(game, p.hand):
        raise RuleViolation("6", f"the {side} opening hand holds an attack card: no redraw")
    deck = _shuffled(p.deck + p.hand, state.seed, state.shuffles)
    size = len(p.hand)
    p = replace(p, deck=deck[size:], hand=deck[:size], redraws=p.redraws + 1)
    return replace(with_player(state, p), shuffles=state.shuffles + 1)


# --- drawing and deck cycling (5-1, 8, 9, 11) ----------------------------------------------------


def draw(state: State, game: Game, side: str, count: int) -> State:
    """``side`` draws ``count`` cards; a first deck that runs out is reshuffled (11).

    When a second deck runs out the game's last turn is fixed: the opponent plays one
    more turn, then the player in whose turn it ran out (C-E13, reading A). Cards that
    cannot be drawn from an exhausted second deck are not drawn.
    """
    for _ in range(count):
        p = state.player(side)
        if not p.deck:
            break
        state = with_player(state, replace(p, deck=p.deck[1:], hand=p.hand + p.deck[:1]))
        if not state.player(side).deck:
            state = deck_ran_out(state, game, side)
    return state


def deck_ran_out(state: State, game: Game, side: str) -> State:
    """A player's deck is empty: reshuffle his discard pile, or start the game's end."""
    p = state.player(side)
    if p.deck_number < int(const(game, "action-deck-passes")):
        deck = _shuffled(p.discard, state.seed, state.shuffles)
        state = replace(state, shuffles=state.shuffles + 1)
        state = with_player(state, replace(p, deck=deck, discard=(),
                                           deck_number=p.deck_number + 1))
        if not deck:
            return deck_ran_out(state, game, side)
        return state
    if state.end_after_turn is None:
        last = state.turn + int(const(game, "turns-after-second-deck-out"))
        state = replace(state, end_after_turn=last)  # C-E13
    return state


def draw_phase(state: State, game: Game, extra: bool = True) -> State:
    """The turn player's draw phase (5-1): 1 card, and with ``extra`` the extra card a
    hand of only defense and tactics cards may draw (:func:`extra_draw`); none on the
    game's first turn (C-E17)."""
    side = state.turn_player
    if state.turn == 1 and not const(game, "first-turn-draw"):
        return state
    before = state.player(side).hand
    state = draw(state, game, side, int(const(game, "draws-per-turn")))
    p = state.player(side)
    state = with_player(state, replace(p, drawn=p.hand[len(before):]))
    return extra_draw(state, game) if extra and extra_draw_allowed(state, game) else state


def extra_draw_allowed(state: State, game: Game) -> bool:
    """The turn player's whole hand is defense and tactics cards (5-1), and his deck has a
    card to draw."""
    p = state.player(state.turn_player)
    return bool(p.deck) and all(kind(game, c) in ("defense", "tactics") for c in p.hand)


def extra_draw(state: State, game: Game) -> State:
    """5-1: a hand of only defense and tactics cards is revealed and draws 1 more."""
    if not extra_draw_allowed(state, game):
        raise RuleViolation("5-1", "the extra draw needs a hand of defense and tactics cards "
                                   "only, and a card in the deck")
    side = state.turn_player
    before = state.player(side).hand
    state = draw(state, game, side, int(const(game, "extra-draw-no-aircraft")))
    p = state.player(side)
    return with_player(state, replace(p, drawn=p.drawn + p.hand[len(before):]))


def _remove(cards: tuple[str, ...], gone: Sequence[str], rule: str, where: str) -> tuple[
        str, ...]:
    """``cards`` less ``gone`` (one copy each); RuleViolation if one is missing."""
    left = list(cards)
    for c in gone:
        if c not in left:
            raise RuleViolation(rule, f"{c!r} is not in the {where}")
        left.remove(c)
    return tuple(left)


def to_discard(state: State, game: Game, cards: Sequence[str]) -> State:
    """Put cards (already out of every hand) where used cards go: their owner's discard
    pile, the armament-change pile (12-2) or the secondary-damage discard pile."""
    for c in cards:
        deck = card(game, c).deck
        if deck == ARMAMENT_DECK:
            state = replace(state, armament_pile=state.armament_pile + (c,))
        elif deck == SECONDARY_DECK:
            state = replace(state, secondary_discard=state.secondary_discard + (c,))
        else:
            p = state.player(owner(game, c))
            state = with_player(state, replace(p, discard=p.discard + (c,)))
    return state


def take_from_hand(state: State, side: str, cards: Sequence[str], rule: str) -> State:
    """Take cards out of a hand (RuleViolation naming ``rule`` if one is not there)."""
    p = state.player(side)
    return with_player(state, replace(p, hand=_remove(p.hand, cards, rule, f"{side} hand")))


def discard_from_hand(state: State, game: Game, side: str, cards: Sequence[str],
                      rule: str) -> State:
    """Discard cards from a hand; 「兵装変更中」 goes when the last armament card does."""
    return rearming_check(to_discard(take_from_hand(state, side, cards, rule), game, cards), game)


def rearming_check(state: State, game: Game) -> State:
    """「兵装変更中」 leaves the table when no armament-change card is in hand (12-2)."""
    still = any(card(game, c).deck == ARMAMENT_DECK for c in state.japan.hand)
    return replace(state, rearming=state.rearming and still)


def hand_exchange(state: State, game: Game, cards: Sequence[str] = ()) -> State:
    """The turn player discards up to 3 cards and draws as many (8)."""
    most = int(const(game, "hand-exchange-max"))
    if len(cards) > most:
        raise RuleViolation("8", f"hand exchange allows at most {most} cards, not {len(cards)}")
    side = state.turn_player
    state = discard_from_hand(state, game, side, cards, "8")
    return draw(state, game, side, len(cards))


def adjustment(hand: int, limit: int, refill: bool, deck_left: int | None = None) -> tuple[
        int, int]:
    """(draw, discard) that bring a hand of ``hand`` cards to the limit (9, C-E14).

    Only a player who refills (the turn player, or one who used cards this turn) draws,
    at most the cards left in his deck; every player above the limit discards.
    """
    if hand > limit:
        return 0, hand - limit
    want = limit - hand if refill else 0
    return (want if deck_left is None else min(want, deck_left)), 0


def hand_adjustment(state: State, game: Game,
                    discards: Mapping[str, Sequence[str]] | None = None) -> State:
    """Hand adjustment (9): refill to the hand limit, discard down to it.

    ``discards`` names, per side, the cards a player above the limit discards; by default
    his last cards go.
    """
    limit = int(const(game, "hand-limit"))
    for side in SIDES:
        p = state.player(side)
        refill = side == state.turn_player or p.used
        to_draw, excess = adjustment(len(p.hand), limit, refill)
        if to_draw:
            state = draw(state, game, side, to_draw)
        if excess:
            chosen = tuple((discards or {}).get(side, p.hand[-excess:]))
            if len(chosen) != excess:
                raise RuleViolation("9", f"{side} holds {len(p.hand)} cards: discard exactly "
                                         f"{excess}, not {len(chosen)}")
            state = discard_from_hand(state, game, side, chosen, "9")
    return state


def end_turn(state: State, game: Game) -> State:
    """Close the turn: the game ends after its last turn (11); else the other side moves."""
    if state.over:
        return state
    if state.end_after_turn is not None and state.turn >= state.end_after_turn:
        return replace(state, over=True, end_reason="second deck ran out (11)")
    fresh = {side: replace(state.player(side), used=False, drawn=()) for side in SIDES}
    return replace(state, japan=fresh[JAPAN], us=fresh[US], turn=state.turn + 1,
                   turn_player=opponent(state.turn_player), rearmed_this_turn=False,
                   attacked_this_turn=False)


# --- ship status, capacity, game end ----------------------------------------------------------


def ship_status(game: Game, ship_state: ShipState) -> dict:
    """status (intact|medium|heavy|sunk), flight_ops and vp_box of a ship card in play."""
    if ship_state.sunk:
        return {"status": "sunk", "flight_ops": False, "vp_box": "sunk"}
    return damage_status(
        game,
        int(stat(game, ship_state.id, "deck_durability")),
        int(stat(game, ship_state.id, "side_durability")),
        ship_state.deck_damage,
        ship_state.side_damage,
        ship_state.disabled,
    )


def side_ships(state: State, game: Game, side: str) -> tuple[ShipState, ...]:
    """The ship cards of a side, sunk ones included."""
    return tuple(s for s in state.ships if owner(game, s.id) == side)


def capacity(state: State, game: Game, side: str) -> Counter:
    """Aircraft cards a side may play at once, per type: ③ of its ships that can still
    launch and recover (7, 7-4; CI16)."""
    total: Counter = Counter()
    for s in side_ships(state, game, side):
        if ship_status(game, s)["flight_ops"]:
            for key, aircraft in CAPACITY_STATS.items():
                total[aircraft] += int(stat(game, s.id, key, 0))
    return total


def check_capacity(state: State, game: Game, side: str, flown: Sequence[str],
                   rule: str = "7", room: Counter | None = None) -> None:
    """The types flown (one entry per card) fit the side's ③ capacity (``room``: that
    capacity when the caller has it already)."""
    room = capacity(state, game, side) if room is None else room
    for aircraft, count in Counter(flown).items():
        if count > room[aircraft]:
            raise RuleViolation(rule, f"{side} may play {room[aircraft]} {aircraft} card(s) "
                                      f"at once (ship cards ③), not {count}")


def carriers_out(state: State, game: Game, side: str) -> bool:
    """All of a side's carriers are 戦闘不能: 大破 or sunk (11)."""
    return all(ship_status(game, s)["status"] in ("heavy", "sunk")
               for s in side_ships(state, game, side))


def markers_in_use(state: State, game: Game) -> dict[str, int]:
    """Damage markers on the ship cards afloat: red (deck), blue (side), yellow (発着艦不能)
    (7-4); a sunk ship card leaves the table with its markers (CI28)."""
    afloat = [s for s in state.ships if not s.sunk]
    return {"damage-red": sum(s.deck_damage for s in afloat),
            "damage-blue": sum(s.side_damage for s in afloat),
            "disabled-yellow": sum(1 for s in afloat if s.disabled)}


def rearm_obligation_met(state: State, game: Game) -> bool:
    """False once the Japanese are on their second deck without the armament change(s)
    12-2 requires during the first deck (CI22)."""
    need = int(const(game, "min-armament-changes-first-deck"))
    return not (need and state.japan.deck_number > 1 and not state.rearmed_in_first_deck)


def base_heavy(state: State, game: Game) -> bool:
    """The Midway base has at least 大破 damage (12-4)."""
    return state.base_damage >= int(const(game, "base-heavy-damage"))


def check_game_end(state: State, game: Game) -> State:
    """End condition 2 (11): a side's carriers all out ends the game at once (C-E23),
    except US carriers out while the base is not yet 大破 (the game goes on)."""
    if state.over:
        return state
    if carriers_out(state, game, JAPAN):
        return replace(state, over=True, end_reason="all Japanese carriers out (11)")
    if carriers_out(state, game, US) and base_heavy(state, game):
        return replace(state, over=True, end_reason="all US carriers out (11)")
    return state


def score(state: State, game: Game) -> dict[str, int]:
    """VP at game end (11): ships sunk / 大破 / 中破 score for the opponent, each only its
    highest status; the base scores 10 (大破) or 20 (destroyed) for the Japanese."""
    from .common import base_status

    vp = {JAPAN: 0, US: 0}
    for s in state.ships:
        vp[opponent(owner(game, s.id))] += ship_vp(game, s.id, ship_status(game, s)["vp_box"])
    vp[JAPAN] += base_status(game, state.base_damage)["vp"]
    return vp


def winner(game: Game, japan_out: bool, us_out: bool, base_damage: int, japan_vp: int,
           us_vp: int) -> tuple[str, str]:
    """(winner: japan|us|draw, reason) at game end (11, 12-4, C-E21)."""
    base_ok = base_damage >= int(const(game, "base-heavy-damage"))
    if japan_out:
        return US, "all Japanese carriers out of action"
    if us_out:
        if base_ok:
            return JAPAN, "all US carriers out of action and the base heavily damaged"
        return "draw", "all US carriers out of action but the base not heavily damaged"
    if not base_ok:
        return US, "the Midway base is not heavily damaged: the Japanese lose"
    if japan_vp == us_vp:
        return "draw", "equal VP (assumed: the text does not cover a tie)"
    return (JAPAN if japan_vp > us_vp else US), "more VP"


def final_result(state: State, game: Game) -> dict:
    """Winner, reason and VP of a game in progress taken as ended now."""
    vp = score(state, game)
    who, why = winner(game, carriers_out(state, game, JAPAN), carriers_out(state, game, US),
                      state.base_damage, vp[JAPAN], vp[US])
    return {"winner": who, "reason": why, "japan_vp": vp[JAPAN], "us_vp": vp[US]}


# --- conservation ------------------------------------------------------------------------------


def card_census(state: State, game: Game) -> dict[str, Counter]:
    """Every card instance by pile, to check that none is lost or doubled (CI25)."""
    piles: dict[str, Counter] = {}
    for side in SIDES:
        p = state.player(side)
        piles[ACTION_DECK[side]] = Counter(p.deck + p.discard + tuple(
            c for c in p.hand if card(game, c).deck == ACTION_DECK[side]))
    piles[ARMAMENT_DECK] = Counter(state.armament_pile + tuple(
        c for c in state.japan.hand if card(game, c).deck == ARMAMENT_DECK))
    piles[SECONDARY_DECK] = Counter(state.secondary_deck + state.secondary_discard)
    return piles


def census_ok(state: State, game: Game) -> bool:
    """Each deck holds exactly its manifest's cards, each instance once."""
    for deck_id, counts in card_census(state, game).items():
        if sum(counts.values()) != deck_count(game, deck_id) or max(counts.values()) > 1:
            return False
        if set(counts) != set(instances(game, deck_id)):
            return False
    return True


def base_target(target: str) -> bool:
    """True when the target is the Midway base card."""
    return card_type(target) == BASE_ID
