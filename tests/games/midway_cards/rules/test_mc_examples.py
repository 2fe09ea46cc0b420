"""The worked examples (ids C-EX1 ...), one test per id."""

from __future__ import annotations

from dataclasses import replace

import pytest
from mc_helpers import state_with
from warpress.engine.catalogue import ref_table
from warpress.engine.errors import RuleViolation
from warpress.engine.query import run_lookup
from warpress.games.midway_cards.rules import attack as atk
from warpress.games.midway_cards.rules import combat
from warpress.games.midway_cards.rules import state as st
from warpress.games.midway_cards.rules.common import BASE_ID

# C-EX1's cards by the example's names
J1, J2, J3, J4, J5, J6, J7 = ("j-evasion-a#1", "j-b5n#1", "j-b5n#2", "j-d3a#1", "j-d3a#2",
                              "j-zero#1", "j-zero#2")
U1, U2, U3, U4, U5, U6 = ("us-evasion-c#1", "us-aa-a#1", "us-tbd#1", "us-f4f#1", "us-f4f#2",
                          "us-f4f#3")


def example_state(game):
    """C-EX1 input: the Japanese turn after the draw phase, Yorktown undamaged, no
    「兵装変更中」, the top secondary-damage card reads 推進機被弾 on its torpedo side."""
    top = next(c.id for c in game.cards
               if c.deck == "secondary-damage" and c.stats["torpedo"] == "propulsion")
    return state_with(game, (J1, J2, J3, J4, J5, J6, J7), (U1, U2, U3, U4, U5, U6),
                      secondary_top=(f"{top}#1",), turn=3, turn_player="japan")


EXAMPLE_PLAN = atk.AttackPlan(
    plays=((J6, "F"), (J7, "F"), (J4, "A"), (J5, "A"), (J2, "A"), (J3, "A")),
    cap=(U4, U5, U6),
    target="yorktown",
    defense={J5: U2, J2: U1},
)


def test_c_ex1_rule_13_combat_example(game):
    state = example_state(game)
    assert st.census_ok(state, game)
    after, report = atk.carrier_attack(state, game, EXAMPLE_PLAN)

    # pair creation and air combat
    assert [(p.attacker, p.defender, p.removed) for p in report.pairing.pairs] == [
        (J6, U4, "both"), (J7, U5, "both"), (J4, U6, "attacker")]
    assert report.pairing.attackers == (J5, J2, J3)
    # defense: 対空A stops the B (対艦A), 回避C stops one T (対艦C)
    assert report.stopped == (J5, J2)
    # damage: one secondary-damage card, 推進機被弾: side 4 + 1 = 5, 発着艦不能
    assert len(report.hits) == 1
    hit = report.hits[0]
    assert (hit.card, hit.result, hit.kind, hit.damage, hit.disabled) == (
        J3, "propulsion", "torpedo", 5, True)
    yorktown = after.ship("yorktown")
    assert (yorktown.deck_damage, yorktown.side_damage) == (0, 5)
    assert yorktown.disabled and not yorktown.sunk
    status = st.ship_status(game, yorktown)
    assert status["status"] == "heavy" and status["flight_ops"] is False
    assert report.sunk == ()
    assert st.markers_in_use(after, game) == {"damage-red": 0, "damage-blue": 5,
                                              "disabled-yellow": 1}
    # return: J3 removed, the US recovers U6 (won pair 3)
    assert after.japan.hand == (J1,)
    assert sorted(after.us.hand) == sorted((U3, U6))
    assert {J2, J3, J4, J5, J6, J7} <= set(after.japan.discard)
    assert {U1, U2, U4, U5} == set(after.us.discard)
    assert st.census_ok(after, game)

    # hand exchange: none; hand adjustment: the Japanese draw 5, the US (used cards) 4
    adjusted = st.hand_adjustment(st.hand_exchange(after, game, ()), game)
    assert len(adjusted.japan.hand) == 6 and adjusted.japan.hand[:1] == (J1,)
    assert len(adjusted.us.hand) == 6
    assert len(adjusted.japan.deck) == len(after.japan.deck) - 5
    assert len(adjusted.us.deck) == len(after.us.deck) - 4

    # Yorktown can no longer launch: the US has lost its ③ capacity, later 応急修理
    # removes damage but not the 発着艦不能
    assert st.capacity(adjusted, game, "us")["fighter"] == 2
    repaired = replace(adjusted, turn_player="us", us=replace(
        adjusted.us, hand=adjusted.us.hand + ("us-emergency-repair#1",),
        deck=tuple(c for c in adjusted.us.deck if c != "us-emergency-repair#1")))
    repaired = atk.emergency_repair(repaired, game, [("us-emergency-repair#1", "yorktown",
                                                      "side")])
    fixed = repaired.ship("yorktown")
    assert fixed.side_damage == 4 and fixed.disabled
    assert st.ship_status(game, fixed)["status"] == "heavy"


