"""Counters' text fits: nothing clipped by the cut, nothing over another element.

A counter is checked as it is printed: every text's ink box, measured with the metrics of
the font the renderer embeds (``fonts.text_width`` across, the face's ascent, descent and
cap height from reportlab up and down), must lie

- inside the counter, at least ``CUT_MM`` from the cut line, and a line holding a digit at
  least ``CUT_DIGITS_MM`` (a value a player reads must survive a cut a little off the line);
- clear of every other text and of the counter's symbol (the silhouette or the frame,
  measured by its drawn shapes).

``check_pages`` walks a kit's finished pages and stops the build on the first counter that
breaks the rule, with one line naming the piece and the text. ``problems`` lists them all
(the tests and a designer read them).
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from ..engine.errors import BadInput
from .fonts import font, text_width
from .labels import Box, segment_hits
from .marks import DAGGER
from .primitives import Circle, Group, Line, Page, Polygon, Primitive, Rect, Text

if TYPE_CHECKING:  # kit imports this module
    from .kit import KitPage

#: The least room between a counter's text and its cut line, in mm.
CUT_MM = 0.4
#: The least room between a digit and the cut line, in mm.
CUT_DIGITS_MM = 1.0
#: Rounding slack when comparing positions (layouts round to 0.001 mm).
SLACK = 0.005
#: The class of a designer proof's mark on a counter (it may sit in the corner's margin).
PROOF_MARK = "proof-mark"
#: The class of the symbol groups (``symbols.symbol``).
SYMBOL_CLASS = "unit-symbol"
#: Characters that reach the font's full ascent or descent; other lines (figures,
#: capitals) rise only to the cap height and sit on the baseline.
_PLAIN = frozenset("0123456789ABCDEFGHIKLMNOPRSTUVWXYZ+-/=%#.:* ")
_DIGITS = frozenset("0123456789")


@dataclass(frozen=True)
class Problem:
    """One text of one counter that breaks the rule."""

    piece: str
    text: str
    why: str

    def line(self) -> str:
        return f"counter {self.piece!r}: {self.text!r} {self.why}; shorten it in the data"


def metrics() -> tuple[float, float, float]:
    """(ascent, descent, cap height) of the kit's font, as shares of the em."""
    face = font().face
    return face.ascent / 1000, -face.descent / 1000, face.capHeight / 1000


def ink_box(text: Text) -> Box:
    """The box a one-line, unrotated text covers: its advance width across, its ascent and
    descent (cap height and baseline for a line of figures and capitals) up and down."""
    ascent, descent, cap = metrics()
    plain = set(text.text.replace(DAGGER, "")) <= _PLAIN  # a proof's dagger: a mark
    width = text_width(text.text, text.size)
    left = {"start": text.x, "middle": text.x - width / 2, "end": text.x - width}[text.anchor]
    top = text.y - text.size * (cap if plain else ascent)
    bottom = text.y + (0.0 if plain else text.size * descent)
    return Box(left, top, left + width, bottom)


#: Classes of a counter's own furniture, which text may lie on: its ground, the reduced
#: side's band and the edge line.
FURNITURE = frozenset({"counter-face", "counter-back", "reduced-band", "counter-edge"})

Segment = tuple[tuple[float, float], tuple[float, float]]


@dataclass(frozen=True)
class Ink:
    """A drawn element of a counter a text must keep clear of: a filled area (its box) or
    the outline of an unfilled shape (its segments); ``owner`` is the symbol it belongs to."""

    box: Box
    segments: tuple[Segment, ...] = ()
    owner: int = -1

    def hits(self, text: Box) -> bool:
        if not _overlap(text, self.box):
            return False
        return not self.segments or any(segment_hits(text, p, q) for p, q in self.segments)


def _ink(item: Primitive, dx: float, dy: float, owner: int) -> Ink | None:
    """The element a shape draws, moved by (dx, dy); None for texts, groups and furniture."""
    if item.cls and set(item.cls.split()) & FURNITURE:
        return None
    if isinstance(item, Rect):
        points: tuple[tuple[float, float], ...] = (
            (item.x, item.y), (item.x + item.w, item.y), (item.x + item.w, item.y + item.h),
            (item.x, item.y + item.h))
        closed, filled = True, item.style.fill is not None
    elif isinstance(item, Polygon):
        points, closed, filled = item.points, item.closed, item.style.fill is not None
    elif isinstance(item, Line):
        points, closed, filled = ((item.x1, item.y1), (item.x2, item.y2)), False, False
    elif isinstance(item, Circle):
        r = item.r
        points = tuple((item.cx + r * c, item.cy + r * s) for c, s in _OCTAGON)
        closed, filled = True, item.style.fill is not None
    else:
        return None
    moved = tuple((x + dx, y + dy) for x, y in points)
    box = Box(min(x for x, _ in moved), min(y for _, y in moved), max(x for x, _ in moved),
              max(y for _, y in moved))
    if filled:
        return Ink(box, owner=owner)
    pairs = list(zip(moved, moved[1:], strict=False))
    if closed:
        pairs.append((moved[-1], moved[0]))
    return Ink(box, tuple(pairs), owner)


