"""Fixtures of the Axis & Allies engine tests: the game and a runner with given rolls only.

The table runners (``lookup``, ``roll``, ``odds``) are in ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest
from warpress.engine.catalogue import ref_table
from warpress.engine.dice import SeededDice
from warpress.engine.loader import builtin
from warpress.engine.query import parse_pairs


@pytest.fixture(scope="session")
def game():
    return builtin("axis-allies")


@pytest.fixture(scope="session")
def traced(game):
    """``traced(table, "a=1", ...)`` -> (result, rolls by input name) with given rolls only."""

    def run(table: str, *pairs: str) -> tuple[dict, dict[str, list[int]]]:
        ref = ref_table(game, table)
        args, rolls = parse_pairs(ref, list(pairs), game)
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
