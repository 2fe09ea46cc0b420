"""Every worked example of Nimitz (ids T01 ...) as a test."""

from __future__ import annotations

import pytest
from warpress.engine.dice import GivenDice, read_roll
from warpress.engine.errors import RuleViolation
from warpress.games.nimitz.rules import campaign as cp
from warpress.games.nimitz.rules import combat as cb
from warpress.games.nimitz.rules import orders as od
from warpress.games.nimitz.rules.campaign import MapView
from warpress.games.nimitz.rules.common import AttackValue, Piece, unit_value
from warpress.games.nimitz.rules.orders import Board, Stack


def units(game, *ids):
    return [game.get("units", i) for i in ids]


def order_roll(game, order):
    """The first d10 face of the (partly assumed) order table that gives ``order``."""
    for face in range(1, 11):
        if cb.table_row(game, "japanese-orders", roll=face)["order"] == order:
            return face
    raise AssertionError(order)


def states(allocation):
    return [(p.name, p.hits, p.state) for p in allocation.pieces]


# --- 13.1 dice and stats --------------------------------------------------------------


def test_t01_face_zero_reads_ten(lookup):
    assert read_roll("d10", 0) == 10
    assert lookup("attack", "value=10", "roll=0") == lookup("attack", "value=10", "roll=10")


@pytest.mark.parametrize(("roll", "hits"), [(1, 2), (2, 2), (3, 1), (4, 1)] +
                         [(r, 0) for r in range(5, 11)])
def test_t02_carrier_aa_normal_superior(game, roll, hits):
    assert cb.attack_hits(game, AttackValue(4, 2), roll) == hits


@pytest.mark.parametrize(("key", "hit_on", "miss_on"), [("aa", 3, 4), ("gunnery", 4, 5),
                                                        ("asw", 2, 3)])
def test_t03_t04_t05_colorado_maryland(game, key, hit_on, miss_on):
    value = unit_value(game.get("units", "colorado-maryland"), key)
    assert cb.attack_hits(game, value, hit_on) == 1
    assert cb.attack_hits(game, value, miss_on) == 0


def test_t06_two_steps(game):
    once = cb.hit_piece(game, Piece("ca", 3))
    assert once.state == "damaged"
    assert cb.hit_piece(game, once).state == "destroyed"


def test_t07_equal_cost_is_the_players_choice(game):
    done = cb.allocate_hits(game, [Piece("dd-a", 2), Piece("dd-b", 2)], 1)
    assert done.player_choice and sum(p.hits for p in done.pieces) == 1


@pytest.mark.parametrize(("options", "rolls", "picked"), [
    (("a", "b"), [5], "a"), (("a", "b"), [6], "b"),
    (("a", "b", "c", "d"), [2], "a"), (("a", "b", "c", "d"), [3], "b"),
    (("a", "b", "c", "d"), [8], "d"), (("a", "b", "c", "d"), [9, 10, 6], "c"),
])
def test_t08_random_choice_splits_faces_and_rerolls(game, options, rolls, picked):
    assert od.random_choice(game, options, GivenDice({"roll": rolls})) == picked


# --- 13.2 US supply, purchase, movement -------------------------------------------------


def test_t10_lexington_costs(game):
    assert cp.unit_buy_cost(game, "lexington") == 5
    assert cp.unit_hit_cost(game, "lexington") == 1


def test_t11_repair_lexington(game):
    assert cp.repair_supply(game, cp.unit_buy_cost(game, "lexington")) == 2


@pytest.mark.parametrize("cost", [1, 2, 3])
def test_t12_repair_floor(game, cost):
    assert cp.repair_supply(game, cost) == 1


def test_t13_moving_five_units(game):
    assert cp.move_cost(game, 3 + 2) == 5


AUS_VIEW = MapView(us_ground=frozenset({"new-guinea", "midway"}))


def test_t14_australian_units_only_at_flagged_points(game):
    cp.check_us_move(game, "raaf-bg2", "australia", "new-guinea", AUS_VIEW)
    with pytest.raises(RuleViolation, match="8.2"):
        cp.check_us_move(game, "raaf-bg2", "australia", "midway", AUS_VIEW)


@pytest.mark.parametrize("dest", ["japan", "east-asia"])
def test_t15_no_us_unit_in_japan_or_east_asia(game, dest):
    with pytest.raises(RuleViolation, match=r"rule 8\.2\)"):
        cp.check_us_move(game, "us-desron-1", "hawaiian-islands", dest, MapView())


