"""Nightfighter's own kit pages: maps, counter sheets, referee screen (structure, not pixels)."""

from __future__ import annotations

import pytest
from kit_walk import texts_of
from warpress.components import aids, impose
from warpress.components.kit import kit_pages, parse_options
from warpress.components.marks import proof
from warpress.components.page import PAPERS, paper
from warpress.components.primitives import Group, Polygon, Rect, Text, walk
from warpress.engine.hexgrid import HexGrid
from warpress.engine.loader import builtin
from warpress.games.nightfighter import kit as nf


@pytest.fixture(scope="module")
def game():
    return builtin("nightfighter")


def by_cls(items, cls: str) -> list:
    return [p for p in walk(items) if p.cls and cls in p.cls.split()]


def by_id(items, prefix: str) -> list:
    return [p for p in walk(items) if p.id and p.id.startswith(prefix)]


# --- maps ----------------------------------------------------------------------------------


@pytest.mark.parametrize("which", ["player", "referee"])
def test_map_has_every_hex_once(game, which):
    items, _w, _h = nf.map_drawing(game, which)
    ids = [p.id[len(f"{which}-hex-"):] for p in by_id(items, f"{which}-hex-")]
    assert sorted(ids) == sorted(game.hex_map().hex_ids)
    assert len(ids) == 18 * 27
    labels = {t.text for t in walk(items) if isinstance(t, Text) and t.cls == "hex-id"}
    assert {"0101", "0712", "1827"} <= labels


@pytest.mark.parametrize("which", ["player", "referee"])
def test_map_fills_its_sheet(game, which):
    _items, width, height = nf.map_drawing(game, which)
    inches = game.constant(nf.MAP_SHEETS[which][0])
    sheet_w, sheet_h = (v * 25.4 for v in inches)
    assert width < sheet_w and height < sheet_h
    geo, _w, _h = nf.map_geometry(game, which)
    grid_w, grid_h = geo.extent()
    assert grid_h > 0.9 * (height - nf.TITLE_H - nf.BOTTOM_H - 2 * nf.PAD)
    assert grid_w < width


def test_map_features(game):
    items, _w, _h = nf.map_drawing(game, "referee")
    entries = by_cls(items, "entry-hex")
    assert len(entries) == 18
    assert all(by_cls(e.items, "arrow") for e in entries)
    assert {t for e in entries for t in texts_of(e)} == {f"{c:02d}" for c in range(1, 19)}
    exits = [p for p in by_id(items, "referee-hex-") if "exit" in p.cls.split()]
    assert sorted(p.id[-2:] for p in exits) == ["27"] * 18
    zones = by_cls(items, "searchlight-zone")
    letters = {f.label for f in game.hex_map().features if f.kind == "searchlight-zone"}
    assert {z.id for z in zones} == {f"zone-{x}" for x in letters}
    for zone in zones:
        # an outline, not a fill: only dotted lines and the letter tag
        assert [t for t in texts_of(zone) if t.rstrip("†") in letters]
        assert all(p.style.dash for p in walk(zone.items) if type(p).__name__ == "Line")
    paths = by_cls(items, "flare-dropper-path")
    assert len(paths) == 18
    assert all(by_cls(p.items, "arrow") for p in paths)
    assert by_id(items, "searchlight-beacon")
    beacon_exits = by_cls(items, "radio-beacon-exit")
    assert sorted(a.id for a in beacon_exits) == [
        f"radio-beacon-to-{h}" for h in game.hex_map().feature("radio-beacon-box").hexes]


def test_hexes_are_not_greyed_by_zones(game):
    items, _w, _h = nf.map_drawing(game, "player")
    fills = {p.style.fill for p in by_id(items, "player-hex-") if isinstance(p, Polygon)}
    assert fills == {nf.PLAIN_HEX.fill, nf.ENTRY_HEX.fill, nf.EXIT_HEX.fill}


def test_player_display_turn_track_and_environment(game):
    """The turn track and the environment boxes print as the player's display, with the
    set-up: the player map is printed alone."""
    items = nf.display_blocks(game, 190.0)[0].items
    boxes = by_cls(items, "track-box")
    assert [b.id for b in boxes] == [f"track-game-turn-{n}" for n in range(1, 21)]
    values = [t.text for t in walk(items) if isinstance(t, Text) and t.cls == "track-value"]
    assert values[:4] == ["1", "2*", "3", "4*"]
    env = by_cls(items, "environment-box")
    assert len(env) == 8 and "box-environment-moon-full" in {b.id for b in env}
    assert min(min(b.w, b.h) for b in [*env, *boxes]) >= 15.875  # holds a 5/8-in counter
    for which in ("player", "referee"):
        drawn, _w, _h = nf.map_drawing(game, which)
        assert not by_cls(drawn, "track-box") and not by_cls(drawn, "environment-box")


