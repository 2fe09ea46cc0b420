"""The frozen game state: draws, hand exchange and adjustment, deck cycling, the end,
attacks on the state, scoring; property tests over random play."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest
from hypothesis import given, settings
from hypothesis import strategies as hst
from mc_helpers import play_random_turn, state_with
from warpress.engine.errors import RuleViolation
from warpress.engine.loader import builtin
from warpress.games.midway_cards.rules import attack as atk
from warpress.games.midway_cards.rules import combat
from warpress.games.midway_cards.rules import state as st

J_ZERO, J_D3A, J_B5N = "j-zero#1", "j-d3a#1", "j-b5n#1"
U_F4F, U_TBD, U_SBD = "us-f4f#1", "us-tbd#1", "us-sbd#1"


# --- setup and draws ---------------------------------------------------------------------------


def test_new_game_deals_opening_hands(game):
    state = st.new_game(game, seed=3)
    assert len(state.japan.hand) == game.constant("opening-hand-japan")
    assert len(state.us.hand) == game.constant("opening-hand-us")
    assert state.turn_player == game.constant("first-player") and state.turn == 1
    assert st.census_ok(state, game)
    assert st.new_game(game, seed=3) == state and st.new_game(game, seed=4) != state


def test_first_turn_has_no_draw_phase(game):
    """C-E17: only the game's first turn skips the draw."""
    state = st.new_game(game, seed=1)
    assert st.draw_phase(state, game) == state
    later = replace(state, turn=2, turn_player="us")
    assert len(st.draw_phase(later, game).us.hand) == len(state.us.hand) + 1


def test_extra_draw_when_hand_is_only_defense_and_tactics(game):
    state = state_with(game, ("j-evasion-a#1", "j-aa-b#1"), (), turn=3)
    defensive = next(c for c in state.japan.deck if c.startswith("j-evasion-b"))
    deck = (defensive,) + tuple(c for c in state.japan.deck if c != defensive)
    state = replace(state, japan=replace(state.japan, deck=deck))
    drawn = st.draw_phase(state, game)
    assert len(drawn.japan.hand) == 4 and len(drawn.japan.drawn) == 2


def test_hand_exchange_at_most_three(game):
    """CI2: at most 3 cards, as many drawn as discarded."""
    state = st.new_game(game, seed=2)
    hand = state.japan.hand
    after = st.hand_exchange(state, game, hand[:3])
    assert len(after.japan.hand) == len(hand) and set(hand[:3]) <= set(after.japan.discard)
    with pytest.raises(RuleViolation, match="8"):
        st.hand_exchange(state, game, hand[:4])
    with pytest.raises(RuleViolation, match="8"):
        st.hand_exchange(state, game, ["us-f4f#1"])


def test_hand_adjustment_refills_users_and_trims_everyone(game):
    """C-E14: the turn player and card users draw to 6; everyone above 6 discards."""
    state = state_with(game, ("j-zero#1", "j-zero#2"), tuple(f"us-f4f#{n}" for n in range(1, 9)),
                       turn=3)
    after = st.hand_adjustment(state, game)
    assert len(after.japan.hand) == 6 and len(after.us.hand) == 6
    idle = state_with(game, ("j-zero#1",), ("us-f4f#1",), turn=3)
    after = st.hand_adjustment(idle, game)
    assert len(after.us.hand) == 1  # neither the turn player nor a card user
    chosen = st.hand_adjustment(state, game, {"us": ["us-f4f#1", "us-f4f#2"]})
    assert "us-f4f#1" in chosen.us.discard
    with pytest.raises(RuleViolation, match="9"):
        st.hand_adjustment(state, game, {"us": ["us-f4f#1"]})


# --- deck cycling and the two-deck end (11, C-E13) -----------------------------------------------


