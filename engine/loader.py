"""Load a game folder into a frozen ``Game``; report every problem at once.

``load_game("midway")`` reads the built-in game; ``load_game("path/to/folder")``
reads a designer's own. Problems come back as one ``DataError`` listing
``file:line: key.path: message`` for each.
"""

from __future__ import annotations

import hashlib
import os
import pickle
import stat
import tempfile
from dataclasses import replace
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, TypeVar

from . import limits
from .errors import BadInput, DataError, Problem
from .gamelist import (
    builtin_folder,
    builtin_games,
    entry_point_games,
    entry_point_problems,
    folder_id,
)
from .inputs import check_path_name, choices, quote
from .model import SECTIONS, ExtraRecord, Game, GameInfo, GameStyle, PlayRules
from .notes import tell
from .places import NotPrivate, cache_folder, private_place

if TYPE_CHECKING:

    from .convert import Context
    from .yamlnodes import LMap

R = TypeVar("R")

#: Sections that are one mapping (not lists of records).
MAPPINGS = ("game", "style", "play")


def game_dir(name_or_path: str | Path) -> tuple[Path, str]:
    """Resolve GAME (a built-in id, an entry-point game's id or a folder path) to (folder,
    prefix shown in messages)."""
    text = str(name_or_path)
    if text in builtin_games():
        folder = builtin_folder(text)
        return folder, f"games/{folder.name}"
    entry = entry_point_games().get(text)
    if entry is not None:
        return entry.folder, str(entry.folder)
    if text in (problems := entry_point_problems()):
        raise BadInput(problems[text])
    path = Path(check_path_name(text, "game folder"))
    try:
        is_dir = path.is_dir()
    except OSError as exc:  # a name the file system refuses, a loop of links
        raise BadInput(f"game folder {quote(text)} cannot be read: {exc.strerror}") from None
    if is_dir:
        if not any(path.glob("*.yaml")) and not any(path.glob("*.yml")):
            raise BadInput(f"game folder {quote(text)} has no .yaml files (a game folder "
                           "holds game.yaml and the game's other YAML files)")
        return path, text.rstrip("/")
    choices = ", ".join(builtin_games())
    raise BadInput(f"unknown game {quote(text)} (choose from: {choices}; or give a game "
                   "folder path)")


def load_game(name_or_path: str | Path) -> Game:
    """Load and convert a game; raise DataError with every structural problem: those of the
    loader, then those of the data checks every command needs to hold
    (``engine.structure.STRUCTURAL``: ids, references, tables, maps ...), so that no command
    meets a record ``verify --data`` would refuse."""
    from .structure import structural_problems  # only for a game loaded afresh, not cached

    folder, shown = game_dir(name_or_path)
    game, problems = load_game_collecting(folder, shown)
    if problems or game is None:
        raise DataError(problems, str(name_or_path))
    problems = structural_problems(game)
    if problems:
        raise DataError(problems, str(name_or_path))
    return game


@cache
def _cached_builtin(name: str) -> Game:
    return load_cached(name)


def builtin(name: str) -> Game:
    """A built-in game, loaded once per process."""
    return _cached_builtin(name)


def load_cached(name_or_path: str | Path) -> Game:
    """Like ``load_game``, but reuse a pickled copy while no YAML file has changed.

    The cache lives in the cache folder (``engine/places.py``: ``$WARPRESS_CACHE``, else
    ``~/.cache/warpress`` on Linux); a cache file is named by the folder's resolved path and
    keyed by the content of every YAML file and the source of the model, so two folders of
    one name do not share a cache and an edited game or a new warpress version is loaded
    afresh. The folder is made private (0700) and a pickle is read only
    from a private folder of the user's, as a regular file of theirs that only they may
    write, and only when it holds a game; a cache folder others may write is not used (a
    note says so). A cache that cannot be read or written is ignored.
    """
    folder, _shown = game_dir(name_or_path)
    path = _cache_path(folder)
    if path is not None and (path, folder) in _LOADED:  # this process read it already
        return _LOADED[path, folder]
    game = _read_cache(path) if path is not None else None
    if game is not None and path is not None:  # the folder as named now (a relative path
        # pickled in another directory would lead elsewhere: its rules, checks and kit would
        # not be found)
        game = game if game.path == folder else replace(game, path=folder)
        _LOADED[path, folder] = game
        return game
    game = load_game(name_or_path)
    if path is not None:
        _write_cache(path, game)
        _LOADED[path, folder] = game
    return game


