"""Data checks: the structural ones of every load (``engine/structure.py``), then provenance,
errata, the folder's Python, its referee's scenarios and the declared checks.

``check_folder`` loads a game folder and returns every problem, structural
(from the loader) and semantic (from the checks), each located by file,
line and key path. ``warpress verify GAME --data`` prints them.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..engine.convert import fields_of, yaml_key
from ..engine.errors import BadInput, InputProblems, Problem, WarpressError
from ..engine.gamecode import GameCodeError, game_code, import_part, import_problem
from ..engine.gameparts import PARTS, has_part
from ..engine.loader import game_dir, load_game_collecting
from ..engine.model import Erratum, Game, Item
from ..engine.structure import STRUCTURAL, is_default, located, records, section_path, walk_values
from ..engine.trust import python_files, tell_not_run, trusted

#: keys that are not data values (ids, names, notes, provenance).
META_KEYS = frozenset({"id", "name", "name_ja", "rule", "source", "note", "assumed", "errata",
                       "summary", "text", "text_ja", "title", "title_ja", "label", "why",
                       "readings", "ruling", "rules"})


@dataclass(frozen=True)
class Report:
    """What ``verify --data`` found for one game."""

    game: Game | None
    problems: tuple[Problem, ...]
    sourced: int = 0
    assumed: int = 0

    @property
    def ok(self) -> bool:
        return not self.problems


def check_folder(name_or_path: str | Path) -> Report:
    """Load a game and run every data check; collect all problems."""
    folder, shown = game_dir(name_or_path)
    game, problems = load_game_collecting(folder, shown)
    if game is None:
        return Report(None, tuple(sorted(set(problems))))
    problems.extend(check_game(game))
    sourced, assumed = provenance_counts(game)
    return Report(game, tuple(sorted(set(problems))), sourced, assumed)


def check_game(game: Game) -> list[Problem]:
    """Every semantic check over a loaded game."""
    problems: list[Problem] = []
    for check in CHECKS:
        problems.extend(check(game))
    return problems


def check_provenance(game: Game) -> Iterator[Problem]:
    for section, record in records(game):
        path = section_path(section, record)
        if isinstance(record, Erratum):
            continue
        if not record.rule and not record.is_assumed:
            yield located(record, path,
                           "no provenance: give rule: \"N.N\" or source: assumed with a note")
        yield from _check_item_provenance(record, path)


def _check_item_provenance(item: Item, path: str) -> Iterator[Problem]:
    if item.is_assumed and not item.note:
        yield located(item, path, "source: assumed needs a one-line note saying why")
    for rule in item.rule:
        if not rule.strip():
            yield located(item, f"{path}.rule", "empty rule number")
    present = {p.split(".", 1)[1] for _, p, _, _ in walk_values(item, "x")}
    for key, note in item.assumed.items():
        if not any(p == key or p.startswith(key + ".") or p.startswith(key + "[")
                   for p in present):
            yield located(item, f"{path}.assumed.{key}",
                           f"marks {key!r} assumed but the record has no such field")
        if not str(note).strip():
            yield located(item, f"{path}.assumed.{key}", "needs a one-line note")
    cls: type = type(item)  # a class (hashable), not an Item: fields_of caches by it
    for f in fields_of(cls):
        value = getattr(item, f.name)
        nested = value if isinstance(value, tuple) else (value,)
        for i, sub in enumerate(nested):
            if isinstance(sub, Item):
                yield from _check_item_provenance(sub, f"{path}.{yaml_key(f)}[{sub.id or i}]")


def provenance_counts(game: Game) -> tuple[int, int]:
    """(sourced, assumed): every data value once, by the nearest provenance."""
    sourced = assumed = 0
    for _, record in records(game):
        for _owner, _path, key, _value, is_assumed in _leaves(record, "", False):
            if key in META_KEYS:
                continue
            if is_assumed:
                assumed += 1
            else:
                sourced += 1
    return sourced, assumed


#: (owner, path, key, value, assumed) of one data value
Leaf = tuple[Item, str, str, object, bool]


def _leaves(item: Item, prefix: str, inherited: bool) -> Iterator[Leaf]:
    assumed_here = inherited or item.is_assumed
    if item.rule and not item.is_assumed:
        assumed_here = False
    cls: type = type(item)  # a class (hashable), not an Item: fields_of caches by it
    for f in fields_of(cls):
        key = yaml_key(f)
        value = getattr(item, f.name)
        if is_default(f, value):
            continue
        yield from _leaf(item, key, key, value, assumed_here)
    for key, value in item.extra.items():
        yield from _leaf(item, key, key, value, assumed_here)


def _leaf(owner: Item, path: str, key: str, value: object, assumed_here: bool
          ) -> Iterator[Leaf]:
    if isinstance(value, Item):
        yield from _leaves(value, path, assumed_here or owner.field_assumed(path))
    elif isinstance(value, tuple) and value and all(isinstance(v, Item) for v in value):
        for v in value:
            yield from _leaves(v, path, assumed_here or owner.field_assumed(path))
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _leaf(owner, f"{path}.{k}", key if key in META_KEYS else k, v, assumed_here)
    else:
        yield owner, path, key, value, assumed_here or owner.field_assumed(path)


def check_errata(game: Game) -> Iterator[Problem]:
    for erratum in game.errata:
        path = f"errata[{erratum.id}]"
        if len(erratum.readings) < 2:
            yield located(erratum, f"{path}.readings",
                           "an erratum needs at least two readings (printed and corrected)")
        if not erratum.rules:
            yield located(erratum, f"{path}.rules", "an erratum needs the rule numbers involved")


def check_referee_scenarios(game: Game) -> Iterator[Problem]:
    """Every shipped scenario of the game's automatic referee (if it has one) loads and checks
    out against the game's data; each problem as the scenario loader reports it. Only for
    a trusted folder (the referee is its Python; ``check_game_code`` says what was not run)."""
    # start-up: 13 more modules, only when this runs
    from ..engine.rulesets import rules_for as referee_for

    if not trusted(game):
        return
    try:
        referee = referee_for(game)
    except WarpressError:
        return
    try:
        referee.scenarios(game)
    except InputProblems as exc:
        yield from exc.problems
    except BadInput as exc:
        yield Problem(f"{game.id} referee scenarios", 0, "", str(exc))


def check_game_code(game: Game) -> Iterator[Problem]:
    """Every Python module of the game's folder (rules, its referee, checks, kit part) imports
    and registers on the CODE its ``__init__.py`` declares (``engine.gamecode``);
    a module that does not is the file, the line and the error (``engine.gamecode``). A folder
    that is not trusted is compiled, never run: each syntax error with its file and line, and
    a note naming the files not run (``engine/trust.py``)."""
    if not trusted(game):
        found = list(_compiled(game))
        if any(has_part(game, part) for part in PARTS):
            tell_not_run(game, "compiled only, to check its syntax")
        yield from found
        return
    failed = False
    for part in PARTS:
        try:
            import_part(game, part)
        except GameCodeError as exc:
            failed = True
            yield exc.problem
    if not failed:  # every module imports: each registers on the folder's CODE
        try:
            game_code(game, *PARTS)
        except GameCodeError as exc:
            yield exc.problem


def _compiled(game: Game) -> Iterator[Problem]:
    """A problem for each Python file of ``game``'s folder that does not compile (compiled,
    never run)."""
    try:
        files = python_files(Path(game.path).resolve())
    except BadInput as exc:
        yield Problem(str(game.path), 0, "", str(exc))
        return
    for path in files:
        try:
            compile(path.read_bytes(), str(path), "exec", dont_inherit=True)
        except (SyntaxError, ValueError, RecursionError, MemoryError) as exc:
            yield import_problem(game, exc if isinstance(exc, SyntaxError)
                                 else SyntaxError(str(exc) or type(exc).__name__,
                                                  (str(path), 0, 0, "")))
        except OSError as exc:
            yield Problem(str(path), 0, "", f"cannot read: {exc.strerror}")


def check_declared(game: Game) -> Iterator[Problem]:
    """The ``checks`` section: each check names what it needs (verify/declared.py)."""
    # start-up: 5 more modules, only when this runs
    from .declared import check_problems

    yield from check_problems(game)


#: Every data check ``verify --data`` runs: the structural ones, provenance, errata, the
#: folder's Python (compiled, or imported when trusted) and the declared checks.
CHECKS: tuple[Callable[[Game], Iterator[Problem]], ...] = (
    *STRUCTURAL,
    check_provenance,
    check_errata,
    check_game_code,
    check_referee_scenarios,
    check_declared,
)
