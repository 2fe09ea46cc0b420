"""Fixtures of the Nimitz engine tests: the built-in game.

The table runners (``lookup`` and the others) are in ``tests/conftest.py``.
"""

from __future__ import annotations

import pytest
from warpress.engine.loader import builtin


@pytest.fixture(scope="session")
def game():
    return builtin("nimitz")
