"""The Python a game folder may hold, as files: its parts (``__init__.py``, ``rules``,
``rules/session.py``, ``checks.py``, ``kit.py``), whether a folder holds one and how messages
show a file of it. ``engine/gamecode.py`` imports the parts; ``engine/trust.py`` decides
whether they may run."""

from __future__ import annotations

from pathlib import Path

from .gamelist import GAMES_DIR
from .model import Game

#: the folder's own package module, which declares ``CODE``
INIT = "__init__"
#: the parts a folder may hold, by module name below the folder's package
PARTS = (INIT, "rules", "rules.session", "checks", "kit")


def has_part(game: Game, part: str) -> bool:
    """Whether ``game``'s folder holds the module ``part`` (``rules``, ``rules.session``...)."""
    base = Path(game.path).resolve().joinpath(*part.split("."))
    return (base / "__init__.py").is_file() or base.with_suffix(".py").is_file()


def part_file(game: Game, part: str) -> str:
    """The file of ``part`` as messages show it (``games/midway/rules/__init__.py``)."""
    base = Path(game.path).resolve().joinpath(*part.split("."))
    file = base / "__init__.py" if (base / "__init__.py").is_file() else base.with_suffix(".py")
    return shown(game, file)


def shown(game: Game, path: Path) -> str:
    """``path`` as messages show it: below ``games/`` for a shipped game, else as given."""
    try:
        return str(Path("games") / path.relative_to(GAMES_DIR.resolve()))
    except ValueError:
        pass
    folder = Path(game.path).resolve()
    try:
        return str(Path(game.path) / path.relative_to(folder))
    except ValueError:
        return str(path)
