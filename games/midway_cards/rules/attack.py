"""Attack steps on a game in progress: carrier attack (7), armament change (12-2),
base attack (12-1), and the tactics cards 応急修理 / 損傷機修理 (10).

Each step takes a ``State`` and what the players chose, and returns the new state and a
report of what happened; cards move between hands, discard piles and decks so that no
card is lost or doubled (``state.census_ok``).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace

from warpress.engine.errors import RuleViolation
from warpress.engine.model import Game

from . import combat
from .common import (
    BASE_ID,
    JAPAN,
    US,
    card,
    const,
    destroys,
    flown_type,
    kind,
    opponent,
    owner,
    stat,
)
from .state import (
    ShipState,
    State,
    carriers_out,
    check_capacity,
    check_game_end,
    discard_from_hand,
    rearming_check,
    ship_status,
    take_from_hand,
    to_discard,
    with_player,
    with_ship,
)


@dataclass(frozen=True)
class AttackPlan:
    """What the players chose for one aircraft attack (7).

    ``plays``: the attacker's cards in play order with the mission declared (F / A);
    ``cap``: the defender's CAP cards answering them in order (the list ends where he
    passes); ``target``: one ship card id, or a mapping card -> ship (US, 12-3);
    ``defense``: attacking card -> the defense card played against it (an answer to a
    card removed in air combat is not played: the card stays in hand);
    ``keep_winners`` / ``cap_keep_winners``: the attacker's / the defender's F cards that
    won go back to hand (else they are discarded); ``ditched``: winners discarded all the
    same (7-1-2: each player chooses, card by card).
    """

    plays: tuple[tuple[str, str], ...]
    cap: tuple[str, ...] = ()
    target: str | Mapping[str, str] = ""
    defense: Mapping[str, str] = field(default_factory=dict)
    keep_winners: bool = True
    cap_keep_winners: bool = True
    ditched: tuple[str, ...] = ()


@dataclass(frozen=True)
class AttackReport:
    """What an attack did: air combat, defense, hits and ships sunk."""

    pairing: combat.Pairing | None
    stopped: tuple[str, ...]
    hits: tuple[combat.Hit, ...]
    sunk: tuple[str, ...] = ()


def _check_turn(state: State, side: str, rule: str, what: str) -> None:
    """The game goes on and it is ``side``'s turn, else RuleViolation(rule)."""
    if state.over:
        raise RuleViolation("11", f"the game is over ({state.end_reason})")
    if state.turn_player != side:
        raise RuleViolation(rule, f"{what} only in the {side} turn (now: {state.turn_player})")


def _check_one_attack(state: State) -> None:
    """One attack per aircraft attack phase: a ship attack or a base attack (5-1, C-E12)."""
    if state.attacked_this_turn:
        raise RuleViolation("5-1", "this turn's aircraft attack has been made already")


def draw_secondary(state: State, game: Game) -> tuple[State, str]:
    """Draw the top secondary-damage card; an empty deck is reshuffled from its discard
    pile when ``secondary-damage-reshuffle`` (assumed) says so."""
    if not state.secondary_deck:
        if not (const(game, "secondary-damage-reshuffle") and state.secondary_discard):
            raise RuleViolation("7-4", "no secondary-damage card left to draw")
        from .state import _shuffled

        deck = _shuffled(state.secondary_discard, state.seed, state.shuffles)
        state = replace(state, secondary_deck=deck, secondary_discard=(),
                        shuffles=state.shuffles + 1)
    top = state.secondary_deck[0]
    return replace(state, secondary_deck=state.secondary_deck[1:]), top


def resolve_hits(state: State, game: Game, targets: Mapping[str, str],
                 through: Sequence[str]) -> tuple[State, tuple[combat.Hit, ...]]:
    """One secondary-damage card per card that got through (7-4; CI11)."""
    hits = []
    for c in through:
        state, secondary = draw_secondary(state, game)
        hits.append(combat.hit(game, c, targets[c], secondary, state.rearming))
        state = to_discard(state, game, [secondary])
    return state, tuple(hits)


