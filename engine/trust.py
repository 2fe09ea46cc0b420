"""Workspace trust: whose Python a command may run.

A game folder may hold Python (``rules/``, ``rules.py``, ``checks.py``, ``kit.py``:
``engine/gamecode.py``). Naming a folder on the command line does not run it. Its Python
runs only when the folder is trusted:

- a shipped game, and a game an installed package provides (entry points): always;
- a folder the user trusted with ``warpress trust DIR``: the trust store
  (``trusted.json`` in the state folder, ``engine/places.py``) records the folder's
  resolved path and the SHA-256 of its Python (every ``*.py`` file below it, by relative
  name and content); once that Python changes the folder is not trusted until the user
  trusts it again;
- ``--trust`` on the command line: the game folder the command names, for that run only;
- ``$WARPRESS_TRUST``: folders, separated by ``os.pathsep``, whose game folders (the folder
  itself or any below it) are trusted: for CI, which checks out code it already runs.

Commands that need no code never run it (``games``, ``errata``, ``schema``, ``verify
--data``); a command whose answer needs the code of a folder that is not trusted exits 2
with one line naming the files not run (:class:`Untrusted`); one that can answer from the
data alone does so, with a note naming what was not run (``engine/notes.py``). A folder's
modules are imported from their source only (``engine/gamefinder.py``): a cached ``.pyc``,
a sourceless ``.pyc`` or an extension module in the folder is never loaded, so the hash
covers all the code that runs.
"""

from __future__ import annotations

import hashlib
import json
import os
import stat
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from .errors import BadInput, Untrusted
from .gamelist import GAMES_DIR, entry_point_games
from .gameparts import PARTS, has_part, part_file
from .notes import tell
from .places import NotPrivate, private_place, state_folder, write_atomically

if TYPE_CHECKING:
    from .model import Game

#: the environment variable of folders trusted for CI
ENV = "WARPRESS_TRUST"
#: the trust store's file in the state folder
STORE = "trusted.json"
#: the most Python files a game folder may hold, bytes of one, and bytes of them all (the
#: shipped games hold at most 19 files (nightfighter), 65,766 bytes in one (midway/checks.py)
#: and 397,924 in all (nightfighter)), and the most folder entries looked at to find them.
#: Compiling Python takes memory and time in proportion to its statements (hundreds of bytes
#: of memory a byte of the densest source): ``verify --data`` compiles a folder's Python only
#: once it is held to these, sizes read before any file is.
MOST_FILES = 200
MOST_FILE_BYTES = 250_000
MOST_BYTES = 1_500_000
MOST_ENTRIES = 20_000

#: the folders ``--trust`` trusts for this run (resolved)
_RUN: set[Path] = set()


# --------------------------------------------------------------------------- the code


def python_files(folder: Path) -> list[Path]:
    """Every ``*.py`` file below ``folder`` (links not followed), sorted by relative name;
    BadInput past the limits above, or for a ``.py`` that is no regular file (a FIFO would
    stall whoever reads it)."""
    files = source_files(folder, (".py",))
    if len(files) > MOST_FILES:
        raise BadInput(f"{folder}: {len(files):,} Python files; a game folder holds at most "
                       f"{MOST_FILES:,}")
    total = 0
    for path, size in files.items():
        if size > MOST_FILE_BYTES:
            raise BadInput(f"{path}: {size:,} bytes of Python; a game folder's file holds at "
                           f"most {MOST_FILE_BYTES:,}")
        total += size
    if total > MOST_BYTES:
        raise BadInput(f"{folder}: {total:,} bytes of Python; a game folder holds at most "
                       f"{MOST_BYTES:,}")
    return list(files)


def source_files(folder: Path, suffixes: tuple[str, ...]) -> dict[Path, int]:
    """The files below ``folder`` whose names end in one of ``suffixes`` (links not
    followed, ``__pycache__`` left out), sorted by relative name, with their sizes; BadInput
    past MOST_ENTRIES entries or for such a name that is no regular file."""
    found, seen = {}, 0
    for here, dirs, files in os.walk(folder):
        seen += len(dirs) + len(files)
        if seen > MOST_ENTRIES:
            raise BadInput(f"{folder}: more than {MOST_ENTRIES:,} files and folders; a game "
                           f"folder's files cannot be checked in so many")
        dirs[:] = sorted(d for d in dirs if d != "__pycache__"
                         and not os.path.islink(os.path.join(here, d)))
        for name in files:
            if name.endswith(suffixes):
                path = Path(here) / name
                try:
                    info = path.lstat()
                except OSError as exc:
                    raise BadInput(f"cannot read {path}: {exc.strerror}") from None
                if stat.S_ISLNK(info.st_mode):
                    continue
                if not stat.S_ISREG(info.st_mode):
                    raise BadInput(f"{path}: not a regular file (a FIFO, a device or a "
                                   f"socket); a game folder holds files")
                found[path] = info.st_size
    return dict(sorted(found.items(), key=lambda item: item[0].relative_to(folder).as_posix()))


