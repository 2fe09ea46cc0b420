"""The structural data checks every command runs when it loads a game
(``engine.loader.load_game``): ids, references, table coverage, decks, tracks, maps,
displays, steps, the ``style`` section (``engine/looks.py``), the data forms
(``engine/formchecks.py``) and the ``play`` mapping (``engine/play/checks.py``). A command
never meets a record they refuse; ``warpress verify GAME --data`` runs them with the rest
of its checks (``verify/data.py``).
"""

from __future__ import annotations

import dataclasses
import itertools
import typing
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Mapping
from typing import Any

from .convert import fields_of, hints, yaml_key
from .errors import Problem
from .formchecks import FORM_CHECKS
from .hexgrid import HexGrid
from .looks import style_problems
from .model import (
    SECTIONS,
    Constant,
    Display,
    Feature,
    Game,
    HexMap,
    Item,
    PointMap,
    Record,
    Table,
    TableKey,
    TableRow,
    Value,
)
from .play.checks import check_play
from .tables import Condition, cover, matches, norm, parse_condition
from .terrain import grid_of, path_hexes

MAX_COVERAGE_POINTS = 500_000
WHO_WORDS = frozenset({"both", "referee", "umpire", "player", "all", "each", "none"})
PLAYABLE_WORDS = frozenset({"both", "unknown", "either", "none"})


def records(game: Game) -> Iterator[tuple[str, Record]]:
    """(section, record) for every top-level record."""
    for name in (*SECTIONS, *game.extra):
        for record in game.section(name):
            yield name, record


def located(item: Item, path: str, message: str) -> Problem:
    return Problem(item.origin.file, item.origin.line, path, message)


def walk_values(item: Item, path: str) -> Iterator[tuple[Item, str, str, object]]:
    """(owner item, path, key, value) for every data field of ``item``, nested items too."""
    cls: type = type(item)  # a class (hashable), not an Item: fields_of caches by it
    for f in fields_of(cls):
        key = yaml_key(f)
        value = getattr(item, f.name)
        if (is_default(f, value) and key != "count") or key == "assumed" or (
                key == "labels" and isinstance(item, Table)):
            continue  # `assumed` maps field paths to notes, a table's `labels` values to
            # printed names: no values, no references
        yield from _walk(item, f"{path}.{key}", key, value)
    for key, value in item.extra.items():
        yield from _walk(item, f"{path}.{key}", key, value)


def _walk(owner: Item, path: str, key: str, value: object
          ) -> Iterator[tuple[Item, str, str, object]]:
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


def is_default(f: dataclasses.Field[Any], value: object) -> bool:
    """True when a field holds its default (so it was not written in the YAML)."""
    if f.default is not dataclasses.MISSING:
        return bool(value == f.default)
    if f.default_factory is not dataclasses.MISSING:
        return bool(value == f.default_factory())
    return False


def section_path(section: str, record: Record) -> str:
    return f"{section}[{record.id}]"


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


def _unique(items: Iterable[Item], path: str) -> Iterator[Problem]:
    seen: dict[str, Item] = {}
    for item in items:
        if item.id is None:
            continue
        if item.id in seen:
            first = seen[item.id].origin
            yield located(item, f"{path}[{item.id}]",
                           f"duplicate id {item.id!r} (first at line {first.line})")
        else:
            seen[item.id] = item


def _ref_targets(game: Game) -> dict[str, tuple[str, frozenset[object]]]:
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
        for owner, path, key, value in walk_values(record, section_path(section, record)):
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
                    yield located(owner, path, _dangling(what, ref, allowed))


def _counts(owner: Item, key: str) -> bool:
    """Whether ``owner``'s field ``key`` is typed as a number (a count, not an id)."""
    cls: type = type(owner)  # a class (hashable), not an Item: hints caches by it
    hint = hints(cls).get(key)
    return hint is not None and str not in typing.get_args(hint) and hint is not str and (
        hint is int or int in typing.get_args(hint))


def _dangling(what: str, ref: object, allowed: frozenset[object]) -> str:
    if isinstance(ref, int) and not isinstance(ref, bool):
        return f"{what} {ref!r} is a number: write ids as quoted strings"
    shown = sorted(map(str, allowed))
    listed = ", ".join(shown[:12]) + (", ..." if len(shown) > 12 else "")
    return f"{what} {ref!r} does not exist (have: {listed or 'none'})"