def test_c_ex2_defender_pass_ends_interception(game):
    """The defender holds 3 F cards but passes after the first pair: no further pairs."""
    plays = ((J6, "F"), (J7, "F"), (J4, "A"))
    pairing = combat.air_combat(game, plays, cap=(U4,))
    assert len(pairing.pairs) == 1
    assert J7 in pairing.returned and pairing.attackers == (J4,)
    state = state_with(game, (J1, J4, J6, J7), (U4, U5, U6), turn=3)
    after, report = atk.carrier_attack(state, game, atk.AttackPlan(
        plays=plays, cap=(U4,), target="yorktown"))
    assert {U5, U6} <= set(after.us.hand) and len(report.pairing.pairs) == 1


def test_c_ex3_japanese_attack_cards_share_one_target(game):
    attackers = (J3, J4, J5)
    one = combat.assign_targets(game, "japan", attackers, "hornet")
    assert set(one.values()) == {"hornet"}
    with pytest.raises(RuleViolation, match="7-2"):
        combat.assign_targets(game, "japan", attackers, {J3: "hornet", J4: "hornet",
                                                         J5: "yorktown"})
    split = combat.assign_targets(game, "us", ("us-sbd#1", "us-tbd#1"),
                                  {"us-sbd#1": "akagi", "us-tbd#1": "kaga"})
    assert split == {"us-sbd#1": "akagi", "us-tbd#1": "kaga"}
    with pytest.raises(RuleViolation, match="7-2"):
        combat.assign_targets(game, "japan", ("j-d3a#1", "j-b5n#1"),
                              {"j-d3a#1": "hornet", "j-b5n#1": "yorktown"})


def test_c_ex4_turn_with_rearming_only_discards_the_drawn_card(game):
    state = state_with(game, (J1, J2, J4, J6), (U1, U2), turn=3)
    drawn_card = state.japan.deck[0]
    state = st.draw_phase(state, game)
    assert state.japan.drawn == (drawn_card,)
    state = atk.rearm(state, game, [J4])
    assert state.rearming and any(c.startswith("ac-d3a") for c in state.japan.hand)
    state = atk.finish_attack_phase(state, game)
    assert drawn_card not in state.japan.hand and drawn_card in state.japan.discard
    assert st.census_ok(state, game)


def test_c_ex5_zero_only_base_attack_needs_no_rearming(game):
    state = state_with(game, (J1, J2, J6, J7), (U1, U2), turn=3)
    state = st.draw_phase(state, game)
    hand_before = len(state.japan.hand)
    state, report = atk.base_attack(state, game, [J6, J7])
    assert not state.rearming and len(report.hits) == 2
    state = atk.finish_attack_phase(state, game)
    assert len(state.japan.hand) == hand_before - 2  # no forced discard
    assert state.base_damage == sum(h.damage for h in report.hits)


def test_c_ex6_base_at_20_damage(game):
    assert _example_lookup(game, "C-EX6") == {"status": "heavy", "vp": 10}


def test_c_ex7_base_at_40_damage(game):
    assert _example_lookup(game, "C-EX7") == {"status": "destroyed", "vp": 20}


def _all_us_carriers_heavy(state):
    ships = tuple(replace(s, disabled=True) if s.id in ("enterprise", "hornet", "yorktown")
                  else s for s in state.ships)
    return replace(state, ships=ships)


def test_c_ex8_us_carriers_out_base_below_20_game_goes_on(game):
    state = _all_us_carriers_heavy(state_with(game, (J1,), (U1, U3), base_damage=19, turn=4))
    assert st.carriers_out(state, game, "us")
    assert not st.check_game_end(state, game).over
    # the US can no longer attack: no ship can launch
    us_turn = replace(state, turn_player="us")
    with pytest.raises(RuleViolation, match="may play 0"):
        atk.carrier_attack(us_turn, game, atk.AttackPlan(plays=((U3, "A"),), target="akagi"))
    assert st.final_result(state, game)["winner"] == "draw"
    # the base reaching 大破 ends the game at once with a Japanese win
    ended = st.check_game_end(replace(state, base_damage=20), game)
    assert ended.over and st.final_result(ended, game)["winner"] == "japan"


def test_c_ex9_more_japanese_vp_but_base_not_heavy(game):
    state = state_with(game, (J1,), (U1,), base_damage=19)
    ships = tuple(replace(s, side_damage=4) if s.id in ("enterprise", "hornet") else s
                  for s in state.ships)
    state = replace(state, ships=ships)
    result = st.final_result(state, game)
    assert result["japan_vp"] > result["us_vp"]
    assert result["winner"] == "us"