def test_first_deck_reshuffles_the_discard_pile(game):
    state = st.new_game(game, seed=5)
    japan = state.japan
    state = replace(state, japan=replace(japan, deck=japan.deck[:1], discard=japan.deck[1:]))
    after = st.draw(state, game, "japan", 2)
    assert after.japan.deck_number == 2 and after.japan.discard == ()
    assert len(after.japan.hand) == len(japan.hand) + 2
    assert after.end_after_turn is None and st.census_ok(after, game)


def test_second_deck_out_ends_the_game_two_turns_later(game):
    """C-E13 reading A: the opponent plays one turn, then the player in whose turn the
    deck ran out plays one more; then the game ends."""
    state = st.new_game(game, seed=6)
    us = state.us
    state = replace(state, turn=10, turn_player="japan",
                    us=replace(us, deck=us.deck[:1], discard=us.deck[1:], deck_number=2))
    state = st.draw(state, game, "us", 1)  # the US deck runs out in a Japanese turn
    assert state.end_after_turn == 10 + game.constant("turns-after-second-deck-out")
    state = st.end_turn(state, game)
    assert not state.over and (state.turn, state.turn_player) == (11, "us")
    state = st.end_turn(state, game)
    assert not state.over and (state.turn, state.turn_player) == (12, "japan")
    state = st.end_turn(state, game)
    assert state.over and "second deck" in state.end_reason


def test_drawing_from_an_exhausted_second_deck_draws_nothing(game):
    state = st.new_game(game, seed=6)
    state = replace(state, us=replace(state.us, deck=(), deck_number=2))
    assert st.draw(state, game, "us", 3).us.hand == state.us.hand


# --- attacks on the state -----------------------------------------------------------------------


def test_f_after_a_and_attack_without_a_are_violations(game):
    """CI4, CI5."""
    with pytest.raises(RuleViolation, match="7-1-1"):
        combat.check_plays(game, [(J_D3A, "A"), (J_ZERO, "F")])
    with pytest.raises(RuleViolation, match="7-1-1"):
        combat.check_plays(game, [(J_ZERO, "F")])
    with pytest.raises(RuleViolation, match="3-3"):
        combat.check_plays(game, [(J_D3A, "F")])
    with pytest.raises(RuleViolation, match="7-1-1"):
        combat.make_pairs(game, [(J_D3A, "A")], [U_F4F, "us-f4f#2"])
    with pytest.raises(RuleViolation, match="7-1-1"):
        combat.make_pairs(game, [(J_D3A, "A")], [U_TBD])


def test_zero_flies_a_as_a_bomber_and_counts_as_one(game):
    state = state_with(game, (J_ZERO, "j-zero#2", "j-zero#3", "j-zero#4", "j-zero#5"), (),
                       turn=3)
    plays = tuple((f"j-zero#{n}", "A") for n in range(1, 6))
    with pytest.raises(RuleViolation, match="bomber"):  # 4 carriers x B1
        atk.carrier_attack(state, game, atk.AttackPlan(plays=plays, target="yorktown"))
    after, report = atk.carrier_attack(state, game, atk.AttackPlan(plays=plays[:4],
                                                                   target="yorktown"))
    assert all(h.kind == "bombing" for h in report.hits)


def test_sunk_ship_goes_to_the_attacker_and_stops_flying(game):
    """CI16, CI17."""
    state = state_with(game, (), (U_TBD, "us-tbd#2"), turn=4, turn_player="us")
    state = replace(state, ships=tuple(replace(s, side_damage=5) if s.id == "soryu" else s
                                       for s in state.ships))
    after, report = atk.carrier_attack(state, game, atk.AttackPlan(
        plays=((U_TBD, "A"),), target="soryu"))
    assert report.sunk == ("soryu",) and after.ship("soryu").sunk
    assert after.us.captured == ("soryu",)
    assert st.capacity(after, game, "japan")["fighter"] == 3
    with pytest.raises(RuleViolation, match="5-1"):  # one attack per turn
        atk.carrier_attack(after, game, atk.AttackPlan(plays=(("us-tbd#2", "A"),),
                                                       target="kaga"))
    next_us = st.end_turn(st.end_turn(after, game), game)
    with pytest.raises(RuleViolation, match="7-2"):
        atk.carrier_attack(next_us, game, atk.AttackPlan(plays=(("us-tbd#2", "A"),),
                                                         target="soryu"))


