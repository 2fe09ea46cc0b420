"""Fleet movement, search from the map, base-attack range and initiative (6.x, 7.x, 8.1)."""

from __future__ import annotations

import pytest
from warpress.engine.dice import GivenDice, distribution
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.midway.rules import common
from warpress.games.midway.rules import movement as M
from warpress.games.midway.rules import search as S


def test_the_map_is_flat_even_q_with_midway_at_f6(game):
    grid = common.grid(game)
    assert grid.orientation == "flat" and grid.offset == "even-q"
    assert common.midway_hex(game) == "F-6"
    assert set(grid.within("F-6", 5)) == set(game.hex_map().feature("base-attack-range").hexes)
    assert set(grid.neighbours("F-6")) == set(game.hex_map().feature("midway-adjacent").hexes)


@pytest.mark.parametrize("hex_id", ["N-3", "A-11", "F6", "", "a-1x"])
def test_hexes_off_the_map_are_bad_input(game, hex_id):
    with pytest.raises(BadInput, match="not on the map"):
        common.distance(game, hex_id, "F-6")


def test_no_fleet_enters_or_passes_f6(game):
    with pytest.raises(RuleViolation, match=r"6\.1\(2\)"):
        M.check_path(game, "us-fleet", ["F-5", "F-6"], turn=2)
    with pytest.raises(RuleViolation, match=r"6\.1\(2\)"):
        M.check_path(game, "ichikokan", ["F-5", "F-6", "F-7"], turn=4)


def test_steps_must_be_adjacent(game):
    with pytest.raises(RuleViolation, match="not adjacent"):
        M.check_path(game, "us-fleet", ["F-4", "D-3"], turn=2)


@pytest.mark.parametrize(("fleet", "turn", "hexes", "ok"), [
    ("us-fleet", 2, 2, True), ("us-fleet", 2, 3, False), ("us-fleet", 4, 4, True),
    ("us-fleet", 4, 5, False), ("ichikokan", 5, 2, True), ("ichikokan", 4, 4, True),
    ("invasion-force", 5, 1, True), ("invasion-force", 5, 2, False),
    ("invasion-force", 4, 2, True),
])
def test_movement_allowance(game, fleet, turn, hexes, ok):
    path = ["H-1", "H-2", "H-3", "H-4", "H-5", "H-6"][: hexes + 1]
    if ok:
        assert M.check_path(game, fleet, path, turn) == path
    else:
        with pytest.raises(RuleViolation, match=r"6\.1\(1\)"):
            M.check_path(game, fleet, path, turn)


def test_entering_the_map_costs_a_hex(game):
    assert M.check_path(game, "ichikokan", ["A-2", "B-2"], turn=1, entering=True)
    with pytest.raises(RuleViolation, match=r"6\.1\(1\)"):
        M.check_path(game, "ichikokan", ["A-2", "B-2", "C-2"], turn=1, entering=True)
    with pytest.raises(RuleViolation, match=r"6\.3\(1\)"):
        M.check_path(game, "ichikokan", ["A-5", "B-5"], turn=1, entering=True)
    assert M.check_path(game, "invasion-force", ["A-5", "B-5"], turn=4, entering=True)


def test_japanese_fleets_not_in_one_hex():
    M.check_japanese_ends("C-3", "C-4")
    with pytest.raises(RuleViolation, match=r"6\.1\(2\)"):
        M.check_japanese_ends("C-3", "C-3")


def test_us_fleet_avoids_day_battle(game):
    assert M.us_final_hex(game, ["F-4", "E-3", "D-3"], ["D-3"], turn=2) == "E-3"
    assert M.us_final_hex(game, ["F-4", "E-3", "D-3"], ["D-3"], turn=4) == "D-3"
    assert M.us_final_hex(game, ["F-4", "E-3", "D-3"], ["C-3"], turn=2) == "D-3"
    with pytest.raises(RuleViolation, match=r"6\.1\(4\)"):
        M.us_final_hex(game, ["D-3"], ["D-3"], turn=2)


