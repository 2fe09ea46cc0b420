"""Nimitz kit extensions: structure of the pages, not pixels."""

from __future__ import annotations

import pytest
from kit_walk import group_of, ids_on, page_of, texts_of
from warpress.components import holds
from warpress.components.impose import KEEP, SpatialIndex, recording, tile, whole_boxes
from warpress.components.page import paper
from warpress.components.primitives import Group, Rect, Text, walk
from warpress.engine.loader import builtin
from warpress.games.nimitz import kit as nz


@pytest.fixture(scope="module")
def game():
    return builtin("nimitz")


def test_campaign_map_points_routes_and_capacities(game):
    point_map = game.get("point_maps", "campaign")
    items, width, height = nz.campaign_map_drawing(game)
    ids = {i.id for i in walk(items) if i.id}
    assert (width, height) == (560, 400)  # the Pacific alone: no panel beside it
    for point in point_map.points:
        texts = texts_of(group_of(items, f"point-{point.id}"))
        names = texts_of(group_of(items, f"label-{point.id}"))
        assert point.name in names and point.name_ja in names
        cap = "∞" if point.capacity == "unlimited" else "×" if point.capacity is None else str(
            point.capacity)
        assert any(t.startswith(cap) for t in texts), point.id
    for route in point_map.routes:
        assert f"route-{route.a}-{route.b}" in ids
    solomons = texts_of(group_of(items, "label-solomon-islands"))
    assert "objective '42 '43 '44 '45" in solomons


def test_campaign_map_is_the_pacific_with_each_point_at_its_place(game):
    """The land from the coastlines data under the routes; each point's disc at its real
    longitude and latitude, projected: Tokyo on Honshu's coast, Brisbane on Australia's."""
    from warpress.components import areamap
    from warpress.components.primitives import Circle, Polygon

    point_map = game.get("point_maps", "campaign")
    items, _width, _height = nz.campaign_map_drawing(game)
    land = group_of(items, "coastlines")
    rings = [p.points for p in walk([land]) if isinstance(p, Polygon)]
    assert len(rings) > 100
    project = nz.projector(game, point_map)
    for point in point_map.points:
        disc = group_of(items, f"point-{point.id}")
        assert (disc.dx, disc.dy) == pytest.approx(project(point.extra["lon"],
                                                           point.extra["lat"]))
    on_land = {pid for pid in ("australia", "east-asia", "midway", "wake")
               if any(areamap.in_ring(r, *project(*_point(point_map, pid))) for r in rings)}
    assert on_land == {"australia", "east-asia"}  # atolls are too small for the coastlines
    legend, _h = nz.map_legend(game)(300)
    words = " ".join(t.text for t in walk(legend) if hasattr(t, "text"))
    swatches = {c.style.fill for c in walk(legend) if isinstance(c, Circle | Rect)}
    for kind, fill in nz.POINT_FILLS.items():  # a legend entry for every colour
        assert fill in swatches and nz.POINT_KINDS[kind] in words
    assert {nz.LAND, nz.SEA} <= swatches


def _point(point_map, point_id):
    point = next(p for p in point_map.points if p.id == point_id)
    return point.extra["lon"], point.extra["lat"]


def test_campaign_map_boxes_beside_their_points(game):
    items, _w, _h = nz.campaign_map_drawing(game)
    ids = {i.id for i in walk(items) if i.id}
    for box in game.get("displays", "port-return").boxes:
        assert f"map-box-{box.id}" in ids
    assert {"arrow-port-return-1944-45-port-return-1943-45",
            "arrow-port-return-1943-45-port-return-1942-45", "arrow-port-return-hawaii"} <= ids
    assert {"map-box-bw-strategic-bombing", "map-box-japan-invasion"} <= ids
    assert not {"campaign-turn-track", "storage-boxes", "table-japanese-orders"} & ids


