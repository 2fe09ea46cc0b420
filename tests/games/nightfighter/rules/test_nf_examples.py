"""Every worked example (ids T1-T66) as a test named after its id."""

from __future__ import annotations

from dataclasses import replace

import pytest
from nf_helpers import bomber, fighter, night
from warpress.engine.dice import GivenDice
from warpress.engine.errors import RuleViolation
from warpress.games.nightfighter.rules import combat, detection, movement, radars, searchlights
from warpress.games.nightfighter.rules.common import mp_for_turn, parse_mp, record
from warpress.games.nightfighter.rules.state import Environment


def test_t1_bomber_faces_next_row(game):
    assert movement.bomber_next_hex(game, "0712") == "0713"


def test_t2_bomber_mp3_moves_down_its_column(game):
    move = movement.bomber_path(game, "0712", 3)
    assert move.path == ("0713", "0714", "0715")
    assert not move.exited
    assert {h[:2] for h in move.path} == {"07"}


def test_t3_asterisk_bomber_moves_2_3_2(game):
    mp = parse_mp("2*")
    assert [mp_for_turn(game, mp, t) for t in (1, 2, 3)] == [2, 3, 2]
    b = bomber(mp="2*")
    assert [movement.bomber_mp(game, b, t) for t in (1, 2, 3)] == [2, 3, 2]


def test_t4_asterisk_fighter_moves_3_4_3(game):
    assert [movement.fighter_max_mp(game, "3*", t) for t in (1, 2, 3)] == [3, 4, 3]


def test_t5_entry_column_03_placed_at_0301_facing_0302(game):
    assert movement.entry_hex(game, 3) == "0301"
    assert movement.bomber_next_hex(game, "0301") == "0302"
    n = night([bomber(status="pool", hex_id=None)])
    placed = movement.enter_bomber(game, n, "102", 3, 1).bomber("102")
    assert placed.hex == "0301"
    assert placed.facing == movement.bomber_facing(game)


def test_t6_entering_bomber_ends_in_row_of_its_mp(game):
    assert movement.entry_path(game, 5, 3, 3).end == "0503"
    assert movement.entry_path(game, 5, 1, 3).path == ("0501",)
    with pytest.raises(RuleViolation, match="8.2.1"):
        movement.entry_path(game, 5, 4, 3)


def test_t7_chit_face_fixed_for_the_game(game):
    assert game.constant("chit-face-fixed-for-game") is True
    for chit in game.section("entry-chits"):
        assert movement.chit_numbers(game, chit.id, "red") == tuple(int(n) for n in chit.get("red"))
        assert movement.chit_numbers(game, chit.id, "yellow") == tuple(
            int(n) for n in chit.get("yellow"))


def test_t8_one_bomber_takes_the_top_number(game):
    assert movement.entry_columns(game, (4, 6, 9), 1) == (4,)


def test_t9_three_bombers_take_all_three_numbers(game):
    assert movement.entry_columns(game, (4, 6, 9), 3) == (4, 6, 9)


def test_t10_torpedo_bomber_first_number_in_07_12(game):
    assert movement.torpedo_column(game, (3, 11, 8)) == 11


def test_t11_torpedo_chit_without_07_12_is_discarded(game):
    assert movement.torpedo_column(game, (1, 15, 18)) is None


def test_t12_chart_entry_covers_g1_and_g6(game):
    name = game.get("units", "ju88g-1-g-6").name
    assert movement.chart_types(name) == ("Ju88G-1", "Ju88G-6")


def test_t13_moon_5_in_1941_is_half(game):
    env = detection.roll_environment(game, GivenDice({"moon": 5, "visibility": 7, "clouds": 4}))
    assert env.moon == "half"


def test_t14_moon_5_in_europe_after_april_1942_is_new(game):
    dice = GivenDice({"moon": 5, "visibility": 7, "clouds": 4})
    assert detection.roll_environment(game, dice, europe_after_april_1942=True).moon == "new"


