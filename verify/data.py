"""Data checks: ids, provenance, references, table coverage, manifests.

``check_folder`` loads a game folder and returns every problem, structural
(from the loader) and semantic (from the checks below), each located by file,
line and key path. ``warpress verify GAME --data`` prints them.
"""

from __future__ import annotations

import dataclasses
import itertools
import typing
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path

from ..engine.convert import fields_of, hints, yaml_key
from ..engine.errors import BadInput, InputProblems, Problem, WarpressError
from ..engine.hexgrid import HexGrid
from ..engine.loader import game_dir, load_game_collecting
from ..engine.model import (
    SECTIONS,
    Constant,
    Display,
    Erratum,
    Feature,
    Game,
    HexMap,
    Item,
    PointMap,
    Record,
    Table,
    TableRow,
)
from ..engine.tables import cover, matches, norm, parse_condition
from ..engine.terrain import grid_of, path_hexes
from .forms import FORM_CHECKS
from .play import check_play

#: keys that are not data values (ids, names, notes, provenance).
META_KEYS = frozenset({"id", "name", "name_ja", "rule", "source", "note", "assumed", "errata",
                       "summary", "text", "text_ja", "title", "title_ja", "label", "why",
                       "readings", "ruling", "rules"})
MAX_COVERAGE_POINTS = 500_000
WHO_WORDS = frozenset({"both", "referee", "umpire", "player", "all", "each", "none"})
PLAYABLE_WORDS = frozenset({"both", "unknown", "either", "none"})


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


# --- walking records --------------------------------------------------------


def records(game: Game) -> Iterator[tuple[str, Record]]:
    """(section, record) for every top-level record."""
    for name in (*SECTIONS, *game.extra):
        for record in game.section(name):
            yield name, record


def _problem(item: Item, path: str, message: str) -> Problem:
    return Problem(item.origin.file, item.origin.line, path, message)


def walk_values(item: Item, path: str) -> Iterator[tuple[Item, str, str, object]]:
    """(owner item, path, key, value) for every data field of ``item``, nested items too."""
    for f in fields_of(type(item)):
        key = yaml_key(f)
        value = getattr(item, f.name)
        if (is_default(f, value) and key != "count") or key == "assumed" or (
                key == "labels" and isinstance(item, Table)):
            continue  # `assumed` maps field paths to notes, a table's `labels` values to
            # printed names: no values, no references
        yield from _walk(item, f"{path}.{key}", key, value)
    for key, value in item.extra.items():
        yield from _walk(item, f"{path}.{key}", key, value)


def _walk(owner: Item, path: str, key: str, value: object) -> Iterator:
    if isinstance(value, Item):
        yield from walk_values(value, path)
    elif isinstance(value, tuple) and value and all(isinstance(v, Item) for v in value):
        for i, v in enumerate(value):
            yield from walk_values(v, f"{path}[{v.id or i}]")
    elif isinstance(value, Mapping):
        for k, v in value.items():
            yield from _walk(owner, f"{path}.{k}", k, v)
    else:
        yield owner, path, key, value


def is_default(f: dataclasses.Field, value: object) -> bool:
    """True when a field holds its default (so it was not written in the YAML)."""
    if f.default is not dataclasses.MISSING:
        return value == f.default
    if f.default_factory is not dataclasses.MISSING:
        return value == f.default_factory()
    return False


def _section_path(section: str, record: Record) -> str:
    return f"{section}[{record.id}]"


# --- ids ------------------------------------------------------------------------


def check_ids(game: Game) -> Iterator[Problem]:
    for name in (*SECTIONS, *game.extra):
        yield from _unique(game.section(name), name)
    yield from _unique(game.info.sides, "game.sides")
    for hex_map in game.hex_maps:
        yield from _unique(hex_map.features, f"hex_maps[{hex_map.id}].features")
    for point_map in game.point_maps:
        yield from _unique(point_map.points, f"point_maps[{point_map.id}].points")
    for display in game.displays:
        yield from _unique(display.boxes, f"displays[{display.id}].boxes")
    for table in game.tables:
        yield from _unique(table.keys, f"tables[{table.id}].keys")


