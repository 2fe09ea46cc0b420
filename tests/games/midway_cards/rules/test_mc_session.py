"""The Fateful Midway Card Game in a session (rules/session.py): whole games by random agents
from several seeds to a verdict with the invariants at every step, the same seed replaying
the same game, every decision of the rules met, and each action the rules forbid refused
with its rule."""

from __future__ import annotations

from collections import Counter

import pytest
from mc_session import RULES, apply, at_attack, legal, play_watched, refusal, with_state
from warpress.engine.dice import SeededDice, derived_seed
from warpress.engine.errors import BadInput
from warpress.games.midway_cards.rules import session as ses
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.common import ARMAMENT_DECK, BASE_ID, card
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


def test_every_listed_answer_is_accepted(game):
    """Each answer listed at a decision is accepted, not only the ones an agent picked."""
    _played, positions = play_watched(game, 6)
    checked = 0
    for position in positions[:: max(1, len(positions) // 40)]:
        if position.verdict is not None:
            continue
        for name, args in legal(game, position)[:60]:
            RULES.apply(game, position, name, args, SeededDice(1))
            checked += 1
    assert checked > 200


def test_position_json_round_trip(game):
    _played, positions = play_watched(game, 1)
    for position in positions[::25]:
        again = RULES.load(game, RULES.dump(position))
        assert again == position and again.digest() == position.digest()


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
    position = ses.Run(game, position)
    position.set(extra_open=True)
    position = position.pos
    assert ("extra-draw", {}) in legal(game, position)
    after, said = apply(game, position, ("extra-draw", {}))
    assert len(cards(after, "japan.hand")) == 4
    assert any("reveals the hand (j-evasion-a#1, j-aa-b#1, j-aircraft-repair#1)" in s
               for s in said)
    assert refusal(game, after, "extra-draw").rule == "5-1", "once, and only first"


def test_no_extra_draw_with_an_aircraft_card_in_hand(game):
    run = ses.Run(game, at_attack(game, japan_hand=("j-evasion-a#1", "j-zero#1")))
    run.set(extra_open=True)
    assert ("extra-draw", {}) not in legal(game, run.pos)
    assert refusal(game, run.pos, "extra-draw").rule == "5-1"


# --- refusals: each names its rule ------------------------------------------------------


J_ZERO, J_D3A, J_B5N = "j-zero#1", "j-d3a#1", "j-b5n#1"
US_F4F, US_SBD, US_AA = "us-f4f#1", "us-sbd#1", "us-aa-a#1"


@pytest.fixture
def japan_turn(game):
    return at_attack(game, (J_ZERO, "j-zero#2", J_D3A, "j-d3a#2", J_B5N, "j-evasion-c#1"),
                     (US_F4F, "us-f4f#2", US_SBD, US_AA, "us-evasion-c#1", "us-tbd#1"))


@pytest.mark.parametrize(("commands", "rule"), [
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}),
      ("fly", {"card": J_ZERO, "mission": "F"})], "7-1-1"),      # F after A
    ([("fly", {"card": J_D3A, "mission": "F"})], "3-3"),           # a bomber cannot fly F
    ([("fly", {"card": "j-evasion-c#1", "mission": "A"})], "7-1"),  # not an aircraft card
    ([("fly", {"card": US_SBD, "mission": "A"})], "7-1-1"),        # the enemy's card
    ([("fly", {"card": J_ZERO, "mission": "F"}), ("pass", {}), ("launch", {})], "7-1-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("cap", {"card": US_SBD})], "7-1-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("cap", {"card": J_ZERO})], "7-1-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": "akagi"})], "7-2"),                       # own ship
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": BASE_ID})], "12-1"),
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": "yorktown"}), ("defend", {"card": J_D3A, "defense": "us-tbd#1"})],
     "7-3"),
    ([("raid", {"card": J_D3A})], "12-2"),                          # not re-armed
    ([("rearm", {"card": J_ZERO})], "12-2"),                        # a Zero is not re-armed
    ([("raid", {"card": J_ZERO}), ("launch", {}), ("defend", {"card": J_ZERO,
                                                              "defense": "us-evasion-c#1"})],
     "12-4"),
    ([("pass", {}), ("exchange", {"cards": f"{J_ZERO},{J_D3A},{J_B5N},j-zero#2"})], "8"),
    ([("repair-aircraft", {"card": J_ZERO, "take": J_D3A})], "10-1"),  # not 損傷機修理
    ([("keep", {})], "5-1"),                                        # not this decision
    ([("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}), ("launch", {}),
      ("target", {"ship": "yorktown"}), ("pass", {}),
      ("fly", {"card": J_B5N, "mission": "A"})], "8"),              # not the exchange's
])
def test_forbidden_actions_are_refused_with_their_rule(game, japan_turn, commands, rule):
    position, _ = apply(game, japan_turn, *commands[:-1])
    name, args = commands[-1]
    assert refusal(game, position, name, args).rule == rule