def test_t16_land_air_to_midway_with_us_ground(game):
    cp.check_us_move(game, "us-11bg", "hawaiian-islands", "midway",
                     MapView(us_ground=frozenset({"midway"})))


def test_t17_land_air_not_to_iwo_jima(game):
    view = MapView(japanese_land_air=frozenset({"iwo-jima"}))
    with pytest.raises(RuleViolation, match=r"8\.2\.1"):
        cp.check_us_move(game, "us-11bg", "hawaiian-islands", "iwo-jima", view)


def test_t18_land_air_to_contested_wake(game):
    view = MapView(us_ground=frozenset({"wake"}), japanese_ground=frozenset({"wake"}))
    cp.check_us_move(game, "us-11bg", "hawaiian-islands", "wake", view)


def test_t19_solomons_capacity_six(game):
    view = MapView(us_land_air=frozenset({"solomon-islands", "west-coast"}),
                   us_land_air_count={"solomon-islands": 6, "west-coast": 40})
    with pytest.raises(RuleViolation, match="at most 6"):
        cp.check_land_air_move(game, "solomon-islands", view)
    cp.check_land_air_move(game, "west-coast", view)
    few = MapView(us_land_air=frozenset({"solomon-islands"}),
                  us_land_air_count={"solomon-islands": 5})
    cp.check_land_air_move(game, "solomon-islands", few)


def test_t20_ground_pinned_ships_and_air_free(game):
    view = MapView(us_ground=frozenset({"solomon-islands", "hawaiian-islands"}),
                   japanese_ships=frozenset({"solomon-islands"}))
    with pytest.raises(RuleViolation, match=r"8\.2\.2"):
        cp.check_us_move(game, "us-battalion", "solomon-islands", "hawaiian-islands", view)
    cp.check_us_move(game, "chicago-northampton", "solomon-islands", "hawaiian-islands", view)
    cp.check_us_move(game, "us-28bg", "solomon-islands", "hawaiian-islands", view)


def test_t21_recon_markers(game):
    assert cp.recon_cost(game, 3) == 3


def test_t22_commerce_raiding(game):
    assert cp.raiding(game, 2) == (2, -4)


# --- 13.3 Japanese movement -------------------------------------------------------------


def test_t30_ground_frozen_where_us_units_are(game):
    stack = od.phase_start(game, Stack("wake", ("s1", "s2"), ("g1",)), us_here=True)
    assert stack.ships == ("s1", "s2") and stack.ground == () and stack.staying == 1


def test_t31_last_ground_or_air_unit_stays(game):
    board = Board(MapView(japanese_ground=frozenset({"gilbert-islands", "wake"})),
                  objectives=frozenset({"gilbert-islands"}))
    stack = Stack("wake", ("s1",), ("g1",), ("a1", "a2"))
    move = od.determine(game, stack, board, GivenDice({"roll": [order_roll(game, "reinforce")]}))
    assert (move.executed, move.destination) == ("reinforce", "gilbert-islands")
    assert (move.ships, move.ground, move.land_air) == (("s1",), ("g1",), ("a1",))
    assert od.after(stack, move).land_air == ("a2",)


def test_t32_south_advance_at_new_guinea_is_standby(game):
    move = od.determine(game, Stack("new-guinea", ("s1",)), Board(MapView()),
                        GivenDice({"roll": [order_roll(game, "south-advance")]}))
    assert move.executed == "standby" and move.supply_markers == 1


def test_t33_reinforce_picking_the_own_point_is_standby(game):
    garrison = frozenset({"wake", "gilbert-islands", "samoa"})
    board = Board(MapView(japanese_ground=garrison), objectives=garrison)
    stack = Stack("wake", ("s1",), ("g1", "g2"))
    # map order: wake, gilbert-islands, samoa -> faces 1-3 wake
    move = od.determine(game, stack, board,
                        GivenDice({"roll": [order_roll(game, "reinforce"), 2]}))
    assert move.executed == "standby" and "own point" in move.reason


EAST = Board(MapView(japanese_ground=frozenset({"wake", "mariana-islands"}),
                     us_ships=frozenset({"wake"})))


