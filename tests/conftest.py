"""Shared fixtures: a small valid game folder that tests copy and break."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture(autouse=True)
def _wide_terminal(monkeypatch):
    """Text output is wrapped to $COLUMNS (warpress/output.py): tests that compare whole
    lines see them unwrapped; the tests of the wrapping (test_cli_output.py) set COLUMNS."""
    monkeypatch.setenv("COLUMNS", "10000")


@pytest.fixture
def tiny_game(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/games/tiny that a test may edit."""
    target = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "games" / "tiny", target)
    return target


@pytest.fixture
def corps_game(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/games/corps (a designer's hex-and-counter game using the
    data forms: an odds-ratio CRT, a terrain effects chart, hexsides, stacking) that a test
    may edit."""
    target = tmp_path / "corps"
    shutil.copytree(FIXTURES / "games" / "corps", target)
    return target
