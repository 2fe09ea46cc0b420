"""Typed, immutable game data.

Every section of a game's YAML becomes a tuple of frozen dataclasses defined
here. The dataclasses are the schema: the loader converts YAML to them field by
field (``engine/convert.py``), and ``warpress schema`` derives the JSON Schema
from the same type hints. See docs/data-format.md for the YAML side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import field
from functools import cached_property
from pathlib import Path
from typing import Any, Literal, NoReturn, TypeVar

from .dice import faces
from .errors import BadInput
from .records import Frozen, frozen_record


class FrozenDict(dict[Any, Any]):
    """A read-only dict: the mapping type of all loaded data (picklable, unlike a proxy)."""

    __slots__ = ()

    def _read_only(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise TypeError("game data is read-only")

    __setitem__ = __delitem__ = _read_only
    clear = pop = popitem = setdefault = update = _read_only

    def __reduce__(self) -> tuple[type[FrozenDict], tuple[dict[Any, Any]]]:
        return (FrozenDict, (dict(self),))


EMPTY: Mapping[str, Any] = FrozenDict()

#: A plain data value: number, text, yes/no, null, or a tuple / mapping of those.
Value = Any

#: Keys every record and nested item may carry besides its own fields.
COMMON_KEYS = ("id", "name", "name_ja", "rule", "source", "note", "assumed", "errata")


@frozen_record(kw_only=False)
class Where(Frozen):
    """Where a record was written: file as shown to the user, and line."""

    file: str = ""
    line: int = 0

    def __str__(self) -> str:
        return f"{self.file}:{self.line}"


NOWHERE = Where()


def _internal() -> Any:
    return field(default=NOWHERE, compare=False, repr=False, metadata={"internal": True})


def _extra() -> Any:
    return field(default_factory=_empty_map, compare=False, repr=False,
                 metadata={"internal": True})


def _empty_map() -> Mapping[str, Any]:
    return EMPTY


def _no_map() -> Any:
    return field(default_factory=_empty_map)


@frozen_record
class Item(Frozen):
    """A nested item: a table row, a map feature, a box. Provenance is inherited."""

    OPEN = False  # open items keep unknown keys in ``extra``

    id: str | None = None
    name: str | None = None
    name_ja: str | None = None
    rule: tuple[str, ...] = ()
    source: Literal["assumed"] | None = None
    note: str | None = None
    assumed: Mapping[str, str] = _no_map()
    errata: tuple[str, ...] = ()
    extra: Mapping[str, Value] = _extra()
    origin: Where = _internal()

    @property
    def is_assumed(self) -> bool:
        """True when the whole item is marked ``source: assumed``."""
        return self.source == "assumed"

    def field_assumed(self, path: str) -> bool:
        """True when the field ``path`` (e.g. ``stats.attack``) is marked assumed."""
        return self.is_assumed or any(
            path == key or path.startswith(key + ".") for key in self.assumed
        )

    @property
    def label(self) -> str:
        """English name with the Japanese name beside it: ``Akagi 赤城``."""
        english = self.name or self.id or ""
        return f"{english} {self.name_ja}" if self.name_ja else english

    def get(self, key: str, default: Value = None) -> Value:
        """A field or an ``extra`` key by its YAML name."""
        if key in self.extra:
            return self.extra[key]
        return getattr(self, key, default)


@frozen_record
class Record(Item):
    """A top-level record of a list section: it must have an id."""

    id: str


# --- game -----------------------------------------------------------------


@frozen_record
class Side(Record):
    """Side record (see docs/data-format.md)."""

    color: str | None = None
    alliance: str | None = None


@frozen_record
class GameInfo(Record):
    """The ``game`` mapping. Here ``source`` names the rule text the rule numbers refer to."""

    source: str | None = None  # type: ignore[assignment]  # YAML key: the rule text, not "assumed"
    kind: Literal["hex", "point-to-point", "cards", "strategic"]
    players: str
    solitaire: bool = False
    publisher: str | None = None
    dice: tuple[str, ...] = ()
    sides: tuple[Side, ...] = ()
    engine: str | None = None  # refused (loader): the code is found in the folder
    sections: tuple[str, ...] = ()
    counter_mm: float | None = None


@frozen_record
class Erratum(Record):
    """Erratum record (see docs/data-format.md)."""

    rules: tuple[str, ...]
    summary: str
    readings: tuple[str, ...]
    ruling: str
    why: str
    severity: Literal["high", "medium", "low"] | None = None


@frozen_record
class Constant(Record):
    """Constant record (see docs/data-format.md)."""

    value: Value
    unit: str | None = None
    #: how a play aid says it, ``{value}`` standing for the value ("A transport carries
    #: {value} slots"); without it the aid prints the name and the value
    says: str | None = None


# --- tables ---------------------------------------------------------------

#: The id of the column key of each method (``odds=3-1``, ``difference=+2``).
COLUMN_KEY = {"odds": "odds", "differential": "difference"}
COLUMN_NAME = {"odds": "Odds (attack : defence)", "differential": "Difference (attack - defence)"}
ROLL_KEY = "roll"
RESULT = "result"


@frozen_record
class EnumValue(Record):
    """An enum key's value with its printed names: ``{id: good, name: Good, name_ja: 良好}``."""


