"""The worked examples (ids W01-W35, examples.yaml), one test each."""

from __future__ import annotations

import pytest
from warpress.engine.errors import RuleViolation
from warpress.games.axis_allies.rules import battle as B
from warpress.games.axis_allies.rules import board, research
from warpress.games.axis_allies.rules.common import is_hit, shot, unit_row


def hits(game, unit_type: str, role: str, roll: int) -> bool:
    return is_hit(game, unit_row(game, unit_type)[role], roll)


def test_examples_are_in_the_data(game):
    ids = [r.id for r in game.section("worked-examples")]
    assert ids == [f"W{n:02d}" for n in range(1, 36)]


def test_w01_attacking_infantry(game, lookup):
    assert hits(game, "infantry", "attack", 1) and not hits(game, "infantry", "attack", 2)
    assert lookup("combat-hit", "value=1", "roll=1")["hit"] is True
    assert lookup("combat-hit", "value=1", "roll=2")["hit"] is False


def test_w02_defending_infantry_uses_defense(game):
    # E1: the defender rolls against defense (2), not attack (1)
    assert hits(game, "infantry", "defense", 2) and not hits(game, "infantry", "defense", 3)
    assert game.constant("defender-rolls-against") == "defense"


def test_w03_armor(game):
    assert hits(game, "armor", "attack", 3) and not hits(game, "armor", "attack", 4)
    assert hits(game, "armor", "defense", 2) and not hits(game, "armor", "defense", 3)


def test_w04_fighter(game):
    assert hits(game, "fighter", "attack", 3) and hits(game, "fighter", "defense", 4)
    assert not hits(game, "fighter", "attack", 4) and not hits(game, "fighter", "defense", 5)


def test_w05_bomber(game):
    assert hits(game, "bomber", "attack", 4) and not hits(game, "bomber", "defense", 2)


def test_w06_ship_values(lookup):
    assert lookup("unit", "type=battleship") == {"cost": 24, "move": 2, "attack": 4, "defense": 4}
    carrier = lookup("unit", "type=carrier")
    assert (carrier["attack"], carrier["defense"]) == (1, 3)
    sub = lookup("unit", "type=submarine")
    assert (sub["attack"], sub["defense"]) == (2, 2)
    transport = lookup("unit", "type=transport")
    assert (transport["attack"], transport["defense"]) == (None, 1)


def test_w07_aa_gun_and_transport_never_roll_attack_dice(game, traced):
    assert not shot(game, "antiaircraft", "attack").rolls
    assert not shot(game, "transport", "attack").rolls
    _, used = traced("battle", "attacker=1 antiaircraft, 2 infantry", "defender=1 infantry",
                     "attacker_rolls=6,6", "defender_rolls=6", "rounds=1")
    assert len(used["attacker_rolls"]) == 2  # the two infantry only
    _, used = traced("battle", "kind=sea", "attacker=1 transport, 1 battleship",
                     "defender=1 carrier", "attacker_rolls=6", "defender_rolls=6", "rounds=1")
    assert len(used["attacker_rolls"]) == 1


def test_w08_aa_fire_before_the_rounds_once(traced):
    result, used = traced("battle", "attacker=2 fighter, 1 bomber",
                          "defender=1 antiaircraft, 2 infantry", "aa_rolls=1,4,1",
                          "attacker_rolls=6,6", "defender_rolls=6,6,6,6", "rounds=2")
    assert result["aa_destroyed"] == "1 fighter, 1 bomber"
    assert used["aa_rolls"] == [1, 4, 1]  # once per battle: no AA dice in round 2
    assert len(used["attacker_rolls"]) == 2  # one surviving fighter, two rounds
    assert len(used["defender_rolls"]) == 4  # 2 infantry x 2 rounds; the AA gun never (E3)
    assert result["attacker_left"] == "1 fighter"