def check_tables(game: Game) -> Iterator[Problem]:
    for table in game.tables:
        yield from check_table(table)


def check_table(table: Table) -> Iterator[Problem]:
    path = f"tables[{table.id}]"
    bad_keys = list(_check_keys(table, path))
    yield from bad_keys
    if bad_keys:
        return
    parsed: list[tuple[int, TableRow, dict[str, Condition]]] = []
    for i, row in enumerate(table.rows):
        row_path = f"{path}.rows[{i}]"
        fields = set(row.extra)
        missing = [r for r in table.results if r not in fields]
        unknown = [f for f in fields if f not in table.key_ids and f not in table.results]
        if missing:
            yield located(row, row_path, f"row lacks result {', '.join(missing)}")
        for f in unknown:
            yield located(row, f"{row_path}.{f}",
                           f"{f!r} is neither a key ({', '.join(table.key_ids)}) "
                           f"nor a result ({', '.join(table.results)})")
        conds: dict[str, Condition] = {}
        for key_id, raw in table.conditions(row).items():
            try:
                conds[key_id] = parse_condition(table.key(key_id), raw)
            except ValueError as exc:
                yield located(row, f"{row_path}.{key_id}", str(exc))
        parsed.append((i, row, conds))
    yield from _coverage(table, parsed, path)


def _check_keys(table: Table, path: str) -> Iterator[Problem]:
    if not table.results:
        yield located(table, f"{path}.results", "a table needs at least one result field")
    for key in table.keys:
        kpath = f"{path}.keys[{key.id}]"
        if key.kind == "enum" and not key.values:
            yield located(key, kpath, "an enum key needs values: [...]")
        if key.kind != "enum" and (key.min is None or key.max is None):
            yield located(key, kpath, f"a {key.kind} key needs min and max (the domain to cover)")
        elif key.kind != "enum" and key.min is not None and key.max is not None \
                and key.min > key.max:
            yield located(key, kpath, f"min {key.min} is above max {key.max}")
        if key.id in table.results:
            yield located(key, kpath, f"{key.id!r} is both a key and a result")


def _domain(key: TableKey) -> list[Value]:
    if key.kind == "enum":
        return [norm(v) for v in key.values]
    assert key.min is not None and key.max is not None  # _check_keys passed: both given
    return list(range(key.min, key.max + 1))


def _coverage(table: Table, parsed: list[tuple[int, TableRow, dict[str, Condition]]],
              path: str) -> Iterator[Problem]:
    """Every point of the keys' domains is matched by exactly one row: gaps and overlaps.
    The rows are indexed by the points they cover (``engine.tables.cover``), so the work is
    bounded by the points and the rows' own size, never points times rows."""
    domains = {k.id: _domain(k) for k in table.keys}
    size = 1
    for d in domains.values():
        size *= len(d)
    if size > MAX_COVERAGE_POINTS:
        yield located(table, path, f"{size} key combinations: too many to check coverage")
        return
    found = cover(table, domains, most=size + MAX_COVERAGE_POINTS)
    if found is None:
        yield located(table, f"{path}.rows", f"overlap: the rows match more than "
                       f"{size + MAX_COVERAGE_POINTS:,} key combinations of {size:,} (rows "
                       f"overlap)")
        return
    gaps = [p for p in range(size) if not found.count[p]]
    if gaps:
        shown = "; ".join(_fmt(found.values(g)) for g in gaps[:4])
        more = f" and {len(gaps) - 4} more" if len(gaps) > 4 else ""
        yield located(table, f"{path}.rows", f"gap: no row for {shown}{more}")
    overlaps = [p for p in range(size) if found.count[p] > 1]
    if overlaps:
        inputs = found.values(overlaps[0])
        hits = [i for i, _row, conds in parsed if matches(conds, inputs)]
        more = f" ({len(overlaps)} combinations overlap)" if len(overlaps) > 1 else ""
        rows = " and ".join(f"rows[{h}]" for h in hits)
        line_row = parsed[hits[1]][1]
        yield located(line_row, f"{path}.rows[{hits[1]}]",
                       f"overlap: {rows} all match {_fmt(inputs)}{more}")


