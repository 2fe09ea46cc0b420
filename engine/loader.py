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
import sys
from dataclasses import replace
from functools import cache, lru_cache
from pathlib import Path

from . import limits
from .errors import BadInput, DataError, Problem
from .inputs import check_path_name, choices, quote
from .model import SECTIONS, ExtraRecord, Game, GameInfo, GameStyle, PlayRules
from .notes import tell
from .places import NotPrivate, cache_folder, private_place
from .records import Frozen, frozen_record

#: Sections that are one mapping (not lists of records).
MAPPINGS = ("game", "style", "play")

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
    from importlib.metadata import entry_points
    from importlib.util import find_spec

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


def _dist_name(point) -> str:
    dist = getattr(point, "dist", None)
    return dist.name if dist is not None else "?"


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
    (``verify.data.STRUCTURAL``: ids, references, tables, maps ...), so that no command meets
    a record ``verify --data`` would refuse."""
    from ..verify.data import structural_problems  # the data checks, once per load

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
    ``~/.cache/warpress`` on Linux); its key covers every YAML file's name, size and
    modification time and the source of the model, so an edited game or a new warpress
    version is loaded afresh. The folder is made private (0700) and a pickle is read only
    from a private folder of the user's, as a regular file of theirs that only they may
    write, and only when it holds a game; a cache folder others may write is not used (a
    note says so). A cache that cannot be read or written is ignored.
    """
    folder, _shown = game_dir(name_or_path)
    path = _cache_path(folder)
    if path is not None and (path, folder) in _LOADED:  # this process read it already
        return _LOADED[path, folder]
    game = _read_cache(path) if path is not None else None
    if game is not None:  # the folder as named now (a relative path pickled in another
        # directory would lead elsewhere: its rules, checks and kit would not be found)
        game = game if game.path == folder else replace(game, path=folder)
        _LOADED[path, folder] = game
        return game
    game = load_game(name_or_path)
    if path is not None:
        _write_cache(path, game)
        _LOADED[path, folder] = game
    return game


#: The games this process has read from the cache, by (cache file, folder as named): the
#: cache file's name covers every YAML file's size and time, so an edited game is a new key.
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
    root = cache_folder()
    digest = _engine_digest().copy()
    try:
        for file in sorted(folder.glob("*.y*ml")):
            stat = file.stat()
            digest.update(f"{file.name}:{stat.st_size}:{stat.st_mtime_ns};".encode())
    except OSError:
        return None
    digest.update(str(folder.resolve()).encode())
    return root / f"{folder.name}-{digest.hexdigest()[:24]}.pickle"


@cache
def _engine_digest():
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
        import tempfile  # only when the cache is written

        with tempfile.NamedTemporaryFile("wb", dir=path.parent, delete=False) as handle:
            pickle.dump(game, handle, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(handle.name, path)
        for stale in path.parent.glob(f"{path.name.rsplit('-', 1)[0]}-*.pickle"):
            if stale != path:
                stale.unlink(missing_ok=True)  # an older version of this game's data
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
    documents = []
    budget = Budget()
    for path in files:
        if budget.spent:  # reported by the file that passed it; the others would repeat it
            break
        data, found = read_yaml(path, f"{shown}/{path.name}", root=folder, budget=budget)
        problems.extend(found)
        if data is None:
            continue
        if not isinstance(data, dict):
            problems.append(Problem(f"{shown}/{path.name}", getattr(data, "line", 1), "",
                                    "a game file must be a mapping of sections (game, units, ...)"))
            continue
        documents.append((f"{shown}/{path.name}", data))
    info = _game_info(documents, folder, shown, problems)
    extra_names = info.sections if info else ()
    style = _mapping_section(documents, "style", GameStyle, problems) or GameStyle()
    play = _mapping_section(documents, "play", PlayRules, problems)
    sections: dict[str, list] = {name: [] for name in (*SECTIONS, *extra_names)}
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


def _mapping_section(documents, key: str, cls, problems: list[Problem]):
    """A mapping section other than ``game`` (``style``): at most once, converted to ``cls``."""
    from .convert import Context, to_record

    found = [(f, d) for f, d in documents if key in d]
    for file_shown, data in found[1:]:
        problems.append(Problem(file_shown, data.line_of(key), key,
                                f"{key!r} appears again (first in {found[0][0]})"))
    if not found:
        return None
    file_shown, data = found[0]
    ctx = Context(file_shown)
    record = to_record(data[key], cls, ctx, key, data.line_of(key))
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


def _game_info(documents, folder: Path, shown: str, problems: list[Problem]) -> GameInfo | None:
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
    info = to_record(data["game"], GameInfo, ctx, "game", data.line_of("game"))
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


def _records(value, section: str, cls, ctx, line: int) -> list:
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