@frozen_record
class TableKey(Record):
    """TableKey record (see docs/data-format.md)."""

    kind: Literal["roll", "int", "enum"]
    min: int | None = None
    max: int | None = None
    values: tuple[EnumValue | str | bool | int | float, ...] = ()
    #: the values written as records, by id (``values`` keeps only the ids, which lookup takes)
    named: Mapping[str, EnumValue] = field(default_factory=_empty_map, compare=False,
                                           repr=False, metadata={"internal": True})

    def __post_init__(self) -> None:
        named = {v.id: v for v in self.values if isinstance(v, EnumValue)}
        if named:
            object.__setattr__(self, "named", FrozenDict(named))
            object.__setattr__(self, "values", tuple(
                v.id if isinstance(v, EnumValue) else v for v in self.values))

    def value_label(self, value: Value) -> str | None:
        """The printed name of one of the key's values (``Good 良好``), if the data gives one."""
        named = self.named.get(value) if isinstance(value, str) else None
        return named.label if named is not None and named.name else None


@frozen_record
class Modifier(Item):
    """Modifier record (see docs/data-format.md)."""

    OPEN = True
    text: str | None = None
    value: Value = None


@frozen_record
class TableRow(Item):
    """A row: its key conditions and result fields are kept in ``extra``."""

    OPEN = True


@frozen_record
class CombatForm(Item):
    """A combat results table's form: how attack and defence become a column, the grid of
    results by die roll and column (engine/combat.py; docs/data-format.md, "Combat results
    tables")."""

    method: Literal["odds", "differential"]
    attack: str = "attack"  # the unit stat summed for the attackers
    defence: str = "defence"  # the unit stat summed for the defenders
    columns: tuple[int | str, ...]  # "1-2", "1-1", "2-1" ... (odds) or -2, 0, +3 (differential)
    round: Literal["defender", "attacker"] = "defender"  # whose favour fractions go in
    below: str = "clamp"  # left of the first column: clamp, or a result code
    above: str = "clamp"  # right of the last column: clamp, or a result code
    codes: Mapping[str, str] = _no_map()  # result code -> what it means (DR: Defender retreats)
    grid: Mapping[str, tuple[str, ...]]  # die result or range -> one result per column
    grid_lines: Mapping[str, int] = _extra()  # die result or range -> its grid line (loader)

    #: Mappings whose entries' lines the loader keeps (``<name>_lines``), so that a check
    #: can point at the grid line of a cell.
    LINES = ("grid",)


@frozen_record
class Table(Record):
    """Table record (see docs/data-format.md)."""

    dice: str | None = None
    keys: tuple[TableKey, ...] = ()
    results: tuple[str, ...] = ()
    modifiers: tuple[Modifier, ...] = ()
    rows: tuple[TableRow, ...] = ()
    text: str | None = None
    labels: Mapping[str, str] = _no_map()  # printed names of results and values (play aids)
    crt: CombatForm | None = None  # a combat results table: keys, results and rows follow

    def __post_init__(self) -> None:
        if self.crt is not None and not self.rows and not self.keys:
            keys, results, rows = crt_expansion(self)
            object.__setattr__(self, "keys", keys)
            object.__setattr__(self, "results", results)
            object.__setattr__(self, "rows", rows)

    @cached_property
    def key_ids(self) -> tuple[str, ...]:
        return tuple(k.id for k in self.keys)

    def key(self, key_id: str) -> TableKey:
        for k in self.keys:
            if k.id == key_id:
                return k
        raise BadInput(f"table {self.id!r} has no key {key_id!r} (keys: {', '.join(self.key_ids)})")

    def conditions(self, row: TableRow) -> dict[str, Value]:
        """The key conditions of ``row`` (keys left out of the row match anything)."""
        return {k: row.extra[k] for k in self.key_ids if k in row.extra}

    def result(self, row: TableRow) -> dict[str, Value]:
        """The result fields of ``row``."""
        return {k: v for k, v in row.extra.items() if k not in self.key_ids}


# --- a combat results table's grid as the rows every table has -----------


