"""The landing (10.3): the loop, its exact odds by DP, checked against a seeded Monte Carlo."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from warpress.engine.dice import GivenDice, monte_carlo
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.midway.rules import landing as L


def test_japanese_roll_first_and_stop_at_x(game):
    assert L.landing(game, 4, 1, GivenDice({"rolls": [4]})) == {
        "outcome": "captured", "invasion": 4, "garrison": "X"}
    assert L.landing(game, 1, 3, GivenDice({"rolls": [2, 3]})) == {
        "outcome": "repulsed", "invasion": "X", "garrison": 3}


def test_rolls_at_the_value_hit_and_above_miss(game):
    # J 3 <= 3 hits (garrison 3); US 4 > 3 misses; J 4 > 3 misses; US 3 <= 3 hits.
    out = L.landing(game, 3, 4, GivenDice({"rolls": [3, 4, 4, 3]}))
    assert out == {"outcome": "undecided", "invasion": 2, "garrison": 3}


def test_largest_and_smallest_die(game):
    assert L.landing(game, 4, 6, GivenDice({"rolls": [6, 6]}))["invasion"] == 3
    assert L.landing(game, 4, 6, GivenDice({"rolls": [1, 1]})) == {
        "outcome": "undecided", "invasion": 3, "garrison": 5}


def test_garrison_hit_before_the_us_fires_back(game):
    # Garrison 2 -> 1 by the first Japanese roll; the US then needs a 1 and rolls 2.
    out = L.landing(game, 4, 2, GivenDice({"rolls": [1, 2, 3]}))
    assert out == {"outcome": "captured", "invasion": 4, "garrison": "X"}


def test_missing_rolls_is_bad_input(game):
    with pytest.raises(BadInput, match="rolls"):
        L.landing(game, 4, 2, GivenDice({}))


@pytest.mark.parametrize(("invasion", "garrison"), [(0, 3), (5, 3), (3, 0), (3, 7)])
def test_tracks_off_the_boxes_are_bad_input(game, invasion, garrison):
    with pytest.raises(BadInput):
        L.landing_odds(game, invasion, garrison)


def test_odds_small_cases_by_hand(game):
    # 1 vs 1: the Japanese hit with 1/6 first; otherwise the US with 1/6; else again.
    p = Fraction(1, 6)
    assert L.landing_odds(game, 1, 1)["captured"] == p / (1 - (1 - p) * (1 - p))
    # invasion 2 vs garrison 1: the Japanese capture on 1-2, else a US 1 leaves 1 vs 1.
    pj, pu = Fraction(2, 6), Fraction(1, 6)
    p11 = L.landing_odds(game, 1, 1)["captured"]
    assert L.landing_odds(game, 2, 1)["captured"] == (pj + (1 - pj) * pu * p11) / (
        1 - (1 - pj) * (1 - pu))


@pytest.mark.parametrize(("invasion", "garrison"), [(1, 1), (4, 1), (1, 6), (4, 6), (3, 4)])
def test_odds_sum_to_one(game, invasion, garrison):
    odds = L.landing_odds(game, invasion, garrison)
    assert sum(odds.values()) == 1 and all(0 < p < 1 for p in odds.values())


def test_odds_monotone_in_the_tracks(game):
    captured = {(i, g): L.landing_odds(game, i, g)["captured"]
                for i in range(1, 5) for g in range(1, 7)}
    for (i, g), p in captured.items():
        if i < 4:
            assert captured[(i + 1, g)] > p
        if g < 6:
            assert captured[(i, g + 1)] < p


@pytest.mark.parametrize(("invasion", "garrison"), [(4, 2), (3, 3), (4, 6)])
def test_odds_match_a_seeded_monte_carlo(game, invasion, garrison):
    n = 20_000
    freq = monte_carlo(lambda d: L.landing(game, invasion, garrison, d)["outcome"], n, seed=42)
    p = float(L.landing_odds(game, invasion, garrison)["captured"])
    error = math.sqrt(p * (1 - p) / n)
    assert abs(freq.get("captured", 0.0) - p) < 4 * error


def test_landing_needs_turn_7_and_adjacency(game):
    L.check_landing(game, "E-6", 7)
    with pytest.raises(RuleViolation, match="10.3"):
        L.check_landing(game, "D-6", 7)
    with pytest.raises(RuleViolation, match="10.3"):
        L.check_landing(game, "E-6", 6)
    assert {h for h in ("E-5", "E-6", "F-5", "F-7", "G-5", "G-6")
            if L.landing_allowed(game, h)} == set(game.hex_map().feature("midway-adjacent").hexes)
