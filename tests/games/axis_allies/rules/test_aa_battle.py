"""Battles (③): the exact odds against an independent reference, a seeded Monte Carlo of
the same procedure, full enumeration of capped battles, and the procedure's edges."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from aa_fraction_reference import end_states, fought_out, spec
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.dice import distribution, monte_carlo
from warpress.engine.errors import BadInput, RuleViolation
from warpress.games.axis_allies.rules import battle as B
from warpress.games.axis_allies.rules.common import force_text
from warpress.games.axis_allies.rules.odds import battle_odds, exact_battle


def reference_odds(game, sp, fought=fought_out):
    """The plain-Fraction reference from the engine's own one-time steps (AA fire, the
    submarines' first strike and sea round 1), enumerated die by die."""

    def first(dice):
        state = B.opening(game, sp, dice)
        if sp.kind == "sea" and B.first_strikers(game, sp.attacker) and not state.over:
            state = B.combat_round(game, sp, state, dice)
        return state.attacker, state.defender

    return fought(game, sp, distribution(first))


CASES = [
    ("land", "3 infantry, 1 armor", "3 infantry", {}),
    ("land", "2 infantry, 1 fighter, 1 bomber", "2 infantry, 1 antiaircraft", {}),
    ("land", "1 armor, 2 fighter", "1 antiaircraft, 1 infantry, 1 armor", {}),
    ("land", "2 infantry, 2 armor", "3 infantry", {"defender_order": ["infantry"],
                                                   "attacker_order": ["armor"]}),
    ("land", "2 bomber, 1 infantry", "2 infantry, 1 fighter",
     {"attacker_weapons": ["heavy-bombers"], "defender_weapons": ["jet-power"]}),
    ("sea", "2 submarine, 1 battleship", "1 carrier, 1 transport, 1 submarine", {}),
    ("sea", "1 submarine, 1 fighter, 1 transport", "2 transport, 1 battleship",
     {"attacker_weapons": ["super-submarines"]}),
    ("sea", "3 submarine", "1 transport", {}),
    ("sea", "1 transport", "1 transport", {}),
    ("land", "2 fighter", "1 antiaircraft, 1 infantry", {}),
    ("land", "1 antiaircraft, 1 infantry", "1 antiaircraft, 1 infantry",
     {"attacker_order": ["infantry"], "defender_order": ["infantry"]}),
]


@pytest.mark.parametrize("kind,attacker,defender,more", CASES)
def test_exact_odds_match_the_reference(game, kind, attacker, defender, more):
    sp = spec(game, attacker, defender, kind, **more)
    got = battle_odds(game, sp)
    assert got == reference_odds(game, sp)
    ends = got["attacker_wins"] + got["defender_wins"] + got["mutual_destruction"]
    assert ends + got["undecided"] == 1


@pytest.mark.parametrize("kind,attacker,defender,more", CASES)
def test_exact_survivors_match_the_reference(game, kind, attacker, defender, more):
    sp = spec(game, attacker, defender, kind, **more)
    fields, survivors = exact_battle(game, sp, survivors="exact")
    want: tuple[dict, dict] = ({}, {})
    for ends, p in reference_odds(game, sp, end_states).items():
        for side, left in zip(want, ends, strict=True):
            side[force_text(left)] = side.get(force_text(left), 0) + p
    assert survivors == want
    assert [sum(side.values()) for side in survivors] == [1, 1]
    assert all(type(p) is Fraction for side in survivors for p in side.values())
    _, floats = exact_battle(game, sp)  # by default: floats from the exact numerators
    for side_f, side_x in zip(floats, want, strict=True):
        assert all(type(p) is float for p in side_f.values())
        assert set(side_f) == set(side_x)
        assert all(abs(side_f[k] - float(p)) <= 1e-15 * float(p) for k, p in side_x.items())


@pytest.mark.parametrize("kind,attacker,defender", [
    ("land", "4 infantry, 2 armor, 2 fighter, 1 bomber", "5 infantry, 2 armor, 1 fighter"),
    ("sea", "2 submarine, 2 battleship, 1 carrier, 2 fighter", "2 transport, 2 submarine, "
     "1 battleship, 1 fighter"),
])
def test_each_force_is_reduced_over_its_own_rows(game, kind, attacker, defender):
    """A lone chain fought to the end (no AA gun) reduces each force's chance over the
    bound of the rows (attacker) or columns (defender) it is reached through: that bound
    divides the chain's denominator and the rest divides the force's numerator, for every
    force but 'none' (else the slower reduction over the whole denominator is taken)."""
    from warpress.games.axis_allies.rules import odds

    sp = spec(game, attacker, defender, kind)
    (op,) = odds.shared_chains(odds.openings(game, sp))
    att, nums, Q = odds._chain_part(game, sp, op)
    own = odds._own_denominators(game, sp, op, Q)
    for side, numerators, bounds in zip((att, sp.defender), odds.survivor_numerators(
            sp, att, nums), own, strict=True):
        assert set(bounds) == {force_text(side[k:]) for k in range(len(side))}
        for force, n in numerators.items():
            if force != "none":
                q, cofactor = bounds[force]
                assert q * cofactor == Q and n % cofactor == 0
        assert bounds[force_text(side)][0].bit_length() < Q.bit_length() // 2


