"""Tests of the dice model: kinds, given, seeded and enumerated dice."""

from __future__ import annotations

from fractions import Fraction

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from warpress.engine.dice import (
    BadRoll,
    Dice,
    DiceError,
    GivenDice,
    MissingRoll,
    SeededDice,
    distribution,
    expected,
    faces,
    monte_carlo,
    probability,
    read_roll,
    weights,
)
from warpress.engine.errors import BadInput

# --------------------------------------------------------------------------- kinds


def test_faces_of_basic_dice():
    assert faces("d6") == (1, 2, 3, 4, 5, 6)
    assert faces("d10") == tuple(range(1, 11))
    assert faces("2d6") == tuple(range(2, 13))
    assert faces("3d6") == tuple(range(3, 19))


def test_weights_of_2d6():
    w = weights("2d6")
    assert w[2] == w[12] == Fraction(1, 36)
    assert w[7] == Fraction(6, 36)
    assert w[6] == w[8] == Fraction(5, 36)
    assert sum(w.values()) == 1


def test_weights_of_single_dice_are_uniform():
    assert set(weights("d6").values()) == {Fraction(1, 6)}
    assert set(weights("d10").values()) == {Fraction(1, 10)}


@pytest.mark.parametrize("die", ["d1", "d0", "6", "dx", "2d", "", "D6", "0d6", "101d6"])
def test_unknown_die_names_die_and_allowed(die):
    with pytest.raises(DiceError) as info:
        faces(die)
    assert repr(die) in str(info.value)
    assert "allowed" in str(info.value)


def test_errors_are_value_errors_and_bad_input():
    assert issubclass(DiceError, ValueError)
    assert issubclass(DiceError, BadInput)
    assert issubclass(BadRoll, DiceError)
    assert issubclass(MissingRoll, DiceError)


def test_read_roll_d10_zero_reads_ten():
    assert read_roll("d10", 0) == 10
    assert read_roll("d10", "0") == 10
    assert read_roll("d6", " 4 ") == 4
    with pytest.raises(BadRoll):
        read_roll("d6", 0)
    with pytest.raises(BadRoll):
        read_roll("d6", True)
    with pytest.raises(BadRoll):
        read_roll("d6", 3.0)


# --------------------------------------------------------------------------- given


def test_given_by_name_and_sequence():
    dice = GivenDice({"japan_roll": 3, "us_roll": [1, 6]})
    assert dice.roll("d6", "us_roll") == 1
    assert dice.roll("d6", "japan_roll") == 3
    assert dice.roll("d6", "us_roll") == 6
    assert dice.used == [("us_roll", "d6", 1), ("japan_roll", "d6", 3), ("us_roll", "d6", 6)]
    dice.check_all_used()


def test_given_plain_sequence_serves_any_name():
    dice = GivenDice([2, 0, 11])
    assert dice.roll("d6", "a") == 2
    assert dice.roll("d10", "b") == 10
    assert dice.roll("2d6", "c") == 11
    with pytest.raises(MissingRoll):
        dice.roll("d6", "d")


def test_bad_roll_message():
    dice = GivenDice({"japan_roll": 7})
    with pytest.raises(BadRoll) as info:
        dice.roll("d6", "japan_roll")
    assert str(info.value) == "input japan_roll=7 is not allowed (d6 result 1-6)"


def test_bad_roll_2d6_and_d10():
    with pytest.raises(BadRoll, match=r"input moon=1 is not allowed \(2d6 result 2-12\)"):
        GivenDice({"moon": 1}).roll("2d6", "moon")
    with pytest.raises(BadRoll, match="0 reads 10"):
        GivenDice({"x": 11}).roll("d10", "x")


def test_missing_roll_names_roll_and_die():
    dice = GivenDice({"japan_roll": [4]})
    dice.roll("d6", "japan_roll")
    with pytest.raises(MissingRoll) as info:
        dice.roll("d6", "japan_roll")
    assert info.value.name == "japan_roll"
    assert info.value.die == "d6"
    assert "japan_roll" in str(info.value) and "d6" in str(info.value)
    with pytest.raises(MissingRoll, match="no d10 roll given for 'other'"):
        dice.roll("d10", "other")


def test_unused_given_rolls_are_reported():
    dice = GivenDice({"a": [1, 2], "b": 3})
    dice.roll("d6", "a")
    assert dice.remaining() == {"a": [2], "b": [3]}
    with pytest.raises(DiceError, match="a=\\[2\\]"):
        dice.check_all_used()


def test_given_rejects_unknown_die_even_when_empty():
    with pytest.raises(DiceError, match="unknown die"):
        GivenDice({}).roll("d7x", "a")


# --------------------------------------------------------------------------- seeded


def _three_rolls(dice: Dice) -> tuple[int, int, int]:
    return dice.roll("d6", "a"), dice.roll("2d6", "b"), dice.roll("d10", "c")


def test_seeded_is_reproducible():
    one, two = SeededDice(42), SeededDice(42)
    assert [_three_rolls(one) for _ in range(20)] == [_three_rolls(two) for _ in range(20)]
    assert one.rolls == two.rolls
    assert len(one.rolls) == 60


def test_seeded_values_are_faces():
    dice = SeededDice(7)
    for _ in range(200):
        a, b, c = _three_rolls(dice)
        assert a in faces("d6") and b in faces("2d6") and c in faces("d10")


