"""PDF backend: draws resolved primitives with reportlab, fonts embedded.

The canvas is set up in millimetres with y downwards, the primitives'
coordinates, so nothing is converted by hand. ``invariant=1`` makes the same
input give byte-identical files.
"""

from __future__ import annotations

import io
import math
from typing import Any

from PIL import Image
from reportlab.lib.colors import HexColor
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from .fonts import FAMILY, font, text_width
from .primitives import Circle, Group, Line, Page, Polygon, Primitive, Rect, Style, Text


def pdf_bytes(pages: list[Page], title: str, subject: str = "") -> bytes:
    """One PDF holding ``pages`` in order, each at its true size."""
    font()
    buffer = io.BytesIO()
    canvas = Canvas(buffer, pagesize=(pages[0].width * mm, pages[0].height * mm),
                    invariant=1, pageCompression=1,
                    initialFontName=FAMILY,  # type: ignore[arg-type]  # types-reportlab: a number
                    initialFontSize=3)
    canvas.setTitle(title)
    canvas.setSubject(subject)
    canvas.setCreator("warpress")
    canvas.setAuthor("warpress")
    for page in pages:
        canvas.setPageSize((page.width * mm, page.height * mm))
        canvas.saveState()
        canvas.translate(0, page.height * mm)
        canvas.scale(mm, -mm)
        for item in page.items:
            _draw(canvas, item)
        canvas.restoreState()
        canvas.showPage()
    canvas.save()
    return buffer.getvalue()


def _q(value: float) -> float:
    """A length rounded to 0.001 mm, as in the SVG: reportlab writes it with 3 to 6
    decimals, so no value is a rounding tie, where its C accelerator (rl_accel) and its
    Python code could print different digits."""
    return round(value, 3)


def _draw(canvas: Canvas, item: Primitive) -> None:
    if isinstance(item, Text):
        _text(canvas, item)
        return
    if isinstance(item, Group):
        _group(canvas, item)
        return
    stroke, fill = _apply(canvas, item.style)
    if isinstance(item, Rect):
        if item.r:
            canvas.roundRect(_q(item.x), _q(item.y), _q(item.w), _q(item.h), _q(item.r),
                             stroke=stroke, fill=fill)
        else:
            canvas.rect(_q(item.x), _q(item.y), _q(item.w), _q(item.h), stroke=stroke, fill=fill)
    elif isinstance(item, Line):
        if stroke:
            canvas.line(_q(item.x1), _q(item.y1), _q(item.x2), _q(item.y2))
    elif isinstance(item, Polygon):
        path = canvas.beginPath()
        (x0, y0), *rest = item.points
        path.moveTo(_q(x0), _q(y0))
        for x, y in rest:
            path.lineTo(_q(x), _q(y))
        if item.closed:
            path.close()
        canvas.drawPath(path, stroke=stroke, fill=fill and item.closed)
    elif isinstance(item, Circle):
        canvas.circle(_q(item.cx), _q(item.cy), _q(item.r), stroke=stroke, fill=fill)


def _apply(canvas: Canvas, style: Style) -> tuple[int, int]:
    if style.fill:
        canvas.setFillColor(HexColor(style.fill))
    if style.stroke:
        canvas.setStrokeColor(HexColor(style.stroke))
        canvas.setLineWidth(_q(style.width))
        canvas.setDash([_q(d) for d in style.dash] if style.dash else [])
    if style.opacity != 1.0:
        canvas.setFillAlpha(style.opacity)
        canvas.setStrokeAlpha(style.opacity)
    elif hasattr(canvas, "_fillAlpha"):
        canvas.setFillAlpha(1)
        canvas.setStrokeAlpha(1)
    return (1 if style.stroke else 0), (1 if style.fill else 0)


def _text(canvas: Canvas, item: Text) -> None:
    canvas.saveState()
    canvas.translate(_q(item.x), _q(item.y))
    canvas.scale(1, -1)
    if item.rotate:
        canvas.rotate(-item.rotate)
    canvas.setFillColor(HexColor(item.fill))
    size = _q(item.size)
    canvas.setFont(FAMILY, size)
    shift = 0.0
    if item.anchor != "start":
        width = text_width(item.text, size)
        shift = _q(-width / 2 if item.anchor == "middle" else -width)
    if item.bold:
        canvas.setStrokeColor(HexColor(item.fill))
        canvas.setLineWidth(_q(size * 0.03))
        text = canvas.beginText(0, 0)
        text.setTextRenderMode(2)
        text.setFont(FAMILY, size)
        text.setTextOrigin(shift, 0)
        text.textOut(item.text)
        canvas.drawText(text)
    else:
        canvas.drawString(shift, 0, item.text)
    canvas.restoreState()


def _group(canvas: Canvas, item: Group) -> None:
    canvas.saveState()
    if item.dx or item.dy:
        canvas.translate(_q(item.dx), _q(item.dy))
    if item.rotate:
        canvas.rotate(item.rotate)
    if item.scale != 1.0:
        canvas.scale(item.scale, item.scale)
    if item.clip:
        x, y, w, h = item.clip
        path = canvas.beginPath()
        path.rect(_q(x), _q(y), _q(w), _q(h))
        canvas.clipPath(path, stroke=0, fill=0)
    for child in item.items:
        _draw(canvas, child)
    canvas.restoreState()


#: The resolutions a PNG may be asked for (dots per inch): below 10 nothing is legible, above
#: 600 a Nightfighter map sheet alone would be 14,000 x 10,000 pixels.
DPI_RANGE = (10, 600)


def check_dpi(dpi: object, what: str = "--dpi") -> int:
    """``dpi`` as an int within ``DPI_RANGE``; BadInput quoting it otherwise."""
    # start-up: 2 more modules, only when this runs
    from ..engine.errors import BadInput

    low, high = DPI_RANGE
    if isinstance(dpi, bool) or not isinstance(dpi, int) or not low <= dpi <= high:
        raise BadInput(f"{what} {dpi!r} is not a whole number from {low} to {high}")
    return dpi


def png_pages(pdf: bytes, dpi: int) -> list[bytes]:
    """Every page of ``pdf`` as a PNG at ``dpi``, rasterised by PDFium (pypdfium2) from the
    PDF, which carries the embedded font, so the picture shows what prints. A page is
    ``ceil(points * dpi / 72)`` pixels a side, on white, without an alpha channel, and says
    its resolution (a pHYs chunk), so an image viewer prints it at its true size."""
    # start-up: 46 more modules (pypdfium2), only when this runs
    import pypdfium2

    check_dpi(dpi)
    document = pypdfium2.PdfDocument(pdf)
    try:
        return [_png(document[index], dpi) for index in range(len(document))]
    finally:
        document.close()


def _png(page: Any, dpi: int) -> bytes:  # a pypdfium2 page (the library has no types)
    width, height = page.get_size()
    bitmap = page.render(scale=dpi / 72, may_draw_forms=False,
                         crop=(0, 0, 0, 0), fill_color=(255, 255, 255, 255))
    image = bitmap.to_pil().convert("RGB")
    want = (math.ceil(width * dpi / 72 - 1e-6), math.ceil(height * dpi / 72 - 1e-6))
    if image.size != want:  # PDFium rounds to the nearest pixel; a side is never cut short
        canvas = Image.new("RGB", want, "white")
        canvas.paste(image, (0, 0))
        image = canvas
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False, dpi=(dpi, dpi))  # pHYs: prints true to size
    page.close()
    return out.getvalue()