CAPPED = [
    ("land", "1 infantry, 1 armor", "2 infantry", {"rounds": 1}),
    ("land", "1 infantry", "1 infantry", {"rounds": 3}),
    ("land", "1 fighter, 1 armor", "1 antiaircraft, 1 infantry", {"rounds": 1}),
    ("land", "1 bomber", "1 fighter", {"rounds": 1, "attacker_weapons": ["heavy-bombers"],
                                      "defender_weapons": ["jet-power"]}),
    ("sea", "1 submarine, 1 battleship", "1 transport, 1 submarine", {"rounds": 1}),
    ("sea", "1 submarine", "1 transport", {"rounds": 2}),
    ("sea", "2 submarine", "1 transport", {"rounds": 1}),
]


@pytest.mark.parametrize("kind,attacker,defender,more", CAPPED)
def test_capped_odds_match_full_enumeration(game, kind, attacker, defender, more):
    sp = spec(game, attacker, defender, kind, **more)
    dist = distribution(lambda dice: B.resolve(game, sp, dice))
    got = battle_odds(game, sp)
    for name, won in (("attacker_wins", "attacker"), ("defender_wins", "defender"),
                      ("mutual_destruction", "mutual"), ("undecided", "undecided")):
        assert got[name] == sum((p for s, p in dist.items() if B.outcome(s) == won), Fraction(0))
    assert got["attacker_survivors"] == sum(p * len(s.attacker) for s, p in dist.items())


def test_odds_against_a_seeded_monte_carlo(game):
    sp = spec(game, "4 infantry, 2 armor, 1 fighter", "5 infantry, 1 antiaircraft")
    exact = battle_odds(game, sp)
    n = 6000
    freq = monte_carlo(lambda dice: B.outcome(B.resolve(game, sp, dice)), n, seed=2024)
    for name, won in (("attacker_wins", "attacker"), ("defender_wins", "defender"),
                      ("mutual_destruction", "mutual")):
        p = float(exact[name])
        se = math.sqrt(p * (1 - p) / n)
        assert abs(freq.get(won, 0.0) - p) <= 4 * se + 1e-9, name


def test_sea_odds_against_a_seeded_monte_carlo(game):
    sp = spec(game, "2 submarine, 1 battleship, 1 fighter", "1 carrier, 2 transport, 1 fighter",
              "sea")
    exact = battle_odds(game, sp)
    n = 6000
    runs = monte_carlo(lambda dice: len(B.resolve(game, sp, dice).attacker), n, seed=7)
    mean = sum(k * f for k, f in runs.items())
    var = sum(k * k * f for k, f in runs.items()) - mean**2
    assert abs(mean - float(exact["attacker_survivors"])) <= 4 * math.sqrt(var / n)


@settings(max_examples=25, deadline=None)
@given(a_inf=st.integers(0, 3), a_arm=st.integers(0, 2), a_ftr=st.integers(0, 2),
       d_inf=st.integers(0, 3), d_aa=st.integers(0, 1), d_ftr=st.integers(0, 1))
def test_land_odds_properties(game, a_inf, a_arm, a_ftr, d_inf, d_aa, d_ftr):
    attacker = f"{a_inf} infantry, {a_arm} armor, {a_ftr} fighter"
    defender = f"{d_inf} infantry, {d_aa} antiaircraft, {d_ftr} fighter"
    if a_inf + a_arm + a_ftr == 0 or d_inf + d_aa + d_ftr == 0:
        with pytest.raises(BadInput):
            spec(game, attacker.replace("0 ", "0x"), defender)
        return
    attacker = ", ".join(p for p in attacker.split(", ") if not p.startswith("0 "))
    defender = ", ".join(p for p in defender.split(", ") if not p.startswith("0 "))
    sp = spec(game, attacker, defender)
    got = battle_odds(game, sp)
    total = got["attacker_wins"] + got["defender_wins"] + got["mutual_destruction"]
    assert total + got["undecided"] == 1
    assert 0 <= got["attacker_takes"] <= got["attacker_wins"]
    assert 0 <= got["attacker_survivors"] <= len(sp.attacker)
    assert 0 <= got["defender_survivors"] <= len(sp.defender)
    assert got == reference_odds(game, sp)


