"""Helpers of the midway-cards tests: states with chosen hands, CLI calls, a random driver."""

from __future__ import annotations

import json
import random
from dataclasses import replace

from click.testing import CliRunner
from warpress.cli import main
from warpress.engine.games.midway_cards import attack as atk
from warpress.engine.games.midway_cards import state as st
from warpress.engine.games.midway_cards.common import (
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


RUNNER = CliRunner()


def cli(*args):
    """Run ``warpress ARGS``; return (exit code, stdout, stderr)."""
    result = RUNNER.invoke(main, list(args))
    return result.exit_code, result.stdout, result.stderr


def cli_json(*args):
    """Run a query command with --json; return the parsed object (exit 0 required)."""
    code, out, err = cli(*args, "--json")
    assert code == 0, err
    return json.loads(out)


def random_attack(state, game, rng):
    """A legal attack of the turn player when he can make one: every A-capable card he
    may fly (③ capacity), no CAP, no defense, against the first enemy ship afloat."""
    side = state.turn_player
    room = st.capacity(state, game, side)
    plays = []
    for c in state.player(side).hand:
        if kind(game, c) == "aircraft" and "A" in missions(game, c):
            flown = flown_type(game, c, "A")
            if room[flown] > 0 and rng.random() < 0.8:
                room[flown] -= 1
                plays.append((c, "A"))
    targets = [s for s in st.side_ships(state, game, opponent(side)) if not s.sunk]
    if not plays or not targets:
        return state
    plan = atk.AttackPlan(plays=tuple(plays), target=targets[0].id)
    return atk.carrier_attack(state, game, plan)[0]


def play_random_turn(state, game, rng: random.Random):
    """One turn: draw, maybe attack, a random hand exchange, hand adjustment, end."""
    state = st.draw_phase(state, game)
    if rng.random() < 0.5:
        state = random_attack(state, game, rng)
    if state.over:
        return state
    hand = state.player(state.turn_player).hand
    swap = rng.sample(hand, min(len(hand), rng.randint(0, 3)))
    state = st.hand_exchange(state, game, swap)
    state = st.hand_adjustment(state, game)
    return st.end_turn(state, game)
