"""Axis & Allies kit extensions: structure of the pages, not pixels."""

from __future__ import annotations

import re

import pytest
from kit_walk import group_of, ids_on, page_of, texts_of
from pypdf import PdfReader
from warpress.components.kit import build_kit, parse_options
from warpress.components.primitives import Group, Line, Rect, walk
from warpress.engine.loader import builtin
from warpress.games.axis_allies import kit as aa

A4 = sorted((210.0, 297.0))


@pytest.fixture(scope="module")
def game():
    return builtin("axis-allies")


def test_every_territory_and_sea_zone_is_drawn_on_the_tiles(game, pages):
    world = game.get("point_maps", "world")
    tiles = [p for p in pages if p.id.startswith("map-world-") and p.id != "map-world-assembly"]
    assert len(tiles) > 1
    assert any(p.id == "map-world-assembly" for p in pages)
    drawn = set().union(*(ids_on(p) for p in tiles))
    land = {f"territory-{p.id}" for p in world.points if p.kind != "sea"}
    sea = {f"sea-{p.id}" for p in world.points if p.kind == "sea"}
    assert land | sea <= drawn
    assert len(land) == 70 and len(sea) == 58


def test_territories_carry_owner_capital_and_factory(game):
    items, width, height = aa.world_map_drawing(game)
    groups = {i.id: i for i in walk(items) if isinstance(i, Group) and i.id}
    capitals = [g for g in groups.values() if "capital" in (g.cls or "").split()]
    assert {g.id for g in capitals} == {f"territory-{t}" for t in
                                        ("east-us", "germany", "japan", "russia",
                                         "united-kingdom")}
    germany = groups["territory-germany"]
    assert {"owner-germany", "factory"} <= set(germany.cls.split())
    assert "10" in texts_of(germany)
    box = next(i for i in germany.items if isinstance(i, Rect))
    assert box.style.stroke == aa.power_colour(game, "germany") == "#4d4d4d"
    assert width == 770 and height == 440  # the legend is placed by the tiler


def test_every_connection_is_drawn_and_shapes_do_not_overlap(game):
    world = game.get("point_maps", "world")
    items, _w, _h = aa.world_map_drawing(game)
    ids = {i.id for i in walk(items) if i.id}
    for route in world.routes:
        rid = f"route-{route.a}-{route.b}"
        assert rid in ids or {f"{rid}-a", f"{rid}-b"} <= ids, rid
    areas = list(aa.layout(game, world).values())
    for i, a in enumerate(areas):
        for b in areas[i + 1:]:
            assert (abs(a.x - b.x) >= (a.w + b.w) / 2 or abs(a.y - b.y) >= (a.h + b.h) / 2), (
                a.point.id, b.point.id)


def test_no_connection_passes_through_a_third_area(game):
    """Each connection is a mark across the two areas' shared border lying in those two
    cells only, or the far area's name (or a lettered badge) inside each area's own cell."""
    from warpress.components import areamap
    from warpress.components.impose import SpatialIndex

    world = game.get("point_maps", "world")
    areas = aa.layout(game, world)
    items, _w, _h, lettered = aa.world_map(game)
    shapes = {i.id: i for i in walk(items) if i.id}
    index = SpatialIndex(())
    marks = 0
    for route in world.routes:
        a, b = areas[route.a], areas[route.b]
        rid = f"route-{route.a}-{route.b}"
        if rid in shapes:
            marks += 1
            bar = next(i for i in shapes[rid].items if isinstance(i, Line))
            for k in range(51):
                x = bar.x1 + (bar.x2 - bar.x1) * k / 50
                y = bar.y1 + (bar.y2 - bar.y1) * k / 50
                assert areamap.inside(a.cell, x, y) or areamap.inside(b.cell, x, y), rid
            continue
        for part, area in (("a", a), ("b", b)):
            text = shapes[f"{rid}-{part}"]
            x0, y0, x1, y1 = index.box(text)
            assert all(areamap.inside(area.cell, x, y) for x, y in (
                (x0, y0), (x1, y0), (x0, y1), (x1, y1))), (rid, part)
    assert marks > 150 and len(lettered) < 20


def test_every_point_of_the_map_belongs_to_an_area(game):
    from warpress.components import areamap

    world = game.get("point_maps", "world")
    areas = list(aa.layout(game, world).values())
    w, h = aa.map_size(world)
    bare = [(x, y) for x in range(1, int(w), 4) for y in range(1, int(h), 4)
            if not any(areamap.inside(a.cell, x, y) for a in areas)]
    assert not bare, bare[:5]  # e.g. the patch north of the Red Sea zone


def test_every_area_is_a_cell_holding_its_block_and_a_box_for_a_stack(game):
    from warpress.components import areamap, holds

    world = game.get("point_maps", "world")
    areas = aa.layout(game, world)
    assert len(areas) == 128
    items, _w, _h = aa.world_map_drawing(game)
    shapes = {i.id: i for i in walk(items) if i.id}
    least = holds.least(game)
    for area in areas.values():
        assert f"cell-{area.point.id}" in shapes
        corners = [(area.x + dx * area.w / 2, area.y + dy * area.h / 2)
                   for dx in (-1, 1) for dy in (-1, 1)]
        assert all(areamap.inside(area.cell, x, y) for x, y in corners), area.point.id
        stack = shapes.get(f"stack-{area.point.id}")
        if area.neutral:
            assert stack is None
            continue
        assert "holds" in stack.cls.split() and stack.w >= least and stack.h >= least