def crt_expansion(table: Table) -> tuple[tuple[TableKey, ...], tuple[str, ...],
                                         tuple[TableRow, ...]]:
    """A CRT's keys (the die roll, the column), results and rows, one row per grid cell.
    Never raises: what does not fit is left out for the data checks to report."""
    form = table.crt
    assert form is not None
    lo: int | None
    hi: int | None
    try:
        die = faces(table.dice or "")
        lo, hi = die[0], die[-1]
    except BadInput:
        lo = hi = None
    keys = (TableKey(id=ROLL_KEY, name="Die roll", kind="roll", min=lo, max=hi),
            TableKey(id=COLUMN_KEY[form.method], name=COLUMN_NAME[form.method], kind="enum",
                     values=tuple(column_label(c) for c in form.columns)))
    rows = []
    for roll, results in form.grid.items():
        if not isinstance(results, tuple):
            continue
        for column, code in zip(form.columns, results, strict=False):
            rows.append(TableRow(extra=FrozenDict({ROLL_KEY: roll,
                                                   COLUMN_KEY[form.method]: column_label(column),
                                                   RESULT: code}),
                                 origin=grid_origin(form, roll)))
    return keys, (RESULT,), tuple(rows)


def grid_origin(form: CombatForm, roll: object) -> Where:
    """Where the grid line of die result ``roll`` is written (the form's line when the
    loader did not keep it): a cell's row points at its line."""
    return Where(form.origin.file, form.grid_lines.get(str(roll), form.origin.line))


def column_label(column: int | str) -> str:
    """A column as printed and typed: ``3-1``; a difference written as a number gets its
    sign (``+2``, ``0``, ``-1``)."""
    if isinstance(column, int) and not isinstance(column, bool):
        return f"{column:+d}" if column else "0"
    return str(column)


# --- components -----------------------------------------------------------


@frozen_record
class Track(Record):
    """Track record (see docs/data-format.md)."""

    values: tuple[Value, ...]
    start: Value = None
    labels: Mapping[str, str] = _no_map()
    side: str | None = None


@frozen_record
class Unit(Record):
    """Unit record (see docs/data-format.md)."""

    side: str | None = None
    type: str
    count: int | None = None
    steps: int | None = None
    stats: Mapping[str, Value] = _no_map()
    tags: tuple[str, ...] = ()
    year: Value = None
    back: Value = None
    size_mm: float | None = None
    text: str | None = None
    size: str | None = None  # echelon mark over a nato symbol: II, III, X, XX, XXX
    setup_code: str | None = None  # printed in a counter corner where the style says ``setup``


@frozen_record
class Marker(Record):
    """Marker record (see docs/data-format.md)."""

    count: int | None = None
    side: str | None = None
    back: Value = None
    size_mm: float | None = None
    color: str | None = None
    text: str | None = None


@frozen_record
class Deck(Record):
    """Deck record (see docs/data-format.md)."""

    count: int
    back: str | None = None
    side: str | None = None
    color: str | None = None


@frozen_record
class Card(Record):
    """Card record (see docs/data-format.md)."""

    deck: str
    number: Value = None
    count: int = 1
    timing: str | None = None
    playable_by: str | None = None
    text: str | None = None
    text_ja: str | None = None
    stats: Mapping[str, Value] = _no_map()
    side: str | None = None


# --- maps and displays ----------------------------------------------------


@frozen_record
class Axis(Frozen):
    """One axis of a hex grid: how many columns or rows and how they are labelled."""

    count: int
    labels: Literal["letters", "numbers"] = "numbers"
    first: int = 1
    pad: int = 0

    def label(self, index: int) -> str:
        if self.labels == "letters":
            return _letters(self.first - 1 + index)
        return str(self.first + index).zfill(self.pad)

    def all_labels(self) -> tuple[str, ...]:
        return tuple(self.label(i) for i in range(self.count))


def _letters(index: int) -> str:
    out = ""
    index += 1
    while index:
        index, rem = divmod(index - 1, 26)
        out = chr(65 + rem) + out
    return out


@frozen_record
class Feature(Item):
    """Feature record (see docs/data-format.md)."""

    OPEN = True
    #: The other keys a feature may have (docs/data-format.md, hex_maps): drawing keys, then
    #: the keys the shipped games' procedures read. Any other key is a typo (``hexs``).
    EXTRA_KEYS = frozenset({
        "symbol", "color", "line", "terrain", "hexsides", "side", "center", "distance",
        "facing", "direction", "labels", "capacity", "draw", "hexes_are", "columns", "rows",
        "path"})
    kind: str
    hexes: tuple[str, ...] = ()
    label: str | None = None  # type: ignore[assignment]  # YAML key: the text, not Item.label
    text: str | None = None