def test_campaign_display_track_boxes_and_tables(game):
    """The turn track, the storage boxes and the two Japanese tables are a display of their
    own, flowed with the play aids, not a panel that widens the map."""
    blocks = nz.display_blocks(game, 190.0)
    items = [Group(b.items) for b in blocks]
    ids = {i.id for i in walk(items) if i.id}
    beside = {"bw-strategic-bombing", "japan-invasion", "japanese-order-table"}
    boxes = {b.id for b in game.get("displays", "campaign-boxes").boxes} - beside
    assert {f"map-box-{b}" for b in boxes} <= ids
    track = game.get("tracks", "campaign-turn")
    assert {f"track-campaign-turn-{v}" for v in track.values} <= ids
    orders = " ".join(texts_of(group_of(items, "table-japanese-orders")))
    for order in game.section("orders"):
        assert order.name_ja in orders
    assert "table-japanese-reinforcement" in ids
    assert "table-japanese-air" not in ids  # on the battle sheet, where its areas are
    least = holds.least(game)
    held = [r for r in walk(items) if isinstance(r, Rect) and "holds" in (r.cls or "").split()]
    assert len(held) == len(boxes) + len(track.values)
    assert all(r.w >= least - 1e-6 and r.h >= least - 1e-6 for r in held)


def test_display_sheet_is_in_the_kit_with_the_aids(pages):
    display = [p for p in pages if "campaign-turn-track" in ids_on(p)]
    assert len(display) == 1 and not display[0].id.startswith("map-campaign-")
    assert "table-japanese-orders" in ids_on(display[0])


def test_order_table_prints_two_faces_of_one_order_as_a_range(game):
    """Standby on 1 and 2 (9.2.1) is one row "1–2", not the same row twice."""
    group, _h = nz.order_table(game, 190.0)
    texts = texts_of(group)
    assert "1–2" in texts
    assert sum(t.startswith("Standby") for t in texts) == 1


@pytest.mark.parametrize("paper_name", ["a4", "letter"])
def test_map_seams_cut_no_point_box_or_legend(game, paper_name):
    """The seams keep each point's disc whole (a stack never lies across two tiles), and the
    boxes and the legend; the map takes four tiles on either paper."""
    drawing, width, height = nz.kit_drawing(game, nz.kit_scale(game, paper(paper_name)),
                                            paper(paper_name))
    with recording() as seen:
        tiles = tile(drawing, width, height, paper(paper_name))
    cut = seen.drawings[-1]
    kept = [box for box, weight in whole_boxes(drawing, SpatialIndex(drawing)) if weight >= KEEP]
    assert len(kept) > len(game.get("point_maps", "campaign").points)
    crossed = [box for box in kept for axis, seams in ((0, cut.seams_x), (1, cut.seams_y))
               for at in seams if box[axis] < at < box[axis + 2]]
    assert not crossed
    assert len(tiles) == 4


def test_each_table_is_printed_once_in_the_kit(pages):
    """The Japanese aircraft movement table was on the map, the battle sheet and two sheets."""
    def tables(page_list) -> list[str]:
        return [g.id for p in page_list for g in walk(p.items)
                if isinstance(g, Group) and g.id and g.id.startswith("table-")]

    tiles = [p for p in pages if p.id.startswith("map-campaign-")]  # one map on several tiles
    printed = sorted(set(tables(tiles))) + tables(p for p in pages if p not in tiles)
    assert printed.count("table-japanese-air") == 1
    assert len(printed) == len(set(printed)), sorted(printed)


def test_map_is_tiled_with_an_assembly_page(pages):
    tiles = [p for p in pages if p.id.startswith("map-campaign-")]
    assert len(tiles) > 2 and tiles[-1].id == "map-campaign-assembly"