def _unique(items, path: str) -> Iterator[Problem]:
    seen: dict[str, Item] = {}
    for item in items:
        if item.id is None:
            continue
        if item.id in seen:
            first = seen[item.id].origin
            yield _problem(item, f"{path}[{item.id}]",
                           f"duplicate id {item.id!r} (first at line {first.line})")
        else:
            seen[item.id] = item


# --- provenance -------------------------------------------------------------------


def check_provenance(game: Game) -> Iterator[Problem]:
    for section, record in records(game):
        path = _section_path(section, record)
        if isinstance(record, Erratum):
            continue
        if not record.rule and not record.is_assumed:
            yield _problem(record, path,
                           "no provenance: give rule: \"N.N\" or source: assumed with a note")
        yield from _check_item_provenance(record, path)


def _check_item_provenance(item: Item, path: str) -> Iterator[Problem]:
    if item.is_assumed and not item.note:
        yield _problem(item, path, "source: assumed needs a one-line note saying why")
    for rule in item.rule:
        if not rule.strip():
            yield _problem(item, f"{path}.rule", "empty rule number")
    present = {p.split(".", 1)[1] for _, p, _, _ in walk_values(item, "x")}
    for key, note in item.assumed.items():
        if not any(p == key or p.startswith(key + ".") or p.startswith(key + "[")
                   for p in present):
            yield _problem(item, f"{path}.assumed.{key}",
                           f"marks {key!r} assumed but the record has no such field")
        if not str(note).strip():
            yield _problem(item, f"{path}.assumed.{key}", "needs a one-line note")
    for f in fields_of(type(item)):
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


def _leaves(item: Item, prefix: str, inherited: bool) -> Iterator:
    assumed_here = inherited or item.is_assumed
    if item.rule and not item.is_assumed:
        assumed_here = False
    for f in fields_of(type(item)):
        key = yaml_key(f)
        value = getattr(item, f.name)
        if is_default(f, value):
            continue
        yield from _leaf(item, key, key, value, assumed_here)
    for key, value in item.extra.items():
        yield from _leaf(item, key, key, value, assumed_here)


def _leaf(owner: Item, path: str, key: str, value, assumed_here: bool) -> Iterator:
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


# --- references ---------------------------------------------------------------------


def _ref_targets(game: Game) -> dict[str, tuple[str, frozenset]]:
    hexes = frozenset().union(*(m.hex_set for m in game.hex_maps)) if game.hex_maps else frozenset()
    points = frozenset().union(*(m.point_ids for m in game.point_maps)) if game.point_maps \
        else frozenset()
    ids = {name: frozenset(r.id for r in game.section(name)) for name in SECTIONS}
    sides = frozenset(s.id for s in game.info.sides)
    cities = frozenset(f.id for m in game.hex_maps for f in m.features if f.kind == "city") | \
        frozenset(p.id for m in game.point_maps for p in m.points if p.kind == "city")
    return {
        "side": ("side", sides),
        "playable_by": ("side", sides | PLAYABLE_WORDS),
        "who": ("side", sides | WHO_WORDS),
        "unit": ("unit", ids["units"]),
        "units": ("unit", ids["units"]),
        "marker": ("marker", ids["markers"]),
        "markers": ("marker", ids["markers"]),
        "deck": ("deck", ids["decks"]),
        "card": ("card", ids["cards"]),
        "cards": ("card", ids["cards"]),
        "table": ("table", ids["tables"]),
        "tables": ("table", ids["tables"]),
        "track": ("track", ids["tracks"]),
        "tracks": ("track", ids["tracks"]),
        "errata": ("erratum", ids["errata"]),
        "hex": ("hex", hexes),
        "hexes": ("hex", hexes),
        "point": ("point", points),
        "points": ("point", points),
        "city": ("city", cities),  # a map feature or point of kind city (params: {city: ...})
        "cities": ("city", cities),
    }


