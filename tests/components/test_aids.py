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
from warpress.engine.loader import builtin, builtin_games

GAMES = tuple(builtin_games())


@pytest.fixture(scope="module")
def sheet_pages():
    options = parse_options("a4", "pdf", "long", "0,0", "sheets")
    return {g: kit_pages(builtin(g), options) for g in GAMES}


# --- two-key tables as grids ---------------------------------------------------------------


def test_a_two_key_table_is_a_grid_of_die_rows_by_columns():
    table = builtin("midway").table("surface-battle")
    crt = aids.crt_grid(table)
    assert crt.row_key.id == "japan_roll" and crt.col_key.id == "us_roll"
    assert crt.row_labels == ("1–2", "3", "4", "5", "6")  # a range reads with a dash
    assert crt.col_labels == ("1–4", "5", "6")
    assert crt.cells[0] == ("0 / 0", "0 / 1", "0 / 2")
    assert crt.cells[4] == ("4 / 0", "4 / 1", "4 / 2")


def test_die_results_with_the_same_row_merge_into_ranges():
    crt = aids.crt_grid(builtin("midway").table("night-landing"))
    assert crt.row_labels == ("1–3", "4", "5–6")  # japan 1-4 / 5-6, us 1-3 / 4-6
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
            shown = " / ".join(aids.result_text(table, result[r], {}, r) for r in table.results)
            assert crt.cells[0][0].rstrip("†") == shown, table.id


def test_the_grid_block_draws_the_crt_with_a_spanning_column_heading():
    table = builtin("midway").table("initiative-tie")
    block = aids.table_block(table, 190)
    words = [t.text for t in texts(block.items)]
    joined = "".join(words)
    assert aids.key_name(table, table.keys[1]).replace(" ", "") in joined.replace(" ", "")
    assert not any("_" in w for w in words)  # names, not ids
    # two results: a column for each under every column value, no cell packs "a / b"
    names = [aids.result_name(table, r) for r in table.results]
    assert all(" ".join(words).count(n) == 2 for n in names)
    assert not any(" / " in w for w in words)
    rects = [r for r in walk(block.items) if isinstance(r, Rect)]
    assert len(rects) == 2 + (1 + 2) + (1 + 4) + 3 * (1 + 4)  # three rows of comparisons


def test_tables_that_are_not_two_key_grids_print_as_lists():
    assert aids.crt_grid(builtin("nimitz").table("attack")) is None  # three keys
    assert aids.crt_grid(builtin("nimitz").table("battle-points")) is None  # one key


# --- three or more keys: one grid per value of the other keys --------------------------------


def test_a_three_key_table_prints_one_grid_per_value_of_its_third_key():
    game = builtin("midway-cards")
    table = game.table("ship-damage-status")
    panels = aids.panel_grids(table, aids.record_names(game))
    assert [p.title for p in panels] == [
        "Flight deck or propulsion card 飛行甲板使用不能・推進機被弾: yes",
        "Flight deck or propulsion card 飛行甲板使用不能・推進機被弾: no"]
    for panel in panels:  # deck damage down, side damage across, each a 3 x 3 grid
        assert panel.crt.row_labels == ("Under half", "Half+ 半分以上", "Sunk 撃沈")
        assert panel.crt.col_labels == panel.crt.row_labels
    assert panels[1].crt.cells[0][0] == "Intact / yes / –"  # both under half, not disabled
    assert panels[0].crt.cells[0][0] == "Heavy / no / Heavy"  # the same, disabled
    block = aids.table_block(table, 190, game)
    assert len([g for g in walk(block.items) if getattr(g, "cls", "") == "table-panel"]) == 2


