"""Exact odds against a seeded Monte Carlo of the same procedures."""

from __future__ import annotations

import math
from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.catalogue import ref_table
from warpress.engine.dice import distribution, monte_carlo
from warpress.engine.query import run_odds
from warpress.games.nimitz.rules import combat
from warpress.games.nimitz.rules.common import AttackValue

N = 20_000


def close(exact: dict, sampled: dict, n: int = N) -> None:
    for key, p in exact.items():
        p = float(p)
        se = math.sqrt(p * (1 - p) / n) or 1 / n
        assert abs(sampled.get(key, 0.0) - p) <= 5 * se, (key, p, sampled.get(key))


def test_aa_fire_odds_match_monte_carlo(game):
    args = ["ships=nagato-mutsu,jp-desron-1,kaga,tone-chikuma", "aircraft=3"]
    payload = run_odds(game, ref_table(game, "aa-fire"), args)
    exact = {int(k): Fraction(v) for k, v in payload["result"]["exact"].items()}
    assert sum(exact.values()) == 1
    ships = [game.get("units", u) for u in ("nagato-mutsu", "jp-desron-1", "kaga",
                                            "tone-chikuma")]
    firing = [s for row in combat.aa_rows(game, ships, 3) for s in row]
    assert [s.id for s in firing] == payload["result"]["firing"]

    def proc(dice):
        return sum(combat.attack(game, combat.aa_value(s), dice) for s in firing)

    close(exact, monte_carlo(proc, N, seed=11))


def test_dp_equals_enumeration(game):
    values = [AttackValue(4, 2), AttackValue(3), AttackValue(7, 4)]

    def proc(dice):
        return sum(combat.attack(game, v, dice) for v in values)

    assert combat.total_hit_weights(game, values) == distribution(proc)


def test_attack_odds_match_monte_carlo(game):
    payload = run_odds(game, ref_table(game, "attack"), ["value=7/4"])
    exact = {int(k): Fraction(v) for k, v in payload["result"]["exact"].items()}
    assert exact == {0: Fraction(3, 10), 1: Fraction(3, 10), 2: Fraction(2, 5)}
    sampled = monte_carlo(lambda d: combat.attack(game, AttackValue(7, 4), d), N, seed=3)
    close(exact, sampled)


def test_reinforcement_odds_shift_with_modifiers(game):
    payload = run_odds(game, ref_table(game, "japanese-reinforcement"),
                       ["supply_markers=6", "raiding_subs=2"])
    assert payload["result"]["exact"] == {str(k): "1/10" for k in range(3, 13)}


@settings(max_examples=60, deadline=None)
@given(normal=st.integers(0, 20), superior=st.integers(0, 20), roll=st.integers(1, 10))
def test_attack_invariant_i3(game, normal, superior, roll):
    superior = min(superior, normal)
    hits = combat.attack_hits(game, AttackValue(normal, superior), roll)
    assert hits in (0, 1, 2)
    assert (hits == 2) == (roll <= superior)
    assert (hits >= 1) == (roll <= normal)


def test_japanese_order_odds_match_monte_carlo(game):
    from warpress.games.nimitz.rules import orders as od
    from warpress.games.nimitz.rules.campaign import MapView

    args = ["point=caroline-islands", "ships=3", "ground=2",
            "us=solomon-islands,new-guinea,midway,borneo", "japan=borneo"]
    payload = run_odds(game, ref_table(game, "japanese-order"), args)
    exact = {k: Fraction(v) for k, v in payload["result"]["exact"].items()}
    assert sum(exact.values()) == 1
    stack = od.Stack("caroline-islands", ("s1", "s2", "s3"), ("g1", "g2"))
    us = frozenset({"solomon-islands", "new-guinea", "midway", "borneo"})
    board = od.Board(MapView(us_ground=us,
                             japanese_ground=frozenset({"borneo", "caroline-islands"})),
                     frozenset(game.get("campaigns", "1942").get("objectives")))
    sampled = monte_carlo(lambda d: od.outcome(od.determine(game, stack, board, d)), N, seed=5)
    assert set(sampled) <= set(exact)
    close(exact, sampled)


def test_whole_point_determination_terminates(game):
    from warpress.engine.dice import SeededDice
    from warpress.games.nimitz.rules import orders as od
    from warpress.games.nimitz.rules.campaign import MapView

    board = od.Board(MapView(us_ground=frozenset({"midway", "solomon-islands"})),
                     frozenset({"midway", "solomon-islands"}))
    for seed in range(30):
        stack = od.Stack("japan", tuple(f"s{i}" for i in range(9)), ("g1", "g2"), ("a1",))
        moves = od.determine_point(game, stack, board, SeededDice(seed))
        moved = sum(len(m.ships) + len(m.ground) + len(m.land_air) for m in moves)
        assert moved == 12
        assert sum(m.supply_markers for m in moves) == sum(m.executed == "standby"
                                                           for m in moves)
