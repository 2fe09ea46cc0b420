"""PDF to PNG (``render_pdf.png_pages``): pypdfium2, with pip alone."""

from __future__ import annotations

import struct
from io import BytesIO

import pytest
from PIL import Image
from reportlab.pdfgen import canvas
from warpress.components.render_pdf import png_pages
from warpress.engine.errors import BadInput

SIZES = [(595.28 + 7.3 * k, 841.89 - 5.1 * k) for k in range(12)]  # points; 12 pages


def twelve_pages() -> bytes:
    """Twelve pages of different sizes, page k with a black square k*10 points from the left."""
    out = BytesIO()
    pdf = canvas.Canvas(out, invariant=1)
    for k, (width, height) in enumerate(SIZES):
        pdf.setPageSize((width, height))
        pdf.rect(k * 10, height - 72, 36, 36, stroke=0, fill=1)  # 1 inch down from the top
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def size_of(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def pixels(points: float, dpi: int) -> int:
    return int(-(-points * dpi // 72))  # rounded up: no side is cut short


@pytest.mark.parametrize("dpi", [30, 72])
def test_png_pages_one_png_per_page_in_order_at_its_size(dpi):
    pngs = png_pages(twelve_pages(), dpi)
    assert [size_of(p) for p in pngs] == [(pixels(w, dpi), pixels(h, dpi)) for w, h in SIZES]


def test_png_pages_draw_what_the_pdf_holds_where_it_holds_it():
    for k, png in enumerate(png_pages(twelve_pages(), 72)):
        image = Image.open(BytesIO(png)).convert("L")
        assert image.getpixel((k * 10 + 18, 72 - 18)) < 40  # inside the square
        assert image.getpixel((k * 10 + 60, 72 - 18)) > 215  # white paper beside it


def phys(png: bytes) -> tuple[int, int, int]:
    """The pHYs chunk of a PNG: pixels per unit across and down, and the unit (1 = metre)."""
    at = png.index(b"pHYs")
    return struct.unpack(">IIB", png[at + 4:at + 13])


@pytest.mark.parametrize("dpi", [40, 150, 300])
def test_png_pages_carry_their_resolution_so_they_print_true_to_size(dpi):
    per_metre = round(dpi / 0.0254)
    for png in png_pages(twelve_pages(), dpi)[:2]:
        assert phys(png) == (per_metre, per_metre, 1)
        assert Image.open(BytesIO(png)).info["dpi"] == pytest.approx((dpi, dpi), abs=0.05)


def test_png_pages_same_pdf_same_bytes():
    assert png_pages(twelve_pages(), 30) == png_pages(twelve_pages(), 30)


@pytest.mark.parametrize("dpi", [9, 601, 150.0, "150"])
def test_png_pages_refuse_a_dpi_out_of_range(dpi):
    with pytest.raises(BadInput, match="is not a whole number from 10 to 600"):
        png_pages(twelve_pages(), dpi)
