"""Sheet imposition, separate from component layout.

``impose`` places same-size pieces (cards, counters) N-up on pages, butted
on a cut grid, with the outer bleed and crop marks outside the trim, and puts
their backs on the following page at the mirrored position for the chosen
duplex flip, moved by the back offset. ``tile`` splits a drawing larger than
the paper into overlapping tiles with registration marks and labels.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from ..engine.errors import BadInput
from .page import MARGIN, Paper
from .primitives import HAIRLINE, Circle, Group, Line, Primitive, Rect, Style, Text

CROP = 4.0  # crop mark length
CROP_GAP = 1.0  # gap between the bleed and a crop mark
REG = Style(width=0.15, stroke="#000000")


@dataclass(frozen=True)
class Piece:
    """One card or counter: trim size, front and (optional) back, in its own coordinates.

    Drawing may run up to ``bleed`` beyond the trim; it is clipped there.
    """

    id: str
    w: float
    h: float
    front: tuple[Primitive, ...]
    back: tuple[Primitive, ...] | None = None
    cls: str = "piece"


@dataclass(frozen=True)
class Sheet:
    """A page of fronts and, if any piece has a back, the page of backs after it."""

    paper: Paper
    front: tuple[Primitive, ...]
    back: tuple[Primitive, ...] | None
    count: int
    footer: str = "bottom"


@dataclass(frozen=True)
class Grid:
    """How pieces sit on a page: columns, rows, footer side and outer bleed per axis."""

    page: Paper
    cols: int
    rows: int
    footer: str
    x0: float
    y0: float
    bleed_x: float
    bleed_y: float
    spare_x: float
    spare_y: float


def grid_size(paper: Paper, w: float, h: float, bleed: float) -> tuple[int, int]:
    """(columns, rows) of butted w x h pieces on ``paper`` as it is oriented."""
    grid = best_grid(paper, w, h, bleed, orientations=False)
    return grid.cols, grid.rows


def _grid(page: Paper, side: str, w: float, h: float, bleed: float) -> Grid:
    x, y, aw, ah = page.content(side)
    cols, rows = max(0, int(aw // w)), max(0, int(ah // h))
    spare_x, spare_y = (aw - cols * w) / 2, (ah - rows * h) / 2
    return Grid(page, cols, rows, side, x + spare_x, y + spare_y, min(bleed, spare_x),
                min(bleed, spare_y), spare_x, spare_y)


def best_grid(paper: Paper, w: float, h: float, bleed: float,
              orientations: bool = True) -> Grid:
    """The orientation and footer side that hold the most pieces (portrait, bottom on ties)."""
    pages = (paper.portrait, paper.landscape) if orientations else (paper,)
    best = None
    for page in pages:
        for side in ("bottom", "right"):
            grid = _grid(page, side, w, h, bleed)
            key = (grid.cols * grid.rows, min(grid.bleed_x, grid.bleed_y))
            if best is None or key > best[0]:
                best = (key, grid)
    return best[1]


def impose(pieces: list[Piece], paper: Paper, *, bleed: float = 0.0, duplex: str = "long",
           back_offset: tuple[float, float] = (0.0, 0.0), what: str = "piece") -> list[Sheet]:
    """Place ``pieces`` on as many sheets as they need."""
    if not pieces:
        return []
    w, h = pieces[0].w, pieces[0].h
    grid = best_grid(paper, w, h, bleed)
    if grid.cols * grid.rows == 0:
        raise BadInput(f"{what} {pieces[0].id!r} ({w:g} x {h:g} mm) is larger than the "
                       f"printable area of {paper.label} paper")
    per_page = grid.cols * grid.rows
    return [_sheet(pieces[start:start + per_page], grid, duplex, back_offset)
            for start in range(0, len(pieces), per_page)]


def _sheet(batch, grid: Grid, duplex, back_offset) -> Sheet:
    w, h = batch[0].w, batch[0].h
    page, cols = grid.page, grid.cols
    fronts: list[Primitive] = []
    backs: list[Primitive] = []
    used_cols = min(cols, len(batch))
    used_rows = math.ceil(len(batch) / cols)
    mirror_cols = _mirrors_columns(page, duplex)
    for index, piece in enumerate(batch):
        row, col = divmod(index, cols)
        clip = _clip(col, row, used_cols, used_rows, w, h, grid.bleed_x, grid.bleed_y)
        x, y = grid.x0 + col * w, grid.y0 + row * h
        fronts.append(Group(piece.front, dx=x, dy=y, clip=clip, id=piece.id, cls=piece.cls))
        if piece.back is not None:
            bx, by = _back_position(page, x, y, w, h, mirror_cols)
            bx, by = bx + back_offset[0], by + back_offset[1]
            back_clip = (-grid.bleed_x, -grid.bleed_y, w + 2 * grid.bleed_x,
                         h + 2 * grid.bleed_y)
            backs.append(Group(piece.back, dx=bx, dy=by, clip=back_clip,
                               id=f"{piece.id}-back", cls=f"{piece.cls} back"))
    fronts.extend(crop_marks(grid, used_cols, used_rows, w, h))
    has_back = any(p.back is not None for p in batch)
    return Sheet(page, tuple(fronts), tuple(backs) if has_back else None, len(batch),
                 grid.footer)


def _mirrors_columns(page: Paper, duplex: str) -> bool:
    """True when the back page mirrors left-right (long-edge flip of a portrait page)."""
    if duplex not in ("long", "short"):
        raise BadInput(f"unknown duplex {duplex!r} (allowed: long, short)")
    portrait = page.height >= page.width
    return (duplex == "long") == portrait


def _back_position(page: Paper, x, y, w, h, mirror_cols: bool) -> tuple[float, float]:
    if mirror_cols:
        return page.width - x - w, y
    return x, page.height - y - h


def _clip(col, row, cols, rows, w, h, bleed_x, bleed_y) -> tuple[float, float, float, float]:
    left = bleed_x if col == 0 else 0.0
    top = bleed_y if row == 0 else 0.0
    right = bleed_x if col == cols - 1 else 0.0
    bottom = bleed_y if row == rows - 1 else 0.0
    return (-left, -top, w + left + right, h + top + bottom)


def crop_marks(grid: Grid, cols: int, rows: int, w: float, h: float) -> list[Primitive]:
    """Short lines on every cut line, outside the trims: beyond the bleed where there is
    room, otherwise over the outer bleed band (still outside the trim)."""
    marks: list[Primitive] = []
    x0, y0 = grid.x0, grid.y0
    y_from, y_len = _mark_band(grid.bleed_y, grid.spare_y)
    x_from, x_len = _mark_band(grid.bleed_x, grid.spare_x)
    top, bottom = y0 - y_from, y0 + rows * h + y_from
    left, right = x0 - x_from, x0 + cols * w + x_from
    for c in range(cols + 1):
        x = x0 + c * w
        marks.append(Line(x, top - y_len, x, top, HAIRLINE, cls="crop-mark"))
        marks.append(Line(x, bottom, x, bottom + y_len, HAIRLINE, cls="crop-mark"))
    for r in range(rows + 1):
        y = y0 + r * h
        marks.append(Line(left - x_len, y, left, y, HAIRLINE, cls="crop-mark"))
        marks.append(Line(right, y, right + x_len, y, HAIRLINE, cls="crop-mark"))
    return marks


def _mark_band(bleed: float, spare: float) -> tuple[float, float]:
    """(distance from the trim where a mark starts, its length) within ``spare`` mm."""
    if spare >= bleed + CROP_GAP + 2.0:
        start = bleed + CROP_GAP
        return start, min(CROP, spare - start)
    return 0.3, max(spare - 0.3, 0.5)


# --- tiling -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Tile:
    label: str
    x: float
    y: float
    w: float
    h: float
    page: Paper
    items: tuple[Primitive, ...]


def tile(drawing: tuple[Primitive, ...], width: float, height: float, paper: Paper,
         overlap: float = 10.0, name: str = "map") -> list[Tile]:
    """Split a ``width`` x ``height`` drawing into labelled tiles that overlap by ``overlap``."""
    page = _tile_paper(paper, width, height)
    _x, _y, aw, ah = page.content()
    aw, ah = aw - 2 * CROP, ah - 2 * CROP - 4.0  # room for registration marks and label
    cols = 1 if width <= aw else math.ceil((width - overlap) / (aw - overlap))
    rows = 1 if height <= ah else math.ceil((height - overlap) / (ah - overlap))
    step_x = 0 if cols == 1 else (width - aw) / (cols - 1)
    step_y = 0 if rows == 1 else (height - ah) / (rows - 1)
    tw, th = min(aw, width), min(ah, height)
    tiles = []
    for r in range(rows):
        for c in range(cols):
            label = f"{_row_letter(r)}{c + 1}"
            tx, ty = c * step_x, r * step_y
            tiles.append(Tile(label, tx, ty, tw, th, page,
                              _tile_items(drawing, label, tx, ty, tw, th, page, name)))
    return tiles


def _tile_paper(paper: Paper, width: float, height: float) -> Paper:
    wide = width > height
    return paper.landscape if wide else paper.portrait


def _row_letter(index: int) -> str:
    return chr(ord("A") + index) if index < 26 else f"R{index + 1}"


def _tile_items(drawing, label, tx, ty, tw, th, page: Paper, name) -> tuple[Primitive, ...]:
    x0 = MARGIN + CROP
    y0 = MARGIN + CROP + 4.0
    content = Group(tuple(drawing), dx=x0 - tx, dy=y0 - ty, clip=(tx, ty, tw, th),
                    id=f"tile-{label}", cls=f"tile {name}")
    items: list[Primitive] = [content, Rect(x0, y0, tw, th, HAIRLINE, cls="tile-edge")]
    for cx, cy in ((x0, y0), (x0 + tw, y0), (x0, y0 + th), (x0 + tw, y0 + th)):
        items.extend(registration_mark(cx, cy))
    items.append(Text(x0, y0 - 1.5, f"Tile {label} of {name} — overlap glued under the "
                      "neighbour to the right and below", size=2.6, cls="tile-label"))
    return tuple(items)


def registration_mark(x: float, y: float, r: float = 2.0) -> list[Primitive]:
    """A circle with a cross: align these on overlapping tiles."""
    return [Circle(x, y, r, REG, cls="registration"),
            Line(x - r - 1, y, x + r + 1, y, REG, cls="registration"),
            Line(x, y - r - 1, x, y + r + 1, REG, cls="registration")]


def assembly_items(tiles: list[Tile], width: float, height: float, page: Paper,
                   name: str) -> tuple[Primitive, ...]:
    """An assembly page: the map outline with every tile drawn and labelled."""
    x, y, aw, ah = page.content()
    ah -= 12
    scale = min(aw / width, ah / height)
    ox, oy = x + (aw - width * scale) / 2, y + 12
    items: list[Primitive] = [Text(x, y + 5, f"Assembly of {name}: {len(tiles)} tiles, "
                                   f"{width:.0f} x {height:.0f} mm, 10 mm overlap", size=4)]
    items.append(Rect(ox, oy, width * scale, height * scale, Style(width=0.4), cls="assembly"))
    for t in tiles:
        items.append(Rect(ox + t.x * scale, oy + t.y * scale, t.w * scale, t.h * scale,
                          Style(fill="#dde8f5", stroke="#204080", width=0.3, opacity=0.5),
                          id=f"assembly-{t.label}", cls="assembly-tile"))
        items.append(Text(ox + (t.x + t.w / 2) * scale, oy + (t.y + t.h / 2) * scale,
                          t.label, size=6, anchor="middle", bold=True))
    return tuple(items)


def calibration_items(page: Paper, back: bool) -> tuple[Primitive, ...]:
    """A duplex calibration page: verniers whose front and back scales meet when aligned.

    Print it duplex, hold it to the light: the reading where the front and back
    lines coincide is the misregistration in 0.5 mm steps, the value for
    ``--back-offset``.
    """
    cx, cy = page.width / 2, page.height / 2
    items: list[Primitive] = [Text(cx, MARGIN + 10, "Duplex calibration — " +
                                   ("back" if back else "front"), size=6, anchor="middle",
                                   bold=True)]
    items.append(Text(cx, MARGIN + 18, "Hold the printed sheet to the light. Where a front and "
                      "a back line coincide, read the offset (mm): --back-offset X,Y.",
                      size=2.8, anchor="middle"))
    step = 2.0 if not back else 1.8  # vernier: coinciding line i reads i x 0.2 mm
    for i in range(-10, 11):
        x = cx + i * step
        length = 8 if i % 5 == 0 else 5
        items.append(Line(x, cy - 30, x, cy - 30 + (length if not back else -length),
                          HAIRLINE, cls="vernier-x"))
        y = cy + i * step
        items.append(Line(cx - 30, y, cx - 30 + (length if not back else -length), y,
                          HAIRLINE, cls="vernier-y"))
        if i % 5 == 0 and not back:
            items.append(Text(x, cy - 33, f"{i * 0.2:+.1f}" if i else "0", size=2,
                              anchor="middle"))
    items.append(Circle(cx, cy, 20, Style(width=0.2), cls="calibration-circle"))
    items.append(Line(cx - 25, cy, cx + 25, cy, HAIRLINE))
    items.append(Line(cx, cy - 25, cx, cy + 25, HAIRLINE))
    return tuple(items)
