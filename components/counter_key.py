"""The counter key ("how to read a counter") that opens a game's play aid.

The samples are counters the kit prints: the key takes them from the finished counter pages,
one per layout the unit counters print (the markers' when there are none; ``samples``), so
the samples and the real counters are one description, drawn by one layout code. Each is
shown scaled up, and every field of it is labelled with the name a player uses for it: the
values by ``style.stats`` (``label``, with its rule), the name, echelon and symbol by the
words of ``style.WORD_LABELS``. A field is found by the class its layout gives its text
(``factors``, ``corner top_left``, ``name`` ...; a game's own counter code names its own,
Nightfighter's ``sighting-number``), the factor line split at its dashes. A back closes the
key with what a back means (``style.back``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.model import Game, Marker, Unit
from .aids import Block
from .clearance import _ink, _walk, ink_box
from .fonts import text_width, wrap
from .labels import Box, union
from .marks import dagger
from .primitives import Circle, Group, Line, Page, Primitive, Rect, Style, Text
from .style import WORD_LABELS, Look, look_of, stat_label

if TYPE_CHECKING:  # kit imports this module
    from .kit import KitPage

#: Where a label's Japanese name starts (after a space).
_JAPANESE = re.compile(r" (?=[\u3000-\u30ff\u4e00-\u9fff\uff00-\uffef])")
#: The key's id on the page (not ``counter-...``: it is no counter to cut out).
KEY_ID = "how-to-read-a-counter"
#: A sample's side on the page, in mm (1.25 times a 16 mm counter), and its back's as a
#: share of it (never under the printed size).
KEY_SIDE = 20.0
BACK = 0.6
#: Label text size (mm, 6.2 pt) and the least distance between two labels' baselines.
LABEL = 2.2
STEP = 3.6
TITLE = 3.4
ROW = 4.6  # from the sample's foot to the baseline of the factor line's names
LINE = LABEL * 1.15  # from one line of a label to the next
CELL_GAP = 4.0  # between two counters' labels
ROW_GAP = 3.0  # between two rows of counters
BACK_TEXT = 32.0  # the width of what a back means
MORE = 1000  # the back's place in a row: after every counter
SAME = 0.2  # fields this share of the side apart are at the same place
LEADER = Style(stroke="#444444", width=0.2)
PANEL = Style(fill="#f7f7f4", stroke="#999999", width=0.25)
FRAME = 2.5  # mm inside the key's panel
DOT = Style(fill="#444444", stroke=None)
GAP = 3.0  # between the sample and the labels' leader ends


#: A piece of the key: its items, width and height (mm).
Cell = tuple[list[Primitive], float, float]


@dataclass(frozen=True)
class Sample:
    """A printed counter: its record, size and sides' items."""

    record: Unit | Marker
    size: float
    front: tuple[Primitive, ...]
    back: tuple[Primitive, ...] | None


@dataclass(frozen=True)
class Field:
    """One labelled field of the sample: the box it covers (counter mm), what it is called,
    and whether it is a value of the factor line (labelled under the counter)."""

    box: Box
    label: str
    below: bool = False
    value: bool = False  # a value (a stat), not a word such as the name

    @property
    def x(self) -> float:
        return (self.box.x0 + self.box.x1) / 2

    @property
    def y(self) -> float:
        return (self.box.y0 + self.box.y1) / 2


def printed_counters(items: Iterable[Primitive]) -> Iterator[Group]:
    """Every counter side's group on a page (the group the imposition gives a piece)."""
    for item in items:
        if not isinstance(item, Group):
            continue
        words = (item.cls or "").split()
        if words[:1] == ["counter"] and (item.id or "").startswith("counter-"):
            yield item
        else:
            yield from printed_counters(item.items)