def test_t34_battalion_for_the_infantry_that_must_stay(game):
    stack = Stack("mariana-islands", (), ("g1", "g2"))
    move = od.determine(game, stack, EAST, GivenDice({"roll": [order_roll(game, "east-advance")]}))
    assert (move.executed, move.destination) == ("east-advance", "wake")
    assert move.ground == ("g1",) and move.battalions == 1 and move.transport


def test_t35_no_battalion_when_the_only_ground_unit_stays(game):
    stack = Stack("mariana-islands", ("s1",), ("g1",))
    move = od.determine(game, stack, EAST, GivenDice({"roll": [order_roll(game, "east-advance")]}))
    assert move.ships == ("s1",) and move.ground == () and move.battalions == 0


def test_t36_frozen_infantry_replaced_by_a_battalion(game):
    both = frozenset({"solomon-islands", "new-guinea"})
    board = Board(MapView(us_ground=both, japanese_ground=both))
    stack = od.phase_start(game, Stack("solomon-islands", ("s1", "s2"), ("g1",), ("a1",)),
                           us_here=True)
    # candidates in map order: solomon-islands (1-5), new-guinea (6-10)
    move = od.determine(game, stack, board,
                        GivenDice({"roll": [order_roll(game, "battle"), 7]}))
    assert (move.executed, move.destination) == ("battle", "new-guinea")
    assert move.ships == ("s1", "s2") and move.ground == () and move.land_air == ("a1",)
    assert move.battalions == 1


def test_t37_standby_freezes_six_two_three(game):
    stack = Stack("caroline-islands", tuple(f"s{i}" for i in range(5)), ("g1", "g2", "g3"))
    move = od.determine(game, stack, Board(MapView()),
                        GivenDice({"roll": [order_roll(game, "standby")]}))
    assert len(move.ships) == 5 and move.ground == ("g1", "g2") and move.supply_markers == 1
    rest = od.after(stack, move)
    assert rest.ground == ("g3",) and rest.ships == ()


def test_t38_reorganize_at_japan(game):
    move = od.determine(game, Stack("japan", ("s1",)), Board(MapView()),
                        GivenDice({"roll": [order_roll(game, "reorganize")]}))
    assert move.executed == "standby"


def test_t39_south_advance_next_to_australia(game):
    move = od.determine(game, Stack("solomon-islands", ("s1",)), Board(MapView()),
                        GivenDice({"roll": [order_roll(game, "south-advance")]}))
    assert move.executed == "standby"


def test_t40_east_advance_without_a_japanese_held_point(game):
    move = od.determine(game, Stack("mariana-islands", ("s1",)), Board(MapView()),
                        GivenDice({"roll": [order_roll(game, "east-advance")]}))
    assert move.executed == "standby" and "cannot be executed" in move.reason


def test_t41_battle_without_a_contested_point(game):
    board = Board(MapView(us_ground=frozenset({"midway"})))
    move = od.determine(game, Stack("wake", ("s1",)), board,
                        GivenDice({"roll": [order_roll(game, "battle")]}))
    assert move.executed == "standby"


def test_t42_sortie_land_air_stays_without_garrison(game):
    board = Board(MapView(us_ground=frozenset({"midway"})), objectives=frozenset({"midway"}))
    stack = Stack("japan", ("s1", "s2", "s3", "s4"), ("g1", "g2"), ("a1",))
    move = od.determine(game, stack, board, GivenDice({"roll": [order_roll(game, "sortie")]}))
    assert move.destination == "midway" and len(move.ships) == 3 and move.ground == ("g1",)
    assert move.land_air == () and od.after(stack, move).land_air == ("a1",)


def test_t43_single_unit_point_is_not_determined(game):
    stack = od.phase_start(game, Stack("okinawa", (), ("g1",)), us_here=False)
    assert stack.empty and stack.staying == 1
    assert not od.phase_start(game, Stack("japan", (), ("g1",)), us_here=False).empty


def test_t44_never_to_west_coast_or_australia(game):
    board = Board(MapView(us_ground=frozenset({"west-coast", "australia"})),
                  objectives=frozenset({"australia"}))
    for target in ("nearest-us", "nearest-us-objective", "contested", "toward-australia"):
        options = od.candidates(game, target, Stack("new-caledonia", ("s",)), board)
        assert not {"west-coast", "australia"} & set(options)


# --- 13.4 battle ------------------------------------------------------------------------


def test_t50_airfield_capacity():
    assert cb.airfield_capacity(6) == 6