def test_battle_sheet_areas_island_boxes_and_tracks(game, pages):
    sheet = page_of(pages, "battle-sheet")
    assert (sheet.width, sheet.height) == (297, 210)
    ids = ids_on(sheet)
    for area in ("japanese-sea", "island", "coastal", "us-sea"):
        assert f"battle-{area}" in ids
    for side in ("japanese", "us"):
        for kind in ("position", "beach", "airfield"):
            assert f"battle-{side}-{kind}" in ids
    assert {f"track-battle-round-{v}" for v in range(1, 7)} <= ids
    assert {f"track-battle-plan-count-{v}" for v in range(1, 5)} <= ids
    assert {"battle-carrier-aircraft-holding", "battle-us-bonus-markers",
            "battle-japanese-bonus-drawn"} <= ids
    number = texts_of(group_of(sheet.items, "battle-coastal"))
    assert "3" in number  # the position number of the aircraft-movement table


def test_every_unit_has_a_damaged_back_and_every_marker_is_printed(game, pages):
    fronts = [p for p in pages if p.id.startswith("counters-") and p.id.endswith("-front")]
    backs = [p for p in pages if p.id.startswith("counters-") and p.id.endswith("-back")]
    units = [i for p in fronts for i in walk(p.items)
             if isinstance(i, Group) and (i.cls or "").startswith("counter unit ")]
    assert len(units) == sum(u.count or 1 for u in game.units)
    damaged = [i for p in backs for i in walk(p.items)
               if isinstance(i, Group) and (i.cls or "").startswith("counter unit ")]
    assert len(damaged) == len(units)
    assert all(any(i.cls == "counter-back reduced" for i in walk(d.items)) for d in damaged)
    assert all(any(i.cls == "reduced-band" for i in walk(d.items)) for d in damaged)
    us28 = next(d for d in damaged if d.id.startswith("counter-us-28bg-"))
    assert "1" in texts_of(us28) and "damaged" not in texts_of(us28)  # its damaged values
    markers = [i for p in fronts for i in walk(p.items)
               if isinstance(i, Group) and (i.cls or "").startswith("counter marker ")]
    moving = game.get("markers", "japanese-moving")
    assert len(markers) == sum(m.count or 1 for m in game.markers) - moving.count
    table = game.table("bonus-marker")
    bonus = {str(table.result(r)["marker"]) for r in table.rows if table.result(r)["marker"]}
    assert len(bonus) == 30  # 16 US, 14 Japanese
    assert bonus <= {i.cls.split()[-1] for i in markers}


def test_the_battle_sheet_names_its_boxes_not_their_ids(game, pages):
    sheet = page_of(pages, "battle-sheet")
    notes = texts_of(Group(tuple(i for i in walk(sheet.items) if isinstance(i, Group)
                                 and i.cls == "landing-arrows")))
    assert "US beach → US position [10.19]" in notes
    assert not any("us-beach" in t or "coastal →" in t for t in notes)


def test_damaged_sides_print_values_not_the_word_damaged(game):
    """2.5.2: the damaged side is the same layout under a band, with the values the data
    gives for it (the 28th BG's anti-ship 1) and the full-strength values where the rules
    give none (constant damaged-side-values, assumed)."""
    assert game.get("constants", "damaged-side-values").is_assumed
    for unit in game.units:
        front = texts_of(Group(nz.unit_face(game, unit, 15.875, False)))
        back = texts_of(Group(nz.unit_face(game, unit, 15.875, True)))
        assert "damaged" not in back, unit.id
        if not isinstance(unit.back, dict):
            assert back == front, unit.id  # the front's values, all of them
    us28 = game.get("units", "us-28bg")
    back = nz.damaged_values(game, us28)
    assert back["anti_ship"] == 1 and back["anti_ground"] == us28.stats["anti_ground"]


def test_counter_colours_follow_the_sides(game):
    akagi = nz.unit_face(game, game.get("units", "akagi"), 15.875, False)
    lexington = nz.unit_face(game, game.get("units", "lexington"), 15.875, False)
    raaf = nz.unit_face(game, game.get("units", "raaf-bg2"), 15.875, False)
    fills = [next(i for i in face if isinstance(i, Rect)).style.fill
             for face in (akagi, lexington, raaf)]
    assert fills == [nz.NAMED_COLOURS["red"], nz.NAMED_COLOURS["blue"], nz.NAMED_COLOURS["ochre"]]
    # silhouette layout: cost hit/buy top left, AA(/superior)-gunnery-ASW at the bottom
    assert texts_of(Group(lexington)) == ["Lexington", "レキシントン", "1/5", "4/2-1-1"]
    assert any(i.cls == "unit-symbol carrier" for i in walk(lexington))


