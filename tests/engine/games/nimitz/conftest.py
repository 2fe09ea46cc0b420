"""Fixtures of the Nimitz engine tests: the built-in game and a lookup helper."""

from __future__ import annotations

import pytest
from warpress.engine.loader import builtin
from warpress.engine.query import run_lookup
from warpress.engine.registry import ref_table


@pytest.fixture(scope="session")
def game():
    return builtin("nimitz")


@pytest.fixture(scope="session")
def look(game):
    """``look("attack", "value=4", "roll=3")`` -> the result mapping of a lookup."""

    def run(table: str, *pairs: str) -> dict:
        return run_lookup(game, ref_table(game, table), pairs)["result"]

    return run