def test_t51_lexington_complement(game):
    assert cb.complement(game, "lexington") == {"f4f": 1, "sbd": 2, "tbd": 1}


def test_t52_escorts_split_three_and_five(game):
    ships = units(game, "kaga", "akagi", "soryu", "nagato-mutsu", "hiei-kirishima",
                  "tone-chikuma", "myoko-haguro", "aoba-kinugasa", "jp-desron-1",
                  "jp-desron-4", "jp-desron-5")
    areas = cb.place_japanese_ships(game, ships, landing=True)
    sea = [s for s in areas["japanese-sea"] if cb.is_escort(s)]
    assert len(sea) == 3 and len(areas["coastal"]) == 5
    assert max(cb.stat(s, "gunnery") for s in sea) <= min(cb.stat(s, "gunnery")
                                                          for s in areas["coastal"])


def test_t53_carriers_only(game):
    areas = cb.place_japanese_ships(game, units(game, "kaga", "nagato-mutsu"), landing=False)
    assert len(areas["japanese-sea"]) == 2 and not areas["coastal"]


def test_t54_no_carrier(game):
    areas = cb.place_japanese_ships(game, units(game, "nagato-mutsu", "jp-desron-1"), True)
    assert len(areas["coastal"]) == 2 and not areas["japanese-sea"]


@pytest.mark.parametrize(("us_carrier", "coastal", "area"), [
    (True, True, "us-sea"), (False, True, "coastal"), (False, False, "japanese-sea")])
def test_t55_japanese_submarines(game, us_carrier, coastal, area):
    areas = cb.place_japanese_ships(game, units(game, "jp-1st-sub-flotilla"), False,
                                    us_carrier=us_carrier, us_coastal_ships=coastal)
    assert [s.id for s in areas[area]] == ["jp-1st-sub-flotilla"]


def test_t56_kaga_complement(game):
    assert cb.complement(game, "kaga") == {"a6m": 1, "d3a": 1, "b5n": 1}


def test_t57_round_die_nine(game):
    assert cb.battle_rounds(game, 9) == 4


def test_t58_battle_plan_count(game):
    count = cb.battle_plan_units(ships=3, ground=2, land_air=1)  # no carrier air, no transport
    assert count == 6 and cb.battle_plan_draws(game, count) == 2


def test_t59_battle_points(game):
    assert cb.battle_points(game, 2) == 9 and cb.battle_points(game, 0) == 3


VIEW_LAND_AIR = cb.AirView(us_land_air=True)


def test_t60_die_five_island(game):
    assert cb.air_destination(game, 5, cb.bomber_areas(VIEW_LAND_AIR)) == ("island", "island")


def test_t61_japanese_sea_empty_goes_to_island(game):
    assert cb.air_destination(game, 2, cb.bomber_areas(VIEW_LAND_AIR))[1] == "island"


def test_t62_coastal_empty_goes_to_us_sea(game):
    view = cb.AirView(us_ships=frozenset({"us-sea"}))
    assert cb.air_destination(game, 6, cb.bomber_areas(view))[1] == "us-sea"


def test_t63_coastal_and_us_sea_empty_wraps_to_island(game):
    view = cb.AirView(us_ships=frozenset(), us_land_air=True)
    assert cb.air_destination(game, 6, cb.bomber_areas(view)) == ("coastal", "island")


def test_t64_fighters_stay_without_aircraft(game):
    assert cb.air_destination(game, 8, cb.fighter_areas(cb.AirView()))[1] is None


def test_t65_us_ground_alone_is_no_bomber_target():
    assert "island" not in cb.bomber_areas(cb.AirView(us_ground=True))
    assert "island" in cb.bomber_areas(cb.AirView(us_ground=True, japanese_ground_or_air=True))


def test_t66_us_ground_and_land_air_is_a_target():
    assert "island" in cb.bomber_areas(cb.AirView(us_ground=True, us_land_air=True))


def test_t67_seven_bombing_hits_on_the_island(game):
    pieces = [Piece("battalion", 0), Piece("infantry", 1), Piece("airfield", 1, capacity=5)]
    done = cb.allocate_hits(game, pieces, 7)
    assert states(done) == [("battalion", 2, "destroyed"), ("infantry", 2, "destroyed"),
                            ("airfield", 3, "damaged")]
    assert done.pieces[2].capacity == 2 and done.unused == 0 and done.player_choice


