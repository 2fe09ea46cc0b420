"""Redraw docs/img/starter-map.png and docs/img/starter-counters.png from the starting game
``warpress new`` writes, built as a kit and rendered with pypdfium2:

    python docs/img/make_starter_images.py
"""

import subprocess
import sys
import tempfile
from pathlib import Path

import pypdfium2
from PIL import Image, ImageChops

HERE = Path(__file__).resolve().parent
#: The footer (page number, scale bar) is left out: the top part of a page holds the part.
BODY = 0.9


def trimmed(image: Image.Image, margin: int = 8) -> Image.Image:
    """``image`` cut to what is drawn on it (not white), with a white margin."""
    body = image.crop((0, 0, image.width, int(image.height * BODY)))
    box = ImageChops.difference(body, Image.new("RGB", body.size, "white")).getbbox()
    x0, y0, x1, y1 = box
    return body.crop((max(0, x0 - margin), max(0, y0 - margin), x1 + margin, y1 + margin))


def pages(pdf: Path, dpi: int) -> list[Image.Image]:
    document = pypdfium2.PdfDocument(str(pdf))
    return [page.render(scale=dpi / 72).to_pil().convert("RGB") for page in document]


def stacked(images: list[Image.Image], gap: int = 10) -> Image.Image:
    out = Image.new("RGB", (max(i.width for i in images),
                            sum(i.height for i in images) + gap * (len(images) - 1)), "white")
    y = 0
    for image in images:
        out.paste(image, (0, y))
        y += image.height + gap
    return out


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        game = Path(tmp) / "starter"
        run = [sys.executable, "-m", "warpress"]
        subprocess.run([*run, "new", str(game), "--name", "Starter"], check=True)
        subprocess.run([*run, "build", str(game), "--out", tmp, "--only", "map,counters"],
                       check=True)
        kit = Path(tmp) / "starter"
        names = [p.stem for p in sorted((kit / "svg").glob("*.svg"))]  # one per page, in order
        index = {part: next(i for i, n in enumerate(names) if part in n)
                 for part in ("-map-", "-counters-15-875-mm-1-front", "-counters-15-875-mm-1-back")}
        trimmed(pages(kit / "starter.pdf", 90)[index["-map-"]]).save(
            HERE / "starter-map.png", optimize=True)
        fine = pages(kit / "starter.pdf", 220)
        sides = [trimmed(fine[index[k]]) for k in ("-counters-15-875-mm-1-front",
                                                    "-counters-15-875-mm-1-back")]
        stacked(sides).save(HERE / "starter-counters.png", optimize=True)


if __name__ == "__main__":
    main()
