"""Fixtures of the Fateful Midway Card Game engine tests: the built-in game."""

from __future__ import annotations

import pytest
from warpress.engine.loader import builtin


@pytest.fixture(scope="session")
def game():
    """The built-in midway-cards data, loaded once."""
    return builtin("midway-cards")