def test_us_fleet_stops_short_of_both_japanese_fleets(game):
    """6.1(4), E28: the hex before may hold the other Japanese fleet; the US fleet goes back
    further (found by verify midway 6.1(4): it used to end with the Invasion Force)."""
    assert M.us_final_hex(game, ["A-1", "B-1", "C-1"], ["B-1", "C-1"], turn=5) == "A-1"
    assert M.us_final_hex(game, ["D-5", "C-5", "B-5"], ["C-5", "B-5"], turn=5) == "D-5"
    with pytest.raises(RuleViolation, match=r"6\.1\(4\)"):
        M.us_final_hex(game, ["C-5", "B-5"], ["C-5", "B-5"], turn=5)


def test_unknown_fleet_is_bad_input(game):
    with pytest.raises(BadInput, match="fleet"):
        M.allowance(game, "kido-butai", 1)


# --------------------------------------------------------------------------- base attack


@pytest.mark.parametrize(("hex_id", "ops"), [("E-6", 1), ("D-6", 1), ("A-3", 2), ("C-3", 2)])
def test_base_attack_from_the_map(game, hex_id, ops):
    assert S.base_attack_from(game, hex_id) == ops


def test_base_attack_from_6_hexes_is_forbidden(game):
    assert common.distance(game, "A-2", "F-6") == 6
    with pytest.raises(RuleViolation, match=r"6\.4\(2\)"):
        S.base_attack_from(game, "A-2")
    with pytest.raises(RuleViolation, match=r"6\.4\(2\)"):
        M.check_base_attack_end(game, "A-1")
    assert M.check_base_attack_end(game, "A-3") == 5


# --------------------------------------------------------------------------- search


def test_search_from_positions(game):
    where = S.Positions(ichikokan="C-3", us_fleet="G-3")
    assert S.search_phase(game, where, turn=2) == {"japan": 2, "us": 4}
    assert S.search_phase(game, where, turn=2, base_strikes=2) == {"japan": 0, "us": 4}
    far = S.Positions(ichikokan="A-1", us_fleet="M-10")
    assert S.search_phase(game, far, turn=2, base_destroyed=True) == {"japan": 1, "us": 1}
    assert S.search_phase(game, far, turn=2) == {"japan": 1, "us": 1}


def test_no_search_at_night(game):
    assert S.search_phase(game, S.Positions("C-3", "D-3"), turn=4) == {"japan": 0, "us": 0}


# --------------------------------------------------------------------------- initiative


def test_initiative_rerolls_ties_with_equal_aop(game):
    dice = GivenDice({"japan_roll": [3, 5], "us_roll": [3, 2]})
    result = S.initiative(game, 2, 2, 6, dice)
    assert result.winner == "japan" and not result.draws_card


def test_initiative_is_fair_with_equal_aop(game):
    dist = distribution(lambda d: S.roll_initiative(game, 3, 3, 8, d).winner)
    assert dist["japan"] == dist["us"]


def test_solitaire_initiative(game):
    assert S.solitaire_initiative(game, 2, 2) == "us"
    assert S.solitaire_initiative(game, 3, 1) == "japan"
    assert S.solitaire_initiative(game, 0, 1) == "us"
    with pytest.raises(RuleViolation, match=r"8\.2"):
        S.solitaire_initiative(game, 0, 0)


def test_an_air_operation_costs_1_aop(game):
    assert S.spend_aop(game, 1) == 0
    with pytest.raises(RuleViolation, match=r"8\.2"):
        S.spend_aop(game, 0)


def test_unequal_aop_tie_draws_a_card_from_the_deck(game):
    dice = GivenDice({"japan_roll": [2], "us_roll": [3], "card": [2]})
    result, card, deck = S.initiative_with_draw(game, 3, 2, ("03", "05", "06"), dice)
    assert result.winner == "japan" and card == "05" and deck == ("03", "06")
    result, card, deck = S.initiative_with_draw(game, 3, 2, (), GivenDice(
        {"japan_roll": [2], "us_roll": [3]}))
    assert result.winner == "japan" and card is None and deck == ()
