"""Exact odds against seeded Monte Carlo runs of the same procedures."""

from __future__ import annotations

import math
from fractions import Fraction

import pytest
from warpress.engine.catalogue import ref_table
from warpress.engine.dice import distribution, monte_carlo
from warpress.engine.query import parse_pairs, run_odds

RUNS = 6000


def _args(game, table, pairs):
    ref = ref_table(game, table)
    return ref, parse_pairs(ref, pairs, game)[0]


def _close(exact: dict[str, Fraction], sampled: dict, runs: int) -> None:
    """Every outcome within 4 standard errors (fixed seed: deterministic)."""
    for outcome, p in exact.items():
        se = math.sqrt(float(p) * (1 - float(p)) / runs)
        assert abs(sampled.get(outcome, 0.0) - float(p)) <= 4 * se + 1e-9, outcome
    assert set(sampled) <= set(exact)


@pytest.mark.parametrize("pairs", [
    ["target=yorktown", "cards=j-b5n,j-b5n,j-d3a"],
    ["target=soryu", "cards=us-tbd,us-sbd", "side_damage=1", "rearming=yes"],
    ["target=midway-base", "cards=ac-b5n,ac-d3a,j-zero", "deck_damage=14", "used=1,2,3"],
])
def test_strike_odds_match_monte_carlo(game, pairs):
    ref, args = _args(game, "strike", pairs)
    exact = ref.odds(game, args).exact
    assert sum(exact.values()) == 1
    sampled = monte_carlo(lambda dice: ref.resolve(game, args, dice).result["status"],
                          RUNS, seed=7)
    _close(exact, sampled, RUNS)


def test_strike_single_card_odds_equal_enumeration(game):
    """With one card the draw is one uniform d16: DP and plain enumeration agree."""
    ref, args = _args(game, "strike", ["target=hiryu", "cards=us-tbd", "side_damage=3"])
    exact = ref.odds(game, args).exact
    enumerated = distribution(lambda dice: ref.resolve(game, args, dice).result["status"])
    assert exact == {k: v for k, v in enumerated.items()}


def test_strike_odds_without_replacement(game):
    """Two torpedo cards cannot both draw the one 'extra-3' card."""
    ref, args = _args(game, "strike", ["target=yorktown", "cards=j-b5n,j-b5n"])
    exact = ref.odds(game, args).exact
    # side 8 sinks Yorktown; 4 + 4 = 8 unless a dud: P(no dud in 2 draws of 16 without
    # replacement) computed directly from the deck
    duds = sum(1 for c in game.cards if c.deck == "secondary-damage"
               and c.stats["torpedo"] == "dud")
    p_no_dud = Fraction(16 - duds, 16) * Fraction(15 - duds, 15)
    assert exact["sunk"] == p_no_dud


def test_attack_damage_odds_match_monte_carlo(game):
    ref, args = _args(game, "attack-damage", ["card=j-b5n"])
    out = run_odds(game, ref, ["card=j-b5n"])
    exact = {k: Fraction(v) for k, v in out["result"]["exact"].items()}
    assert sum(exact.values()) == 1
    sampled = monte_carlo(lambda dice: str(ref.resolve(game, args, dice).result["damage"]),
                          RUNS, seed=11)
    _close(exact, sampled, RUNS)


def test_deterministic_tables_have_certain_odds(game):
    out = run_odds(game, ref_table(game, "base-status"), ["damage=20"])
    assert out["result"]["exact"] == {"heavy": "1/1"}