@pytest.mark.parametrize("name", ["a4", "letter"])
def test_player_map_prints_alone_on_four_tiles_with_hexes_that_hold_a_counter(game, name):
    pages = kit_pages(game, parse_options(name, "pdf", "long", "0,0", "map"))
    tiles = [p for p in pages if p.id.startswith("player-map-") and "assembly" not in p.id]
    assert len(tiles) == 4
    geo = nf.player_layout(game, paper(name)).geo
    assert geo.size * 3 ** 0.5 >= 15.875 + 0.5  # across the flats: a 5/8-in counter and more
    assert geo.size <= nf.map_geometry(game, "player")[0].size  # never over the map's sheet
    setup = [p for p in kit_pages(game, parse_options(name, "pdf", "long", "0,0", "sheets"))
             if any(g.id == "player-display" for g in walk(p.items) if isinstance(g, Group))]
    assert len(setup) == 1


def test_map_pages_tiled_and_on_one_sheet(game):
    a4 = [p for p in kit_pages(game, parse_options("a4", "pdf", "long", "0,0", "map"))]
    parts = {p.title.split(": ")[-1] for p in a4}
    assert parts == {"player map", "referee map"}
    assert any(p.id == "player-map-assembly" for p in a4)
    tabloid = kit_pages(game, parse_options("tabloid", "pdf", "long", "0,0", "map"))
    referee = [p for p in tabloid if p.title.endswith("referee map")]
    assert [p.id for p in referee] == ["referee-map-A1"]
    assert by_cls(referee[0].items, "map-border")


@pytest.mark.parametrize("proofing", [False, True])
def test_referee_map_has_a_title_block_and_legend_in_room_the_hexes_leave(game, proofing):
    """The referee map's title block (with its north arrow) and legend lie in the column
    east of the grid, above the radio-beacon box, naming every kind of mark the map draws;
    whole on one tile on every paper, which cuts the map into as many tiles as without it."""
    with proof(proofing):
        items, width, height = nf.map_drawing(game, "referee")
    legend = next(g for g in by_id(items, "referee-map-legend"))
    frame = legend.items[0]
    x0, y0, x1, y1 = legend.dx, legend.dy, legend.dx + frame.w, legend.dy + frame.h
    geo, _w, _h = nf.map_geometry(game, "referee")
    grid_w, _grid_h = geo.extent()
    box = nf.radio_beacon_box(geo)
    grid_top = nf.PAD + nf.TITLE_H
    assert nf.PAD + grid_w < x0 and x1 <= width and y1 < grid_top + box.top
    assert by_cls(legend.items, "north-arrow") and by_cls(legend.items, "legend-title")
    swatches = {p.cls for p in walk(legend.items) if (p.cls or "").startswith("legend-")}
    drawn = {f.kind for f in game.hex_map().features}
    assert {f"legend-{k}" for k in drawn if k != "flare-dropper-entry"} <= swatches
    bare = tuple(i for i in items if i is not legend)
    for name in PAPERS:
        tiles = impose.tile(items, width, height, paper(name), name="referee map")
        assert len(tiles) == impose.tile_count(bare, width, height, paper(name)), name
        assert any(t.shown()[0] <= x0 and t.shown()[1] <= y0 and x1 <= t.shown()[2]
                   and y1 <= t.shown()[3] for t in tiles), name


# --- counters ------------------------------------------------------------------------------


def test_counter_sheets_hold_the_data_counts(game):
    sheets = dict(nf.counter_sheet_pieces(game))
    large, small = (game.section("counter-sheets")[i].name for i in (0, 1))
    assert len(sheets[large]) == game.constant("counters-large-sheet") == 88
    assert len(sheets[small]) == game.constant("counters-small-sheet") == 280
    assert {round(p.w, 3) for p in sheets[large]} == {15.875}
    assert {round(p.w, 3) for p in sheets[small]} == {12.7}
    assert "other counters" not in sheets


