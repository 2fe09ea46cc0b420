"""What an export draws, collected from the kit itself: ``collect`` lays the kit out once
while ``impose.recording`` notes every piece the kit imposes (counters, cards, markers with
their backs) and every drawing it tiles (maps); pages that are neither sheets of pieces nor
map tiles are the charts. The formats (components/export.py: piece images,
components/vassal.py, components/tts.py) draw from what is collected here."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..engine.errors import BadInput
from ..engine.model import Game
from .impose import Drawing, Piece, recording
from .kit import Options, check_glyphs, kit_pages, safe_id, typeset
from .page import paper
from .primitives import Group, Page, Primitive
from .render_pdf import pdf_bytes, png_pages

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