def check_references(game: Game) -> Iterator[Problem]:
    targets = _ref_targets(game)
    for section, record in records(game):
        for owner, path, key, value in walk_values(record, _section_path(section, record)):
            if key not in targets or value is None or isinstance(owner, Feature | TableRow):
                continue  # feature hexes are checked against their map; rows hold results
            if isinstance(owner, Constant) and key == "unit":
                continue  # a constant's unit is a measure (hexes, IPC), not a unit id
            if _counts(owner, key):
                continue  # a field typed as a number (a phase's `hexes: 1`) is no reference
            what, allowed = targets[key]
            for ref in value if isinstance(value, tuple) else (value,):
                if isinstance(ref, Mapping | tuple):
                    continue
                if ref not in allowed:
                    yield _problem(owner, path, _dangling(what, ref, allowed))


def _counts(owner: Item, key: str) -> bool:
    """Whether ``owner``'s field ``key`` is typed as a number (a count, not an id)."""
    hint = hints(type(owner)).get(key)
    return hint is not None and str not in typing.get_args(hint) and hint is not str and (
        hint is int or int in typing.get_args(hint))


def _dangling(what: str, ref: object, allowed: frozenset) -> str:
    if isinstance(ref, int) and not isinstance(ref, bool):
        return f"{what} {ref!r} is a number: write ids as quoted strings"
    shown = sorted(map(str, allowed))
    listed = ", ".join(shown[:12]) + (", ..." if len(shown) > 12 else "")
    return f"{what} {ref!r} does not exist (have: {listed or 'none'})"


# --- tables --------------------------------------------------------------------------


def check_tables(game: Game) -> Iterator[Problem]:
    for table in game.tables:
        yield from check_table(table)


def check_table(table: Table) -> Iterator[Problem]:
    path = f"tables[{table.id}]"
    bad_keys = list(_check_keys(table, path))
    yield from bad_keys
    if bad_keys:
        return
    parsed = []
    for i, row in enumerate(table.rows):
        row_path = f"{path}.rows[{i}]"
        fields = set(row.extra)
        missing = [r for r in table.results if r not in fields]
        unknown = [f for f in fields if f not in table.key_ids and f not in table.results]
        if missing:
            yield _problem(row, row_path, f"row lacks result {', '.join(missing)}")
        for f in unknown:
            yield _problem(row, f"{row_path}.{f}",
                           f"{f!r} is neither a key ({', '.join(table.key_ids)}) "
                           f"nor a result ({', '.join(table.results)})")
        conds = {}
        for key_id, raw in table.conditions(row).items():
            try:
                conds[key_id] = parse_condition(table.key(key_id), raw)
            except ValueError as exc:
                yield _problem(row, f"{row_path}.{key_id}", str(exc))
        parsed.append((i, row, conds))
    yield from _coverage(table, parsed, path)


def _check_keys(table: Table, path: str) -> Iterator[Problem]:
    if not table.results:
        yield _problem(table, f"{path}.results", "a table needs at least one result field")
    for key in table.keys:
        kpath = f"{path}.keys[{key.id}]"
        if key.kind == "enum" and not key.values:
            yield _problem(key, kpath, "an enum key needs values: [...]")
        if key.kind != "enum" and (key.min is None or key.max is None):
            yield _problem(key, kpath, f"a {key.kind} key needs min and max (the domain to cover)")
        elif key.kind != "enum" and key.min > key.max:
            yield _problem(key, kpath, f"min {key.min} is above max {key.max}")
        if key.id in table.results:
            yield _problem(key, kpath, f"{key.id!r} is both a key and a result")


def _domain(key) -> list:
    if key.kind == "enum":
        return [norm(v) for v in key.values]
    return list(range(key.min, key.max + 1))


