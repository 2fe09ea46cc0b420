"""Resolved layout: plain shapes and text in millimetres.

Every component is laid out once into these primitives; the SVG backend
(svgwrite) and the PDF backend (reportlab) draw the same primitives. The origin
is the top-left corner of the page, x to the right, y downwards, all lengths
in millimetres (font sizes too: ``size`` is the em height in mm).
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field, replace
from typing import Any


@dataclass(frozen=True)
class Style:
    """Fill and stroke of a shape. Colours are ``#rrggbb`` or None (none)."""

    fill: str | None = None
    stroke: str | None = "#000000"
    width: float = 0.25
    dash: tuple[float, ...] = ()
    opacity: float = 1.0


NO_STROKE = Style(stroke=None)
THIN = Style(width=0.15)
HAIRLINE = Style(width=0.1)


@dataclass(frozen=True)
class Shape:
    """Common fields: an SVG id and classes, so tests can find what is drawn."""

    id: str | None = field(default=None, kw_only=True)
    cls: str | None = field(default=None, kw_only=True)


@dataclass(frozen=True)
class Rect(Shape):
    x: float
    y: float
    w: float
    h: float
    style: Style = Style()
    r: float = 0.0  # corner radius


@dataclass(frozen=True)
class Line(Shape):
    x1: float
    y1: float
    x2: float
    y2: float
    style: Style = Style()


@dataclass(frozen=True)
class Polygon(Shape):
    points: tuple[tuple[float, float], ...]
    style: Style = Style()
    closed: bool = True


@dataclass(frozen=True)
class Circle(Shape):
    cx: float
    cy: float
    r: float
    style: Style = Style()


@dataclass(frozen=True)
class Text(Shape):
    """One line of text. ``anchor``: start, middle or end of the baseline at (x, y)."""

    x: float
    y: float
    text: str
    size: float = 3.0
    anchor: str = "start"
    fill: str = "#000000"
    bold: bool = False
    rotate: float = 0.0  # degrees, clockwise, about (x, y)


@dataclass(frozen=True)
class Group(Shape):
    """Items drawn translated by (dx, dy), optionally rotated (degrees clockwise) and clipped.

    ``clip`` is a rectangle (x, y, w, h) in the group's own coordinates.
    """

    items: tuple[Primitive, ...]
    dx: float = 0.0
    dy: float = 0.0
    rotate: float = 0.0
    scale: float = 1.0
    clip: tuple[float, float, float, float] | None = None


Primitive = Rect | Line | Polygon | Circle | Text | Group


@dataclass(frozen=True)
class Page:
    """One printed page: its true size and everything on it."""

    width: float
    height: float
    items: tuple[Primitive, ...]
    id: str
    title: str = ""
    footer: str = "bottom"  # or "right": where the page furniture goes


def group(items: Sequence[Primitive], **kwargs: Any) -> Group:
    return Group(items=tuple(items), **kwargs)


def walk(items: Sequence[Primitive]) -> Iterator[Primitive]:
    """Every primitive, groups' contents included, depth first."""
    for item in items:
        yield item
        if isinstance(item, Group):
            yield from walk(item.items)


def texts(items: Sequence[Primitive]) -> Iterator[Text]:
    return (item for item in walk(items) if isinstance(item, Text))


def arrow(points: Sequence[tuple[float, float]], style: Style, head: float = 2.2,
          id: str | None = None, cls: str = "arrow") -> Group:
    """A polyline through ``points`` with a filled arrowhead ``head`` long at its last point
    (the head in the stroke colour and opacity of ``style``)."""
    (x1, y1), (x2, y2) = points[-2], points[-1]
    length = math.hypot(x2 - x1, y2 - y1) or 1.0
    ux, uy = (x2 - x1) / length, (y2 - y1) / length
    base = (x2 - ux * head, y2 - uy * head)
    wing = (-uy * head * 0.45, ux * head * 0.45)
    shaft = Polygon((*points[:-1], base), replace(style, fill=None), closed=False)
    tip = Polygon(((x2, y2), (base[0] + wing[0], base[1] + wing[1]),
                   (base[0] - wing[0], base[1] - wing[1])),
                  Style(fill=style.stroke, stroke=None, opacity=style.opacity))
    return Group((shaft, tip), id=id, cls=cls)


def with_id(shape: Shape, id: str | None = None, cls: str | None = None) -> Shape:
    return replace(shape, id=id, cls=cls)
