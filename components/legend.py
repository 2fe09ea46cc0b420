"""A map's legend as a block: a title block (the map's title, a line under it, a north
arrow at its right), then every entry (a swatch and its words) in as many columns as the
width allows. The tiler (``impose.tile``) chooses the width, so that the legend lies whole
on one tile; each entry is one group (class ``legend-item``). A legend narrower than
``NARROW`` (a column beside a map) stacks instead: the north arrow under the title, each
entry's words under its swatch.
"""

from __future__ import annotations

from collections.abc import Sequence

from .fonts import wrap
from .primitives import Group, Polygon, Primitive, Rect, Style, Text

#: An entry: its swatch drawn in a SWATCH_W x SWATCH_H mm box at the origin, and its words.
Entry = tuple[Sequence[Primitive], str]
SWATCH_W, SWATCH_H = 10.0, 6.0
TEXT = 2.5  # mm em height of an entry's words (7.1 pt)
TITLE = 3.4
COLUMN = 75.0  # the least width of a column of entries
PAD = 3.0
ROW = 8.0
SUBTITLE = 2.6
NORTH_W = 12.0  # the room the north arrow takes at the title block's right
NARROW = 60.0  # mm inside the frame: under this, the north arrow and words go underneath
NARROW_TYPE = 0.88  # a narrow legend's type sizes, as a share of a wide one's (TEXT: 5.5 pt)


def legend_block(title: str, entries: Sequence[Entry], width: float, notes: Sequence[str] = (),
                 subtitle: str = "", north: bool = True
                 ) -> tuple[tuple[Primitive, ...], float]:
    """(items, height) of a framed legend ``width`` mm wide: its title block (``title``,
    ``subtitle`` under it, a north arrow at the right unless ``north`` is False, a rule
    under them), then the entries; ``notes`` are paragraphs across its whole width after
    the entries."""
    inner = width - 2 * PAD
    narrow = inner < NARROW
    k = NARROW_TYPE if narrow else 1.0
    items: list[Primitive] = []
    y = PAD
    room = inner - (NORTH_W if north and not narrow else 0.0)
    for line in wrap(title, TITLE * k, room):
        y += TITLE * k
        items.append(Text(PAD, y, line, size=TITLE * k, bold=True, cls="legend-title"))
        y += TITLE * k * 0.25
    for line in wrap(subtitle, SUBTITLE * k, room) if subtitle else ():
        y += SUBTITLE * k * 1.2
        items.append(Text(PAD, y, line, size=SUBTITLE * k, fill="#444444",
                          cls="legend-subtitle"))
    if north and narrow:
        items.append(north_arrow(width / 2, y + 1.0))
        y += 1.0 + NORTH_H
    elif north:
        items.append(north_arrow(width - PAD - NORTH_W / 2, PAD))
        y = max(y, PAD + NORTH_H)
    y += 1.2
    items.append(Rect(PAD, y, inner, 0.3, Style(fill="#333333", stroke=None),
                      cls="title-rule"))
    y += 2.5
    for swatch, text in entries if narrow else ():
        lines = wrap(text, TEXT * k, inner)
        items.append(_stacked(swatch, lines, PAD, y, TEXT * k))
        y += SWATCH_H + 0.8 + len(lines) * TEXT * k * 1.22 + 1.2
    columns = max(1, min(3, int(inner // COLUMN)))
    col_w = inner / columns
    for start in range(0, 0 if narrow else len(entries), columns):
        row = entries[start:start + columns]
        texts = [wrap(text, TEXT, col_w - SWATCH_W - 5.0) for _swatch, text in row]
        for c, ((swatch, _text), lines) in enumerate(zip(row, texts, strict=True)):
            items.append(_entry(swatch, lines, PAD + c * col_w, y))
        y += max(ROW, 3.0 + max(len(t) for t in texts) * TEXT * 1.25)
    for note in notes:
        for line in wrap(note, TEXT, inner):
            y += TEXT * 1.25
            items.append(Text(PAD, y, line, size=TEXT, cls="legend-note"))
        y += 2.0
    height = y + PAD - 2.0
    frame = Rect(0, 0, width, height, Style(fill="#ffffff", stroke="#333333", width=0.4),
                 cls="legend-frame")
    return (frame, *items), height


NORTH_H = 11.0  # mm: the north arrow's height, its N included


def north_arrow(cx: float, top: float) -> Group:
    """A north arrow: an N over a needle pointing up (its left half dark, its right half
    white), centred on ``cx``, ``NORTH_H`` mm tall from ``top``."""
    tip, base, half = top + 4.2, top + NORTH_H, 2.0
    mid = base - 1.6
    ink = Style(fill="#222222", stroke="#222222", width=0.25)
    paper = Style(fill="#ffffff", stroke="#222222", width=0.25)
    return Group((Text(cx, top + 3.2, "N", size=3.4, anchor="middle", bold=True,
                       cls="north-letter"),
                  Polygon(((cx, tip), (cx - half, base), (cx, mid)), ink),
                  Polygon(((cx, tip), (cx + half, base), (cx, mid)), paper)),
                 cls="north-arrow")


def _stacked(swatch: Sequence[Primitive], lines: list[str], x: float, y: float,
             size: float) -> Group:
    """An entry of a narrow legend: its swatch, its words (``size`` mm) under it."""
    words = [Text(0, SWATCH_H + 0.8 + size * 0.9 + j * size * 1.22, line, size=size,
                  cls="legend-text") for j, line in enumerate(lines)]
    return Group((Group(tuple(swatch), cls="legend-swatch"), *words), dx=x, dy=y,
                 cls="legend-item")


def _entry(swatch: Sequence[Primitive], lines: list[str], x: float, y: float) -> Group:
    words = [Text(SWATCH_W + 3.0, 3.8 + j * TEXT * 1.25, line, size=TEXT, cls="legend-text")
             for j, line in enumerate(lines)]
    return Group((Group(tuple(swatch), cls="legend-swatch"), *words), dx=x, dy=y,
                 cls="legend-item")