def test_stalemate_is_undecided(game):
    got = battle_odds(game, spec(game, "1 antiaircraft", "1 antiaircraft"))
    assert got["undecided"] == 1 and got["attacker_survivors"] == 1
    # both infantry lost, two AA guns left facing each other: nobody can ever hit
    late = battle_odds(game, spec(game, "1 antiaircraft, 1 infantry", "1 antiaircraft, 1 infantry",
                                  attacker_order=["infantry"], defender_order=["infantry"]))
    assert 0 < late["undecided"] < 1


def test_rounds_cap_leaves_battles_undecided(game):
    got = battle_odds(game, spec(game, "1 infantry", "1 infantry", rounds=1))
    # round 1: attacker hits 1/6, defender 2/6
    assert got["attacker_wins"] == Fraction(1, 6) * Fraction(4, 6)
    assert got["mutual_destruction"] == Fraction(1, 6) * Fraction(2, 6)
    assert got["undecided"] == Fraction(5, 6) * Fraction(4, 6)


def test_one_on_one_fixed_point(game):
    got = battle_odds(game, spec(game, "1 armor", "1 infantry"))
    # per round: attacker 1/2, defender 1/3; stay 1/3 -> normalise by 3/2
    assert got["attacker_wins"] == Fraction(1, 2) * Fraction(2, 3) * Fraction(3, 2)
    assert got["defender_wins"] == Fraction(1, 2) * Fraction(1, 3) * Fraction(3, 2)
    assert got["mutual_destruction"] == Fraction(1, 2) * Fraction(1, 3) * Fraction(3, 2)


def test_attacker_takes_needs_a_land_unit(game):
    got = battle_odds(game, spec(game, "1 fighter", "1 infantry"))
    assert got["attacker_wins"] > 0 and got["attacker_takes"] == 0
    sea = battle_odds(game, spec(game, "1 battleship", "1 transport", "sea"))
    assert sea["attacker_takes"] == sea["attacker_wins"]


def test_casualty_order_default_is_lowest_cost_first(game):
    sp = spec(game, "1 bomber, 2 infantry, 1 armor, 1 fighter", "1 infantry")
    assert sp.attacker == ("infantry", "infantry", "armor", "fighter", "bomber")
    ordered = spec(game, "1 bomber, 2 infantry", "1 infantry", attacker_order=["bomber"])
    assert ordered.attacker == ("bomber", "infantry", "infantry")


@pytest.mark.parametrize("attacker,defender,kind,match", [
    ("1 battleship", "1 infantry", "land", "cannot fight in a land battle"),
    ("1 infantry", "1 transport", "sea", "cannot fight in a sea battle"),
    ("1 factory", "1 infantry", "land", "industrial complex"),
    ("1 infantry", "2 antiaircraft", "land", "AA guns"),
])
def test_rule_violations(game, attacker, defender, kind, match):
    with pytest.raises(RuleViolation, match=match):
        spec(game, attacker, defender, kind)


@pytest.mark.parametrize("attacker,match", [
    ("3 tanks", "'tanks' is not a unit type"),
    ("", "lists no units"),
    ("0 infantry", r"count of 'infantry' '0' is not allowed \(a whole number from 1 to 1000"),
    ("1001 infantry", "from 1 to 1000"),
    ("99999999999999999999 infantry", "from 1 to 1000"),
    ("three infantry", "is not 'N TYPE'"),
])
def test_bad_forces(game, attacker, match):
    with pytest.raises(BadInput, match=match):
        spec(game, attacker, "1 infantry")


def test_bad_orders_and_weapons(game):
    with pytest.raises(BadInput, match="attacker_order"):
        spec(game, "1 infantry", "1 infantry", attacker_order=["tank"])
    with pytest.raises(BadInput, match="defender_weapons"):
        spec(game, "1 infantry", "1 infantry", defender_weapons=["radar"])


def test_plural_and_times_forms(game):
    sp = spec(game, "2 fighters, infantry x3, armor", "1 infantry")
    assert sp.attacker.count("infantry") == 3 and sp.attacker.count("fighter") == 2


def test_a_type_listed_twice_counts_both(game):
    """Units joining a battle from two territories may be listed as they come."""
    sp = spec(game, "3 infantry, 1 armor, 2 infantry", "1 infantry")
    assert sp.attacker == spec(game, "5 infantry, 1 armor", "1 infantry").attacker