def damage_ship(state: State, game: Game, attacker: str, ship_id: str,
                hits: Sequence[combat.Hit]) -> tuple[State, bool]:
    """Add the summed damage of the hits to one ship card; sink it when a durability is
    reached (7-4, C-E1): the attacker takes the card. Returns (state, sunk)."""
    s = state.ship(ship_id)
    deck = s.deck_damage + sum(h.damage for h in hits if h.kind == "bombing")
    side = s.side_damage + sum(h.damage for h in hits if h.kind == "torpedo")
    sunk = destroys(game, int(stat(game, ship_id, "deck_durability")), deck) or destroys(
        game, int(stat(game, ship_id, "side_durability")), side)
    disabled = s.disabled or any(h.disabled for h in hits)
    state = with_ship(state, ShipState(ship_id, deck, side, disabled, sunk))
    if sunk:
        p = state.player(attacker)
        state = with_player(state, replace(p, captured=p.captured + (ship_id,)))
    return state, sunk


def check_targets(state: State, game: Game, side: str, targets: Mapping[str, str]) -> None:
    """Every target is an enemy ship card afloat (7-2), never the base."""
    for c, t in targets.items():
        if t == BASE_ID:
            raise RuleViolation("12-1", f"{c!r}: the Midway base is attacked with a base "
                                        "attack (12-1), not an aircraft attack")
        s = state.ship(t)
        if owner(game, t) == side or s.sunk:
            raise RuleViolation("7-2", f"{t!r} is not an enemy ship card afloat")


def _play_cards(state: State, side: str, cards: Sequence[str], rule: str) -> State:
    """Cards leave a hand for the table; the player has used cards this turn (9)."""
    if not cards:
        return state
    state = take_from_hand(state, side, cards, rule)
    return with_player(state, replace(state.player(side), used=True))


def carrier_attack(state: State, game: Game, plan: AttackPlan) -> tuple[State, AttackReport]:
    """The aircraft attack phase of the turn player against enemy ship cards (7)."""
    side = state.turn_player
    _check_turn(state, side, "7", "an aircraft attack")
    _check_one_attack(state)
    if state.turn == 1:
        raise RuleViolation("12-1", "the game's first turn is the Japanese attack on Midway")
    enemy = opponent(side)
    combat.check_plays(game, plan.plays)
    check_capacity(state, game, side, [flown_type(game, c, m) for c, m in plan.plays], "7")
    if const(game, "cap-limited-by-ship-aircraft"):
        check_capacity(state, game, enemy, [flown_type(game, c, "F") for c in plan.cap], "7-1")
    attack_cards = [c for c, _ in plan.plays]
    state = _play_cards(state, side, attack_cards, "7-1-1")
    state = _play_cards(state, enemy, plan.cap, "7-1-1")
    pairing = combat.air_combat(game, plan.plays, plan.cap, plan.keep_winners,
                                plan.cap_keep_winners, plan.ditched)
    state = to_discard(state, game, pairing.removed)
    state = _back_to_hand(state, game, pairing.returned)
    state = replace(state, attacked_this_turn=True)
    if not pairing.attackers:
        return check_game_end(state, game), AttackReport(pairing, (), ())
    targets = combat.assign_targets(game, side, pairing.attackers, plan.target)
    check_targets(state, game, side, targets)
    answers = {a: d for a, d in plan.defense.items() if a in targets}
    state = _play_cards(state, enemy, list(answers.values()), "7-3")
    stopped, through = combat.defend(game, targets, answers)
    state = to_discard(state, game, list(answers.values()))
    state, hits = resolve_hits(state, game, targets, through)
    sunk = []
    for ship_id in dict.fromkeys(targets[c] for c in through):
        state, gone = damage_ship(state, game, side, ship_id,
                                  [h for h in hits if h.target == ship_id])
        if gone:
            sunk.append(ship_id)
    state = to_discard(state, game, pairing.attackers)  # 7-4, 7-5: all attacking cards
    return check_game_end(state, game), AttackReport(pairing, stopped, hits, tuple(sunk))