@frozen_record
class HexMap(Record):
    """HexMap record (see docs/data-format.md)."""

    columns: Axis
    rows: Axis
    hex_id: str = "{col}{row}"
    orientation: Literal["flat", "pointy"] = "flat"
    offset: Literal["odd-q", "even-q", "odd-r", "even-r"] = "even-q"
    hex_size_mm: float | None = None
    terrain: str | None = None  # of every hex no terrain feature names (default: clear)
    features: tuple[Feature, ...] = ()

    @cached_property
    def hex_ids(self) -> tuple[str, ...]:
        """Every hex id, column by column."""
        cols, rows = self.columns.all_labels(), self.rows.all_labels()
        return tuple(self.hex_id.format(col=c, row=r) for c in cols for r in rows)

    @cached_property
    def hex_set(self) -> frozenset[str]:
        return frozenset(self.hex_ids)

    def feature(self, feature_id: str) -> Feature:
        for f in self.features:
            if f.id == feature_id:
                return f
        raise BadInput(f"map {self.id!r} has no feature {feature_id!r}")


@frozen_record
class Point(Record):
    """Point record (see docs/data-format.md)."""

    OPEN = True
    kind: str | None = None
    capacity: Value = None
    flags: tuple[str, ...] = ()
    x: float | None = None
    y: float | None = None


@frozen_record
class Route(Item):
    """Route record (see docs/data-format.md)."""

    OPEN = True
    a: str
    b: str
    kind: str | None = None


@frozen_record
class PointMap(Record):
    """PointMap record (see docs/data-format.md)."""

    points: tuple[Point, ...]
    routes: tuple[Route, ...] = ()
    width_mm: float | None = None
    height_mm: float | None = None

    @cached_property
    def point_ids(self) -> frozenset[str]:
        return frozenset(p.id for p in self.points)


@frozen_record
class Box(Record):
    """Box record (see docs/data-format.md)."""

    OPEN = True
    kind: str | None = None
    capacity: int | None = None
    accepts: tuple[str, ...] = ()
    holds: str | None = None
    group: str | None = None


@frozen_record
class Arrow(Item):
    """Arrow record (see docs/data-format.md)."""

    from_: str = field(metadata={"key": "from"})
    to: str


@frozen_record
class Display(Record):
    """Display record (see docs/data-format.md)."""

    side: str | None = None
    boxes: tuple[Box, ...] = ()
    arrows: tuple[Arrow, ...] = ()

    def box(self, box_id: str) -> Box:
        for b in self.boxes:
            if b.id == box_id:
                return b
        raise BadInput(f"display {self.id!r} has no box {box_id!r}")


# --- style ------------------------------------------------------------------
# The look of a kit: the optional ``style`` mapping. Every field has a default,
# so a game without one still prints well (components/style.py holds the
# defaults and resolves them; see docs/data-format.md "style").


@frozen_record
class SideStyle(Item):
    """How one side's pieces look: counter ground and ink (``#rrggbb`` or a colour word)."""

    fill: str | None = None
    ink: str | None = None


@frozen_record
class FontStyle(Item):
    """Text sizes in points. Nothing prints under ``minimum``; factors not under ``factors``."""

    minimum: float = 4.5
    factors: float = 7.0
    name: float = 6.0  # type: ignore[assignment]  # YAML key: a name's size in points
    corner: float = 5.0
    word: float = 9.0


@frozen_record
class Corners(Item):
    """What a counter prints in each corner: ``id``, ``setup``, ``name_ja`` or a stat name."""

    top_left: str | None = None
    top_right: str | None = None
    bottom_left: str | None = None
    bottom_right: str | None = None


@frozen_record
class CounterLayout(Item):
    """How counters of one unit type (or one unit or marker id) are drawn."""

    layout: Literal["nato", "silhouette", "marker"]
    symbol: str | None = None
    factors: tuple[str, ...] | None = None
    corners: Corners | None = None
    # print the name (default: silhouette and marker yes, nato no)
    name: bool | None = None  # type: ignore[assignment]  # YAML key, not Item.name
    word: str | None = None  # the big word of a marker layout (default: the name)
    reduced: Literal["band", "plain"] = "band"


@frozen_record
class TerrainStyle(Item):
    """How one terrain is drawn on maps and in the terrain chart."""

    fill: str | None = None
    texture: str | None = None
    label: str | None = None  # type: ignore[assignment]  # YAML key: the terrain's printed label


@frozen_record
class StatName(Item):
    """What a player calls a value a counter prints: its ``name`` (``attack``) and
    ``name_ja``, for the counter key; like every datum it gives its rule or ``source:
    assumed``."""


@frozen_record
class GameStyle(Item):
    """The ``style`` mapping: side colours, font sizes, counter layouts, the names of the
    values counters print, terrain."""

    sides: Mapping[str, SideStyle] = _no_map()
    fonts: FontStyle = field(default_factory=FontStyle)
    counters: Mapping[str, CounterLayout] = _no_map()
    stats: Mapping[str, StatName] = _no_map()
    back: StatName | None = None  # what a counter's back means (the counter key says it)
    terrain: Mapping[str, TerrainStyle] = _no_map()