def printed_samples(game: Game, pages: Iterable[Page | KitPage]) -> list[Sample]:
    """Every piece the pages print, once, in print order: its record, size and sides."""
    units = {u.id: u for u in game.units}
    markers = {m.id: m for m in game.markers}
    fronts: dict[str, Group] = {}
    backs: dict[str, Group] = {}
    for page in pages:
        for group in printed_counters(page.items if isinstance(page, Page) else page.page.items):
            words = (group.cls or "").split()
            base = (group.id or "").removesuffix("-back")  # an id counter-...: never empty
            (backs if "back" in words else fronts).setdefault(base, group)
    out = []
    for piece, group in fronts.items():
        words = (group.cls or "").split()
        record: Unit | Marker | None = (
            next((units[w] for w in words if w in units), None) if "marker" not in words
            else None)
        record = record or next((markers[w] for w in words if w in markers), None)
        if record is not None:
            trim = group.items[0]
            assert isinstance(trim, Rect)  # a counter side's group opens with its trim
            back = backs.get(piece)
            out.append(Sample(record, trim.w, group.items,
                              back.items if back is not None else None))
    return out


def layout(game: Game, found: Sample) -> frozenset[str]:
    """What a printed counter shows, as the names of its fields (the symbol's without the
    symbol): two counters with the same names are read alike."""
    return frozenset(f.label.split(":")[0] for f in fields(game, found))


def samples(game: Game, pages: Sequence[Page | KitPage]) -> list[Sample]:
    """The counters the key shows, in print order: one per layout the unit counters print
    (the markers' when there are no unit counters), a layout whose fields another shown
    counter names all (a fleet's name and symbol beside a fighter's) left to that one."""
    pool, first = _layouts(game, pages)
    chosen: list[frozenset[str]] = []
    for named in sorted(first, key=lambda k: (-len(k), first[k])):
        if named and not any(named <= c for c in chosen):
            chosen.append(named)
    return [pool[first[c]] for c in sorted(chosen, key=first.__getitem__)]


def more_samples(game: Game, pages: Sequence[Page | KitPage]) -> list[Sample]:
    """The other layouts, one counter each, the most printed first: the key shows them
    where a row has room left (a Nimitz carrier aircraft's "5/2" beside a land-based
    group's "1 2 4")."""
    pool, first = _layouts(game, pages)
    shown = {layout(game, s) for s in samples(game, pages)}
    count = Counter(layout(game, s) for s in pool)
    rest = [k for k in first if k and k not in shown]
    return [pool[first[k]] for k in sorted(rest, key=lambda k: (-count[k], first[k]))]


def _layouts(game: Game, pages: Sequence[Page | KitPage]
             ) -> tuple[list[Sample], dict[frozenset[str], int]]:
    """The printed unit counters (else markers) and where each layout is first printed."""
    printed = printed_samples(game, pages)
    pool = [s for s in printed if isinstance(s.record, Unit)] or printed
    first: dict[frozenset[str], int] = {}
    for n, found in enumerate(pool):
        first.setdefault(layout(game, found), n)
    return pool, first


def shown_back(game: Game, pages: Sequence[Page | KitPage], found: list[Sample]
               ) -> Sample | None:
    """The counter whose back the key shows: the first shown counter's, unless a printed
    back shows more values (a night fighter's Schräge Musik note)."""
    backs = [s for s in printed_samples(game, pages) if s.back is not None]
    best = max(backs, key=lambda s: len(_back_fields(game, s)), default=None)
    first = next((s for s in found if s.back is not None), None)
    if best is None or first is None:
        return best or first
    return best if len(_back_fields(game, best)) > len(_back_fields(game, first)) else first


def _back_fields(game: Game, found: Sample) -> list[Field]:
    """The values a counter's back prints."""
    return [f for f in fields(game, Sample(found.record, found.size, found.back or (), None))
            if f.value]


def sample(game: Game, pages: Sequence[Page | KitPage]) -> Sample | None:
    """The key's first counter; None without counters."""
    found = samples(game, pages)
    return found[0] if found else None


