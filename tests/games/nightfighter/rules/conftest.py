"""Fixtures of the Nightfighter engine tests: the built-in game and its referee.

The folder is put on ``sys.path`` so that ``nf_helpers`` imports under any import mode.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from warpress.engine.loader import builtin
from warpress.engine.rulesets import rules_for

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(scope="session")
def game():
    """The built-in Nightfighter data, loaded once."""
    return builtin("nightfighter")


@pytest.fixture(scope="session")
def ref(game):
    """The Nightfighter referee (it keeps no state of its own: every call takes the state)."""
    return rules_for(game)