def _disabled(position, game, *ship_ids):
    state = to_state(game, position)
    ships = tuple(st.replace(s, disabled=True) if s.id in ship_ids else s for s in state.ships)
    return with_state(game, position, ships=ships)


def test_the_ship_cards_limit_the_aircraft_flown_at_once(game, japan_turn):
    """③ of the carriers still able to launch: with three Japanese carriers 発着艦不能 one
    bomber flies; with two US carriers 発着艦不能 one CAP card answers (7, 7-4)."""
    position = _disabled(japan_turn, game, "kaga", "hiryu", "soryu")
    position, _ = apply(game, position, ("fly", {"card": J_D3A, "mission": "A"}), ("pass", {}))
    assert refusal(game, position, "fly", {"card": "j-d3a#2", "mission": "A"}).rule == "7"
    assert refusal(game, position, "fly", {"card": J_ZERO, "mission": "A"}).rule == "7"
    assert ("fly", {"card": J_B5N, "mission": "A"}) in legal(game, position)
    us = _disabled(japan_turn, game, "hornet", "yorktown")
    us, _ = apply(game, us, ("fly", {"card": J_ZERO, "mission": "F"}), ("cap", {"card": US_F4F}),
                  ("fly", {"card": "j-zero#2", "mission": "F"}))
    assert refusal(game, us, "cap", {"card": "us-f4f#2"}).rule == "7-1"
    assert legal(game, us) == [("pass", {})]


def test_an_escort_flies_only_while_an_a_card_can_follow(game):
    """7-1-1: the attack needs an A card; F cards that would leave none are not flown."""
    position = at_attack(game, (J_ZERO, "j-evasion-c#1"), (US_F4F,))
    assert refusal(game, position, "fly", {"card": J_ZERO, "mission": "F"}).rule == "7-1-1"
    assert ("fly", {"card": J_ZERO, "mission": "A"}) in legal(game, position)
    two = at_attack(game, (J_ZERO, "j-zero#2"), (US_F4F,))
    assert ("fly", {"card": J_ZERO, "mission": "F"}) in legal(game, two)


def test_one_attack_a_turn(game, japan_turn):
    position, _ = apply(game, japan_turn, ("raid", {"card": J_ZERO}), ("launch", {}),
                        ("pass", {}))
    assert position.due.kind == "exchange"
    position = ses.Run(game, position)
    position.due("attack", "japan")
    assert refusal(game, position.pos, "fly", {"card": "j-zero#2", "mission": "A"}).rule \
        == "5-1"


def test_the_first_turn_attacks_only_the_base(game):
    position = at_attack(game, (J_ZERO, J_D3A), (US_F4F,), turn=1)
    assert refusal(game, position, "fly", {"card": J_D3A, "mission": "A"}).rule == "12-1"
    assert {n for n, _ in legal(game, position)} == {"rearm", "raid", "pass"}


