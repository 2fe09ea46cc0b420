"""Fixtures of the Axis & Allies engine tests: the game and table runners."""

from __future__ import annotations

import pytest
from warpress.engine.dice import SeededDice
from warpress.engine.loader import builtin
from warpress.engine.query import parse_pairs, run_lookup, run_odds, run_roll
from warpress.engine.registry import ref_table


@pytest.fixture(scope="session")
def game():
    return builtin("axis-allies")


@pytest.fixture(scope="session")
def lookup(game):
    """``lookup(table, "a=1", ...)`` -> the result dict of ``warpress lookup``."""

    def run(table: str, *pairs: str) -> dict:
        return run_lookup(game, ref_table(game, table), list(pairs))["result"]

    return run


@pytest.fixture(scope="session")
def roll(game):
    """``roll(table, seed, "a=1", ...)`` -> the whole payload of ``warpress roll``."""

    def run(table: str, seed: int, *pairs: str) -> dict:
        return run_roll(game, ref_table(game, table), list(pairs), seed)

    return run


@pytest.fixture(scope="session")
def odds(game):
    """``odds(table, "a=1", ...)`` -> the result dict of ``warpress odds``."""

    def run(table: str, *pairs: str) -> dict:
        return run_odds(game, ref_table(game, table), list(pairs))["result"]

    return run


@pytest.fixture(scope="session")
def traced(game):
    """``traced(table, "a=1", ...)`` -> (result, rolls by input name) with given rolls only."""

    def run(table: str, *pairs: str) -> tuple[dict, dict[str, list[int]]]:
        ref = ref_table(game, table)
        args, rolls = parse_pairs(ref, list(pairs))
        dice = SeededDice(0, rolls)
        answer = ref.resolve(game, args, dice)
        used: dict[str, list[int]] = {}
        for name, _die, value in dice.rolls:
            used.setdefault(name, []).append(value)
        for name, values in used.items():
            assert values == list(rolls.get(name, []))[: len(values)], f"{name}: not all given"
            assert len(values) <= len(rolls.get(name, [])), f"{name}: rolled more than given"
        return dict(answer.result), used

    return run
