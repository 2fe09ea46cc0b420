"""components/aids.py: play aids as grids with the data's names, sheets with write-in
spaces, aids flowing together, and legible text on every page but the counters."""

from __future__ import annotations

import re

import pytest
from warpress.components import aids
from warpress.components.impose import MIN_TEXT, SpatialIndex
from warpress.components.kit import KitPage, kit_pages, parse_options
from warpress.components.legibility import ENFORCED, check_pages
from warpress.components.primitives import Group, Line, Page, Rect, Text, texts, walk
from warpress.engine.errors import BadInput
from warpress.engine.loader import builtin

GAMES = ("midway", "midway-cards", "nimitz", "nightfighter", "axis-allies")


@pytest.fixture(scope="module")
def sheet_pages():
    options = parse_options("a4", "pdf", "long", "0,0", "sheets")
    return {g: kit_pages(builtin(g), options) for g in GAMES}


# --- two-key tables as grids ---------------------------------------------------------------


def test_a_two_key_table_is_a_grid_of_die_rows_by_columns():
    table = builtin("midway").table("surface-battle")
    crt = aids.crt_grid(table)
    assert crt.row_key.id == "japan_roll" and crt.col_key.id == "us_roll"
    assert crt.row_labels == ("1-2", "3", "4", "5", "6")
    assert crt.col_labels == ("1-4", "5", "6")
    assert crt.cells[0] == ("0 / 0", "0 / 1", "0 / 2")
    assert crt.cells[4] == ("4 / 0", "4 / 1", "4 / 2")


def test_die_results_with_the_same_row_merge_into_ranges():
    crt = aids.crt_grid(builtin("midway").table("night-landing"))
    assert crt.row_labels == ("1-3", "4", "5-6")  # japan 1-4 / 5-6, us 1-3 / 4-6
    assert [c for c in crt.cells] == [("no", "no"), ("no", "yes"), ("yes", "yes")]


def test_every_cell_of_a_grid_is_what_the_engine_looks_up():
    from warpress.engine.tables import lookup

    for game_id in GAMES:
        game = builtin(game_id)
        for table in game.tables:
            crt = aids.crt_grid(table)
            if crt is None:
                continue
            assert len(crt.cells) == len(crt.row_labels)
            first_col = crt.col_key.values[0] if crt.col_key.kind == "enum" else \
                crt.col_key.min
            first_row = crt.row_key.values[0] if crt.row_key.kind == "enum" else \
                crt.row_key.min
            try:
                result = lookup(table, **{crt.row_key.id: first_row, crt.col_key.id: first_col})
            except BadInput:
                continue
            shown = " / ".join(aids.result_text(table, result[r], {}) for r in table.results)
            assert crt.cells[0][0].rstrip("†") == shown, table.id


def test_the_grid_block_draws_the_crt_with_a_spanning_column_heading():
    block = aids.table_block(builtin("midway").table("surface-battle"), 190)
    words = [t.text for t in texts(block.items)]
    assert "US die 米軍のダイス" in words and "Japanese die 日本軍のダイス" in words  # names
    assert not any("_roll" in w or "hits_on" in w for w in words)  # not ids
    assert "Each cell: Hits on the US fleet / Hits on the Japanese fleet" in " ".join(words)
    rects = [r for r in walk(block.items) if isinstance(r, Rect)]
    assert len(rects) == 2 + (1 + 3) + 5 * (1 + 3)


def test_tables_that_are_not_two_key_grids_print_as_lists():
    assert aids.crt_grid(builtin("nimitz").table("attack")) is None  # three keys
    assert aids.crt_grid(builtin("nimitz").table("battle-points")) is None  # one key


# --- names, not ids --------------------------------------------------------------------------

SNAKE = re.compile(r"\b[a-z]+_[a-z_]+\b")
IDS = ("us-vt-fuze", "schrage-musik Upg", "printed from", ".yaml", "US US", "…", "digest")


@pytest.mark.parametrize("game_id", GAMES)
def test_aids_and_sheets_print_names_not_ids_or_files(game_id, sheet_pages):
    for page in sheet_pages[game_id]:
        if page.title.endswith("assumed values"):
            continue
        for text in texts(page.items):
            assert not SNAKE.search(text.text), (page.id, text.text)
            for bad in IDS:
                assert bad not in text.text, (page.id, text.text)


