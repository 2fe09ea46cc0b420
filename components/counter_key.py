"""The counter key ("how to read a counter") that opens a game's play aid.

The sample is a counter the kit prints: the key takes it from the finished counter pages
(a unit's when the kit has unit counters, else a marker's), so the sample and the real
counters are one description, drawn by one layout code. It is shown scaled up, and every
field of it is labelled with the name a player uses for it: the values by
``style.stats`` (``label``, with its rule), the name, echelon and symbol by the words of
``style.WORD_LABELS``. A field is found by the class its layout gives its text
(``factors``, ``corner top_left``, ``name`` ...; a game's own counter code names its own,
Nightfighter's ``sighting-number``), the factor line split at its dashes.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.model import Game, Marker, Unit
from .aids import Block
from .clearance import _ink, _walk, ink_box
from .fonts import text_width
from .labels import Box, union
from .primitives import Circle, Group, Line, Page, Primitive, Rect, Style, Text
from .style import Look, look_of, stat_label

if TYPE_CHECKING:  # kit imports this module
    from .kit import KitPage

#: The key's id on the page (not ``counter-...``: it is no counter to cut out).
KEY_ID = "how-to-read-a-counter"
#: The sample's side on the page, in mm (twice a 15 mm counter, more for a smaller one),
#: and its back's as a share of it.
KEY_SIDE = 30.0
BACK = 0.6
#: Label text size (mm, 7.4 pt) and the least distance between two labels' baselines.
LABEL = 2.6
STEP = 4.2
TITLE = 3.6
ROW = 5.0  # from the sample's foot to the baseline of the factor line's names
LEADER = Style(stroke="#444444", width=0.2)
PANEL = Style(fill="#f7f7f4", stroke="#999999", width=0.25)
FRAME = 2.5  # mm inside the key's panel
DOT = Style(fill="#444444", stroke=None)
GAP = 5.0  # between the sample and the labels' leader ends


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


def sample(game: Game, pages: Iterable[Page | KitPage]) -> Sample | None:
    """The counter the key shows: of the printed unit counters the one with the most
    labelled fields (the first of equals), else of the markers; None without counters."""
    units = {u.id: u for u in game.units}
    markers = {m.id: m for m in game.markers}
    fronts: dict[str, Group] = {}
    backs: dict[str, Group] = {}
    for page in pages:
        for group in printed_counters(page.items if isinstance(page, Page) else page.page.items):
            words = (group.cls or "").split()
            base = (group.id or "").removesuffix("-back")  # an id counter-...: never empty
            (backs if "back" in words else fronts).setdefault(base, group)
    best: tuple[tuple[bool, int, int], Sample] | None = None
    for order, (piece, group) in enumerate(fronts.items()):
        words = (group.cls or "").split()
        record: Unit | Marker | None = (
            next((units[w] for w in words if w in units), None) if "marker" not in words
            else None)
        record = record or next((markers[w] for w in words if w in markers), None)
        if record is None:
            continue
        trim = group.items[0]
        assert isinstance(trim, Rect)  # a counter side's group opens with its trim
        size = trim.w
        back = backs.get(piece)
        found = Sample(record, size, group.items, back.items if back is not None else None)
        score = (isinstance(record, Unit), len(fields(game, found)), -order)
        if best is None or score > best[0]:
            best = (score, found)
    return best[1] if best is not None else None


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
            f = Field(union([merged[f.label].box, f.box]), f.label, f.below)
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
    return [Field(box, label)] if label else []


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
                             label, below=True))
    return out


def _named(game: Game, key: str) -> str | None:
    """The player's name of a field, with its Japanese name when the data gives one."""
    label = stat_label(game, key)
    named = game.style.stats.get(key)
    if label and named is not None and named.name_ja:
        return f"{label} {named.name_ja}"
    return label


