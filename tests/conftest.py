"""Shared fixtures: a small valid game folder that tests copy and break; the pdftoppm the
PNG outputs run."""

from __future__ import annotations

import os
import shutil
import sys
from pathlib import Path

import pytest

FIXTURES = Path(__file__).parent / "fixtures"


@pytest.fixture
def tiny_game(tmp_path: Path) -> Path:
    """A copy of tests/fixtures/games/tiny that a test may edit."""
    target = tmp_path / "tiny"
    shutil.copytree(FIXTURES / "games" / "tiny", target)
    return target


FAKE_PDFTOPPM = FIXTURES / "fake_pdftoppm.py"


@pytest.fixture
def fake_pdftoppm(tmp_path_factory, monkeypatch) -> Path:
    """The stand-in pdftoppm (fixtures/fake_pdftoppm.py) first on PATH; its path."""
    folder = tmp_path_factory.mktemp("bin")
    script = folder / "pdftoppm"
    script.write_text(f"#!{sys.executable}\n{FAKE_PDFTOPPM.read_text(encoding='utf-8')}",
                      encoding="utf-8")
    script.chmod(0o755)
    monkeypatch.setenv("PATH", f"{folder}{os.pathsep}{os.environ.get('PATH', '')}")
    return script


@pytest.fixture
def pdftoppm(request) -> str:
    """The pdftoppm the PNG outputs run: poppler's where it is installed (as on CI), else
    the stand-in, so the PNG tests run on a machine with only Python and pip too
    (tests/components/test_render_pdf.py holds the stand-in to poppler's contract)."""
    return shutil.which("pdftoppm") or str(request.getfixturevalue("fake_pdftoppm"))
