"""How big game data may be: bounds checked when a game is loaded, before any work.

Every limit is about ten times the largest figure of the five shipped games (the figures
and the table of limits: docs/data-format.md, "Limits"; tests/engine/test_limits.py
measures the shipped games and holds each limit to at least ten times their largest).
A folder past a limit is refused with one line naming the file, the line and the limit.

Reading limits (``engine/yamlnodes.py``): bytes of one file and of a game, the number of
files, nesting depth, YAML nodes once aliases are expanded, digits of an integer.
Game limits (``check_game``): counters, cards, one record's count, hexes of a map, points
of a map, the printed side of a map, boxes of a track, the values a table key spans, the
columns of a CRT; and totals over every record, so that many records each within its own
limit cannot add up to a game no command can work on in seconds: hexes of all maps, points of
all point maps, boxes of all tracks and displays, rows of all tables. Counters are counted as
drawn (a unit or marker without a ``count`` is one counter); a count below 1 is refused.
A kit's pages are bounded once it is laid out, before anything is drawn (``KIT_PAGES``,
``components/kit.py``).
"""

from __future__ import annotations

from collections.abc import Iterator

from .errors import Problem
from .model import Game, Item
from .records import Frozen, frozen_record

#: Bytes of one YAML file (largest shipped: axis_allies/world-outlines.yaml, 221,874).
FILE_BYTES = 2_500_000
#: Bytes of all the YAML files of a game (largest shipped: 368,039).
GAME_BYTES = 4_000_000
#: YAML files in a game folder (largest shipped: 15).
FILES = 150
#: YAML nodes (scalars, lists, mappings) of a game, every alias expanded (shipped: 16,867,
#: nimitz).
NODES = 170_000
#: Nesting depth of lists and mappings (shipped: 7).
DEPTH = 70
#: Digits of an integer in the data (shipped: 4).
INT_DIGITS = 40


@frozen_record(kw_only=False)
class Limit(Frozen):
    """A bound on one figure of a loaded game."""

    name: str
    most: int
    what: str

    def refuse(self, item: Item, path: str, value: int) -> Problem:
        return Problem(item.origin.file, item.origin.line, path,
                       f"{value:,} {self.what}: at most {self.most:,} (limits: "
                       "warpress docs data-format)")


#: The limits on a loaded game, by the name ``figures`` gives its measure.
GAME_LIMITS = {limit.name: limit for limit in (
    Limit("count", 1_400, "counters or cards of one record"),              # shipped: 138
    Limit("counters", 7_000, "counters in the game (unit and marker counts)"),  # 687
    Limit("cards", 1_100, "cards in the game"),                            # 105
    Limit("hexes", 5_000, "hexes on one map (columns x rows)"),            # 486
    Limit("points", 1_300, "points on one map"),                           # 128
    Limit("map_mm", 8_000, "mm across the printed map"),                   # 770
    Limit("track_boxes", 1_500, "boxes on one track"),                     # 148
    Limit("key_span", 3_100, "values of one table key (max - min + 1)"),   # 301
    Limit("crt_columns", 70, "columns of a combat results table"),         # 7 (the starter)
    Limit("all_hexes", 5_000, "hexes on all the maps"),                    # 486
    Limit("all_points", 1_300, "points on all the point maps"),            # 128
    Limit("all_track_boxes", 1_700, "boxes on all the tracks"),            # 168
    Limit("display_boxes", 500, "boxes on all the displays"),              # 47
    Limit("table_rows", 1_800, "rows of all the tables (a CRT: one per cell)"),  # 180
)}

#: Pages of one kit, known once it is laid out and refused before a page is drawn (the
#: largest shipped kit: nimitz, 32 pages on Letter).
KIT_PAGES = 330

#: The reading limits, for the documentation and the tests.
READING_LIMITS = {"file_bytes": FILE_BYTES, "game_bytes": GAME_BYTES, "files": FILES,
                  "nodes": NODES, "depth": DEPTH, "int_digits": INT_DIGITS}

#: A hex map without ``hex_size_mm`` is drawn 19 mm across the flats (components/hexmap.py),
#: a point map without ``width_mm``/``height_mm`` 500 x 320 mm (components/aids.py).
DEFAULT_HEX_MM = 19.0
DEFAULT_POINT_MAP_MM = (500.0, 320.0)


def drawn(record: Item) -> int:
    """The counters a unit or marker record draws: its ``count``, one without it."""
    count = getattr(record, "count", None)
    return count if isinstance(count, int) and count > 0 else 1


