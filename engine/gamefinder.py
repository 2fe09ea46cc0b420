"""An import finder for a designer's own game folder: the folder's Python (its
``__init__.py`` declaring ``CODE``, ``rules/`` or ``rules.py``, ``checks.py``, ``kit.py``) is
imported as a package named after the folder,
never after the game id (``engine/gamecode.py``). A shipped folder is a plain package of
warpress (``games/midway_cards`` is ``warpress.games.midway_cards``, the game
``midway-cards``: ``engine.loader.builtin_folder``) that Python finds as it finds any; the
finder below maps a folder bound with :func:`bind` (a designer's own) to the name it was
given.

A bound folder's modules are imported from their source alone (``engine/trust.py``: the
hash of a trusted folder covers its ``*.py`` files): no bytecode is read from or written to
its ``__pycache__``, and a sourceless ``.pyc``, an extension module or a symbolic link (to
code the hash does not cover) in it is not imported.
"""

from __future__ import annotations

import sys
from collections.abc import Sequence
from importlib._abc import Loader  # importlib.abc.Loader itself (see below)
from importlib.machinery import ModuleSpec, SourceFileLoader
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType
from typing import NoReturn

#: package name -> game folder, for folders outside this package (see ``bind``)
_BOUND: dict[str, Path] = {}


def bind(name: str, folder: Path) -> None:
    """Make ``import name`` (and ``name.rules`` ...) import from ``folder``."""
    _BOUND[name] = folder


def bound() -> dict[str, Path]:
    """Every bound package name -> its folder (a copy)."""
    return dict(_BOUND)


# The finder is a plain class and the loader's base is ``importlib._abc.Loader`` (which
# ``importlib.abc`` re-exports, and ``importlib.util`` imports anyway): the import system
# asks only for their methods, and ``importlib.abc`` would import ``importlib.resources``
# (tempfile, shutil, random: about 8 ms of every command's start-up).


class _FolderPackage(Loader):
    """A game folder as a package (an import loader): an empty module whose ``__path__`` is
    the folder."""

    def create_module(self, spec: ModuleSpec) -> None:
        return None

    def exec_module(self, module: ModuleType) -> None:
        pass


class _SourceOnly(SourceFileLoader):
    """A module of a bound folder, compiled from its source every time: with no stats of
    its source, the loader neither reads nor writes cached bytecode."""

    def path_stats(self, path: str) -> NoReturn:
        raise OSError("bytecode of a game folder is not used")


class GameFolderFinder:
    """An import finder on ``sys.meta_path``: finds every bound name and the modules inside
    a bound folder (from their source only)."""

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        folder = _BOUND.get(fullname)
        if folder is None:
            if fullname.partition(".")[0] in _BOUND:
                return self._source(fullname, path or [])
            return None
        init = folder / "__init__.py"
        if init.is_symlink():  # its code is not what the folder's trust covers
            raise ModuleNotFoundError(f"{init} is a symbolic link (a game folder's modules are "
                                      f"its own .py files, which its trust covers)", name=fullname)
        if init.is_file():  # the folder's package module: it declares the folder's CODE
            return spec_from_file_location(fullname, init, loader=_SourceOnly(fullname, str(init)),
                                           submodule_search_locations=[str(folder)])
        spec = ModuleSpec(fullname, _FolderPackage(), origin=str(folder), is_package=True)
        spec.submodule_search_locations = [str(folder)]
        return spec

    @staticmethod
    def _source(fullname: str, path: Sequence[str]) -> ModuleSpec | None:
        """The spec of ``fullname`` from a ``.py`` file (or package) in ``path``; a module
        the folder has no source for is not found (no other finder is asked)."""
        name = fullname.rpartition(".")[2]
        for entry in map(Path, path):
            package, module = entry / name / "__init__.py", entry / f"{name}.py"
            for place in (entry / name, package, module):
                if place.is_symlink():  # its code is not what the folder's trust covers
                    raise ModuleNotFoundError(
                        f"{place} is a symbolic link (a game folder's modules are its own "
                        f".py files, which its trust covers)", name=fullname)
            if package.is_file():
                return spec_from_file_location(fullname, package,
                                               loader=_SourceOnly(fullname, str(package)),
                                               submodule_search_locations=[str(package.parent)])
            if module.is_file():
                return spec_from_file_location(fullname, module,
                                               loader=_SourceOnly(fullname, str(module)))
        raise ModuleNotFoundError(f"No module named {fullname!r} (a game folder's modules "
                                  f"are its .py files)", name=fullname)


if not any(isinstance(f, GameFolderFinder) for f in sys.meta_path):
    sys.meta_path.insert(0, GameFolderFinder())
