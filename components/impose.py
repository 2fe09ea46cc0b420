"""Sheet imposition, separate from component layout.

``impose`` places same-size pieces (cards, counters) N-up on pages, butted
on a cut grid, with the outer bleed and crop marks outside the trim, and puts
their backs on the following page at the mirrored position for the chosen
duplex flip, moved by the back offset. ``tile`` splits a drawing larger than
the paper into overlapping tiles with registration marks and labels.
"""

from __future__ import annotations

import math
from bisect import bisect_left, bisect_right
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from itertools import accumulate

from ..engine.errors import BadInput
from ..engine.looks import MIN_PT
from .fonts import text_width, wrap
from .legibility import scaled
from .page import MARGIN, Paper
from .primitives import (
    HAIRLINE,
    Circle,
    Group,
    Line,
    Polygon,
    Primitive,
    Rect,
    Style,
    Text,
)
from .style import PT

CROP = 4.0  # crop mark length
CROP_GAP = 1.0  # gap between the bleed and a crop mark
REG = Style(width=0.15, stroke="#000000")
#: The least text size on a page in mm of em height (engine.looks.MIN_PT, 4.5 pt).
MIN_TEXT = MIN_PT * PT


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
    #: What a one-sided piece shows on its back when its sheet prints backs (its side's
    #: colour and its name), so that no cut piece has a white face.
    plain_back: tuple[Primitive, ...] | None = None

    def __post_init__(self) -> None:
        if COUNTER in self.cls.split():  # a counter's texts on the type scale, whoever drew it
            object.__setattr__(self, "front", scaled(self.front))
            if self.back is not None:
                object.__setattr__(self, "back", scaled(self.back))


#: The class word of a counter piece (its texts are set on the counters' type scale).
COUNTER = "counter"


@dataclass(frozen=True)
class Drawing:
    """A whole drawing (a map) as the kit tiles it: its items at full size, in mm."""

    name: str
    items: tuple[Primitive, ...]
    width: float
    height: float
    seams_x: tuple[float, ...] = ()  # where the tiles meet (map mm), across and down
    seams_y: tuple[float, ...] = ()


@dataclass
class Recording:
    """What the kit imposed and tiled while recording: every piece (with the ``what`` of
    its sheet: counter, card) and every drawing, in kit order."""

    pieces: list[tuple[str, Piece]] = field(default_factory=list)
    drawings: list[Drawing] = field(default_factory=list)


_RECORDING: ContextVar[Recording | None] = ContextVar("warpress_recording", default=None)


@contextmanager
def recording() -> Iterator[Recording]:
    """Record the pieces ``impose`` places and the drawings ``tile`` splits while the kit is
    laid out, so that exports (piece images, VASSAL, Tabletop Simulator) draw exactly the
    kit's own descriptions."""
    seen = Recording()
    token = _RECORDING.set(seen)
    try:
        yield seen
    finally:
        _RECORDING.reset(token)


@dataclass(frozen=True)
class Sheet:
    """A page of fronts and, if any piece has a back, the page of backs after it."""

    paper: Paper
    front: tuple[Primitive, ...]
    back: tuple[Primitive, ...] | None
    count: int
    footer: str = "bottom"
    bottom: float = 0.0  # where its lowest row of pieces ends (their bleed included), mm


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


#: Duplex modes: how the printer flips the sheet (long or short edge), or ``fold``: no
#: duplex, each piece's back printed beside its front, mirrored across the sheet's middle,
#: for the player to fold on that line and glue the halves back to back.
DUPLEX_MODES = ("long", "short", "fold")
#: Room (mm) left free each side of the fold line, and the band above the pieces for its
#: label.
FOLD_GAP, FOLD_BAND = 3.0, 6.0
FOLD = Style(width=0.3, stroke="#404040", dash=(3.0, 1.5))


def _area(page: Paper, side: str, fold: bool) -> tuple[float, float, float, float]:
    """(x, y, width, height) the fronts may take: the content, or with ``fold`` its left
    half short of the fold line, under the fold label's band."""
    x, y, aw, ah = page.content(side)
    if fold:
        return x, y + FOLD_BAND, page.width / 2 - FOLD_GAP - x, ah - FOLD_BAND
    return x, y, aw, ah