def test_t15_visibility_9_in_the_pacific_is_good(game):
    dice = GivenDice({"moon": 7, "visibility": 9, "clouds": 4})
    env = detection.roll_environment(game, dice, pacific=True)
    assert (env.visibility, env.range, env.lit_range) == ("good", 1, 5)


def test_t16_cloud_roll_3_is_cloud(game):
    env = detection.roll_environment(game, GivenDice({"moon": 7, "visibility": 7, "clouds": 3}))
    assert env.clouds == "overcast"


def test_t17_good_new_three_dice_duplicates_removed(game):
    assert detection.sighting_dice(game, "good", "new") == 3
    assert detection.announce([2, 2, 6]) == (2, 6)


def test_t18_bomber_102_sighted_within_one_hex(game):
    env = detection.environment(game, "new", "good")
    n = night([bomber("102", "0712")], [fighter("204", "0713")], env=env)
    roll = detection.general_sighting(game, n, GivenDice({"sighting": [2, 2, 6]}))
    assert roll.announced == (2, 6)
    assert dict(roll.sighted) == {"102": ("204",)}


def test_t19_poor_visibility_range_0_not_sighted(game):
    env = detection.environment(game, "new", "poor")
    n = night([bomber("103", "0712")], [fighter("204", "0713")], env=env)
    roll = detection.general_sighting(game, n, GivenDice({"sighting": [3]}))
    assert roll.announced == (3,)
    assert roll.sighted == ()


def test_t20_average_half_moon_three_dice(game):
    assert detection.sighting_dice(game, "average", "half") == 3


@pytest.mark.parametrize("roll,fp,hits", [(7, 3, 1), (12, 2, 4), (9, 0, 0)],
                         ids=["t21", "t22", "t23"])
def test_t21_t22_t23_combat_table(game, roll, fp, hits):
    assert combat.attack_roll(game, GivenDice({"roll": roll}), fp) == hits


def test_t21_7_plus_fp3_is_1_hit(game):
    assert combat.combat_hits(game, 7 + 3) == 1


def test_t22_12_plus_fp2_is_4_hits(game):
    assert combat.combat_hits(game, 12 + 2) == 4


def test_t23_9_fp0_is_0_hits(game):
    assert combat.combat_hits(game, 9) == 0


def test_t24_freya_contact_wurzburg_none(game):
    assert radars.search_value(game, "freya") == 2
    assert radars.search_value(game, "wurzburg") == 1
    bombers = ["1012", "1213"]
    assert radars.radar_contact(game, "1112", 2, bombers)
    assert not radars.radar_contact(game, "1116", 1, bombers)
    n = night([bomber("101", "1012"), bomber("102", "1213")])
    after = radars.radar_search(game, n, [("freya", "1112"), ("wurzburg", "1116")])
    freya, wurzburg = after.counters
    assert freya.contact and freya.sweeps == ()
    assert not wurzburg.contact and len(wurzburg.sweeps) == 1


def test_t25_freya_sweep_1017_or_1118(game):
    # A bomber at 1115, Freya at 1018: 1017 and 1118 are equally near it.
    options = radars.sweep_candidates(game, "1018", ["1115"])
    assert options == ("1017", "1118")
    n = night([bomber("101", "1115")])
    after = radars.radar_search(game, n, [("freya", "1018")], choose=lambda o: o[0])
    assert after.counters[0].sweeps == ("1017",)


def test_t26_wurzburg_equidistant_bombers_1317_or_1418(game):
    options = radars.sweep_candidates(game, "1318", ["1315", "1619"])
    assert options == ("1317", "1418")


def test_t27_radar_string(game):
    radar = radars.parse_radar("2 Narrow (0) L-band")
    assert (radar.range, radar.arc, radar.modifier, radar.band) == (2, "Narrow", 0, "L")


def test_t28_hemi_minus_2_one_die(game):
    assert detection.captured_sighting_dice(game, moon="new", radar_modifier=-2) == 1