def _coverage(table: Table, parsed, path: str) -> Iterator[Problem]:
    """Every point of the keys' domains is matched by exactly one row: gaps and overlaps.
    The rows are indexed by the points they cover (``engine.tables.cover``), so the work is
    bounded by the points and the rows' own size, never points times rows."""
    domains = {k.id: _domain(k) for k in table.keys}
    size = 1
    for d in domains.values():
        size *= len(d)
    if size > MAX_COVERAGE_POINTS:
        yield _problem(table, path, f"{size} key combinations: too many to check coverage")
        return
    found = cover(table, domains, most=size + MAX_COVERAGE_POINTS)
    if found is None:
        yield _problem(table, f"{path}.rows", f"overlap: the rows match more than "
                       f"{size + MAX_COVERAGE_POINTS:,} key combinations of {size:,} (rows "
                       f"overlap)")
        return
    gaps = [p for p in range(size) if not found.count[p]]
    if gaps:
        shown = "; ".join(_fmt(found.values(g)) for g in gaps[:4])
        more = f" and {len(gaps) - 4} more" if len(gaps) > 4 else ""
        yield _problem(table, f"{path}.rows", f"gap: no row for {shown}{more}")
    overlaps = [p for p in range(size) if found.count[p] > 1]
    if overlaps:
        inputs = found.values(overlaps[0])
        hits = [i for i, _row, conds in parsed if matches(conds, inputs)]
        more = f" ({len(overlaps)} combinations overlap)" if len(overlaps) > 1 else ""
        rows = " and ".join(f"rows[{h}]" for h in hits)
        line_row = parsed[hits[1]][1]
        yield _problem(line_row, f"{path}.rows[{hits[1]}]",
                       f"overlap: {rows} all match {_fmt(inputs)}{more}")


def _fmt(inputs: dict) -> str:
    return ", ".join(f"{k}={'yes' if v is True else 'no' if v is False else v}"
                     for k, v in inputs.items())


# --- components ------------------------------------------------------------------------


def check_decks(game: Game) -> Iterator[Problem]:
    per_deck: Counter = Counter()
    for card in game.cards:
        per_deck[card.deck] += card.count
    for deck in game.decks:
        if per_deck[deck.id] != deck.count:
            yield _problem(deck, f"decks[{deck.id}].count",
                           f"manifest says {deck.count} cards, the cards listed add up to "
                           f"{per_deck[deck.id]}")


def check_tracks(game: Game) -> Iterator[Problem]:
    for track in game.tracks:
        values = [norm(v) if isinstance(v, str) else v for v in track.values]
        if track.start is not None and _norm_label(track.start) not in map(_norm_label, values):
            yield _problem(track, f"tracks[{track.id}].start",
                           f"start {track.start!r} is not a box of the track "
                           f"({', '.join(map(str, track.values))})")
        dupes = [v for v, n in Counter(map(_norm_label, track.values)).items() if n > 1]
        if dupes:
            yield _problem(track, f"tracks[{track.id}].values", f"box {dupes[0]!r} appears twice")
        for label in track.labels:
            if label not in map(_norm_label, track.values):
                yield _problem(track, f"tracks[{track.id}].labels.{label}",
                               f"label for {label!r}, which is not a box of the track")


def _norm_label(value: object) -> str:
    return str(value).strip()


def check_maps(game: Game) -> Iterator[Problem]:
    for hex_map in game.hex_maps:
        yield from _check_hex_map(hex_map)
    for point_map in game.point_maps:
        yield from _check_point_map(point_map)


def _check_hex_map(hex_map: HexMap) -> Iterator[Problem]:
    path = f"hex_maps[{hex_map.id}]"
    if "{col}" not in hex_map.hex_id or "{row}" not in hex_map.hex_id:
        yield _problem(hex_map, f"{path}.hex_id", "hex_id needs both {col} and {row}")
        return
    if len(hex_map.hex_set) != len(hex_map.hex_ids):
        yield _problem(hex_map, f"{path}.hex_id", "hex ids are not unique (pad the numbers?)")
    valid = ("odd-q", "even-q") if hex_map.orientation == "flat" else ("odd-r", "even-r")
    if hex_map.offset not in valid:
        yield _problem(hex_map, f"{path}.offset",
                       f"{hex_map.offset!r} does not fit {hex_map.orientation}-topped hexes "
                       f"(allowed: {', '.join(valid)})")
    for feature in hex_map.features:
        for h in feature.hexes:
            if h not in hex_map.hex_set:
                yield _problem(feature, f"{path}.features[{feature.id}].hexes",
                               f"hex {h!r} is not on the map ({hex_map.hex_ids[0]}.."
                               f"{hex_map.hex_ids[-1]})")
        yield from _check_hexsides(hex_map, feature, f"{path}.features[{feature.id}].hexsides")
        yield from _check_path(hex_map, feature, f"{path}.features[{feature.id}].path")