def fields(game: Game, found: Sample) -> list[Field]:
    """The labelled fields of the sample's front, top to bottom."""
    look = look_of(game, found.record)
    out: list[Field] = []
    symbol_boxes: list[Box] = []
    for item, dx, dy, owner in _walk(found.front[1:]):
        if isinstance(item, Text) and owner < 0 and item.text.strip():
            out.extend(_text_fields(game, look, item, dx, dy, isinstance(found.record, Marker)))
        elif owner >= 0 and not isinstance(item, Text):
            ink = _ink(item, dx, dy, owner)
            if ink is not None:
                symbol_boxes.append(ink.box)
    if symbol_boxes:
        label = stat_label(game, "symbol") or ""
        symbol = (look.symbol or "").replace("-", " ")
        out.append(Field(union(symbol_boxes), f"{label}: {symbol}" if symbol else label))
    merged: dict[str, Field] = {}
    for f in out:  # a name on two lines is one field
        if f.label in merged:
            f = Field(union([merged[f.label].box, f.box]), f.label, f.below, f.value)
        merged[f.label] = f
    return sorted((f for f in merged.values() if f.label), key=lambda f: (f.y, f.x))


def _text_fields(game: Game, look: Look, text: Text, dx: float, dy: float, marker: bool
                 ) -> list[Field]:
    box = ink_box(text).moved(dx, dy)
    words = (text.cls or "").split()
    if "factors" in words:
        return _factor_fields(game, look.factors, text, box)
    if "corner" in words:
        key = look.corners.get(words[-1], "")
    else:
        key = {"name": "name", "subtitle": "subtitle" if marker else "name_ja",
               "echelon": "size", "word": "word"}.get(words[0] if words else "",
                                                      words[0] if words else "")
    label = _named(game, key) if key else None
    return [Field(box, label, value=key not in WORD_LABELS)] if label else []


def _factor_fields(game: Game, specs: Sequence[str], text: Text, box: Box) -> list[Field]:
    """One field per value of a factor line (``4/2-1-1``), each its own part of the line."""
    parts = text.text.split("-")
    if len(parts) != len(specs):
        return []
    out = []
    for i, (part, spec) in enumerate(zip(parts, specs, strict=True)):
        left = box.x0 + text_width("-".join(parts[:i]) + ("-" if i else ""), text.size)
        label = _named(game, spec)
        if label:
            out.append(Field(Box(left, box.y0, left + text_width(part, text.size), box.y1),
                             label, below=True, value=True))
    return out


def _named(game: Game, key: str) -> str | None:
    """The player's name of a field, with its Japanese name when the data gives one."""
    label = stat_label(game, key)
    named = game.style.stats.get(key)
    if label and named is not None and named.name_ja:
        return f"{label} {named.name_ja}"
    return label


def bilingual(game: Game) -> bool:
    """Whether the game names its counters' values in Japanese too."""
    return any(named.name_ja for named in game.style.stats.values())


def key_block(game: Game, pages: Sequence[Page | KitPage], width: float) -> Block | None:
    """The counter key as a block of ``width`` mm: its title, then one counter per layout
    (``samples``) scaled up with its fields labelled (left and right of it, the factor
    line's values in a row under it; a field named already at the same place in an earlier
    counter not again), then a back with what a back means (``style.back``); None when the
    kit prints no counter."""
    found = samples(game, pages)
    if not found:
        return None
    width -= 2 * FRAME
    title = "How to read a counter" + ("   カウンターの見方" if bilingual(game) else "")
    items: list[Primitive] = [Text(0, TITLE, title, size=TITLE, bold=True, cls="key-title")]
    shown: set[tuple[str, bool, int, int]] = set()
    cells = [(n, _cell(game, s, shown)) for n, s in enumerate(found)]
    back = shown_back(game, pages, found)
    if back is not None and game.style.back is not None:
        cells.append((len(found) + MORE, _back_cell(game, back)))
    room = width - 2 * FRAME
    rows: list[list[tuple[int, Cell]]] = []
    for order, cell in cells:  # each in the first row with room for it
        row = _row_with_room(rows, cell[1], room)
        if row is None:
            rows.append(row := [])
        row.append((order, cell))
    for n, extra in enumerate(more_samples(game, pages)):  # where a row has room left
        trial = set(shown)
        cell = _cell(game, extra, trial)
        row = _row_with_room(rows, cell[1], room)
        if row is not None:
            row.append((len(found) + n, cell))
            shown = trial
    y, row_h = TITLE + 2.0, 0.0
    for n, row in enumerate(rows):
        y += row_h + (ROW_GAP if n else 0.0)
        x = 0.0
        for _order, (cell_items, w, _h) in sorted(row, key=lambda c: c[0]):
            items.append(Group(tuple(cell_items), dx=x, dy=y, cls="key-cell"))
            x += w + CELL_GAP
        row_h = max(cell[2] for _order, cell in row)
    height = y + row_h + FRAME
    panel = Rect(0, 0, width, height + FRAME, PANEL, cls="key-panel")
    inside = Group(tuple(items), dx=FRAME, dy=FRAME)
    return Block((panel, inside), height + 2 * FRAME, id=KEY_ID, cls="counter-key")