def test_t29_bomber_2mp_fighter_4mp_turned_minus_2(game):
    extra = detection.min_range_modifier(game, 0, turned=True, fighter_mp=4, target_mp=2)
    assert extra == -2


def test_t30_minimum_one_die(game):
    mod = detection.min_range_modifier(game, -2, turned=True, fighter_mp=4, target_mp=2)
    assert mod == -4
    assert detection.captured_sighting_dice(game, moon="new", radar_modifier=mod) == 1


def test_t31_searchlight_and_ai_four_dice_ignore_min_range(game):
    dice = detection.captured_sighting_dice(game, moon="new", both=True, radar_modifier=-2,
                                            searchlight=True)
    assert dice == 4


def test_t32_low_altitude_s_band_3_is_1(game):
    radar = radars.parse_radar("3 Wide (0) S-band")
    assert radars.ai_range(game, radar, "low") == 1


def test_t33_low_altitude_l_band_4_is_0(game):
    radar = radars.parse_radar("4 Wide (0) L-band")
    assert radars.ai_range(game, radar, "low") == 0
    assert radars.ai_range(game, radar, "normal") == 4


def test_t34_flak_6_6_then_1_2_4_4_two_hits_on_204(game):
    rolls, hits = combat.flak(game, GivenDice({"check": 12, "rolls": [1, 2, 4, 4]}), [4])
    assert rolls == (1, 2, 4, 4)
    assert hits == (2,)


def test_t35_flak_6_5_no_effect(game):
    assert combat.flak(game, GivenDice({"check": 11}), [4]) == ((), (0,))


def test_t36_task_force_8_dice(game):
    assert combat.flak_dice(game, 12, task_force=True) == 8
    rolls, hits = combat.flak(game, GivenDice({"check": 12, "rolls": [4] * 8}), [4],
                              task_force=True)
    assert len(rolls) == 8 and hits == (8,)


def test_t37_flare_counter_moves_to_9(game):
    assert movement.flare_counter(game, 6, 8) == 9


def test_t38_flare_counter_at_7_lit_through_6(game):
    counter = movement.flare_counter(game, 4, None)
    assert counter == 7
    assert [movement.flare_lit(t, counter) for t in (4, 5, 6, 7)] == [True, True, True, False]


def test_t39_serrate_mosquito_displaces_right_then_5(game):
    move = movement.serrate_path(game, "0905", 3, "right", 5)
    assert len(move.path) == 6
    displaced = move.path[0]
    assert abs(int(displaced[:2]) - 9) == 1
    assert {h[:2] for h in move.path[1:]} == {displaced[:2]}
    assert int(move.path[-1][2:]) - int(displaced[2:]) == 5


def test_t40_double_match_favourable(game):
    assert detection.attack_position(game, [3, 3, 4, 6], 3) == "favourable"


def test_t40_the_example_bomber_is_known_by_its_sighting_number_e41(game):
    """28.4's example names the captured bomber ID 203, a night fighter's counter id here
    (E41): the target is a bomber with sighting number 3, as 303, and 3, 3, 4, 6 give it a
    favourable position."""
    erratum = game.get("errata", "E41")
    assert "28.4" in erratum.rules
    owner = [u for u in game.units if "203" in (u.stats.get("counter_ids") or ())]
    assert [u.type for u in owner] == ["night-fighter"]
    bomber_ids = [c for u in game.units if u.side == "attacker"
                  for c in u.stats.get("counter_ids") or ()]
    assert "303" in bomber_ids and int("303"[-1]) == 3
    assert detection.attack_position(game, [3, 3, 4, 6], int("303"[-1])) == "favourable"


def test_t41_single_match_unfavourable_fp_minus_2(game):
    assert detection.attack_position(game, [3, 1, 4, 6], 3) == "unfavourable"
    assert combat.attack_fp(game, 4, unfavourable=True) == 2


def test_t42_ju88g6_with_berlin_or_bremen_mp_4_star(game):
    assert movement.fighter_chart_mp(game, "ju88g-1-g-6", "berlin-n1a") == "4*"
    assert movement.fighter_chart_mp(game, "ju88g-1-g-6", "bremen-0") == "4*"
    assert movement.fighter_chart_mp(game, "ju88g-1-g-6") == "3"


