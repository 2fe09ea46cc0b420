"""The package lists every Python folder, so `pip install .` ships it all: a shipped game
folder and its rules/ are packages (warpress.games.<folder>), its YAML package data of
warpress.games."""

from __future__ import annotations

import re
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


def test_every_python_file_of_a_game_folder_is_in_a_listed_package():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    games = ROOT / "games"
    modules = [f for f in games.rglob("*.py") if f.parent != games]
    assert any(f.name == "kit.py" for f in modules)
    packages = {".".join(("warpress", *f.parent.relative_to(ROOT).parts)) for f in modules}
    assert packages <= listed


def test_every_yaml_file_of_a_game_folder_is_package_data():
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["warpress.games"]
    games = ROOT / "games"
    files = [f.relative_to(games).as_posix() for f in games.rglob("*.yaml")]
    assert any(f.endswith("/scenarios/cats-eye.yaml") for f in files)
    globs = [re.compile("[^/]*".join(map(re.escape, p.split("*"))) + "$") for p in patterns]
    assert [f for f in files if not any(g.match(f) for g in globs)] == []  # * stays in a folder


def test_the_font_and_its_licence_ship_together():
    assert (ROOT / "fonts" / "ipaexg.ttf").stat().st_size > 1_000_000
    assert "IPA Font License Agreement v1.0" in (ROOT / "fonts" / "IPA_Font_License.txt").read_text(
        encoding="utf-8")


def test_the_documentation_pages_ship_for_warpress_docs():
    """`warpress docs TOPIC` prints docs/TOPIC.md from the installed package: every page is
    package data of warpress."""
    config = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    patterns = config["tool"]["setuptools"]["package-data"]["warpress"]
    pages = sorted(p.relative_to(ROOT).as_posix() for p in (ROOT / "docs").glob("*.md"))
    assert "docs/designing.md" in pages
    globs = [re.compile("[^/]*".join(map(re.escape, p.split("*"))) + "$") for p in patterns]
    assert [page for page in pages if not any(g.match(page) for g in globs)] == []