def _row_with_room(rows: list[list[tuple[int, Cell]]], width: float, room: float
                   ) -> list[tuple[int, Cell]] | None:
    return next((r for r in rows
                 if sum(c[1] + CELL_GAP for _o, c in r) + width <= room), None)


def _cell(game: Game, found: Sample, shown: set[tuple[str, bool, int, int]]) -> Cell:
    """One counter scaled up with its new fields labelled: (items, width, height)."""
    scale = KEY_SIDE / found.size
    every = fields(game, found)
    marked = []
    for f in every:  # a word (not a value) named before at the same place is not again
        place = (f.label, f.below, round(f.x / found.size / SAME), round(f.y / found.size / SAME))
        if f.value or place not in shown:
            shown.add(place)
            marked.append(f)
    left, right = _sides([f for f in marked if not f.below], every, found.size)
    left_w = max([_width(f.label) for f in left] + [0.0])
    cx = left_w + GAP if left else 0.0
    items: list[Primitive] = [Group(found.front, dx=cx, scale=scale,
                                    cls=f"key-sample {found.record.id}")]
    right_x = cx + KEY_SIDE + GAP
    bottom = KEY_SIDE
    for column, x, anchor in ((left, cx - GAP, "end"), (right, right_x, "start")):
        extras = [LINE * (len(_lines(f.label)) - 1) for f in column]
        ys = _spread([f.y * scale + LABEL * 0.35 for f in column], LABEL, KEY_SIDE, extras)
        for f, y, extra in zip(column, ys, extras, strict=True):
            px = cx + (f.box.x0 - 0.3 if anchor == "end" else f.box.x1 + 0.3) * scale
            end = x + (1.0 if anchor == "end" else -1.0)
            items += _leader((end, y - LABEL * 0.35), (px, f.y * scale))
            items += _label(x, y, f.label, anchor)
            bottom = max(bottom, y + extra + LABEL * 0.3)
    low, high = 0.0, right_x + max([_width(f.label) for f in right] + [-GAP])
    under = [f for f in marked if f.below]
    if under:
        row = KEY_SIDE + ROW
        widths = [_width(f.label) for f in under]
        span = sum(widths) + LABEL * 1.5 * (len(under) - 1)
        x = cx + KEY_SIDE / 2 - span / 2
        low, high = min(low, x), max(high, x + span)
        for f, w in zip(under, widths, strict=True):
            items += _leader((x + w / 2, row - LABEL), (cx + f.x * scale,
                                                        f.box.y1 * scale + 0.4))
            items += _label(x + w / 2, row, f.label, "middle")
            bottom = max(bottom, row + LINE * (len(_lines(f.label)) - 1) + LABEL * 0.3)
            x += w + LABEL * 1.5
    if low < 0:
        items = [Group(tuple(items), dx=-low)]
    return items, high - low, bottom