def test_t68_carrier_first(game):
    done = cb.allocate_hits(game, [Piece("dd-1", 2), Piece("cv", 1), Piece("dd-2", 2)], 3)
    assert states(done) == [("dd-1", 1, "damaged"), ("cv", 2, "destroyed"), ("dd-2", 0, "full")]
    assert done.player_choice


def test_t69_transport_hits_go_to_the_infantry_aboard(game):
    done = cb.allocate_hits(game, [Piece("inf-a", 1), Piece("inf-b", 1), Piece("inf-c", 1)], 3)
    assert states(done) == [("inf-a", 2, "destroyed"), ("inf-b", 1, "damaged"),
                            ("inf-c", 0, "full")]


def test_t70_surplus_air_combat_hits_are_lost(game):
    done = cb.allocate_hits(game, [Piece("zero", 2)], 4)
    assert done.pieces[0].state == "destroyed" and done.unused == 2


def test_t72_aa_rows_three_aircraft(game):
    rows = cb.aa_rows(game, units(game, "kaga", "nagato-mutsu", "jp-desron-1"), 3)
    assert [[s.id for s in row] for row in rows] == [["nagato-mutsu", "jp-desron-1"], ["kaga"]]


def test_t73_aa_rows_one_aircraft(game):
    rows = cb.aa_rows(game, units(game, "kaga", "jp-desron-1", "nagato-mutsu"), 1)
    assert [[s.id for s in row] for row in rows] == [["nagato-mutsu"], ["kaga"]]


def test_t74_six_ships_three_aircraft(game):
    ships = units(game, "nagato-mutsu", "hiei-kirishima", "tone-chikuma", "myoko-haguro",
                  "jp-desron-1", "jp-desron-4")
    assert sum(len(row) for row in cb.aa_rows(game, ships, 3)) == 3


def test_t75_one_asw_attacker_per_submarine(game):
    ships = units(game, "colorado-maryland", "chicago-northampton", "chester-louisville",
                  "us-desron-1", "lexington", "enterprise")
    assert [s.id for s in cb.asw_attackers(game, ships, 1)] == ["us-desron-1"]


def test_t76_gunfire_by_cost_damaged_first(game):
    pieces = [Piece("ca", 3), Piece("inf", 1, "damaged"), Piece("dd", 2, "damaged"),
              Piece("airfield", 1, capacity=2)]
    done = cb.allocate_hits(game, pieces, 3)
    assert states(done)[1] == ("inf", 1, "destroyed")
    assert done.pieces[3].capacity == 0 and done.pieces[0].state == "full"


def test_t77_t78_island_ground_needs_own_ground(game):
    assert not cb.island_ground_targetable(game, own_ground_on_island=False)
    assert cb.island_ground_targetable(game, own_ground_on_island=True)


def test_t79_airfield_three_hits(game):
    done = cb.allocate_hits(game, [Piece("airfield", 1, capacity=5)], 3)
    assert done.pieces[0].capacity == 2


def test_t80_ground_movement():
    assert cb.ground_move("beach", marine=False) == "position"
    assert cb.ground_move("transport", marine=False) == "beach"
    assert cb.ground_move("transport", marine=True) == "position"


def test_t81_damaged_carrier_takes_none(game):
    planes = [cb.Plane("a6m", 2), cb.Plane("d3a", 2)]
    done = cb.carrier_return(game, "japan", 3, damaged=True, planes=planes)
    assert done.landed == () and len(done.removed) == 2


def test_t81_us_damaged_carrier_leaves_no_choice(game, lookup):
    """10.20.2: a damaged US carrier takes back none, so every aircraft is removed and the
    player has nothing to choose (10.20.4 applies only when some land)."""
    planes = [cb.Plane("f4f", 2), cb.Plane("sbd", 2), cb.Plane("tbd", 1, "damaged")]
    done = cb.carrier_return(game, "us", 4, damaged=True, planes=planes)
    assert done.landed == () and len(done.removed) == 3 and not done.player_choice
    answer = lookup("carrier-return", "side=us", "complement=4", "damaged=yes",
                    "aircraft=f4f:2:full,sbd:2:full")
    assert answer["removed"] == ["f4f", "sbd"] and answer["player_choice"] is False
    some = cb.carrier_return(game, "us", 1, damaged=False, planes=planes)
    assert len(some.landed) == 1 and some.player_choice