def test_borders_without_a_connection_are_drawn_as_barriers(game):
    world = game.get("point_maps", "world")
    areas = aa.layout(game, world)
    joined = {frozenset((r.a, r.b)) for r in world.routes}
    touching = {frozenset((a, b)) for a, b, _edge in aa.neighbours(areas)}
    items, _w, _h = aa.world_map_drawing(game)
    barriers = {i.id for i in walk(items) if i.id and i.id.startswith("barrier-")}
    expected = touching - joined
    assert len(barriers) == len(expected) > 10
    assert ("barrier-germany-switzerland" in barriers) == (
        frozenset(("germany", "switzerland")) in expected)


def test_an_area_crowded_out_of_its_cell_stops_the_build_naming_it(game):
    from dataclasses import replace

    from warpress.engine.errors import BadInput

    world = game.get("point_maps", "world")
    germany = next(p for p in world.points if p.id == "germany")
    crowded = tuple(replace(p, x=germany.x + 0.002, y=germany.y) if p.id == "switzerland"
                    else p for p in world.points)
    with pytest.raises(BadInput, match="map area '(germany|switzerland)'"):
        aa.layout(game, replace(world, points=crowded))


def test_battle_board_columns_list_units_by_hit_value(pages):
    board = page_of(pages, "battle-board")
    ids = ids_on(board)
    for side in ("attacker", "defender"):
        for value in (1, 2, 3, 4):
            assert f"board-{side}-{value}" in ids
    assert {"board-casualties", "board-attacker-transports"} <= ids
    attack3 = " ".join(texts_of(group_of(board.items, "board-attacker-3")))
    assert "Armor" in attack3 and "Fighter" in attack3
    defend4 = " ".join(texts_of(group_of(board.items, "board-defender-4")))
    assert "Fighter" in defend4 and "Battleship" in defend4


def test_production_chart_has_a_box_per_value_and_the_starting_levels(game, pages):
    chart = page_of(pages, "national-production")
    values = game.get("tracks", "national-production").values
    boxes = [i for i in walk(chart.items) if isinstance(i, Group) and i.id and
             i.id.startswith("npl-")]
    assert len(boxes) == len(values) == 148
    starts = {i.id for i in boxes if "start" in i.cls.split()}
    assert starts == {f"npl-{game.constant(f'starting-ipc-{s.id}')}" for s in game.info.sides}


def test_weapons_chart_has_a_row_per_weapon_and_a_box_per_power(game, pages):
    chart = page_of(pages, "weapons-development")
    ids = ids_on(chart)
    weapons = [w.id for w in game.section("weapons")]
    assert len(weapons) == 6
    for weapon in weapons:
        assert f"weapon-{weapon}" in ids
        for side in game.info.sides:
            assert f"weapon-{weapon}-{side.id}" in ids


def test_a_unit_card_per_power_with_the_unit_table(game, pages):
    cards = [p for p in pages if p.id.startswith("unit-cards-")]
    table = game.table("unit")
    found = set()
    for page in cards:
        for group in walk(page.items):
            if isinstance(group, Group) and (group.cls or "") == "unit-card":
                found.add(group.id)
                texts = texts_of(group)
                for row in table.rows:
                    assert any(t.startswith(row.name.title()) for t in texts)
                assert str(table.result(table.rows[5])["cost"]) in texts
    assert found == {f"unit-card-{s.id}" for s in game.info.sides}
    assert not any(p.id.startswith("sheet-reference-chart") for p in pages)


def test_counters_follow_the_counter_mix_in_power_colours(game, pages):
    fronts = [p for p in pages if p.id.startswith("counters-") and p.id.endswith("-front")]
    units = [i for p in fronts for i in walk(p.items)
             if isinstance(i, Group) and (i.cls or "").startswith("counter unit ")]
    mix = game.section("counter-mix")
    assert len(units) == sum(int(r.get("count")) for r in mix)
    for piece in units:
        side = piece.cls.split()[-1]
        ground = next(i for i in piece.items if isinstance(i, Rect))
        assert ground.style.fill == aa.power_colour(game, side)
    markers = [i for p in fronts for i in walk(p.items)
               if isinstance(i, Group) and (i.cls or "").startswith("counter marker ")]
    assert len(markers) == sum(m.count or 1 for m in game.markers)


def test_pages_are_a4_and_the_pdf_has_them_all(game, tmp_path):
    options = parse_options("a4", "pdf", "long", "0,0", "map,sheets")
    kit = build_kit(game, tmp_path, options)
    reader = PdfReader(kit.folder / "axis-allies.pdf")
    assert len(reader.pages) == kit.pages
    for page in reader.pages:
        size = sorted((float(page.mediabox.width) * 25.4 / 72,
                       float(page.mediabox.height) * 25.4 / 72))
        assert size == pytest.approx(A4, abs=0.01)


def test_rule_lists_on_the_pages_have_balanced_brackets(pages):
    """The rule text numbers its steps "land 4)"; a printed list shows "[③ combat, land 4]"."""
    listed = [re.search(r"\[(.*?)\]", text).group(1) for page in pages for item in page.items
              for text in texts_of(item) if re.search(r"\[.*land \d", text)]
    assert any("land 2" in text for text in listed)
    unbalanced = [t for t in listed if t.count("(") != t.count(")")]
    assert unbalanced == []
