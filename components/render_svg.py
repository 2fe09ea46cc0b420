"""SVG backend: draws resolved primitives with svgwrite, one file per page."""

from __future__ import annotations

from typing import Any

import svgwrite

from .fonts import SVG_FAMILY
from .primitives import Circle, Group, Line, Page, Polygon, Primitive, Rect, Style, Text


def num(value: float) -> str:
    """A coordinate with at most 3 decimals, no trailing zeros (stable output)."""
    text = f"{value:.3f}".rstrip("0").rstrip(".")
    return "0" if text in ("-0", "") else text


class _SvgWriter:
    def __init__(self, page: Page, title: str):
        self.dwg = svgwrite.Drawing(
            size=(f"{num(page.width)}mm", f"{num(page.height)}mm"),
            viewBox=f"0 0 {num(page.width)} {num(page.height)}",
            profile="full",
            debug=False,
            id=page.id,
        )
        self.dwg.set_desc(title=title, desc=(
            "Made by warpress. Text expects the font IPAex Gothic (ipaexg.ttf, shipped with "
            "warpress; IPA Font License)."))
        self.dwg.defs.add(self.dwg.style(f"text {{ font-family: {SVG_FAMILY}; }}"))
        self.clips = 0

    # svgwrite has no types: its elements are Any here
    def add(self, parent: Any, item: Primitive) -> None:
        element = self.element(item)
        if item.id:
            element["id"] = item.id
        if item.cls:
            element["class"] = item.cls
        parent.add(element)

    def element(self, item: Primitive) -> Any:
        if isinstance(item, Rect):
            extra = {"rx": num(item.r)} if item.r else {}
            return self.dwg.rect((num(item.x), num(item.y)), (num(item.w), num(item.h)),
                                 **extra, **_style(item.style))
        if isinstance(item, Line):
            return self.dwg.line((num(item.x1), num(item.y1)), (num(item.x2), num(item.y2)),
                                 **_style(item.style))
        if isinstance(item, Polygon):
            points = [(num(x), num(y)) for x, y in item.points]
            make = self.dwg.polygon if item.closed else self.dwg.polyline
            return make(points, **_style(item.style))
        if isinstance(item, Circle):
            return self.dwg.circle((num(item.cx), num(item.cy)), num(item.r),
                                   **_style(item.style))
        if isinstance(item, Text):
            return self.text(item)
        return self.group(item)

    def text(self, item: Text) -> Any:
        attrs = {"font_size": num(item.size), "fill": item.fill}
        if item.anchor != "start":
            attrs["text_anchor"] = item.anchor
        if item.bold:
            attrs["font_weight"] = "bold"
        element = self.dwg.text(item.text, insert=(num(item.x), num(item.y)), **attrs)
        if item.rotate:
            element["transform"] = f"rotate({num(item.rotate)} {num(item.x)} {num(item.y)})"
        return element

    def group(self, item: Group) -> Any:
        element = self.dwg.g()
        transform = []
        if item.dx or item.dy:
            transform.append(f"translate({num(item.dx)} {num(item.dy)})")
        if item.rotate:
            transform.append(f"rotate({num(item.rotate)})")
        if item.scale != 1.0:
            transform.append(f"scale({num(item.scale)})")
        if transform:
            element["transform"] = " ".join(transform)
        if item.clip:
            self.clips += 1
            clip_id = f"clip-{self.clips}"
            clip = self.dwg.clipPath(id=clip_id)
            x, y, w, h = item.clip
            clip.add(self.dwg.rect((num(x), num(y)), (num(w), num(h))))
            self.dwg.defs.add(clip)
            inner = self.dwg.g(clip_path=f"url(#{clip_id})")
            element.add(inner)
            for child in item.items:
                self.add(inner, child)
            return element
        for child in item.items:
            self.add(element, child)
        return element


def _style(style: Style) -> dict[str, str]:
    out = {"fill": style.fill or "none"}
    if style.stroke:
        out["stroke"] = style.stroke
        out["stroke_width"] = num(style.width)
        if style.dash:
            out["stroke_dasharray"] = ",".join(num(d) for d in style.dash)
    if style.opacity != 1.0:
        out["opacity"] = num(style.opacity)
    return out


def svg_text(page: Page, title: str = "") -> str:
    """The SVG document of one page."""
    writer = _SvgWriter(page, title or page.title)
    for item in page.items:
        writer.add(writer.dwg, item)
    svg: str = writer.dwg.tostring()
    return svg