def test_t82_japanese_excess_damaged_then_cheapest(game):
    planes = [cb.Plane("a", 2), cb.Plane("b", 1), cb.Plane("c", 3, "damaged"), cb.Plane("d", 2)]
    done = cb.carrier_return(game, "japan", 2, damaged=False, planes=planes)
    assert {p.name for p in done.removed} == {"c", "b"} and not done.player_choice


def test_t83_airfield_damage_removes_two(game):
    capacity = 7
    capacity = cb.allocate_hits(game, [Piece("airfield", 1, capacity=capacity)], 3).pieces[0]
    planes = [cb.Plane(f"a{i}", c, s) for i, (c, s) in
              enumerate([(2, "full"), (3, "damaged"), (1, "full"), (2, "damaged"), (2, "full"),
                         (3, "full")])]
    done = cb.airfield_landing(game, "japan", capacity.capacity, planes)
    assert capacity.capacity == 4 and {p.name for p in done.removed} == {"a3", "a1"}


# --- 13.5 bonus markers -----------------------------------------------------------------


@pytest.mark.parametrize(("value", "stat", "marker", "after"), [
    ("4/2", "air", "air-superiority", "7/4"),        # T90
    ("4", "anti_ship", "air-superiority", "7/2"),    # T91
    ("4", "gunnery", "attack-plan", "5"),            # T92
    ("2", "ground", "infantry-combat", "5/2"),       # T93
    ("4", "gunnery", "surface-fleet-success", "7/2"),  # T94
    ("4/2", "aa", "surface-fleet-success", "7/4"),   # T94
    ("4", "torpedo", "surface-fleet-success", "4"),  # no effect on submarines
    ("4", "anti_ship", "infantry-combat", "4"),
])
def test_t90_to_t94_marker_values(lookup, value, stat, marker, after):
    result = lookup("attack", f"value={value}", f"stat={stat}", f"markers={marker}", "roll=10")
    assert result["value"] == after


@pytest.mark.parametrize(("roll", "hits"), [(10, 1), (8, 1), (7, 2), (3, 2), (2, 3), (1, 3)])
def test_t95_kamikaze_with_air_superiority(lookup, roll, hits):
    result = lookup("attack", "value=4", "stat=anti_ship", "markers=kamikaze,air-superiority",
                  "campaign=1944", f"roll={roll}")
    assert result["hits"] == hits


@pytest.mark.parametrize("year", ["1942", "1943"])
def test_t96_kamikaze_void_early(lookup, year):
    result = lookup("attack", "value=4", "stat=anti_ship", "markers=kamikaze",
                  f"campaign={year}", "roll=9")
    assert result["hits"] == 0


def test_t97_us_first_strike(game):
    assert cb.first_strike(game, 6) == (False, True)
    assert cb.first_strike(game, 7) == (True, False)


def test_t98_both_first_strikes_cancel(game):
    assert cb.first_strike(game, 10, japan_also=True) == (False, False)


def test_t99_melee_adds_a_hit(game):
    assert cb.bonus_extra_hits(game, 1) == 2 and cb.bonus_extra_hits(game, 0) == 0


@pytest.mark.parametrize(("jp", "us", "change"), [(5, 4, 1), (4, 5, -1), (4, 4, 0)])
def test_t100_battle_duration(game, jp, us, change):
    assert cb.battle_duration(game, jp, us) == change


def test_t101_escort_fleet_cancels_one(game):
    assert cb.cancel_hits(game, 1) == 0 and cb.cancel_hits(game, 2) == 1


# --- 13.6 post-battle, victory ----------------------------------------------------------


def test_t110_reinforcement_nine(game, lookup):
    modified = cp.reinforcement_roll(game, 7, supply_markers=6, damaged=0, raiding_subs=2)
    assert modified == 9
    assert cp.reinforcements(game, modified) == cp.Reinforcements(2, 2, 1, 0)
    result = lookup("japanese-reinforcement", "roll=7", "supply_markers=6", "raiding_subs=2")
    assert (result["ships"], result["infantry"], result["land_air"]) == (2, 2, 1)


def test_t111_no_land_air_left(game):
    got = cp.reinforcements(game, 9, {"ships": 5, "infantry": 5, "land_air": 0})
    assert got == cp.Reinforcements(2, 2, 0, 2)


