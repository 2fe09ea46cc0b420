"""A game folder's Python: one contract, found by one lookup, imported under a name bound to
the folder.

A game folder may hold, beside its YAML, Python where the data forms end. Its
``__init__.py`` declares what that Python adds, once::

    from warpress.engine.registry import GameCode

    CODE = GameCode()

and its modules, all optional, register on that object (``engine.registry.GameCode``):

- ``rules/`` (a package) or ``rules.py``: referee tables, ``@CODE.table(...)``;
- ``rules/session.py``: the session rules, ``@CODE.session`` on their class (``engine.referee``);
- ``checks.py``: rule invariants, ``@CODE.check(rule, summary)`` (``verify.invariants``);
- ``kit.py``: kit parts, ``@CODE.kit_part("sheets")`` (``components.registry``).

:func:`game_code` is the lookup: ``game_code(game, "rules")`` imports the folder's package and
its ``rules`` and returns the ``CODE`` they registered on; a command imports only the module it
needs (``lookup`` never loads the session rules or the kit).

The folder is imported as a package whose name depends on the folder, never on the game id:
a shipped game is ``warpress.games.<folder>`` (a plain package of warpress); a game an
installed package provides through the entry-point group ``warpress.games`` is that package;
any other folder is ``warpress_folder_<12 hex of the sha256 of its resolved path>``. Two
folders with the same id therefore never share code: each registers on its own ``CODE``. A
folder's Python is imported only when the folder is trusted (``engine/trust.py``); naming it
on the command line is not enough.

An import that fails is a data problem: :class:`GameCodeError`, one line naming the file,
the line and the error (``myfolder/rules.py:12: SyntaxError: invalid syntax``); a folder that
registers the way this contract replaced is told the new way in one line.
"""

from __future__ import annotations

import hashlib
import importlib
import sys
from functools import cache
from pathlib import Path
from types import ModuleType

from . import gamefinder, trust
from .errors import BadInput, Problem
from .gamelist import GAMES_DIR, entry_point_games
from .gameparts import INIT, has_part, part_file, shown
from .model import Game
from .registry import GameCode

#: the package of the shipped game folders (``games/``)
SHIPPED_PACKAGE = f"{__package__.rpartition('.')[0]}.games"
#: where the contract is described, for the messages that point at it
DOCS = "warpress docs engine"


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
    if folder.parent == GAMES_DIR.resolve() and (folder / "game.yaml").is_file():
        return f"{SHIPPED_PACKAGE}.{folder.name}"
    for entry in entry_point_games().values():
        if entry.folder == folder:
            return entry.package
    name = "warpress_folder_" + hashlib.sha256(str(folder).encode()).hexdigest()[:12]
    gamefinder.bind(name, folder)
    return name


def missing(game: Game, part: str, name: str, what: str) -> GameCodeError:
    """The error of a module that imports but lacks what it must define."""
    return GameCodeError(Problem(part_file(game, part), 0, "",
                                 f"{part} defines no {name} ({what})"))


def game_code(game: Game, *parts: str) -> GameCode:
    """The ``CODE`` that ``game``'s folder declares, with the modules ``parts`` of the folder
    imported (those it holds), so that what they register is on it; an empty GameCode for a
    folder without Python. GameCodeError (one line) when a module cannot be imported, the
    folder declares no CODE, or a module registers the way this contract replaced."""
    held = [part for part in parts if has_part(game, part)]
    if held:  # an untrusted folder is told about the module the command needs
        trust.require(game, held[0])
    if not has_part(game, INIT):
        for part in held:  # an old folder's imports name the new way themselves
            import_part(game, part)
        if held:
            raise GameCodeError(Problem(part_file(game, held[0]), 0, "", (
                f"{held[0]} registers on the folder's CODE: declare CODE = GameCode() (from "
                f"warpress.engine.registry) in the folder's __init__.py ({DOCS})")))
        return GameCode()
    code = getattr(import_part(game, INIT), "CODE", None)
    if not isinstance(code, GameCode):
        raise missing(game, INIT, "CODE", "CODE = GameCode(), from warpress.engine.registry")
    for part in held:
        _registered_anew(game, part, import_part(game, part), code)
    return code


#: what an old module defined -> how the contract registers it
_OLD_NAMES = {"ENGINE": "@CODE.table on each table", "REFEREE": "@CODE.session on the class"}


def _registered_anew(game: Game, part: str, module: ModuleType | None, code: GameCode) -> None:
    """GameCodeError when ``module`` still defines a name of the registration this contract
    replaced (a module-level ``REFEREE``, ``ENGINE``) instead of registering on ``code``."""
    for name, instead in _OLD_NAMES.items():
        if module is not None and hasattr(module, name) and not _anew(code, name):
            raise GameCodeError(Problem(part_file(game, part), 0, "", (
                f"{name} is gone: register with {instead} on the CODE = GameCode() of the "
                f"folder's __init__.py ({DOCS})")))


def _anew(code: GameCode, name: str) -> bool:
    return bool(code.tables) if name == "ENGINE" else code.session_rules is not None


def import_part(game: Game, part: str) -> ModuleType | None:
    """Import ``part`` of ``game``'s folder; None when the folder has no such module.

    Untrusted (one line) when the folder is not trusted (``engine/trust.py``);
    GameCodeError (one line: file:line: error) when it cannot be imported."""
    if not has_part(game, part):
        return None
    trust.require(game, part)
    name = package_of(game) if part == INIT else f"{package_of(game)}.{part}"
    if name in sys.modules:
        return sys.modules[name]
    try:
        return importlib.import_module(name)
    except Exception as exc:  # noqa: BLE001 - any error of a designer's module is data
        raise GameCodeError(import_problem(game, exc)) from None


def import_problem(game: Game, exc: BaseException) -> Problem:
    """Where in the folder the import failed, and the error:
    ``games/x/rules.py:12: SyntaxError: invalid syntax``."""
    folder = Path(game.path).resolve()
    where: tuple[str, int] = (shown(game, folder), 0)
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
        if isinstance(exc, BadInput):  # warpress's own words (an old registration's import)
            text = str(exc)
    return Problem(where[0], where[1], "", " ".join(text.split()))


def _location(game: Game, folder: Path, file: Path,
              line: int | None) -> tuple[str, int] | None:
    try:
        relative = file.resolve().relative_to(folder)
    except (ValueError, OSError):
        return None
    return shown(game, folder / relative), line or 0


def runtime_problem(exc: BaseException) -> Problem | None:
    """Where a designer's own Python raised while a command ran: the innermost frame of a
    folder named on the command line or of an installed game's package, as one line
    (``mygame/rules.py:12: AttributeError: ...``). None when no such frame is in the
    traceback (an error of warpress itself or of a shipped game stays a traceback)."""
    roots = gamefinder.bound()
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
