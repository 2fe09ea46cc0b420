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


def grid_size(paper: Paper, w: float, h: float, bleed: float) -> tuple[int, int]:
    """(columns, rows) of butted w x h pieces that fit the content area with the bleed."""
    _x, _y, aw, ah = paper.content()
    cols = int((aw - 2 * bleed) // w) if aw > 2 * bleed else 0
    rows = int((ah - 2 * bleed) // h) if ah > 2 * bleed else 0
    return cols, rows


def best_paper(paper: Paper, w: float, h: float, bleed: float) -> Paper:
    """Portrait or landscape, whichever holds more pieces (portrait on a tie)."""
    portrait = paper.portrait
    landscape = paper.landscape
    pc, pr = grid_size(portrait, w, h, bleed)
    lc, lr = grid_size(landscape, w, h, bleed)
    return landscape if lc * lr > pc * pr else portrait


def impose(pieces: list[Piece], paper: Paper, *, bleed: float = 0.0, duplex: str = "long",
           back_offset: tuple[float, float] = (0.0, 0.0), what: str = "piece") -> list[Sheet]:
    """Place ``pieces`` on as many sheets as they need."""
    if not pieces:
        return []
    w, h = pieces[0].w, pieces[0].h
    page = best_paper(paper, w, h, bleed)
    cols, rows = grid_size(page, w, h, bleed)
    if cols * rows == 0:
        raise BadInput(f"{what} {pieces[0].id!r} ({w:g} x {h:g} mm) is larger than the "
                       f"printable area of {paper.label} paper")
    per_page = cols * rows
    sheets = []
    for start in range(0, len(pieces), per_page):
        batch = pieces[start:start + per_page]
        sheets.append(_sheet(batch, page, cols, rows, bleed, duplex, back_offset))
    return sheets


def _origin(page: Paper, cols: int, rows: int, w: float, h: float) -> tuple[float, float]:
    x, y, aw, ah = page.content()
    return x + (aw - cols * w) / 2, y + (ah - rows * h) / 2


def _sheet(batch, page: Paper, cols, rows, bleed, duplex, back_offset) -> Sheet:
    w, h = batch[0].w, batch[0].h
    x0, y0 = _origin(page, cols, rows, w, h)
    fronts: list[Primitive] = []
    backs: list[Primitive] = []
    used_cols = min(cols, len(batch))
    used_rows = math.ceil(len(batch) / cols)
    mirror_cols = _mirrors_columns(page, duplex)
    for index, piece in enumerate(batch):
        row, col = divmod(index, cols)
        clip = _clip(col, row, used_cols, used_rows, w, h, bleed)
        x, y = x0 + col * w, y0 + row * h
        fronts.append(Group(piece.front, dx=x, dy=y, clip=clip, id=piece.id, cls=piece.cls))
        if piece.back is not None:
            bx, by = _back_position(page, x, y, w, h, mirror_cols)
            bx, by = bx + back_offset[0], by + back_offset[1]
            back_clip = (0.0, 0.0, w, h) if bleed == 0 else (-bleed, -bleed, w + 2 * bleed,
                                                                h + 2 * bleed)
            backs.append(Group(piece.back, dx=bx, dy=by, clip=back_clip,
                               id=f"{piece.id}-back", cls=f"{piece.cls} back"))
    fronts.extend(crop_marks(x0, y0, used_cols, used_rows, w, h, bleed))
    has_back = any(p.back is not None for p in batch)
    return Sheet(page, tuple(fronts), tuple(backs) if has_back else None, len(batch))


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


def _clip(col, row, cols, rows, w, h, bleed) -> tuple[float, float, float, float]:
    left = bleed if col == 0 else 0.0
    top = bleed if row == 0 else 0.0
    right = bleed if col == cols - 1 else 0.0
    bottom = bleed if row == rows - 1 else 0.0
    return (-left, -top, w + left + right, h + top + bottom)


def crop_marks(x0, y0, cols, rows, w, h, bleed) -> list[Primitive]:
    """Short lines on every cut line, outside the block of trims and its bleed."""
    marks: list[Primitive] = []
    out = bleed + CROP_GAP
    top, bottom = y0 - out, y0 + rows * h + out
    left, right = x0 - out, x0 + cols * w + out
    for c in range(cols + 1):
        x = x0 + c * w
        marks.append(Line(x, top - CROP, x, top, HAIRLINE, cls="crop-mark"))
        marks.append(Line(x, bottom, x, bottom + CROP, HAIRLINE, cls="crop-mark"))
    for r in range(rows + 1):
        y = y0 + r * h
        marks.append(Line(left - CROP, y, left, y, HAIRLINE, cls="crop-mark"))
        marks.append(Line(right, y, right + CROP, y, HAIRLINE, cls="crop-mark"))
    return marks


def crop_space(bleed: float) -> float:
    """How far crop marks reach beyond the trim."""
    return bleed + CROP_GAP + CROP


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