def _lines(label: str) -> list[str]:
    """The lines a label prints: a name of two values (``a / b``) on two, a Japanese name
    under the English."""
    split = _JAPANESE.search(label)
    english, japanese = (label[:split.start()], label[split.end():]) if split else (label, "")
    parts = english.split(" / ")
    head, _colon, tail = parts[-1].partition(": ")  # "unit type: carrier"
    last = [head + ":", tail] if tail else [head]
    return [p + " /" for p in parts[:-1]] + last + ([japanese] if japanese else [])


def _width(label: str) -> float:
    return max(text_width(line, LABEL) for line in _lines(label))


def _label(x: float, y: float, label: str, anchor: str) -> list[Primitive]:
    return [Text(x, y + n * LINE, line, size=LABEL, anchor=anchor, cls="key-label")
            for n, line in enumerate(_lines(label))]


def _sides(marked: list[Field], every: list[Field], size: float
           ) -> tuple[list[Field], list[Field]]:
    """The fields labelled left and right of the counter: each on the side nearer it,
    unless another field on its line stands between it and that side (the leader would
    run under it)."""
    left: list[Field] = []
    right: list[Field] = []
    for f in marked:
        line = [g for g in every if g is not f and g.box.y0 < f.box.y1 and f.box.y0 < g.box.y1]
        blocked_right = any(g.box.x0 >= f.box.x1 - 0.1 for g in line)
        blocked_left = any(g.box.x1 <= f.box.x0 + 0.1 for g in line)
        on_left = f.x < size / 2
        if blocked_right != blocked_left:
            on_left = blocked_right
        (left if on_left else right).append(f)
    return left, right


def _back_cell(game: Game, found: Sample) -> Cell:
    """A counter's back, as printed, with what a back means (``style.back``)."""
    meaning = game.style.back
    assert meaning is not None and found.back is not None
    side = max(KEY_SIDE * BACK, found.size)  # never under the printed size
    japanese = bool(meaning.name_ja) and bilingual(game)
    lines = ["back" + ("  裏面" if japanese else ""),
             *_wrapped(f"{meaning.name}{dagger(meaning.is_assumed)}"),
             *(_wrapped(meaning.name_ja or "") if japanese else [])]
    items: list[Primitive] = [Group(found.back, scale=side / found.size,
                                    cls=f"key-sample back {found.record.id}")]
    y = side / 2 - LINE * (len(lines) - 1) / 2 + LABEL * 0.35
    for n, line in enumerate(lines):
        items.append(Text(side + 2.0, y + n * LINE, line, size=LABEL, bold=not n,
                          cls="key-label"))
    return items, side + 2.0 + max(text_width(line, LABEL) for line in lines), side


def _wrapped(text: str) -> list[str]:
    """``text`` in lines of at most ``BACK_TEXT``, a line ending at each colon."""
    parts = re.split(r"(?<=[:：])\s*", text)
    return [line for part in parts if part for line in wrap(part, LABEL, BACK_TEXT)]


def _leader(start: tuple[float, float], end: tuple[float, float]) -> list[Primitive]:
    """A thin line from a label to its field, a dot on the field."""
    return [Line(*start, *end, LEADER, cls="key-leader"),
            Circle(*end, 0.5, DOT, cls="key-dot")]


def _spread(ys: list[float], low: float, high: float, extras: list[float]) -> list[float]:
    """First baselines of labels ``extras`` mm taller than a line, each at least ``STEP``
    under the one before's last line, each as near its wish as the order allows, none above
    ``low`` and, where the room allows, none ending under ``high``."""
    gaps = [STEP + e for e in extras]
    out: list[float] = []
    for n, y in enumerate(ys):
        out.append(max(y, low, out[-1] + gaps[n - 1]) if out else max(y, low))
    for i in range(len(out) - 1, -1, -1):  # pushed back up from the bottom
        limit = high - extras[i] if i == len(out) - 1 else out[i + 1] - gaps[i]
        out[i] = max(min(out[i], limit), low + sum(gaps[:i]))
    return out
