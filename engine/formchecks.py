"""Data checks of the data forms: combat results tables, the terrain effects chart against
the maps, stacking limits against the set-up (docs/data-format.md). Each problem is
located by file, line and key path like every data check (``verify --data``)."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable, Iterator, Mapping

from .combat import column_value
from .dice import faces
from .errors import BadInput, Problem
from .model import (
    ROLL_KEY,
    Game,
    HexMap,
    Item,
    Placement,
    Table,
    TerrainEffect,
    Unit,
    grid_origin,
)
from .terrain import game_names, hex_terrains, stacking_limit


def _problem(item: Item, path: str, message: str) -> Problem:
    return Problem(item.origin.file, item.origin.line, path, message)


def _listed(names: Iterable[str]) -> str:
    return ", ".join(sorted(names)) or "none"


# --- combat results tables ------------------------------------------------------------------


def check_crts(game: Game) -> Iterator[Problem]:
    stats = {stat for unit in game.units for stat in unit.stats}
    for table in game.tables:
        if table.crt is not None:
            yield from _check_crt(table, stats)


def _check_crt(table: Table, stats: set[str]) -> Iterator[Problem]:
    form = table.crt
    assert form is not None
    path = f"tables[{table.id}].crt"
    if any(row.origin != grid_origin(form, row.extra.get(ROLL_KEY)) for row in table.rows):
        yield _problem(table, f"tables[{table.id}]", "a table with crt: takes its keys and rows "
                       "from the crt's grid: leave out keys and rows")
    try:
        faces(table.dice or "")
    except BadInput:
        yield _problem(table, f"tables[{table.id}].dice",
                       f"a crt needs the die it rolls (dice: d6, 2d6 or d10), got "
                       f"{table.dice!r}")
    yield from _check_columns(table, path)
    for role, stat in (("attack", form.attack), ("defence", form.defence)):
        if stat not in stats:
            yield _problem(form, f"{path}.{role}", f"stat {stat!r} is in no unit's stats "
                           f"(stats: {_listed(stats)})")
    codes = set(form.codes)
    if not codes:
        yield _problem(form, f"{path}.codes", "name every result code (codes: {DR: Defender "
                       "retreats, ...}): the play aid prints them under the grid")
    for roll, results in form.grid.items():
        if len(results) != len(form.columns):
            yield _problem(form, f"{path}.grid.{roll}", f"{len(results)} results for "
                           f"{len(form.columns)} columns ({', '.join(map(str, form.columns))})")
        for code in results:
            if codes and code not in codes:
                yield _problem(form, f"{path}.grid.{roll}", f"result {code!r} is not a code "
                               f"of the table (codes: {_listed(codes)})")
    for end in ("below", "above"):
        value = getattr(form, end)
        if value != "clamp" and value not in codes:
            yield _problem(form, f"{path}.{end}", f"{value!r} is neither clamp nor a result "
                           f"code (codes: {_listed(codes)})")


def _check_columns(table: Table, path: str) -> Iterator[Problem]:
    form = table.crt
    assert form is not None
    if not form.columns:
        yield _problem(form, f"{path}.columns", "a crt needs at least one column")
        return
    values = []
    for column in form.columns:
        try:
            values.append(column_value(form.method, column))
        except ValueError as exc:
            yield _problem(form, f"{path}.columns", f"{exc} (method {form.method})")
            return
    for (a, va), (b, vb) in zip(zip(form.columns, values, strict=True),
                                zip(form.columns[1:], values[1:], strict=False), strict=False):
        if vb <= va:
            yield _problem(form, f"{path}.columns", f"columns must rise left to right: "
                           f"{b} does not come after {a}")


# --- the terrain effects chart ----------------------------------------------------------------


def check_terrain(game: Game) -> Iterator[Problem]:
    """Every terrain the maps use has an entry (or an entry is ``default: yes``), every
    hexside kind has one, and no entry names something no map uses (a typo)."""
    if not game.terrain:
        return
    names = game_names(game)
    chart = {entry.id: entry for entry in game.terrain}
    defaults = [entry for entry in game.terrain if entry.default]
    for extra in defaults[1:]:
        yield _problem(extra, f"terrain[{extra.id}].default",
                       f"only one entry may be the default (also {defaults[0].id!r})")
    for hex_map in game.hex_maps:
        yield from _check_map_terrain(game, hex_map, chart, bool(defaults))
    used = names.terrains | names.hexsides | names.features | names.lines
    for entry in game.terrain:
        if entry.id not in used and not entry.default:
            yield _problem(entry, f"terrain[{entry.id}]",
                           f"{entry.id!r} is no terrain, hexside or feature kind of the map "
                           f"(the map uses: {_listed(used)})")
        if entry.attack is not None and entry.id not in names.hexsides:
            yield _problem(entry, f"terrain[{entry.id}].attack",
                           f"attack multiplies a unit attacking across a hexside; "
                           f"{entry.id!r} is no hexside kind ({_listed(names.hexsides)})")


def _check_map_terrain(game: Game, hex_map: HexMap, chart: Mapping[str, TerrainEffect],
                       has_default: bool) -> Iterator[Problem]:
    path = f"hex_maps[{hex_map.id}]"
    if not has_default:
        missing = sorted(set(hex_terrains(hex_map).values()) - set(chart))
        for name in missing:
            owner = next((f for f in hex_map.features if f.get("terrain") == name), hex_map)
            yield _problem(owner, f"{path}.terrain" if owner is hex_map else
                           f"{path}.features[{owner.id}]",
                           f"terrain {name!r} has no entry in the terrain effects chart "
                           f"(terrain: {_listed(chart)}); add one or make one default: yes")
    for feature in hex_map.features:
        if feature.get("hexsides") and feature.kind not in chart:
            yield _problem(feature, f"{path}.features[{feature.id}].kind",
                           f"hexside kind {feature.kind!r} has no entry in the terrain effects "
                           f"chart (terrain: {_listed(chart)}); add one (it may have no "
                           f"effect)")
        if feature.get("path") and feature.kind not in chart:
            yield _problem(feature, f"{path}.features[{feature.id}].kind",
                           f"line kind {feature.kind!r} has no entry in the terrain effects "
                           f"chart (terrain: {_listed(chart)}); add one (it may have no "
                           f"effect)")


# --- stacking -----------------------------------------------------------------------------


def check_stacking(game: Game) -> Iterator[Problem]:
    """Limits name terrains the maps use; no hex holds more than its limit at set-up."""
    names = game_names(game)
    for limit in game.stacking:
        if limit.limit < 1:
            yield _problem(limit, f"stacking[{limit.id}].limit",
                           f"limit {limit.limit}: at least 1")
        for name in limit.terrain:
            if name not in names.terrains:
                yield _problem(limit, f"stacking[{limit.id}].terrain",
                               f"terrain {name!r} is on no map (terrains: "
                               f"{_listed(names.terrains)})")
    if game.stacking and game.hex_maps:
        yield from _check_setup_stacks(game)


def setup_hex(game: Game, place: Placement) -> str | None:
    """The hex a placement starts in: ``hex:``, or a ``where`` that is a hex of a map."""
    if place.hex:
        return place.hex
    where = place.where
    if isinstance(where, str) and any(where in m.hex_set for m in game.hex_maps):
        return where
    return None


def _check_setup_stacks(game: Game) -> Iterator[Problem]:
    units = {u.id: u for u in game.units}
    stacks: dict[tuple[str | None, str], list[tuple[str, Placement, str]]] = defaultdict(list)
    for setup in game.setup:
        for number, place in enumerate(setup.place):
            hex_id = setup_hex(game, place)
            if hex_id is None or place.unit not in units:
                continue  # a dangling unit or hex is check_references' problem
            stacks[(setup.scenario, hex_id)].append(
                (f"setup[{setup.id}].place[{number}]", place, place.unit))
    for (_scenario, hex_id), placed in stacks.items():
        hex_map = next((m for m in game.hex_maps if hex_id in m.hex_set), None)
        if hex_map is None:
            continue
        sides = {units[u].side for _p, _pl, u in placed}
        for side in (None, *sorted(s for s in sides if s)):
            limit = stacking_limit(game, hex_map, hex_id, side)
            if limit is None or (limit.side is None) != (side is None):
                continue
            mine = [(p, pl, u) for p, pl, u in placed if side is None or units[u].side == side]
            total = sum(_weight(pl, units[u], limit.of) for _p, pl, u in mine)
            if total > limit.limit:
                path, place, _u = mine[-1]
                what = ", ".join(u for _p, _pl, u in mine)
                rules = ", ".join(limit.rule) or "assumed"
                yield _problem(place, path, f"hex {hex_id} holds {total} {limit.of} at "
                               f"set-up ({what}): stacking limit {limit.limit} "
                               f"(stacking[{limit.id}], rule {rules})")


def _weight(place: Placement, unit: Unit, of: str) -> int:
    count = place.count or 1
    if of == "steps":
        return count * (place.steps or unit.steps or 1)
    return count


#: The checks of the data forms, run at every load after the others (engine/structure.py).
FORM_CHECKS = (check_crts, check_terrain, check_stacking)