def test_every_panel_cell_is_what_the_engine_looks_up():
    from warpress.engine.tables import lookup

    for game_id in GAMES:
        game = builtin(game_id)
        for table in game.tables:
            for panel in aids.panel_grids(table) or ():
                crt = panel.crt
                others = [k for k in table.keys if k not in (crt.row_key, crt.col_key)]
                parts = {f"{aids.key_name(table, k)}: {aids.value_text(table, v, {}, k)}":
                         (k.id, v) for k in others for v in k.values}
                fixed = {k.id: k.values[0] for k in others}  # a key not in the title: any
                fixed.update(parts[part] for part in panel.title.split(" · "))
                for i, row in enumerate(crt.row_key.values[:1] or [crt.row_key.min]):
                    col = crt.col_key.values[0] if crt.col_key.values else crt.col_key.min
                    result = lookup(table, **{crt.row_key.id: row, crt.col_key.id: col},
                                    **fixed)
                    shown = " / ".join(aids.result_text(table, result[r], {}, r)
                                       for r in table.results)
                    assert crt.cells[i][0].rstrip("†") == shown, (table.id, panel.title)


def test_no_table_of_three_keys_prints_as_a_list_when_its_grids_fit():
    """Midway's attack modifiers and midway-cards' ship damage status were lists (the
    attack modifiers now print as the list of modifiers that says what the grids would)."""
    game = builtin("midway")
    assert len(aids.panel_grids(game.table("attack-modifier"))) == 4
    for game_id in GAMES:
        game = builtin(game_id)
        for table in game.tables:
            if len(table.keys) < 3 or table.id in LISTED or aids.restated_by_modifiers(table):
                continue
            block = aids.table_block(table, 190, game)
            assert [g for g in walk(block.items) if getattr(g, "cls", "") == "table-panel"], \
                table.id


#: Tables of three or more keys that stay lists, and why.
LISTED = {
    "attack": "nimitz: attack value and superior value 0-20 by a d10: 11 grids",
    "victory": "axis-allies: Germany + Japan NPL 0-147 is no grid axis",
}


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


@pytest.mark.parametrize("game_id", GAMES)
def test_every_table_key_and_result_of_a_shipped_game_has_a_name(game_id):
    """The aids print keys and results by these names (77 of 89 keys had none)."""
    for table in builtin(game_id).tables:
        for key in table.keys:
            assert key.name, f"{game_id} table {table.id}: key {key.id} has no name"
        for result in table.results:
            assert result in table.labels, f"{game_id} table {table.id}: result {result}"


def _printed_id(game, table, key, value) -> bool:
    """True when ``value`` of ``key`` is a word id that would print as itself."""
    if not isinstance(value, str) or not value[:1].islower() or key.value_label(value):
        return False
    return value not in table.labels and value not in aids.record_names(game)


@pytest.mark.parametrize("game_id", GAMES)
def test_enum_values_print_by_name_not_as_lower_case_ids(game_id):
    """``good``, ``half``, ``us`` printed as themselves; now each value has a name (its
    own, the table's labels, a side's or a record's) and the printed table shows it."""
    game = builtin(game_id)
    for table in game.tables:
        shown = {t.text for t in texts(aids.table_block(table, 190, game).items)}
        for key in table.keys:
            for value in key.values:
                assert not _printed_id(game, table, key, value), (table.id, key.id, value)
                named = key.value_label(value) or table.labels.get(value)
                if named and isinstance(value, str):
                    assert value not in shown, (table.id, value)


def test_a_named_value_prints_its_name_and_lookup_still_takes_the_id():
    from warpress.engine.tables import lookup

    game = builtin("nightfighter")
    table = game.table("sighting-dice")
    assert table.key("moon").values == ("full", "half", "new")  # ids, as before
    assert table.key("moon").value_label("half") == "Half 半月"
    assert lookup(table, visibility="good", moon="half")["dice"] == 4
    night = builtin("midway").table("initiative-tie")
    words = {t.text for t in texts(aids.table_block(night, 190, builtin("midway")).items)}
    assert "Japanese more" in words and "japan more" not in words


def test_side_ids_print_as_the_sides_names():
    game = builtin("nimitz")
    assert aids.record_names(game)["us"] == game.info.sides[0].label or \
        aids.record_names(game)["japan"] in [s.label for s in game.info.sides]
    assert aids.value_text(game.table("bonus-marker"), "japan", aids.record_names(game)) != \
        "japan"