def test_aircraft_counters(game):
    pieces = nf.aircraft_pieces(game, game.get("units", "bf110g-4"))
    assert [p.id for p in pieces] == [f"counter-bf110g-4-20{i}" for i in range(1, 5)]
    front = pieces[0].front
    assert [t.text for t in walk(front) if t.cls == "sighting-number"] == ["1"]
    assert [t.text for t in walk(front) if t.cls == "aircraft-id"] == ["20"]
    assert by_cls(front, "unit-symbol") and by_cls(front, "night-fighter-german")  # nose up
    assert by_cls(pieces[0].back, "schrage-musik-note")
    lancasters = nf.aircraft_pieces(game, game.get("units", "lancaster"))
    h2s = [p.id for p in lancasters if by_cls(p.front, "h2s")]
    assert h2s and all(i.endswith("6") for i in h2s)


def test_radar_pairs_and_mew_sweeps(game):
    sheets = dict(nf.counter_sheet_pieces(game))
    pieces = [p for group in sheets.values() for p in group]
    mew = [p for p in pieces if "mew-sweep" in p.cls.split()]
    assert len(mew) == 5
    for radar in game.section("radars"):
        search, sweep = radar.get("markers")
        assert [p for p in pieces if search in p.cls.split()]
        assert [p for p in pieces if sweep in p.cls.split()]
    freya = next(p for p in pieces if "freya-search" in p.cls.split())
    assert "2" in [t.text for t in walk(freya.front) if isinstance(t, Text)]
    assert "contact 探知" in [t.text for t in walk(freya.back) if isinstance(t, Text)]


def test_entry_chits_red_front_yellow_back(game):
    pieces = nf.entry_chit_pieces(game, game.get("markers", "entry-chit"), 12.7)
    chits = game.section("entry-chits")
    assert len(pieces) == len(chits) == 40
    for piece, chit in zip(pieces, chits, strict=True):
        numbers = [t.text for t in walk(piece.front) if t.cls == "chit-number"]
        assert numbers == list(chit.get("red"))
        assert [t.text for t in walk(piece.back) if t.cls == "chit-number"] == list(
            chit.get("yellow"))
        assert piece.front[0].style.fill == nf.RED_CHIT
        assert piece.back[0].style.fill == nf.YELLOW_CHIT


def test_every_marker_is_drawn(game):
    drawn = {c for _name, group in nf.counter_sheet_pieces(game) for p in group
             for c in p.cls.split()}
    assert {m.id for m in game.markers} <= drawn
    assert {u.id for u in game.units} <= drawn


def test_counter_pages_have_backs(pages):
    ids = [p.id for p in pages if "counter" in p.title]
    assert any(i.endswith("-front") for i in ids) and any(i.endswith("-back") for i in ids)
    assert any(p.id == "calibration-front" for p in pages)


# --- referee screen ------------------------------------------------------------------------


def test_screen_has_every_table_with_its_rows(game, pages):
    screen = [p for p in pages if p.title.endswith("referee screen")]
    assert screen and all(p.width > p.height for p in screen)
    items = [i for p in screen for i in p.items]
    for table in game.tables:
        panel = [p for p in walk(items) if p.id == f"aid-table-{table.id}"]
        assert len(panel) == 1, table.id
        rows = by_id(panel[0].items, f"table-{table.id}-row-")
        formula = aids.table_formula(table, game)
        if formula:  # a rule prints as the rule, not as rows
            assert not rows and set(formula) <= set(texts_of(panel[0])), table.id
            continue
        sentences = nf.row_sentences(table, game)
        if sentences:  # a grid that would repeat itself: the data's rows as sentences
            shown = "".join(texts_of(panel[0])).replace(" ", "")
            assert not rows and all(s.replace(" ", "") in shown for s in sentences), table.id
            continue
        said, table = nf.steady_results(table, game)
        if said:  # a result every row gives is said once, over the grid of the others
            assert set(said) <= set(texts_of(panel[0])), table.id
        crt = aids.crt_grid(table, aids.record_names(game))
        if crt is None:  # rows that say the same for a run of numbers are one row
            assert len(rows) == len(nf.table_rows(table, game)[1]) <= len(table.rows), table.id
            continue
        # a two-key table is a grid, as on every play aid: its rows, its columns, its cells
        assert len(table.keys) == 2, table.id
        assert len(rows) == len(crt.row_labels), table.id
        shown = "".join(texts_of(panel[0])).replace(" ", "")
        assert all(c.replace(" ", "") in shown for c in crt.col_labels), table.id
        for row, label, parts in zip(rows, crt.row_labels, crt.parts, strict=True):
            printed = "".join(texts_of(row)).replace(" ", "")
            cells = [p for cell in parts for p in cell]  # a column per result
            for text in (label, *cells):   # every cell the engine's row gives, wrapped or not
                assert text.replace(" ", "") in printed, (table.id, text)
    two_keys = [t.id for t in game.tables if aids.crt_grid(t, aids.record_names(game))]
    assert two_keys == [t.id for t in game.tables if len(t.keys) == 2] and "flak" in two_keys
    assert {"searchlight-dice", "attack-position"} <= {
        t.id for t in game.tables if nf.row_sentences(t, game)}
    assert nf.steady_results(game.table("collision"), game)[0] == ["Roll on: Combat table"]
    assert by_id(items, "aid-display-umpire-off-map")
    reaction = by_id(items, "aid-table-reaction-effect")[0]
    assert {"≦ 2", "5+", "3–4"} <= set(texts_of(reaction))  # an open low end reads ≤ (≦) 2


