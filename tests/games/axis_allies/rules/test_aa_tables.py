"""Catalogue tables at their edges, and the invariants (I1-I21) that are
table properties."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.dice import SeededDice
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.axis_allies.rules import board, research
from warpress.games.axis_allies.rules.common import is_hit, unit_types

TYPES = ("infantry", "armor", "fighter", "bomber", "antiaircraft", "battleship", "carrier",
         "transport", "submarine", "factory")


# --------------------------------------------------------------------------- unit


@pytest.mark.parametrize("unit_type", TYPES)
def test_unit_table_matches_the_unit_records(game, lookup, unit_type):
    row = lookup("unit", f"type={unit_type}")
    record = next(u for u in game.units if u.id == unit_type)
    assert row == {k: record.stats[k] for k in ("cost", "move", "attack", "defense")}


def test_unit_types_are_the_catalogue_list(game):
    assert unit_types(game) == TYPES


def test_factory_never_moves_or_rolls(lookup):
    assert lookup("unit", "type=factory") == {"cost": 15, "move": None, "attack": None,
                                              "defense": None}


def test_unknown_unit_type(lookup):
    with pytest.raises(BadInput, match="type='tank'"):
        lookup("unit", "type=tank")


# --------------------------------------------------------------------------- combat dice


@settings(max_examples=40, deadline=None)
@given(value=st.integers(0, 6), roll=st.integers(1, 6))
def test_i2_hit_iff_roll_at_or_under(game, value, roll):
    assert is_hit(game, value, roll) == (roll <= value)


# --------------------------------------------------------------------------- research


def test_research_matches_the_printed_rows(game, lookup):
    for row in game.table("research").rows:
        n = row.extra["dice"]
        assert lookup("research", f"dice={n}") == {"cost": row.extra["cost"],
                                                   "p_success": row.extra["p_success"]}


def test_research_edges(lookup):
    assert lookup("research", "dice=1") == {"cost": 5, "p_success": "1/6"}
    big = lookup("research", "dice=20")  # beyond the printed chart: the same formula
    assert big["cost"] == 100
    assert Fraction(big["p_success"]) == 1 - Fraction(5, 6) ** 20
    with pytest.raises(BadInput, match="dice='0'"):
        lookup("research", "dice=0")


@settings(max_examples=20, deadline=None)
@given(rolls=st.lists(st.integers(1, 6), min_size=1, max_size=6), seed=st.integers(0, 99))
def test_i18_development(game, rolls, seed):
    out = research.develop(game, len(rolls), [], SeededDice(seed, {"rolls": rolls}))
    sixes = rolls.count(6)
    assert out["sixes"] == sixes and out["success"] == (sixes > 0)
    gained = [] if out["weapons"] == "none" else out["weapons"].split(",")
    assert len(gained) == len(set(gained)) <= sixes
    assert out["cost"] == research.dice_cost(game, len(rolls)) == 5 * len(rolls)


def test_development_all_weapons_developed_discards_the_six(game, lookup):
    every = ",".join(r.id for r in game.section("weapons"))
    out = lookup("development", "dice=2", f"developed={every}", "rolls=6,6")
    assert out["sixes"] == 2 and out["weapons"] == "none"  # E12: nothing to roll for


def test_development_needs_its_rolls(lookup):
    with pytest.raises(BadInput, match="missing input 'chart'"):
        lookup("development", "dice=1", "rolls=6")
    with pytest.raises(BadInput, match="radar"):
        lookup("development", "dice=1", "developed=radar", "rolls=1")


def test_development_odds(odds):
    out = odds("development", "dice=2")
    assert out["exact"] == {"yes": "11/36", "no": "25/36"}


# --------------------------------------------------------------------------- placement


def test_placement_limit_edges(lookup):
    assert lookup("placement-limit", "factory=original")["limit"] == "unlimited"
    assert lookup("placement-limit", "factory=original", "income=12")["limit"] == "unlimited"
    assert lookup("placement-limit", "factory=built", "income=0")["limit"] == 0
    assert lookup("placement-limit", "factory=built", "income=12")["limit"] == 12
    assert lookup("placement-limit", "factory=built", "income=3", "place=3")["limit"] == 3
    with pytest.raises(BadInput, match="income='13'"):
        lookup("placement-limit", "factory=built", "income=13")
    with pytest.raises(BadInput, match="missing input 'income'"):
        lookup("placement-limit", "factory=built")
    with pytest.raises(BadInput, match="factory='new'"):
        lookup("placement-limit", "factory=new", "income=3")


def test_w28_placement_limit_refuses_a_second_factory_where_one_stands_from_the_start(lookup):
    """⑤ L112: Germany has had its industrial complex since the start of the game."""
    with pytest.raises(RuleViolation, match="since the start of the game"):
        lookup("placement-limit", "factory=built", "territory=germany")
    assert lookup("placement-limit", "factory=original", "territory=germany")["limit"] == \
        "unlimited"
    with pytest.raises(BadInput, match="no industrial complex at the start"):
        lookup("placement-limit", "factory=original", "territory=ukraine-ssr")


def test_placement_limit_from_the_board(lookup):
    assert lookup("placement-limit", "factory=built", "territory=ukraine-ssr")["limit"] == 3
    with pytest.raises(BadInput, match="atlantis"):
        lookup("placement-limit", "factory=built", "territory=atlantis")
    with pytest.raises(BadInput, match="sea zone"):
        lookup("placement-limit", "factory=built", "territory=north-sea-zone")
    with pytest.raises(BadInput, match="prints 3"):
        lookup("placement-limit", "factory=built", "territory=ukraine-ssr", "income=4")
    with pytest.raises(RuleViolation, match="at most 3"):
        lookup("placement-limit", "factory=built", "territory=ukraine-ssr", "place=4")


@settings(max_examples=30, deadline=None)
@given(income=st.integers(0, 12), place=st.integers(0, 20))
def test_i15_built_factory_limit(lookup, income, place):
    pairs = ("placement-limit", "factory=built", f"income={income}", f"place={place}")
    if place > income:
        with pytest.raises(RuleViolation):
            lookup(*pairs)
    else:
        assert lookup(*pairs)["limit"] == income


# --------------------------------------------------------------------------- victory


@settings(max_examples=60, deadline=None)
@given(axis=st.integers(0, 2), allied=st.integers(0, 3), npl=st.integers(0, 147),
       end=st.booleans())
def test_i20_victory_table_agrees_with_the_constants(game, lookup, axis, allied, npl, end):
    out = lookup("victory", f"axis_capitals_lost={axis}", f"allied_capitals_lost={allied}",
                 f"axis_npl={npl}", f"round_end={'yes' if end else 'no'}")
    allies_win = axis >= game.constant("axis-capitals-for-allied-win")
    axis_military = allied >= game.constant("allied-capitals-for-axis-win")
    axis_economic = npl >= game.constant("axis-economic-victory-npl")
    if not end:
        expected = "none"
    elif allies_win and axis_military:
        expected = "none"  # neither holds its own capitals (E10 ruling)
    elif allies_win:
        expected = "allies"
    elif axis_military or axis_economic:
        expected = "axis"
    else:
        expected = "none"
    assert out["winner"] == expected


def test_victory_edges(lookup):
    base = ("victory", "axis_capitals_lost=0", "allied_capitals_lost=0")
    assert lookup(*base, "axis_npl=147", "round_end=yes")["winner"] == "axis"
    assert lookup(*base, "axis_npl=0", "round_end=yes")["winner"] == "none"
    assert lookup(*base, "axis_npl=147", "round_end=no")["winner"] == "none"
    with pytest.raises(BadInput, match="axis_npl='148'"):
        lookup(*base, "axis_npl=148", "round_end=yes")
    with pytest.raises(BadInput, match="allied_capitals_lost='4'"):
        lookup("victory", "axis_capitals_lost=0", "allied_capitals_lost=4", "axis_npl=1",
               "round_end=yes")
    with pytest.raises(BadInput, match="missing input 'round_end'"):
        lookup(*base, "axis_npl=1")


def test_board_victory_at_the_start(lookup, game):
    out = lookup("board-victory")
    assert out["winner"] == "none" and out["axis_npl"] == (
        game.constant("starting-ipc-germany") + game.constant("starting-ipc-japan"))
    assert out["axis_capitals_lost"] == out["allied_capitals_lost"] == 0


def test_board_victory_economic_win(lookup):
    grabs = ",".join(f"{t}:germany" for t in ("karelia-ssr", "caucasus", "india", "australia",
                                               "anglo-sudan-egypt", "east-canada", "brazil",
                                               "china", "sinkiang", "persia", "kazakh-ssr"))
    short = lookup("board-victory", f"control={grabs}")
    assert short["axis_npl"] == 83 and short["winner"] == "none"
    out = lookup("board-victory", f"control={grabs},novosibirsk:japan")
    assert out["axis_npl"] == 85 and out["winner"] == "axis"
    assert lookup("board-victory", f"control={grabs},novosibirsk:japan",
                  "round_end=no")["winner"] == "none"


@pytest.mark.parametrize("entry,match", [
    ("germany", "territory:power"), ("atlantis:germany", "atlantis"),
    ("germany:italy", "italy"), ("north-sea-zone:uk", "sea zone"),
])
def test_board_victory_bad_control(lookup, entry, match):
    with pytest.raises(BadInput, match=match):
        lookup("board-victory", f"control={entry}")


# --------------------------------------------------------------------------- income


def test_i19_income_at_the_start_is_the_starting_ipc(game, lookup):
    for side in board.sides(game):
        out = lookup("income", f"power={side}")
        assert out["npl"] == out["income"] == game.constant(f"starting-ipc-{side}")


def test_income_after_a_capture(lookup):
    assert lookup("income", "power=germany", "control=karelia-ssr:germany")["npl"] == 35
    assert lookup("income", "power=russia", "control=karelia-ssr:germany")["npl"] == 21


# --------------------------------------------------------------------------- distance


def test_distance_by_unit_kind(lookup):
    out = lookup("distance", "start=germany", "end=russia", "type=armor")
    assert out["distance"] == 3 and out["in_range"] is False
    assert lookup("distance", "start=germany", "end=karelia-ssr", "type=armor")["in_range"]
    assert lookup("distance", "start=germany", "end=north-sea-zone", "type=armor")[
        "distance"] is None
    assert lookup("distance", "start=germany", "end=north-sea-zone")["distance"] is not None
    assert lookup("distance", "start=germany", "end=germany", "type=infantry")["distance"] == 0


def test_distance_bad_points(lookup):
    with pytest.raises(BadInput, match="start='atlantis'"):
        lookup("distance", "start=atlantis", "end=germany")


def test_i16_one_factory_one_aa_gun(game):
    control = board.start_control(game)
    with pytest.raises(RuleViolation, match="at most 1"):
        board.check_placement(game, "germany", "germany", {"antiaircraft": 2}, control,
                              factories={"germany": "original"})


def test_i14_no_units_placed_with_a_factory_bought_this_turn(game):
    """Regression (verify placement): units came out with a factory placed this turn."""
    control = board.start_control(game)
    with pytest.raises(RuleViolation, match="held since"):
        board.check_placement(game, "germany", "east-europe", {"factory": 1, "infantry": 5},
                              control, factories={"germany": "original"},
                              built_this_turn=["east-europe"])
    out = board.check_placement(game, "germany", "east-europe", {"factory": 1}, control,
                                factories={"germany": "original"})
    assert out["where"] == "east-europe"


def test_a_new_factory_goes_to_a_territory_held_since_the_turn_began(game):
    """Regression (verify placement): a factory could be placed in an enemy territory."""
    control = board.start_control(game)
    with pytest.raises(RuleViolation, match="new industrial complex"):
        board.check_placement(game, "germany", "russia", {"factory": 1}, control,
                              factories={"germany": "original"})
    with pytest.raises(RuleViolation, match="new industrial complex"):
        board.check_placement(game, "germany", "east-europe", {"factory": 1}, control,
                              factories={}, captured_this_turn=["east-europe"])


def test_i15_placement_checks_the_limit_of_a_built_factory(game):
    """Regression (verify placement): 9 units at a built factory of income 3 were accepted."""
    control = board.start_control(game)
    built = {"east-europe": "built"}
    assert board.check_placement(game, "germany", "east-europe", {"infantry": 3}, control,
                                 factories=built)["factory"] == "east-europe"
    with pytest.raises(RuleViolation, match="at most 3"):
        board.check_placement(game, "germany", "east-europe", {"infantry": 9}, control,
                              factories=built)
    with pytest.raises(RuleViolation, match="at most 3"):
        board.check_placement(game, "germany", "east-europe", {"armor": 2}, control,
                              factories=built, placed={"east-europe": 2})
    assert board.check_placement(game, "germany", "germany", {"infantry": 20}, control,
                                 factories={"germany": "original"})["factory"] == "germany"


def test_i11_aircraft_that_fought_leave_the_battle_space(game):
    """Regression (verify noncombat_movement): a fighter flew out and back to its battle zone."""
    control = board.start_control(game)
    there_and_back = ["north-sea-zone", "baltic-sea-zone", "north-sea-zone"]
    with pytest.raises(RuleViolation, match="must leave"):
        board.noncombat_move(game, "germany", "fighter", there_and_back, control,
                             moved_in_combat=True, used=1, carriers=["north-sea-zone"])
    assert board.noncombat_move(game, "germany", "fighter", there_and_back, control,
                                carriers=["north-sea-zone"]) == "north-sea-zone"


def test_i12_no_carrier_landing_where_enemy_units_are(game):
    """Regression (verify noncombat_movement): a fighter landed on a carrier among enemies."""
    control = board.start_control(game)
    with pytest.raises(RuleViolation, match="enemy units"):
        board.noncombat_move(game, "japan", "fighter", ["japan", "japan-sea-zone"], control,
                             enemy_units=["japan-sea-zone"], carriers=["japan-sea-zone"])


def test_i1_turn_order_cycles(game):
    power, rnd, seen = "russia", 1, []
    for _ in range(10):
        seen.append(power)
        power, rnd = board.next_turn(game, power, rnd)
    assert seen == ["russia", "germany", "uk", "japan", "usa"] * 2 and rnd == 3


# --------------------------------------------------------------------------- die extremes


@pytest.mark.parametrize("value", range(0, 7))
def test_combat_hit_smallest_and_largest_roll(lookup, value):
    assert lookup("combat-hit", f"value={value}", "roll=1")["hit"] is (value >= 1)
    assert lookup("combat-hit", f"value={value}", "roll=6")["hit"] is (value >= 6)


def test_aa_fire_and_research_die_extremes(lookup):
    assert lookup("aa-fire", "roll=1")["destroyed"] is True
    assert lookup("aa-fire", "roll=2")["destroyed"] is False
    assert lookup("aa-fire", "roll=6")["destroyed"] is False
    assert lookup("research-die", "roll=5")["success"] is False
    assert lookup("research-die", "roll=6")["success"] is True
    with pytest.raises(BadInput, match="roll"):
        lookup("aa-fire", "roll=0")


def test_battle_round_of_all_sixes_and_all_ones(lookup):
    misses = lookup("battle", "attacker=2 infantry, 1 bomber", "defender=2 infantry, 1 fighter",
                    "attacker_rolls=6,6,6", "defender_rolls=6,6,6", "rounds=1")
    assert misses["winner"] == "undecided" and misses["attacker_left"] == "2 infantry, 1 bomber"
    hits = lookup("battle", "attacker=2 infantry, 1 bomber", "defender=2 infantry, 1 fighter",
                  "attacker_rolls=1,1,1", "defender_rolls=1,1,1", "rounds=1")
    assert hits["winner"] == "mutual" and hits["rounds"] == 1
    with pytest.raises(BadInput, match="attacker_rolls"):
        lookup("battle", "attacker=1 infantry", "defender=1 infantry", "attacker_rolls=7",
               "defender_rolls=1", "rounds=1")
