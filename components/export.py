"""Exports for playing online: piece images, a VASSAL module, a Tabletop Simulator object.

Every export starts from the kit itself: ``collect`` lays the kit out once while
``impose.recording`` notes every piece the kit imposes (counters, cards, markers with
their backs) and every drawing it tiles (maps), so an export draws exactly the kit's
descriptions and follows any change to how they look. Pages that are neither sheets
of pieces nor map tiles (play aids, tracks and displays, plan sheets) are the charts.

Sizes come from the pieces' and maps' own millimetres at ``dpi``; the paper the kit is
laid out on (A4) only decides how the charts are paged. The same data gives the same
bytes; the files of one export are written into ``OUT/<game>-<format>/`` atomically.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass, replace
from pathlib import Path

from ..engine.errors import BadInput
from ..engine.inputs import did_you_mean, quote
from ..engine.model import Game
from .atomic import check_place, replace_folder, write_files
from .impose import Drawing, Piece, recording
from .kit import Options, check_glyphs, kit_pages, safe_id, typeset
from .page import paper
from .primitives import Group, Page, Primitive
from .render_pdf import check_dpi, pdf_bytes, png_pages

#: The default resolution of each format (dots per inch): piece images for print-quality
#: use, a VASSAL module at the scale of a screen map, Tabletop Simulator in between.
DEFAULT_DPI = {"pieces": 300, "vassal": 100, "tts": 150}
#: The most pixels one rasterised page (a map, a chart) may hold: 60 megapixels, a
#: Nightfighter player map (17 x 22 in) at 300 dpi is 34.
MOST_PIXELS = 60_000_000


@dataclass(frozen=True)
class ExportPiece:
    """One piece of the kit with what the exports need to file it."""

    piece: Piece
    what: str  # the kit's word for its sheet: counter, card
    side: str  # a side's label, or "common"
    kind: str  # units, markers, or a deck's label
    deck: str | None = None  # the deck id of a card
    name: str = ""  # what players call it: the unit's, marker's or card's name

    @property
    def label(self) -> str:
        return self.name or self.piece.id

    @property
    def id(self) -> str:
        return self.piece.id


@dataclass(frozen=True)
class Collected:
    game: Game
    pieces: tuple[ExportPiece, ...]
    drawings: tuple[Drawing, ...]
    charts: tuple[Page, ...]


@dataclass(frozen=True)
class ExportResult:
    game: str
    format: str
    folder: Path
    files: tuple[Path, ...]
    summary: str
    seconds: float


def collect(game: Game) -> Collected:
    """The kit's pieces (typeset, glyphs checked), map drawings and chart pages."""
    with recording() as seen:
        pages = kit_pages(game, Options(paper=paper("a4"), formats=("pdf",)))
    pieces: dict[str, ExportPiece] = {}
    for what, piece in seen.pieces:
        if piece.id not in pieces:
            pieces[piece.id] = classify(game, what, _typeset_piece(piece))
    drawings: dict[str, Drawing] = {}
    for drawing in seen.drawings:
        drawings.setdefault(drawing.name, Drawing(drawing.name, typeset(drawing.items),
                                                  drawing.width, drawing.height))
    check_glyphs([Page(d.width, d.height, d.items, id=safe_id(d.name), title=d.name)
                  for d in drawings.values()])
    charts = tuple(p for p in pages if _is_chart(p, pieces))
    return Collected(game, tuple(pieces.values()), tuple(drawings.values()), charts)


def _typeset_piece(piece: Piece) -> Piece:
    back = typeset(piece.back) if piece.back is not None else None
    typed = replace(piece, front=typeset(piece.front), back=back)
    faces = [typed.front] + ([typed.back] if typed.back is not None else [])
    check_glyphs([Page(piece.w, piece.h, face, id=piece.id, title=piece.id) for face in faces])
    return typed


def _is_chart(page: Page, pieces: dict[str, ExportPiece]) -> bool:
    """A page that is not a map tile, an assembly diagram, a sheet of pieces, the duplex
    calibration or the list of assumed values."""
    if page.id.startswith(("calibration-", "assumed-values")):
        return False
    for item in page.items:
        if isinstance(item, Group) and (item.cls or "").split(" ")[0] == "tile":
            return False
        if (item.cls or "") == "assembly":
            return False
        if isinstance(item, Group) and (item.id in pieces or (item.id or "").removesuffix(
                "-back") in pieces):
            return False
    return True