def test_us_split_targets(game):
    state = state_with(game, (), (U_TBD, U_SBD), turn=4, turn_player="us")
    after, report = atk.carrier_attack(state, game, atk.AttackPlan(
        plays=((U_TBD, "A"), (U_SBD, "A")), target={U_TBD: "akagi", U_SBD: "kaga"}))
    assert {h.target for h in report.hits} == {"akagi", "kaga"}
    by_target = {h.target: h.damage for h in report.hits}
    assert after.ship("akagi").side_damage == by_target["akagi"]
    assert after.ship("kaga").deck_damage == by_target["kaga"]


def test_defense_card_beyond_the_ships_level_is_refused(game):
    """Ship ⑤ caps the defense level (assumed constant)."""
    state = state_with(game, ("j-evasion-a#1",), (U_SBD,), turn=4, turn_player="us")
    with pytest.raises(RuleViolation, match="3-1"):  # Akagi's ⑤ is B
        atk.carrier_attack(state, game, atk.AttackPlan(
            plays=((U_SBD, "A"),), target="akagi", defense={U_SBD: "j-evasion-a#1"}))
    after, report = atk.carrier_attack(state, game, atk.AttackPlan(
        plays=((U_SBD, "A"),), target="hiryu", defense={U_SBD: "j-evasion-a#1"}))
    assert report.stopped == (U_SBD,) and report.hits == ()


def test_rearming_adds_one_to_us_cards_until_the_cards_are_used(game):
    state = state_with(game, (J_D3A, J_ZERO), (U_TBD,), turn=3)
    state = atk.rearm(state, game, [J_D3A])
    assert state.rearming and state.rearmed_in_first_deck
    ac = next(c for c in state.japan.hand if c.startswith("ac-"))
    us_turn = replace(st.end_turn(state, game))
    assert us_turn.rearming
    _, report = atk.carrier_attack(us_turn, game, atk.AttackPlan(plays=((U_TBD, "A"),),
                                                                 target="akagi"))
    plain = combat.hit(game, U_TBD, "akagi", report.hits[0].secondary, rearming=False)
    assert report.hits[0].damage in (0, plain.damage + 1)
    back = st.end_turn(st.end_turn(state, game), game)
    after, _ = atk.base_attack(back, game, [ac])
    assert not after.rearming and ac in after.armament_pile


def test_first_turn_is_the_midway_attack_and_one_attack_a_turn(game):
    """12-1: no ship attack in the first turn; 5-1 / C-E12: one attack per turn."""
    state = state_with(game, (J_D3A, J_ZERO, "j-zero#2"), ())
    with pytest.raises(RuleViolation, match="12-1"):
        atk.carrier_attack(state, game, atk.AttackPlan(plays=((J_D3A, "A"),), target="hornet"))
    after, _ = atk.base_attack(state, game, [J_ZERO])
    with pytest.raises(RuleViolation, match="5-1"):
        atk.base_attack(after, game, ["j-zero#2"])


def test_rearm_refuses_other_cards_and_the_us(game):
    state = state_with(game, (J_ZERO,), (), turn=3)
    with pytest.raises(RuleViolation, match="12-2"):
        atk.rearm(state, game, [J_ZERO])
    with pytest.raises(RuleViolation, match="12-2"):
        atk.rearm(replace(state, turn_player="us"), game, [J_ZERO])