def _check_hexsides(hex_map: HexMap, feature, path: str) -> Iterator[Problem]:
    """Each hexside is "A/B", two hexes of the map that are neighbours."""
    sides = feature.get("hexsides") or ()
    if not sides:
        return
    grid = HexGrid(hex_map.columns.all_labels(), hex_map.rows.all_labels(), hex_map.hex_id,
                   hex_map.orientation, hex_map.offset)
    for side in sides if isinstance(sides, (list, tuple)) else (sides,):
        ends = str(side).split("/")
        if len(ends) != 2 or not all(e in hex_map.hex_set for e in ends):
            yield _problem(feature, path, f"hexside {side!r} is not two hexes of the map "
                                          f"written A/B (e.g. {hex_map.hex_ids[0]}/"
                                          f"{hex_map.hex_ids[1]})")
        elif grid.distance(*ends) != 1:
            yield _problem(feature, path, f"hexside {side!r}: {ends[0]} and {ends[1]} are "
                                          f"not neighbours")


def _check_path(hex_map: HexMap, feature, path: str) -> Iterator[Problem]:
    """A line feature's ``path`` is a list of at least two hexes of the map, each the
    neighbour of the one before it."""
    declared = feature.get("path")
    if declared is None:
        return
    if not isinstance(declared, (list, tuple)) or len(declared) < 2:
        yield _problem(feature, path, f"path {declared!r} is not a list of at least two hexes "
                                      f"(e.g. [{hex_map.hex_ids[0]}, {hex_map.hex_ids[1]}])")
        return
    hexes = path_hexes(feature)
    off = [h for h in hexes if h not in hex_map.hex_set]
    for h in off:
        yield _problem(feature, path, f"hex {h!r} is not on the map ({hex_map.hex_ids[0]}.."
                                      f"{hex_map.hex_ids[-1]})")
    if off:
        return
    grid = grid_of(hex_map)
    for a, b in itertools.pairwise(hexes):
        if grid.distance(a, b) != 1:
            yield _problem(feature, path, f"path step {a} -> {b}: {a} and {b} are not "
                                          f"neighbours")


def _check_point_map(point_map: PointMap) -> Iterator[Problem]:
    path = f"point_maps[{point_map.id}]"
    seen = set()
    for i, route in enumerate(point_map.routes):
        for end in (route.a, route.b):
            if end not in point_map.point_ids:
                yield _problem(route, f"{path}.routes[{i}]", f"route end {end!r} is not a point")
        pair = frozenset((route.a, route.b))
        if route.a == route.b:
            yield _problem(route, f"{path}.routes[{i}]", f"route from {route.a!r} to itself")
        elif (pair, route.kind) in seen:
            yield _problem(route, f"{path}.routes[{i}]",
                           f"route {route.a} - {route.b} is listed twice")
        seen.add((pair, route.kind))
    for point in point_map.points:
        for axis in ("x", "y"):
            value = getattr(point, axis)
            if value is not None and not 0 <= value <= 1:
                yield _problem(point, f"{path}.points[{point.id}].{axis}",
                               f"{axis} {value} is outside 0..1")


def check_displays(game: Game) -> Iterator[Problem]:
    for display in game.displays:
        yield from _check_display(display)


def _check_display(display: Display) -> Iterator[Problem]:
    ids = {b.id for b in display.boxes}
    for i, arrow in enumerate(display.arrows):
        for end in (arrow.from_, arrow.to):
            if end not in ids:
                yield _problem(arrow, f"displays[{display.id}].arrows[{i}]",
                               f"arrow end {end!r} is not a box of this display")
    for box in display.boxes:
        if box.capacity is not None and box.capacity < 0:
            yield _problem(box, f"displays[{display.id}].boxes[{box.id}].capacity",
                           "capacity is negative")


