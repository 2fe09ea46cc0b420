"""Tracks, displays, tables, sheets, point maps and the assumed-values list.

Each function lays a component out as primitives in mm inside a given
width; a ``Flow`` stacks such blocks down pages. The tables printed here are
the engine's tables: both read the same YAML records.
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

from ..engine.model import Display, Game, PointMap, Sheet, Table, Track
from ..engine.query import show_value
from ..output import rules_text
from ..verify.data import records, walk_values
from .fonts import text_width, wrap
from .marks import DAGGER, dagger
from .pieces import fit_text
from .primitives import THIN, Circle, Group, Line, Polygon, Primitive, Rect, Style, Text

HEAD = Style(fill="#e8e8e8", stroke="#555555", width=0.2)
CELL = Style(fill=None, stroke="#777777", width=0.15)


@dataclass(frozen=True)
class Block:
    """A laid-out block: primitives at (0, 0) and its height."""

    items: tuple[Primitive, ...]
    height: float
    id: str | None = None
    cls: str = "block"


def heading(text: str, width: float, size: float = 4.2) -> Block:
    return Block((Text(0, size, text, size=fit_text(text, size, width), bold=True),), size * 1.6)


def paragraph(text: str, width: float, size: float = 2.8) -> Block:
    lines = wrap(text, size, width)
    return Block(tuple(Text(0, (i + 1) * size * 1.3, line, size=size)
                       for i, line in enumerate(lines)), len(lines) * size * 1.3 + size * 0.5)


def text_lines(text: str, x: float, y: float, size: float, width: float, leading: float = 1.3,
               **kw) -> tuple[list[Primitive], float]:
    """Lines of ``text`` wrapped to ``width`` from the top ``y``, ``leading`` sizes apart;
    the Text items (``kw`` passed on) and the height used."""
    lines = wrap(text, size, width)
    step = size * leading
    items: list[Primitive] = [Text(x, y + size + i * step, line, size=size, **kw)
                              for i, line in enumerate(lines)]
    return items, len(lines) * step + size * 0.3


def _cell_text(value) -> str:
    """A table cell; an empty key condition matches anything."""
    return show_value(value, none="any")


def table_block(table: Table, width: float) -> Block:
    """A table as a grid: keys then results, one row per table row."""
    columns = [*table.key_ids, *table.results]
    rows = [[_cell_text(table.conditions(r).get(k)) for k in table.key_ids] +
            [_cell_text(table.result(r).get(k)) + dagger(r.is_assumed)
             for k in table.results] for r in table.rows]
    size = 2.6
    col_w = [max(text_width(str(c), size) for c in [h, *(row[i] for row in rows)]) + 2.4
             for i, h in enumerate(columns)]
    scale = min(1.0, width / sum(col_w)) if col_w else 1.0
    size *= max(scale, 0.5)
    col_w = [w * scale for w in col_w]
    row_h = size * 1.6
    title = f"{table.label}  [{rules_text(table.rule)}]" + (f"  dice: {table.dice}"
                                                            if table.dice else "")
    items: list[Primitive] = [Text(0, 3.2, title, size=fit_text(title, 3.2, width), bold=True)]
    y = 5.0
    items.extend(_grid_row(columns, col_w, y, row_h, size, HEAD))
    y += row_h
    for row in rows:
        items.extend(_grid_row(row, col_w, y, row_h, size, CELL))
        y += row_h
    for modifier in table.modifiers:
        note = f"modifier: {modifier.text or modifier.id}"
        items.append(Text(0, y + size * 1.3, note, size=fit_text(note, size, width)))
        y += size * 1.5
    return Block(tuple(items), y + 3, id=f"table-{table.id}", cls="table")


def _grid_row(cells, widths, y, h, size, style) -> list[Primitive]:
    out: list[Primitive] = []
    x = 0.0
    for text, w in zip(cells, widths, strict=True):
        out.append(Rect(x, y, w, h, style))
        out.append(Text(x + 1.0, y + h * 0.72, str(text), size=fit_text(str(text), size, w - 1.5)))
        x += w
    return out


def track_block(track: Track, width: float) -> Block:
    """A track: one box per value, the start box marked, labels under the boxes."""
    n = len(track.values)
    box = min(14.0, width / max(n, 1))
    items: list[Primitive] = [Text(0, 3.2, f"{track.label}  [{rules_text(track.rule)}]", size=3.2,
                                   bold=True)]
    for i, value in enumerate(track.values):
        x = i * box
        start = str(value) == str(track.start)
        style = Style(fill="#fff3c4" if start else "#ffffff", stroke="#333333", width=0.3)
        items.append(Rect(x, 5, box, box, style, id=f"track-{track.id}-{value}", cls="track-box"))
        items.append(Text(x + box / 2, 5 + box * 0.62, str(value), size=box * 0.38,
                          anchor="middle", bold=True))
        label = track.labels.get(str(value))
        if label:
            items.append(Text(x + box / 2, 5 + box + 3, label,
                              size=fit_text(label, 2.2, box), anchor="middle"))
    return Block(tuple(items), box + 11, id=f"track-{track.id}", cls="track")


def display_block(display: Display, width: float) -> Block:
    """A display's boxes in a flow, capacities printed, arrows listed underneath."""
    bw, bh, gap = 34.0, 18.0, 3.0
    per_row = max(1, int((width + gap) // (bw + gap)))
    items: list[Primitive] = [Text(0, 3.6, display.label, size=3.6, bold=True)]
    centres = {}
    for i, box in enumerate(display.boxes):
        r, c = divmod(i, per_row)
        x, y = c * (bw + gap), 6 + r * (bh + gap)
        centres[box.id] = (x + bw / 2, y + bh / 2)
        items.append(Rect(x, y, bw, bh, THIN, r=1.5, id=f"box-{display.id}-{box.id}",
                          cls=f"box {box.kind or ''}".strip()))
        items.append(Text(x + 1.5, y + 4, box.name or box.id, size=fit_text(box.name or box.id,
                                                                           2.6, bw - 3)))
        if box.name_ja:
            items.append(Text(x + 1.5, y + 8, box.name_ja, size=fit_text(box.name_ja, 2.6, bw - 3)))
        cap = "no limit" if box.capacity is None else f"capacity {box.capacity}"
        if box.accepts:
            cap += f" · {', '.join(box.accepts)} only"
        items.append(Text(x + 1.5, y + bh - 2, cap, size=fit_text(cap, 2.2, bw - 3),
                          fill="#555555"))
    rows = (len(display.boxes) + per_row - 1) // per_row
    y = 6 + rows * (bh + gap)
    for arrow in display.arrows:
        a, b = centres.get(arrow.from_), centres.get(arrow.to)
        if a and b:
            items.extend(_arrow(a, b))
        text = f"{arrow.from_} → {arrow.to}  [{rules_text(arrow.rule)}]"
        items.append(Text(0, y + 3, text, size=fit_text(text, 2.4, width)))
        y += 3.4
    return Block(tuple(items), y + 3, id=f"display-{display.id}", cls="display")


def _arrow(a, b) -> list[Primitive]:
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


def sheet_blocks(game: Game, sheet: Sheet, width: float) -> Iterator[Block]:
    yield heading(f"{sheet.label}  [{rules_text(sheet.rule)}]", width, 5.0)
    for section in sheet.sections:
        title = " ".join(t for t in (section.title, section.title_ja) if t)
        if title:
            yield heading(title, width, 3.6)
        for line in section.lines:
            yield paragraph(f"• {line}", width)
    for table_id in sheet.tables:
        yield table_block(game.table(table_id), width)


def point_map_drawing(point_map: PointMap) -> tuple[tuple[Primitive, ...], float, float]:
    """A point-to-point map: routes as lines, points as circles with names."""
    w = point_map.width_mm or 500.0
    h = point_map.height_mm or 320.0
    pos = {p.id: (10 + (p.x if p.x is not None else 0.5) * (w - 20),
                  10 + (p.y if p.y is not None else 0.5) * (h - 20)) for p in point_map.points}
    items: list[Primitive] = [Rect(0, 0, w, h, Style(fill="#f4f8fc", width=0.5), cls="map-border")]
    for route in point_map.routes:
        (x1, y1), (x2, y2) = pos[route.a], pos[route.b]
        style = Style(stroke="#7a8ca0", width=0.35,
                      dash=(1.5, 1.0) if route.is_assumed else ())
        items.append(Line(x1, y1, x2, y2, style, cls=f"route {route.kind or ''}".strip()))
    for point in point_map.points:
        x, y = pos[point.id]
        sea = (point.kind or "").startswith("sea")
        style = Style(fill="#d6e6f5" if sea else "#f0e6c8", stroke="#333333", width=0.3)
        items.append(Circle(x, y, 2.6, style, id=f"point-{point.id}",
                            cls=f"point {point.kind or ''}".strip()))
        label = point.name or point.id
        items.append(Text(x, y + 5.5, label, size=2.2, anchor="middle", cls="point-label"))
        extra = _point_extra(point)
        if extra:
            items.append(Text(x, y + 8.3, extra, size=1.9, anchor="middle", fill="#444444"))
    return tuple(items), w, h


def _point_extra(point) -> str:
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


def flow(blocks, content: tuple[float, float, float, float]) -> list[tuple[Primitive, ...]]:
    """Stack blocks down pages; a block taller than a page gets a page to itself."""
    x, y0, _w, h = content
    pages: list[list[Primitive]] = [[]]
    y = y0
    for block in blocks:
        if y > y0 and y + block.height > y0 + h:
            pages.append([])
            y = y0
        pages[-1].append(Group(block.items, dx=x, dy=y, id=block.id, cls=block.cls))
        y += block.height + 2.0
    return [tuple(p) for p in pages if p]

