"""Proportions with Wilson intervals, their differences, length spreads (balance/stats.py)."""

from __future__ import annotations

import pytest
from warpress.balance.stats import difference, rate, spread, wilson


def test_wilson_matches_the_published_values():
    # Newcombe (1998), table I: 81/263 -> 0.2553..0.3662; 0/10 -> 0..0.2775
    low, high = wilson(81, 263)
    assert (round(low, 4), round(high, 4)) == (0.2553, 0.3662)
    assert tuple(round(x, 4) for x in wilson(0, 10)) == (0.0, 0.2775)
    assert wilson(10, 10)[1] == pytest.approx(1.0) and wilson(0, 0) == (0.0, 1.0)


def test_an_interval_narrows_as_games_add_up():
    widths = [rate(n // 2, n)["high"] - rate(n // 2, n)["low"] for n in (10, 100, 1000)]
    assert widths == sorted(widths, reverse=True)


def test_the_difference_of_two_rates_and_its_interval():
    # Newcombe (1998), table II example (a): 56/70 - 48/80 = 0.2, method 10: 0.0524..0.3339
    d = difference(56, 70, 48, 80)
    assert d == {"effect": 0.2, "low": 0.0524, "high": 0.3339}
    assert difference(5, 10, 5, 10)["low"] < 0 < difference(5, 10, 5, 10)["high"]


def test_the_spread_of_game_lengths():
    s = spread(list(range(1, 101)))
    assert (s["mean"], s["median"], s["p95"], s["min"], s["max"]) == (50.5, 50.5, 95, 1, 100)
    assert spread([7])["p95"] == 7
    assert spread([]) == {"mean": 0.0, "median": 0.0, "p95": 0.0, "min": 0.0, "max": 0.0}