# --- play -------------------------------------------------------------------


@frozen_record
class TerrainEffect(Record):
    """A line of the terrain effects chart: a hex terrain, a hexside kind (river) or a map
    feature kind (city), by the name the map uses (docs/data-format.md, "terrain")."""

    movement: int | str | None = None  # MP to enter (a hexside: MP added to cross), or a word
    shift: int = 0  # combat column shift (negative: to the defender's favour)
    defence: float | None = None  # defence multiplier of the units in the hex
    attack: float | None = None  # attack multiplier of a unit attacking across (a hexside)
    default: bool = False  # serves every hex terrain that has no entry of its own
    side: str | None = None  # its combat effects help only this side's defending units


@frozen_record
class StackingLimit(Record):
    """A stacking limit: at most ``limit`` units (or steps) in a hex, in every hex or only
    in hexes of the terrains named (docs/data-format.md, "stacking")."""

    limit: int
    of: Literal["units", "steps"] = "units"
    terrain: tuple[str, ...] = ()
    side: str | None = None  # only this side's units count (default: every unit)


@frozen_record
class Placement(Item):
    """Placement record (see docs/data-format.md)."""

    OPEN = True
    unit: str | None = None
    marker: str | None = None
    count: int | None = None
    hex: str | None = None  # the hex of a map it starts in (stacking is checked)
    where: Value = None
    steps: int | None = None
    per: str | None = None


@frozen_record
class SetupItem(Record):
    """SetupItem record (see docs/data-format.md)."""

    side: str | None = None
    scenario: str | None = None
    text: str | None = None
    place: tuple[Placement, ...] = ()


@frozen_record
class Phase(Record):
    """A phase of the sequence of play (docs/data-format.md, "sequence"). ``do`` makes it a
    phase a session runs (docs/playing.md): what the acting side (``who``) may do in it."""

    OPEN = True
    order: int | None = None
    who: str | None = None
    steps: tuple[str, ...] = ()
    turns: Value = None
    do: Literal["move", "rail", "combat", "replacements", "reinforcements", "roll",
                "supply", "none"] | None = None
    units: Selector | None = None  # only these units act in the phase (panzers, trains)
    table: str | None = None  # ``do: roll``: the table rolled at the start of the phase
    movement: MoveChange | None = None  # ``do: move``: how the phase changes movement


@frozen_record
class VictoryPoints(Item):
    """Where victory points come from (``victory[].points``): hexes held (``hexes``,
    ``features``, ``kinds``) worth ``vp`` each, or enemy units eliminated (``eliminated``: a
    selector of the enemy's units) worth ``vp`` each, or ``per_step`` for each step lost."""

    vp: int
    hexes: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    eliminated: Selector | None = None
    per_step: bool = False


@frozen_record
class VictoryLevel(Item):
    """A level of victory by margin: ``{margin: 10, result: decisive}``."""

    margin: int
    result: str


@frozen_record
class VictoryCondition(Record):
    """VictoryCondition record (see docs/data-format.md). ``check`` makes a session decide
    it (docs/playing.md): ``hold`` (hexes held), ``points`` (victory points) or
    ``eliminate`` (every enemy unit gone)."""

    when: str | None = None
    condition: str | None = None
    result: str | None = None
    side: str | None = None
    params: Mapping[str, Value] = _no_map()
    check: Literal["hold", "points", "eliminate"] | None = None
    at: Literal["end", "turn-end", "phase-end"] = "end"
    turns: tuple[int, ...] = ()  # checked only at these turns (default: whenever ``at``)
    hexes: tuple[str, ...] = ()  # ``hold``: these hexes ...
    features: tuple[str, ...] = ()  # ... the hexes of these map features ...
    kinds: tuple[str, ...] = ()  # ... or of every feature of these kinds
    any: bool = False  # ``hold``: one of them is enough (default: all)
    points: tuple[VictoryPoints, ...] = ()
    target: int | None = None  # ``points``: a side with this many or more wins
    levels: tuple[VictoryLevel, ...] = ()  # ``points`` at the end: result by margin
    otherwise: str | None = None  # at the end, when no side meets it: ``draw`` or a side


@frozen_record
class SheetSection(Item):
    """SheetSection record (see docs/data-format.md)."""

    title: str | None = None
    title_ja: str | None = None
    lines: tuple[str, ...] = ()
    write_in: float | None = None  # mm of ruled space to write in under each line (forms)
    columns: int | None = None  # write-in fields side by side, this many to a row (forms)
    constants: tuple[str, ...] = ()  # constants printed as lines: each its name and value


