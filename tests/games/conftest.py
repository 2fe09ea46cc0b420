"""Fixtures of the games' tests: a test module's ``game`` fixture drawn as a whole kit.

This folder is put on ``sys.path`` so that ``kit_walk`` (finding things on kit pages)
imports from every game's folder under any import mode.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from warpress.components.kit import kit_pages, parse_options

HERE = str(Path(__file__).resolve().parent)
if HERE not in sys.path:
    sys.path.insert(0, HERE)


@pytest.fixture(scope="module")
def pages(game):
    """Every page of the kit of the module's ``game`` (A4, all parts)."""
    return kit_pages(game, parse_options("a4", "pdf", "long", "0,0", None))
