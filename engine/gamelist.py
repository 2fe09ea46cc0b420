"""The games warpress knows by id: the shipped folders under ``games/`` and the games that
installed packages provide through the entry-point group ``warpress.games``."""

from __future__ import annotations

import sys
from functools import lru_cache
from importlib.util import find_spec
from pathlib import Path

from .records import Frozen, frozen_record

GAMES_DIR = Path(__file__).resolve().parent.parent / "games"

#: the entry-point group through which installed packages provide games
ENTRY_POINT_GROUP = "warpress.games"


def builtin_games() -> tuple[str, ...]:
    """Ids of the games shipped with warpress (folders under games/, see ``builtin_folder``)."""
    return tuple(sorted(p.name.replace("_", "-") for p in GAMES_DIR.iterdir()
                        if (p / "game.yaml").is_file()))


def builtin_folder(game_id: str) -> Path:
    """The folder of the shipped game ``game_id``: its id with ``-`` as ``_``, a name Python
    imports (``games/midway_cards`` holds ``midway-cards``, the package
    ``warpress.games.midway_cards``)."""
    return GAMES_DIR / game_id.replace("-", "_")


def folder_id(folder: Path) -> str:
    """The id a game folder gives its game: a shipped folder's id (``builtin_folder``),
    any other folder's name (a copy under another name is another game)."""
    if folder.name and folder.resolve().parent == GAMES_DIR:
        return folder.name.replace("_", "-")
    return folder.name


@frozen_record(kw_only=False)
class EntryGame(Frozen):
    """A game an installed package provides through the entry-point group ``warpress.games``:
    ``name = package`` (the game id = a package whose folder holds game.yaml)."""

    id: str
    package: str
    folder: Path
    dist: str


def entry_point_games() -> dict[str, EntryGame]:
    """The games of the ``warpress.games`` entry points, by id: those whose package is found
    and whose id is not a shipped game's (the shipped game wins; ``entry_point_problems``
    says which were left out and why)."""
    return {g.id: g for g in _entry_games()[0]}


def entry_point_problems() -> dict[str, str]:
    """Entry points left out, by id: one line each, why (a shipped id, a package not found)."""
    return _entry_games()[1]


def _entry_games() -> tuple[list[EntryGame], dict[str, str]]:
    found, problems = _entry_games_on(tuple(sys.path))
    return list(found), dict(problems)


@lru_cache(maxsize=8)
def _entry_games_on(path: tuple[str, ...]) -> tuple[list[EntryGame], dict[str, str]]:
    """The entry-point games of the distributions on ``path`` (``sys.path``), scanned once
    per process and path: reading every distribution's metadata costs a file per package
    each time, and what is installed does not change under a command."""
    # start-up: 46 more modules (importlib.metadata, zipfile), only when this runs
    from importlib.metadata import entry_points

    shipped = set(builtin_games())
    found, problems = [], {}
    points = entry_points(group=ENTRY_POINT_GROUP)
    for point in sorted(points, key=lambda p: (p.name, p.value)):
        where = f"entry point {point.name} = {point.value} (package {_dist_name(point)})"
        if point.name in shipped:
            problems[point.name] = f"{where} is ignored: {point.name!r} is a shipped game"
            continue
        try:
            spec = find_spec(point.value)
        except Exception as exc:  # noqa: BLE001 - a package's own import error, as one line
            spec, why = None, f"{type(exc).__name__}: {exc}"
        else:
            why = "not an importable package"
        if spec is None or not spec.submodule_search_locations:
            problems[point.name] = (f"{where}: {' '.join(why.split())} (group "
                                    f"{ENTRY_POINT_GROUP}: a package whose folder holds the "
                                    "game)")
            continue
        folder = Path(list(spec.submodule_search_locations)[0]).resolve()
        found.append(EntryGame(point.name, point.value, folder, _dist_name(point)))
    return found, problems


def _dist_name(point: object) -> str:
    dist = getattr(point, "dist", None)
    return dist.name if dist is not None else "?"