def _us_repair_state(game, **ship_damage):
    repairs = ("us-emergency-repair#1", "us-emergency-repair#2")
    state = state_with(game, (J1,), repairs + (U1,), turn=4, turn_player="us")
    ships = tuple(replace(s, **ship_damage[s.id]) if s.id in ship_damage else s
                  for s in state.ships)
    return replace(state, ships=ships), repairs


def test_c_ex10_emergency_repair_on_an_undamaged_ship_not_allowed(game):
    state, (r1, _) = _us_repair_state(game)
    with pytest.raises(RuleViolation, match="10-2"):
        atk.emergency_repair(state, game, [(r1, "yorktown", "deck")])


def test_c_ex11_two_emergency_repairs_at_once(game):
    state, (r1, r2) = _us_repair_state(game, yorktown={"deck_damage": 2},
                                       hornet={"side_damage": 3})
    same = atk.emergency_repair(state, game, [(r1, "yorktown", "deck"), (r2, "yorktown", "deck")])
    assert same.ship("yorktown").deck_damage == 0
    apart = atk.emergency_repair(state, game, [(r1, "yorktown", "deck"), (r2, "hornet", "side")])
    assert (apart.ship("yorktown").deck_damage, apart.ship("hornet").side_damage) == (1, 2)
    assert st.census_ok(apart, game)
    # a second repair on a ship the first one made undamaged is not allowed
    one, _ = _us_repair_state(game, yorktown={"deck_damage": 1})
    with pytest.raises(RuleViolation, match="10-2"):
        atk.emergency_repair(one, game, [(r1, "yorktown", "deck"), (r2, "yorktown", "deck")])


def test_c_ex12_dud_zero_damage(game):
    assert _example_lookup(game, "C-EX12")["zero_damage"] is True
    for card in ("j-b5n", "j-d3a", "us-tbd"):
        for secondary in (c for c in game.cards if c.deck == "secondary-damage"):
            h = combat.hit(game, card, "yorktown", secondary.id)
            if h.result == "dud":
                assert h.damage == 0


def test_c_ex13_flight_deck_against_the_base_adds_one_only(game):
    out = _example_lookup(game, "C-EX13")
    assert out["extra_damage"] == 1 and out["disabled"] is False
    flight_deck = next(c.id for c in game.cards if c.deck == "secondary-damage"
                       and c.stats["bombing"] == "flight-deck")
    state = state_with(game, (J1, "ac-d3a#1"), (U1,), secondary_top=(f"{flight_deck}#1",),
                       turn=3)
    after, report = atk.base_attack(state, game, ["ac-d3a#1"])
    damage = game.get("cards", "ac-d3a").stats["damage"]
    assert after.base_damage == damage + 1 and not report.hits[0].disabled
    assert "ac-d3a#1" in after.armament_pile  # back to its pile (12-2)


@pytest.mark.parametrize("example", ["C-EXD1", "C-EXD2", "C-EXD3"])
def test_c_exd_derived_yorktown_states(game, example):
    """The derived cases, through ship-status on the damage itself."""
    damage = {"C-EXD1": (0, 4), "C-EXD2": (4, 4), "C-EXD3": (0, 8)}[example]
    record = game.get("examples", example)
    ref = ref_table(game, "ship-status")
    out = run_lookup(game, ref, ["ship=yorktown", f"deck_damage={damage[0]}",
                                 f"side_damage={damage[1]}"])["result"]
    for key, value in record.extra["expect"].items():
        assert out[key] == value
    assert _example_lookup(game, example)["status"] == out["status"]


def test_every_data_example_with_a_lookup_holds(game):
    """Each example record with ``lookup:`` answers what its ``expect:`` says."""
    for record in game.section("examples"):
        if "lookup" in record.extra:
            out = _example_lookup(game, record.id)
            for key, value in record.extra["expect"].items():
                if key in out:
                    assert out[key] == value, (record.id, key)


def _example_lookup(game, example_id):
    record = game.get("examples", example_id)
    spec = record.extra["lookup"]
    pairs = [f"{k}={_word(v)}" for k, v in spec["inputs"].items()]
    return run_lookup(game, ref_table(game, spec["table"]), pairs)["result"]


def _word(value):
    if value is True:
        return "yes"
    if value is False:
        return "no"
    return str(value)


def test_base_attack_rules(game):
    """12-1/12-2: un-re-armed bombers cannot attack the base; ES cannot defend it."""
    state = state_with(game, (J1, J4, J6), (U1, U2), turn=3)
    with pytest.raises(RuleViolation, match="12-2"):
        atk.base_attack(state, game, [J4])
    with pytest.raises(RuleViolation, match="12-4"):
        atk.base_attack(state, game, [J6], defense={J6: U1})
    after, report = atk.base_attack(state, game, [J6], defense={J6: U2})
    assert report.stopped == (J6,) and after.base_damage == 0
    assert BASE_ID not in [s.id for s in after.ships]
