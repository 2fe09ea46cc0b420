"""Exports for playing online: piece images, a VASSAL module, a Tabletop Simulator object.

Every export starts from the kit itself: ``collect`` (components/collect.py) lays the kit
out once while ``impose.recording`` notes every piece the kit imposes (counters, cards,
markers with their backs) and every drawing it tiles (maps), so an export draws exactly the
kit's descriptions and follows any change to how they look. Pages that are neither sheets
of pieces nor map tiles (play aids, tracks and displays, plan sheets) are the charts.

Sizes come from the pieces' and maps' own millimetres at ``dpi``; the paper the kit is
laid out on (A4) only decides how the charts are paged. The same data gives the same
bytes; the files of one export are written into ``OUT/<game>-<format>/`` atomically.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

from ..engine.errors import BadInput
from ..engine.inputs import did_you_mean, quote
from ..engine.model import Game
from .atomic import check_place, replace_folder, write_files
from .collect import Collected, collect, piece_images
from .render_pdf import check_dpi
from .tts import tts_object
from .vassal import vassal_module

#: The default resolution of each format (dots per inch): piece images for print-quality
#: use, a VASSAL module at the scale of a screen map, Tabletop Simulator in between.
DEFAULT_DPI = {"pieces": 300, "vassal": 100, "tts": 150}


@dataclass(frozen=True)
class ExportResult:
    game: str
    format: str
    folder: Path
    files: tuple[Path, ...]
    summary: str
    seconds: float


# --- the formats -----------------------------------------------------------------------------


def export_pieces(collected: Collected, dpi: int, _base_url: str) -> tuple[dict[str, bytes], str]:
    files = piece_images(collected, dpi)
    return files, f"{len(collected.pieces)} pieces, {len(files)} face images at {dpi} dpi"


def _vassal(collected: Collected, dpi: int, _base_url: str) -> tuple[dict[str, bytes], str]:
    return vassal_module(collected, dpi)


#: format -> (collected kit, dpi, base URL) -> ({file name: bytes}, summary)
EXPORTS: dict[str, Callable[[Collected, int, str], tuple[dict[str, bytes], str]]] = {
    "pieces": export_pieces,
    "vassal": _vassal,
    "tts": tts_object,
}


URL_STARTS = ("http://", "https://", "file:///")


def check_base_url(base_url: str) -> str:
    """``""`` (image paths relative to the export's folder) or an address ending in ``/``
    that the images of a Tabletop Simulator export are named under."""
    if base_url and (not base_url.startswith(URL_STARTS) or not base_url.endswith("/")):
        raise BadInput(f"--base-url {base_url!r}: an address starting with "
                       f"{', '.join(URL_STARTS)} and ending in '/' (or none)")
    return base_url


def parse_format(name: str) -> str:
    key = name.strip().lower()
    if key not in EXPORTS:
        raise BadInput(f"unknown export format {quote(name)}{did_you_mean(name, EXPORTS)} "
                       f"(allowed: {', '.join(EXPORTS)})")
    return key


def export_game(game: Game, fmt: str, out_root: Path, dpi: int | None = None,
                base_url: str = "", progress: Callable[[str], None] | None = None
                ) -> ExportResult:
    """Export ``game`` in ``fmt`` into ``out_root/<game>-<fmt>/``, atomically."""
    started = time.perf_counter()
    fmt = parse_format(fmt)
    dpi = check_dpi(DEFAULT_DPI[fmt] if dpi is None else dpi)
    check_base_url(base_url)
    folder = out_root / f"{game.id}-{fmt}"
    check_place(folder)  # a file or a read-only folder in the way: before any work
    if progress:
        progress("layout")
    collected = collect(game)
    if progress:
        progress(fmt)
    files, summary = EXPORTS[fmt](collected, dpi, base_url)
    replace_folder(folder, lambda staging: write_files(staging, files))
    return ExportResult(game.id, fmt, folder, tuple(folder / n for n in sorted(files)),
                        summary, time.perf_counter() - started)
