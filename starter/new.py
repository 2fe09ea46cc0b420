"""``warpress new GAME_DIR``: write a small, valid, commented starting game.

The starting game is the folder ``starter/template/`` of the package: a hex map with
clear, forest and city terrain and a river on hexsides, two sides, NATO counters with
echelons, steps and set-up codes, a set-up, a combat results table, a turn track, a
sequence of play, a play aid, a style and a short numbered rule text the data cites.
``new_game`` copies it into a fresh folder with the game's id and name filled in
(``__ID__`` and ``__NAME__`` in the template), atomically: the folder appears whole or
not at all. An existing non-empty folder, a file in the way or a name that cannot be a
game id is refused before anything is written.
"""

from __future__ import annotations

import json
import re
import unicodedata
from dataclasses import dataclass
from pathlib import Path

from ..components.atomic import replace_folder, write_files
from ..engine.errors import BadInput
from ..engine.inputs import check_path_name, quote

TEMPLATE = Path(__file__).resolve().parent / "template"

#: A game id: what the loader holds equal to the folder name.
ID_RE = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,63}")
MAX_NAME_CHARS = 100
#: A folder path is quoted whole up to this length in a message.
PATH_CHARS = 300


@dataclass(frozen=True)
class NewGame:
    """What ``new_game`` wrote."""

    folder: Path
    id: str
    name: str
    files: tuple[str, ...]


def new_game(path: str, name: str | None = None) -> NewGame:
    """Write the starting game into the folder ``path`` (made with its parents); its id is
    the folder's name.

    :raises BadInput: ``path`` is a file or a non-empty folder, its name is not a game id,
        ``name`` is empty, too long or holds a control character; nothing is written then.
    """
    folder = Path(check_path_name(path, "game folder"))
    _check_place(folder, path)
    game_id = _game_id(folder, path)
    name = _game_name(game_id, name)
    files = template_files(game_id, name)
    try:
        folder.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:  # a file on the way, a folder that cannot be made
        raise BadInput(f"game folder {quote(path)}: cannot make {quote(str(folder.parent))}: "
                       f"{exc.strerror}") from None
    replace_folder(folder, lambda staging: write_files(staging, files))
    return NewGame(folder, game_id, name, tuple(files))


def template_files(game_id: str, name: str) -> dict[str, bytes]:
    """The template's files (name -> bytes) with the id and name filled in."""
    files = {}
    for source in sorted(TEMPLATE.iterdir()):
        if source.suffix not in (".yaml", ".md"):
            continue
        text = source.read_text(encoding="utf-8")
        yaml = source.suffix == ".yaml"
        text = text.replace("__ID__", json.dumps(game_id) if yaml else game_id)
        text = text.replace("__NAME__", json.dumps(name, ensure_ascii=False) if yaml else name)
        files[source.name] = text.encode("utf-8")
    return files


def _check_place(folder: Path, shown: str) -> None:
    shown = quote(shown, PATH_CHARS)
    try:
        if folder.is_symlink() or (folder.exists() and not folder.is_dir()):
            raise BadInput(f"game folder {shown} is a file, not a folder: choose a new "
                           "folder name (nothing was written)")
        if folder.is_dir() and any(folder.iterdir()):
            raise BadInput(f"game folder {shown} exists and is not empty: choose a new "
                           "folder name (nothing was written)")
    except OSError as exc:
        raise BadInput(f"game folder {shown} cannot be read: {exc.strerror}") from None


def _game_id(folder: Path, shown: str) -> str:
    shown = quote(shown, PATH_CHARS)
    derived = folder.resolve().name
    if not ID_RE.fullmatch(derived):
        raise BadInput(f"game folder {shown}: its name {quote(derived)} is the game's "
                       "id, which is 1-64 letters, digits, '-', '_' or '.' starting with a "
                       "letter or digit (e.g. my-game)")
    return derived


def _game_name(game_id: str, name: str | None) -> str:
    if name is None:
        words = re.sub(r"[-_.]+", " ", game_id).strip()
        return words[:1].upper() + words[1:]
    if not name.strip() or len(name) > MAX_NAME_CHARS:
        raise BadInput(f"--name {quote(name)}: a name is 1-{MAX_NAME_CHARS} characters")
    if any(unicodedata.category(ch).startswith("C") for ch in name):
        raise BadInput(f"--name {quote(name)}: a name cannot hold a control character")
    return name