#: The games this process has read from the cache, by (cache file, folder as named): the
#: cache file's name covers every YAML file's content, so an edited game is a new key.
#: A command reads its game once (a game's rules may read it while they are imported).
_LOADED: dict[tuple[Path, Path], Game] = {}


def _read_cache(path: Path) -> Game | None:
    """The game pickled at ``path``, or None (see ``load_cached``)."""
    try:
        private_place(path.parent)
        info = path.lstat()
        if (not stat.S_ISREG(info.st_mode) or info.st_mode & 0o022
                or info.st_uid != getattr(os, "getuid", lambda: info.st_uid)()):
            return None
        with path.open("rb") as handle:
            game = pickle.load(handle)
    except NotPrivate as exc:
        tell(f"the cache is not used: {exc}")
        return None
    except Exception:  # noqa: BLE001 - any file that is not a pickled game is no cache
        return None
    return game if isinstance(game, Game) else None


def _cache_path(folder: Path) -> Path | None:
    """The cache file of ``folder``: named by the folder's resolved path (two folders of one
    name keep a cache each) and by the content of its YAML files and the engine's sources
    (an edited game or a new warpress is a new file)."""
    root = cache_folder()
    content = _engine_digest().copy()
    try:
        where = folder.resolve()
        for file in sorted(folder.glob("*.y*ml")):
            content.update(f"{file.name}:".encode())
            content.update(hashlib.sha256(file.read_bytes()).digest())
    except OSError:
        return None
    place = hashlib.sha256(str(where).encode()).hexdigest()[:12]
    return root / f"{folder.name}-{place}-{content.hexdigest()[:24]}.pickle"


@cache
def _engine_digest() -> hashlib._Hash:
    """The hash of the engine's sources that shape a loaded game, read once per process (a
    new warpress version is a new cache key; the sources do not change under a process)."""
    digest = hashlib.sha256()
    here = Path(__file__).resolve().parent
    # combat.py expands a CRT's grid into the table's rows; records.py: the records' methods
    for source in ("model.py", "records.py", "convert.py", "loader.py", "yamlnodes.py",
                   "limits.py", "combat.py"):
        digest.update((here / source).read_bytes())
    return digest


def _write_cache(path: Path, game: Game) -> None:
    try:
        private_place(path.parent)

        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as handle:
            pickle.dump(game, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, path)
        for stale in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.pickle"):
            if stale != path:  # an older version of this folder's data
                stale.unlink(missing_ok=True)
    except (OSError, NotPrivate):
        pass


def load_game_collecting(folder: Path, shown: str) -> tuple[Game | None, list[Problem]]:
    """Load ``folder``; return (game or None, problems) without raising."""
    from .convert import Context  # YAML parsing is imported only when a game is parsed
    from .yamlnodes import Budget, LMap, read_yaml

    files = sorted(folder.glob("*.yaml")) + sorted(folder.glob("*.yml"))
    problems: list[Problem] = []
    if not files:
        return None, [Problem(shown, 0, "", "no .yaml files in this game folder")]
    too_big = _folder_too_big(files, shown)
    if too_big:
        return None, [too_big]
    documents: list[tuple[str, LMap]] = []
    budget = Budget()
    for path in files:
        if budget.spent:  # reported by the file that passed it; the others would repeat it
            break
        data, found = read_yaml(path, f"{shown}/{path.name}", root=folder, budget=budget)
        problems.extend(found)
        if data is None:
            continue
        if not isinstance(data, LMap):
            problems.append(Problem(f"{shown}/{path.name}", getattr(data, "line", 1), "",
                                    "a game file must be a mapping of sections (game, units, ...)"))
            continue
        documents.append((f"{shown}/{path.name}", data))
    info = _game_info(documents, folder, shown, problems)
    extra_names = info.sections if info else ()
    style = _mapping_section(documents, "style", GameStyle, problems) or GameStyle()
    play = _mapping_section(documents, "play", PlayRules, problems)
    sections: dict[str, list[Any]] = {name: [] for name in (*SECTIONS, *extra_names)}
    for file_shown, data in documents:
        ctx = Context(file_shown)
        for key, value in data.items():
            if key in MAPPINGS:
                continue
            line = data.line_of(key) if isinstance(data, LMap) else 0
            if key not in sections:
                allowed = choices([*MAPPINGS, *sections], see="docs/data-format.md")
                ctx.problem(line, key, f"unknown section {quote(key)} (allowed: {allowed}; "
                            "declare extra sections in game.sections)")
                continue
            sections[key].extend(_records(value, key, SECTIONS.get(key, ExtraRecord), ctx, line))
        problems.extend(ctx.problems)
    if info is None:
        return None, problems
    typed = {name: tuple(sections[name]) for name in SECTIONS}
    extra = {name: tuple(sections[name]) for name in extra_names}
    game = Game(path=folder, info=info, extra=extra, style=style, play=play, **typed)
    over = limits.check_game(game)
    if over:  # refused before any check or build works on it
        return None, problems + over
    return game, problems


