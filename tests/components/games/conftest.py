"""Fixtures of the games' kit tests: a test module's ``game`` fixture drawn as a whole kit."""

from __future__ import annotations

import pytest
from warpress.components.kit import kit_pages, parse_options


@pytest.fixture(scope="module")
def pages(game):
    """Every page of the kit of the module's ``game`` (A4, all parts)."""
    return kit_pages(game, parse_options("a4", "pdf", "long", "0,0", None))