def test_the_us_cannot_raid_its_own_base(game):
    position = at_attack(game, (J_ZERO,), (US_SBD, US_F4F), turn=4, turn_player="us")
    error = refusal(game, position, "raid", {"card": US_SBD})
    assert error.rule == "7" and "only the Japanese attack it" in str(error)
    assert refusal(game, position, "rearm", {"card": US_SBD}).rule == "12-2"


def test_only_the_us_splits_its_targets(game, japan_turn):
    position, _ = apply(game, japan_turn, ("fly", {"card": J_D3A, "mission": "A"}),
                        ("pass", {}), ("fly", {"card": J_B5N, "mission": "A"}), ("launch", {}))
    assert refusal(game, position, "target", {"ship": "yorktown", "card": J_D3A}).rule == "7-2"
    us = at_attack(game, (J_ZERO,), (US_SBD, "us-tbd#1"), turn=4, turn_player="us")
    us, _ = apply(game, us, ("fly", {"card": US_SBD, "mission": "A"}), ("pass", {}),
                  ("fly", {"card": "us-tbd#1", "mission": "A"}), ("launch", {}),
                  ("target", {"ship": "akagi", "card": US_SBD}))
    assert (us.due.kind, list(us.due.data["cards"])) == ("target", ["us-tbd#1"])
    us, said = apply(game, us, ("target", {"ship": "kaga"}))
    assert us.due.kind == "defense" and any("attacks kaga with us-tbd#1" in s for s in said)


def test_bad_input_is_not_a_refusal(game, japan_turn):
    for name, args in [("fly", {"card": "tiger#1", "mission": "A"}),
                       ("fly", {"card": J_D3A, "mission": "Z"}),
                       ("fly", {"card": "j-zero#99", "mission": "F"}),
                       ("exchange", {"cards": f"{J_ZERO},{J_ZERO}"}),
                       ("nosuch", {})]:
        with pytest.raises(BadInput):
            RULES.apply(game, japan_turn, name, args, SeededDice(1))


def test_a_finished_game_refuses_every_action(game):
    played, _ = play_watched(game, 3)
    error = refusal(game, played.position, "pass")
    assert "the game is over" in str(error)


# --- armament change (12-2) -------------------------------------------------------------


def test_the_first_deck_must_see_an_armament_change(game):
    """12-2: on the first deck, no armament change made, the deck holding no more cards
    than the Japanese may draw before their next attack phase: they re-arm now."""
    position = at_attack(game, (J_ZERO, J_D3A), (US_F4F,), turn=9)
    most = (game.constant("hand-exchange-max") + 2 * game.constant("hand-limit")
            + game.constant("draws-per-turn") + game.constant("extra-draw-no-aircraft"))
    state = to_state(game, position)
    low = with_state(game, position, japan=st.replace(state.japan,
                                                      deck=state.japan.deck[:most]))
    high = with_state(game, position, japan=st.replace(state.japan,
                                                       deck=state.japan.deck[:most + 1]))
    assert ("pass", {}) in legal(game, high)
    assert {n for n, _ in legal(game, low)} == {"rearm"}
    assert refusal(game, low, "pass").rule == "12-2"
    assert refusal(game, low, "raid", {"card": J_ZERO}).rule == "12-2"
    after, _ = apply(game, low, ("rearm", {"card": J_D3A}))
    assert ("pass", {}) in legal(game, after)
    done = with_state(game, low, rearmed_in_first_deck=True)
    assert ("pass", {}) in legal(game, done)


def test_rearming_puts_the_card_on_the_table_and_helps_the_us(game):
    position = at_attack(game, (J_D3A, J_B5N, J_ZERO), (US_F4F,))
    after, said = apply(game, position, ("rearm", {"card": J_D3A}))
    assert after.piece("rearming-in-progress").kind == "play"
    assert "ac-d3a#1" in cards(after, "japan.hand") and J_D3A in cards(after, "japan.discard")
    view = RULES.player_view(game, after, "us")
    assert view["rearming"] is True
    assert any(t["id"] == "rearming-in-progress" for t in view["table"])
