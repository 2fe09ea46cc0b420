"""The Fateful Midway Card Game in a session (rules/session.py): whole games by random agents
from several seeds to a verdict with the invariants at every step, the same seed replaying
the same game, every decision of the rules met, and each action the rules forbid refused
with its rule."""

from __future__ import annotations

from collections import Counter

import pytest
from mc_session import RULES, apply, at_attack, legal, play_watched, refusal
from warpress.engine.dice import SeededDice, derived_seed
from warpress.games.midway_cards.rules import session as ses
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.common import ARMAMENT_DECK, card
from warpress.games.midway_cards.rules.moves import Run
from warpress.games.midway_cards.rules.positions import cards, pile, to_state

SEEDS = range(10)


def step_checks(game):
    """Rule invariants of one step (CI numbers of the game's invariants), beyond the
    whole-game ones: the hand limit after an adjustment (CI1), damage that only 応急修理
    lowers (CI14), permanent 発着艦不能 and sinking (CI15, CI17), 「兵装変更中」 only with an
    armament-change card in hand (CI20), no Japanese win without the base 大破 (CI27)."""
    limit = game.constant("hand-limit")

    def each(before, action, after):
        state = to_state(game, after)
        if state.rearming:
            assert any(card(game, c).deck == ARMAMENT_DECK for c in state.japan.hand)
        if after.verdict is not None and after.verdict.winner == "japan":
            assert st.base_heavy(state, game)
        if before is None:
            return
        old = to_state(game, before)
        if before.phase == "hand-adjustment" and after.phase != "hand-adjustment":
            assert all(len(old.player(s).hand) <= limit or len(state.player(s).hand) <= limit
                       for s in ("japan", "us"))
            assert all(len(cards(after, pile(s, "hand"))) <= limit + 2 for s in ("japan", "us"))
        repaired = action[0] == "emergency-repair"
        for a, b in zip(old.ships, state.ships, strict=True):
            assert b.sunk or not a.sunk, f"{a.id} came back from the bottom"
            assert b.disabled or not a.disabled, f"{a.id} lost its yellow marker"
            if not repaired:
                assert (b.deck_damage, b.side_damage) >= (a.deck_damage, 0)
                assert b.side_damage >= a.side_damage
        if not repaired:
            assert state.base_damage >= old.base_damage

    return each


@pytest.mark.parametrize("seed", SEEDS)
def test_random_agents_play_to_a_verdict(game, seed):
    played, positions = play_watched(game, seed, step_checks(game))
    assert played.stopped == "over"
    verdicts = [p for p in positions if p.verdict is not None]
    assert verdicts and all(p.verdict == verdicts[0].verdict for p in verdicts)
    verdict = played.position.verdict
    assert verdict.condition in {v.id for v in game.victory}
    assert verdict.rule and verdict.reason
    assert RULES.decision(game, played.position) is None
    summary = RULES.summary(game, played.position)
    assert summary["result"] in ("win", "draw") and set(summary["vp"]) == {"japan", "us"}


def test_after_every_hand_adjustment_the_hands_hold_the_limit(game):
    """CI1: at the end of every turn (a new turn's draw phase not yet counted) each player
    holds at most the hand limit, the turn player exactly it while his deck lasts."""
    limit = game.constant("hand-limit")
    seen = []

    def each(before, action, after):
        if before is not None and after.turn == before.turn + 1 and after.verdict is None:
            old = to_state(game, before)
            ended = before.side
            hand = len(cards(after, pile(ended, "hand")))
            seen.append(hand)
            if old.player(ended).deck_number == 1:
                assert hand == limit, (action, hand)
            assert len(cards(after, pile(after.side, "hand"))) <= limit + 2

    for seed in SEEDS[:4]:
        play_watched(game, seed, each)
    assert len(seen) > 40


def test_every_decision_and_action_is_met(game):
    """Across the seeds the agents meet every decision of the rules and make every action
    but the two a hand rarely allows (redraw, extra-draw: tested on their own below)."""
    kinds, actions = Counter(), Counter()

    def each(before, action, after):
        if before is not None:
            kinds[before.due.kind] += 1
            actions[action[0]] += 1

    for seed in SEEDS:
        play_watched(game, seed, each)
    assert set(kinds) == set(ses.KINDS)
    assert set(actions) == set(ses.HANDLERS) - {"redraw", "extra-draw"}