def test_emergency_repair_only_us_in_its_turn(game):
    """CI23."""
    state = state_with(game, (), ("us-emergency-repair#1",), turn=3)
    state = replace(state, ships=tuple(replace(s, deck_damage=2) if s.id == "hornet" else s
                                       for s in state.ships), base_damage=5)
    with pytest.raises(RuleViolation, match="10-2"):
        atk.emergency_repair(state, game, [("us-emergency-repair#1", "hornet", "deck")])
    us_turn = replace(state, turn_player="us")
    base = atk.emergency_repair(us_turn, game, [("us-emergency-repair#1", "midway-base", "")])
    assert base.base_damage == 4
    with pytest.raises(RuleViolation, match="10-2"):
        atk.emergency_repair(us_turn, game, [("us-emergency-repair#1", "hornet", "side")])


def test_aircraft_repair_takes_back_an_aircraft_card(game):
    state = state_with(game, ("j-aircraft-repair#1",), (), turn=3)
    state = replace(state, japan=replace(state.japan, deck=tuple(
        c for c in state.japan.deck if c != J_B5N), discard=(J_B5N,)))
    after = atk.aircraft_repair(state, game, "j-aircraft-repair#1", J_B5N)
    assert J_B5N in after.japan.hand and "j-aircraft-repair#1" in after.japan.discard
    assert st.census_ok(after, game)
    with pytest.raises(RuleViolation, match="10"):
        atk.aircraft_repair(replace(state, turn_player="us"), game, "j-aircraft-repair#1", J_B5N)


# --- game end and scoring ------------------------------------------------------------------------


def test_all_japanese_carriers_out_ends_the_game_us_wins(game):
    state = state_with(game, (), ())
    state = replace(state, base_damage=40, ships=tuple(
        replace(s, disabled=True) if s.id in ("akagi", "kaga", "hiryu", "soryu") else s
        for s in state.ships))
    ended = st.check_game_end(state, game)
    assert ended.over and st.final_result(ended, game)["winner"] == "us"


def test_score_counts_each_ship_once_and_the_base(game):
    state = state_with(game, (), (), base_damage=45)
    state = replace(state, ships=tuple(
        replace(s, side_damage=10, sunk=True) if s.id == "akagi" else
        replace(s, deck_damage=4) if s.id == "yorktown" else s for s in state.ships))
    vp = st.score(state, game)
    akagi = game.get("cards", "akagi").stats
    yorktown = game.get("cards", "yorktown").stats
    assert vp == {"us": akagi["vp_sunk"],
                  "japan": yorktown["vp_medium"] + game.constant("base-destroyed-vp")}


# --- properties over random play ------------------------------------------------------------------


@settings(max_examples=25, deadline=None, derandomize=True)
@given(seed=hst.integers(0, 10_000), turns=hst.integers(1, 40))
def test_random_play_conserves_cards_and_hand_limit(seed, turns):
    """CI1, CI25, CI26: after each turn every hand <= 6; no card lost or doubled; the game
    ends within the turns after a second deck runs out."""
    game = builtin("midway-cards")
    rng = random.Random(seed)
    state = st.new_game(game, seed=seed)
    limit = game.constant("hand-limit")

    def hands_adjusted(now):
        """CI1: everyone <= 6; the turn player and card users exactly 6 unless out of cards."""
        for side in ("japan", "us"):
            p = now.player(side)
            assert len(p.hand) <= limit
            if side == now.turn_player or p.used:
                assert len(p.hand) == limit or (not p.deck and p.deck_number == 2)

    for _ in range(turns):
        if state.over:
            break
        state = play_random_turn(state, game, rng, hands_adjusted)
        assert st.census_ok(state, game)
        assert all(len(state.player(s).hand) <= limit for s in ("japan", "us"))
        if state.end_after_turn is not None:
            assert state.end_after_turn - state.turn <= game.constant(
                "turns-after-second-deck-out")


def test_a_long_random_game_ends(game):
    """Decks cycle twice and the game ends (11)."""
    rng = random.Random(1)
    state = st.new_game(game, seed=1)
    for _ in range(400):
        if state.over:
            break
        state = play_random_turn(state, game, rng)
    assert state.over
    assert st.final_result(state, game)["winner"] in ("japan", "us", "draw")


