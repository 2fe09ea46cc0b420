"""Legibility as a rule of the build: no text under 4.5 pt, factors on counters at 7 pt.

Two halves:

- ``fit`` and ``fit_lines`` size one text for its box while a piece is laid out:
  the text may shrink down to the minimum; what does not fit there stops the
  build with one line naming the piece and the text (nothing shrinks silently).
- ``check_pages`` walks the finished pages of the parts in ``ENFORCED`` and
  stops the build on any text under the minimum (and factors under their
  floor), naming the page and the piece. Extending the rule to another part of
  the kit is one word in ``ENFORCED``.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import replace
from typing import TYPE_CHECKING

from ..engine.errors import BadInput
from ..engine.looks import MIN_FACTORS_PT, MIN_PT, TYPE_STEPS_PT
from .fonts import text_width, wrap

if TYPE_CHECKING:  # kit imports this module
    from .kit import KitPage
from .primitives import Group, Primitive, Text
from .style import PT

#: Kit parts (the first word of a page's part name) whose pages must keep the rule: the
#: pieces, the aids, sheets, calibration and assumed values, and the maps (tiles with their
#: drawings, assembly pages), tracks and displays.
ENFORCED = ("counters", "cards", "sheet", "sheets", "setup", "player", "referee", "unit",
            "battle", "national", "weapons", "tracks", "duplex", "assumed", "map")
#: The class of the factors text on a counter (held to ``MIN_FACTORS_PT``).
FACTORS_CLASS = "factors"
MIN_MM = MIN_PT * PT
MIN_FACTORS_MM = MIN_FACTORS_PT * PT
#: Rounding slack when comparing sizes (sizes are rounded to 0.001 mm).
SLACK = 1e-6
#: Share of the wanted size at which fewer lines are preferred to a larger size.
COMFORT = 0.8


def pt(size_mm: float) -> str:
    return f"{size_mm / PT:.1f} pt"


def fit(text: str, size: float, width: float, what: str, floor: float = MIN_MM) -> float:
    """The size (mm, at most ``size``) at which ``text`` fits ``width`` mm; BadInput naming
    ``what`` when it does not fit even at ``floor`` (default: the kit's minimum)."""
    size = max(size, floor)
    wide = text_width(text, size)
    if wide <= width:
        return max(round(size, 3), floor)
    shrunk = int(size * width / wide * 1000) / 1000
    if shrunk + SLACK >= floor:
        return max(shrunk, floor)
    raise BadInput(f"{what}: {text!r} does not fit {width:.1f} mm even at {pt(floor)} "
                   f"(the smallest the kit prints); shorten it in the data")


def fit_lines(text: str, size: float, width: float, lines: int, what: str,
              floor: float = MIN_MM) -> tuple[list[str], float]:
    """``text`` on one line, or wrapped on up to ``lines`` lines, at the largest size from
    ``size`` down to ``floor`` that fits; BadInput naming ``what`` when nothing does."""
    size = max(size, floor)
    best: tuple[list[str], float] | None = None
    for count in range(1, lines + 1):
        found = _largest(text, size, width, count, floor)
        if found and found[1] >= size * COMFORT:
            return found  # the fewest lines at a comfortable size
        if found and (best is None or found[1] > best[1]):
            best = found
    if best is not None:
        return best
    raise BadInput(f"{what}: {text!r} does not fit {lines} line(s) of {width:.1f} mm even "
                   f"at {pt(floor)} (the smallest the kit prints); shorten it in the data")


def _largest(text: str, size: float, width: float, lines: int, floor: float
             ) -> tuple[list[str], float] | None:
    """The largest size from ``size`` down to ``floor`` at which ``text`` takes at most
    ``lines`` lines of ``width``, with its lines; None if there is none."""
    current = size
    while current + SLACK >= floor:
        broken = wrap(text, current, width) if lines > 1 else [text]
        if len(broken) <= lines and all(text_width(x, current) <= width for x in broken):
            return broken, max(round(current, 3), floor)
        current = max(current * 0.95, floor) if current > floor else floor - 1
    return None


def _texts_with_piece(items: Iterable[Primitive], piece: str | None = None, scale: float = 1.0
                      ) -> Iterator[tuple[Text, str | None, float]]:
    """Every text with the id of the innermost group with an id around it and the scale
    it is drawn at."""
    for item in items:
        if isinstance(item, Text):
            yield item, piece, scale
        elif isinstance(item, Group):
            yield from _texts_with_piece(item.items, item.id or piece, scale * item.scale)


def enforced(part: str) -> bool:
    return part.split(" ", 1)[0] in ENFORCED


def check_page(items: Iterable[Primitive], where: str) -> None:
    """Stop the build on the first text of a page under the minimum (or factors under
    their floor), naming ``where`` and the piece it is on."""
    for text, piece, scale in _texts_with_piece(items):
        floor = MIN_FACTORS_MM if _is_factors(text) else MIN_MM
        if text.text.strip() and text.size * scale + SLACK < floor:
            on = f" piece {piece!r}:" if piece else ""
            raise BadInput(f"{where}:{on} text {text.text!r} is {pt(text.size)}, under the "
                           f"{pt(floor)} the kit allows")


def _is_factors(text: Text) -> bool:
    return text.cls is not None and FACTORS_CLASS in text.cls.split()


def check_pages(pages: Iterable[KitPage]) -> None:
    """``check_page`` on every page (``KitPage``) of an enforced part."""
    for kit_page in pages:
        if enforced(kit_page.part):
            check_page(kit_page.page.items, f"{kit_page.part} (page {kit_page.page.id})")


def on_scale(size: float) -> float:
    """The step of the counters' type scale (``engine.looks.TYPE_STEPS_PT``) at or under
    ``size`` mm, in mm (never under the smallest step)."""
    steps = [round(step * PT, 4) for step in TYPE_STEPS_PT]  # as returned: a step stays put
    return max((step for step in steps if step <= round(size, 4) + SLACK), default=steps[0])


def scaled(items: Iterable[Primitive]) -> tuple[Primitive, ...]:
    """A counter side's items with every text set at a step of the type scale (``on_scale``):
    a text only shrinks about its anchor and baseline, so what was clear stays clear."""
    out: list[Primitive] = []
    for item in items:
        if isinstance(item, Text):
            item = replace(item, size=on_scale(item.size))
        elif isinstance(item, Group):
            item = replace(item, items=scaled(item.items))
        out.append(item)
    return tuple(out)
