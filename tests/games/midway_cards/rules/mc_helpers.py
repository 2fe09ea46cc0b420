"""Helpers of the midway-cards tests: states with chosen hands, a random driver."""

from __future__ import annotations

import random
from dataclasses import replace

from warpress.games.midway_cards.rules import attack as atk
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.common import (
    ACTION_DECK,
    JAPAN,
    SECONDARY_DECK,
    US,
    flown_type,
    instances,
    kind,
    missions,
    opponent,
)


def state_with(game, japan_hand=(), us_hand=(), secondary_top=(), **changes):
    """A new game (unshuffled) whose hands are exactly the given card instances; the
    other action cards stay in the decks, ``secondary_top`` lies on the secondary deck."""
    base = st.new_game(game, seed=0, shuffle=False)
    players = {}
    for side, hand in ((JAPAN, japan_hand), (US, us_hand)):
        every = instances(game, ACTION_DECK[side])
        players[side] = st.Player(side, deck=tuple(c for c in every if c not in hand),
                                  hand=tuple(hand))
    secondary = instances(game, SECONDARY_DECK)
    top = tuple(secondary_top)
    deck = top + tuple(c for c in secondary if c not in top)
    pile = tuple(c for c in base.armament_pile if c not in japan_hand)
    return replace(base, japan=players[JAPAN], us=players[US], secondary_deck=deck,
                   armament_pile=pile, **changes)


def _pick(cards, room, flown, rng, chance):
    """Cards that fit the ③ capacity ``room`` (a Counter, updated), each with ``chance``."""
    chosen = []
    for c in cards:
        if room[flown(c)] > 0 and rng.random() < chance:
            room[flown(c)] -= 1
            chosen.append(c)
    return chosen


def random_attack(state, game, rng):
    """A legal attack of the turn player when he can make one: random escorts (F), attack
    cards (A) within the ③ capacity, random CAP and defense cards of the defender, against
    one enemy ship afloat."""
    side = state.turn_player
    enemy = opponent(side)
    targets = [s for s in st.side_ships(state, game, enemy) if not s.sunk]
    hand = state.player(side).hand
    room = st.capacity(state, game, side)
    fighters = [c for c in hand if kind(game, c) == "aircraft" and "F" in missions(game, c)
                and flown_type(game, c, "A") == "fighter"]
    escorts = _pick(fighters, room, lambda c: "fighter", rng, 0.3)
    strikers = [c for c in hand if c not in escorts and kind(game, c) == "aircraft"
                and "A" in missions(game, c)]
    attackers = _pick(strikers, room, lambda c: flown_type(game, c, "A"), rng, 0.8)
    if not attackers or not targets:
        return state
    plays = tuple((c, "F") for c in escorts) + tuple((c, "A") for c in attackers)
    enemy_hand = state.player(enemy).hand
    cap_room = st.capacity(state, game, enemy)
    cap = _pick([c for c in enemy_hand if kind(game, c) == "aircraft"
                 and "F" in missions(game, c)], cap_room, lambda c: "fighter", rng, 0.6)
    cap = cap[:len(plays)]
    target = rng.choice(targets).id
    level = game.get("cards", target).stats.get("defense_level", "A")
    ranks = {lv: n for n, lv in enumerate(game.constant("defense-levels"))}
    usable = [c for c in enemy_hand if kind(game, c) == "defense"
              and ranks[str(game.get("cards", c.split("#")[0]).stats["level"])] >= ranks[level]]
    defense = dict(zip(attackers, rng.sample(usable, min(len(usable), len(attackers))),
                       strict=False))
    plan = atk.AttackPlan(plays=plays, cap=tuple(cap), target=target, defense=defense,
                          keep_winners=rng.random() < 0.8)
    return atk.carrier_attack(state, game, plan)[0]


def random_base_attack(state, game, rng):
    """The Japanese re-arm some bombers and attack the base with them and some Zeros; the
    US answers with AA cards."""
    hand = state.japan.hand
    bombers = [c for c in hand if c.startswith(("j-d3a", "j-b5n"))]
    state = atk.rearm(state, game, [c for c in bombers if rng.random() < 0.7])
    room = st.capacity(state, game, JAPAN)
    ready = [c for c in state.japan.hand if c.startswith(("ac-", "j-zero"))]
    flown = {c: ("bomber" if c.startswith("j-zero") else
                 str(game.get("cards", c.split("#")[0]).stats["aircraft_type"])) for c in ready}
    cards = _pick(ready, room, flown.get, rng, 0.8)
    if not cards:
        if not state.japan.drawn:
            return state
        # 12-2: the card drawn this turn, or another one when re-arming used it up
        drawn = [c for c in state.japan.drawn if c in state.japan.hand]
        spare = None if drawn or not state.japan.hand else rng.choice(state.japan.hand)
        return atk.finish_attack_phase(state, game, spare)
    aa = [c for c in state.us.hand if c.startswith("us-aa")]
    defense = dict(zip(cards, rng.sample(aa, min(len(aa), len(cards))), strict=False))
    return atk.base_attack(state, game, cards, defense)[0]


def play_random_turn(state, game, rng: random.Random, after_adjustment=None):
    """One turn: draw, maybe attack, a random hand exchange, hand adjustment, end.
    ``after_adjustment(state)`` is called on the state right after the hand adjustment."""
    state = st.draw_phase(state, game)
    if state.turn_player == JAPAN and (state.turn == 1 or rng.random() < 0.15):
        state = random_base_attack(state, game, rng)
    elif rng.random() < 0.5:
        state = random_attack(state, game, rng)
    if state.over:
        return state
    hand = state.player(state.turn_player).hand
    swap = rng.sample(hand, min(len(hand), rng.randint(0, 3)))
    state = st.hand_exchange(state, game, swap)
    state = st.hand_adjustment(state, game)
    if after_adjustment is not None:
        after_adjustment(state)
    return st.end_turn(state, game)