def _fmt(inputs: Mapping[str, Value]) -> str:
    return ", ".join(f"{k}={'yes' if v is True else 'no' if v is False else v}"
                     for k, v in inputs.items())


def check_decks(game: Game) -> Iterator[Problem]:
    per_deck: Counter[str | None] = Counter()
    for card in game.cards:
        per_deck[card.deck] += card.count
    for deck in game.decks:
        if per_deck[deck.id] != deck.count:
            yield located(deck, f"decks[{deck.id}].count",
                           f"manifest says {deck.count} cards, the cards listed add up to "
                           f"{per_deck[deck.id]}")


def check_tracks(game: Game) -> Iterator[Problem]:
    for track in game.tracks:
        values = [norm(v) if isinstance(v, str) else v for v in track.values]
        if track.start is not None and _norm_label(track.start) not in map(_norm_label, values):
            yield located(track, f"tracks[{track.id}].start",
                           f"start {track.start!r} is not a box of the track "
                           f"({', '.join(map(str, track.values))})")
        dupes = [v for v, n in Counter(map(_norm_label, track.values)).items() if n > 1]
        if dupes:
            yield located(track, f"tracks[{track.id}].values", f"box {dupes[0]!r} appears twice")
        for label in track.labels:
            if label not in map(_norm_label, track.values):
                yield located(track, f"tracks[{track.id}].labels.{label}",
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
        yield located(hex_map, f"{path}.hex_id", "hex_id needs both {col} and {row}")
        return
    if len(hex_map.hex_set) != len(hex_map.hex_ids):
        yield located(hex_map, f"{path}.hex_id", "hex ids are not unique (pad the numbers?)")
    valid = ("odd-q", "even-q") if hex_map.orientation == "flat" else ("odd-r", "even-r")
    if hex_map.offset not in valid:
        yield located(hex_map, f"{path}.offset",
                       f"{hex_map.offset!r} does not fit {hex_map.orientation}-topped hexes "
                       f"(allowed: {', '.join(valid)})")
    for feature in hex_map.features:
        for h in feature.hexes:
            if h not in hex_map.hex_set:
                yield located(feature, f"{path}.features[{feature.id}].hexes",
                               f"hex {h!r} is not on the map ({hex_map.hex_ids[0]}.."
                               f"{hex_map.hex_ids[-1]})")
        yield from _check_hexsides(hex_map, feature, f"{path}.features[{feature.id}].hexsides")
        yield from _check_path(hex_map, feature, f"{path}.features[{feature.id}].path")


def _check_hexsides(hex_map: HexMap, feature: Feature, path: str) -> Iterator[Problem]:
    """Each hexside is "A/B", two hexes of the map that are neighbours."""
    sides = feature.get("hexsides") or ()
    if not sides:
        return
    grid = HexGrid(hex_map.columns.all_labels(), hex_map.rows.all_labels(), hex_map.hex_id,
                   hex_map.orientation, hex_map.offset)
    for side in sides if isinstance(sides, (list, tuple)) else (sides,):
        ends = str(side).split("/")
        if len(ends) != 2 or not all(e in hex_map.hex_set for e in ends):
            yield located(feature, path, f"hexside {side!r} is not two hexes of the map "
                                          f"written A/B (e.g. {hex_map.hex_ids[0]}/"
                                          f"{hex_map.hex_ids[1]})")
        elif grid.distance(*ends) != 1:
            yield located(feature, path, f"hexside {side!r}: {ends[0]} and {ends[1]} are "
                                          f"not neighbours")


def _check_path(hex_map: HexMap, feature: Feature, path: str) -> Iterator[Problem]:
    """A line feature's ``path`` is a list of at least two hexes of the map, each the
    neighbour of the one before it."""
    declared = feature.get("path")
    if declared is None:
        return
    if not isinstance(declared, (list, tuple)) or len(declared) < 2:
        yield located(feature, path, f"path {declared!r} is not a list of at least two hexes "
                                      f"(e.g. [{hex_map.hex_ids[0]}, {hex_map.hex_ids[1]}])")
        return
    hexes = path_hexes(feature)
    off = [h for h in hexes if h not in hex_map.hex_set]
    for h in off:
        yield located(feature, path, f"hex {h!r} is not on the map ({hex_map.hex_ids[0]}.."
                                      f"{hex_map.hex_ids[-1]})")
    if off:
        return
    grid = grid_of(hex_map)
    for a, b in itertools.pairwise(hexes):
        if grid.distance(a, b) != 1:
            yield located(feature, path, f"path step {a} -> {b}: {a} and {b} are not "
                                          f"neighbours")


def _check_point_map(point_map: PointMap) -> Iterator[Problem]:
    path = f"point_maps[{point_map.id}]"
    seen = set()
    for i, route in enumerate(point_map.routes):
        for end in (route.a, route.b):
            if end not in point_map.point_ids:
                yield located(route, f"{path}.routes[{i}]", f"route end {end!r} is not a point")
        pair = frozenset((route.a, route.b))
        if route.a == route.b:
            yield located(route, f"{path}.routes[{i}]", f"route from {route.a!r} to itself")
        elif (pair, route.kind) in seen:
            yield located(route, f"{path}.routes[{i}]",
                           f"route {route.a} - {route.b} is listed twice")
        seen.add((pair, route.kind))
    for point in point_map.points:
        for axis in ("x", "y"):
            value = getattr(point, axis)
            if value is not None and not 0 <= value <= 1:
                yield located(point, f"{path}.points[{point.id}].{axis}",
                               f"{axis} {value} is outside 0..1")


def check_displays(game: Game) -> Iterator[Problem]:
    for display in game.displays:
        yield from _check_display(display)


def _check_display(display: Display) -> Iterator[Problem]:
    ids = {b.id for b in display.boxes}
    for i, arrow in enumerate(display.arrows):
        for end in (arrow.from_, arrow.to):
            if end not in ids:
                yield located(arrow, f"displays[{display.id}].arrows[{i}]",
                               f"arrow end {end!r} is not a box of this display")
    for box in display.boxes:
        if box.capacity is not None and box.capacity < 0:
            yield located(box, f"displays[{display.id}].boxes[{box.id}].capacity",
                           "capacity is negative")


def check_game_info(game: Game) -> Iterator[Problem]:
    info = game.info
    allowed = {"d6", "2d6", "d10", "d12", "d20", "3d6"}
    for die in info.dice:
        if die not in allowed:
            yield located(info, "game.dice", f"die {die!r} is not one of {', '.join(allowed)}")
    for table in game.tables:
        if table.dice not in (None, "none", *allowed):
            yield located(table, f"tables[{table.id}].dice",
                           f"die {table.dice!r} is not one of none, {', '.join(sorted(allowed))}")


def check_style(game: Game) -> Iterator[Problem]:
    """The ``style`` section: sides, colours, font floors, layouts and symbols it names."""
    for item, path, message in style_problems(game):
        yield located(item, path, message)


#: A counter has two faces: a unit has 1 or 2 steps (docs/data-format.md, units).
MAX_STEPS = 2


def check_steps(game: Game) -> Iterator[Problem]:
    """A unit's steps are 1 or 2; a set-up placement never gives a unit more steps than its
    counter has (a unit without ``steps`` has one)."""
    units = {u.id: u for u in game.units}
    for unit in game.units:
        if unit.steps is not None and not 1 <= unit.steps <= MAX_STEPS:
            yield located(unit, f"units[{unit.id}].steps",
                           f"steps {unit.steps} (allowed: 1 or 2, the two faces of a counter)")
    for setup in game.setup:
        for number, place in enumerate(setup.place):
            placed = units.get(place.unit) if place.unit is not None else None
            if placed is None or place.steps is None:
                continue  # a dangling unit is check_references' problem
            most = placed.steps or 1
            if not 1 <= place.steps <= most:
                yield located(place, f"setup[{setup.id}].place[{number}].steps",
                               f"steps {place.steps}: unit {placed.id!r} has {most} "
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


def structural_problems(game: Game) -> list[Problem]:
    """The problems of the structural checks (``STRUCTURAL``), sorted."""
    return sorted({problem for check in STRUCTURAL for problem in check(game)})