@frozen_record
class Sheet(Record):
    """Sheet record (see docs/data-format.md)."""

    kind: Literal["plan-sheet", "play-aid", "log", "setup", "reference"]
    sections: tuple[SheetSection, ...] = ()
    tables: tuple[str, ...] = ()
    charts: tuple[Literal["terrain", "stacking", "play"], ...] = ()  # the terrain effects
    # chart, the stacking limits, victory with zones of control and retreats


@frozen_record
class Check(Record):
    """A declarative check that ``verify`` runs beside the rule invariants
    (verify/declared.py; docs/data-format.md, "checks")."""

    kind: Literal["covers-dice", "monotone", "columns-reachable"]
    table: str  # the table checked
    key: str | None = None  # monotone: the key whose values run from weakest to strongest
    result: str | None = None  # monotone: the result field compared (default: the only one)
    order: tuple[Value, ...] = ()  # monotone: the results from worst to best for the attacker


# --- playing whole games (docs/playing.md) -----------------------------------------------


@frozen_record
class Selector(Item):
    """Which units: of these ``types``, ``tags`` or ``units`` (ids), of a ``side``; a unit
    matches when it meets every key given (an empty selector matches every unit)."""

    types: tuple[str, ...] = ()
    tags: tuple[str, ...] = ()
    units: tuple[str, ...] = ()
    side: str | None = None


@frozen_record
class MoveChange(Item):
    """How a phase or a condition changes movement: ``allowance`` (MP set to), ``minus``
    (MP less), ``times`` (MP multiplied, fractions dropped), ``hexes`` (at most this many
    hexes entered, whatever they cost)."""

    allowance: int | None = None
    minus: int = 0
    times: float | None = None
    hexes: int | None = None


@frozen_record
class Place(Item):
    """Hexes named by a rule: a map ``edge``, ``hexes``, the hexes of ``features`` (ids) or
    of every feature of ``kinds``; ``owned`` keeps those the side controls, ``empty`` those
    no unit occupies, ``supply`` those in supply (traced as the ``supply`` rules say)."""

    edge: Literal["north", "south", "east", "west"] | None = None
    hexes: tuple[str, ...] = ()
    features: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    owned: bool = False
    empty: bool = False
    supply: bool = False
    limit: int | None = None  # at most this many units placed in one hex in a phase


@frozen_record
class TurnRules(Item):
    """How long the game lasts: the values of a turn ``track``, or ``count`` turns."""

    track: str | None = None
    count: int | None = None


@frozen_record
class RailRules(Item):
    """Rail movement (``do: rail`` phases): along the map's line features of ``kind``; a
    unit starts on one, moves only along it, each hex costs what the terrain chart's entry
    for ``kind`` gives (default 1); ``allowance``: its MP (default: the unit's own)."""

    kind: str = "railway"
    allowance: int | None = None


@frozen_record
class MovementRules(Item):
    """Movement (docs/playing.md, "Movement"): MP from the unit stat ``allowance``, costs from
    the terrain chart; a unit never enters a hex an enemy unit holds."""

    allowance: str = "move"
    rail: RailRules | None = None


@frozen_record
class ZocRules(Item):
    """Zones of control: ``kind`` none, ``stop`` (a unit entering an enemy ZOC stops) or
    ``locking`` (and one that starts in it may not leave, but by retreat or advance)."""

    kind: Literal["none", "stop", "locking"] = "none"
    units: Selector | None = None  # the units that exert one (default: every unit)
    leave_cost: int = 0  # MP to leave a hex in an enemy ZOC
    zoc_to_zoc: bool = True  # may move straight from one enemy-ZOC hex into another
    hexsides: tuple[str, ...] = ()  # hexside kinds a ZOC does not extend across (river)
    terrain: tuple[str, ...] = ()  # terrains a ZOC does not extend into


@frozen_record
class StackingRules(Item):
    """When the ``stacking`` limits are checked during play, and what an overstack does."""

    when: Literal["move", "end-of-move", "end-of-phase"] = "end-of-move"
    overstack: Literal["refuse", "eliminate"] = "refuse"


@frozen_record
class ResultEffect(Item):
    """One effect of a combat result code (``results``): ``lose`` steps, ``eliminate``,
    ``retreat`` ``hexes``, ``exchange`` (the defender loses ``steps``, then the attacker as
    many steps, or at least as much printed strength), each for ``attacker`` or
    ``defender``."""

    lose: Literal["attacker", "defender"] | None = None
    steps: int = 1
    each: bool = False  # ``lose``: every unit of the side loses ``steps`` (default: the side)
    eliminate: Literal["attacker", "defender"] | None = None
    retreat: Literal["attacker", "defender"] | None = None
    hexes: int = 1
    exchange: Literal["steps", "strength"] | None = None


