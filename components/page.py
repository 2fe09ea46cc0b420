"""Paper sizes, the printer margin, and the footer every page carries.

The footer names game, kit part, page n/N and paper, and draws a 50 mm scale
bar so that a "fit to page" print is caught before cutting.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..engine.errors import BadInput
from ..engine.inputs import did_you_mean, quote
from .primitives import HAIRLINE, Group, Line, Primitive, Rect, Style, Text

PAPERS: dict[str, tuple[float, float]] = {
    "a4": (210.0, 297.0),
    "letter": (215.9, 279.4),
    "a3": (297.0, 420.0),
    "tabloid": (279.4, 431.8),
}
MARGIN = 6.0
FOOTER = 5.0  # height of the footer band above the bottom margin
SCALE_BAR = 50.0


@dataclass(frozen=True)
class Paper:
    name: str
    width: float
    height: float

    @property
    def landscape(self) -> Paper:
        return Paper(self.name, max(self.width, self.height), min(self.width, self.height))

    @property
    def portrait(self) -> Paper:
        return Paper(self.name, min(self.width, self.height), max(self.width, self.height))

    def content(self, footer_side: str = "bottom") -> tuple[float, float, float, float]:
        """(x, y, w, h) of the area inside the margin, beside the footer band."""
        if footer_side == "right":
            return (MARGIN, MARGIN, self.width - 2 * MARGIN - FOOTER, self.height - 2 * MARGIN)
        return (MARGIN, MARGIN, self.width - 2 * MARGIN, self.height - 2 * MARGIN - FOOTER)

    @property
    def label(self) -> str:
        return {"a4": "A4", "a3": "A3", "letter": "Letter", "tabloid": "Tabloid"}.get(
            self.name, self.name)


def paper(name: str) -> Paper:
    """A paper by name; an unknown name is bad input listing the sizes."""
    key = name.lower()
    if key not in PAPERS:
        raise BadInput(f"unknown paper {quote(name)}{did_you_mean(name, PAPERS)} "
                       f"(allowed: {', '.join(PAPERS)})")
    width, height = PAPERS[key]
    return Paper(key, width, height)


def footer(paper: Paper, game: str, part: str, number: int, total: int,
           side: str = "bottom", note: str = "") -> list[Primitive]:
    """Footer text and the 50 mm scale bar, inside the margin at the bottom of the page;
    a ``note`` (how to print the kit, on its first page) ends the text.

    With ``side="right"`` the same footer runs up the right-hand edge (for sheets
    whose pieces need the full page height, such as 9 cards on Letter).
    """
    if side == "right":
        turned = Paper(paper.name, paper.height, paper.width)
        return [Group(tuple(footer(turned, game, part, number, total, note=note)),
                      dy=paper.height,
                      rotate=-90, cls="footer-right")]
    base = paper.height - MARGIN - 1.0
    text = f"{game} · {part} · page {number}/{total} · {paper.label}"
    if note:
        text += f" · {note}"
    items: list[Primitive] = [Text(MARGIN, base, text, size=2.6, cls="footer")]
    x0 = paper.width - MARGIN - SCALE_BAR
    bar_y = base - 1.6
    items.append(Rect(x0, bar_y, SCALE_BAR, 1.2, Style(fill="#000000", stroke=None),
                      id=None, cls="scale-bar"))
    for tick in range(0, 51, 10):
        items.append(Line(x0 + tick, bar_y - 0.8, x0 + tick, bar_y + 1.2, HAIRLINE))
    items.append(Text(x0 - 1.5, base, "50 mm", size=2.4, anchor="end", cls="scale-label"))
    return items
