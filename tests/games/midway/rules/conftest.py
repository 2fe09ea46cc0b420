"""Fixtures of the Midway engine tests: the game and small carrier areas.

The table runners and the command line are in ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest
from warpress.engine.loader import builtin
from warpress.games.midway.rules import area as A


@pytest.fixture(scope="session")
def game():
    return builtin("midway")


@pytest.fixture(scope="session")
def build(game):
    """``build([(uid, type, display, box[, steps]), ...], **fields)`` -> a checked CarrierArea."""

    def run(rows, **fields) -> A.CarrierArea:
        units = [A.make_unit(game, r[0], r[1], r[2], r[3], r[4] if len(r) > 4 else None)
                 for r in rows]
        return A.new_area(game, units, **fields)

    return run