def key_block(game: Game, pages: Iterable[Page | KitPage], width: float) -> Block | None:
    """The counter key as a block of ``width`` mm: the sample scaled up with its fields
    labelled (left and right of it, the factor line's values in a row under it), its back
    and the key's title beside it; None when the kit prints no counter."""
    found = sample(game, pages)
    if found is None:
        return None
    width -= 2 * FRAME
    scale = KEY_SIDE / found.size
    marked = fields(game, found)
    sides = [f for f in marked if not f.below]
    label_w = max([text_width(f.label, LABEL) for f in sides] + [12.0])
    left_x = label_w + 1.0
    cx = left_x + GAP
    top = 0.5
    items: list[Primitive] = [Group(found.front, dx=cx, dy=top, scale=scale, cls="key-sample")]
    right_x = cx + KEY_SIDE + GAP
    bottom = top + KEY_SIDE
    for column, x, anchor in (([f for f in sides if f.x < found.size / 2], left_x, "end"),
                              ([f for f in sides if f.x >= found.size / 2], right_x, "start")):
        ys = _spread([top + f.y * scale + LABEL * 0.35 for f in column], top + LABEL,
                     bottom)
        for f, y in zip(column, ys, strict=True):
            px = cx + (f.box.x0 - 0.3 if anchor == "end" else f.box.x1 + 0.3) * scale
            end = x + (1.0 if anchor == "end" else -1.0)
            items += _leader((end, y - LABEL * 0.35), (px, top + f.y * scale))
            items.append(Text(x, y, f.label, size=LABEL, anchor=anchor, cls="key-label"))
    under = [f for f in marked if f.below]
    if under:
        row = bottom + ROW
        widths = [text_width(f.label, LABEL) for f in under]
        span = sum(widths) + LABEL * 1.5 * (len(under) - 1)
        x = cx + KEY_SIDE / 2 - span / 2
        for f, w in zip(under, widths, strict=True):
            items += _leader((x + w / 2, row - LABEL), (cx + f.x * scale,
                                                        top + f.box.y1 * scale + 0.4))
            items.append(Text(x, row, f.label, size=LABEL, cls="key-label"))
            x += w + LABEL * 1.5
        bottom = row + LABEL * 0.3
    right = right_x + max([text_width(f.label, LABEL) for f in sides
                           if f.x >= found.size / 2] + [0.0]) + GAP
    items += _title_and_back(found, right, top, scale, width)
    height = bottom + FRAME
    panel = Rect(0, 0, width, height, PANEL, cls="key-panel")  # the key, boxed as on a play aid
    inside = Group(tuple(items), dx=FRAME, dy=FRAME)
    return Block((panel, inside), height + FRAME, id=KEY_ID, cls="counter-key")


def _title_and_back(found: Sample, x: float, top: float, scale: float, width: float
                    ) -> list[Primitive]:
    """The key's title at the top right of it, the sample's back under the title."""
    lines = ("How to read a counter", "カウンターの見方")
    items: list[Primitive] = [Text(x, top + TITLE * (1.0 + 1.25 * i), line, size=TITLE,
                                   bold=True, cls="key-title") for i, line in enumerate(lines)]
    back_side = KEY_SIDE * BACK
    y = top + TITLE * 3.0
    if found.back is not None and x + back_side <= width and y + back_side <= top + KEY_SIDE:
        items.append(Group(found.back, dx=x, dy=y, scale=scale * BACK, cls="key-sample back"))
        items.append(Text(x + back_side + 1.5, y + back_side / 2 + LABEL * 0.35, "back 裏面",
                          size=LABEL, cls="key-label"))
    return items


def _leader(start: tuple[float, float], end: tuple[float, float]) -> list[Primitive]:
    """A thin line from a label to its field, a dot on the field."""
    return [Line(*start, *end, LEADER, cls="key-leader"),
            Circle(*end, 0.5, DOT, cls="key-dot")]


def _spread(ys: list[float], low: float, high: float) -> list[float]:
    """Baselines at least ``STEP`` apart, each as near its wish as the order allows, none
    above ``low`` and, where the room allows, none under ``high``."""
    out: list[float] = []
    for y in ys:
        out.append(max(y, low, out[-1] + STEP) if out else max(y, low))
    for i in range(len(out) - 1, -1, -1):  # pushed back up from the bottom
        limit = high if i == len(out) - 1 else out[i + 1] - STEP
        out[i] = max(min(out[i], limit), low + i * STEP)
    return out