def test_radar_arc_diagrams_match_engine_and_data(game, pages):
    items = [i for p in pages if p.title.endswith("referee screen") for i in p.items]
    grid = HexGrid.numbered(5, 5, offset=game.hex_map().offset)
    for arc in game.section("radar-arcs"):
        diagram = by_id(items, f"arc-{arc.id}")[0]
        filled = [p for p in walk(diagram.items) if p.cls == "arc-hex in-arc"]
        expected = grid.arc_hexes(grid.id_of(2, 2), 0, arc.id.lower(), 2)
        assert len(filled) == len(expected) == arc.get("hexes_at_range_2")


def test_aircraft_chart_rows_and_daggers(game, pages):
    def rows_of(kit):
        chart = [i for p in kit if "aircraft-data-chart" in p.title for i in p.items]
        return [g for g in walk(chart) if isinstance(g, Group) and g.id and
                g.id.startswith("chart-") and g.cls == "aid-row"]

    rows = rows_of(pages)
    assert len(rows) == len(game.units)
    assert not any("†" in t for g in rows for t in texts_of(g))  # a player's kit
    proof = rows_of(kit_pages(game, parse_options("a4", "pdf", "long", "0,0", "sheets",
                                                  proof=True)))
    assert any("†" in t for g in proof for t in texts_of(g))  # a designer proof


def test_text_fits_its_cells(pages):
    from warpress.components.fonts import text_width

    for page in pages:
        if not page.title.endswith("referee screen"):
            continue
        for row in (g for g in walk(page.items) if isinstance(g, Group) and g.cls == "aid-row"):
            cells = [p for p in row.items if isinstance(p, Rect)]
            for text in (t for t in row.items if isinstance(t, Text)):
                cell = next(c for c in cells if c.x <= text.x < c.x + c.w)
                assert text_width(text.text, text.size) <= cell.w, text.text


def test_counter_text_fits_the_counter(game):
    from warpress.components.fonts import text_width

    for _name, pieces in nf.counter_sheet_pieces(game):
        for piece in pieces:
            for face in (piece.front, piece.back or ()):
                for text in (t for t in walk(face) if isinstance(t, Text)):
                    assert text_width(text.text, text.size) <= piece.w, (piece.id, text.text)


def test_a_proof_mark_covers_no_text_of_its_counter(game):
    """A designer proof marks an assumed counter where the mark covers none of its texts
    (its name, its numbers): a free corner, else the middle of a side."""
    from warpress.components.labels import text_box

    with proof(True):
        sheets = nf.counter_sheet_pieces(game)
    marked = 0
    for _name, pieces in sheets:
        for piece in pieces:
            for face in (piece.front, piece.back or ()):
                texts = [t for t in walk(face) if isinstance(t, Text)]
                marks = [t for t in texts if t.cls == "proof-mark"]
                others = [text_box(t) for t in texts if t.cls != "proof-mark"]
                for mark in marks:
                    marked += 1
                    assert not any(text_box(mark).overlaps(b) for b in others), piece.id
    assert marked > 100


@pytest.mark.parametrize("name", ["a4", "letter"])
def test_the_referee_screen_pages_are_filled_alike(game, name):
    """The screen's panels are shared among its pages so that no last page is left near
    empty while the others are full: the least full holds 60 % of the fullest's panels
    (their heights added up)."""
    pages = [p for p in kit_pages(game, parse_options(name, "pdf", "long", "0,0", "sheets"))
             if p.title.endswith("referee screen")]
    depths = []
    for page in pages:
        panels = [g for g in page.items if isinstance(g, Group) and g.id
                  and (g.id.startswith("aid-") or g.id.startswith("chart-"))]
        index = impose.SpatialIndex(tuple(panels))
        depths.append(sum(index.box(g)[3] - index.box(g)[1] for g in panels))
    assert len(pages) >= 2 and min(depths) >= 0.6 * max(depths), depths
