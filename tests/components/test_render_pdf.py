"""PDF to PNG (``render_pdf.png_pages``) and the stand-in pdftoppm the PNG tests use where
poppler is not installed (tests/fixtures/fake_pdftoppm.py)."""

from __future__ import annotations

import shutil
import struct
import subprocess
import zlib
from io import BytesIO
from pathlib import Path

import pytest
from reportlab.pdfgen import canvas
from warpress.components.render_pdf import png_pages

SIZES = [(595.28 + 7.3 * k, 841.89 - 5.1 * k) for k in range(12)]  # points; 12 pages


def twelve_pages() -> bytes:
    out = BytesIO()
    pdf = canvas.Canvas(out)
    for width, height in SIZES:
        pdf.setPageSize((width, height))
        pdf.drawString(10, 10, f"{width}x{height}")
        pdf.showPage()
    pdf.save()
    return out.getvalue()


def rasterised(command: list[str], tmp_path: Path, dpi: int) -> dict[str, bytes]:
    source = tmp_path / "in.pdf"
    source.write_bytes(twelve_pages())
    subprocess.run([*command, "-r", str(dpi), "-png", str(source), str(tmp_path / "p")],
                   check=True, capture_output=True)
    return {p.name: p.read_bytes() for p in sorted(tmp_path.glob("p-*.png"))}


def size_of(png: bytes) -> tuple[int, int]:
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", png[16:24])


def pixels(points: float, dpi: int) -> int:
    return -(-points * dpi // 72)  # rounded up, as poppler does


#: The stand-in, and poppler's pdftoppm where it is installed (as on CI): both are held to
#: the same contract, so the stand-in stays true to what it stands for.
PDFTOPPMS = ["stand-in", *(["poppler"] if shutil.which("pdftoppm") else [])]


def pdftoppm_command(request, name: str) -> list[str]:
    """Poppler's pdftoppm, or the stand-in as tests/conftest.py installs it for the PNG tests."""
    if name == "poppler":
        return [shutil.which("pdftoppm")]
    return [str(request.getfixturevalue("fake_pdftoppm"))]


@pytest.mark.parametrize("name", PDFTOPPMS)
@pytest.mark.parametrize("dpi", [30, 50])
def test_pdftoppm_writes_a_numbered_png_of_each_pages_size(request, tmp_path, name, dpi):
    pngs = rasterised(pdftoppm_command(request, name), tmp_path, dpi)
    assert list(pngs) == [f"p-{n:02d}.png" for n in range(1, 13)]
    assert [size_of(p) for p in pngs.values()] == [(pixels(w, dpi), pixels(h, dpi))
                                                    for w, h in SIZES]


def test_the_stand_ins_pngs_hold_every_row(request, tmp_path):
    for png in rasterised(pdftoppm_command(request, "stand-in"), tmp_path, 30).values():
        width, height = size_of(png)
        length = struct.unpack(">I", png[33:37])[0]  # the IDAT chunk after IHDR
        assert len(zlib.decompress(png[41:41 + length])) == (width + 1) * height


@pytest.mark.usefixtures("fake_pdftoppm")
def test_png_pages_runs_the_stand_in_in_page_order():
    pngs = png_pages(twelve_pages(), 20, "a test")
    assert [size_of(p) for p in pngs] == [(pixels(w, 20), pixels(h, 20)) for w, h in SIZES]