def _back_to_hand(state: State, game: Game, cards: Sequence[str]) -> State:
    """Cards go back to their owners' hands (7-1-2, 7-5)."""
    for c in cards:
        p = state.player(owner(game, c))
        state = with_player(state, replace(p, hand=p.hand + (c,)))
    return state


# --- armament change and the Midway base (12) ------------------------------------------------


def rearm(state: State, game: Game, cards: Sequence[str]) -> State:
    """Armament change (12-2): discard 99艦爆 / 97艦攻 cards, take as many same-type
    armament-change cards into hand, put 「兵装変更中」 on the table."""
    _check_turn(state, JAPAN, "12-2", "armament change")
    if not cards:
        return state
    per_card = int(const(game, "armament-change-ratio"))
    pile = list(state.armament_pile)
    taken: list[str] = []
    for c in cards:
        matching = [a for a in pile if stat(game, a, "replaces") == card(game, c).id]
        if not matching:
            raise RuleViolation("12-2", f"{c!r} cannot be re-armed (no armament-change card "
                                        "of its type left, or not a 99艦爆 / 97艦攻 card)")
        for a in matching[:per_card]:
            pile.remove(a)
            taken.append(a)
    state = take_from_hand(state, JAPAN, cards, "12-2")
    state = to_discard(state, game, cards)
    p = state.japan
    state = with_player(state, replace(p, hand=p.hand + tuple(taken)))
    return replace(state, armament_pile=tuple(pile), rearming=True, rearmed_this_turn=True,
                   rearmed_in_first_deck=state.rearmed_in_first_deck or p.deck_number == 1)


def base_attack(state: State, game: Game, cards: Sequence[str],
                defense: Mapping[str, str] | None = None) -> tuple[State, AttackReport]:
    """A Japanese attack on the Midway base (12-1 steps 2-6).

    Re-armed cards (and 零戦 cards) attack; only AA cards defend, no interception; every
    card reads the bombing result; 飛行甲板使用不能 adds only +1; the cards are removed,
    armament-change cards back to their pile.
    """
    _check_turn(state, JAPAN, "12-1", "a base attack")
    _check_one_attack(state)
    defense = dict(defense or {})
    if not cards:
        raise RuleViolation("12-1", "a base attack needs at least one card")
    combat.check_attackers(game, cards, BASE_ID)
    flown = [flown_type(game, c, "A") if kind(game, c) == "aircraft"
             else str(stat(game, c, "aircraft_type")) for c in cards]
    check_capacity(state, game, JAPAN, flown, "12-1")
    state = _play_cards(state, JAPAN, cards, "12-1")
    state = _play_cards(state, US, list(defense.values()), "12-1")
    targets = {c: BASE_ID for c in cards}
    stopped, through = combat.defend(game, targets, defense)
    state = to_discard(state, game, list(defense.values()))
    state, hits = resolve_hits(state, game, targets, through)
    state = replace(state, base_damage=state.base_damage + sum(h.damage for h in hits),
                    attacked_this_turn=True)
    state = to_discard(state, game, cards)
    state = rearming_check(state, game)
    return check_game_end(state, game), AttackReport(None, stopped, hits)


def finish_attack_phase(state: State, game: Game, discard: str | None = None) -> State:
    """A Japanese turn with armament change only (no attack) discards the card drawn
    this turn (12-2); ``discard`` names another card when that one is gone."""
    if not (state.turn_player == JAPAN and state.rearmed_this_turn
            and not state.attacked_this_turn):
        return state
    need = int(const(game, "rearm-only-turn-discard"))
    drawn = [c for c in state.japan.drawn if c in state.japan.hand]
    chosen = [discard] if discard else drawn[:need]
    if len(chosen) != need:
        raise RuleViolation("12-2", f"a turn with armament change only discards {need} "
                                    "card(s): name the card")
    return discard_from_hand(state, game, JAPAN, chosen, "12-2")