def test_seeded_uses_given_first_then_random():
    dice = SeededDice(1, given={"a": [6, 6]})
    assert dice.roll("d6", "a") == 6
    assert dice.roll("d6", "a") == 6
    dice.roll("d6", "a")  # random now
    assert [r[0] for r in dice.rolls] == ["a", "a", "a"]
    with pytest.raises(BadRoll):
        SeededDice(1, given={"a": 9}).roll("d6", "a")


def test_seeded_replay_reproduces_a_run():
    dice = SeededDice(99)
    first = [_three_rolls(dice) for _ in range(5)]
    replay = dice.replay()
    assert [_three_rolls(replay) for _ in range(5)] == first
    replay.check_all_used()


# --------------------------------------------------------------------------- exact odds


def test_distribution_of_one_d6():
    dist = distribution(lambda d: d.roll("d6"))
    assert dist == {i: Fraction(1, 6) for i in range(1, 7)}


def test_distribution_of_two_d6_matches_2d6():
    dist = distribution(lambda d: d.roll("d6") + d.roll("d6"))
    assert dist == weights("2d6")


def test_distribution_of_2d6_die():
    assert distribution(lambda d: d.roll("2d6")) == weights("2d6")


def test_distribution_merges_outcomes_and_sums_to_one():
    dist = distribution(lambda d: d.roll("d6") >= 5)
    assert dist == {True: Fraction(1, 3), False: Fraction(2, 3)}


def test_distribution_with_variable_number_of_rolls():
    def reroll_ones(dice: Dice) -> int:
        value = dice.roll("d6")
        return dice.roll("d6") if value == 1 else value

    dist = distribution(reroll_ones)
    assert dist[1] == Fraction(1, 36)
    assert dist[6] == Fraction(1, 6) + Fraction(1, 36)
    assert sum(dist.values()) == 1


def test_distribution_mixed_dice():
    def proc(dice: Dice) -> str:
        if dice.roll("d10", "first") == 10:
            return "crit"
        return "hit" if dice.roll("2d6", "second") >= 10 else "miss"

    dist = distribution(proc)
    assert dist["crit"] == Fraction(1, 10)
    assert dist["hit"] == Fraction(9, 10) * Fraction(6, 36)


def test_distribution_with_given_roll_is_conditional():
    def proc(dice: Dice) -> int:
        return dice.roll("d6", "a") + dice.roll("d6", "b")

    dist = distribution(proc, given={"a": 6})
    assert dist == {6 + i: Fraction(1, 6) for i in range(1, 7)}


def test_distribution_guards_unbounded_loops():
    def until_six(dice: Dice) -> int:
        n = 1
        while dice.roll("d6") != 6:
            n += 1
        return n

    with pytest.raises(DiceError, match="more than 5 times"):
        distribution(until_six, max_rolls=5)


def test_distribution_guards_too_many_sequences():
    with pytest.raises(DiceError, match="more than 100 roll sequences"):
        distribution(lambda d: d.roll("d6") + d.roll("d6") + d.roll("d6"), max_sequences=100)


def test_distribution_rejects_unhashable_results():
    with pytest.raises(DiceError, match="not hashable"):
        distribution(lambda d: [d.roll("d6")])


def test_distribution_rejects_non_deterministic_procedures():
    calls = []

    def proc(dice: Dice) -> int:
        calls.append(1)
        return dice.roll("d6" if len(calls) == 1 else "d10")

    with pytest.raises(DiceError, match="not deterministic"):
        distribution(proc)


def test_distribution_propagates_procedure_errors():
    def proc(dice: Dice) -> int:
        raise KeyError("boom")

    with pytest.raises(KeyError):
        distribution(proc)


def test_expected_and_probability():
    dist = distribution(lambda d: d.roll("d6") + d.roll("d6"))
    assert expected(dist) == 7
    assert expected(dist, key=lambda r: r >= 10) == Fraction(6, 36)
    assert probability(dist, lambda r: r == 7) == Fraction(1, 6)


def test_six_d6_enumeration_is_fast_enough():
    dist = distribution(lambda d: sum(d.roll("d6") for _ in range(6)))
    assert len(dist) == 31
    assert dist[6] == Fraction(1, 6**6)
    assert expected(dist) == 21


def test_monte_carlo_agrees_with_exact_odds():
    def proc(dice: Dice) -> int:
        return dice.roll("2d6") // 3

    exact = distribution(proc)
    approx = monte_carlo(proc, 20_000, seed=3)
    assert set(approx) <= set(exact)
    for result, p in exact.items():
        assert abs(approx.get(result, 0.0) - float(p)) < 0.02
    assert monte_carlo(proc, 100, seed=5) == monte_carlo(proc, 100, seed=5)


@settings(max_examples=30, deadline=None)
@given(st.lists(st.sampled_from(["d6", "d10", "2d6", "d4", "3d4"]), min_size=1, max_size=3))
def test_distribution_of_sum_matches_convolution(dice_kinds):
    dist = distribution(lambda d: sum(d.roll(k) for k in dice_kinds))
    assert sum(dist.values()) == 1
    assert expected(dist) == sum(expected(weights(k)) for k in dice_kinds)