def classify(game: Game, what: str, piece: Piece) -> ExportPiece:
    """The side and kind of a piece, from the records its class names (``counter unit
    ju88 ...``, ``card events``): the palette groups pieces by them."""
    tokens = (piece.cls or "").split()
    units = {u.id: u for u in game.units}
    markers = {m.id: m for m in game.markers}
    decks = {d.id: d for d in game.decks}
    sides = {s.id: s for s in game.info.sides}
    side_id = next((t for t in tokens if t in sides), None)
    for token in tokens:
        if what == "card" and token in decks:
            deck = decks[token]
            return ExportPiece(piece, what, _side_label(game, deck.side or side_id),
                               deck.label, deck.id, _card_name(game, deck.id, piece.id))
        if token in units:
            unit = units[token]
            return ExportPiece(piece, what, _side_label(game, unit.side or side_id), "units",
                               name=unit.label)
        if token in markers:
            marker = markers[token]
            return ExportPiece(piece, what, _side_label(game, marker.side or side_id),
                               "markers", name=marker.label)
    kind = "cards" if what == "card" else ("units" if "unit" in tokens else "markers")
    return ExportPiece(piece, what, _side_label(game, side_id), kind)


def _card_name(game: Game, deck_id: str, piece_id: str) -> str:
    """The name of the card a piece ``card-<deck>-<card>-<copy>`` is a copy of."""
    for card in game.cards:
        if card.deck == deck_id and piece_id.rsplit("-", 1)[0] == f"card-{deck_id}-{card.id}":
            return card.label
    return ""


def _side_label(game: Game, side_id: str | None) -> str:
    for side in game.info.sides:
        if side.id == side_id:
            return side.name or side.id
    return "common"


# --- rasterising ---------------------------------------------------------------------------


def face_pages(pieces: Iterable[ExportPiece]) -> list[tuple[str, Page]]:
    """(file stem, page) of every face: ``<id>-front`` and, for a piece with one,
    ``<id>-back``; each page is the piece's trim, its drawing clipped there."""
    out = []
    for entry in pieces:
        p = entry.piece
        out.append((f"{p.id}-front", _face(p, p.front)))
        if p.back is not None:
            out.append((f"{p.id}-back", _face(p, p.back)))
    return out


def _face(piece: Piece, items: Iterable[Primitive]) -> Page:
    return Page(piece.w, piece.h, (Group(tuple(items), clip=(0, 0, piece.w, piece.h)),),
                id=piece.id, title=piece.id)


def rasterise(pages: list[Page], dpi: int, title: str) -> list[bytes]:
    """PNGs of ``pages`` at ``dpi`` through the PDF backend and pypdfium2; BadInput before
    the work when one would exceed ``MOST_PIXELS``."""
    if not pages:
        return []
    for page in pages:
        pixels = (page.width / 25.4 * dpi) * (page.height / 25.4 * dpi)
        if pixels > MOST_PIXELS:
            raise BadInput(f"{page.title or page.id} at {dpi} dpi would be "
                           f"{pixels / 1e6:.0f} megapixels (at most {MOST_PIXELS // 1_000_000});"
                           " use a smaller --dpi")
    return png_pages(pdf_bytes(pages, title), dpi)


def drawing_title(game: Game, name: str) -> str:
    """What players call a drawing the kit tiles: its map's name for ``map <map id>`` (the
    kit's name for a map's tiles), else the kit's words with a capital ("Player map")."""
    maps = {m.id: m for m in (*game.hex_maps, *game.point_maps)}
    kind, _, key = name.partition(" ")
    if kind == "map" and key in maps:
        return maps[key].name or key
    return name[:1].upper() + name[1:]


def drawing_page(drawing: Drawing) -> Page:
    return Page(drawing.width, drawing.height, drawing.items, id=safe_id(drawing.name),
                title=drawing.name)


def piece_images(collected: Collected, dpi: int) -> dict[str, bytes]:
    """``<piece id>-front.png`` and ``<piece id>-back.png`` of every piece."""
    faces = face_pages(collected.pieces)
    pngs = rasterise([page for _stem, page in faces], dpi,
                     f"{collected.game.info.name}: pieces")
    return {f"{stem}.png": png for (stem, _page), png in zip(faces, pngs, strict=True)}


# --- the formats -----------------------------------------------------------------------------


def export_pieces(collected: Collected, dpi: int, _base_url: str) -> tuple[dict[str, bytes], str]:
    files = piece_images(collected, dpi)
    return files, f"{len(collected.pieces)} pieces, {len(files)} face images at {dpi} dpi"


def _vassal(collected: Collected, dpi: int, _base_url: str) -> tuple[dict[str, bytes], str]:
    # here: components.vassal imports this module (a circle)
    from .vassal import vassal_module

    return vassal_module(collected, dpi)


def _tts(collected: Collected, dpi: int, base_url: str) -> tuple[dict[str, bytes], str]:
    # here: components.tts imports this module (a circle)
    from .tts import tts_object

    return tts_object(collected, dpi, base_url)


#: format -> (collected kit, dpi, base URL) -> ({file name: bytes}, summary)
EXPORTS: dict[str, Callable[[Collected, int, str], tuple[dict[str, bytes], str]]] = {
    "pieces": export_pieces,
    "vassal": _vassal,
    "tts": _tts,
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