def test_w09_defender_casualties_fire_back(traced):
    result, used = traced("battle", "attacker=2 armor", "defender=2 infantry",
                          "attacker_rolls=1,1", "defender_rolls=1,2", "rounds=1")
    assert len(used["defender_rolls"]) == 2  # both hit infantry still roll in 4)
    assert result["defender_left"] == "none" and result["attacker_left"] == "none"
    assert result["winner"] == "mutual"


def test_w10_attacker_losses_removed_at_once(traced):
    result, used = traced("battle", "attacker=1 infantry, 1 armor", "defender=2 infantry",
                          "attacker_rolls=6,6,6", "defender_rolls=1,6,6,6", "rounds=2")
    assert result["attacker_left"] == "1 armor"  # lowest cost first
    assert len(used["attacker_rolls"]) == 3  # the lost infantry does not fire in round 2
    chosen, _ = traced("battle", "attacker=1 infantry, 1 armor", "defender=2 infantry",
                       "attacker_order=armor", "attacker_rolls=6,6", "defender_rolls=1,6",
                       "rounds=1")
    assert chosen["attacker_left"] == "1 infantry"  # the attacker picks its casualty


def test_w11_defender_never_retreats(game):
    with pytest.raises(RuleViolation, match="defender cannot retreat"):
        B.retreat(game, "defender")
    B.retreat(game, "attacker")  # allowed


def test_w12_sub_first_strike_removed_at_once(traced):
    result, used = traced("battle", "kind=sea", "attacker=1 submarine",
                          "defender=1 transport, 1 battleship", "sub_rolls=1",
                          "defender_rolls=6", "rounds=1")
    assert result["sub_sunk"] == "1 transport"
    assert len(used["defender_rolls"]) == 1  # the sunk transport does not roll in 5)
    assert "attacker_rolls" not in used  # E4: the sub does not fire again in round 1


def test_w13_attacking_sub_withdraws_to_its_entry_zone(game):
    zone, came = "north-sea-zone", "baltic-sea-zone"
    assert board.sub_withdrawal(game, "attacker", zone, came, entered_from=came) == came
    other = next(z for z in board.graph(game, ("sea",)).neighbours(zone) if z != came)
    with pytest.raises(RuleViolation, match="sea 7"):
        board.sub_withdrawal(game, "attacker", zone, other, entered_from=came)


def test_w14_defending_sub_withdraws_to_a_free_adjacent_zone(game):
    zone = "north-sea-zone"
    near = board.graph(game, ("sea",)).neighbours(zone)
    assert board.sub_withdrawal(game, "defender", zone, near[0]) == near[0]
    with pytest.raises(RuleViolation, match="enemy units"):
        board.sub_withdrawal(game, "defender", zone, near[0], enemy_zones=[near[0]])
    far = next(p for p in board.points(game) if board.is_sea(board.point(game, p))
               and p not in near and p != zone)
    with pytest.raises(RuleViolation, match="not next to"):
        board.sub_withdrawal(game, "defender", zone, far)


def test_w15_three_development_dice_cost_15(lookup):
    assert lookup("research", "dice=3")["cost"] == 15


def test_w16_two_sixes_two_weapons(lookup):
    out = lookup("development", "dice=3", "rolls=6,6,2", "chart=1,1,2")
    assert out["success"] is True and out["sixes"] == 2
    assert out["weapons"] == "jet-power,rockets"  # the second 1 re-rolled (duplicate)
    owned = lookup("development", "dice=1", "developed=rockets", "rolls=6", "chart=2,3")
    assert owned["weapons"] == "super-submarines"  # already developed: re-roll


def test_w17_no_six_fails_and_the_ipc_are_spent(lookup, game):
    out = lookup("development", "dice=3", "rolls=1,3,5")
    assert out == {"cost": 15, "sixes": 0, "success": False, "weapons": "none"}
    assert game.constant("research-ipc-refunded") is False