@pytest.mark.parametrize("game_id", GAMES)
def test_no_table_id_is_printed_on_the_aids(game_id, sheet_pages):
    """'(surface-battle table)', '(see sighting-range)': the tables' names instead."""
    game = builtin(game_id)
    ids = [re.compile(rf"(?<![\w-]){re.escape(t.id)} table|see {re.escape(t.id)}(?![\w-])")
           for t in game.tables if "-" in t.id or "_" in t.id]  # "air-combat levels" is English
    for page in sheet_pages[game_id]:
        if page.title.endswith("assumed values"):
            continue
        for text in texts(page.items):
            assert not any(i.search(text.text) for i in ids), (page.id, text.text)


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


@pytest.mark.parametrize("paper", ["a4", "letter"])
def test_the_scenario_record_is_one_page_with_lines_at_least_6_mm_apart(paper):
    """It ran to a second page; short fields now sit side by side (``columns``)."""
    options = parse_options(paper, "pdf", "long", "0,0", "sheets")
    pages = [p for p in kit_pages(builtin("nightfighter"), options)
             if "scenario-record" in p.id]
    assert len(pages) == 1
    fields = [f for f in walk(pages[0].items)
              if isinstance(f, Group) and f.cls == "write-in-field"]
    assert max(f.dx for f in fields) > 100  # side by side
    for field in fields:
        ys = sorted(i.y1 for i in field.items if isinstance(i, Line) and i.cls == "write-in")
        assert all(b - a >= 6.0 for a, b in zip(ys, ys[1:], strict=False))
        assert ys[0] - max(t.y for t in field.items if isinstance(t, Text)) >= 6.0


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


def test_long_exact_chances_print_as_percentages(tmp_path):
    """Axis & Allies' research table holds exact chances (1932641711/2176782336 for 12 dice):
    the aid prints every chance of that column as a percentage, the data keeps the fraction."""
    from click.testing import CliRunner
    from warpress.cli import main

    out = tmp_path / "out"
    result = CliRunner().invoke(main, ["build", "axis-allies", "--out", str(out), "--format",
                                       "svg", "--only", "sheets"])
    assert result.exit_code == 0, result.output
    svg = "".join(p.read_text(encoding="utf-8")
                  for p in sorted((out / "axis-allies" / "svg").glob("*.svg")))
    assert "1932641711" not in svg and "/2176782336" not in svg
    assert ">88.8 %<" in svg and ">16.7 %<" in svg   # 12 dice; 1 die (1/6) alike


def test_numbers_read_as_a_player_reads_them():
    assert aids.number_text("19-") == "≤ 19" and aids.number_text("-2-") == "≤ −2"
    assert aids.number_text("12+") == "12+" and aids.number_text("7") == "7"
    assert aids.number_text("2", sign=True) == "+2" and aids.number_text("-1", sign=True) == "−1"
    assert aids.number_text("0", sign=True) == "0"
    assert aids.number_text("3-5") == "3–5" and aids.number_text("-3") == "−3"
    assert aids.signed("Modifier 修整") and not aids.signed("Modified roll ダイス")


def test_running_text_reads_minus_signs_range_dashes_and_open_ends():
    assert aids.dashes("Experte +2, novice -1; 2-4 Full, 9- 0 hits") == (
        "Experte +2, novice −1; 2–4 Full, ≤ 9 0 hits")
    assert aids.dashes("factor line 1-2-1, a re-roll, 4/2-1-1") == (
        "factor line 1-2-1, a re-roll, 4/2-1-1")


def test_rows_that_say_the_same_merge_into_one_row_of_their_range():
    rows = [["1–2", "1"], ["3", "2"], ["4", "2"], ["5", "2"], ["6–8", "3"], ["9", "4"],
            ["10+", "4"]]
    assert aids.merged_runs(rows, 0) == [["1–2", "1"], ["3–5", "2"], ["6–8", "3"],
                                         ["9+", "4"]]
    assert aids.merged_runs([["≤ 2", "a"], ["3", "a"], ["5", "a"]], 0) == [
        ["≤ 3", "a"], ["5", "a"]]  # 4 is missing: no run


