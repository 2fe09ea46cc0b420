"""Catalogue tables of Nimitz at their edges (referee-catalogue.md, nimitz 002)."""

from __future__ import annotations

import pytest
from warpress.engine.catalogue import ref_table
from warpress.engine.errors import BadInput, RuleViolation
from warpress.engine.query import run_lookup

CATALOGUE = ("attack", "japanese-air", "repair-cost", "battle-points", "allocate-hits",
             "linked-result", "bonus-marker")


@pytest.mark.parametrize("name", CATALOGUE)
def test_catalogue_table_is_registered_by_the_engine(game, name):
    assert ref_table(game, name).resolve.__module__.startswith("warpress.games.nimitz.rules")


# --- attack ----------------------------------------------------------------------------


@pytest.mark.parametrize(("value", "roll", "hits"), [
    ("4/2", "1", 2), ("4/2", "2", 2), ("4/2", "3", 1), ("4/2", "4", 1), ("4/2", "5", 0),
    ("4/2", "0", 0), ("4/2", "10", 0), ("0", "1", 0), ("10", "10", 1), ("10/10", "10", 2),
    ("10", "1", 1), ("12/3", "10", 1), ("1", "1", 1), ("1/1", "1", 2),
])
def test_attack_hits(lookup, value, roll, hits):
    assert lookup("attack", f"value={value}", f"roll={roll}")["hits"] == hits


@pytest.mark.parametrize("value", ["x", "4/5", "21", "-1", "4/2/1", "", "4/"])
def test_attack_bad_values(lookup, value):
    with pytest.raises(BadInput, match="value="):
        lookup("attack", f"value={value}", "roll=3")


@pytest.mark.parametrize("roll", ["11", "-1", "a"])
def test_attack_rolls_the_die_cannot_show(lookup, roll):
    with pytest.raises(BadInput, match="roll"):
        lookup("attack", "value=4", f"roll={roll}")


def test_attack_markers_need_a_stat(lookup):
    with pytest.raises(BadInput, match="stat="):
        lookup("attack", "value=4", "markers=air-superiority", "roll=3")


def test_attack_unknown_marker(lookup):
    with pytest.raises(BadInput, match="markers="):
        lookup("attack", "value=4", "stat=air", "markers=melee", "roll=3")


def test_attack_kamikaze_needs_campaign(lookup):
    with pytest.raises(BadInput, match="campaign"):
        lookup("attack", "value=4", "stat=anti_ship", "markers=kamikaze", "roll=3")


# --- japanese-air --------------------------------------------------------------------


@pytest.mark.parametrize(("roll", "area"), [
    (1, "japanese-sea"), (2, "japanese-sea"), (3, "island"), (5, "island"), (6, "coastal"),
    (7, "us-sea"), (10, "us-sea"), (0, "us-sea"),
])
def test_japanese_air_plain_table(lookup, roll, area):
    result = lookup("japanese-air", f"roll={roll}")
    assert result["area"] == area and result["rolled"] == area and result["moved"]


def test_japanese_air_fall_through_wraps(lookup):
    result = lookup("japanese-air", "roll=10", "valid=japanese-sea")
    assert result == {"area": "japanese-sea", "rolled": "us-sea", "moved": True}


def test_japanese_air_no_valid_area_stays(lookup):
    result = lookup("japanese-air", "roll=4", "valid=")
    assert result == {"area": "stay", "rolled": "island", "moved": False}


def test_japanese_air_forced_needs_no_roll(lookup):
    assert lookup("japanese-air", "forced=yes")["area"] == "us-sea"


def test_japanese_air_unknown_area(lookup):
    with pytest.raises(BadInput, match="valid="):
        lookup("japanese-air", "roll=4", "valid=moon")


# --- repair-cost, battle-points ----------------------------------------------------------


@pytest.mark.parametrize(("cost", "supply"), [(0, 1), (1, 1), (2, 1), (3, 1), (4, 2), (5, 2),
                                              (6, 3), (20, 10), (21, 10)])
def test_repair_cost(lookup, cost, supply):
    assert lookup("repair-cost", f"cost={cost}")["supply"] == supply


