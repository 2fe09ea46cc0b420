"""Label placement on maps: text boxes, and a placer that tries candidate positions.

A label is placed at the first of its candidate positions whose box lies inside the
map's frame and clear of every box already taken (hex ids, symbols, other labels).
A label that fits nowhere stops the build with one line naming it: labels are never
shrunk or left overlapping.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from ..engine.errors import BadInput
from .fonts import text_width
from .primitives import Group, Primitive, Text

#: Of a line's em height, how much lies above the baseline and below it (IPAex Gothic's
#: ascender and descender, rounded up so boxes cover the ink).
ASCENT, DESCENT = 0.88, 0.14


@dataclass(frozen=True)
class Box:
    """An axis-aligned rectangle in mm: left, top, right, bottom."""

    x0: float
    y0: float
    x1: float
    y1: float

    def overlaps(self, other: Box, gap: float = 0.0) -> bool:
        """True when the boxes, each grown by ``gap``/2, share any area."""
        return (self.x0 < other.x1 + gap and other.x0 < self.x1 + gap
                and self.y0 < other.y1 + gap and other.y0 < self.y1 + gap)

    def inside(self, frame: Box) -> bool:
        return (self.x0 >= frame.x0 and self.y0 >= frame.y0
                and self.x1 <= frame.x1 and self.y1 <= frame.y1)

    def moved(self, dx: float, dy: float) -> Box:
        return Box(self.x0 + dx, self.y0 + dy, self.x1 + dx, self.y1 + dy)

    @property
    def w(self) -> float:
        return self.x1 - self.x0

    @property
    def h(self) -> float:
        return self.y1 - self.y0


def text_box(text: Text) -> Box:
    """The box a one-line text covers (unrotated), from the font's metrics."""
    width = text_width(text.text, text.size)
    left = {"start": text.x, "middle": text.x - width / 2, "end": text.x - width}[text.anchor]
    return Box(left, text.y - text.size * ASCENT, left + width, text.y + text.size * DESCENT)


def placed_texts(items: Sequence[Primitive], dx: float = 0.0, dy: float = 0.0
                 ) -> Iterable[tuple[Text, Box]]:
    """Every text of ``items`` with its box in the drawing's coordinates (groups'
    offsets applied; scaled or rotated groups and rotated texts are skipped)."""
    for item in items:
        if isinstance(item, Group):
            if item.rotate or item.scale != 1.0:
                continue
            yield from placed_texts(item.items, dx + item.dx, dy + item.dy)
        elif isinstance(item, Text) and not item.rotate and item.text.strip():
            yield item, text_box(item).moved(dx, dy)


def overlapping_pairs(boxes: Sequence[tuple[str, Box]], gap: float = 0.0
                      ) -> list[tuple[str, str]]:
    """Names of every pair of boxes that overlap (a sweep along x)."""
    order = sorted(boxes, key=lambda nb: nb[1].x0)
    pairs = []
    for i, (name, box) in enumerate(order):
        for other_name, other in order[i + 1:]:
            if other.x0 >= box.x1 + gap:
                break
            if box.overlaps(other, gap):
                pairs.append((name, other_name))
    return pairs


class LabelPlacer:
    """Places labels inside ``frame`` clear of every box taken so far."""

    def __init__(self, frame: Box, taken: Iterable[Box] = (), gap: float = 0.4):
        self.frame = frame
        self.taken: list[Box] = list(taken)
        self.gap = gap

    def free(self, box: Box) -> bool:
        return box.inside(self.frame) and not any(box.overlaps(t, self.gap)
                                                   for t in self.taken)

    def take(self, box: Box) -> None:
        self.taken.append(box)

    def place(self, text: Text, candidates: Sequence[tuple[float, float, str]],
              what: str) -> Text:
        """``text`` moved to the first free candidate ``(x, y, anchor)``; BadInput naming
        ``what`` when none is free."""
        for x, y, anchor in candidates:
            trial = replace(text, x=x, y=y, anchor=anchor)
            box = text_box(trial)
            if self.free(box):
                self.take(box)
                return trial
        raise BadInput(f"{what}: label {text.text!r} fits nowhere inside the map frame "
                       f"without covering a hex id, a symbol or another label "
                       f"({len(candidates)} positions tried)")


def around(x: float, y: float, size: float, reach: float, steps: int = 4
           ) -> list[tuple[float, float, str]]:
    """Candidate positions round a point: under and over it, then right and left of it,
    then diagonals, each at growing distance up to ``reach`` mm."""
    out: list[tuple[float, float, str]] = []
    for k in range(steps + 1):
        d = reach * k / steps
        out += [(x, y + size * 0.35 + d, "middle"), (x, y + size * 0.35 - d, "middle"),
                (x + d, y + size * 0.35, "start"), (x - d, y + size * 0.35, "end"),
                (x + d, y + size * 0.35 + d, "start"), (x - d, y + size * 0.35 + d, "end"),
                (x + d, y + size * 0.35 - d, "start"), (x - d, y + size * 0.35 - d, "end")]
    return out


def segment_hits(box: Box, p: tuple[float, float], q: tuple[float, float]) -> bool:
    """True when the segment p-q passes through ``box`` (Liang-Barsky clipping)."""
    (x1, y1), (x2, y2) = p, q
    dx, dy = x2 - x1, y2 - y1
    lo, hi = 0.0, 1.0
    for edge_p, edge_q in ((-dx, x1 - box.x0), (dx, box.x1 - x1), (-dy, y1 - box.y0),
                           (dy, box.y1 - y1)):
        if edge_p == 0:
            if edge_q < 0:
                return False
            continue
        t = edge_q / edge_p
        if edge_p < 0:
            lo = max(lo, t)
        else:
            hi = min(hi, t)
        if lo > hi:
            return False
    return True


def union(boxes: Iterable[Box]) -> Box:
    """The smallest box holding all ``boxes``."""
    boxes = list(boxes)
    return Box(min(b.x0 for b in boxes), min(b.y0 for b in boxes), max(b.x1 for b in boxes),
               max(b.y1 for b in boxes))