def test_id_lists_print_as_ranges():
    assert aids.id_ranges([101, 102, 103, 104, 111, 112, "x", 120]) == "101–104, 111, 112, x, 120"


def test_modifiers_print_with_their_sign_and_open_ranges_as_at_most():
    game = builtin("midway")
    table = game.table("attack-modifier")
    cells = {c for panel in aids.panel_grids(table, aids.record_names(game)) or ()
             for row in panel.crt.cells for c in row}
    # 9.4(1): the combined-attack +1 is the B5N's only, so no row adds up to +2
    assert cells == {"+1", "0", "−1"}  # a minus sign, not a hyphen
    base = builtin("midway-cards").table("base-status")
    words = [t.text for t in texts(aids.table_block(base, 190).items)]
    assert "≤ 19" in words and "19-" not in words


def test_a_kit_prints_each_table_once():
    with aids.printing():
        table = builtin("nimitz").table("battle-rounds")
        assert aids.table_blocks(table, 190) and aids.table_blocks(table, 190) == []
        with aids.another_copy():  # a sheet printed once per player: its copy has it too
            assert aids.table_blocks(table, 190)
    assert aids.table_blocks(table, 190)  # outside a kit: always


def test_a_table_its_modifiers_restate_prints_as_the_modifiers_alone():
    """Midway's attack modifiers: every result is 0 or a listed modifier's value."""
    game = builtin("midway")
    table = game.table("attack-modifier")
    assert aids.restated_by_modifiers(table)
    words = [t.text for t in texts(aids.table_block(table, 190, game).items)]
    assert "Modifiers" in words and not any(w == "Target 目標" for w in words)
    assert any(w.startswith("• −1 against Midway base") for w in words)
    assert not any(aids.restated_by_modifiers(t) for g in GAMES for t in builtin(g).tables
                   if t.id != "attack-modifier")


def test_rows_no_roll_decides_print_as_sentences_above_the_rest_of_the_grid():
    """Midway's carrier damage: a carrier already damaged sinks whatever the die; the grid
    keeps the rolls of a first hit, the results that no longer change said once."""
    from warpress.engine.tables import lookup

    table = builtin("midway").table("carrier-damage")
    said, rest = aids.rollless_lines(table, {})
    assert said[0].endswith("Sunk 撃沈 (no roll)") and said[-1] == "Otherwise, roll d6:"
    assert [k.id for k in rest.keys] == ["roll"] and rest.results == ("box",)
    for roll in range(1, 7):
        shown = aids.crt_grid(rest) or rest
        assert lookup(rest, roll=roll)["box"] == lookup(table, damaged="no", roll=roll)["box"]
        assert lookup(table, damaged="yes", roll=roll)["sunk"] in (True, "yes")
        assert shown is not None
    for game_id in GAMES:  # a table whose every row needs the roll is left as it is
        for other in builtin(game_id).tables:
            if all("roll" in other.conditions(r) for r in other.rows):
                assert aids.rollless_lines(other, {}) == ([], other)
    hit = builtin("axis-allies").table("combat-hit")  # rows without a roll, but a rule
    block = aids.table_block(hit, 190, builtin("axis-allies"))
    assert "(no roll)" not in " ".join(t.text for t in texts(block.items))


def test_a_numbered_step_takes_no_bullet_and_wraps_under_its_text():
    block = aids.bullets(["1. Lay out the cards " + "and more words " * 12, "Later: steps 2-6",
                          "(5) Damage", "2)-3) Submarines fire"], 60)
    words = [t for t in texts(block.items)]
    assert [t.text for t in words if t.text == "•"] == ["•"]  # the one line without a number
    first, second = words[0], words[1]
    assert first.text.startswith("1. Lay") and first.x == 0
    assert second.x == pytest.approx(aids.text_width("1. ", 2.6))
    assert any(t.text.startswith("(5) Damage") and t.x == 0 for t in words)