def test_a_setup_sheet_per_campaign_with_its_objectives(game, pages):
    for campaign in game.section("campaigns"):
        sheet = [p for p in pages if p.id.startswith(f"setup-{campaign.id}-")]
        assert sheet, campaign.id
        ids = set().union(*(ids_on(p) for p in sheet))
        objectives = {f"setup-{campaign.id}-objective-{o}" for o in campaign.get("objectives")}
        assert objectives <= ids
        assert f"setup-{campaign.id}-levels" in ids
    sheet_1942 = [i for p in pages if p.id.startswith("setup-1942-") for i in p.items]
    placement = texts_of(group_of(sheet_1942, "setup-1942-us-start-1"))  # the order of battle
    assert "Lexington" in placement and "Hawaiian Islands ハワイ諸島" in placement


def test_a_setup_sheet_says_no_none_above_its_special_rules(game, pages):
    """No "Special rules: none" line above a list of special rules."""
    for campaign in game.section("campaigns"):
        items = [i for p in pages if p.id.startswith(f"setup-{campaign.id}-") for i in p.items]
        assert "Special rules: none" not in " ".join(texts_of(Group(tuple(items))))


def test_player_log_rows_per_campaign_and_the_linked_total(game, pages):
    log = page_of(pages, "player-log-1")
    ids = ids_on(log)
    assert {f"log-{c.id}" for c in game.section("campaigns")} <= ids
    assert "log-total" in ids
    unused = [i for i in walk(log.items) if isinstance(i, Rect) and i.cls == "log-unused"]
    assert len(unused) == 2  # 1945 has 4 turns of 6
    texts = " ".join(texts_of(Group(log.items)))
    for row in game.table("linked-result").rows:
        assert row.extra["label_ja"] in texts or game.table("linked-result").result(row)[
            "label_ja"] in texts
    assert not any(p.id.startswith("sheet-player-log") for p in pages)


def test_a_year_whose_placement_the_rules_do_not_print_says_so_once(pages):
    for year, stands_in in (("1942", False), ("1943", True), ("1945", True)):
        words = [t for p in pages if p.id.startswith(f"setup-{year}-")
                 for t in texts_of(Group(p.items))]
        assert (" ".join(words).count("stands in for one the rules do not print") == 1) is (
            stands_in), year


def test_each_family_of_markers_reads_at_one_size(game):
    """The battle-bonus markers at one size, the game's other markers at one size: "ASW"
    no larger than "Leathernecks", "US recon" no larger than "Move complete"."""
    markers = {m.id: m for m in game.markers}
    sizes: dict[str, set[float]] = {}
    for piece in nz.marker_pieces(game):
        marker = markers[piece.id.removeprefix("counter-").rsplit("-", 1)[0]]
        words = {t.size for t in walk(piece.front) if isinstance(t, Text) and t.cls == "word"}
        sizes.setdefault(nz.family(marker), set()).update(words)
    assert set(sizes) == {"battle bonus", "marker"}
    assert all(len(s) == 1 for s in sizes.values()), sizes


def test_sequence_of_play_prints_each_phase_with_what_is_done_in_it(game, pages):
    """Not a bare list of phase names: each phase of the turn, numbered, with its steps, and
    a battle's set-up and rounds after them (the ``sequence`` section)."""
    words = " ".join(t for p in pages for t in texts_of(Group(p.items)))
    campaign = sorted((p for p in game.sequence if not p.extra.get("part")),
                      key=lambda p: p.order)
    assert len(campaign) == 11
    for number, phase in enumerate(campaign, 1):
        assert f"{number}. {phase.name}" in words
    assert all(step[:25] in words for phase in game.sequence for step in phase.steps[:1])
    assert "Each battle round" in words