@pytest.mark.parametrize("seed", [2, 9])
def test_the_same_seed_plays_the_same_game(game, seed):
    trails = []
    for _ in range(2):
        played, positions = play_watched(game, seed)
        trails.append([p.digest() for p in positions])
    assert trails[0] == trails[1] and len(trails[0]) > 50


def test_a_playout_replays_step_by_step(game):
    """The actions of a playout applied again, with each step's dice as a session draws
    them, give the same positions, byte for byte."""
    played, positions = play_watched(game, 4)
    position = RULES.new(game, ses.SCENARIO, SeededDice(derived_seed(4, 0))).state
    assert position.canonical() == positions[0].canonical()
    for n, (name, args) in enumerate(played.actions, 1):
        position = RULES.apply(game, position, name, args, SeededDice(derived_seed(4, n))).state
        assert position.canonical() == positions[n].canonical()


# --- the set-up and the draw phase ---------------------------------------------------------


def _opening(game, seed):
    return RULES.new(game, ses.SCENARIO, SeededDice(seed)).state


def test_set_up_deals_seven_and_six_and_asks_the_japanese_first(game):
    position = _opening(game, 3)
    assert (len(cards(position, "japan.hand")), len(cards(position, "us.hand"))) == (7, 6)
    assert (len(cards(position, "japan.deck")), len(cards(position, "us.deck"))) == (25, 26)
    assert (position.due.kind, position.due.side) == ("opening", "japan")
    position, _ = apply(game, position, ("keep", {}))
    assert (position.due.kind, position.due.side) == ("opening", "us")
    position, said = apply(game, position, ("keep", {}))
    assert position.turn == 1 and position.due.kind == "attack" and position.side == "japan"
    assert len(cards(position, "japan.hand")) == 7, "no draw phase on the first turn (5-1)"
    assert any("no draw phase" in s for s in said)


def _hand_without_attack_card(game):
    """A seed whose Japanese opening hand holds no aircraft card able to fly A."""
    for seed in range(4000):
        position = _opening(game, seed)
        if not st.has_attack_card(game, cards(position, "japan.hand")):
            return position
    pytest.fail("no such opening in 4000 seeds")


def test_an_opening_hand_without_attack_card_may_be_redrawn_once(game):
    position = _hand_without_attack_card(game)
    assert ("redraw", {}) in legal(game, position)
    after, said = apply(game, position, ("redraw", {}))
    assert after.due.side == "us" and any("redraws" in s for s in said)
    assert len(cards(after, "japan.hand")) == 7
    assert sorted(cards(after, "japan.hand") + cards(after, "japan.deck")) == sorted(
        cards(position, "japan.hand") + cards(position, "japan.deck"))


def test_an_opening_hand_with_an_attack_card_is_kept(game):
    position = _opening(game, 3)
    assert st.has_attack_card(game, cards(position, "japan.hand"))
    assert legal(game, position) == [("keep", {})]
    assert refusal(game, position, "redraw").rule == "6"


def test_the_extra_draw_reveals_a_hand_of_defense_and_tactics(game):
    hand = ("j-evasion-a#1", "j-aa-b#1", "j-aircraft-repair#1")
    position = at_attack(game, japan_hand=hand)
    position = Run(game, position)
    position.set(extra_open=True)
    position = position.pos
    assert ("extra-draw", {}) in legal(game, position)
    after, said = apply(game, position, ("extra-draw", {}))
    assert len(cards(after, "japan.hand")) == 4
    assert any("reveals the hand (j-evasion-a#1, j-aa-b#1, j-aircraft-repair#1)" in s
               for s in said)
    assert refusal(game, after, "extra-draw").rule == "5-1", "once, and only first"


def test_no_extra_draw_with_an_aircraft_card_in_hand(game):
    run = Run(game, at_attack(game, japan_hand=("j-evasion-a#1", "j-zero#1")))
    run.set(extra_open=True)
    assert ("extra-draw", {}) not in legal(game, run.pos)
    assert refusal(game, run.pos, "extra-draw").rule == "5-1"


def test_a_finished_game_refuses_every_action(game):
    played, _ = play_watched(game, 3)
    error = refusal(game, played.position, "pass")
    assert "the game is over" in str(error)