def figures(game: Game) -> Iterator[tuple[str, Item, str, int]]:
    """Every measured figure of a game: (limit name, record, key path, value)."""
    for section in ("units", "markers", "cards", "decks"):
        for record in getattr(game, section):
            if isinstance(record.count, int):
                yield "count", record, f"{section}[{record.id}].count", record.count
    if game.units or game.markers:
        first = (game.units or game.markers)[0]
        yield "counters", first, "units", sum(drawn(r) for r in (*game.units, *game.markers))
    if game.cards:
        yield "cards", game.cards[0], "cards", sum(c.count for c in game.cards)
    for deck in game.decks:
        yield "cards", deck, f"decks[{deck.id}].count", deck.count
    yield from _map_figures(game)
    for track in game.tracks:
        yield "track_boxes", track, f"tracks[{track.id}].values", len(track.values)
    yield from _table_figures(game)
    yield from _totals(game)


def _table_figures(game: Game) -> Iterator[tuple[str, Item, str, int]]:
    for table in game.tables:
        for key in table.keys:
            if key.kind != "enum" and key.min is not None and key.max is not None:
                yield ("key_span", key, f"tables[{table.id}].keys[{key.id}]",
                       key.max - key.min + 1)
        if table.crt is not None:
            yield ("crt_columns", table, f"tables[{table.id}].crt.columns",
                   len(table.crt.columns))


def _totals(game: Game) -> Iterator[tuple[str, Item, str, int]]:
    """The sums over all records of a section (reported on its first record)."""
    sums = (("all_hexes", game.hex_maps, "hex_maps",
             lambda m: m.columns.count * m.rows.count),
            ("all_points", game.point_maps, "point_maps", lambda m: len(m.points)),
            ("all_track_boxes", game.tracks, "tracks", lambda t: len(t.values)),
            ("display_boxes", game.displays, "displays", lambda d: len(d.boxes)),
            ("table_rows", game.tables, "tables", _table_rows))
    for name, records, section, measure in sums:
        if records:
            yield name, records[0], section, sum(measure(r) for r in records)


def _table_rows(table) -> int:
    """A table's rows; a CRT's grid cells (each cell is a row of its table)."""
    if table.crt is not None:
        return sum(len(cells) for cells in table.crt.grid.values())
    return len(table.rows)


def _map_figures(game: Game) -> Iterator[tuple[str, Item, str, int]]:
    for hex_map in game.hex_maps:
        path = f"hex_maps[{hex_map.id}]"
        cols, rows = hex_map.columns.count, hex_map.rows.count
        yield "hexes", hex_map, path, cols * rows
        size = hex_map.hex_size_mm or DEFAULT_HEX_MM
        yield "map_mm", hex_map, f"{path}.hex_size_mm", round(max(cols, rows) * size)
    for point_map in game.point_maps:
        path = f"point_maps[{point_map.id}]"
        yield "points", point_map, f"{path}.points", len(point_map.points)
        width = point_map.width_mm or DEFAULT_POINT_MAP_MM[0]
        height = point_map.height_mm or DEFAULT_POINT_MAP_MM[1]
        yield "map_mm", point_map, path, round(max(width, height))


#: Sums over records, not reported when one of their records is over its own limit (the
#: limit named beside each).
TOTALS = {"counters": "count", "cards": "count", "all_hexes": "hexes", "all_points": "points",
          "all_track_boxes": "track_boxes"}


def check_game(game: Game) -> list[Problem]:
    """A problem for each count below 1, and for the first figure of each record of ``game``
    past its limit (none for a shipped game); a total only when no record is over its own
    limit."""
    over = [(name, item, path, value) for name, item, path, value in figures(game)
            if value > GAME_LIMITS[name].most]
    each = {name for name, *_ in over}
    over = [entry for entry in over if TOTALS.get(entry[0]) not in each]
    seen: set[int] = set()
    problems = list(_counts_below_one(game))
    for name, item, path, value in over:
        if id(item) not in seen:
            seen.add(id(item))
            problems.append(GAME_LIMITS[name].refuse(item, path, value))
    return problems


def _counts_below_one(game: Game) -> Iterator[Problem]:
    """A count below 1 means nothing (a record without ``count`` is one counter or card) and
    would take counters off the game's total; a map needs a column and a row: refused."""
    for section in ("units", "markers", "cards", "decks"):
        for record in getattr(game, section):
            if isinstance(record.count, int) and record.count < 1:
                yield Problem(record.origin.file, record.origin.line,
                              f"{section}[{record.id}].count",
                              f"count {record.count:,}: a count is 1 or more (leave it out "
                              f"for one)")
    for hex_map in game.hex_maps:
        for axis in ("columns", "rows"):
            count = getattr(hex_map, axis).count
            if count < 1:
                yield Problem(hex_map.origin.file, hex_map.origin.line,
                              f"hex_maps[{hex_map.id}].{axis}.count",
                              f"count {count:,}: a map has 1 or more {axis}")
