"""Fixtures of the Nightfighter engine tests: the built-in game."""

from __future__ import annotations

import pytest
from warpress.engine.loader import builtin


@pytest.fixture(scope="session")
def game():
    """The built-in Nightfighter data, loaded once."""
    return builtin("nightfighter")