@frozen_record
class CombatRules(Item):
    """Combat in ``do: combat`` phases: the CRT ``table``; ``declare`` each battle and
    resolve it at once (``each``), or declare ``all`` first; ``results`` maps each result
    code to its effects."""

    table: str
    declare: Literal["each", "all"] = "each"
    mandatory: bool = False  # every unit in an enemy ZOC must attack or be attacked
    results: Mapping[str, tuple[ResultEffect, ...]] = _no_map()


@frozen_record
class RetreatRules(Item):
    """Retreats: who chooses the path (``owner`` or ``enemy``); each hex one farther from the
    battle; what blocks it; what an end hex that would overstack does (``extend``: go on,
    ``allowed``, or ``eliminate``); a unit that cannot retreat is eliminated."""

    chooser: Literal["owner", "enemy"] = "owner"
    blocked: tuple[Literal["enemy-units", "enemy-zoc", "prohibited"], ...] = (
        "enemy-units", "enemy-zoc", "prohibited")
    friendly_negates_zoc: bool = False  # an enemy-ZOC hex a friendly unit holds is open
    overstack: Literal["extend", "allowed", "eliminate"] = "allowed"


@frozen_record
class AdvanceRules(Item):
    """Advance after combat into the emptied defender's hex: up to ``units`` of the attacking
    units (default: as many as stacking allows), ``hexes`` far (1: into the hex)."""

    units: int | None = None
    hexes: int = 1


@frozen_record
class SupplyEffects(Item):
    """What being out of supply does: attack/defence multipliers, a movement change,
    elimination after ``eliminate_after`` checks out of supply in a row."""

    attack: float | None = None
    defence: float | None = None
    movement: MoveChange | None = None
    eliminate_after: int | None = None


@frozen_record
class SupplyRules(Item):
    """Supply (communication): a path from the unit to one of its side's ``sources``, at
    most ``length`` hexes (or MP, with ``trace: mp``; none: any length), through no hex
    ``blocked`` (enemy units, enemy ZOC unless a friendly unit holds it)."""

    sources: Mapping[str, tuple[Place, ...]]
    trace: Literal["hexes", "mp"] = "hexes"
    length: int | None = None
    blocked: tuple[Literal["enemy-units", "enemy-zoc", "prohibited"], ...] = (
        "enemy-units", "enemy-zoc")
    friendly_negates_zoc: bool = True
    effects: SupplyEffects = field(default_factory=SupplyEffects)


@frozen_record
class ControlRules(Item):
    """Which hexes are held (the side whose unit was last in it): those of ``features``,
    of every feature of ``kinds``, ``hexes``, or ``all``; at the start ``initial`` holds
    them unless a set-up unit stands in one."""

    features: tuple[str, ...] = ()
    kinds: tuple[str, ...] = ()
    hexes: tuple[str, ...] = ()
    all: bool = False
    initial: str | None = None


@frozen_record
class PlayRules(Item):
    """The ``play`` mapping: the switches a session plays a hex-and-counter game by
    (docs/playing.md). The sequence, conditions, replacements, reinforcements and victory
    are sections of their own."""

    turns: TurnRules
    movement: MovementRules = field(default_factory=MovementRules)
    zoc: ZocRules = field(default_factory=ZocRules)
    stacking: StackingRules = field(default_factory=StackingRules)
    combat: CombatRules | None = None
    retreat: RetreatRules = field(default_factory=RetreatRules)
    advance: AdvanceRules | None = None
    supply: SupplyRules | None = None
    control: ControlRules = field(default_factory=ControlRules)


@frozen_record
class Condition(Record):
    """A condition in force on some turns (mud) or after a table's roll (rain): what it does
    to movement and to attack and defence strengths, for one side's units or every unit."""

    turns: tuple[int, ...] = ()
    table: str | None = None
    result: Value = None  # the result of ``table`` that brings it (its one result field)
    side: str | None = None
    movement: MoveChange | None = None
    rail: bool = False  # the movement change applies to rail movement too
    attack: float | None = None  # attack strengths multiplied (attacking units)
    defence: float | None = None  # defence strengths multiplied


@frozen_record
class Replacement(Record):
    """Replacement points a side receives in its ``do: replacements`` phases: each point
    restores one step of a reduced unit on the map (``restore``, where ``restore_at``
    allows), or brings an eliminated (or ``reserve``) unit back with one step at one of the
    places ``at`` (``rebuild``)."""

    side: str
    points: int
    turns: tuple[int, ...] = ()  # only on these turns (default: every turn)
    restore: bool = True
    restore_at: tuple[Place, ...] = ()  # where a unit may be restored (default: in supply)
    rebuild: bool = True
    at: tuple[Place, ...] = ()  # where a rebuilt unit is placed
    units: Selector | None = None  # the units points may go to (default: every unit)
    keep: bool = False  # points not spent are kept for a later turn