# --- setup redraw, the first turn, the armament-change obligation --------------------------------


def test_opening_redraw_only_without_an_attack_card_and_once(game):
    """6, C-E18."""
    no_attack = ("j-evasion-a#1", "j-evasion-b#1", "j-aa-b#1", "j-aircraft-repair#1",
                 "j-evasion-c#1", "j-aa-c#1", "j-evasion-b#2")
    state = state_with(game, no_attack, ("us-f4f#1",))
    again = st.redraw_opening(state, game, "japan")
    assert len(again.japan.hand) == 7 and again.japan.redraws == 1
    assert st.census_ok(again, game)
    with pytest.raises(RuleViolation, match="6"):
        st.redraw_opening(replace(again, japan=replace(again.japan, hand=no_attack, deck=tuple(
            c for c in again.japan.deck + again.japan.hand if c not in no_attack))), game,
            "japan")
    with pytest.raises(RuleViolation, match="attack card"):
        st.redraw_opening(state_with(game, (J_D3A,), ()), game, "japan")


def test_first_turn_midway_attack_end_to_end(game):
    """12-1: no draw; re-arm the bombers; attack the base; AA only; then hands to 6."""
    hand = (J_D3A, "j-d3a#2", J_B5N, J_ZERO, "j-evasion-a#1", "j-aa-b#1", "j-zero#2")
    state = state_with(game, hand, ("us-aa-a#1", "us-evasion-c#1", U_F4F, U_TBD, U_SBD,
                                    "us-f4f#2"))
    assert st.draw_phase(state, game) == state
    state = atk.rearm(state, game, [J_D3A, "j-d3a#2", J_B5N])
    re_armed = [c for c in state.japan.hand if c.startswith("ac-")]
    assert len(re_armed) == 3 and state.rearming
    attackers = re_armed + [J_ZERO]
    state, report = atk.base_attack(state, game, attackers, defense={J_ZERO: "us-aa-a#1"})
    assert report.stopped == (J_ZERO,) and len(report.hits) == 3
    assert all(h.kind == "bombing" for h in report.hits)
    assert state.base_damage == sum(h.damage for h in report.hits)
    assert not state.rearming  # no armament-change card left in hand
    assert set(re_armed) <= set(state.armament_pile)
    state = st.hand_adjustment(st.hand_exchange(state, game), game)
    assert len(state.japan.hand) == 6 and len(state.us.hand) == 6  # the US used a card
    assert st.census_ok(state, game)
    state = st.end_turn(state, game)
    assert (state.turn, state.turn_player) == (2, "us")


def test_rearm_obligation_of_the_first_deck(game):
    """CI22: the Japanese must re-arm before their first deck ends."""
    state = st.new_game(game, seed=9)
    japan = state.japan
    late = replace(state, japan=replace(japan, deck=japan.deck[:1], discard=japan.deck[1:]))
    assert st.rearm_obligation_met(state, game)
    assert not st.rearm_obligation_met(st.draw(late, game, "japan", 1), game)
    assert st.rearm_obligation_met(replace(st.draw(late, game, "japan", 1),
                                           rearmed_in_first_deck=True), game)


def test_winning_f_cards_return_or_are_discarded_by_choice(game):
    """7-1-2: each player may take his winning F card back or discard it."""
    plays = ((J_ZERO, "F"), (J_D3A, "A"))
    cap = ("us-sbd-escort#1",)  # CAP level C loses to the Zero's A
    kept = combat.air_combat(game, plays, cap)
    assert J_ZERO in kept.returned and "us-sbd-escort#1" in kept.removed
    dropped = combat.air_combat(game, plays, cap, keep_winners=False)
    assert J_ZERO in dropped.removed
    won_by_cap = combat.air_combat(game, ((J_D3A, "A"),), (U_F4F,), cap_keep_winners=False)
    assert set(won_by_cap.removed) == {J_D3A, U_F4F} and won_by_cap.attackers == ()
