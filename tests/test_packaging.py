"""The package lists every Python folder, so `pip install .` ships it all."""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def test_every_package_folder_is_listed_in_pyproject():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    skip = {"tests", "output", "build", ".ci-venv", ".venv"}
    found = {"warpress"}
    for init in ROOT.rglob("__init__.py"):
        rel = init.parent.relative_to(ROOT)
        if rel.parts and rel.parts[0] in skip:
            continue
        found.add(".".join(("warpress", *rel.parts)) if rel.parts else "warpress")
    assert found == listed


def test_the_font_and_its_licence_ship_together():
    assert (ROOT / "fonts" / "ipaexg.ttf").stat().st_size > 1_000_000
    assert "IPA Font License Agreement v1.0" in (ROOT / "fonts" / "IPA_Font_License.txt").read_text(
        encoding="utf-8")