_OCTAGON = tuple((round(math.cos(math.radians(a)), 6), round(math.sin(math.radians(a)), 6))
                 for a in range(0, 360, 45))


def _walk(items: Sequence[Primitive], dx: float = 0.0, dy: float = 0.0, owner: int = -1,
          counter: list[int] | None = None) -> Iterator[tuple[Primitive, float, float, int]]:
    """Every shape and text with its offset and the symbol it belongs to (-1: none); groups
    scaled or rotated are left out (a counter draws none)."""
    counter = [0] if counter is None else counter
    for item in items:
        if isinstance(item, Group):
            if item.rotate or item.scale != 1.0:
                continue
            inner = owner
            if owner < 0 and item.cls and SYMBOL_CLASS in item.cls:
                counter[0] += 1
                inner = counter[0]
            yield from _walk(item.items, dx + item.dx, dy + item.dy, inner, counter)
        else:
            yield item, dx, dy, owner


def piece_problems(piece: str, w: float, h: float, items: Sequence[Primitive]
                   ) -> list[Problem]:
    """What of one counter side (``w`` x ``h`` mm, its items in its own coordinates, the
    first its ground) is clipped, too near the cut or over another element."""
    out: list[Problem] = []
    placed: list[tuple[Text, Box, int]] = []
    inks: list[Ink] = []
    for item, dx, dy, owner in _walk(items[1:]):
        if isinstance(item, Text):
            if item.text.strip() and not item.rotate and item.cls != PROOF_MARK:
                placed.append((item, ink_box(item).moved(dx, dy), owner))
        elif (ink := _ink(item, dx, dy, owner)) is not None:
            inks.append(ink)
    for text, box, _ in placed:
        least = CUT_DIGITS_MM if set(text.text) & _DIGITS else CUT_MM
        room = min(box.x0, box.y0, w - box.x1, h - box.y1)
        if room < least - SLACK:
            where = "runs past the cut" if room < 0 else f"is {room:.2f} mm from the cut"
            out.append(Problem(piece, text.text, f"{where} (at least {least:g} mm)"))
    for i, (text, box, owner) in enumerate(placed):
        for other, other_box, other_owner in placed[i + 1:]:
            if _overlap(box, other_box) and not (owner >= 0 and owner == other_owner):
                out.append(Problem(piece, text.text, f"overlaps {other.text!r}"))
        if any(ink.hits(box) for ink in inks if owner < 0 or ink.owner != owner):
            out.append(Problem(piece, text.text, "overlaps a drawn element"))
    return out


def _overlap(a: Box, b: Box) -> bool:
    return (a.x0 < b.x1 - SLACK and b.x0 < a.x1 - SLACK
            and a.y0 < b.y1 - SLACK and b.y0 < a.y1 - SLACK)


def counters(items: Iterable[Primitive]
             ) -> Iterator[tuple[str, float, float, tuple[Primitive, ...]]]:
    """(piece id, width, height, items) of every counter side on a page: a group whose
    id names a counter and whose first item is the counter's trim, drawn at (0, 0)."""
    for item in items:
        if not isinstance(item, Group):
            continue
        first = item.items[0] if item.items else None
        piece_id = item.id or ""
        if piece_id.startswith("counter-") and isinstance(first, Rect) and (
                first.x == 0 and first.y == 0):
            yield piece_id, first.w, first.h, item.items
        else:
            yield from counters(item.items)


def problems(pages: Iterable[Page | KitPage]) -> list[Problem]:
    """Every problem of every counter on the pages (``Page`` or ``KitPage``)."""
    out: list[Problem] = []
    seen: set[tuple[str, float, float, tuple[Primitive, ...]]] = set()
    for page in pages:
        items = page.items if isinstance(page, Page) else page.page.items
        for piece, w, h, drawn in counters(items):
            key = (_kind(piece), w, h, drawn)
            if key in seen:  # the copies of a counter are drawn alike
                continue
            seen.add(key)
            out.extend(piece_problems(piece, w, h, drawn))
    return out


def _kind(piece: str) -> str:
    return piece.rstrip("0123456789-")


def check_pages(pages: Iterable[Page | KitPage]) -> None:
    """Stop the build on the first counter whose text is clipped or overlaps, in one line
    naming the piece."""
    found = problems(pages)
    if found:
        more = f" (and {len(found) - 1} more)" if len(found) > 1 else ""
        raise BadInput(found[0].line() + more)