def test_w18_weapon_usable_this_turn(traced, game):
    assert game.constant("weapons-usable-same-turn") is True
    plain, _ = traced("battle", "kind=sea", "attacker=1 submarine", "defender=1 transport",
                      "sub_rolls=3", "defender_rolls=6", "rounds=1")
    assert plain["sub_sunk"] == "none"
    super_, _ = traced("battle", "kind=sea", "attacker=1 submarine", "defender=1 transport",
                       "attacker_weapons=super-submarines", "sub_rolls=3", "rounds=1")
    assert super_["sub_sunk"] == "1 transport" and super_["winner"] == "attacker"


def test_w19_two_infantry_and_an_armor_cost_11(game):
    assert research.purchase_cost(game, {"infantry": 2, "armor": 1}) == 11


def test_w20_battleship_and_carrier_cost_42(game):
    assert research.purchase_cost(game, {"battleship": 1, "carrier": 1}) == 42


def test_w21_armor_blitzes_an_empty_enemy_territory(game):
    control = board.start_control(game)
    new, captured = board.combat_move(game, "germany", "armor",
                                      ["east-europe", "karelia-ssr", "russia"], control,
                                      enemy_units=["russia"])
    assert captured == ("karelia-ssr",) and new["karelia-ssr"] == "germany"
    assert tuple(game.constant("blitz-units")) == ("armor",)
    assert board.combat_move(game, "germany", "infantry", ["east-europe", "karelia-ssr"],
                             control)[1] == ("karelia-ssr",)  # ends there: combat move, taken
    with pytest.raises(RuleViolation, match="moves 1"):
        board.combat_move(game, "germany", "infantry", ["east-europe", "karelia-ssr", "russia"],
                          control)
    flown, taken = board.combat_move(game, "germany", "fighter",
                                     ["east-europe", "karelia-ssr", "russia"], control)
    assert taken == () and flown == control  # aircraft fly over and take nothing
    with pytest.raises(RuleViolation, match="enemy units"):
        board.combat_move(game, "germany", "armor", ["east-europe", "karelia-ssr", "russia"],
                          control, enemy_units=["karelia-ssr", "russia"])


def test_w22_fighter_after_combat(game):
    control = board.start_control(game)
    assert board.noncombat_move(game, "germany", "fighter", ["east-europe", "germany"], control,
                                used=3) == "germany"
    with pytest.raises(RuleViolation, match="moves 4"):
        board.noncombat_move(game, "germany", "fighter",
                             ["karelia-ssr", "east-europe", "germany"], control, used=3)
    with pytest.raises(RuleViolation, match="captured this turn"):
        board.noncombat_move(game, "germany", "fighter", ["east-europe", "karelia-ssr"],
                             {**control, "karelia-ssr": "germany"}, used=3,
                             captured_this_turn=["karelia-ssr"])


def test_w23_tank_that_moved_in_combat_stays(game):
    with pytest.raises(RuleViolation, match="moved in combat movement"):
        board.noncombat_move(game, "germany", "armor", ["germany", "east-europe"],
                             board.start_control(game), moved_in_combat=True)


def test_w24_no_entry_into_enemy_or_neutral_territory(game):
    control = board.start_control(game)
    with pytest.raises(RuleViolation, match="enemy-controlled"):
        board.noncombat_move(game, "germany", "infantry", ["east-europe", "karelia-ssr"], control)
    with pytest.raises(RuleViolation, match="neutral"):
        board.noncombat_move(game, "germany", "infantry", ["germany", "switzerland"], control)


def test_w25_built_factory_places_at_most_its_income(lookup, game):
    assert lookup("placement-limit", "factory=built", "income=3")["limit"] == 3
    with pytest.raises(RuleViolation, match="at most 3"):
        board.placement_limit(game, "built", 3, None, 4)


def test_w26_original_factory_is_unlimited(lookup):
    assert lookup("placement-limit", "factory=original", "place=12")["limit"] == "unlimited"