def check_errata(game: Game) -> Iterator[Problem]:
    for erratum in game.errata:
        path = f"errata[{erratum.id}]"
        if len(erratum.readings) < 2:
            yield _problem(erratum, f"{path}.readings",
                           "an erratum needs at least two readings (printed and corrected)")
        if not erratum.rules:
            yield _problem(erratum, f"{path}.rules", "an erratum needs the rule numbers involved")


def check_game_info(game: Game) -> Iterator[Problem]:
    info = game.info
    allowed = {"d6", "2d6", "d10", "d12", "d20", "3d6"}
    for die in info.dice:
        if die not in allowed:
            yield _problem(info, "game.dice", f"die {die!r} is not one of {', '.join(allowed)}")
    for table in game.tables:
        if table.dice not in (None, "none", *allowed):
            yield _problem(table, f"tables[{table.id}].dice",
                           f"die {table.dice!r} is not one of none, {', '.join(sorted(allowed))}")


def check_referee_scenarios(game: Game) -> Iterator[Problem]:
    """Every shipped scenario of the game's automatic referee (if it has one) loads and checks
    out against the game's data; each problem as the scenario loader reports it. Only for
    a trusted folder (the referee is its Python; ``check_game_code`` says what was not run)."""
    from ..engine.rulesets import rules_for as referee_for
    from ..engine.trust import trusted

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
    from ..engine.gamecode import PARTS, GameCodeError, game_code, has_part, import_part
    from ..engine.trust import tell_not_run, trusted

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
    from ..engine.gamecode import import_problem
    from ..engine.trust import python_files

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


def check_style(game: Game) -> Iterator[Problem]:
    """The ``style`` section: sides, colours, font floors, layouts and symbols it names."""
    from ..components.style import style_problems

    for item, path, message in style_problems(game):
        yield _problem(item, path, message)


def check_declared(game: Game) -> Iterator[Problem]:
    """The ``checks`` section: each check names what it needs (verify/declared.py)."""
    from .declared import check_problems

    yield from check_problems(game)


# --- steps -----------------------------------------------------------------------


#: A counter has two faces: a unit has 1 or 2 steps (docs/data-format.md, units).
MAX_STEPS = 2


def check_steps(game: Game) -> Iterator[Problem]:
    """A unit's steps are 1 or 2; a set-up placement never gives a unit more steps than its
    counter has (a unit without ``steps`` has one)."""
    units = {u.id: u for u in game.units}
    for unit in game.units:
        if unit.steps is not None and not 1 <= unit.steps <= MAX_STEPS:
            yield _problem(unit, f"units[{unit.id}].steps",
                           f"steps {unit.steps} (allowed: 1 or 2, the two faces of a counter)")
    for setup in game.setup:
        for number, place in enumerate(setup.place):
            unit = units.get(place.unit)
            if unit is None or place.steps is None:
                continue  # a dangling unit is check_references' problem
            most = unit.steps or 1
            if not 1 <= place.steps <= most:
                yield _problem(place, f"setup[{setup.id}].place[{number}].steps",
                               f"steps {place.steps}: unit {unit.id!r} has {most} "
                               f"step{'s' if most > 1 else ''} (allowed: 1-{most})")


#: The checks every command runs when it loads a game (``engine.loader.load_game``): a
#: command never meets a record they refuse.
STRUCTURAL: tuple[Callable[[Game], Iterator[Problem]], ...] = (
    check_game_info,
    check_ids,
    check_references,
    check_steps,
    check_tables,
    check_decks,
    check_tracks,
    check_maps,
    check_displays,
    check_style,
    *FORM_CHECKS,
    check_play,
)

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


def structural_problems(game: Game) -> list[Problem]:
    """The problems of the structural checks (``STRUCTURAL``), sorted."""
    return sorted({problem for check in STRUCTURAL for problem in check(game)})