def test_t43_alert_bombers_move_faster(game):
    raised = [str(movement.alert_mp(game, parse_mp(m))) for m in ("2", "2*", "3", "3*", "4")]
    assert raised == ["2*", "3", "3*", "4", "4*"]


def test_t44_after_turn_20_marker_on_plus20_box_1(game):
    assert movement.turn_marker(game, 20) == (20, False)
    assert movement.turn_marker(game, 21) == (1, True)


def test_t45_fighter_must_spend_2_mp(game):
    n = night(fighters=[fighter(mp="5", unit="bf110g-4")])
    with pytest.raises(RuleViolation, match=r"9\.1"):
        movement.move_fighter(game, n, "204", "F")


def test_t46_me262_must_spend_5_mp(game):
    n = night(fighters=[fighter(unit="me262b-1a-u1", mp="5", hex_id="0910")])
    with pytest.raises(RuleViolation, match=r"9\.1"):
        movement.move_fighter(game, n, "204", "FFFF")
    assert movement.move_fighter(game, n, "204", "FFFFF").fighter("204").mp_spent == 5


def test_t47_no_turn_before_an_mp(game):
    n = night(fighters=[fighter(hex_id="0910")])
    with pytest.raises(RuleViolation, match=r"9\.2"):
        movement.move_fighter(game, n, "204", "LFF")


def test_t48_second_turn_needs_another_mp(game):
    n = night(fighters=[fighter(hex_id="0910")])
    with pytest.raises(RuleViolation, match=r"9\.2"):
        movement.move_fighter(game, n, "204", "FLLF")


def test_t49_diving_fighter_moves_exactly_5(game):
    n = night(fighters=[fighter(mp="4", hex_id="0910", dives_left=3)])
    with pytest.raises(RuleViolation, match=r"18\.0"):
        movement.move_fighter(game, n, "204", "FFFF", dives=1)
    moved = movement.move_fighter(game, n, "204", "FFFFF", dives=1).fighter("204")
    assert moved.mp_spent == 5 and moved.dives_left == 2


def test_t50_three_dives_at_once_plus_1_only_then_may_attack(game):
    n = night([bomber("102", "0915")], [fighter(mp="4", hex_id="0910", dives_left=3)])
    with pytest.raises(RuleViolation, match=r"9\.1"):
        movement.move_fighter(game, n, "204", "FFFFFF", dives=3)
    moved = movement.move_fighter(game, n, "204", "FFFFF", dives=3)
    f = moved.fighter("204")
    assert f.dives_left == 0 and f.hex == "0915"
    f = replace(f, sighting="102")
    moved = moved.with_fighter(f)
    combat.check_attack(game, moved, f, moved.bomber("102"))
    with pytest.raises(RuleViolation, match=r"18\.0"):
        combat.check_attack(game, moved, f, moved.bomber("102"), oblique=True, dived=True)


def test_t51_shootdown_4_follow_dazzled_next_turn(game):
    assert combat.shootdown(game, GivenDice({"shootdown": 4})) == "follow"
    n = night([bomber("102", "0712", damage=1)],
              [fighter("204", "0712", sighting="102")], turn=5)
    after, report = combat.resolve_attack(
        game, n, "204", "102", GivenDice({"reaction": 1, "roll": 12, "shootdown": 4}))
    assert report.destroyed and report.shootdown == "follow"
    f = after.fighter("204")
    assert f.dazzled(6) and not f.dazzled(7)


def test_t52_evade_die_1_collision_8_plus_2_one_hit(game):
    n = night([bomber("102", "0712", damage=1)],
              [fighter("204", "0712", sighting="102", damage=3)])
    dice = GivenDice({"reaction": 1, "roll": 12, "shootdown": 1, "evade": 1, "collision": 8})
    after, report = combat.resolve_attack(game, n, "204", "102", dice)
    assert report.shootdown == "evade" and report.evade == "collision"
    assert report.collision_hits == 1
    assert after.fighter("204").hits == 1