def test_t112_damaged_infantry_with_us_units_not_counted():
    assert cp.damaged_count([("infantry", True, True), ("ship", True, False),
                             ("infantry", True, False), ("ship", False, False)]) == 2


def test_t113_t114_repair(game):
    assert cp.repairable("ship", with_us_units=True, last_unit=False)
    assert not cp.repairable("infantry", with_us_units=True, last_unit=False)
    assert not cp.repairable("land_air", with_us_units=False, last_unit=True)


def test_t115_port_return_1943(game):
    boxes = {"port-return-1942-45": ("old",), "port-return-1943-45": ("mid",)}
    after, home = cp.port_return(game, "1943", boxes, ["wake-ship", "midway-ship"])
    assert home == ("old",)
    assert after == {"port-return-1942-45": ("mid",),
                     "port-return-1943-45": ("wake-ship", "midway-ship")}


def test_t116_australia_is_not_exempt(game):
    assert cp.must_return(game, "australia", enemy_present=False)
    assert not cp.must_return(game, "hawaiian-islands", enemy_present=False)
    assert cp.must_return(game, "hawaiian-islands", enemy_present=True)
    after, _ = cp.port_return(game, "1942", {}, ["ship"])
    assert after == {"port-return-1942-45": ("ship",)}


def test_t117_marianas_out_of_supply(game, lookup):
    view = MapView(us_ground=frozenset({"hawaiian-islands", "midway", "wake",
                                        "mariana-islands"}),
                   japanese_ground=frozenset({"wake"}))
    assert cp.supply_check(game, view) == {"hawaiian-islands": True, "mariana-islands": False,
                                           "midway": True, "wake": True}
    assert cp.supply_hits(game, False) == 1
    result = lookup("supply", "us=hawaiian-islands,midway,wake,mariana-islands", "japan=wake")
    assert result["out_of_supply"] == ["mariana-islands"]


def test_t118_1942_dismissal(game):
    assert cp.dismissed(game, "1942", 3) and not cp.dismissed(game, "1942", 4)


def test_t119_1942_seven_held(game):
    assert cp.campaign_level(game, "1942", 7)["label_ja"] == "史実以上の勝利"


def test_t120_hawaii(game):
    assert cp.hawaii_lost(1, 1, game) and not cp.hawaii_lost(0, 1, game)


def test_t121_strategic_bombing(game):
    assert cp.strategic_bombing(game, 3) == (3, 3)


def test_t122_eighth_unit_into_the_invasion_box(game):
    cp.check_invasion_moves(game, 7, "west-coast")
    with pytest.raises(RuleViolation, match="12.3"):
        cp.check_invasion_moves(game, 8, "west-coast")


def test_t123_invasion_82(game):
    total = 13 + cp.invasion_objectives(game, 82)
    assert total == 15 and cp.campaign_level(game, "1945", total)["label_ja"] == "史実同様"


@pytest.mark.parametrize(("total", "result"), [
    (51, "great-victory"), (50, "great-victory"), (49, "historic-triumph"),
    (45, "historic-triumph"), (44, "historical"), (35, "historical"), (34, "disappointing"),
    (26, "disappointing"), (25, "ignominious-defeat"), (0, "ignominious-defeat")])
def test_t124_linked_campaign(game, total, result):
    assert cp.linked_result(game, total)["result"] == result


def test_air_combat_is_simultaneous_i43(game):
    a6m = cb.Flyer(Piece("a6m", 2), unit_value(game.get("units", "a6m"), "air"))
    f4f = cb.Flyer(Piece("f4f", 2), unit_value(game.get("units", "f4f"), "air"))
    # PE round 2: A6M die 7 -> 1 hit on the F4F; F4F die 4 -> 1 hit + melee -> A6M destroyed
    us, jp = cb.air_combat(game, [f4f], [a6m], GivenDice({"us": 4, "japan": 7}), melee=True)
    assert us[0].state == "damaged" and jp[0].state == "destroyed"


def test_t70_air_combat_hits_stay_with_aircraft(game):
    flyers = [cb.Flyer(Piece(f"f{i}", 2), AttackValue(10, 10)) for i in range(2)]
    zero = cb.Flyer(Piece("zero", 2))
    us, jp = cb.air_combat(game, flyers, [zero], GivenDice({"us": [1, 1]}))
    assert jp[0].state == "destroyed" and all(p.state == "full" for p in us)