def test_repair_cost_matches_the_rule_constants(game, lookup):
    divisor = game.constant("repair-cost-divisor")
    floor = game.constant("repair-cost-minimum")
    for cost in range(22):
        assert lookup("repair-cost", f"cost={cost}")["supply"] == max(floor, cost // divisor)


def test_repair_cost_beyond_the_table(lookup):
    with pytest.raises(BadInput, match=r"cost='22' is not allowed \(integer 0\.\.21"):
        lookup("repair-cost", "cost=22")


def test_repair_cost_by_unit_uses_the_purchase_cost(lookup):
    assert lookup("repair-cost", "unit=lexington") == {"supply": 2, "cost": 5}


def test_repair_cost_unknown_unit(lookup):
    with pytest.raises(BadInput, match="unit='yamato'"):
        lookup("repair-cost", "unit=yamato")


def test_repair_cost_needs_one_input(lookup):
    with pytest.raises(BadInput, match="exactly one"):
        lookup("repair-cost")


@pytest.mark.parametrize(("supply", "bpp"), [(0, 3), (1, 6), (2, 9), (40, 123)])
def test_battle_points(lookup, supply, bpp):
    assert lookup("battle-points", f"supply={supply}")["bpp"] == bpp


def test_battle_points_match_the_rule_constants(game, lookup):
    free = game.constant("free-battle-plan-points")
    per = game.constant("battle-plan-points-per-supply")
    for supply in range(41):
        assert lookup("battle-points", f"supply={supply}")["bpp"] == free + per * supply


@pytest.mark.parametrize("supply", ["-1", "41", "x"])
def test_battle_points_out_of_range(lookup, supply):
    with pytest.raises(BadInput, match="supply="):
        lookup("battle-points", f"supply={supply}")


# --- allocate-hits ----------------------------------------------------------------------


def test_allocate_hits_lowest_cost_first_damaged_before_full(lookup):
    result = lookup("allocate-hits", "units=dd:2:full,ca:3:full,dd2:2:damaged", "hits=2",
                  "side=japan")
    states = {u["unit"]: (u["hits"], u["state"]) for u in result["units"]}
    assert states == {"dd2": (1, "destroyed"), "dd": (1, "damaged"), "ca": (0, "full")}
    assert result["unused"] == 0


def test_allocate_hits_unused_hits_are_reported(lookup):
    result = lookup("allocate-hits", "units=a:1:full,b:2:damaged", "hits=5", "side=us")
    assert [u["state"] for u in result["units"]] == ["destroyed", "destroyed"]
    assert result["unused"] == 2
    assert max(u["hits"] for u in result["units"]) <= 2


def test_allocate_zero_hits(lookup):
    result = lookup("allocate-hits", "units=a:1:full", "hits=0", "side=us")
    assert result["units"][0]["state"] == "full" and result["unused"] == 0


def test_allocate_hits_airfield_floor(lookup):
    result = lookup("allocate-hits", "units=airfield:1:2", "hits=4", "side=us")
    assert result["units"][0]["capacity"] == 0 and result["unused"] == 2


def test_allocate_hits_cost_from_unit_ids(lookup):
    result = lookup("allocate-hits", "units=jp-desron-1:full,kaga:full", "hits=1", "side=japan")
    assert [u["cost"] for u in result["units"]] == [2, 1]
    assert result["units"][1]["state"] == "damaged"


@pytest.mark.parametrize("units", ["a:1", "a:x:full", "a:1:sunk", ":1:full", "nobody:full"])
def test_allocate_hits_bad_units(lookup, units):
    with pytest.raises(BadInput, match="units="):
        lookup("allocate-hits", f"units={units}", "hits=1", "side=us")


def test_allocate_hits_side_is_checked(lookup):
    with pytest.raises(BadInput, match="side="):
        lookup("allocate-hits", "units=a:1:full", "hits=1", "side=germany")


# --- linked-result, bonus-marker ---------------------------------------------------------


@pytest.mark.parametrize(("total", "result"), [
    (0, "ignominious-defeat"), (25, "ignominious-defeat"), (26, "disappointing"),
    (34, "disappointing"), (35, "historical"), (44, "historical"), (45, "historic-triumph"),
    (49, "historic-triumph"), (50, "great-victory"), (51, "great-victory"),
])
def test_linked_result(lookup, total, result):
    assert lookup("linked-result", f"total={total}")["result"] == result


def test_linked_result_labels(lookup):
    assert lookup("linked-result", "total=51")["label_ja"] == "偉大な勝利"


@pytest.mark.parametrize("total", ["52", "-1"])
def test_linked_result_out_of_range(lookup, total):
    with pytest.raises(BadInput, match="total="):
        lookup("linked-result", f"total={total}")


@pytest.mark.parametrize(("side", "name", "cost"), [
    ("us", "melee", 1), ("us", "vt-fuze", 2), ("us", "seabees", 2), ("japan", "kamikaze", None),
])
def test_bonus_marker(lookup, side, name, cost):
    result = lookup("bonus-marker", f"side={side}", f"name={name}")
    assert result["cost"] == cost and result["effect"]


@pytest.mark.parametrize(("side", "name"), [("us", "kamikaze"), ("japan", "melee"),
                                            ("us", "nothing")])
def test_bonus_marker_not_of_that_side(lookup, side, name):
    with pytest.raises(BadInput, match=f"name='{name}'"):
        lookup("bonus-marker", f"side={side}", f"name={name}")


def test_bonus_marker_rules_follow_the_side(game):
    out = run_lookup(game, ref_table(game, "bonus-marker"), ["side=japan", "name=kamikaze"])
    assert out["rules"] == ["10.7"]


# --- campaign-result, japanese-reinforcement, japanese-order ----------------------------


def test_campaign_result_1945_with_invasion(lookup):
    result = lookup("campaign-result", "campaign=1945", "objectives=13", "invasion_cost=82")
    assert result == {"total": 15, "level": "as-historical", "label_ja": "史実同様",
                      "dismissed": False}


def test_campaign_result_dismissal(lookup):
    assert lookup("campaign-result", "campaign=1942", "objectives=0")["dismissed"]
    assert not lookup("campaign-result", "campaign=1942", "objectives=8")["dismissed"]


def test_campaign_result_invasion_only_in_1945(lookup):
    with pytest.raises(RuleViolation, match="12.3"):
        lookup("campaign-result", "campaign=1942", "objectives=5", "invasion_cost=10")


def test_reinforcement_1944_extra_infantry(lookup):
    result = lookup("japanese-reinforcement", "roll=9", "campaign=1944")
    assert (result["ships"], result["infantry"], result["land_air"]) == (2, 4, 1)


@pytest.mark.parametrize(("roll", "row"), [(1, (0, 0, 0)), (10, (2, 2, 2))])
def test_reinforcement_smallest_and_largest_die(lookup, roll, row):
    result = lookup("japanese-reinforcement", f"roll={roll}")
    assert (result["ships"], result["infantry"], result["land_air"]) == row


def test_reinforcement_deep_negative_and_high_rolls(lookup):
    assert lookup("japanese-reinforcement", "roll=1", "damaged=20")["ships"] == 0
    assert lookup("japanese-reinforcement", "roll=10", "supply_markers=20")["ships"] == 3


def test_japanese_order_1945_okinawa_not_determined(game):
    from warpress.games.nimitz.rules import orders as od

    stack = od.phase_start(game, od.Stack("okinawa", ("s1",), ("g1", "g2")), False, "1945")
    assert stack.ground == () and stack.staying == 2
    assert od.phase_start(game, od.Stack("okinawa", ("s1",), ("g1", "g2")), False,
                          "1944").ground == ("g1", "g2")


def test_12_4_japanese_order_refused_at_okinawa_and_iwo_jima_in_1945(lookup):
    """12.4: in the 1945 campaign the Japanese units at Okinawa and Iwo Jima are never
    determined; the lookup refuses, naming the rule, and answers for other years."""
    for point in ("okinawa", "iwo-jima"):
        with pytest.raises(RuleViolation, match="12.4"):
            lookup("japanese-order", f"point={point}", "ships=2", "ground=1", "campaign=1945",
                   "roll=2")
        assert lookup("japanese-order", f"point={point}", "ships=2", "ground=1",
                      "campaign=1944", "roll=2")["executed"] == "standby"


def test_12_4_the_freeze_covers_ships(game):
    """12.4 freezes every Japanese unit at Okinawa and Iwo Jima in 1945, ships included."""
    from warpress.games.nimitz.rules import orders as od

    left, frozen = od.phase_freeze(game, od.Stack("iwo-jima", ("s1", "s2"), ("g1",), ("a1",)),
                                   False, "1945")
    assert left.empty and set(frozen) == {"s1", "s2", "g1", "a1"}
    left, frozen = od.phase_freeze(game, od.Stack("iwo-jima", ("s1", "s2"), ("g1",), ("a1",)),
                                   False, "1944")
    assert left.ships == ("s1", "s2") and frozen == ()


def test_japanese_order_needs_units(lookup):
    with pytest.raises(BadInput, match="ships="):
        lookup("japanese-order", "point=japan", "roll=2")


def test_japanese_order_unknown_point(lookup):
    with pytest.raises(BadInput, match="point='atlantis'"):
        lookup("japanese-order", "point=atlantis", "ships=1", "roll=2")


def test_aa_fire_rejects_non_ships(lookup):
    with pytest.raises(BadInput, match="ships='a6m'"):
        lookup("aa-fire", "ships=a6m", "aircraft=1", "rolls=1")


def test_aa_fire_needs_one_roll_per_firing_ship(lookup):
    with pytest.raises(BadInput, match="rolls"):
        lookup("aa-fire", "ships=kaga,nagato-mutsu", "aircraft=2", "rolls=1")


def test_transport_takes_no_hits(lookup):
    with pytest.raises(RuleViolation, match="10.10.2"):
        lookup("allocate-hits", "units=transport:0:full", "hits=1", "side=japan")