def test_readable_words_for_ids_without_a_name():
    assert aids.readable("hits_on_us") == "Hits on US"
    assert aids.readable("vt-fuze", capital=False) == "VT fuze"


def test_a_value_that_is_a_record_id_prints_the_records_name():
    game = builtin("nimitz")
    block = aids.table_block(game.table("bonus-marker"), 190, game)
    words = " ".join(t.text for t in texts(block.items))
    assert "US bonus: VT fuze" in words and "us-vt-fuze" not in words


# --- aids flow together -------------------------------------------------------------------


def _bottom(page: Page) -> float:
    boxes = [SpatialIndex(page.items).box(item) for item in page.items
             if not (item.cls or "").startswith(("footer", "scale"))]
    return max(b[3] for b in boxes if b)


@pytest.mark.parametrize("game_id", GAMES)
def test_short_aids_share_pages(game_id, sheet_pages):
    """No page of the flowed aids but the last is left more than half empty when the
    block after it would have fitted (one short aid a page is gone)."""
    flowed = [p for p in sheet_pages[game_id] if p.id.startswith("sheets-and-play-aids")]
    for page in flowed[:-1]:
        assert _bottom(page) > page.height * 0.5, page.id


def test_blocks_narrower_than_half_the_page_sit_side_by_side():
    narrow = [aids.Block((Rect(0, 0, 50, 20),), 20, width=50) for _ in range(3)]
    (page,) = aids.flow(narrow, (6, 6, 190, 270))
    assert [g.dy for g in page] == [6, 6, 6]
    assert [g.dx for g in page] == [6, 61, 116]


def test_a_long_table_goes_on_under_its_heading_on_the_next_page():
    game = builtin("nimitz")
    blocks = aids.table_blocks(game.table("bonus-marker"), 190, game, 270)
    assert len(blocks) > 1 and all(b.height <= 270 for b in blocks)
    assert "(continued)" in next(texts(blocks[1].items)).text


# --- sheets with write-in spaces ------------------------------------------------------------


def test_the_scenario_record_has_ruled_space_under_every_field(sheet_pages):
    game = builtin("nightfighter")
    sheet = game.get("sheets", "scenario-record")
    pages = [p for p in sheet_pages["nightfighter"] if "scenario-record" in p.id]
    fields = [f for p in pages for f in walk(p.items)
              if isinstance(f, Group) and f.cls == "write-in-field"]
    labels = [s for section in sheet.sections for s in section.lines]
    assert len(fields) == len(labels)
    for field in fields:
        assert [i for i in field.items if isinstance(i, Line) and i.cls == "write-in"]


# --- legibility -----------------------------------------------------------------------------


@pytest.mark.parametrize("game_id", GAMES)
def test_no_text_under_4_5_pt_on_aids_sheets_cards_calibration_and_tile_pages(game_id):
    """(A tile's map drawing is the map's to check; its title and marks are checked.)"""
    options = parse_options("letter", "pdf", "short", "0,0", "map,cards,sheets")
    for page in kit_pages(builtin(game_id), options):  # the build checks it too
        for text in _texts_outside_tiles(page.items):
            assert text.size >= MIN_TEXT - 1e-9, (page.id, text.text)


def _texts_outside_tiles(items):
    for item in items:
        if isinstance(item, Text):
            yield item
        elif isinstance(item, Group) and not (item.cls or "").startswith("tile "):
            yield from _texts_outside_tiles(item.items)


@pytest.mark.parametrize("part", ["sheets and play aids", "sheet scenario-record",
                                  "duplex calibration", "map world", "referee screen"])
def test_small_text_on_aids_sheets_calibration_and_tiles_stops_the_build(part):
    assert part.split(" ")[0] in ENFORCED
    page = Page(210, 297, (Text(10, 10, "tiny", size=1.0),), id="p1")
    with pytest.raises(BadInput, match=r"\(page p1\): text 'tiny' is 2.8 pt"):
        check_pages([KitPage(part, page)])