def _grid(page: Paper, side: str, w: float, h: float, bleed: float,
          fold: bool = False) -> Grid:
    x, y, aw, ah = _area(page, side, fold)
    cols, rows = max(0, int(aw // w)), max(0, int(ah // h))
    spare_x, spare_y = (aw - cols * w) / 2, (ah - rows * h) / 2
    return Grid(page, cols, rows, side, x + spare_x, y + spare_y, min(bleed, spare_x),
                min(bleed, spare_y), spare_x, spare_y)


def best_grid(paper: Paper, w: float, h: float, bleed: float,
              orientations: bool = True, fold: bool = False) -> Grid:
    """The orientation and footer side that hold the most pieces (portrait, bottom on ties);
    with ``fold``, the footer at the bottom (the backs take the right half)."""
    pages = (paper.portrait, paper.landscape) if orientations else (paper,)
    best: tuple[tuple[int, float], Grid] | None = None
    for page in pages:
        for side in ("bottom",) if fold else ("bottom", "right"):
            grid = _grid(page, side, w, h, bleed, fold)
            key = (grid.cols * grid.rows, min(grid.bleed_x, grid.bleed_y))
            if best is None or key > best[0]:
                best = (key, grid)
    assert best is not None  # one page and one footer side at least were tried
    return best[1]


def impose(pieces: list[Piece], paper: Paper, *, bleed: float = 0.0, duplex: str = "long",
           back_offset: tuple[float, float] = (0.0, 0.0), what: str = "piece") -> list[Sheet]:
    """Place ``pieces`` on as many sheets as they need (``fold``: those with backs on the
    folded sheets, then those without on whole ones)."""
    if not pieces:
        return []
    if (seen := _RECORDING.get()) is not None:
        seen.pieces.extend((what, piece) for piece in pieces)
    if duplex != "fold":
        return _imposed(pieces, paper, bleed, duplex, back_offset, what)
    return [*_imposed([p for p in pieces if p.back is not None], paper, bleed, duplex,
                      back_offset, what),
            *_imposed([p for p in pieces if p.back is None], paper, bleed, duplex,
                      back_offset, what)]


def _imposed(pieces: list[Piece], paper: Paper, bleed: float, duplex: str,
             back_offset: tuple[float, float], what: str) -> list[Sheet]:
    if not pieces:
        return []
    w, h = pieces[0].w, pieces[0].h
    grid = best_grid(paper, w, h, bleed, fold=_folds(pieces, duplex))
    if grid.cols * grid.rows == 0:
        raise BadInput(f"{what} {pieces[0].id!r} ({w:g} x {h:g} mm) is larger than the "
                       f"printable area of {paper.label} paper")
    per_page = _even(len(pieces), grid.cols * grid.rows)
    return [_sheet(pieces[start:start + per_page], grid, duplex, back_offset)
            for start in range(0, len(pieces), per_page)]


def _folds(pieces: list[Piece], duplex: str) -> bool:
    """True when the pieces' backs print beside their fronts (``fold``)."""
    return duplex == "fold" and any(p.back is not None for p in pieces)


#: A size's last sheet under this share of a full one shares another size's last sheet.
SHORT_TAIL = 0.1
#: A size's last sheet under this share of a full one (and not short enough to share) has
#: the size's pieces spread evenly over its sheets: no sheet printed nearly empty.
EVEN_TAIL = 0.25


def _even(count: int, per_page: int) -> int:
    """Pieces a sheet takes: all it holds, or an even share when the last sheet would hold
    from ``SHORT_TAIL`` to ``EVEN_TAIL`` of a full one."""
    sheets = -(-count // per_page)
    tail = count - (sheets - 1) * per_page
    if sheets > 1 and SHORT_TAIL * per_page <= tail < EVEN_TAIL * per_page:
        return -(-count // sheets)
    return per_page


def impose_sizes(groups: list[list[Piece]], paper: Paper, *, bleed: float = 0.0,
                 duplex: str = "long", back_offset: tuple[float, float] = (0.0, 0.0),
                 what: str = "piece") -> list[list[Sheet]]:
    """Each group of same-size pieces imposed on its own sheets (``impose``), except that a
    group whose last sheet would be under ``SHORT_TAIL`` full puts those pieces in the free
    rows under another group's last sheet when they fit there: a player does not print a
    whole sheet for a piece or two."""
    laid = [impose(group, paper, bleed=bleed, duplex=duplex, back_offset=back_offset,
                   what=what) for group in groups]
    for i, group in enumerate(groups):
        sheets = laid[i]
        if not sheets or sheets[-1].count >= SHORT_TAIL * per_sheet(group[0], paper, bleed):
            continue
        tail = group[len(group) - sheets[-1].count:]
        for j, host in enumerate(laid):
            shared = j != i and host and _share(host[-1], tail, bleed, duplex, back_offset)
            if shared:
                host[-1] = shared
                sheets.pop()
                break
    return laid


def per_sheet(piece: Piece, paper: Paper, bleed: float) -> int:
    grid = best_grid(paper, piece.w, piece.h, bleed)
    return grid.cols * grid.rows


def _share(host: Sheet, tail: list[Piece], bleed: float, duplex: str,
           back_offset: tuple[float, float]) -> Sheet | None:
    """``host`` with ``tail`` imposed in the rows free under its pieces, or None when they
    do not fit there."""
    if duplex == "fold":
        return None  # one fold line a sheet
    page = host.paper
    x, y, aw, ah = page.content(host.footer)
    band = CROP + CROP_GAP  # room for a row of crop marks
    top = host.bottom + 2 * band
    w, h = tail[0].w, tail[0].h
    cols, rows = int(aw // w), int((y + ah - top - band) // h)
    if cols * rows < len(tail):
        return None
    spare_x = (aw - cols * w) / 2
    grid = Grid(page, cols, rows, host.footer, x + spare_x, top, min(bleed, spare_x), 0.0,
                spare_x, band)
    extra = _sheet(tail, grid, duplex, back_offset)
    back = None
    if host.back is not None or extra.back is not None:
        back = (*(host.back or ()), *(extra.back or ()))
    return Sheet(page, (*host.front, *extra.front), back, host.count + extra.count,
                 host.footer, extra.bottom)


def _sheet(batch: list[Piece], grid: Grid, duplex: str, back_offset: tuple[float, float]
           ) -> Sheet:
    w, h = batch[0].w, batch[0].h
    page, cols = grid.page, grid.cols
    fronts: list[Primitive] = []
    backs: list[Primitive] = []
    used_cols = min(cols, len(batch))
    used_rows = math.ceil(len(batch) / cols)
    mirror_cols = mirrors_columns(page, duplex)
    has_back = any(p.back is not None for p in batch)
    for index, piece in enumerate(batch):
        row, col = divmod(index, cols)
        clip = _clip(col, row, used_cols, used_rows, w, h, grid.bleed_x, grid.bleed_y)
        x, y = grid.x0 + col * w, grid.y0 + row * h
        fronts.append(Group(piece.front, dx=x, dy=y, clip=clip, id=piece.id, cls=piece.cls))
        back = piece.back if piece.back is not None or not has_back else (
            piece.plain_back or ground_back(piece))
        if back is not None:
            bx, by = _back_position(page, x, y, w, h, mirror_cols)
            if duplex != "fold":  # a folded sheet needs no printer's registration
                bx, by = bx + back_offset[0], by + back_offset[1]
            back_clip = (-grid.bleed_x, -grid.bleed_y, w + 2 * grid.bleed_x,
                         h + 2 * grid.bleed_y)
            backs.append(Group(back, dx=bx, dy=by, clip=back_clip,
                               id=f"{piece.id}-back", cls=f"{piece.cls} back"))
    fronts.extend(crop_marks(grid, used_cols, used_rows, w, h))
    bottom = grid.y0 + used_rows * h + grid.bleed_y
    if has_back and duplex == "fold":  # the backs beside the fronts, no back page
        fronts.extend(backs)
        fronts.extend(crop_marks(replace(grid, x0=page.width - grid.x0 - used_cols * w),
                                 used_cols, used_rows, w, h))
        fronts.extend(fold_line(page, grid.y0 - grid.spare_y - FOLD_BAND, bottom + CROP))
        return Sheet(page, tuple(fronts), None, len(batch), grid.footer, bottom)
    return Sheet(page, tuple(fronts), tuple(backs) if has_back else None, len(batch),
                 grid.footer, bottom)


def ground_back(piece: Piece) -> tuple[Primitive, ...] | None:
    """A one-sided piece's back where its sheet prints backs and it has no ``plain_back``:
    its front's ground (the fill of a rectangle that covers the whole piece) edge to edge;
    None when the front has no such ground."""
    for item in piece.front:
        if (isinstance(item, Rect) and item.style.fill and item.x <= 0 and item.y <= 0
                and item.x + item.w >= piece.w and item.y + item.h >= piece.h):
            return (Rect(0, 0, piece.w, piece.h, Style(fill=item.style.fill, stroke=None),
                         cls="plain-back"),)
    return None


def fold_line(page: Paper, top: float, bottom: float) -> list[Primitive]:
    """The dashed line down the middle of a ``fold`` sheet, from ``top`` to ``bottom``, and
    what to do with it in the band above the pieces."""
    cx = page.width / 2
    return [Line(cx, top + 4.5, cx, bottom, FOLD, cls="fold-line"),
            Text(cx, top + 3.2, "Fold on the dashed line, glue back to back, then cut out "
                 "the pieces", size=2.2, anchor="middle", cls="fold-label")]


def mirrors_columns(page: Paper, duplex: str) -> bool:
    """True when the back page mirrors left-right (long-edge flip of a portrait page; a
    ``fold`` sheet's backs, mirrored across its middle)."""
    if duplex not in DUPLEX_MODES:
        raise BadInput(f"unknown duplex {duplex!r} (allowed: {', '.join(DUPLEX_MODES)})")
    if duplex == "fold":
        return True
    portrait = page.height >= page.width
    return (duplex == "long") == portrait


def _back_position(page: Paper, x: float, y: float, w: float, h: float, mirror_cols: bool
                   ) -> tuple[float, float]:
    if mirror_cols:
        return page.width - x - w, y
    return x, page.height - y - h


def _clip(col: int, row: int, cols: int, rows: int, w: float, h: float, bleed_x: float,
          bleed_y: float) -> tuple[float, float, float, float]:
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

#: The least overlap of neighbouring tiles (mm): the strip glued under the next tile.
OVERLAP = 10.0
TILE_TOP = 7.0  # band above a tile for its title and the marks ending its lines
MARK_GAP = 3.5  # distance of a line's end mark from the tile edge
GLUE = Style(width=0.3, stroke="#c03030", dash=(2.0, 1.2))
TRIM = Style(width=0.3, stroke="#000000")
TILE_TEXT = 2.4  # mm em height of the tile title (6.8 pt)


@dataclass(frozen=True)
class Tile:
    """One printed piece of a map: its window on the drawing and what it prints.

    ``x``, ``y``, ``w``, ``h`` are the window in map mm; ``overlap_x`` and ``overlap_y``
    the real overlap with the neighbour to the right and below. ``seam_left`` and
    ``seam_top`` (map mm) are where the tile is trimmed, on the neighbour's glue line;
    ``seam_right`` and ``seam_bottom`` where the next tile's trimmed edge goes (its glue
    line); each None at the map's edge.
    """

    label: str
    x: float
    y: float
    w: float
    h: float
    page: Paper
    items: tuple[Primitive, ...]
    overlap_x: float = 0.0
    overlap_y: float = 0.0
    col: int = 0
    row: int = 0
    seam_left: float | None = None
    seam_top: float | None = None
    seam_right: float | None = None
    seam_bottom: float | None = None

    def shown(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) of the map this tile shows once the tiles are glued."""
        return (self.x if self.seam_left is None else self.seam_left,
                self.y if self.seam_top is None else self.seam_top,
                self.x + self.w if self.seam_right is None else self.seam_right,
                self.y + self.h if self.seam_bottom is None else self.seam_bottom)


@dataclass(frozen=True)
class TilePlan:
    """How a map is cut: the page, tiles across and down, tile size and real overlaps."""

    page: Paper
    cols: int
    rows: int
    w: float
    h: float
    overlap_x: float
    overlap_y: float

    @property
    def count(self) -> int:
        return self.cols * self.rows


def tile_area(page: Paper) -> tuple[float, float]:
    """(width, height) of the map window a tile page prints: inside the margin, the footer,
    the title band above and a band for the line marks on the other sides."""
    _x, _y, aw, ah = page.content()
    return aw - 2 * CROP, ah - TILE_TOP - CROP


def _span(length: float, room: float, overlap: float) -> tuple[int, float, float]:
    """(pieces, piece length, their overlap when evenly spaced) covering ``length`` with
    pieces of at most ``room``, neighbours sharing at least ``overlap``: as few pieces as
    fit, each as long as the page holds (a tile uses its page). The plan's count; where
    the tiles start and are trimmed is ``cut_axis``'s."""
    if length <= room:
        return 1, length, 0.0
    count = math.ceil((length - overlap) / (room - overlap))
    step = (length - room) / (count - 1)
    return count, room, room - step


def _pages(width: float, height: float, paper: Paper) -> tuple[Paper, Paper]:
    """The two orientations of ``paper``, the map's own first (landscape for a wide map)."""
    if width > height:
        return paper.landscape, paper.portrait
    return paper.portrait, paper.landscape


def _plan_on(page: Paper, width: float, height: float, overlap: float) -> TilePlan:
    aw, ah = tile_area(page)
    cols, tw, ox = _span(width, aw, overlap)
    rows, th, oy = _span(height, ah, overlap)
    return TilePlan(page, cols, rows, tw, th, ox, oy)


def plan_tiles(width: float, height: float, paper: Paper, overlap: float = OVERLAP) -> TilePlan:
    """The orientation of ``paper`` that needs the fewest tiles (on ties, the map's own:
    landscape for a wide map)."""
    best: TilePlan | None = None
    for page in _pages(width, height, paper):
        plan = _plan_on(page, width, height, overlap)
        if best is None or plan.count < best.count:
            best = plan
    assert best is not None  # _pages gives one page at least
    return best


#: A map's legend as the tiler lays it out: ``legend(width)`` gives its items (origin at its
#: top-left) and its height for at most ``width`` mm.
LegendLayout = Callable[[float], tuple[tuple[Primitive, ...], float]]
LEGEND_GAP = 4.0  # mm between the map and its legend, and round the legend


def legend_room(plan_cols: int, tile_w: float, overlap_x: float, width: float) -> float:
    """The width a legend may take so that it lies whole on the first tile of the bottom
    row, clear of the strip the next tile covers."""
    shown = tile_w - overlap_x if plan_cols > 1 else tile_w
    return min(shown, width) - 2 * LEGEND_GAP


def with_legend(drawing: tuple[Primitive, ...], width: float, height: float, paper: Paper,
                legend: LegendLayout, overlap: float = OVERLAP, name: str = "map"
                ) -> tuple[tuple[Primitive, ...], float, TilePlan]:
    """The drawing with its legend under it, laid out to the width one tile shows, and the
    tile plan that keeps the legend whole on one tile (the first of the bottom row, above
    no other tile's strip): (items, height with the legend, plan). For each orientation
    the legend is laid out to that tile width; the plan with the fewest tiles wins."""
    return min(_legend_layouts(drawing, width, height, paper, legend, overlap, name),
               key=lambda laid: laid[2].count)


def _legend_layouts(drawing: tuple[Primitive, ...], width: float, height: float, paper: Paper,
                    legend: LegendLayout, overlap: float, name: str
                    ) -> list[tuple[tuple[Primitive, ...], float, TilePlan]]:
    """``with_legend``'s layout for each orientation whose tiles show the legend whole."""
    found = []
    for page in _pages(width, height, paper):
        aw, _ah = tile_area(page)
        cols, tw, _ox = _span(width, aw, overlap)
        items, lh = legend(legend_room(cols, tw, overlap if cols > 1 else 0.0, width))
        total = height + lh + 2 * LEGEND_GAP
        plan = _plan_on(page, width, total, overlap)
        if lh + 2 * LEGEND_GAP > plan.h - (overlap if plan.rows > 1 else 0.0):
            continue  # taller than what one tile of this orientation shows
        group = Group(tuple(items), dx=LEGEND_GAP, dy=height + LEGEND_GAP, id=f"{name}-legend",
                      cls="map-legend")
        found.append(((*drawing, group), total, plan))
    if not found:
        raise BadInput(f"{name}: its legend is taller than one tile of {paper.label} paper "
                       f"shows; give the map fewer legend entries or a larger --paper")
    return found


def tile(drawing: tuple[Primitive, ...], width: float, height: float, paper: Paper,
         overlap: float = OVERLAP, name: str = "map", title: str | None = None,
         legend: LegendLayout | None = None) -> list[Tile]:
    """Split a ``width`` x ``height`` drawing into labelled tiles, neighbours overlapping by
    ``overlap`` mm. Each tile carries only the primitives that fall on it. A ``legend`` goes
    under the drawing, whole on one tile (``with_legend``)."""
    if legend is not None:
        layouts = _legend_layouts(drawing, width, height, paper, legend, overlap,
                                  name.replace(" ", "-"))
    else:
        layouts = [(drawing, height, _plan_on(page, width, height, overlap))
                   for page in _pages(width, height, paper)]
    drawing, height, plan, index, (x0s, xs), (y0s, ys), _whole = min(
        (_cut(*laid, width, overlap) for laid in layouts), key=_cut_cost)
    plan = replace(plan, cols=len(x0s), rows=len(y0s))
    if (seen := _RECORDING.get()) is not None:
        seen.drawings.append(Drawing(name, tuple(drawing), width, height, tuple(xs), tuple(ys)))
    tiles = []
    for r, ty in enumerate(y0s):
        for c, tx in enumerate(x0s):
            label = f"{_row_letter(r)}{c + 1}"
            tw, th = min(plan.w, width - tx), min(plan.h, height - ty)  # ends at the map's end
            bare = Tile(label, tx, ty, tw, th, plan.page, (),
                        _window_overlap(x0s, c, plan.w), _window_overlap(y0s, r, plan.h), c, r,
                        _at(xs, c - 1), _at(ys, r - 1), _at(xs, c), _at(ys, r))
            sx = tx if bare.seam_left is None else bare.seam_left  # nothing left of a trim
            sy = ty if bare.seam_top is None else bare.seam_top
            shown = index.select((sx, sy, tx + tw - sx, ty + th - sy))
            tiles.append(replace(bare, items=_tile_items(shown, bare, plan, name,
                                                         title or name)))
    return tiles


def planned_seams(width: float, height: float, paper: Paper,
                  legend: LegendLayout | None = None, overlap: float = OVERLAP
                  ) -> tuple[list[float], list[float]]:
    """Where ``tile`` cuts a ``width`` x ``height`` drawing with its ``legend`` under it when
    nothing else is in the way: near the even shares of the fewest tiles, clear of the
    legend, across and down. A drawing that keeps these lines clear of its boxes (a map
    covered with them, where no straight seam would pass between) has them cut by none."""
    if legend is not None:
        layouts = _legend_layouts((), width, height, paper, legend, overlap, "map")
    else:
        layouts = [((), height, _plan_on(page, width, height, overlap))
                   for page in _pages(width, height, paper)]
    cut = min((_cut(*laid, width, overlap) for laid in layouts), key=_cut_cost)
    return cut[4][1], cut[5][1]


def tile_count(drawing: tuple[Primitive, ...], width: float, height: float, paper: Paper,
               overlap: float = OVERLAP) -> int:
    """How many tiles ``tile`` cuts the drawing into (its seams clear of what they keep
    whole where they can be), without laying the tiles out."""
    layouts = [(drawing, height, _plan_on(page, width, height, overlap))
               for page in _pages(width, height, paper)]
    _drawing, _height, _plan, _index, (x0s, _xs), (y0s, _ys), _whole = min(
        (_cut(*laid, width, overlap) for laid in layouts), key=_cut_cost)
    return len(x0s) * len(y0s)


def _cut(drawing: tuple[Primitive, ...], height: float, plan: TilePlan, width: float,
         overlap: float) -> Cut:
    """(drawing, height, plan, its index, (starts, seams) across, (starts, seams) down)."""
    index = SpatialIndex(drawing)
    whole = whole_boxes(drawing, index)
    aw, ah = tile_area(plan.page)
    across = cut_axis(width, aw if plan.cols > 1 else width, overlap,
                      [(b[0], b[2], w) for b, w in whole])
    down = cut_axis(height, ah if plan.rows > 1 else height, overlap,
                    [(b[1], b[3], w) for b, w in whole])
    return drawing, height, plan, index, across, down, whole


def _cut_cost(cut: Cut) -> tuple[int, int]:
    """How bad a cut is: the titles, captions, tables and legends its seams cross, then its
    tile count (on ties the first: the map's own orientation)."""
    _drawing, _height, _plan, _index, across, down, whole = cut
    crossed = sum(1 for box, weight in whole if weight >= NEVER
                  for axis, seams_ in ((0, across[1]), (1, down[1]))
                  for at in seams_ if box[axis] - SEAM_CLEAR < at < box[axis + 2] + SEAM_CLEAR)
    return crossed, len(across[0]) * len(down[0])


def _window_overlap(starts: list[float], i: int, size: float) -> float:
    """How far tile ``i``'s window reaches over the next one's (0 for the last)."""
    return starts[i] + size - starts[i + 1] if i + 1 < len(starts) else 0.0


#: How many more tiles across (or down) a map may take so that no seam cuts a box, a table,
#: a title or a legend.
MORE_TILES = 2
#: The cost from which a cut element makes the tiler try one more tile (``WHOLE``).
KEEP = 10


def cut_axis(length: float, room: float, overlap: float,
             spans: list[tuple[float, float, int]]) -> tuple[list[float], list[float]]:
    """(where each tile's window starts, where each tile after the first is trimmed) along
    one axis of a map ``length`` mm long, on tiles ``room`` mm long: the fewest tiles whose
    seams cut nothing of cost ``KEEP`` (up to ``MORE_TILES`` more than the fewest that cover
    the map), else the fewest, their seams across the cheapest. Each tile's window starts at
    its own seam (so nothing of the page is left blank above or left of its trim); the
    last one ends at the map's end, short of a full page."""
    if length <= room + 1e-9:
        return [0.0], []
    fewest = math.ceil((length - overlap) / (room - overlap) - 1e-9)
    for n in range(fewest, fewest + MORE_TILES + 1):
        cuts = seams(n, length, room, overlap, spans, clean=True)
        if cuts is not None:
            break
    else:
        n, cuts = fewest, seams(fewest, length, room, overlap, spans, clean=False)
    assert cuts is not None  # seams that may cut always are
    return [0.0, *cuts], cuts  # each window from its trim: no blank above or left of it


#: How near a seam may come to an element it keeps whole (mm).
SEAM_CLEAR = 1.0
#: The least share of what a tile may show that it does show (no sliver of a tile).
LEAST_SHOWN = 0.4


def seams(count: int, length: float, room: float, overlap: float,
          spans: list[tuple[float, float, int]], clean: bool = True) -> list[float] | None:
    """Where ``count`` tiles ``room`` mm long are trimmed along a map ``length`` mm long, each
    tile showing at most ``room - overlap`` (the rest is the strip glued under the next) and
    at least ``LEAST_SHOWN`` of that, the last reaching the end: the seams, taken together,
    clear of every span (start, end, cost) they can be, spans of cost ``KEEP`` first, then
    texts (anywhere the tiles may end rather than through a glyph), then as near as they
    may be to even shares of the map; None when no such seams exist, or when ``clean`` and
    a seam must cut a span of cost ``KEEP``."""
    if count < 2:
        return []
    shown = room - overlap
    targets = [k * length / count for k in range(1, count)]
    marks = {round(v, 3) for a, b, _w in spans for v in (a - SEAM_CLEAR, b + SEAM_CLEAR)}
    marks.update(round(v, 3) for v in targets)
    # ... and where a tile more than the map needs puts an even share under a tile's least
    marks.update(round(max(v, k * shown * LEAST_SHOWN), 3) for k, v in enumerate(targets, 1))
    marks.update(round(k * shown, 3) for k in range(1, count))  # each tile showing its most
    marks.update(round(length - room - j * shown, 3) for j in range(count - 1))  # ... the rest
    xs = sorted(v for v in marks if shown * LEAST_SHOWN - 1e-9 <= v <= length - overlap + 1e-9)
    cut = _span_costs(spans)
    costs = [cut(x) for x in xs]
    # best[i]: the cheapest seams up to this one with this one at xs[i] (cost, previous index)
    best: list[tuple[tuple[int, int, float], int] | None] = [
        ((kept, text, abs(x - targets[0])), -1) if x <= shown + 1e-9 else None
        for x, (kept, text) in zip(xs, costs, strict=True)]
    chain = [best]
    for k in range(2, count):
        best = _next_seams(xs, costs, best, shown, targets[k - 1])
        chain.append(best)
    last = length - room
    ends = [(entry[0], i) for i, entry in enumerate(best)
            if entry is not None and xs[i] >= last - 1e-9]
    if not ends:
        return None
    total, i = min(ends)
    if clean and total[0]:
        return None
    out: list[float] = []
    for level in reversed(chain):
        out.append(xs[i])
        entry = level[i]
        assert entry is not None  # a chain's links are set
        i = entry[1]
    return out[::-1]


def _next_seams(xs: list[float], costs: list[tuple[int, int]],
                before: list[tuple[tuple[int, int, float], int] | None], shown: float,
                target: float) -> list[tuple[tuple[int, int, float], int] | None]:
    """The cheapest seams up to the next one at each of ``xs``: the previous seam from
    ``shown * LEAST_SHOWN`` to ``shown`` before it (a window that slides along ``xs``)."""
    out: list[tuple[tuple[int, int, float], int] | None] = []
    # (index of ``before``, its cost), the costs rising
    window: deque[tuple[int, tuple[int, int, float]]] = deque()
    entered = 0
    for i, x in enumerate(xs):
        while entered < len(xs) and xs[entered] <= x - shown * LEAST_SHOWN + 1e-9:
            entry = before[entered]
            if entry is not None:
                while window and window[-1][1] >= entry[0]:
                    window.pop()
                window.append((entered, entry[0]))
            entered += 1
        while window and xs[window[0][0]] < x - shown - 1e-9:
            window.popleft()
        if not window:
            out.append(None)
            continue
        j, prior = window[0]
        kept, text = costs[i]
        out.append(((prior[0] + kept, prior[1] + text, prior[2] + abs(x - target)), j))
    return out


def _span_costs(spans: list[tuple[float, float, int]]) -> Callable[[float], tuple[int, int]]:
    """What a seam at x cuts: (the cost of the spans of cost ``KEEP`` or more, of the
    others) over the spans it passes nearer than ``SEAM_CLEAR``."""
    tables = []
    for heavy in (True, False):
        chosen = [(a - SEAM_CLEAR, b + SEAM_CLEAR, w) for a, b, w in spans
                  if (w >= KEEP) == heavy]
        starts = sorted((a, w) for a, _b, w in chosen)
        ends = sorted((b, w) for _a, b, w in chosen)
        tables.append(([a for a, _w in starts], list(accumulate(w for _a, w in starts)),
                       [b for b, _w in ends], list(accumulate(w for _b, w in ends))))

    def cost(x: float) -> tuple[int, int]:
        out = []
        for sa, sw, eb, ew in tables:
            began = bisect_left(sa, x)  # starts before x (strictly)
            over = bisect_right(eb, x)  # ends at or before x
            out.append((sw[began - 1] if began else 0) - (ew[over - 1] if over else 0))
        return out[0], out[1]
    return cost


def _at(values: list[float], index: int) -> float | None:
    return values[index] if 0 <= index < len(values) else None


#: What a seam cutting a title, a caption, a table or a legend costs: a straight seam can
#: always pass beside one (it is laid out narrower than a tile shows).
NEVER = 100
#: Classes of the drawing's elements a seam never cuts when it can help it, and how much a
#: cut costs: tables, titles, captions and legends most, then boxes that hold pieces (a map
#: covered with them, like a world map of stack boxes, leaves no straight seam clear of
#: them all), labels least.
WHOLE = {"table": NEVER, "map-table": NEVER, "map-legend": NEVER, "legend": NEVER,
         "map-title": NEVER, "title": NEVER, "caption": NEVER,
         "holds": 10, "track": 10, "whole": 10,
         "map-label": 1, "point-label": 1, "callout": 1}
#: What a seam cutting any other line of text costs (a label, a heading, a hex id): less
#: than a box (a map covered with boxes keeps its seams in the lanes between them), but a
#: seam moves anywhere its tile may end rather than cut a glyph at a tile's trim.
TEXT = 1


def whole_boxes(drawing: Sequence[Primitive], index: SpatialIndex) -> list[tuple[Box, int]]:
    """The boxes (map mm) of the elements a seam should not cut (``WHOLE``), with what a
    cut costs: an element with one of the classes is kept whole with all it holds; any
    other text costs ``TEXT``."""
    found: list[tuple[Box, int]] = []

    def visit(items: Sequence[Primitive], transform: Callable[[Box], Box]) -> None:
        for item in items:
            words = set((getattr(item, "cls", None) or "").split())
            weight = max((WHOLE[w] for w in words & WHOLE.keys()), default=0)
            box = index.box(item)
            if weight and box is not None:
                found.append((transform(box), weight))
            elif isinstance(item, Text) and box is not None:
                found.append((transform(box), TEXT))
            elif isinstance(item, Group) and not item.rotate:
                visit(item.items, _inside(item, transform))

    visit(drawing, lambda b: b)
    return found


def text_boxes(drawing: Sequence[Primitive]) -> list[tuple[Box, Text]]:
    """Every line of text of a drawing with its box in the drawing's mm (groups moved,
    scaled and clipped as ``whole_boxes`` reads them; texts in turned groups aside)."""
    found: list[tuple[Box, Text]] = []

    def visit(items: Sequence[Primitive], transform: Callable[[Box], Box]) -> None:
        for item in items:
            if isinstance(item, Text):
                found.append((transform(text_box(item)), item))
            elif isinstance(item, Group) and not item.rotate:
                visit(item.items, _inside(item, transform))

    visit(drawing, lambda b: b)
    return found


def _inside(group: Group, outer: Callable[[Box], Box]) -> Callable[[Box], Box]:
    """``outer`` of a box in ``group``'s coordinates (its clip aside)."""
    unclipped = replace(group, clip=None)
    return lambda b: outer(_transformed(unclipped, b))


def _row_letter(index: int) -> str:
    return chr(ord("A") + index) if index < 26 else f"R{index + 1}"


def _tile_items(drawing: tuple[Primitive, ...], tile: Tile, plan: TilePlan, name: str,
                title: str) -> tuple[Primitive, ...]:
    """A tile's page: the map from its trim lines (what is left of or above them is cut
    off, so it is not printed) to the window's far edges, its lines and its title."""
    x0, y0 = MARGIN + CROP, MARGIN + TILE_TOP
    sx, sy = tile.shown()[:2]
    clip = (sx, sy, tile.x + tile.w - sx, tile.y + tile.h - sy)
    content = Group(tuple(drawing), dx=x0 - tile.x, dy=y0 - tile.y, clip=clip,
                    id=f"tile-{tile.label}", cls=f"tile {name}")
    items: list[Primitive] = [content]
    items.extend(_cut_lines(x0, y0, tile))
    items.append(_tile_title(tile, title, x0, y0, plan))
    return tuple(items)


def _cut_lines(x0: float, y0: float, tile: Tile) -> list[Primitive]:
    """The tile's edges and seams. A tile with a neighbour to the left (above) is trimmed on
    its seam there, solid, and laid over that neighbour; a tile with a neighbour to the
    right (below) has a dashed glue line where that neighbour's trimmed edge goes. Each line
    runs into the band outside the tile and ends in a registration mark."""
    tw, th = tile.w, tile.h
    left, top, right, bottom = x0, y0, x0 + tw, y0 + th
    items: list[Primitive] = [Rect(left, top, tw, th, HAIRLINE, cls="tile-edge")]
    if tile.seam_left is not None:
        items.extend(_vertical(left + tile.seam_left - tile.x, top, bottom, TRIM, "trim-line"))
    if tile.seam_top is not None:
        items.extend(_horizontal(top + tile.seam_top - tile.y, left, right, TRIM, "trim-line"))
    if tile.seam_right is not None:
        items.extend(_vertical(left + tile.seam_right - tile.x, top, bottom, GLUE,
                               "glue-line"))
    if tile.seam_bottom is not None:
        items.extend(_horizontal(top + tile.seam_bottom - tile.y, left, right, GLUE,
                                 "glue-line"))
    return items


def _vertical(x: float, top: float, bottom: float, style: Style, cls: str) -> list[Primitive]:
    return [Line(x, top - MARK_GAP, x, bottom + MARK_GAP, style, cls=cls),
            *registration_mark(x, top - MARK_GAP, 1.2), *registration_mark(x, bottom + MARK_GAP,
                                                                            1.2)]


def _horizontal(y: float, left: float, right: float, style: Style, cls: str) -> list[Primitive]:
    return [Line(left - MARK_GAP, y, right + MARK_GAP, y, style, cls=cls),
            *registration_mark(left - MARK_GAP, y, 1.2), *registration_mark(right + MARK_GAP, y,
                                                                             1.2)]


def _tile_title(tile: Tile, title: str, x0: float, y0: float, plan: TilePlan) -> Text:
    """The title in the band above the tile, between the marks of its vertical lines."""
    start = x0 + (tile.seam_left - tile.x + MARK_GAP if tile.seam_left is not None else 0.0)
    end = x0 + (tile.seam_right - tile.x - MARK_GAP if tile.seam_right is not None else tile.w)
    label = tile.label
    if plan.count == 1:  # one sheet: the map's title, no tile label
        words = [title]
    else:
        words = [f"{title} · {label}", f"{title} · tile {label} of {plan.count}"]
    text = next((w for w in reversed(words) if text_width(w, TILE_TEXT) <= end - start),
                words[0])
    if text_width(text, TILE_TEXT) > end - start:
        raise BadInput(f"{title}: tile {label} is too narrow ({end - start:.0f} mm) for its "
                       f"title at {TILE_TEXT} mm")
    return Text(start, y0 - 2.2, text, size=TILE_TEXT, bold=True, cls="tile-label")


def registration_mark(x: float, y: float, r: float = 2.0) -> list[Primitive]:
    """A circle with a cross: align these on overlapping tiles."""
    return [Circle(x, y, r, REG, cls="registration"),
            Line(x - r - 1, y, x + r + 1, y, REG, cls="registration"),
            Line(x, y - r - 1, x, y + r + 1, REG, cls="registration")]


def assembly_items(tiles: list[Tile], width: float, height: float, page: Paper,
                   name: str) -> tuple[Primitive, ...]:
    """An assembly page: the map outline with every tile, its overlaps shaded, and how to
    trim and glue them, with the real overlap of these tiles."""
    x, y, aw, ah = page.content()
    items: list[Primitive] = []
    top = y
    for line in assembly_lines(tiles, width, height, name):
        items.append(Text(x, top + 4, line, size=fit_size(line, 3.2, aw), cls="assembly-text"))
        top += 5.0
    top += 2.0
    scale = min(aw / width, (y + ah - top) / height)
    ox = x + (aw - width * scale) / 2
    return (*items, *assembly_diagram(tiles, width, height, ox, top, scale))


def assembly_lines(tiles: list[Tile], width: float, height: float, name: str) -> list[str]:
    """What the assembly diagram says: the map's size, the overlap, how to trim and glue."""
    return [f"Assembly of {name}: {len(tiles)} tiles, {width:.0f} x {height:.0f} mm; "
            f"{_overlap_words(tiles)}.",
            "Trim each tile on its solid edge where it has a neighbour to the left or above, "
            "and glue it over that neighbour: its edge on the neighbour's dashed glue line "
            "(red here), the registration marks on top of each other."]


def assembly_diagram(tiles: list[Tile], width: float, height: float, ox: float, top: float,
                     scale: float) -> list[Primitive]:
    """The map's outline at ``scale`` from (``ox``, ``top``): every tile, its glue lines and
    its label (at most a tile's drawn height, so a small diagram keeps its labels inside)."""
    items: list[Primitive] = [Rect(ox, top, width * scale, height * scale, Style(width=0.4),
                                   cls="assembly")]
    for t in tiles:
        items.append(Rect(ox + t.x * scale, top + t.y * scale, t.w * scale, t.h * scale,
                          Style(fill="#dde8f5", stroke="#204080", width=0.3, opacity=0.5),
                          id=f"assembly-{t.label}", cls="assembly-tile"))
    glue = replace(GLUE, width=0.4)
    for t in tiles:  # where each tile meets the next: its glue line, the other's trim
        x0, y0, x1, y1 = t.shown()
        if t.seam_right is not None:
            items.append(Line(ox + x1 * scale, top + y0 * scale, ox + x1 * scale,
                              top + y1 * scale, glue, cls="assembly-seam"))
        if t.seam_bottom is not None:
            items.append(Line(ox + x0 * scale, top + y1 * scale, ox + x1 * scale,
                              top + y1 * scale, glue, cls="assembly-seam"))
    for t in tiles:  # each label in the middle of what its tile shows, clear of the lines
        x0, y0, x1, y1 = t.shown()
        size = min(6.0, (y1 - y0) * scale * 0.4)
        items.append(Text(ox + (x0 + x1) / 2 * scale, top + (y0 + y1) / 2 * scale + size / 3,
                          t.label, size=size, anchor="middle", bold=True))
    return items


#: The least height (mm) of the free part under a map's last row of tiles that takes the
#: assembly diagram (beside its words) instead of a page of its own; and the least width its
#: words keep there.
INSET_LEAST_H, INSET_WORDS_W = 30.0, 90.0


def assembly_inset(tiles: list[Tile], width: float, height: float, name: str,
                   band_top: float | None = None
                   ) -> tuple[int, tuple[Primitive, ...]] | None:
    """(index of the tile, the items to add to its page): the assembly diagram, scaled to the
    free part under the drawing on the tile of the last row with the most of it, its words
    wrapped beside it. Where no tile has ``INSET_LEAST_H`` free there, the band a legend
    adds under the drawing (from ``band_top`` down) is used on a tile of the last row the
    legend leaves empty (every one but the first). None when neither has room (the diagram
    takes a page of its own: ``assembly_items``)."""
    found = _inset_room(tiles, _free_under)
    if found is None and band_top is not None:
        found = _inset_room(tiles, lambda t: _free_in_band(t, band_top))
    if found is None:
        return None
    i, (x, y, aw, ah) = found
    inside = 0.5  # the outline's stroke stays in the free part
    scale = (ah - 2 * inside) / height
    words_w = aw - width * scale - 6.0
    if words_w < INSET_WORDS_W:
        scale = (aw - 6.0 - INSET_WORDS_W) / width
        words_w = INSET_WORDS_W
    if height * scale < INSET_LEAST_H:
        return None
    items: list[Primitive] = []
    top = y + ASSEMBLY_TEXT
    for line in assembly_lines(tiles, width, height, name):
        for part in wrap(line, ASSEMBLY_TEXT, words_w):
            items.append(Text(x, top, part, size=ASSEMBLY_TEXT, cls="assembly-text"))
            top += ASSEMBLY_TEXT * 1.3
        top += ASSEMBLY_TEXT * 0.5
    if top - ASSEMBLY_TEXT > y + ah:
        return None
    items += assembly_diagram(tiles, width, height, x + aw - inside - width * scale, y + inside,
                              scale)
    return i, tuple(items)


#: The assembly words' size (mm) where they sit beside the diagram on a tile.
ASSEMBLY_TEXT = 2.8


def _inset_room(tiles: list[Tile], room: Callable[[Tile], tuple[float, float, float, float]]
                ) -> tuple[int, tuple[float, float, float, float]] | None:
    """(index, free part) of the last row's tile with the tallest ``room``, if at least
    ``INSET_LEAST_H`` tall."""
    last = max(t.row for t in tiles)
    free = [(room(t), i) for i, t in enumerate(tiles) if t.row == last]
    best = max(free, key=lambda found: found[0][3], default=None)
    if best is None or best[0][3] < INSET_LEAST_H:
        return None
    return best[1], best[0]


def _free_in_band(t: Tile, band_top: float) -> tuple[float, float, float, float]:
    """(x, y, w, h) on a tile page of the part of the legend's band (the drawing's height
    ``band_top`` down to the tile's end) the tile shows and the legend leaves empty: all of
    it on a tile right of the first (the legend lies whole on the first tile of its row,
    ``with_legend``), none on the first."""
    x0, y0, x1, y1 = t.shown()
    if t.col == 0 or y1 - band_top <= 0:
        return 0.0, 0.0, 0.0, 0.0
    gap = 3.0  # clear of the map's edge, the trim line and the glue line
    left = MARGIN + CROP + x0 - t.x + gap
    top = MARGIN + TILE_TOP + max(band_top, y0) - t.y + gap
    return left, top, x1 - x0 - 2 * gap, y1 - max(band_top, y0) - 2 * gap


def _free_under(t: Tile) -> tuple[float, float, float, float]:
    """(x, y, w, h) of a tile page's content area under what the tile prints (its window,
    its cut marks) and over its footer."""
    x, y, aw, ah = t.page.content()
    top = MARGIN + TILE_TOP + t.h + CROP + 3.0
    return x, top, aw, max(0.0, y + ah - top - 3.0)  # clear of the footer's scale bar


def glue_strips(tiles: list[Tile]) -> tuple[float | None, float | None]:
    """The narrowest strip a tile keeps beyond its seam for the next tile to be glued on,
    side by side and top to bottom (None where no tile has such a neighbour)."""
    across = [t.x + t.w - t.seam_right for t in tiles if t.seam_right is not None]
    down = [t.y + t.h - t.seam_bottom for t in tiles if t.seam_bottom is not None]
    return min(across, default=None), min(down, default=None)


def _overlap_words(tiles: list[Tile]) -> str:
    across, down = glue_strips(tiles)
    parts = []
    if across is not None:
        parts.append(f"at least {math.floor(across):.0f} mm overlap side by side")
    if down is not None:
        parts.append(f"at least {math.floor(down):.0f} mm overlap top to bottom")
    return ", ".join(parts) or "no overlap"


def fit_size(text: str, size: float, width: float, what: str = "page") -> float:
    """``size``, or the smaller size at which ``text`` fits ``width``; BadInput naming
    ``what`` below the legible minimum (``MIN_TEXT``)."""
    fitted = min(size, size * width / max(text_width(text, size), 1e-9))
    if fitted < MIN_TEXT:
        raise BadInput(f"{what}: text {text[:50]!r} does not fit {width:.0f} mm at "
                       f"{MIN_PT:g} pt")
    return fitted


# --- what falls on a tile ------------------------------------------------------------------


Box = tuple[float, float, float, float]  # x0, y0, x1, y1


class SpatialIndex:
    """Bounding boxes of a drawing's primitives, to hand each tile only what falls on it.

    Groups that are only moved and scaled are entered into; their children that miss the
    window are left out (a group left empty is dropped). Rotated groups and unknown
    primitives are kept or dropped whole by their box (kept when it is not known).
    """

    #: A group with this many children gets a grid of buckets over them, so a window looks
    #: only at the children near it; CELL is the buckets' size in mm.
    MANY, CELL = 64, 40.0

    def __init__(self, drawing: tuple[Primitive, ...]):
        self.drawing = tuple(drawing)
        self._boxes: dict[int, Box | None] = {}
        self._buckets: dict[int, tuple[dict[tuple[int, int], list[int]], list[int]]] = {}

    def select(self, window: tuple[float, float, float, float]) -> tuple[Primitive, ...]:
        x, y, w, h = window
        return tuple(self._select(self.drawing, (x, y, x + w, y + h)))

    def _near(self, items: Sequence[Primitive], area: Box) -> Sequence[Primitive]:
        """The items that may meet ``area``, in their order (all of a short list)."""
        if len(items) < self.MANY:
            return items
        cells, unknown = self._bucket(items)
        c = self.CELL
        found = set(unknown)
        for cx in range(math.floor(area[0] / c), math.floor(area[2] / c) + 1):
            for cy in range(math.floor(area[1] / c), math.floor(area[3] / c) + 1):
                found.update(cells.get((cx, cy), ()))
        return [items[i] for i in sorted(found)]

    def _bucket(self, items: Sequence[Primitive]
                ) -> tuple[dict[tuple[int, int], list[int]], list[int]]:
        key = id(items)
        if key not in self._buckets:
            cells: dict[tuple[int, int], list[int]] = {}
            unknown: list[int] = []
            c = self.CELL
            for i, item in enumerate(items):
                box = self.box(item)
                if box is None:
                    unknown.append(i)
                    continue
                for cx in range(math.floor(box[0] / c), math.floor(box[2] / c) + 1):
                    for cy in range(math.floor(box[1] / c), math.floor(box[3] / c) + 1):
                        cells.setdefault((cx, cy), []).append(i)
            self._buckets[key] = (cells, unknown)
        return self._buckets[key]

    def _select(self, items: Sequence[Primitive], area: Box) -> list[Primitive]:
        out: list[Primitive] = []
        near = self._near(items, area)
        for item in near:
            box = self.box(item)
            if box is not None and not _meets(box, area):
                continue
            if isinstance(item, Group) and not item.rotate and len(item.items) > 1:
                inner = _to_local(item, area)
                kept = self._select(item.items, inner)
                if not kept:
                    continue
                if len(kept) != len(item.items) or kept[0] is not item.items[0]:
                    item = replace(item, items=tuple(kept))
            out.append(item)
        return out

    def box(self, item: Primitive) -> Box | None:
        key = id(item)
        if key not in self._boxes:
            self._boxes[key] = self._measure(item)
        return self._boxes[key]

    def _measure(self, item: Primitive) -> Box | None:
        if isinstance(item, Group):
            return self._group_box(item)
        return leaf_box(item)

    def _group_box(self, group: Group) -> Box | None:
        found = [self.box(child) for child in group.items]
        boxes = [b for b in found if b is not None]
        if not found or len(boxes) != len(found):
            return None
        box = (min(b[0] for b in boxes), min(b[1] for b in boxes),
               max(b[2] for b in boxes), max(b[3] for b in boxes))
        if group.clip:
            cx, cy, cw, ch = group.clip
            box = (max(box[0], cx), max(box[1], cy), min(box[2], cx + cw), min(box[3], cy + ch))
        return _transformed(group, box)


#: a drawing cut into tiles: (the drawing, its height, the plan, its index, (window starts,
#: seams) across, (window starts, seams) down, the boxes its seams keep whole)
Cut = tuple[tuple[Primitive, ...], float, TilePlan, SpatialIndex, tuple[list[float], list[float]],
            tuple[list[float], list[float]], list[tuple[Box, int]]]


def _meets(a: Box, b: Box) -> bool:
    return a[0] <= b[2] and b[0] <= a[2] and a[1] <= b[3] and b[1] <= a[3]


def _to_local(group: Group, area: Box) -> Box:
    s = group.scale or 1.0
    return ((area[0] - group.dx) / s, (area[1] - group.dy) / s,
            (area[2] - group.dx) / s, (area[3] - group.dy) / s)


def _transformed(group: Group, box: Box) -> Box:
    """``box`` in the group's coordinates as a box in its parent's (scale, rotate, move)."""
    s = group.scale or 1.0
    corners = [(box[0] * s, box[1] * s), (box[2] * s, box[1] * s), (box[0] * s, box[3] * s),
               (box[2] * s, box[3] * s)]
    if group.rotate:
        a = math.radians(group.rotate)
        cos, sin = math.cos(a), math.sin(a)
        corners = [(px * cos - py * sin, px * sin + py * cos) for px, py in corners]
    xs = [px + group.dx for px, _ in corners]
    ys = [py + group.dy for _, py in corners]
    return min(xs), min(ys), max(xs), max(ys)


def leaf_box(item: Primitive) -> Box | None:
    """The box a shape or text covers (strokes included), or None for an unknown kind."""
    if isinstance(item, Rect):
        pad = _pad(item.style)
        return item.x - pad, item.y - pad, item.x + item.w + pad, item.y + item.h + pad
    if isinstance(item, Line):
        pad = _pad(item.style)
        return (min(item.x1, item.x2) - pad, min(item.y1, item.y2) - pad,
                max(item.x1, item.x2) + pad, max(item.y1, item.y2) + pad)
    if isinstance(item, Polygon):
        pad = _pad(item.style)
        xs = [p[0] for p in item.points]
        ys = [p[1] for p in item.points]
        return min(xs) - pad, min(ys) - pad, max(xs) + pad, max(ys) + pad
    if isinstance(item, Circle):
        r = item.r + _pad(item.style)
        return item.cx - r, item.cy - r, item.cx + r, item.cy + r
    if isinstance(item, Text):
        return text_box(item)
    return None


def _pad(style: Style) -> float:
    return style.width if style.stroke else 0.0


def text_box(item: Text) -> Box:
    """The box a line of text covers: ascent and descent of the em, width by the font."""
    width = text_width(item.text, item.size) * (1.06 if item.bold else 1.0)
    left = item.x - {"start": 0.0, "middle": width / 2, "end": width}[item.anchor]
    box = left, item.y - item.size, left + width, item.y + item.size * 0.3
    if not item.rotate:
        return box
    a = math.radians(item.rotate)  # turned about its anchor point, as the renderers turn it
    cos, sin = math.cos(a), math.sin(a)
    corners = [(px - item.x, py - item.y) for px in (box[0], box[2]) for py in (box[1], box[3])]
    xs = [item.x + px * cos - py * sin for px, py in corners]
    ys = [item.y + px * sin + py * cos for px, py in corners]
    return min(xs), min(ys), max(xs), max(ys)


#: The calibration vernier: front lines ``PITCH`` mm apart, back lines ``PITCH - STEP``, so
#: the front line ``i`` where a back line coincides reads ``i * STEP`` mm of misregistration.
#: A back pitch over twice the range (4 mm against +-2 mm) lets only one pair coincide.
PITCH, STEP, LINES = 4.2, 0.2, 10
SCALE_FROM = 60.0  # distance of each scale from the page centre (mm)


def calibration_items(page: Paper, back: bool, duplex: str = "long",
                      plan: str = "") -> tuple[Primitive, ...]:
    """A duplex calibration page: two verniers (X and Y) whose front and back lines meet
    when the sheet is held to the light.

    The back's lines are drawn where the chosen flip brings them against the front's (the
    back page mirrored like every back, ``mirrors_columns``), so both scales read for
    long- and short-edge flips. Where a front and a back line coincide, the front's label
    is the ``--back-offset`` value that cancels the misregistration, in ``STEP`` (0.2 mm)
    steps up to ``LINES * STEP`` (2 mm) each way.
    """
    mirror_x = mirrors_columns(page, duplex)
    cx, cy = page.width / 2, page.height / 2
    flip = "long" if duplex == "long" else "short"
    items: list[Primitive] = [
        Text(cx, MARGIN + 10, f"Duplex calibration — {'back' if back else 'front'} "
             f"({flip}-edge flip)", size=6, anchor="middle", bold=True),
        *_calibration_help(cx, MARGIN + 18, page.width - 2 * MARGIN, back, plan)]
    scales: list[Primitive] = []
    for axis in ("x", "y"):
        if back:
            scales.extend(_back_scale(page, axis, mirror_x))
        else:
            scales.extend(_front_scale(cx, cy, axis, _offset_sign(axis, mirror_x)))
    scales.append(Circle(cx, cy, 20, Style(width=0.2), cls="calibration-circle"))
    scales.append(Line(cx - 25, cy, cx + 25, cy, HAIRLINE))
    scales.append(Line(cx, cy - 25, cx, cy + 25, HAIRLINE))
    items.append(Group(tuple(scales), cls="calibration"))  # one figure on the page
    return tuple(items)


def _calibration_help(cx: float, y: float, width: float, back: bool,
                      plan: str = "") -> list[Primitive]:
    lines = (["This side is the back of the calibration sheet."] if back else
             ["Print this page and the next on one sheet, duplex, at 100 % (no fit to page).",
              "Hold the sheet to the light. On each scale find the front line that a back line "
              "continues exactly;",
              "its number is the offset in mm for that axis: build again with "
              "--back-offset X,Y (0.2 mm steps).",
              *(wrap(plan, 2.8, width) if plan and not back else [])])
    return [Text(cx, y + i * 4.0, line, size=fit_size(line, 2.8, width), anchor="middle")
            for i, line in enumerate(lines)]


def _offset_sign(axis: str, mirror_x: bool) -> int:
    """+1 when a back drawn ``d`` mm further along ``axis`` on its own page shows ``d`` mm
    further along it from the front; -1 along the mirrored axis."""
    mirrored = mirror_x if axis == "x" else not mirror_x
    return -1 if mirrored else 1


def _front_scale(cx: float, cy: float, axis: str, sign: int) -> list[Primitive]:
    """Lines ``PITCH`` apart from the scale's base line outwards, every fifth longer and
    labelled with the back offset it reads."""
    items: list[Primitive] = []
    base = cy - SCALE_FROM if axis == "x" else cx - SCALE_FROM
    centre = cx if axis == "x" else cy
    for i in range(-LINES, LINES + 1):
        at = centre + i * PITCH
        length = 8.0 if i % 5 == 0 else 5.0
        items.append(_scale_line(axis, at, base, base + length, "vernier-front"))
        if i % 5 == 0:
            value = -sign * i * STEP  # the offset that moves the back back onto the front
            label = f"{value:+.1f}" if i else "0"
            if axis == "x":
                items.append(Text(at, base + length + 3.0, label, size=2.2, anchor="middle",
                                  cls=f"vernier-label {axis}"))
            else:
                items.append(Text(base + length + 1.0, at + 0.8, label, size=2.2,
                                  cls=f"vernier-label {axis}"))
    end = centre + LINES * PITCH + 4.0
    if axis == "x":
        items.append(Text(end, base + 4.0, "X (mm)", size=2.6, bold=True))
    else:
        items.append(Text(base, end + 2.6, "Y (mm)", size=2.6, bold=True))
    return items


def _back_scale(page: Paper, axis: str, mirror_x: bool) -> list[Primitive]:
    """The back's lines, ``PITCH - STEP`` apart, drawn from the front's base line the other
    way, at the place the flip brings them to (as seen through the sheet)."""
    cx, cy = page.width / 2, page.height / 2
    base = cy - SCALE_FROM if axis == "x" else cx - SCALE_FROM
    centre = cx if axis == "x" else cy
    items: list[Primitive] = []
    for i in range(-LINES, LINES + 1):
        at = centre + i * (PITCH - STEP)
        length = 8.0 if i % 5 == 0 else 5.0
        line = _scale_line(axis, at, base - length, base, "vernier-back")
        items.append(_flipped(line, page, mirror_x))
    return items


def _scale_line(axis: str, at: float, start: float, end: float, cls: str) -> Line:
    if axis == "x":
        return Line(at, start, at, end, HAIRLINE, cls=f"{cls} vernier-x")
    return Line(start, at, end, at, HAIRLINE, cls=f"{cls} vernier-y")


def _flipped(line: Line, page: Paper, mirror_x: bool) -> Line:
    """A line as seen from the front, placed on the back page so the flip brings it there."""
    if mirror_x:
        return replace(line, x1=page.width - line.x1, x2=page.width - line.x2)
    return replace(line, y1=page.height - line.y1, y2=page.height - line.y2)