def test_w27_no_placement_at_a_captured_or_new_factory(game):
    control = board.start_control(game)
    factories = {"germany": "original", "south-europe": "original"}
    out = board.check_placement(game, "germany", "germany", {"infantry": 3}, control,
                                factories=factories)
    assert out["factory"] == "germany"
    with pytest.raises(RuleViolation, match="held since"):
        board.check_placement(game, "germany", "germany", {"infantry": 1}, control,
                              factories=factories, captured_this_turn=["germany"])
    with pytest.raises(RuleViolation, match="held since"):
        board.check_placement(game, "germany", "ukraine-ssr", {"infantry": 1}, control,
                              factories={"ukraine-ssr": "built"}, built_this_turn=["ukraine-ssr"])
    sea = next(z for z in board.graph(game, ("coast",)).neighbours("south-europe"))
    assert board.check_placement(game, "germany", sea, {"battleship": 1}, control,
                                 factories=factories)["factory"] == "south-europe"
    with pytest.raises(RuleViolation, match="held since"):
        board.check_placement(game, "germany", sea, {"battleship": 1}, control,
                              factories=factories, captured_this_turn=["south-europe"])


def test_w28_second_aa_gun_or_factory(game):
    control = board.start_control(game)
    factories = {"germany": "original"}
    with pytest.raises(RuleViolation, match="germany would hold 2 AA guns: at most 1 a "):
        board.check_placement(game, "germany", "germany", {"antiaircraft": 1}, control,
                              factories=factories, already={"antiaircraft": 1})
    with pytest.raises(RuleViolation, match="germany would hold 2 factories: at most 1 a "):
        board.check_placement(game, "germany", "germany", {"factory": 1}, control,
                              factories=factories, already={"factory": 1})


def test_w29_new_fighter_is_not_on_a_carrier(game):
    out = board.check_placement(game, "germany", "germany", {"fighter": 1},
                                board.start_control(game), factories={"germany": "original"})
    assert out["fighters_on_carriers"] is False and out["land_units_loaded"] is False


def test_w30_npl_is_the_sum_of_income_values(game, lookup):
    assert board.npl_of_values([8, 3, 2]) == 13
    control = {"japan": "japan", "manchuria": "japan", "alaska": "japan"}  # 8 + 3 + 2
    assert board.npl(game, "japan", control) == 13
    assert board.income(game, 13) == 13


def test_w31_axis_economic_victory_at_84(lookup):
    out = lookup("victory", "axis_capitals_lost=0", "allied_capitals_lost=0",
                 f"axis_npl={50 + 34}", "round_end=yes")
    assert out["winner"] == "axis" and "economic" in out["reason"]


def test_w32_83_is_no_victory(lookup):
    out = lookup("victory", "axis_capitals_lost=0", "allied_capitals_lost=0",
                 f"axis_npl={50 + 33}", "round_end=yes")
    assert out["winner"] == "none"


def test_w33_axis_hold_two_allied_capitals(lookup):
    out = lookup("victory", "axis_capitals_lost=0", "allied_capitals_lost=2", "axis_npl=40",
                 "round_end=yes")
    assert out["winner"] == "axis" and "military" in out["reason"]
    on_board = lookup("board-victory", "control=russia:germany,united-kingdom:germany")
    assert on_board["winner"] == "axis" and on_board["allied_capitals_lost"] == 2


def test_w34_allies_hold_both_axis_capitals(lookup):
    out = lookup("victory", "axis_capitals_lost=2", "allied_capitals_lost=0", "axis_npl=40",
                 "round_end=yes")
    assert out["winner"] == "allies"
    on_board = lookup("board-victory", "control=germany:russia,japan:usa")
    assert on_board["winner"] == "allies" and on_board["axis_capitals_lost"] == 2


def test_w35_turn_order_and_years(game):
    assert board.next_turn(game, "japan", 3) == ("usa", 3)
    assert board.next_turn(game, "usa", 3) == ("russia", 4)
    years = [board.year_of_round(game, r) for r in (1, 4, 5, 8, 9)]
    assert years == [1942, 1942, 1943, 1943, 1944]