def test_t53_normal_column_5_no_reaction(game):
    assert not combat.reacts(game, 5, warning=False, alerted=False)


def test_t54_monica_5_reacts_then_2_corkscrew(game):
    assert combat.reacts(game, 5, warning=True, alerted=False)
    assert combat.reaction_effect(game, 2) == "corkscrew"


def test_t55_alert_bomber_4_plus_2_reacts(game):
    assert combat.reacts(game, 4, warning=False, alerted=True)


def test_t56_oblique_2_plus_2_defensive_fire_fp_minus_1(game):
    assert combat.reaction_effect(game, 2, oblique=True) == "return-fire"
    assert combat.defensive_fp(game, 2, vs_oblique=True) == 1


def test_t57_corkscrew_off_the_map_stays(game):
    edge = bomber("102", "1810")
    assert movement.corkscrew_hex(game, None, edge, "left") == "1810"
    inner = bomber("102", "0710")
    moved = movement.corkscrew_hex(game, None, inner, "left")
    assert moved != "0710" and abs(int(moved[:2]) - 7) == 1 and int(moved[2:]) <= 10


def test_t58_searchlight_average_full_3_radar_guided_4(game):
    env = detection.environment(game, "full", "average")
    assert searchlights.searchlight_dice(game, env) == 3
    assert searchlights.searchlight_dice(game, env, mode="radar-guided") == 4


def test_t59_flare_zone_new_1_half_2(game):
    assert searchlights.searchlight_dice(game, detection.environment(game, "new", "good"),
                                      mode="flare") == 1
    assert searchlights.searchlight_dice(game, detection.environment(game, "half", "good"),
                                      mode="flare") == 2


def test_t60_searchlights_and_flares_4(game):
    env = detection.environment(game, "new", "good")
    assert searchlights.searchlight_dice(game, env, flare_too=True) == 4


def test_t61_confusion_halves_but_not_hand_off(game):
    env = detection.environment(game, "new", "good")
    assert searchlights.searchlight_dice(game, env, mode="radar-guided", confusion=True) == 2
    assert searchlights.searchlight_dice(game, env, mode="hand-off", confusion=True) == 4


def test_t62_heavy_jamming_experte_anti_jam_6_dice(game):
    assert radars.jammed_ai_dice(game, "heavy", expert=True, anti_jam=True) == 6


def test_t63_heavy_jamming_freya_value_4_no_sweep(game):
    assert radars.search_value(game, "freya", "heavy") == 4
    assert not radars.sweeps_allowed(game, "freya", "heavy")
    n = night([bomber("101", "0101")])
    after = radars.radar_search(game, n, [("freya", "1820")], jamming="heavy")
    assert after.counters[0].sweeps == () and not after.counters[0].contact


def test_t64_beacon_box_one_turn_gap(game):
    assert not movement.may_leave_beacon_box(game, 4, last_departure=3)
    assert movement.may_leave_beacon_box(game, 5, last_departure=3)
    assert not movement.may_leave_beacon_box(game, 3, None, leaving_now=1)


def test_t65_deconfliction_5_hexes(game):
    b = bomber("102", "0910")
    me = fighter("204", "0910", sighting="102")
    near = night([b], [me, fighter("205", "0915")])
    with pytest.raises(RuleViolation, match=r"11\.1"):
        combat.check_attack(game, near, me, b, deconfliction=True)
    far = night([b], [me, fighter("205", "0916")])
    combat.check_attack(game, far, me, b, deconfliction=True)


def test_t66_s_band_contact_experte_6_dice(game):
    assert radars.follow_dice(game, "S", expert=True) == 6


def test_t24_radar_values_are_data(game):
    assert record(game, "radars", "freya").get("search_value") == 2


def test_environment_from_scenario(game):
    env = detection.environment(game, "full", "good", "overcast")
    assert env == Environment("full", "good", 1, 5, "overcast")