def code_digest(folder: Path) -> str:
    """The SHA-256 of the Python below ``folder``: each file's relative name and content."""
    digest, total = hashlib.sha256(), 0
    for path in python_files(folder):
        data = path.read_bytes()
        total += len(data)
        if total > MOST_BYTES:
            raise BadInput(f"{folder}: more than {MOST_BYTES:,} bytes of Python")
        name = path.relative_to(folder).as_posix().encode("utf-8", "surrogateescape")
        digest.update(len(name).to_bytes(8, "big") + name + len(data).to_bytes(8, "big"))
        digest.update(data)
    return digest.hexdigest()


# --------------------------------------------------------------------------- trusted?


def trusted(game: Game) -> bool:
    """Whether ``game``'s folder may run its Python (see the module docstring)."""
    return why_not(Path(game.path)) is None


def why_not(folder: Path) -> str | None:
    """None when ``folder`` is trusted, else why not (to end a sentence)."""
    folder = folder.resolve()
    if not folder.is_dir():
        return "there is no such folder"
    if always_trusted(folder) or folder in _RUN or _in_environment(folder):
        return None
    record = _store().get(str(folder))
    if record is None:
        return "the folder is not trusted"
    if record.get("python_sha256") != _digest(folder):
        return f"its Python changed since you trusted it ({record.get('time', '?')})"
    return None


def always_trusted(folder: Path) -> bool:
    """Whether ``folder`` (resolved) is a shipped game or an installed package's game."""
    if folder.parent == GAMES_DIR.resolve():
        return True
    return any(entry.folder == folder for entry in entry_point_games().values())


def _in_environment(folder: Path) -> bool:
    for entry in os.environ.get(ENV, "").split(os.pathsep):
        if entry.strip() and folder.is_relative_to(Path(entry.strip()).resolve()):
            return True
    return False


@cache
def _digest(folder: Path) -> str:
    """The code digest of ``folder``, once per process (the Python imported is this)."""
    return code_digest(folder)


@contextmanager
def for_this_run(folder: Path | None) -> Iterator[None]:
    """Trust ``folder`` (the game folder a command names with ``--trust``) while the block
    runs."""
    added = folder.resolve() if folder is not None and folder.resolve() not in _RUN else None
    if added is not None:
        _RUN.add(added)
    try:
        yield
    finally:
        if added is not None:
            _RUN.discard(added)


# --------------------------------------------------------------------------- refusing


def not_run(game: Game) -> list[str]:
    """The parts of ``game``'s folder that hold Python, as messages show them."""
    return [part_file(game, part) for part in PARTS if has_part(game, part)]


def require(game: Game, part: str) -> None:
    """Untrusted (one line) unless ``game``'s folder is trusted; ``part`` is the module the
    command needs (``rules``, ``checks``...)."""
    why = why_not(Path(game.path))
    if why is not None:
        raise Untrusted(f"{part_file(game, part)}: not run: {why} "
                        f"({_advice(game)})")


def tell_not_run(game: Game, what: str) -> None:
    """Note that ``game``'s Python was not run and what was done without it."""
    files = ", ".join(not_run(game))
    why = why_not(Path(game.path)) or "the folder is not trusted"
    tell(f"{files}: not run ({why}); {what} ({_advice(game)})")


def _advice(game: Game) -> str:
    return f"trust it with `warpress trust {game.path}`, or --trust for one run"


# --------------------------------------------------------------------------- the store


def _store_path() -> Path:
    return state_folder() / STORE


def _store() -> dict[str, dict[str, Any]]:
    """The trust store: resolved folder -> {python_sha256, time}; empty when missing or
    unreadable, or when the state folder is not private (nothing in it is believed)."""
    path = _store_path()
    try:
        private_place(path.parent)
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError, NotPrivate):
        return {}
    folders = data.get("folders") if isinstance(data, dict) else None
    return {k: v for k, v in folders.items() if isinstance(v, dict)} if isinstance(
        folders, dict) else {}


def trust_folder(folder: Path) -> tuple[Path, str, int]:
    """Record ``folder`` (resolved) and the digest of its Python in the trust store:
    ``(folder, digest, Python files)``. BadInput when the store cannot be written."""
    folder = folder.resolve()
    digest, files = code_digest(folder), len(python_files(folder))
    folders = _store()
    folders[str(folder)] = {"python_sha256": digest, "files": files,
                            "time": datetime.now(UTC).isoformat(timespec="seconds")}
    _write_store(folders)
    _digest.cache_clear()
    return folder, digest, files


def forget_folder(folder: Path) -> bool:
    """Remove ``folder`` from the trust store; whether it was there."""
    folders = _store()
    if folders.pop(str(folder.resolve()), None) is None:
        return False
    _write_store(folders)
    return True


def trusted_folders() -> dict[str, dict[str, Any]]:
    """The trust store's records, by folder."""
    return dict(sorted(_store().items()))


def _write_store(folders: dict[str, dict[str, Any]]) -> None:
    path = _store_path()
    data = json.dumps({"folders": dict(sorted(folders.items()))}, indent=1) + "\n"
    try:
        write_atomically(private_place(path.parent) / STORE, data.encode())
    except OSError as exc:
        raise BadInput(f"cannot write {path}: {exc.strerror}") from None
    except NotPrivate as exc:
        raise BadInput(f"cannot keep what you trust in {path.parent}: {exc}") from None