# --- tactics cards (10) -------------------------------------------------------------------------


def _is(game: Game, c: str, name_ja: str) -> bool:
    """True when a card is the tactics card of that Japanese name."""
    return card(game, c).name_ja == name_ja


def emergency_repair(state: State, game: Game,
                     repairs: Sequence[tuple[str, str, str]]) -> State:
    """応急修理 (10-2): each (card, target, colour) removes 1 damage of that colour
    (deck|side; the base has one kind) from a damaged US ship card or the base.

    US only, in the US turn; never on an undamaged card; 発着艦不能 stays (4).
    """
    _check_turn(state, US, "10-2", "応急修理")
    per_card = int(const(game, "emergency-repair-per-card"))
    for c, target, colour in repairs:
        if not _is(game, c, "応急修理") or owner(game, c) != US:
            raise RuleViolation("10-2", f"{c!r} is not a US 応急修理 card")
        state = take_from_hand(state, US, [c], "10-2")
        state = with_player(state, replace(state.us, used=True))
        state = _repair_one(state, game, target, colour, per_card)
        state = to_discard(state, game, [c])
    return state


def _repair_one(state: State, game: Game, target: str, colour: str, amount: int) -> State:
    """Remove ``amount`` damage of one colour from the base or a damaged US ship."""
    if target == BASE_ID:
        if state.base_damage <= 0:
            raise RuleViolation("10-2", "the Midway base has no damage to repair")
        return replace(state, base_damage=max(0, state.base_damage - amount))
    s = state.ship(target)
    if owner(game, target) != US or s.sunk:
        raise RuleViolation("10-2", f"{target!r} is not a US ship card afloat")
    if s.damage <= 0:
        raise RuleViolation("10-2", f"{target!r} has no damage: 応急修理 cannot be used on an "
                                    "undamaged ship card")
    field_name = {"deck": "deck_damage", "side": "side_damage"}.get(colour)
    if field_name is None:
        raise RuleViolation("10-2", f"colour {colour!r} is not deck or side")
    if getattr(s, field_name) <= 0:
        raise RuleViolation("10-2", f"{target!r} has no {colour} damage")
    return with_ship(state, replace(s, **{field_name: max(0, getattr(s, field_name) - amount)}))


def aircraft_repair(state: State, game: Game, repair_card: str, take: str) -> State:
    """損傷機修理 (10-1): in his own turn a player takes 1 aircraft card from his
    discard pile into his hand."""
    side = owner(game, repair_card)
    _check_turn(state, side, "10", "損傷機修理")
    if not _is(game, repair_card, "損傷機修理"):
        raise RuleViolation("10-1", f"{repair_card!r} is not a 損傷機修理 card")
    if side == US and carriers_out(state, game, US):
        raise RuleViolation("11", "with every US carrier out of action the US may use only "
                                  "defense cards and 応急修理")
    p = state.player(side)
    if take not in p.discard or kind(game, take) != "aircraft":
        raise RuleViolation("10-1", f"{take!r} is not an aircraft card in the {side} "
                                    "discard pile")
    state = take_from_hand(state, side, [repair_card], "10-1")
    p = state.player(side)
    p = replace(p, discard=tuple(c for c in p.discard if c != take), hand=p.hand + (take,),
                used=True)
    state = with_player(state, p)
    return to_discard(state, game, [repair_card])


def status_of(state: State, game: Game, ship_id: str) -> dict:
    """Ship status of a ship card in play (convenience for reports and tests)."""
    return ship_status(game, state.ship(ship_id))