def _mapping_section(documents: list[tuple[str, LMap]], key: str, cls: type[R],
                     problems: list[Problem]) -> R | None:
    """A mapping section other than ``game`` (``style``): at most once, converted to ``cls``."""
    # start-up: 26 more modules (PyYAML), only when this runs
    from .convert import Context, to_record

    found = [(f, d) for f, d in documents if key in d]
    for file_shown, data in found[1:]:
        problems.append(Problem(file_shown, data.line_of(key), key,
                                f"{key!r} appears again (first in {found[0][0]})"))
    if not found:
        return None
    file_shown, data = found[0]
    ctx = Context(file_shown)
    record: R = to_record(data[key], cls, ctx, key, data.line_of(key))
    problems.extend(ctx.problems)
    return None if ctx.problems else record


def _folder_too_big(files: list[Path], shown: str) -> Problem | None:
    """A problem when a game folder has more YAML files or bytes than ``limits`` allow
    (sizes as listed: a link or a special file is refused when it is read)."""
    if len(files) > limits.FILES:
        return Problem(shown, 0, "", f"{len(files)} YAML files: a game folder holds at most "
                                     f"{limits.FILES} (limits: warpress docs data-format)")
    total = 0
    for path in files:
        try:
            info = path.lstat()
        except OSError:
            continue  # reported when it is read
        total += info.st_size if stat.S_ISREG(info.st_mode) else 0
    if total > limits.GAME_BYTES:
        return Problem(shown, 0, "", f"{total:,} bytes of YAML: a game is at most "
                                     f"{limits.GAME_BYTES:,} (limits: warpress docs data-format)")
    return None


def _game_info(documents: list[tuple[str, LMap]], folder: Path, shown: str,
               problems: list[Problem]) -> GameInfo | None:
    # start-up: 26 more modules (PyYAML), only when this runs
    from .convert import Context, to_record

    found = [(f, d) for f, d in documents if "game" in d]
    if not found:
        if problems:
            return None  # a file that did not parse may hold it
        problems.append(Problem(f"{shown}/game.yaml", 0, "game",
                                "no file has the 'game' section (id, name, kind, players)"))
        return None
    for file_shown, data in found[1:]:
        problems.append(Problem(file_shown, data.line_of("game"), "game",
                                f"'game' appears again (first in {found[0][0]})"))
    file_shown, data = found[0]
    ctx = Context(file_shown)
    info: GameInfo = to_record(data["game"], GameInfo, ctx, "game", data.line_of("game"))
    problems.extend(ctx.problems)
    if ctx.problems:
        return None
    if info.engine is not None:
        problems.append(Problem(file_shown, data["game"].line_of("engine"), "game.engine",
                                "no longer used: a game's procedures go in rules/ (or rules.py) "
                                "in the game's folder, found there (warpress docs engine)"))
        return None
    if folder.name and info.id != (named := folder_id(folder)):  # a copy under another name
        info = replace(info, id=named)
    return info


def _records(value: Any, section: str, cls: type[R], ctx: Context, line: int) -> list[R]:
    # start-up: 26 more modules (PyYAML), only when this runs
    from .convert import item_name, to_record
    from .yamlnodes import LList

    if not isinstance(value, list):
        ctx.problem(line, section, "expected a list of records")
        return []
    out = []
    for i, raw in enumerate(value):
        item_line = value.line_of(i) if isinstance(value, LList) else line
        record = to_record(raw, cls, ctx, f"{section}[{item_name(raw, i)}]", item_line)
        if isinstance(record, cls):
            out.append(record)
    return out