@frozen_record
class Reinforcement(Record):
    """Units that arrive on ``turn``: placed by their side in its ``do: reinforcements``
    phase at one of the places ``at`` (or at the start of the turn, into the pool ``to``,
    from where replacements can rebuild them)."""

    turn: int
    units: tuple[str, ...]
    at: tuple[Place, ...] = ()
    to: str | None = None
    steps: int | None = None  # arrives with this many steps (default: full)


@frozen_record
class ExtraRecord(Record):
    """A record of an extra section declared in ``game.sections``."""

    OPEN = True


#: List sections and the record type of their items, in report order.
SECTIONS: Mapping[str, type[Record]] = FrozenDict(
    {
        "errata": Erratum,
        "constants": Constant,
        "tables": Table,
        "tracks": Track,
        "units": Unit,
        "markers": Marker,
        "decks": Deck,
        "cards": Card,
        "hex_maps": HexMap,
        "point_maps": PointMap,
        "displays": Display,
        "terrain": TerrainEffect,
        "stacking": StackingLimit,
        "setup": SetupItem,
        "sequence": Phase,
        "victory": VictoryCondition,
        "conditions": Condition,
        "replacements": Replacement,
        "reinforcements": Reinforcement,
        "sheets": Sheet,
        "checks": Check,
    }
)


R = TypeVar("R", bound=Record)


@frozen_record
class Game(Frozen):
    """A whole game: every section as a tuple of frozen records."""

    path: Path
    info: GameInfo
    errata: tuple[Erratum, ...] = ()
    constants: tuple[Constant, ...] = ()
    tables: tuple[Table, ...] = ()
    tracks: tuple[Track, ...] = ()
    units: tuple[Unit, ...] = ()
    markers: tuple[Marker, ...] = ()
    decks: tuple[Deck, ...] = ()
    cards: tuple[Card, ...] = ()
    hex_maps: tuple[HexMap, ...] = ()
    point_maps: tuple[PointMap, ...] = ()
    displays: tuple[Display, ...] = ()
    terrain: tuple[TerrainEffect, ...] = ()
    stacking: tuple[StackingLimit, ...] = ()
    setup: tuple[SetupItem, ...] = ()
    sequence: tuple[Phase, ...] = ()
    victory: tuple[VictoryCondition, ...] = ()
    conditions: tuple[Condition, ...] = ()
    replacements: tuple[Replacement, ...] = ()
    reinforcements: tuple[Reinforcement, ...] = ()
    sheets: tuple[Sheet, ...] = ()
    checks: tuple[Check, ...] = ()
    extra: Mapping[str, tuple[ExtraRecord, ...]] = _no_map()
    style: GameStyle = field(default_factory=GameStyle)
    play: PlayRules | None = None

    @property
    def id(self) -> str:
        return self.info.id

    def section(self, name: str) -> tuple[Record, ...]:
        """A list section by its YAML name (typed or extra)."""
        if name in SECTIONS:
            records: tuple[Record, ...] = getattr(self, name)
            return records
        if name in self.extra:
            return self.extra[name]
        raise BadInput(f"game {self.id!r} has no section {name!r}")

    @cached_property
    def _index(self) -> dict[tuple[str, str], Record]:
        index: dict[tuple[str, str], Record] = {}
        for name in (*SECTIONS, *self.extra):
            for record in self.section(name):
                index.setdefault((name, record.id), record)
        return index

    def get(self, section: str, record_id: str) -> Record:
        """One record; an unknown id raises BadInput listing the ids allowed."""
        try:
            return self._index[(section, record_id)]
        except KeyError:
            ids = ", ".join(r.id for r in self.section(section))
            raise BadInput(f"{self.id}: no {section} record {record_id!r} (have: {ids})") from None

    def record(self, section: str, record_id: str, kind: type[R]) -> R:
        """One record, checked to be a ``kind``; anything else raises BadInput."""
        found = self.get(section, record_id)
        if not isinstance(found, kind):
            raise BadInput(f"{self.id}: {section} record {record_id!r} is a "
                           f"{type(found).__name__}, not a {kind.__name__}")
        return found

    def constant(self, constant_id: str) -> Value:
        """The value of a constant: the one place a number lives."""
        return self.record("constants", constant_id, Constant).value

    def table(self, table_id: str) -> Table:
        return self.record("tables", table_id, Table)

    def erratum(self, erratum_id: str) -> Erratum:
        return self.record("errata", erratum_id, Erratum)

    def hex_map(self, map_id: str | None = None) -> HexMap:
        """A hex map by id, or the game's first."""
        if map_id is None:
            if not self.hex_maps:
                raise BadInput(f"game {self.id!r} has no hex map")
            return self.hex_maps[0]
        return self.record("hex_maps", map_id, HexMap)
