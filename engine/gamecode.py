"""A game folder's Python: found by convention, imported under a name bound to the folder.

A game folder may hold, beside its YAML, all optional:

- ``rules/`` (a package) or ``rules.py``: procedures and referee tables, exposing ``ENGINE``
  (a ``warpress.engine.registry.GameEngine``); ``rules/session.py``: the automatic referee,
  exposing ``REFEREE`` (a class, see ``engine.referee``);
- ``checks.py``: rule invariants (``@invariant`` of ``verify.invariants``);
- ``kit.py``: kit parts (``@kit_part`` of ``components.registry``).

The folder is imported as a package whose name depends on the folder, never on the game id:
a shipped game is ``warpress.games.<folder>`` (a plain package of warpress); a game an
installed package provides through the entry-point group ``warpress.games`` is that package;
any other folder is ``warpress_folder_<12 hex of the sha256 of its resolved path>``. Two
folders with the same id therefore never share code, and the registries (engine, referee,
kit parts, invariants) take only what the folder's own package registered. A folder's
Python is imported only when the folder is trusted (``engine/trust.py``); naming it on the
command line is not enough.

An import that fails is a data problem: :class:`GameCodeError`, one line naming the file,
the line and the error (``myfolder/rules.py:12: SyntaxError: invalid syntax``).
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from . import trust
from .errors import BadInput, Problem
from .model import Game

#: the parts a folder may hold, by module name below the folder's package
PARTS = ("rules", "rules.session", "checks", "kit")


class GameCodeError(BadInput):
    """A game folder's Python cannot be imported (one line: file:line: error); ``problem``
    is the same as a data problem, for ``verify --data``."""

    def __init__(self, problem: Problem):
        self.problem = problem
        super().__init__(str(problem))


def package_of(game: Game) -> str:
    """The package name of ``game``'s folder (see the module docstring)."""
    return _package_for(Path(game.path).resolve())


@cache
def _package_for(folder: Path) -> str:
    from .. import games
    from .loader import GAMES_DIR, entry_point_games

    if folder.parent == GAMES_DIR.resolve() and (folder / "game.yaml").is_file():
        return f"{games.__name__}.{folder.name}"
    for entry in entry_point_games().values():
        if entry.folder == folder:
            return entry.package
    name = "warpress_folder_" + hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    games.bind(name, folder)
    return name


def has_part(game: Game, part: str) -> bool:
    """Whether ``game``'s folder holds the module ``part`` (``rules``, ``rules.session``...)."""
    base = Path(game.path).resolve().joinpath(*part.split("."))
    return (base / "__init__.py").is_file() or base.with_suffix(".py").is_file()


def part_file(game: Game, part: str) -> str:
    """The file of ``part`` as messages show it (``games/midway/rules/__init__.py``)."""
    base = Path(game.path).resolve().joinpath(*part.split("."))
    file = base / "__init__.py" if (base / "__init__.py").is_file() else base.with_suffix(".py")
    return _shown(game, file)


def missing(game: Game, part: str, name: str, what: str) -> GameCodeError:
    """The error of a module that imports but lacks what it must define."""
    return GameCodeError(Problem(part_file(game, part), 0, "",
                                 f"{part} defines no {name} ({what})"))


def import_part(game: Game, part: str) -> ModuleType | None:
    """Import ``part`` of ``game``'s folder; None when the folder has no such module.

    Untrusted (one line) when the folder is not trusted (``engine/trust.py``);
    GameCodeError (one line: file:line: error) when it cannot be imported."""
    if not has_part(game, part):
        return None
    trust.require(game, part)
    name = f"{package_of(game)}.{part}"
    if name in sys.modules:
        return sys.modules[name]
    try:
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any error of a designer's module is data
        raise GameCodeError(import_problem(game, exc)) from None


def owns(game: Game, module_name: str) -> bool:
    """Whether ``module_name`` belongs to ``game``'s folder package."""
    package = package_of(game)
    return module_name == package or module_name.startswith(package + ".")


def import_problem(game: Game, exc: BaseException) -> Problem:
    """Where in the folder the import failed, and the error:
    ``games/x/rules.py:12: SyntaxError: invalid syntax``."""
    folder = Path(game.path).resolve()
    where: tuple[str, int] = (_shown(game, folder), 0)
    import traceback  # only when a game's code failed

    if isinstance(exc, SyntaxError) and exc.filename:
        where = _location(game, folder, Path(exc.filename), exc.lineno) or where
        text = f"{type(exc).__name__}: {exc.msg}"
    else:
        for frame in reversed(traceback.extract_tb(exc.__traceback__)):
            found = _location(game, folder, Path(frame.filename), frame.lineno)
            if found:
                where = found
                break
        text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return Problem(where[0], where[1], "", " ".join(text.split()))


def _location(game: Game, folder: Path, file: Path,
              line: int | None) -> tuple[str, int] | None:
    try:
        relative = file.resolve().relative_to(folder)
    except (ValueError, OSError):
        return None
    return _shown(game, folder / relative), line or 0


def _shown(game: Game, path: Path) -> str:
    """``path`` as messages show it: below ``games/`` for a shipped game, else as given."""
    from .loader import GAMES_DIR

    try:
        return str(Path("games") / path.relative_to(GAMES_DIR.resolve()))
    except ValueError:
        pass
    folder = Path(game.path).resolve()
    try:
        return str(Path(game.path) / path.relative_to(folder))
    except ValueError:
        return str(path)


def runtime_problem(exc: BaseException) -> Problem | None:
    """Where a designer's own Python raised while a command ran: the innermost frame of a
    folder named on the command line or of an installed game's package, as one line
    (``mygame/rules.py:12: AttributeError: ...``). None when no such frame is in the
    traceback (an error of warpress itself or of a shipped game stays a traceback)."""
    from .. import games
    from .loader import entry_point_games

    roots = games.bound()
    roots.update({entry.package: entry.folder for entry in entry_point_games().values()})
    found: tuple[Path, str, int] | None = None
    tb = exc.__traceback__
    while tb is not None:
        module = str(tb.tb_frame.f_globals.get("__name__", ""))
        root = module.split(".", 1)[0]
        if root in roots:
            found = (Path(roots[root]), tb.tb_frame.f_code.co_filename, tb.tb_lineno)
        tb = tb.tb_next
    if found is None:
        return None
    import traceback  # only when a game's code failed

    _folder, file, line = found
    text = "".join(traceback.format_exception_only(type(exc), exc)).strip()
    return Problem(file, line, "", f"{' '.join(text.split())} (in the game folder's Python)")
