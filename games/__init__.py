"""The shipped games, one folder each: YAML data and, optionally, the game's Python.

A folder's Python (``rules/`` or ``rules.py``, ``checks.py``, ``kit.py``) is imported as a
package named after the folder, never after the game id (``warpress.engine.gamecode``). The
shipped folders keep their hyphenated names (``midway-cards``); the finder below maps the
package name ``warpress.games.midway_cards`` to the folder ``games/midway-cards``, and a
folder bound with :func:`bind` (a designer's own) to the name it was given.
"""

from __future__ import annotations

import sys
from importlib.machinery import ModuleSpec
from pathlib import Path

HERE = Path(__file__).resolve().parent

#: package name -> game folder, for folders outside this package (see ``bind``)
_BOUND: dict[str, Path] = {}


def shipped_package(folder_name: str) -> str:
    """``midway-cards`` -> ``warpress.games.midway_cards``."""
    return f"{__name__}.{folder_name.replace('-', '_')}"


def bind(name: str, folder: Path) -> None:
    """Make ``import name`` (and ``name.rules`` ...) import from ``folder``."""
    _BOUND[name] = folder


def bound() -> dict[str, Path]:
    """Every bound package name -> its folder (a copy)."""
    return dict(_BOUND)


# The finder and loader are plain classes: the import system asks only for their methods,
# and ``importlib.abc`` would import ``importlib.resources`` (tempfile, shutil, random: about
# 8 ms of every command's start-up).


class _FolderPackage:
    """A game folder as a package (an import loader): an empty module whose ``__path__`` is
    the folder."""

    def create_module(self, spec):
        return None

    def exec_module(self, module) -> None:
        pass


class GameFolderFinder:
    """An import finder on ``sys.meta_path``: finds ``warpress.games.<id with - as _>``
    and every bound name."""

    def find_spec(self, fullname, path=None, target=None):
        folder = _BOUND.get(fullname) or self._shipped(fullname)
        if folder is None:
            return None
        spec = ModuleSpec(fullname, _FolderPackage(), origin=str(folder), is_package=True)
        spec.submodule_search_locations = [str(folder)]
        return spec

    @staticmethod
    def _shipped(fullname: str) -> Path | None:
        parent, _, name = fullname.rpartition(".")
        if parent != __name__ or not name.isidentifier():
            return None
        for folder in HERE.iterdir():
            if folder.name.replace("-", "_") == name and (folder / "game.yaml").is_file():
                return folder
        return None


if not any(isinstance(f, GameFolderFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, GameFolderFinder())
