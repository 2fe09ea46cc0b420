"""A game's print-and-play kit: the parts, page furniture, and atomic output.

``build_kit`` lays out every part the options ask for (map, counters, cards,
sheets) from the game's data, numbers the pages, adds footers, checks every
glyph against the embedded font, and writes one PDF (all pages in print
order) plus one SVG per page. Files are written to a temporary folder and
moved into place only when everything succeeded.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable, Container, Iterable, Sequence
from dataclasses import dataclass, field, replace
from fractions import Fraction
from pathlib import Path

from ..engine.errors import BadInput
from ..engine.inputs import did_you_mean, quote
from ..engine.limits import KIT_PAGES
from ..engine.model import Game
from ..engine.model import Sheet as GameSheet
from . import aids, clearance, counter_key, holds, setup_chart
from .atomic import check_place, replace_folder, write_files
from .fonts import missing_glyphs
from .hexmap import hex_map_parts, terrain_looks
from .impose import (
    DUPLEX_MODES,
    LegendLayout,
    Piece,
    Sheet,
    SpatialIndex,
    Tile,
    assembly_inset,
    assembly_items,
    calibration_items,
    impose_sizes,
    mirrors_columns,
    tile,
)
from .legibility import check_pages
from .marks import plain, proof
from .page import Paper, footer, paper
from .pieces import CARD_BLEED, card_pieces, marker_pieces, markers_word_size, unit_pieces
from .primitives import Group, Page, Primitive, Text, texts
from .registry import extensions
from .render_pdf import check_dpi, pdf_bytes, png_pages
from .sheets import sheet_blocks
from .style import check_style

PARTS = ("map", "counters", "cards", "sheets")
FORMATS = ("pdf", "svg", "png")
#: Typographic stand-ins for symbols the embedded font lacks (documented, not silent).
TYPOGRAPHY = {"≥": "≧", "≤": "≦", "⅝": "5/8", "⅜": "3/8", "＊": "*"}
#: A hyphen that starts a number is a minus sign (``-1`` -> ``−1``); hyphenated words,
#: ranges and factor lines (``1-2-1``) keep theirs.
MINUS_SIGN = re.compile(r"(?<![\w)\]\-–.−])-(?=\d)")


@dataclass(frozen=True)
class Options:
    paper: Paper = field(default_factory=lambda: paper("a4"))
    formats: tuple[str, ...] = ("pdf", "svg")
    duplex: str = "long"
    back_offset: tuple[float, float] = (0.0, 0.0)
    only: tuple[str, ...] = PARTS
    dpi: int = 150  # of the PNG pages
    proof: bool = False  # a designer proof: daggers on assumed values (components/marks.py)


@dataclass(frozen=True)
class KitPage:
    """A page of a kit part. A flowed page keeps its ``blocks``: the kit flows the blocks
    of all its flowed pages together (``pack``), so short aids share sheets."""

    part: str
    page: Page
    blocks: tuple[aids.Block, ...] | None = None
    #: one player's aid (each side's procedure sheet): in a two-sided kit a front, with a
    #: one-sided page or nothing behind it, never the back of another page
    player: bool = False
    #: the part as the footer names it, where that is not its id in words (a sheet of
    #: pieces by their size as a player reads it: "Counters 5/8 in (15.9 mm)")
    title: str = ""


@dataclass(frozen=True)
class BuildResult:
    game: str
    folder: Path
    files: tuple[Path, ...]
    pages: int
    seconds: float


def parse_options(paper_name: str, formats: str, duplex: str, back_offset: str,
                  only: str | None, dpi: int = 150, proof: bool = False) -> Options:
    """Command-line words -> Options; anything not allowed is BadInput naming it."""
    fmts = tuple(f.strip().lower() for f in formats.split(",") if f.strip())
    bad = [f for f in fmts if f not in FORMATS]
    if bad or not fmts:
        typed = bad[0] if bad else formats
        raise BadInput(f"unknown format {quote(typed)}{did_you_mean(typed, FORMATS)} "
                       f"(allowed: {', '.join(FORMATS)})")
    parts = tuple(p.strip().lower() for p in only.split(",")) if only else PARTS
    bad = [p for p in parts if p not in PARTS]
    if bad:
        raise BadInput(f"unknown kit part {quote(bad[0])} for --only"
                       f"{did_you_mean(bad[0], PARTS)} (allowed: {', '.join(PARTS)})")
    if duplex not in DUPLEX_MODES:
        raise BadInput(f"unknown duplex {duplex!r} (allowed: {', '.join(DUPLEX_MODES)})")
    return Options(paper(paper_name), fmts, duplex, parse_back_offset(back_offset), parts,
                   check_dpi(dpi), proof)


#: The largest back offset taken, in mm each way: five times the calibration page's
#: scale (+-2 mm); a duplex printer that misses by more needs mending, not an offset.
MOST_BACK_OFFSET = 10.0


def parse_back_offset(text: str) -> tuple[float, float]:
    """``"0.5,-0.3"`` -> ``(0.5, -0.3)`` mm; BadInput unless two numbers within
    ``MOST_BACK_OFFSET``."""
    try:
        x_text, y_text = text.split(",")
        offset = (float(x_text), float(y_text))
    except ValueError:
        raise BadInput(f"--back-offset {text!r} is not X,Y in mm (e.g. 0.5,-0.3)") from None
    if not all(abs(v) <= MOST_BACK_OFFSET for v in offset):  # also refuses nan and inf
        raise BadInput(f"--back-offset {text!r}: X and Y are mm from -{MOST_BACK_OFFSET:g} "
                       f"to {MOST_BACK_OFFSET:g} (the calibration page reads -2 to +2)")
    return offset


# --- parts ------------------------------------------------------------------------------


def map_pages(game: Game, options: Options) -> list[KitPage]:
    pages: list[KitPage] = []
    for hex_map in game.hex_maps:
        drawing, width, height, legend = hex_map_parts(
            hex_map, game_id=game.id, terrain=terrain_looks(game),
            title=f"{game.info.name}: {hex_map.label}")
        pages.extend(tiled_pages(drawing, width, height, options, f"map {hex_map.id}",
                                 hex_map.name, legend=legend))
    for point_map in game.point_maps:
        drawing, width, height = aids.point_map_drawing(point_map, holds.least(game))
        pages.extend(tiled_pages(drawing, width, height, options, f"map {point_map.id}",
                                 point_map.name))
    width, least = options.paper.content()[2], holds.least(game)
    blocks = [aids.track_block(t, width, least) for t in game.tracks]
    blocks += [aids.display_block(d, width, least) for d in game.displays]
    pages.extend(flowed_pages(blocks, options.paper, "tracks and displays"))
    return pages


def tiled_pages(drawing: tuple[Primitive, ...], width: float, height: float, options: Options,
                name: str,
                title: str | None = None, legend: LegendLayout | None = None) -> list[KitPage]:
    """A drawing on as few tiles as the paper allows, and their assembly diagram (under the
    drawing on a tile with room for it, else on a page of its own); ``title`` (the
    map's name) is printed, ``name`` makes the page ids; a ``legend`` goes under the drawing,
    whole on one tile."""
    title = title or aids.readable(name.removeprefix("map ")) + (" map" if name.startswith(
        "map ") else "")
    tiles = tile(drawing, width, height, options.paper, name=name, title=title, legend=legend)
    inset = (assembly_inset(tiles, width, full_height(tiles), title,
                            height if legend is not None else None)
             if len(tiles) > 1 else None)
    if inset is not None:  # the diagram in the free part of a tile: no page of its own
        at, items = inset
        tiles[at] = replace(tiles[at], items=(*tiles[at].items, *items))
    pages = [KitPage(name, Page(t.page.width, t.page.height, t.items, id=f"{name}-{t.label}"))
             for t in tiles]
    if len(tiles) > 1 and inset is None:
        land = options.paper.landscape
        pages.append(KitPage(name, Page(land.width, land.height,
                                        assembly_items(tiles, width, full_height(tiles),
                                                       land, title),
                                        id=f"{name}-assembly")))
    return pages


def full_height(tiles: Sequence[Tile]) -> float:
    """The height the tiles cover (the drawing's and its legend's)."""
    return max(t.y + t.h for t in tiles)


def counter_pages(game: Game, options: Options) -> list[KitPage]:
    pieces: list[Piece] = []
    for unit in game.units:
        pieces.extend(unit_pieces(game, unit))
    word_size = markers_word_size(game)  # one sheet's markers: one family
    for marker in game.markers:
        pieces.extend(marker_pieces(game, marker, word_size))
    return counter_sheet_pages(pieces, options)


def counter_sheet_pages(pieces: list[Piece], options: Options) -> list[KitPage]:
    """Counters grouped by size, each size imposed on its own sheets."""
    return sized_sheet_pages(pieces, options, "counter")


def sized_sheet_pages(pieces: list[Piece], options: Options, what: str,
                      bleed: float = 0.0) -> list[KitPage]:
    """Pieces of one size share sheets whatever they are (all decks' cards, all counters of
    a size), each size on its own sheets, but for a short tail that fits under another
    size's last sheet (``impose_sizes``); part "counters 15.875 mm", "cards 63 x 88 mm"."""
    by_size: dict[tuple[float, float], list[Piece]] = {}
    for piece in pieces:
        by_size.setdefault((round(piece.w, 3), round(piece.h, 3)), []).append(piece)
    sizes = sorted(by_size)
    laid = impose_sizes([by_size[s] for s in sizes], options.paper, bleed=bleed,
                        duplex=options.duplex, back_offset=options.back_offset, what=what)
    pages: list[KitPage] = []
    for (w, h), sheets in zip(sizes, laid, strict=True):
        size = f"{w:g} mm" if w == h else f"{w:g} x {h:g} mm"
        pages.extend(imposed_pages(sheets, f"{what}s {size}",
                                   f"{what.capitalize()}s {size_words(w, h)}"))
    return pages


def card_pages(game: Game, options: Options) -> list[KitPage]:
    """Every deck's cards, decks sharing sheets (each card with its deck's back)."""
    pieces = [piece for deck in game.decks for piece in card_pieces(game, deck)]
    return sized_sheet_pages(pieces, options, "card", bleed=CARD_BLEED)


def imposed_pages(sheets: list[Sheet], part: str, title: str = "") -> list[KitPage]:
    pages = []
    for i, sheet in enumerate(sheets, 1):
        p = sheet.paper
        pages.append(KitPage(part, Page(p.width, p.height, sheet.front, id=f"{part}-{i}-front",
                                        footer=sheet.footer), title=title))
        if sheet.back is not None:
            pages.append(KitPage(part, Page(p.width, p.height, sheet.back,
                                            id=f"{part}-{i}-back", footer=sheet.footer),
                                 title=title))
    return pages


def size_words(w: float, h: float) -> str:
    """A piece size as a player reads it: a square counter of a whole eighth of an inch in
    inches with its millimetres rounded ("5/8 in (15.9 mm)"), else the millimetres rounded
    ("63 x 88 mm")."""
    eighths = w / 25.4 * 8
    if w == h and abs(eighths - round(eighths)) < 1e-6:
        return f"{Fraction(round(eighths), 8)} in ({w:.1f} mm)"
    return f"{w:.3g} mm" if w == h else f"{w:.3g} x {h:.3g} mm"


def sheet_pages(game: Game, options: Options, lead: Iterable[aids.Block] = (),
                own: Container[str] = (), setup: bool = True) -> list[KitPage]:
    """The set-up chart of every scenario (unless the game prints its own: ``setup``
    False), the game's ``lead`` blocks, every sheet but those a game draws itself
    (``own``), then the play aid (the tables no sheet prints), flowed together: a short aid
    shares its page with the next."""
    _x, _y, width, height = options.paper.content()
    blocks = list(lead)
    printed: set[str] = set()
    forms: list[KitPage] = []
    for sheet in game.sheets:
        printed.update(sheet.tables)
        if sheet.id in own:
            continue
        if is_form(sheet):
            forms += flowed_pages(list(sheet_blocks(game, sheet, width, height)),
                                  options.paper, f"sheet {sheet.id}", own_sheet=True)
        else:
            blocks.extend(sheet_blocks(game, sheet, width, height))
    rest = [b for t in game.tables if t.id not in printed
            for b in aids.table_blocks(t, width, game, height)]
    if rest:
        blocks += [aids.heading("Tables", width, 5.0), *rest]
    if setup:
        blocks += setup_chart.chart_blocks(game, width)
    return flowed_pages(blocks, options.paper, "sheets and play aids") + forms


def flowed_pages(blocks: list[aids.Block], paper_: Paper, part: str, own_sheet: bool = False
                 ) -> list[KitPage]:
    """``blocks`` flowed down pages of ``part``; each page keeps its blocks, so that the kit
    may flow them again with other parts' (``pack``), unless the part is a sheet of its own
    (``own_sheet``: a form the players write on)."""
    pages = []
    for i, placed in enumerate(aids.flow_placed(blocks, paper_.content()), 1):
        items = tuple(Group(b.items, dx=x, dy=y, id=b.id, cls=b.cls) for b, x, y in placed)
        pages.append(KitPage(part, Page(paper_.width, paper_.height, items, id=f"{part}-{i}"),
                             blocks=None if own_sheet else tuple(b for b, _x, _y in placed)))
    return pages


def is_form(sheet: GameSheet) -> bool:
    """True for a sheet the players write on (a section with ``write_in`` space): it is a
    sheet of its own, never flowed with the aids."""
    return any(section.write_in for section in sheet.sections)


# --- packing: short aids and small piece sheets share sheets ----------------------------

#: A sheet of pieces whose pieces take at most this share of the page's height flows with
#: the aids (its backs on the page after), instead of taking a sheet of its own.
SMALL_SHEET = 0.5
#: The part of the pages the kit flows together.
AIDS = "sheets and play aids"


def pack(pages: list[KitPage], options: Options) -> list[KitPage]:
    """The kit's flowed pages (tracks, displays, sheets, play aids) and its small sheets of
    pieces flowed together, in their order, where the first of them was: no sheet for one
    track, one table or a dozen counters. Pages of their own (maps, big piece sheets, a
    game's own sheets) stay as they are; so does all of the kit when flowing them together
    saves no sheet."""
    portrait = options.paper.portrait
    blocks: list[aids.Block] = []
    backs: dict[str | None, PieceBack] = {}
    out: list[KitPage] = []
    at = None
    sheets = 0  # the sheets the flowed pages and small sheets took
    i = 0
    while i < len(pages):
        page = pages[i]
        taken = 1
        if page.blocks is not None and _is(page.page, portrait):
            blocks.extend(page.blocks)
        elif (small := _small_sheet(pages, i, options)) is not None:
            block, back, taken = small
            blocks.append(block)
            backs[block.id] = back
        else:
            out.append(page)
            i += 1
            continue
        at = len(out) if at is None else at
        sheets += 1
        i += taken
    if at is None:
        return pages
    packed = _packed_pages(blocks, backs, options)
    if sum(1 for p in packed if not p.page.id.endswith("-back")) >= sheets:
        return pages
    return out[:at] + packed + out[at:]


def _is(page: Page, paper_: Paper) -> bool:
    return abs(page.width - paper_.width) < 0.01 and abs(page.height - paper_.height) < 0.01


#: the back of a sheet of pieces flowed with the aids: (its items, if any; its top)
PieceBack = tuple[tuple[Primitive, ...] | None, float]


def _small_sheet(pages: list[KitPage], i: int, options: Options
                 ) -> tuple[aids.Block, PieceBack, int] | None:
    """(block, its back, pages it takes) when page ``i`` is a portrait sheet of pieces (and
    its back) whose pieces take at most ``SMALL_SHEET`` of the page's height; else None."""
    page = pages[i].page
    if not page.id.endswith("-front") or not _is(page, options.paper.portrait):
        return None
    back = pages[i + 1].page if i + 1 < len(pages) and pages[i + 1].page.id == (
        page.id[:-len("-front")] + "-back") else None
    index = SpatialIndex(page.items)
    boxes = [b for b in (index.box(item) for item in page.items) if b is not None]
    top, bottom = min(b[1] for b in boxes), max(b[3] for b in boxes)
    x, y, _w, h = options.paper.content(page.footer)
    if page.footer != "bottom" or bottom - top > SMALL_SHEET * h:
        return None
    block = aids.Block((Group(page.items, dx=-x, dy=-top),), bottom - top,
                       id=f"pieces-{page.id}", cls="pieces")
    return block, (back.items if back is not None else None, top), 2 if back else 1


def _packed_pages(blocks: list[aids.Block], backs: dict[str | None, PieceBack],
                  options: Options) -> list[KitPage]:
    """The flowed pages, each with a back page after it when it holds pieces with backs:
    the backs moved as their fronts were (mirrored for the duplex flip)."""
    paper_ = options.paper.portrait
    out = []
    for n, placed in enumerate(_off_the_offcut(blocks, backs, paper_.content()), 1):
        items = tuple(Group(b.items, dx=x, dy=y, id=b.id, cls=b.cls) for b, x, y in placed)
        out.append(KitPage(AIDS, Page(paper_.width, paper_.height, items,
                                      id=f"sheets-and-play-aids-{n}"),
                           blocks=tuple(b for b, _x, _y in placed)))
        moved = [(backs[b.id], y) for b, _x, y in placed if b.id in backs and backs[b.id][0]]
        if moved:
            flip = 1 if mirrors_columns(paper_, options.duplex) else -1
            back_items = tuple(Group(items or (), dy=flip * (y - top), cls="pieces back")
                               for (items, top), y in moved)
            out.append(KitPage(AIDS, Page(paper_.width, paper_.height, back_items,
                                          id=f"sheets-and-play-aids-{n}-back")))
    return out


def _off_the_offcut(blocks: list[aids.Block], backs: dict[str | None, PieceBack],
                    content: tuple[float, float, float, float]
                    ) -> list[list[tuple[aids.Block, float, float]]]:
    """``blocks`` flowed down pages, no section begun on a page of pieces with backs (a
    sheet the players cut up) and continued on a later page: such a section starts the
    next page instead, so that no aid is half on the offcut."""
    pages = aids.flow_placed(blocks, content)
    for n, page in enumerate(pages[:-1]):
        if _cut_up(page, backs) and pages[n + 1][0][0].cls != "heading":
            at = _section_opener(blocks, page)
            if at:
                return (aids.flow_placed(blocks[:at], content)
                        + _off_the_offcut(blocks[at:], backs, content))
    return pages


def _cut_up(page: list[tuple[aids.Block, float, float]], backs: dict[str | None, PieceBack]
            ) -> bool:
    """True when ``page`` holds pieces with backs: a sheet the players cut up."""
    return any(b.id in backs and backs[b.id][0] for b, _x, _y in page)


def _section_opener(blocks: list[aids.Block], page: list[tuple[aids.Block, float, float]]
                    ) -> int | None:
    """The index in ``blocks`` of the first heading of the last run of headings on
    ``page``: the section that runs on into the next page."""
    ids = {id(b) for b, _x, _y in page}
    at = [i for i, b in enumerate(blocks) if id(b) in ids and b.cls == "heading"]
    if not at:
        return None
    first = at[-1]
    while first > 0 and blocks[first - 1].cls == "heading" and id(blocks[first - 1]) in ids:
        first -= 1
    return first


def with_counter_key(game: Game, pages: list[KitPage], options: Options) -> list[KitPage]:
    """The pages with the counter key (``counter_key``): first of the play aid (else of the
    first flowed part) when that costs no sheet and leaves no flowed page near empty once
    the kit is packed; else under the counters of a counter sheet with room for it, or at
    the top of another page of the aid, whichever packs best (``_key_choice``); on a page
    of its own after the counters when nothing flows and no counter sheet has room. As
    they are without counters."""
    key = counter_key.key_block(game, pages, options.paper.content()[2])
    if key is None:
        return pages
    under = _key_under_counters(key, pages, options)
    flowed = [i for i, p in enumerate(pages) if p.blocks is not None]
    at = next((i for i in flowed if pages[i].part == AIDS), flowed[0] if flowed else None)
    if at is None:
        return under or _key_page(key, pages, options)
    part, end = pages[at].part, at
    while end < len(pages) and pages[end].part == part and pages[end].blocks is not None:
        end += 1
    blocks = [b for p in pages[at:end] for b in p.blocks or ()]
    starts = [sum(len(p.blocks or ()) for p in pages[at:i]) for i in range(at, end)]
    inner = range(1, len(blocks) + 1) if len(blocks) <= KEY_TRIALS else starts[1:]

    def placed(place: int) -> list[KitPage]:
        return pages[:at] + flowed_pages([*blocks[:place], key, *blocks[place:]],
                                         options.paper, part) + pages[end:]

    own = flowed_pages([key], options.paper, AIDS)
    def own_at(i: int) -> Callable[[], list[KitPage]]:
        return lambda: pages[:i] + own + pages[i:]

    def placed_at(place: int) -> Callable[[], list[KitPage]]:
        return lambda: placed(place)

    trials = [placed_at(0)]
    trials += [own_at(i) for i in flowed if i < at]
    trials += [lambda: under] if under is not None else []
    trials += [placed_at(place) for place in inner]
    return _key_choice(trials, _sheets(pack(pages, options)), options)


#: The share of its page every flowed page keeps where the key goes.
KEY_TAIL = 0.3
#: Up to this many flowed blocks the key may go between any two of them; past it, only at
#: the top of a page (each place tried is a packing of the kit).
KEY_TRIALS = 16


def _key_choice(trials: list[Callable[[], list[KitPage]]], sheets: int, options: Options
                ) -> list[KitPage]:
    """Of the kits with the key placed (in order of preference), the first that packs on
    ``sheets`` sheets (the kit's without the key) with every flowed page at least
    ``KEY_TAIL`` used and the key opening its page (``_key_opens``); else the first of them
    that packs so whatever the key follows; else, of those on the fewest sheets, the one
    whose emptiest flowed page is fullest (the earlier of equals)."""
    content = options.paper.content()
    scored = []
    fits = None
    for order, trial in enumerate(trials):
        kit = trial()
        packed = pack(kit, options)
        least = min((aids._used([(b, 0, 0) for b in p.blocks], content) for p in packed
                     if p.blocks), default=1.0)
        if _sheets(packed) <= sheets and least >= KEY_TAIL:
            if _key_opens(packed):
                return kit
            fits = kit if fits is None else fits
        scored.append((_sheets(packed), -round(least, 3), order, kit))
    return fits if fits is not None else min(scored, key=lambda s: s[:3])[3]


#: What may come before the key on its page: pieces, tracks and displays sharing the sheet.
KEY_AFTER = ("pieces", "track", "display")


def _key_opens(pages: list[KitPage]) -> bool:
    """True when nothing of the aids comes before the counter key on its page (only pieces,
    tracks and displays sharing the sheet), or the key is on no flowed page."""
    for page in pages:
        ids = [b.id for b in page.blocks or ()]
        if counter_key.KEY_ID in ids:
            before = (page.blocks or ())[:ids.index(counter_key.KEY_ID)]
            return all((b.cls or "").split()[:1] in ([c] for c in KEY_AFTER) for b in before)
    return True


def _sheets(pages: list[KitPage]) -> int:
    """The sheets of paper the pages print on: two pages a sheet once fronts are on odd
    pages (``fronts_on_odd_pages``) when some page has backs; else a page a sheet."""
    if any(is_back(p) for p in pages):
        return (len(fronts_on_odd_pages(pages)) + 1) // 2
    return len(pages)


def _key_page(key: aids.Block, pages: list[KitPage], options: Options) -> list[KitPage]:
    """The key on a page of its own after the counters."""
    counters = [i for i, p in enumerate(pages) if p.part.startswith("counters")]
    at = counters[-1] + 1 if counters else len(pages)
    return pages[:at] + flowed_pages([key], options.paper, AIDS) + pages[at:]


def _key_under_counters(key: aids.Block, pages: list[KitPage], options: Options
                        ) -> list[KitPage] | None:
    """The key under the counters of the counter sheet front with the most room for it
    (its back stays blank there); None when no sheet has room."""
    best: tuple[float, int, float] | None = None
    for i, kit_page in enumerate(pages):
        page = kit_page.page
        if not (kit_page.part.startswith("counters") and page.id.endswith("-front")
                and _is(page, options.paper.portrait)):
            continue
        _x, y, _w, h = options.paper.content(page.footer)
        index = SpatialIndex(page.items)
        bottom = max((b[3] for b in map(index.box, page.items) if b is not None), default=y)
        room = y + h - bottom - aids.GAP
        if room >= key.height and (best is None or room > best[0]):
            best = (room, i, bottom + aids.GAP)
    if best is None:
        return None
    _room, i, top = best
    page = pages[i].page
    moved = Group(key.items, dx=options.paper.content(page.footer)[0], dy=top, id=key.id,
                  cls=key.cls)
    return [*pages[:i], replace(pages[i], page=replace(page, items=(*page.items, moved))),
            *pages[i + 1:]]


# --- duplex: every sheet of fronts on an odd page, its backs on the page after -------------


def print_plan(pages: list[KitPage]) -> str:
    """How to print a two-sided kit (``pages`` after its calibration sheet, pages 1 and 2):
    the sheets of fronts and backs double-sided, the rest (map tiles, which must not back
    onto each other, and aids) one-sided; a blank page (``_blank``) named apart."""
    duplex = {1, 2}
    blank = {n for n, page in enumerate(pages, 3) if is_blank(page)}
    for number, page in enumerate(pages, 3):
        if is_back(page):
            duplex.update((number - 1, number))
    single = [n for n in range(3, len(pages) + 3) if n not in duplex and n not in blank]
    plan = f"Double-sided: pages {aids.id_ranges(sorted(duplex), least=2)}."
    if single:
        plan += (f" One-sided: pages {aids.id_ranges(single, least=2)} (map tiles and sheets "
                 "without backs).")
    if blank:
        plan += (f" Blank, to skip printing one-sided: page{'s' if len(blank) > 1 else ''} "
                 f"{aids.id_ranges(sorted(blank), least=2)}.")
    return plan


def is_back(page: KitPage) -> bool:
    """True for a page of backs: it prints on the other side of the page before it."""
    return page.page.id.endswith("-back")


def fronts_on_odd_pages(pages: list[KitPage]) -> list[KitPage]:
    """The pages in an order a duplex printer prints right: every page with backs after
    it starts a sheet (page 1, 3, 5... of the kit, the calibration's two pages before them),
    and so does one player's aid (``KitPage.player``: a blank page before it where nothing
    else may go).
    Where a front would fall on the back of a sheet, a one-sided page that prints anyway
    takes its place (``_filler``); a blank page only when none can move there."""
    units = _units(pages)
    out: list[KitPage] = []
    while units:
        unit = units.pop(0)
        if len(unit) == 2 and len(out) % 2:
            out, units = _filled(out, unit, units)
            continue
        if len(out) % 2 and unit[0].player and out[-1].part != unit[0].part:
            out.append(_blank(out[-1]))  # one player's aid is never another page's back
        out.extend(unit)
    return out


def is_blank(page: KitPage) -> bool:
    return page.part == BLANK


def _units(pages: list[KitPage]) -> list[list[KitPage]]:
    """The pages as units that print together: a front and its backs, or a page alone."""
    units: list[list[KitPage]] = []
    for page in pages:
        if is_back(page) and units and len(units[-1]) == 1 and not is_back(units[-1][0]):
            units[-1].append(page)
        else:
            units.append([page])
    return units


def _filled(out: list[KitPage], pair: list[KitPage], units: list[list[KitPage]]
            ) -> tuple[list[KitPage], list[list[KitPage]]]:
    """(pages placed, units left) once ``pair`` (a front and its backs) is placed after
    ``out``, which ends on a sheet's front: a one-sided page fills that sheet's back first.
    In order of preference (never one player's aid: ``KitPage.player``): the next page
    that is all of its part (a chart, a form, a one-tile map: nothing it belongs with is
    parted from it); the last page placed, when
    it is all of its part (it goes after the pair's part); the next page that starts its
    part; else a blank page."""
    parts = [pair[0].part, *(u[0].part for u in units), *(p.part for p in out)]
    alone = [i for i, u in enumerate(units) if len(u) == 1 and parts.count(u[0].part) == 1
             and not u[0].player]
    if alone:
        return [*out, units[alone[0]][0], *pair], units[:alone[0]] + units[alone[0] + 1:]
    last = out[-1]
    if not is_back(last) and parts.count(last.part) == 1 and last.part != pair[0].part:
        end = next((i for i, u in enumerate(units) if u[0].part != pair[0].part), len(units))
        return [*out[:-1], *pair], [*units[:end], [last], *units[end:]]
    seen = {pair[0].part}
    for i, unit in enumerate(units):
        if len(unit) == 1 and unit[0].part not in seen and not unit[0].player:
            return [*out, unit[0], *pair], units[:i] + units[i + 1:]
        seen.add(unit[0].part)
    return [*out, _blank(out[-1]), *pair], units


def _blank(before: KitPage) -> KitPage:
    """A page left blank: the back of ``before``, which nothing one-sided could share."""
    page = before.page
    return KitPage(BLANK, Page(page.width, page.height, (), id=f"{page.id}-blank"))


#: The part of a page left blank so that the page after it starts a sheet of paper.
BLANK = "blank"


PART_BUILDERS: dict[str, Callable[[Game, Options], list[KitPage]]] = {
    "map": map_pages,
    "counters": counter_pages,
    "cards": card_pages,
    "sheets": sheet_pages,
}


def kit_pages(game: Game, options: Options, progress: Callable[[str], None] | None = None
              ) -> list[Page]:
    """Every page of the kit in print order, numbered, with footers; daggers only in a
    proof, every text of the enforced parts legible (``legibility.ENFORCED``)."""
    check_style(game)
    with proof(options.proof), aids.printing():
        return _kit_pages(game, options, progress)


def _kit_pages(game: Game, options: Options, progress: Callable[[str], None] | None
               ) -> list[Page]:
    pages: list[KitPage] = []
    for part in options.only:
        if progress:
            progress(part)
        extra = extensions(game, part)
        if not any(e.replaces for e in extra):
            pages.extend(PART_BUILDERS[part](game, options))
        for extension in extra:
            pages.extend(extension.build(game, options))
    pages = pack(with_counter_key(game, pages, options), options)
    two_sided = any(is_back(p) for p in pages)
    if two_sided:
        pages = fronts_on_odd_pages(pages)
    if options.proof:  # designer material: the proof's, never a player's page
        width = options.paper.content()[2]
        assumed = list(aids.assumed_blocks(game, width))
        pages.extend(flowed_pages(assumed, options.paper, "assumed values"))
    if two_sided:  # printed first: the offset it reads is for every sheet after it
        portrait = options.paper.portrait
        plan = print_plan(pages)
        pages[:0] = [KitPage("duplex calibration", Page(
            portrait.width, portrait.height,
            calibration_items(portrait, side, options.duplex, plan),
            id=f"calibration-{'back' if side else 'front'}")) for side in (False, True)]
    check_pages(pages)
    clearance.check_pages(pages)
    if len(pages) > KIT_PAGES:  # laid out, not yet drawn
        raise BadInput(f"{game.id}: the kit lays out as {len(pages):,} pages: at most "
                       f"{KIT_PAGES:,} (limits in docs/data-format.md); nothing was drawn")
    return _finish(game, pages, options)


#: The first page of a kit without backs says how to print it (a two-sided kit's plan is on
#: its calibration page): tiles printed back to back could not be assembled.
ONE_SIDED = "print every page one-sided, at 100 %"


def _finish(game: Game, pages: list[KitPage], options: Options) -> list[Page]:
    total = len(pages)
    one_sided = not any(is_back(p) for p in pages)
    out = []
    for number, kit_page in enumerate(pages, 1):
        page = kit_page.page
        sized = Paper(options.paper.name, page.width, page.height)
        part = kit_page.title or _part_title(game, kit_page.part)
        note = ONE_SIDED if one_sided and number == 1 else ""
        items = (*typeset(page.items), *footer(sized, game.info.name or game.id, part,
                                                 number, total, page.footer, note))
        out.append(Page(page.width, page.height, items, id=safe_id(page.id),
                        title=f"{game.info.name}: {kit_page.part}", footer=page.footer))
    check_glyphs(out)
    return out


def _part_title(game: Game, part: str) -> str:
    """A part as the footer prints it, a title and never an id (the page's title keeps the
    part): a sheet by its name (``sheet scenario-record`` -> ``Scenario record``), a map by
    its name (``map campaign`` -> ``Campaign map`` when it has none), the rest capitalised."""
    kind, _, what = part.partition(" ")
    if kind == "sheet":
        sheet = next((s for s in game.sheets if s.id == what), None)
        if sheet is not None and sheet.name:
            return sheet.name
    if kind == "map":
        return map_title(game, what)
    return part[:1].upper() + part[1:]


def map_title(game: Game, map_id: str) -> str:
    """A map's printed title: its name, else its id as words and "map"."""
    found = next((m for m in (*game.hex_maps, *game.point_maps) if m.id == map_id), None)
    if found is not None and found.name:
        return found.name
    words = aids.readable(map_id)
    return words if words.lower().endswith("map") else f"{words} map"


def typeset(items: Iterable[Primitive]) -> tuple[Primitive, ...]:
    """The kit's typographic replacements (``TYPOGRAPHY``) in every text, and on a player's
    page every text without its designer notes (``marks.plain``)."""
    out: list[Primitive] = []
    for item in items:
        if isinstance(item, Text):
            text = MINUS_SIGN.sub(aids.MINUS, "".join(
                TYPOGRAPHY.get(ch, ch) for ch in plain(item.text).replace(">=", "≥").replace(
                    "<=", "≤")))
            out.append(item if text == item.text else replace(item, text=text))
        elif isinstance(item, Group):
            out.append(replace(item, items=typeset(item.items)))
        else:
            out.append(item)
    return tuple(out)


def check_glyphs(pages: list[Page]) -> None:
    """Stop the build on a glyph the embedded font lacks, naming the text and the page."""
    for page in pages:
        for text in texts(page.items):
            missing = missing_glyphs(text.text)
            if missing:
                raise BadInput(f"{page.title} (page {page.id}): text {text.text!r} has "
                               f"characters no embedded font covers: {missing}")


def safe_id(text: str) -> str:
    """``text`` as an id: every character but letters, digits, ``-`` and ``_`` made ``-``."""
    return "".join(ch if ch.isalnum() or ch in "-_" else "-" for ch in text).strip("-")


# --- writing ------------------------------------------------------------------------------


def build_kit(game: Game, out_root: Path, options: Options,
              progress: Callable[[str], None] | None = None) -> BuildResult:
    """Lay out and write the kit of ``game`` into ``out_root/<game>/`` atomically. A format
    that fails does not stop the others: they are written, then the failure is BadInput.
    A designer proof (``options.proof``) is ``<game>-proof.pdf`` (and ``proof/svg``,
    ``proof/png``) beside the player's kit, which it leaves as it is; a kit build leaves the
    proof as it is."""
    started = time.perf_counter()
    check_place(out_root / game.id)  # a file or read-only kit in the way: before any work
    pages = kit_pages(game, options, progress)
    files: dict[str, bytes] = {}
    failed: dict[str, str] = {}
    for fmt in options.formats:
        if progress:
            progress(fmt)
        try:
            files.update(FORMAT_WRITERS[fmt](game, pages, options, files))
        except (BadInput, OSError, RuntimeError, ValueError) as exc:
            failed[fmt] = str(exc)
    if options.proof:
        files = {proof_name(game, name): data for name, data in files.items()}
    folder = out_root / game.id
    if files:
        _write_atomically(folder, files, keep=lambda name: is_proof(game, name) != options.proof)
    if failed:
        written = [f for f in options.formats if f not in failed]
        raise BadInput("; ".join(f"{game.id}: --format {f} failed: {why}"
                                 for f, why in failed.items())
                       + (f" ({', '.join(written)} written to {folder})" if written else ""))
    seconds = time.perf_counter() - started
    return BuildResult(game.id, folder, tuple(folder / name for name in sorted(files)),
                       len(pages), seconds)


#: The folder of a designer proof's SVG and PNG pages inside the kit folder.
PROOF_FOLDER = "proof"


def proof_name(game: Game, name: str) -> str:
    """A kit file's name in a designer proof: ``midway.pdf`` -> ``midway-proof.pdf``,
    ``svg/...`` -> ``proof/svg/...``."""
    if name == f"{game.id}.pdf":
        return f"{game.id}-proof.pdf"
    return f"{PROOF_FOLDER}/{name}"


def is_proof(game: Game, name: str) -> bool:
    """True for a file of the designer proof (``proof_name``)."""
    return name == f"{game.id}-proof.pdf" or name.startswith(f"{PROOF_FOLDER}/")


def _pdf(game: Game, pages: list[Page], options: Options, _done: dict[str, bytes]
         ) -> dict[str, bytes]:
    return {f"{game.id}.pdf": pdf_bytes(pages, f"{game.info.name} — print-and-play kit",
                                        subject=f"warpress kit, {options.paper.label}")}


def page_stem(game: Game, number: int, page: Page) -> str:
    """The name every per-page file takes: ``<game>-NNN-<page id>``."""
    return f"{game.id}-{number:03d}-{page.id}"


def _svg(game: Game, pages: list[Page], _options: Options, _done: dict[str, bytes]
         ) -> dict[str, bytes]:
    # start-up: 68 more modules (svgwrite), only when this runs
    from .render_svg import svg_text

    return {f"svg/{page_stem(game, n, page)}.svg": svg_text(page).encode()
            for n, page in enumerate(pages, 1)}


def _png(game: Game, pages: list[Page], options: Options, done: dict[str, bytes]
         ) -> dict[str, bytes]:
    """A PNG of every page at ``options.dpi``, rasterised from the kit's PDF (the one
    written, or one made for the purpose), named like the SVGs."""
    pdf = done.get(f"{game.id}.pdf") or pdf_bytes(pages, game.info.name or game.id)
    pngs = png_pages(pdf, options.dpi)
    return {f"png/{page_stem(game, n, page)}.png": png
            for n, (page, png) in enumerate(zip(pages, pngs, strict=True), 1)}


#: Each output format: (game, pages, options, files written so far) -> {name: bytes}.
FORMAT_WRITERS: dict[str, Callable[..., dict[str, bytes]]] = {
    "pdf": _pdf, "svg": _svg, "png": _png}


def _write_atomically(folder: Path, files: dict[str, bytes],
                      keep: Callable[[str], bool] = lambda _name: False) -> None:
    """Write every file into a staging folder beside ``folder``, with the files of the old
    folder that ``keep`` names (the other kind of build's), then swap it into place
    (components/atomic.py: the old kit stays until the new one is complete)."""
    def write(staging: Path) -> None:
        write_files(staging, _kept(folder, keep))
        write_files(staging, files)

    replace_folder(folder, write)


def _kept(folder: Path, keep: Callable[[str], bool]) -> dict[str, bytes]:
    """The files under ``folder`` that ``keep`` names (relative names, ``/`` between)."""
    if not folder.is_dir():
        return {}
    found = {}
    for path in sorted(folder.rglob("*")):
        name = path.relative_to(folder).as_posix()
        if path.is_file() and not path.is_symlink() and keep(name):
            found[name] = path.read_bytes()
    return found
