"""Tracks, displays, tables, sheets, point maps and the assumed-values list.

Each function lays a component out as primitives in mm inside a given
width; a ``Flow`` stacks such blocks down pages. The tables printed here are
the engine's tables: both read the same YAML records.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, replace
from fractions import Fraction
from itertools import product
from typing import Any, TypeVar, cast

from ..engine.combat import crt_notes
from ..engine.errors import BadInput
from ..engine.model import (
    Constant,
    Display,
    FrozenDict,
    Game,
    Point,
    PointMap,
    Table,
    TableKey,
    TableRow,
    Track,
    Value,
)
from ..engine.query import show_value
from ..engine.structure import records, walk_values
from ..engine.tables import Condition, Interval, compiled, cover
from ..engine.text import rules_text
from .fonts import text_width, wrap
from .formulas import formula_lines
from .impose import SpatialIndex, fit_size
from .labels import Box, LabelPlacer, overlapping_pairs, text_box
from .marks import DAGGER, dagger, rule_ref
from .primitives import THIN, Group, Line, Polygon, Primitive, Rect, Style, Text

HEAD = Style(fill="#e8e8e8", stroke="#555555", width=0.2)
CELL = Style(fill=None, stroke="#777777", width=0.15)


@dataclass(frozen=True)
class Block:
    """A laid-out block: primitives at (0, 0), its height and (if narrower than the page)
    its width, so that narrow blocks can sit side by side."""

    items: tuple[Primitive, ...]
    height: float
    id: str | None = None
    cls: str = "block"
    width: float | None = None
    #: A heading whose section (the blocks up to the next heading) goes whole on one page
    #: when it fits one: a scenario's set-up never starts on one page and ends on the next.
    whole: bool = False


#: Text sizes of the play aids and sheets, in mm of em height (6.8 pt in table cells).
BODY = 2.4
SMALL = 2.3
LEADING = 1.3


def heading(text: str, width: float, size: float = 4.2) -> Block:
    """A bold heading, wrapped (never shrunk) to ``width``."""
    lines = wrap(text, size, width)
    items = tuple(Text(0, size + i * size * 1.2, line, size=size, bold=True)
                  for i, line in enumerate(lines))
    return Block(items, size * 1.6 + (len(lines) - 1) * size * 1.2, cls="heading")


def paragraph(text: str, width: float, size: float = 2.8) -> Block:
    lines = wrap(dashes(text), size, width)
    return Block(tuple(Text(0, (i + 1) * size * LEADING, line, size=size)
                       for i, line in enumerate(lines)), len(lines) * size * LEADING + size * 0.5)


def bullets(lines: Iterable[object], width: float, size: float = 2.6) -> Block:
    """Lines as a bulleted list in one block, each wrapped under its own text."""
    items: list[Primitive] = []
    y = 0.0
    for line in lines:
        text = dashes(str(line))
        numbered = NUMBERED.match(text)  # "1. ...", "(2) ...", "2)-3) ...": its own mark
        indent = text_width(numbered.group(0) if numbered else "• ", size)
        wrapped = wrap(text, size, width - indent)
        for i, part in enumerate(wrapped):
            y += size * LEADING
            if i == 0 and not numbered:
                items.append(Text(0, y, "•", size=size))
            items.append(Text(0 if i == 0 and numbered else indent, y, part, size=size))
        y += size * 0.25
    return Block(tuple(items), y + size * 0.4, cls="bullets")


def bulleted(line: str) -> str:
    """A list line as printed: a bullet before it unless it numbers itself (``NUMBERED``)."""
    return line if NUMBERED.match(line) else f"• {line}"


#: a line that numbers itself (a step of a procedure) and takes no bullet
NUMBERED = re.compile(r"^(?:\d+[.)](?:[-–]\d+[.)])?|\(\d+\)|[①-⑳]|[a-z][.)])\s+")


def legible(text: str, size: float, width: float, what: str) -> float:
    """``size``, or the size at which ``text`` fits ``width``; a size under the legible
    minimum (4.5 pt) stops the build naming ``what``."""
    return fit_size(text, size, width, what)


def text_lines(text: str, x: float, y: float, size: float, width: float, leading: float = 1.3,
               dash: bool = False, **kw: Any) -> tuple[list[Primitive], float]:
    """Lines of ``text`` wrapped to ``width`` from the top ``y``, ``leading`` sizes apart;
    the Text items (``kw`` passed on) and the height used; ``dash``: minus signs and range
    dashes as a player reads them (``dashes``)."""
    lines = wrap(dashes(text) if dash else text, size, width)
    step = size * leading
    items: list[Primitive] = [Text(x, y + size + i * step, line, size=size, **kw)
                              for i, line in enumerate(lines)]
    return items, len(lines) * step + size * 0.3


def _cell_text(value: Value) -> str:
    """A table cell; an empty key condition matches anything."""
    return show_value(value, none="any")


#: Words printed in capitals when an id is made readable (``hits_on_us`` -> Hits on US).
ACRONYMS = frozenset({"us", "uk", "usa", "aa", "ai", "ipc", "vp", "mp", "fp", "bpp", "gci",
                      "npl", "asw", "cap", "aop", "id", "vt"})


def readable(word: str, capital: bool = True) -> str:
    """An id or snake_case word as words: ``hits_on_us`` -> ``Hits on US`` (``capital``:
    the first letter in capitals, for headings)."""
    parts = [p for p in word.replace("_", " ").replace("-", " ").split(" ") if p]
    shown = [p.upper() if p.lower() in ACRONYMS else p for p in parts]
    text = " ".join(shown)
    return text[:1].upper() + text[1:] if capital else text


def key_name(table: Table, key: TableKey) -> str:
    """A key's printed name: its ``name`` (and ``name_ja``), the table's ``labels``, or
    its id made readable."""
    if key.name:
        return key.label
    return table.labels.get(key.id) or readable(key.id)


def result_name(table: Table, result: str) -> str:
    return table.labels.get(result) or readable(result)


#: Per-object results (``once``): id -> (the object, its result); the object is kept so
#: that its id cannot be reused by another while the entry lives.
_ONCE: dict[tuple[str, int], tuple[object, object]] = {}


Obj = TypeVar("Obj")
Result = TypeVar("Result")


def once(kind: str, obj: Obj, compute: Callable[[Obj], Result]) -> Result:
    """``compute(obj)``, computed once per object (games and tables are immutable)."""
    hit = _ONCE.get((kind, id(obj)))
    if hit is None or hit[0] is not obj:
        hit = _ONCE[kind, id(obj)] = (obj, compute(obj))
    # one cache for every kind: what it holds for ``kind`` is what ``compute`` gave
    return cast(Result, hit[1])


def record_names(game: Game | None) -> dict[str, str]:
    """Every record id of ``game`` -> its printed name (``us-vt-fuze`` -> US bonus: VT
    fuze VT信管; ``japan`` -> the side's name), for ids that appear as table values."""
    if game is None:
        return {}
    return once("names", game, _record_names)


def _record_names(game: Game) -> dict[str, str]:
    ids = Counter(record.id for _section, record in records(game))
    names = {record.id: record.label for _section, record in records(game)
             if record.name and ids[record.id] == 1}  # an id two sections share: no name
    names.update((side.id, side.label) for side in game.info.sides if side.name)
    return names


def value_text(table: Table, value: Value, names: dict[str, str] | None = None,
               key: TableKey | None = None) -> str:
    """A condition or result value as printed: the ``key``'s named value, the table's
    ``labels``, or the game's record or side of that id, else the value itself (yes/no,
    numbers, ranges); other ids in values are made readable."""
    if isinstance(value, (list, tuple)):
        return ", ".join(value_text(table, v, names, key) for v in value)
    text = _cell_text(value)
    named = key.value_label(value) if key is not None else None
    if named:
        return named
    if text in table.labels:
        return table.labels[text]
    if isinstance(value, str) and names is not None and text in names:
        return names[text]
    if isinstance(value, str) and ("_" in value or _is_id(value)):
        return readable(value, capital=False)
    if key is not None and key.kind == "enum":
        return text  # a name (the odds column 1-2), not a range
    return number_text(text, key is not None and signed(key_name(table, key)))


#: A key or result whose name says it is a modifier prints its numbers with a sign (+2, -1).
_MODIFIER = re.compile(r"modifier|修整|shift|\bDRM\b", re.I)
_OPEN_LOW = re.compile(r"(-?\d+)-")
_INTEGER = re.compile(r"[+-]?\d+")


def signed(name: str) -> bool:
    """True when a key or result named ``name`` holds modifiers (``Modifier 修整``)."""
    return bool(_MODIFIER.search(name))


#: The minus sign and the range dash a player reads (``−1``, ``3–5``), not the hyphen.
MINUS, DASH = "\u2212", "\u2013"
_RANGE = re.compile(r"(-?\d+)-(-?\d+)")
#: In running text: a hyphen before a number that starts a word is a minus; two numbers
#: joined by one hyphen (not a chain such as a factor line ``4-4-2``) are a range; a number
#: and a hyphen that ends a word is an open low end (``9-`` -> ``≤ 9``).
_TEXT_MINUS = re.compile(r"(?<![\w)\]\-–.−])-(?=\d)")
_TEXT_RANGE = re.compile(r"(?<![\w\-–.−/])(\d+)-(\d+)(?![\w\-–/])")
_TEXT_OPEN = re.compile(r"(?<![\w\-–.−/])(\d+)-(?=[\s,;:)]|$)")


def number_text(text: str, sign: bool = False) -> str:
    """A number or range as a player reads it: an open low end as ``≤ 19`` (the data writes
    ``19-``), ``12+`` as it is, a range with a dash (``3–5``), a negative number with a
    minus sign (``−1``), a modifier with its sign (``+2``)."""
    low = _OPEN_LOW.fullmatch(text)
    if low:
        return f"≤ {number_text(low.group(1), sign)}"
    span = _RANGE.fullmatch(text)
    if span:
        return f"{number_text(span.group(1), sign)}{DASH}{number_text(span.group(2), sign)}"
    if _INTEGER.fullmatch(text):
        value = int(text)
        shown = f"{value:+d}" if sign and value else str(value)
        return shown.replace("-", MINUS)
    return text


def dashes(text: str) -> str:
    """Running text as a player reads it: minus signs, range dashes and open low ends
    (``-1 novice`` -> ``−1 novice``, ``2-4 Full`` -> ``2–4 Full``, ``9- 0 hits`` ->
    ``≤ 9 0 hits``); hyphenated words and factor lines (``1-2-1``) stay."""
    text = _TEXT_MINUS.sub(MINUS, text)
    text = _TEXT_RANGE.sub(lambda m: f"{m.group(1)}{DASH}{m.group(2)}", text)
    return _TEXT_OPEN.sub(lambda m: f"≤ {m.group(1)}", text)


def result_text(table: Table, value: Value, names: dict[str, str] | None,
                result: str | None = None) -> str:
    """A result cell: its value by name, a dash where the row gives none; in a column of
    exact chances with long fractions (``1932641711/2176782336``) every chance as a
    percentage a player reads at a glance (``88.8 %``)."""
    if value is None:
        return "–"
    if result is not None and result in once("chances", table, _chance_columns):
        chance = _fraction(value)
        if chance is not None:
            return f"{100 * float(chance):.1f} %"
    text = value_text(table, value, names)
    return number_text(text, signed(result_name(table, result))) if result else text


#: A fraction with a denominator above this prints as a percentage (``11/36`` stays).
LONG_FRACTION = 100


def _fraction(value: object) -> Fraction | None:
    text = str(value)
    numerator, slash, denominator = text.partition("/")
    if not slash or not numerator.isdigit() or not denominator.isdigit() or denominator == "0":
        return None
    return Fraction(int(numerator), int(denominator))


def _chance_columns(table: Table) -> frozenset[str]:
    """The results that hold fractions, one of them long (all print as percentages)."""
    long = {result for row in table.rows for result, value in table.result(row).items()
            if (f := _fraction(value)) is not None and f.denominator > LONG_FRACTION}
    return frozenset(long)


def _is_id(text: str) -> bool:
    return "-" in text and text.replace("-", "").isalpha() and text == text.lower()


def table_title(table: Table) -> str:
    dice = f" · dice: {table.dice}" if table.dice and table.dice != "none" else ""
    return f"{table.label}  {rule_ref(table.rule)}".rstrip() + dice


def table_block(table: Table, width: float, game: Game | None = None) -> Block | None:
    """A table in one block (``table_blocks`` without a height limit); None when the kit has
    printed it already."""
    blocks = table_blocks(table, width, game)
    return blocks[0] if blocks else None


#: The tables a kit has printed so far (``printing``): each is printed once per kit.
_PRINTED: ContextVar[set[str] | None] = ContextVar("warpress_printed_tables", default=None)


@contextmanager
def printing() -> Iterator[set[str]]:
    """While a kit is laid out: every table is printed once (``first_print``)."""
    printed: set[str] = set()
    token = _PRINTED.set(printed)
    try:
        yield printed
    finally:
        _PRINTED.reset(token)


@contextmanager
def another_copy() -> Iterator[None]:
    """While a sheet printed once per player is laid out again (midway-cards' turn procedure
    sheet, one per side): its tables print, as on the first copy."""
    token = _PRINTED.set(None)
    try:
        yield
    finally:
        _PRINTED.reset(token)


def first_print(table_id: str) -> bool:
    """True the first time a kit prints ``table_id`` (always, outside a kit): a part that
    draws a table its own way calls it too, so that no other part prints it again."""
    printed = _PRINTED.get()
    if printed is None:
        return True
    if table_id in printed:
        return False
    printed.add(table_id)
    return True


def table_blocks(table: Table, width: float, game: Game | None = None,
                 max_h: float | None = None) -> list[Block]:
    """A table: its rule when it is one (``formulas.formula_lines``), else a grid of die
    rows by the other key's columns when it has two keys (a CRT), else one line per row;
    names from the data (the table's ``labels``, the ``game``'s records), text wrapped, never
    shrunk; rows past ``max_h`` mm go on in a block of their own, headed "(continued)".
    Nothing when the kit has printed the table already (``first_print``)."""
    if not first_print(table.id):
        return []
    names = record_names(game)
    formula = table_formula(table, game)
    said: list[str] = []
    if formula is None:  # a rule says it all; else the rows no roll decides as sentences
        said, table = rollless_lines(table, names)
    crt = crt_grid(table, names) if formula is None else None
    panels = panel_grids(table, names) if crt is None and formula is None else None
    room = None if max_h is None else max_h - 24.0
    if restated_by_modifiers(table):  # its list of modifiers says all the grid would
        bodies = [Block((), 0.0, width=min(width, NARROW * 1.6))]
    else:
        bodies = _grid_bodies(table, formula, crt, panels, width, names) or _list_blocks(
            table, width, names, room)
    # the title wraps over a narrow table (at least NARROW mm), so that tables sit side by side
    head_w = min(width, max(bodies[0].width or width, NARROW))
    out = []
    for n, body in enumerate(bodies):
        title = table_title(table) if n == 0 else f"{table.label} (continued)"
        top = heading(title, head_w, 3.2)
        lead: list[Primitive] = []
        below = top.height
        if n == 0 and said:  # the rows no roll decides, as sentences above the grid
            for line in said:
                more, used = text_lines(line, 0, below, SMALL * 1.15, head_w, dash=True)
                lead.extend(more)
                below += used
            below += 1.5
        items = [*top.items, *lead, Group(body.items, dy=below)]
        y = below + body.height + 1.0
        if n == len(bodies) - 1:
            more, y = _modifier_lines(table, y, max(body.width or width, min(width, NARROW * 1.6)))
            items.extend(more)
        block_w = max(body.width or width, min(width, _widest(top.items)))
        out.append(Block(tuple(items), y + 2.0, id=f"table-{table.id}" + (f"-{n + 1}" if n
                                                                           else ""),
                         cls="table", width=block_w if block_w < width else None))
    return out


def rollless_lines(table: Table, names: dict[str, str]) -> tuple[list[str], Table]:
    """A table with a die roll whose some rows need no roll (Midway's carrier damage: a
    carrier already damaged sinks): those rows as sentences, then the rest of the table
    with the keys and results that no longer change said once ("…: no; roll d6") and left
    out of its grid. The table itself when every row or none needs the roll."""
    roll = next((k for k in table.keys if k.kind == "roll"), None)
    if roll is None or len(table.keys) < 2:
        return [], table
    free = [r for r in table.rows if roll.id not in table.conditions(r)]
    rest = [r for r in table.rows if roll.id in table.conditions(r)]
    if not free or not rest:
        return [], table
    lines = [f"{_conditions_text(table, r, names)}: {_results_text(table, r, names)} "
             f"(no roll)" for r in free]
    fixed = [k for k in table.keys if k is not roll
             and len({repr(table.conditions(r).get(k.id)) for r in rest}) == 1]
    steady = [k for k in table.results
              if len({repr(table.result(r).get(k)) for r in rest}) == 1]
    if fixed:  # "Otherwise" when the sentences above took every other value of those keys
        dice = f"roll {table.dice}" if table.dice else "roll"
        others = all(k.values and {_plain(table.conditions(r).get(k.id)) for r in (*free, rest[0])}
                     >= {_plain(v) for v in k.values} for k in fixed)
        lines.append(f"Otherwise, {dice}:" if others else
                     f"{_conditions_text(table, rest[0], names, fixed)}; {dice}:")
    dropped = {k.id for k in fixed} | set(steady)
    if len(steady) == len(table.results):
        return [], table  # nothing would be left to look up
    rows = tuple(replace(r, extra=FrozenDict({k: v for k, v in r.extra.items()
                                              if k not in dropped})) for r in rest)
    return lines, replace(table, keys=tuple(k for k in table.keys if k.id not in dropped),
                          results=tuple(k for k in table.results if k not in dropped),
                          rows=rows)


def _plain(value: object) -> str:
    return repr(getattr(value, "id", value))


def _conditions_text(table: Table, row: TableRow, names: dict[str, str],
                     keys: list[TableKey] | None = None) -> str:
    conditions = table.conditions(row)
    return ", ".join(_condition(table, k, conditions[k.id], names)
                     for k in keys or table.keys if k.id in conditions)


def _condition(table: Table, key: TableKey, value: Value, names: dict[str, str]) -> str:
    """A key's condition as words: a yes of a yes/no key is the key's name alone."""
    text = value_text(table, value, names, key)
    return key_name(table, key) if text in ("yes", "Yes") else f"{key_name(table, key)}: {text}"


def _results_text(table: Table, row: TableRow, names: dict[str, str]) -> str:
    """A row's results as words: a yes result by its name, no and none left out."""
    words = []
    for result in table.results:
        text = result_text(table, table.result(row).get(result), names, result)
        if text in ("–", "no", "No"):
            continue
        words.append(result_name(table, result) if text in ("yes", "Yes")
                     else f"{result_name(table, result)}: {text}")
    return ", ".join(words) or "–"


def restated_by_modifiers(table: Table) -> bool:
    """True for a table of modifiers (its one result named so: ``signed``) whose every
    result is 0 or the value of one of the modifiers it lists: the list says what the grid
    would, and prints alone."""
    if len(table.results) != 1 or not table.modifiers or not signed(
            result_name(table, table.results[0])):
        return False
    values = {m.value for m in table.modifiers}
    if None in values:
        return False
    return all(table.result(row).get(table.results[0]) in values | {0} for row in table.rows)


def table_formula(table: Table, game: Game | None = None) -> list[str] | None:
    """The lines that print ``table`` as its rule (``formulas.formula_lines``), by the
    data's names; None when it is not one."""
    names = record_names(game)
    return formula_lines(table, lambda k: key_name(table, k), lambda r: result_name(table, r),
                         lambda k, v: value_text(table, v, names, k))


def id_ranges(ids: Iterable[object], least: int = 3) -> str:
    """Ids as a player reads a list of them: runs of ``least`` numbers or more as ranges
    (``101–176``; page numbers for a print dialogue take ``least=2``: ``9–10``)."""
    parts: list[list[int | str]] = []
    for value in ids:
        text = str(value)
        number = int(text) if text.isdigit() else None
        last = parts[-1] if parts else None
        if number is not None and last and isinstance(last[-1], int) and number == last[-1] + 1:
            last.append(number)
        else:
            parts.append([number if number is not None else text])
    return ", ".join(f"{p[0]}{DASH}{p[-1]}" if len(p) >= least else ", ".join(map(str, p))
                     for p in parts)


def _grid_bodies(table: Table, formula: list[str] | None, crt: Crt | None,
                 panels: list[Panel] | None, width: float, names: dict[str, str]
                 ) -> list[Block]:
    """The table as its rule, its grid or its grids; none when it is none of them or its
    grids (a column per result) do not fit ``width``: then it prints one line per row."""
    try:
        if formula is not None:
            return [_formula_block(formula, width)]
        if crt is not None:
            return [_crt_block(table, crt, width, names)]
        if panels is not None:
            return [_panels_block(table, panels, width, names)]
    except BadInput:
        return []
    return []


def _modifier_lines(table: Table, y: float, width: float) -> tuple[list[Primitive], float]:
    """The table's modifiers under it: "Modifiers" and one line each."""
    if not table.modifiers:
        return [], y
    items: list[Primitive] = [Text(0, y + SMALL, "Modifiers", size=SMALL, bold=True)]
    y += SMALL * 1.4
    for modifier in table.modifiers:
        lines, used = text_lines(f"• {modifier.text or readable(modifier.id or '')}", 0, y,
                                 SMALL, width, dash=True)
        items.extend(lines)
        y += used
    return items, y


FORMULA = 3.0  # mm: the size of a table's rule printed as a line (8.5 pt)


def _formula_block(lines: list[str], width: float) -> Block:
    """A table's rule: its lines in a framed box as wide as they need."""
    texts: list[Primitive] = []
    wide = min(width, max(text_width(line, FORMULA) for line in lines) + 2 * CELL_PAD + 0.5)
    y = CELL_PAD
    for line in lines:
        more, used = text_lines(line, CELL_PAD, y, FORMULA, wide - 2 * CELL_PAD, dash=True)
        texts.extend(more)
        y += used
    frame = Rect(0, 0, wide, y + CELL_PAD * 0.6, Style(fill="#f6f6f6", stroke="#777777",
                                                       width=0.2), cls="formula")
    return Block((frame, *texts), y + CELL_PAD * 0.6, width=wide, cls="formula")


def _widest(items: Iterable[Primitive]) -> float:
    return max((text_width(t.text, t.size) for t in items if isinstance(t, Text)), default=0.0)


def _list_blocks(table: Table, width: float, names: dict[str, str],
                 max_h: float | None) -> list[Block]:
    header = [key_name(table, k) for k in table.keys] + [result_name(table, r)
                                                        for r in table.results]
    rows = [[value_text(table, table.conditions(r).get(k.id), names, k) for k in table.keys] +
            [result_text(table, table.result(r).get(k), names, k) + dagger(r.is_assumed)
             for k in table.results] for r in table.rows]
    for column in range(len(table.keys)):
        rows = merged_runs(rows, column)
    return grid_blocks([header], rows, width, f"table {table.id!r}", max_h=max_h)


_SPAN = re.compile(r"(?:≤ ?(?P<below>[−-]?\d+))|(?P<lo>[−-]?\d+)(?:[–-](?P<hi>[−-]?\d+)|"
                   r"(?P<up>\+))?")


def _span(text: str) -> tuple[float, float] | None:
    """The numbers a printed key value covers: ``3`` (3, 3), ``3–5``, ``≤ 19``, ``12+``."""
    m = _SPAN.fullmatch(text.strip())
    if m is None:
        return None
    def num(t: str) -> int:
        return int(t.replace(MINUS, "-"))
    if m.group("below"):
        return float("-inf"), num(m.group("below"))
    lo = num(m.group("lo"))
    if m.group("up"):
        return lo, float("inf")
    return lo, num(m.group("hi")) if m.group("hi") else lo


def _span_text(lo: float, hi: float) -> str:
    def show(n: float) -> str:
        return str(int(n)).replace("-", MINUS)
    if lo == float("-inf"):
        return f"≤ {show(hi)}"
    if hi == float("inf"):
        return f"{show(lo)}+"
    return show(lo) if lo == hi else f"{show(lo)}{DASH}{show(hi)}"


def merged_runs(rows: list[list[str]], column: int) -> list[list[str]]:
    """Neighbouring rows that say the same but for the numbers in ``column``, those numbers
    following on, merged into one row of their range (``3``, ``4``, ``5`` -> ``3–5``)."""
    out: list[list[str]] = []
    spans: list[tuple[float, float] | None] = []
    for row in rows:
        span = _span(row[column])
        last = spans[-1] if spans else None
        if (span is not None and last is not None and span[0] == last[1] + 1
                and out[-1][:column] + out[-1][column + 1:] == row[:column] + row[column + 1:]):
            merged = (last[0], span[1])
            spans[-1] = merged
            out[-1] = [*row[:column], _span_text(*merged), *row[column + 1:]]
            continue
        out.append(list(row))
        spans.append(span)
    return out


# --- two-key tables as grids (CRT) ---------------------------------------------------------

#: The least width a narrow table's title wraps to (mm).
NARROW = 70.0
#: The longest cell text a grid takes; a table with longer results prints as a list.
CRT_CELL = 32
#: The longest numeric key a grid enumerates (die rolls, small counts).
CRT_SPAN = 40
#: The most columns a grid is drawn with: what A3, the widest paper, holds of two-letter
#: results (A4 holds 24; a grid too wide for its page is refused by ``grid_blocks``). A CRT
#: with more is refused before its cells are filled; another table prints as a list.
CRT_COLUMNS = 36


@dataclass(frozen=True)
class Crt:
    """A two-key table laid out as a grid: row key by column key, each cell one row."""

    row_key: TableKey
    col_key: TableKey
    row_labels: tuple[str, ...]
    col_labels: tuple[str, ...]
    cells: tuple[tuple[str, ...], ...]
    #: each cell's results apart (one text per result of the table)
    parts: tuple[tuple[tuple[str, ...], ...], ...] = ()


def crt_grid(table: Table, names: dict[str, str] | None = None,
             fixed: dict[str, Value] | None = None,
             axes: tuple[TableKey, TableKey] | None = None) -> Crt | None:
    """The grid of a table with two keys (the roll key gives the rows), or None when the
    table is not one: other key counts, a key without a bounded domain, a cell that two
    rows match, or results too long for a cell. ``axes`` and ``fixed`` (the other keys'
    values) draw one grid of a table with more keys (``panel_grids``)."""
    if len(table.results) > 3 or (axes is None and len(table.keys) != 2):
        return None
    rk, ck = axes or _axes(table.keys)
    rows, cols = _atoms(rk), _atoms(ck)
    if not rows or not cols:
        return None
    if len(cols) > CRT_COLUMNS:  # known before a cell is filled
        if table.crt is not None:
            raise BadInput(f"table {table.id!r}: {len(cols)} columns: a printed combat results "
                           f"table holds at most {CRT_COLUMNS}")
        return None
    found = cover(table, {rk.id: rows, ck.id: cols}, fixed, most=len(rows) * len(cols))
    if found is None or any(n > 1 for n in found.count):
        return None  # a cell that two rows match
    rows_of = compiled(table)
    cell_rows = {(r, c): rows_of[found.first[i * len(cols) + j]][0]
                 if found.first[i * len(cols) + j] >= 0 else None
                 for i, r in enumerate(rows) for j, c in enumerate(cols)}
    row_groups = _merge(rk, rows, [[id(cell_rows[r, c]) for c in cols] for r in rows], table,
                        [[cell_rows[r, c] for c in cols] for r in rows], names)
    col_groups = _merge(ck, cols, [[id(cell_rows[r, c]) for r in rows] for c in cols], table,
                        [[cell_rows[r, c] for r in rows] for c in cols], names)
    parts = tuple(tuple(_crt_parts(table, cell_rows[rg[0], cg[0]], names)
                        for cg, _ in col_groups)
                  for rg, _ in row_groups)
    if any(len(p) > CRT_CELL for row in parts for cell in row for p in cell):
        return None
    cells = tuple(tuple(" / ".join(cell) for cell in row) for row in parts)
    return Crt(rk, ck, tuple(label for _, label in row_groups),
               tuple(label for _, label in col_groups), cells, parts)


def _axes(keys: Sequence[TableKey]) -> tuple[TableKey, TableKey]:
    """The grid's row and column keys: the roll key down, else the key with more values."""
    rk, ck = sorted(keys, key=lambda k: k.kind != "roll")[:2]
    if rk.kind != "roll" and ck.kind != "roll" and len(_atoms(ck) or ()) > len(
            _atoms(rk) or ()):
        rk, ck = ck, rk
    return rk, ck


#: The most grids a table with more than two keys prints as (one per value of the others).
PANELS = 6


@dataclass(frozen=True)
class Panel:
    """One grid of a table with more than two keys: the other keys' values and the grid."""

    title: str
    crt: Crt


def panel_grids(table: Table, names: dict[str, str] | None = None) -> list[Panel] | None:
    """A table with three or more keys as grids: the roll key (or the key with most values)
    down, the key with most values across, one grid per combination of the other keys'
    values (a key whose values all give the same grids is left out); None when more than
    ``PANELS`` grids or a grid cannot be drawn."""
    if len(table.keys) < 3 or any(not _atoms(k) for k in table.keys):
        return None
    ordered = sorted(table.keys, key=lambda k: (k.kind != "roll", -len(_atoms(k) or ())))
    axes = _axes(ordered[:2])
    others = list(ordered[2:])
    grids = _panel_crts(table, names, axes, others)
    if grids is None:
        return None
    for key in list(others):
        rest = [k for k in others if k is not key]
        if grids is None:  # a grid left out could not be drawn
            break
        if _same_without(grids, others, key):
            grids = _panel_crts(table, names, axes, rest)
            others = rest
    if grids is None or len(grids) > PANELS:
        return None
    return [Panel(" · ".join(f"{key_name(table, k)}: {value_text(table, v, names, k)}"
                             for k, v in zip(others, combo, strict=True)), crt)
            for combo, crt in grids.items()]


def _panel_crts(table: Table, names: dict[str, str] | None, axes: tuple[TableKey, TableKey],
                others: list[TableKey]) -> dict[tuple[Value, ...], Crt] | None:
    combos = list(product(*(_atoms(k) or () for k in others)))  # every key has values
    if len(combos) > PANELS * 4:
        return None
    out: dict[tuple[Value, ...], Crt] = {}
    for combo in combos:
        crt = crt_grid(table, names, dict(zip((k.id for k in others), combo, strict=True)),
                       axes)
        if crt is None:
            return None
        out[combo] = crt
    return out


def _same_without(grids: dict[tuple[Value, ...], Crt], others: list[TableKey], key: TableKey
                  ) -> bool:
    """True when ``key``'s values all give the same grid whatever the other keys' values."""
    i = others.index(key)
    seen: dict[tuple[Value, ...], Crt] = {}
    for combo, crt in grids.items():
        rest = combo[:i] + combo[i + 1:]
        if seen.setdefault(rest, crt) != crt:
            return False
    return True


def _atoms(key: TableKey) -> list[Value] | None:
    """Every value a key takes, in order: an enum's values, or the integers of a roll or
    count key's bounded domain."""
    if key.kind == "enum":
        return list(key.values)
    if key.min is None or key.max is None or key.max - key.min > CRT_SPAN:
        return None
    return list(range(key.min, key.max + 1))


def _merge(key: TableKey, values: list[Value], vectors: list[list[int]], table: Table,
           found: list[list[TableRow | None]], names: dict[str, str] | None
           ) -> list[tuple[tuple[Value, ...], str]]:
    """Neighbouring integers whose cells are the same rows (``vectors``: the rows' ids;
    rows compare equal by value) merge into one range (``1-3``, and ``7+`` where the
    rows' ranges are open)."""
    if key.kind == "enum":
        return [((v,), value_text(table, v, names, key)) for v in values]
    groups: list[list[int]] = []
    for i, value in enumerate(values):
        if groups and vectors[i] == vectors[i - 1]:
            groups[-1].append(value)
        else:
            groups.append([value])
    out = []
    start = 0
    conditions = {id(row): conds for row, conds in compiled(table)}
    for group in groups:
        lo, hi = group[0], group[-1]
        rows = [r for r in found[start] if r is not None]
        start += len(group)
        open_hi = hi == key.max and rows and all(_open_hi(conditions, r, key.id) for r in rows)
        label = f"{lo}+" if open_hi and lo != hi else (str(lo) if lo == hi else
                                                     f"{lo}{DASH}{hi}")
        label = label.replace("-", MINUS)
        out.append((tuple(group), label))
    return out


def _open_hi(conditions: dict[int, dict[str, Condition]], row: TableRow, key_id: str) -> bool:
    """Whether ``row``'s range of ``key_id`` is open upwards (``conditions``: each compiled
    row's parsed conditions by the row's identity)."""
    conds = conditions.get(id(row), {})
    cond = conds.get(key_id)
    return isinstance(cond, Interval) and cond.hi is None


def _crt_cell(table: Table, row: TableRow | None, names: dict[str, str] | None) -> str:
    """A cell's results in one text (``Heavy / no / Heavy``), for a grid of one column
    per key value (the Nightfighter referee screen's); ``_crt_parts`` gives them apart."""
    return " / ".join(_crt_parts(table, row, names))


def _crt_parts(table: Table, row: TableRow | None, names: dict[str, str] | None
               ) -> tuple[str, ...]:
    """A cell's results, one text per result (the dagger on the last in a proof)."""
    if row is None:
        return ("–",) * len(table.results)
    result = table.result(row)
    parts = [result_text(table, result.get(r), names, r) for r in table.results]
    parts[-1] += dagger(row.is_assumed)
    return tuple(parts)


def _crt_block(table: Table, crt: Crt, width: float, names: dict[str, str],
               caption: bool = True) -> Block:
    """The CRT look: the row key over its column of values, the column key spanning the
    column headings, rows shaded in turn."""
    corner = key_name(table, crt.row_key)
    many = len(table.results)
    header = [[corner, *[key_name(table, crt.col_key)] + [""] * (len(crt.col_labels) * many
                                                                   - 1)]]
    if many > 1:  # one column per result under each value: no cell packs several values
        header.append(["", *(result_name(table, r) for _ in crt.col_labels
                             for r in table.results)])
        rows = [[label, *(p for cell in cells for p in cell)]
                for label, cells in zip(crt.row_labels, crt.parts, strict=True)]
        groups = [(label, many) for label in crt.col_labels]
    else:
        header.append(["", *crt.col_labels])
        rows = [[label, *cells] for label, cells in zip(crt.row_labels, crt.cells, strict=True)]
        groups = None
    block = grid_blocks(header, rows, width, f"table {table.id!r}", span_first=True,
                        shade=True, groups=groups)[0]
    if not caption:
        return block
    return _captioned(table, block, width)


def _captioned(table: Table, block: Block, width: float) -> Block:
    """``block`` with its caption under it: what each cell holds, or a CRT's notes (its
    codes, rounding and ends, engine/combat.py)."""
    caption = ["Each cell: " + result_name(table, table.results[0])] if len(
        table.results) == 1 else []  # several results: each has its column, named
    captions = crt_notes(table) if table.crt is not None else caption
    lines: list[Primitive] = []
    y = block.height + 0.5
    for text in captions:
        more, used = text_lines(text, 0, y, SMALL,
                                max(block.width or 0.0, min(width, NARROW * 1.6)))
        lines.extend(more)
        y += used
    return Block((*block.items, *lines), y, width=block.width)


def _panel_grids_in(table: Table, panels: list[Panel], width: float, names: dict[str, str]
                    ) -> list[Block]:
    """The panels' grids: two side by side (their columns wrapped to half the width) when
    they are wider than that and fit it, else each as wide as it needs."""
    grids = [_crt_block(table, panel.crt, width, names, caption=False) for panel in panels]
    half = (width - BESIDE) / 2
    if len(panels) > 1 and any((g.width or width) > half for g in grids):
        try:
            return [_crt_block(table, panel.crt, half, names, caption=False)
                    for panel in panels]
        except BadInput:  # a column narrower than its longest word
            pass
    return grids


def _panels_block(table: Table, panels: list[Panel], width: float,
                  names: dict[str, str]) -> Block:
    """The grids of a table with more keys side by side (rows of them within ``width``),
    each under the other keys' values it is for, one caption under them all."""
    items: list[Primitive] = []
    x = y = row_h = widest = 0.0
    grids = _panel_grids_in(table, panels, width, names)
    for panel, grid in zip(panels, grids, strict=True):
        gw = grid.width or width
        title, used = text_lines(panel.title, 0, 0, SMALL, gw, bold=True)
        if x > 0 and x + gw > width:
            x, y, row_h = 0.0, y + row_h + 2.0, 0.0
        items.append(Group((*title, Group(grid.items, dy=used)), dx=x, dy=y, cls="table-panel"))
        row_h = max(row_h, used + grid.height)
        widest = max(widest, x + gw)
        x += gw + BESIDE
    return _captioned(table, Block(tuple(items), y + row_h, width=widest), width)


# --- grids of cells ------------------------------------------------------------------------

CELL_PAD = 1.2
ALT = "#f2f2f2"


def grid_block(header: list[list[str]], rows: list[list[str]], width: float, what: str,
               span_first: bool = False, shade: bool = False) -> Block:
    """The whole grid in one block (``grid_blocks`` without a height limit)."""
    return grid_blocks(header, rows, width, what, span_first, shade)[0]


def grid_blocks(header: list[list[str]], rows: list[list[str]], width: float, what: str,
                span_first: bool = False, shade: bool = False,
                max_h: float | None = None,
                groups: list[tuple[str, int]] | None = None) -> list[Block]:
    """Header rows and body rows as ruled cells, columns as wide as their text (wrapped
    when the table is wider than ``width``; a column narrower than its longest word stops
    the build naming ``what``). ``span_first``: the first header row's second cell spans
    every column after the first (a CRT's column key); ``groups`` (label, columns) then
    head the columns after the first in groups, over the other header rows (a CRT's
    column values over one column per result). Rows past ``max_h`` mm go on into another
    block under the header again."""
    ncols = len(rows[0]) if rows else len(header[-1])
    body = [[str(c) for c in row] for row in rows]
    spanned = header[1:] if span_first else header
    columns = [[r[i] for r in spanned + body] for i in range(ncols)]
    if span_first:
        columns[0].append(header[0][0])
    widths = _column_widths(columns, width, what)
    if span_first and len(widths) > 1:  # the spanning heading widens the columns under it
        wanted = text_width(str(header[0][1]), BODY) * 1.06 + 2 * CELL_PAD
        room = min(wanted, width - widths[0])
        short = room - sum(widths[1:])
        if short > 0:
            widths = [widths[0], *(w + short / (len(widths) - 1) for w in widths[1:])]
    if groups:
        widths = _widen_groups(widths, groups)
    head: list[Primitive] = []
    head_h = 0.0
    if span_first:
        first = header[0]
        head_h = _cells(head, [first[0], first[1]], [widths[0], sum(widths[1:])], head_h,
                        HEAD, bold=True)
        spanned = header[1:]
    if groups:
        spans, at = [widths[0]], 1
        for _label, count in groups:
            spans.append(sum(widths[at:at + count]))
            at += count
        head_h = _cells(head, ["", *(label for label, _ in groups)], spans, head_h, HEAD,
                        bold=True)
    for row in spanned:
        head_h = _cells(head, row, widths, head_h, HEAD, bold=True)
    blocks: list[Block] = []
    items, y = list(head), head_h
    for i, row in enumerate(body):
        style = Style(fill=ALT if shade and i % 2 else None, stroke="#777777", width=0.15)
        cells: list[Primitive] = []
        end = _cells(cells, row, widths, y, style)
        if max_h is not None and end > max_h and y > head_h:
            blocks.append(Block(tuple(items), y, width=sum(widths)))
            items, y = list(head), head_h
            cells = []
            end = _cells(cells, row, widths, y, style)
        items.extend(cells)
        y = end
    blocks.append(Block(tuple(items), y, width=sum(widths)))
    return blocks


def _widen_groups(widths: list[float], groups: list[tuple[str, int]]) -> list[float]:
    """``widths`` with each group's columns widened to hold the group's label."""
    out, at = list(widths), 1
    for label, count in groups:
        short = text_width(label, BODY) * 1.06 + 2 * CELL_PAD - sum(out[at:at + count])
        if short > 0:
            for i in range(at, at + count):
                out[i] += short / count
        at += count
    return out


def _column_widths(columns: list[list[str]], width: float, what: str) -> list[float]:
    natural = [max(text_width(t, BODY) for t in col) + 2 * CELL_PAD for col in columns]
    if sum(natural) <= width:
        return natural
    least = [max(text_width(w, BODY) for t in col for w in (t.split() or [""])
                 if not _cjk(w)) + 2 * CELL_PAD if any(not _cjk(t) for t in col) else
             4 * BODY for col in columns]
    least = [max(a, 3 * BODY) for a in least]
    if sum(least) > width:
        raise BadInput(f"{what}: {len(columns)} columns do not fit {width:.0f} mm at "
                       f"{BODY * 72 / 25.4:.1f} pt (at least {sum(least):.0f} mm)")
    spare = width - sum(least)
    extra = [n - a for n, a in zip(natural, least, strict=True)]
    total = sum(extra) or 1.0
    return [a + spare * e / total for a, e in zip(least, extra, strict=True)]


def _cjk(word: str) -> bool:
    return any(ord(ch) > 0x2E80 for ch in word)


def _cells(items: list[Primitive], cells: list[str], widths: list[float], y: float, style: Style,
           bold: bool = False) -> float:
    """One row of cells at ``y``; the row is as tall as its most wrapped cell."""
    wrapped = [wrap(str(t), BODY, w - 2 * CELL_PAD) if t else [] for t, w in
               zip(cells, widths, strict=True)]
    h = max([len(lines) for lines in wrapped] + [1]) * BODY * LEADING + BODY * 0.45
    x = 0.0
    for lines, w in zip(wrapped, widths, strict=True):
        items.append(Rect(x, y, w, h, style))
        for j, line in enumerate(lines):
            items.append(Text(x + CELL_PAD, y + BODY * 1.08 + j * BODY * LEADING, line,
                              size=BODY, bold=bold))
        x += w
    return y + h


TRACK_LABEL = SMALL  # mm: labels under track boxes, wrapped to the box (the aids' small text)


#: The least side of a box that holds pieces when the caller does not say: a 5/8 in
#: counter plus 2 mm (``holds.least`` gives a game's own).
HOLDS_LEAST = 15.875 + 2.0


def track_block(track: Track, width: float, least: float = HOLDS_LEAST) -> Block:
    """A track: one box per value, each holding a counter (class ``holds``; rows wrap to the
    width), the start box marked, labels under the boxes."""
    n = len(track.values)
    per_row = max(1, min(n, int(width // least)))
    box = max(least, min(24.0, width / per_row))
    title = f"{track.label}  {rule_ref(track.rule)}".rstrip()
    items: list[Primitive] = [Text(0, 3.2, title, size=3.2, bold=True)]
    labels = [wrap(track.labels[str(v)], TRACK_LABEL, box - 0.6) if str(v) in track.labels
              else [] for v in track.values]
    below = 3.0 + max((len(lines) for lines in labels), default=0) * TRACK_LABEL * 1.15
    y = 5.0
    for i, value in enumerate(track.values):
        row, col = divmod(i, per_row)
        x, y = col * box, 5 + row * (box + below)
        start = str(value) == str(track.start)
        style = Style(fill="#fff3c4" if start else "#ffffff", stroke="#333333", width=0.3)
        items.append(Rect(x, y, box, box, style, id=f"track-{track.id}-{value}",
                          cls="holds track-box"))
        items.append(Text(x + box / 2, y + box * 0.62, str(value), size=min(box * 0.38, 7.0),
                          anchor="middle", bold=True))
        for j, line in enumerate(labels[i]):
            items.append(Text(x + box / 2, y + box + 2.6 + j * TRACK_LABEL * 1.15, line,
                              size=TRACK_LABEL, anchor="middle"))
    return Block(tuple(items), y + box + below, id=f"track-{track.id}", cls="track")


def display_block(display: Display, width: float, least: float = HOLDS_LEAST) -> Block:
    """A display's boxes in a flow, each with room for a counter under its name (class
    ``holds``), capacities printed, arrows listed underneath."""
    bw, bh, gap = 34.0, max(18.0, least) + 8.0, 3.0
    per_row = max(1, int((width + gap) // (bw + gap)))
    items: list[Primitive] = [Text(0, 3.6, display.label, size=3.6, bold=True)]
    centres = {}
    for i, box in enumerate(display.boxes):
        r, c = divmod(i, per_row)
        x, y = c * (bw + gap), 6 + r * (bh + gap)
        centres[box.id] = (x + bw / 2, y + bh / 2)
        items.append(Rect(x, y, bw, bh, THIN, r=1.5, id=f"box-{display.id}-{box.id}",
                          cls=f"holds box {box.kind or ''}".strip()))
        what = f"display {display.id!r} box {box.id!r}"
        name = box.name or readable(box.id)
        items.append(Text(x + 1.5, y + 4, name, size=legible(name, 2.6, bw - 3, what)))
        if box.name_ja:
            items.append(Text(x + 1.5, y + 8, box.name_ja,
                              size=legible(box.name_ja, 2.6, bw - 3, what)))
        cap = "no limit" if box.capacity is None else f"capacity {box.capacity}"
        if box.accepts:
            cap += f" · {', '.join(box.accepts)} only"
        items.append(Text(x + 1.5, y + bh - 2, cap, size=legible(cap, 2.2, bw - 3, what),
                          fill="#555555"))
    rows = (len(display.boxes) + per_row - 1) // per_row
    y = 6 + rows * (bh + gap)
    for arrow in display.arrows:
        a, b = centres.get(arrow.from_), centres.get(arrow.to)
        if a and b:
            items.extend(_arrow(a, b))
        names = {box.id: box.name or readable(box.id) for box in display.boxes}
        text = (f"{names.get(arrow.from_, arrow.from_)} → {names.get(arrow.to, arrow.to)}  "
                f"{rule_ref(arrow.rule)}").rstrip()
        items.append(Text(0, y + 3, text, size=legible(text, 2.4, width,
                                                       f"display {display.id!r}")))
        y += 3.4
    return Block(tuple(items), y + 3, id=f"display-{display.id}", cls="display")


def _arrow(a: tuple[float, float], b: tuple[float, float]) -> list[Primitive]:
    (x1, y1), (x2, y2) = a, b
    dx, dy = x2 - x1, y2 - y1
    length = (dx * dx + dy * dy) ** 0.5 or 1
    ux, uy = dx / length, dy / length
    tip = (x2 - ux * 6, y2 - uy * 6)
    base = (tip[0] - ux * 2.5, tip[1] - uy * 2.5)
    wing = (-uy * 1.2, ux * 1.2)
    style = Style(fill="#b03030", stroke="#b03030", width=0.35, opacity=0.8)
    return [Line(x1 + ux * 6, y1 + uy * 6, base[0], base[1], style, cls="arrow"),
            Polygon((tip, (base[0] + wing[0], base[1] + wing[1]),
                     (base[0] - wing[0], base[1] - wing[1])), style, cls="arrowhead")]


def constant_line(game: Game, constant_id: str) -> str:
    """A constant as a player uses it: its sentence (``says``) with the value in it, else its
    name and its value (``Fighters per carrier: 2``), the value the engine reads; a dagger in
    a proof when it is assumed."""
    constant = game.get("constants", constant_id)  # an unknown id: BadInput, ids allowed
    assert isinstance(constant, Constant)  # the constants section holds Constant records
    value = _constant_value(constant.value, record_names(game))
    unit = f" {constant.unit}" if constant.unit else ""
    if constant.says:  # the rule as a sentence with the value in it, a word in lower case
        word = isinstance(constant.value, str) and constant.value.isalpha()
        return (constant.says.replace("{value}", f"{value.lower() if word else value}{unit}")
                + dagger(constant.is_assumed))
    return f"{constant.label}: {value}{unit}{dagger(constant.is_assumed)}"


def _constant_value(value: Value, names: dict[str, str]) -> str:
    """A constant's value by the data's names (a unit id prints as the unit's name)."""
    if isinstance(value, dict):
        return ", ".join(f"{_constant_value(k, names)} {_constant_value(v, names)}"
                         for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return ", ".join(_constant_value(v, names) for v in value)
    if isinstance(value, str) and value in names:
        return names[value]
    if isinstance(value, str) and (_is_id(value) or value.isalpha()):
        return readable(value)
    return show_value(value)


RULE = Style(stroke="#888888", width=0.2)
WRITE_PITCH = 7.0  # mm between the ruled lines of a write-in space (handwriting)


def write_in_block(label: str, width: float, space: float) -> Block:
    """A form field: its label, then ``space`` mm of ruled lines to write on."""
    label_block = paragraph(label, width, BODY)
    items: list[Primitive] = [*(replace(t, bold=True) for t in label_block.items
                                if isinstance(t, Text))]  # a paragraph: texts
    rules = max(1, int(space // WRITE_PITCH))
    top = label_block.height
    for i in range(1, rules + 1):
        y = top + i * WRITE_PITCH
        items.append(Line(0, y, width, y, RULE, cls="write-in"))
    return Block(tuple(items), top + rules * WRITE_PITCH + 1.0, cls="write-in-field",
                 width=width)


def point_map_drawing(point_map: PointMap, least: float = HOLDS_LEAST
                      ) -> tuple[tuple[Primitive, ...], float, float]:
    """A point-to-point map: routes as lines, each point a box that holds a stack (class
    ``holds``) with its name and values placed beside it, clear of the other boxes and
    labels (``labels.LabelPlacer``; a label that fits nowhere stops the build)."""
    w = point_map.width_mm or 500.0
    h = point_map.height_mm or 320.0
    half = least / 2
    pos = {p.id: (half + 2 + (p.x if p.x is not None else 0.5) * (w - least - 4),
                  half + 2 + (p.y if p.y is not None else 0.5) * (h - least - 4))
           for p in point_map.points}
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill="#f4f8fc", width=0.5), cls="map-border")]
    for route in point_map.routes:
        (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
        style = Style(stroke="#7a8ca0", width=0.35,
                      dash=(1.5, 1.0) if route.is_assumed else ())
        items.append(Line(x1, y1, x2, y2, style, cls=f"route {route.kind or ''}".strip()))
    boxes = {pid: Box(x - half, y - half, x + half, y + half) for pid, (x, y) in pos.items()}
    for a, b in overlapping_pairs(list(boxes.items()), 1.0):
        raise BadInput(f"map {point_map.id}: points {a!r} and {b!r} are too close for a "
                       f"{least:.1f} mm box each; move their x, y apart")
    placer = LabelPlacer(Box(0, 0, w, h), list(boxes.values()))
    for point in point_map.points:
        x, y = pos[point.id]
        sea = (point.kind or "").startswith("sea")
        style = Style(fill="#d6e6f5" if sea else "#f0e6c8", stroke="#333333", width=0.3)
        items.append(Rect(x - half, y - half, least, least, style, r=1.5, id=f"point-{point.id}",
                          cls=f"holds point {point.kind or ''}".strip()))
        lines = [(point.name or point.id, 2.6, True), (_point_extra(point), 2.2, False)]
        lines = [line for line in lines if line[0]]
        tall = sum(size * 1.25 for _t, size, _b in lines)
        for dy in (half + 1.0, -half - 1.0 - tall, half + 6.0, -half - 6.0 - tall):
            texts = [Text(x, y + dy + sum(s * 1.25 for _t, s, _b in lines[:i]) + size, text,
                          size=size, anchor="middle", bold=bold, cls="point-label map-label")
                     for i, (text, size, bold) in enumerate(lines)]
            if all(placer.free(text_box(t)) for t in texts):
                break
        else:
            texts = [placer.place(Text(0, 0, lines[0][0], size=2.6, bold=True,
                                       cls="point-label map-label"),
                                  [(x + half + 1.0, y + 1.0, "start"), (x - half - 1.0, y + 1.0,
                                                                        "end")],
                                  f"map {point_map.id}, point {point.id}")]
        for t in texts:
            placer.take(text_box(t))
        items.extend(texts)
    return tuple(items), w, h


def _point_extra(point: Point) -> str:
    parts = []
    if point.capacity is not None:
        parts.append(f"cap {point.capacity}")
    for key in ("production", "value", "ipc"):
        if point.extra.get(key) not in (None, 0):
            parts.append(f"{point.extra[key]} IPC" if key != "value" else str(point.extra[key]))
    if point.extra.get("capital"):
        parts.append("capital")
    parts.extend(point.flags)
    return " · ".join(parts)


def assumed_blocks(game: Game, width: float) -> Iterator[Block]:
    """Every value marked assumed, with the record and rule that needs it."""
    yield heading(f"Assumed values ({DAGGER}): not in the rule text", width, 5.0)
    yield paragraph("Values the rules need but do not give. Each is marked with a dagger where it "
                    "is printed; the note says where the guess comes from.", width)
    for section, record in records(game):
        rules = rules_text(record.rule) or "-"
        if record.is_assumed:
            yield paragraph(f"{section} {record.id} [{rules}]: {record.note}", width, 2.4)
        for key, note in record.assumed.items():
            yield paragraph(f"{section} {record.id}.{key} [{rules}]: {note}", width, 2.4)
        for owner, path, _key, _value in walk_values(record, record.id):
            if owner is not record and owner.is_assumed and owner.note and path.endswith(".id"):
                yield paragraph(f"{section} {path[:-3]}: {owner.note}", width, 2.4)


GAP = 2.0  # between blocks down the page
BESIDE = 5.0  # between blocks side by side


def _kept_height(blocks: Sequence[Block], i: int) -> float:
    """The height that must go on one page with block ``i``: a heading keeps the headings
    under it and the first block after them."""
    need, first = blocks[i].height, i
    while blocks[i].cls == "heading" and i + 1 < len(blocks):
        i += 1
        need += blocks[i].height + GAP
    if blocks[first].whole:
        return max(need, section_height(blocks, first))
    return need


def section_end(blocks: Sequence[Block], i: int) -> int:
    """The index after the last block of the section heading ``blocks[i]`` opens: the
    headings right under it and the blocks up to the next heading."""
    j = i + 1
    while j < len(blocks) and blocks[j].cls == "heading":
        j += 1
    while j < len(blocks) and blocks[j].cls != "heading":
        j += 1
    return j


def section_height(blocks: Sequence[Block], i: int) -> float:
    """The height of the section heading ``blocks[i]`` opens, its blocks one under another."""
    section = blocks[i:section_end(blocks, i)]
    return sum(b.height for b in section) + GAP * (len(section) - 1)


def flow(blocks: Sequence[Block], content: tuple[float, float, float, float]
         ) -> list[tuple[Primitive, ...]]:
    """Stack blocks down pages, narrow blocks side by side on a shelf while they fit the
    width; a heading moves to the next page with the block after it; a block taller than
    a page gets a page to itself."""
    return [tuple(Group(b.items, dx=x, dy=y, id=b.id, cls=b.cls) for b, x, y in page)
            for page in flow_placed(blocks, content)]


def flow_placed(blocks: Sequence[Block], content: tuple[float, float, float, float]
                ) -> list[list[tuple[Block, float, float]]]:
    """``flow``, as (block, x, y) on each page: where each block went."""
    x, y0, w, h = content
    blocks = list(blocks)
    pages: list[list[tuple[Block, float, float]]] = [[]]
    y, shelf_x, shelf_h = y0, 0.0, 0.0
    for i, block in enumerate(blocks):
        bw = block.width if block.width is not None and block.width < w else w
        beside = shelf_x > 0 and shelf_x + BESIDE + bw <= w and y + block.height <= y0 + h
        if beside:
            bx = shelf_x + BESIDE
        else:
            y += shelf_h + (GAP if shelf_h else 0.0)
            shelf_h, bx = 0.0, 0.0
            need = _kept_height(blocks, i)
            if need > h:  # a section taller than a page flows on, its heading with the first
                need = _kept_height([replace(blocks[i], whole=False), *blocks[i + 1:]], 0)
            if y > y0 and y + min(need, h) > y0 + h:
                pages.append([])
                y = y0
        pages[-1].append((block, x + bx, y))
        shelf_x = bx + bw
        shelf_h = max(shelf_h, block.height)
    return _balanced([p for p in pages if p], content)


#: The least share of a page's area the last page of a flow covers, when the page before
#: can spare blocks for it (no sheet for one table).
TAIL = 0.4
#: The least share of its page a whole section (a scenario's set-up) that opens the last page
#: covers to keep that page to itself: the aid before it keeps its tables (the terrain chart
#: stays with the combat table), the set-up is a page of its own, laid by the map.
OWN_PAGE = 0.25


def _used(page: list[tuple[Block, float, float]], content: tuple[float, float, float, float]
          ) -> float:
    """The share of the content area a flowed page's blocks cover (each as wide as it is
    drawn: a list of short lines covers less of the page than a full-width table)."""
    w = content[2]
    return sum(min(_drawn_width(b), w) * b.height for b, _x, _y in page) / (w * content[3])


def _drawn_width(block: Block) -> float:
    """How far right of its origin a block's items reach (its width when it has none)."""
    index = SpatialIndex(block.items)
    rights = [box[2] for box in (index.box(item) for item in block.items) if box is not None]
    return max(rights, default=block.width or 0.0)


def _balanced(pages: list[list[tuple[Block, float, float]]],
              content: tuple[float, float, float, float]
              ) -> list[list[tuple[Block, float, float]]]:
    """The flow with blocks moved from the end of the page before the last to the last
    while the last uses under ``TAIL`` of its page (unless it is a set-up's own page:
    ``_own_page``), each move leaving the emptier of the
    two pages fuller than before, and both still fit a page each (a heading moves with the
    block after it)."""
    while len(pages) > 1 and _used(pages[-1], content) < TAIL and not _own_page(pages[-1],
                                                                                 content):
        before, last = [b for b, _x, _y in pages[-2]], [b for b, _x, _y in pages[-1]]
        take = _tail_take(before)
        if take >= len(before):
            break
        head = flow_placed_once(before[:-take], content)
        tail = flow_placed_once(before[-take:] + last, content)
        if head is None or tail is None or min(_used(head, content), _used(tail, content)) <= (
                min(_used(pages[-2], content), _used(pages[-1], content))):
            break
        pages[-2:] = [head, tail]
    if len(pages) > 1 and _used(pages[-1], content) < TAIL:
        pages = _tail_in_gaps(pages, content)
    return pages


def _own_page(page: list[tuple[Block, float, float]], content: tuple[float, float, float, float]
              ) -> bool:
    """True when ``page`` opens with a whole section (``Block.whole``: a set-up) and covers at
    least ``OWN_PAGE`` of its area: it keeps its page, the blocks before it keep theirs."""
    return bool(page) and page[0][0].whole and _used(page, content) >= OWN_PAGE


def _in_whole(blocks: list[Block], i: int) -> bool:
    """True when ``blocks[i]`` is in the whole section (``Block.whole``) of an earlier
    heading among ``blocks``."""
    opener = next((j for j in range(i - 1, -1, -1) if blocks[j].cls == "heading"), None)
    return opener is not None and blocks[opener].whole and i < section_end(blocks, opener)


def _tail_take(blocks: list[Block]) -> int:
    """How many blocks at the end of a page move together: the last, with the headings
    over it; all of a whole section (``Block.whole``) it ends."""
    take = 1
    while take < len(blocks) and blocks[-take - 1].cls == "heading":
        take += 1
    opener = next((i for i in range(len(blocks) - take, -1, -1)
                   if blocks[i].cls == "heading"), None)
    if opener is not None and blocks[opener].whole and section_end(blocks, opener) == len(
            blocks):
        take = len(blocks) - opener
    return take


def _tail_in_gaps(pages: list[list[tuple[Block, float, float]]],
                  content: tuple[float, float, float, float]
                  ) -> list[list[tuple[Block, float, float]]]:
    """The last page's blocks (a heading with the block after it) put under the blocks of
    earlier pages where they fit, when all of them fit: the last page goes."""
    x, y0, _w, h = content
    bottoms = [max(y + b.height for b, _x, y in page) for page in pages[:-1]]
    moved = [list(p) for p in pages[:-1]]
    units: list[list[Block]] = []
    last = [b for b, _x, _y in pages[-1]]
    for i, block in enumerate(last):
        if units and (units[-1][-1].cls == "heading" or _in_whole(last, i)):
            units[-1].append(block)
        else:
            units.append([block])
    for unit in units:
        need = sum(b.height for b in unit) + GAP * len(unit)
        at = next((i for i, bottom in enumerate(bottoms) if bottom + need <= y0 + h), None)
        if at is None:
            return pages
        for block in unit:
            moved[at].append((block, x, bottoms[at] + GAP))
            bottoms[at] += GAP + block.height
    return moved


def flow_placed_once(blocks: Sequence[Block], content: tuple[float, float, float, float]
                     ) -> list[tuple[Block, float, float]] | None:
    """``blocks`` flowed on one page, or None when they need more than one."""
    x, y0, w, h = content
    placed: list[tuple[Block, float, float]] = []
    y, shelf_x, shelf_h = y0, 0.0, 0.0
    for block in blocks:
        bw = block.width if block.width is not None and block.width < w else w
        if shelf_x > 0 and shelf_x + BESIDE + bw <= w:
            bx = shelf_x + BESIDE
        else:
            y += shelf_h + (GAP if shelf_h else 0.0)
            shelf_h, bx = 0.0, 0.0
        if y + block.height > y0 + h + 1e-6:
            return None
        placed.append((block, x + bx, y))
        shelf_x = bx + bw
        shelf_h = max(shelf_h, block.height)
    return placed
